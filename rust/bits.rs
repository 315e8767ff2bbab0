//! Bit tricks for the hot path: select the k-th set bit of a mask (uniform random choice from a
//! legal-move mask without building a list). BMI2 `pdep` when the CPU has it (rust/cpu.rs
//! detects it at run time, so the portable wheel still gets it); hot loops run a BMI2 copy of
//! themselves (`select_with::<true>` inlined into a `#[target_feature(enable = "bmi1,bmi2,popcnt")]`
//! body: with POPCNT a mask's `count_ones` is one instruction instead of a dozen, which matters
//! in a playout's dependent chain of choices).

/// The index of the `k`-th set bit of `mask` (k counted from 0, lowest first); `k < popcount`.
#[inline]
pub fn select(mask: u64, k: u32) -> u32 {
    crate::cpu::KernelSet::chosen().run(Select { mask, k })
}

/// [`select`] as a kernel's job.
struct Select {
    mask: u64,
    k: u32,
}

impl crate::cpu::Job for Select {
    type Output = u32;
    #[inline(always)]
    unsafe fn run<const BMI2: bool, const AVX512: bool>(self) -> u32 {
        // SAFETY: the caller's guarantee.
        unsafe { select_with::<BMI2>(self.mask, self.k) }
    }
}

/// [`select`] with the instruction set chosen by the caller.
///
/// # Safety
/// With `BMI2 = true` the CPU must support BMI2 (a [`crate::cpu::KernelSet`] with it).
#[inline(always)]
pub unsafe fn select_with<const BMI2: bool>(mask: u64, k: u32) -> u32 {
    debug_assert!(k < mask.count_ones());
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: the caller guarantees BMI2.
        return unsafe { core::arch::x86_64::_pdep_u64(1u64 << k, mask) }.trailing_zeros();
    }
    select_portable(mask, k)
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
