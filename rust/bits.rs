//! Bit tricks for the hot path: select the k-th set bit of a mask (uniform random choice from a
//! legal-move mask without building a list). BMI2 `pdep` when the CPU has it, detected at run
//! time so the portable wheel still gets it.

/// The index of the `k`-th set bit of `mask` (k counted from 0, lowest first); `k < popcount`.
#[inline]
pub fn select(mask: u64, k: u32) -> u32 {
    debug_assert!(k < mask.count_ones());
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("bmi2") {
            // SAFETY: the CPU supports BMI2, checked just above.
            return unsafe { select_pdep(mask, k) };
        }
    }
    select_portable(mask, k)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn select_pdep(mask: u64, k: u32) -> u32 {
    core::arch::x86_64::_pdep_u64(1u64 << k, mask).trailing_zeros()
}

#[inline]
fn select_portable(mut mask: u64, k: u32) -> u32 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_agrees_with_portable_on_many_masks() {
        let mut mask = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            mask = mask.rotate_left(7) ^ (mask >> 3) ^ 0x1234_5678;
            for k in 0..mask.count_ones() {
                assert_eq!(select(mask, k), select_portable(mask, k));
                assert!(mask & (1 << select(mask, k)) != 0);
            }
        }
    }
}
