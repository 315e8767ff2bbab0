//! The walk's scoring of a block of siblings (rust/search/ismcts.rs, [`super::score_block`]) in
//! AVX-512 registers (docs/SEARCH.md "The walk"): lane `k` of each register holds
//! one field of slot `k` of the block (the tree keeps each field of a block contiguous), so
//! the availability of the block's children in the world walked, their counts, UCB1's scores
//! and the best of them are a few vector operations instead of a loop with a branch a child.
//! It makes the scalar loop's arithmetic in the same order (no fused multiply-add), so both
//! return the same values and a decision does not depend on the CPU (the tests in
//! rust/search/ismcts.rs compare the paths). Used only where the CPU has the playout kernel's
//! extensions ([`crate::cpu::Kernel::Avx512`]), a superset of those below.

use core::arch::x86_64::*;

// A block in one register of eight lanes, its fields aligned: rust/search/ismcts/avx2.rs
// asserts the layout both copies rely on.
use super::avx2::{best_key, explore_beyond, scores};
use super::{Block, SqrtLnTable, EMPTY, SQRT_LN_TABLE_SIZE};

/// The lanes of a block: the low [`super::BLOCK`] bits of a mask.
const LANES: u8 = u8::MAX;

/// [`super::score_block`]: the block's used slots are those whose action is not [`EMPTY`]
/// (filled in order), a child is available when bit `action` of `legal` is set (VPSHUFBITQMB:
/// each action byte picks its bit of `legal`), the counts of the available ones go up by a
/// masked add, the scores are `mean + c * explore * scale` by the scalar loop's multiplies and
/// add, minus infinity elsewhere; the best is a maximum over the lanes (of the scores' bits as
/// integers) and the lowest lane equal to it. The next walk's `explore` terms are gathered
/// from the table after the scores, off the chain of dependent steps from this level to the
/// next (docs/SEARCH.md "The walk").
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512bitalg")]
pub(super) fn score_block(
    children: &mut Block,
    legal: u64,
    c: f32,
    sqrt_ln: &SqrtLnTable,
) -> (f32, u32) {
    // SAFETY: `action` is BLOCK = 8 bytes, one 64-bit load.
    let actions = unsafe { _mm_loadl_epi64(children.action.as_ptr().cast()) };
    let used = _mm_cmpneq_epi8_mask(actions, _mm_set1_epi8(EMPTY as i8)) as u8 & LANES;
    let available = _mm_bitshuffle_epi64_mask(_mm_set1_epi64x(legal as i64), actions) as u8 & used;
    // SAFETY: `available` is BLOCK = 8 u32s, one 256-bit register, at a multiple of 32 bytes of
    // a 64-byte aligned `Block` (asserted in rust/search/ismcts/avx2.rs; an aligned access: the
    // compiler's baseline tuning splits an unaligned one into two 128-bit halves).
    let counts = unsafe { _mm256_load_si256(children.available.as_ptr().cast()) };
    let counts = _mm256_mask_add_epi32(counts, available, counts, _mm256_set1_epi32(1));
    // SAFETY: as above.
    unsafe { _mm256_store_si256(children.available.as_mut_ptr().cast(), counts) };
    let score = scores(children, c);
    // The terms of the next walk's scores, off the chain from this level to the next.
    let next = _mm256_add_epi32(counts, _mm256_set1_epi32(1));
    let beyond =
        _mm256_mask_cmpge_epu32_mask(used, next, _mm256_set1_epi32(SQRT_LN_TABLE_SIZE as i32));
    // SAFETY: the lanes gathered are counts below the table's size.
    let mut explore = unsafe {
        _mm256_mmask_i32gather_ps::<4>(_mm256_setzero_ps(), used & !beyond, next, sqrt_ln.as_ptr())
    };
    if beyond != 0 {
        explore = explore_beyond(explore, next, beyond, sqrt_ln);
    }
    // SAFETY: as above.
    unsafe { _mm256_store_ps(children.explore.as_mut_ptr(), explore) };
    // The best by the scores' bits as signed integers: a score is at least +0 (a mean of
    // rewards in 0..1 plus a product of non-negative terms; never -0 or NaN) or minus infinity
    // (negative as an integer), and on those values the integer order is the float order, so
    // the maximum and its lowest lane are the float ones; an integer maximum takes 1 cycle to a
    // float maximum's 4, and this reduction is on the chain from one level to the next
    // (docs/SEARCH.md "The walk"). Minus infinity where the child is not available, as a blend
    // of the keys after the add: a masked move of the floats was merged into the add, which
    // then waited for the availability mask (the world's side of the chain, often the later
    // one) before its 4 cycles.
    let keys = _mm256_mask_mov_epi32(
        _mm256_set1_epi32(f32::NEG_INFINITY.to_bits() as i32),
        available,
        _mm256_castps_si256(score),
    );
    best_key(keys)
}
