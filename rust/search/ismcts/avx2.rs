//! The walk's scoring of a block of siblings (rust/search/ismcts.rs, [`super::score_block`]) in
//! AVX2 registers, for the BMI2 kernel (which requires AVX2, rust/cpu.rs; docs/SEARCH.md "The
//! walk"): lane `k` of each register holds one field of slot `k` of the block, as in the
//! AVX-512 copy (rust/search/ismcts/avx512.rs), without its masks. It makes the scalar loop's
//! arithmetic in the same order (no fused multiply-add), so every kernel returns the same
//! values and a decision does not depend on the CPU (the tests in rust/search/ismcts.rs
//! compare the paths).

use core::arch::x86_64::*;
use core::mem::{align_of, offset_of};

use super::{explore_term, Block, SqrtLnTable, BLOCK, SQRT_LN_TABLE_SIZE};

// The layout this copy and the AVX-512 one rely on: a block in one register of eight lanes,
// each field loaded and stored by aligned 256-bit accesses.
const _: () = assert!(BLOCK == 8, "a block is one register of eight 32-bit lanes");
const _: () = assert!(
    align_of::<Block>().is_multiple_of(32)
        && offset_of!(Block, mean).is_multiple_of(32)
        && offset_of!(Block, scale).is_multiple_of(32)
        && offset_of!(Block, explore).is_multiple_of(32)
        && offset_of!(Block, available).is_multiple_of(32)
);
/// The bits of each half of a legal set, shifted in 32-bit lanes.
const HALF_BITS: i32 = 32;
/// The sign bit of a 32-bit lane, which a blend reads.
const SIGN_BIT: i32 = 31;

/// [`super::score_block`]: a slot is unused where its action is [`super::EMPTY`] (filled in
/// order), and a child is available when bit `action` of `legal` is set: each lane shifts the
/// low half of `legal` by its action and the high half by its action less 32 (a shift of 32
/// or more, as for the other half's actions and for [`super::EMPTY`], gives 0), so the bit is
/// 1 or 0 and is added to the counts as it is. The scores are `mean + c * explore * scale` by
/// the scalar loop's multiplies and add, minus infinity where not available (a blend on the
/// bit moved to the sign); the best is a maximum over the lanes of the scores' bits as
/// integers (the order of the floats there, as in the AVX-512 copy) and the lowest lane equal
/// to it. The next walk's `explore` terms are looked up after the scores, off the chain from
/// this level to the next, by scalar loads (a gather is no faster, and much slower where the
/// microcode guards it against Gather Data Sampling).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn score_block(
    children: &mut Block,
    legal: u64,
    c: f32,
    sqrt_ln: &SqrtLnTable,
) -> (f32, u32) {
    // SAFETY: `action` is BLOCK = 8 bytes, one 64-bit load.
    let actions = _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(children.action.as_ptr().cast()) });
    let low = _mm256_srlv_epi32(_mm256_set1_epi32(legal as i32), actions);
    let high = _mm256_srlv_epi32(
        _mm256_set1_epi32((legal >> HALF_BITS) as i32),
        _mm256_sub_epi32(actions, _mm256_set1_epi32(HALF_BITS)),
    );
    let available = _mm256_and_si256(_mm256_or_si256(low, high), _mm256_set1_epi32(1));
    // SAFETY: `available` is BLOCK = 8 u32s, one 256-bit register, at a multiple of 32 bytes
    // of a 64-byte aligned `Block` (asserted above).
    let counts = unsafe { _mm256_load_si256(children.available.as_ptr().cast()) };
    let counts = _mm256_add_epi32(counts, available);
    // SAFETY: as above.
    unsafe { _mm256_store_si256(children.available.as_mut_ptr().cast(), counts) };
    let score = scores(children, c);
    // The terms of the next walk's scores: an unused slot's count stays 0, and sqrt(ln 1) is
    // the 0 the AVX-512 copy writes there.
    let next = _mm256_add_epi32(counts, _mm256_set1_epi32(1));
    let last = _mm256_set1_epi32(SQRT_LN_TABLE_SIZE as i32 - 1);
    let within = _mm256_min_epu32(next, last);
    let beyond = !_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(within, next))) as u8;
    let mut lanes = [0u32; BLOCK];
    // SAFETY: BLOCK = 8 lanes of 32 bits.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), within) };
    // Masked to the table's size (a no-op: the counts are clamped above), so no bounds check.
    let terms = lanes.map(|n| sqrt_ln[n as usize & (SQRT_LN_TABLE_SIZE - 1)]);
    // SAFETY: as above.
    let mut explore = unsafe { _mm256_loadu_ps(terms.as_ptr()) };
    if beyond != 0 {
        explore = explore_beyond(explore, next, beyond, sqrt_ln);
    }
    // SAFETY: `explore` is aligned as above.
    unsafe { _mm256_store_ps(children.explore.as_mut_ptr(), explore) };
    let keys = _mm256_castps_si256(_mm256_blendv_ps(
        _mm256_castsi256_ps(_mm256_set1_epi32(f32::NEG_INFINITY.to_bits() as i32)),
        score,
        _mm256_castsi256_ps(_mm256_slli_epi32::<SIGN_BIT>(available)),
    ));
    best_key(keys)
}

/// The block's UCB1 scores, `mean + c * explore * scale`, by the scalar loop's multiplies and
/// add in its order (no fused multiply-add), in both vector copies.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn scores(children: &Block, c: f32) -> __m256 {
    // SAFETY: `mean`, `scale` and `explore` are BLOCK = 8 f32s each, one 256-bit register, at
    // multiples of 32 bytes of a 64-byte aligned `Block` (asserted above).
    let (mean, scale, explore) = unsafe {
        (
            _mm256_load_ps(children.mean.as_ptr()),
            _mm256_load_ps(children.scale.as_ptr()),
            _mm256_load_ps(children.explore.as_ptr()),
        )
    };
    _mm256_add_ps(
        mean,
        _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(c), explore), scale),
    )
}

/// The largest of `keys` (scores' bits as signed integers: the floats' order on scores of +0
/// and up or minus infinity) as the score it is, and the lowest lane that has it, in both
/// vector copies: three integer maxima across the lanes (an integer maximum takes one cycle to
/// a float maximum's four, and this is on the chain from one level to the next).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn best_key(keys: __m256i) -> (f32, u32) {
    let halves = _mm256_max_epi32(keys, _mm256_permute2x128_si256::<1>(keys, keys));
    let pairs = _mm256_max_epi32(halves, _mm256_shuffle_epi32::<0b01_00_11_10>(halves));
    let best = _mm256_max_epi32(pairs, _mm256_shuffle_epi32::<0b10_11_00_01>(pairs));
    let ties = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(keys, best))) as u32;
    (
        _mm256_cvtss_f32(_mm256_castsi256_ps(best)),
        ties.trailing_zeros(),
    )
}

/// `explore` with the lanes in `beyond` (counts past the table) computed as the scalar loop
/// computes them: rare (a child available more than 65,534 times) and out of line (the
/// AVX-512 copy's too).
#[cold]
#[inline(never)]
#[target_feature(enable = "avx2")]
pub(super) fn explore_beyond(
    explore: __m256,
    counts: __m256i,
    beyond: u8,
    sqrt_ln: &SqrtLnTable,
) -> __m256 {
    let mut values = [0f32; BLOCK];
    let mut lanes = [0u32; BLOCK];
    // SAFETY: BLOCK = 8 lanes of 32 bits each way.
    unsafe {
        _mm256_storeu_ps(values.as_mut_ptr(), explore);
        _mm256_storeu_si256(lanes.as_mut_ptr().cast(), counts);
    }
    for (k, value) in values.iter_mut().enumerate() {
        if beyond >> k & 1 != 0 {
            *value = explore_term(lanes[k], sqrt_ln);
        }
    }
    // SAFETY: as above.
    unsafe { _mm256_loadu_ps(values.as_ptr()) }
}
