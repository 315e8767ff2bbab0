//! Bit tricks for the hot path: select the k-th set bit of a mask (uniform random choice from a
//! legal-move mask without building a list) and count a mask's bits. BMI2 `pdep` and POPCNT
//! when the CPU has them (rust/cpu.rs detects them at run time, so the portable wheel still
//! gets them); hot loops run a BMI2 copy of themselves (`select_with::<true>` inlined into a
//! `#[target_feature(enable = "bmi1,bmi2,popcnt,avx2")]` body). Elsewhere (the portable kernel:
//! baseline x86-64 has neither instruction, its x86-64-v2 copy no `pdep`, aarch64 no `pdep`;
//! and the BMI2 copy of AMD's CPUs whose `pdep` is microcoded, rust/cpu.rs) a broadword select: the
//! bytes' running counts, one compare of all eight bytes against `k` at once, and a table of
//! the k-th bit of a byte, with no branch (a loop of `k` steps ends at a random point, and its
//! mispredicted end cost more than the select: docs/SEARCH.md "The playout kernel").

/// Every byte's lowest bit.
const BYTES_LOW: u64 = 0x0101_0101_0101_0101;
/// Every byte's highest bit.
const BYTES_HIGH: u64 = 0x8080_8080_8080_8080;
/// Bits a byte holds.
const BYTE_BITS: u32 = 8;
/// The place of the top byte's count in [`byte_running_counts`].
const TOP_BYTE: u32 = 56;

/// `SELECT_IN_BYTE[byte | k << 8]`: the index of the `k`-th set bit of `byte` (`k` < its count;
/// other entries unused), the last step of [`select_portable`].
static SELECT_IN_BYTE: [u8; 256 * BYTE_BITS as usize] = {
    let mut table = [0u8; 256 * BYTE_BITS as usize];
    let mut byte = 0;
    while byte < 256 {
        let (mut k, mut bit) = (0, 0);
        while bit < BYTE_BITS as usize {
            if byte >> bit & 1 != 0 {
                table[byte | k << BYTE_BITS] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Byte `i` of the result is the number of set bits in bytes `0..=i` of `mask` (at most 64,
/// so no byte overflows): the top byte is `mask`'s count. Bytewise counts by the usual halving
/// steps, then one multiply sums them in every byte at once.
#[inline(always)]
pub fn byte_running_counts(mask: u64) -> u64 {
    let pairs = mask - ((mask >> 1) & 0x5555_5555_5555_5555);
    let nibbles = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
    let bytes = (nibbles + (nibbles >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    bytes.wrapping_mul(BYTES_LOW)
}

/// The number of set bits of `mask`: one instruction with `BMI2` (whose kernel has POPCNT),
/// else the top byte of [`byte_running_counts`] (the first step of the portable
/// [`select_with`] too: where a count and a select of the same mask are inlined together, as
/// in the playout's choice, the compiler computes the running counts once).
///
/// # Safety
/// With `BMI2 = true` the CPU must support POPCNT (a [`crate::cpu::KernelSet`] with BMI2).
#[inline(always)]
pub unsafe fn count_with<const BMI2: bool>(mask: u64) -> u32 {
    if BMI2 || !cfg!(target_arch = "x86_64") {
        // With POPCNT (or off x86-64, where the target's own count is short) one instruction.
        mask.count_ones()
    } else {
        (byte_running_counts(mask) >> TOP_BYTE) as u32
    }
}

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
    unsafe fn run<const BMI2: bool, const AVX512: bool, const PDEP: bool>(self) -> u32 {
        // SAFETY: the caller's guarantee.
        unsafe { select_with::<PDEP>(self.mask, self.k) }
    }
}

/// [`select`] by BMI2's `pdep` with `PDEP = true` (a kernel's copy where the CPU runs it as
/// one fast instruction), else the broadword select.
///
/// # Safety
/// With `PDEP = true` the CPU must support BMI2 (a [`crate::cpu::KernelSet`] with it).
#[inline(always)]
pub unsafe fn select_with<const PDEP: bool>(mask: u64, k: u32) -> u32 {
    debug_assert!(k < mask.count_ones());
    #[cfg(target_arch = "x86_64")]
    if PDEP {
        // SAFETY: the caller guarantees BMI2.
        return unsafe { core::arch::x86_64::_pdep_u64(1u64 << k, mask) }.trailing_zeros();
    }
    select_portable(mask, k)
}

/// [`select`] without BMI2, branch-free: the byte holding the `k`-th bit is the number of
/// bytes whose running count is at most `k` (a prefix of them: the counts never fall), found
/// by one subtraction of all eight bytes from `k` in each (no borrow crosses a byte: each is
/// at most 64, below the high bit set in `k`'s) and a multiply summing the high bits; then
/// the table's entry for that byte and `k` less the bits below it.
#[inline(always)]
fn select_portable(mask: u64, k: u32) -> u32 {
    let counts = byte_running_counts(mask);
    let at_most_k = (((k as u64).wrapping_mul(BYTES_LOW) | BYTES_HIGH) - counts) & BYTES_HIGH;
    let place = (((at_most_k >> 7).wrapping_mul(BYTES_LOW) >> TOP_BYTE) as u32) * BYTE_BITS;
    let below = ((counts << BYTE_BITS) >> place) as u32 & 0xFF;
    let byte = (mask >> place) as usize & 0xFF;
    let rank = (k.wrapping_sub(below) as usize & (BYTE_BITS as usize - 1)) << BYTE_BITS;
    place + SELECT_IN_BYTE[byte | rank] as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `k`-th set bit by clearing the `k` lowest.
    fn select_by_clearing(mut mask: u64, k: u32) -> u32 {
        for _ in 0..k {
            mask &= mask - 1;
        }
        mask.trailing_zeros()
    }

    /// Masks of every density: sparse and dense ones, single bytes, the top bit, all bits.
    fn masks() -> impl Iterator<Item = u64> {
        let mut mask = 0x9E37_79B9_7F4A_7C15u64;
        let mixed = (0..1000).map(move |_| {
            mask = mask.rotate_left(7) ^ (mask >> 3) ^ 0x1234_5678;
            mask
        });
        let sparse = (0..64).flat_map(|i| [1u64 << i, (1u64 << i) | 1 << 63, u64::MAX << i]);
        let bytes = (1..256u64).flat_map(|byte| (0..8).map(move |at| byte << (8 * at)));
        mixed
            .chain(sparse)
            .chain(bytes)
            .chain([u64::MAX, 0x0F_FFFF_FFFF])
    }

    /// Every kernel's select and the broadword one pick the bit that clearing the lower ones
    /// leaves, and the bytes' running counts end in the count.
    #[test]
    fn select_and_count_agree_with_clearing_on_many_masks() {
        for mask in masks() {
            assert_eq!(
                (byte_running_counts(mask) >> TOP_BYTE) as u32,
                mask.count_ones()
            );
            // SAFETY: the portable count has no requirement.
            assert_eq!(unsafe { count_with::<false>(mask) }, mask.count_ones());
            for k in 0..mask.count_ones() {
                let expected = select_by_clearing(mask, k);
                assert_eq!(select_portable(mask, k), expected, "{mask:#x} {k}");
                assert_eq!(select(mask, k), expected, "{mask:#x} {k}");
            }
        }
    }
}
