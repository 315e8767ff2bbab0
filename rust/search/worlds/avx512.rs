//! A batch's worlds drawn at once in AVX-512 registers, eight a register (rust/search/worlds.rs,
//! [`super::WorldSampler::draw_with_runs`]; docs/SEARCH.md "The draw"): lane `w` of
//! each register holds one world of the batch. The scalar draw takes, suit by suit, one number
//! for the column and the way and one for the alias table's comparison, by Lemire's
//! multiply-shift; here the eight numbers of each world are SplitMix64's next outputs in the
//! scalar order, each suit's choices are vector multiplies, and the
//! tables' fields are gathered. Should any choice fall among Lemire's rejected few (rarer than
//! one world in 100,000), the caller draws the batch again on the scalar path, which takes
//! more numbers there: so the worlds are always the scalar draw's, on every CPU (a Rust test
//! compares the paths). Used only where the CPU has the playout kernel's extensions
//! ([`crate::cpu::Kernel::Avx512`]).

use core::arch::x86_64::*;
use core::mem::offset_of;

use super::{
    Below, Below32, Move, StateDraw, SuitRuns, WorldSampler, LANE_BITS, LANE_MASK, STRENGTH_SLOTS,
    STRENGTH_SLOT_MASK, STRENGTH_TOPS, STRENGTH_TOP_BIT,
};
use crate::cards::{CardSet, Suit};
use crate::rng::{SplitMix64, GOLDEN};
use crate::search::rollout::mix64_lanes as mix64;

/// The suits, one level of the draw each.
const SUITS: usize = Suit::ALL.len();
/// The worlds of a batch: one a lane.
pub(super) const LANES: usize = 8;
/// The numbers a world takes: two a suit.
const NUMBERS: u64 = 2 * SUITS as u64;
const LOW_HALF: i64 = u32::MAX as i64;

/// The fields the draw gathers from a [`Move`], as byte offsets (the gathers' scale is 1: a
/// move is 56 bytes).
const MOVE_BYTES: i64 = size_of::<Move>() as i64;
const THRESHOLD: i32 = offset_of!(Move, threshold) as i32;
/// `alias` in the low half and `first_way` in the high half of one quadword.
const ALIAS_AND_FIRST_WAY: i32 = offset_of!(Move, alias) as i32;
const WAYS: i32 = offset_of!(Move, ways) as i32;
const NEXT: i32 = offset_of!(Move, next) as i32;
/// `first` in the low half and `columns.n` in the high half.
const NEXT_FIRST: i32 = NEXT + offset_of!(StateDraw, first) as i32;
/// `columns.n` in the low half and `columns.threshold` in the high half.
const NEXT_COLUMNS: i32 = NEXT + offset_of!(StateDraw, columns) as i32;
const NEXT_TOTAL: i32 = NEXT + (offset_of!(StateDraw, total) + offset_of!(Below, n)) as i32;
const NEXT_TOTAL_THRESHOLD: i32 =
    NEXT + (offset_of!(StateDraw, total) + offset_of!(Below, threshold)) as i32;
const _: () = assert!(
    offset_of!(Move, first_way) == offset_of!(Move, alias) + 4
        && offset_of!(Below32, threshold) == offset_of!(Below32, n) + 4
        && offset_of!(StateDraw, columns) == offset_of!(StateDraw, first) + 4
);

/// A state's draw in lanes (each field in a quadword lane).
#[derive(Clone, Copy)]
struct States {
    first: __m512i,
    columns: __m512i,
    columns_threshold: __m512i,
    total: __m512i,
    total_threshold: __m512i,
}

/// One register's worlds under way: where their numbers start, the states reached, the hands
/// and runs so far, and which lanes' choices were all accepted.
#[derive(Clone, Copy)]
struct Worlds {
    first_numbers: __m512i,
    states: States,
    hands: [__m512i; 3],
    runs: __m512i,
    accepted: __mmask8,
}

/// Draws `drawn.len()` worlds (`SETS` registers of eight) as as many calls of
/// [`WorldSampler::draw_with_runs`] on `rng` draw them, into `drawn`, and advances `rng` past
/// their numbers; returns `false`, leaving `rng` and `drawn` as they were, when a choice falls
/// among the rejected few (the scalar path then draws them). The registers' suits are
/// interleaved: each suit of a register is a chain of two dependent gathers, which the other
/// register's overlap.
///
/// Call only where the CPU has the extensions of [`crate::cpu::Kernel::Avx512`], and only
/// for a sampler with worlds to draw (a count above 0: every state a draw reaches has a move,
/// so every gathered address is in the tables).
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
pub(super) fn draw_lanes<const SETS: usize>(
    sampler: &WorldSampler,
    rng: &mut SplitMix64,
    drawn: &mut [([CardSet; 3], SuitRuns)],
) -> bool {
    debug_assert_eq!(drawn.len(), SETS * LANES);
    let moves = sampler.tables.moves.as_ptr().cast::<u8>();
    let ways = sampler.tables.ways.as_ptr().cast::<u8>();
    let start = rng.state();
    let root = &sampler.root;
    let root = States {
        first: _mm512_set1_epi64(root.first as i64),
        columns: _mm512_set1_epi64(root.columns.n as i64),
        columns_threshold: _mm512_set1_epi64(root.columns.threshold as i64),
        total: _mm512_set1_epi64(root.total.n as i64),
        total_threshold: _mm512_set1_epi64(root.total.threshold as i64),
    };
    let mut sets: [Worlds; SETS] = core::array::from_fn(|set| {
        // World w's k-th number is the generator's output 8 w + k (counting from 0).
        let first_numbers: [u64; LANES] = core::array::from_fn(|lane| {
            let world = (set * LANES + lane) as u64;
            start.wrapping_add(GOLDEN.wrapping_mul(NUMBERS * world + 1))
        });
        Worlds {
            // SAFETY: eight quadwords.
            first_numbers: unsafe { _mm512_loadu_si512(first_numbers.as_ptr().cast()) },
            states: root,
            hands: sampler.fixed.map(|cards| _mm512_set1_epi64(cards.0 as i64)),
            runs: _mm512_setzero_si512(),
            accepted: u8::MAX,
        }
    });
    let low_half = _mm512_set1_epi64(LOW_HALF);
    let move_bytes = _mm512_set1_epi64(MOVE_BYTES);
    for suit in 0..SUITS {
        let step = GOLDEN.wrapping_mul(2 * suit as u64) as i64;
        for worlds in sets.iter_mut() {
            let states = worlds.states;
            let choice = mix64(_mm512_add_epi64(
                worlds.first_numbers,
                _mm512_set1_epi64(step),
            ));
            let number = mix64(_mm512_add_epi64(
                worlds.first_numbers,
                _mm512_set1_epi64(step.wrapping_add(GOLDEN as i64)),
            ));
            // The column from the choice's low half (Lemire, 32 bits).
            let product = _mm512_mul_epu32(choice, states.columns);
            let column = _mm512_srli_epi64::<32>(product);
            worlds.accepted &= _mm512_cmpge_epu64_mask(
                _mm512_and_si512(product, low_half),
                states.columns_threshold,
            );
            // The number below the total (Lemire, 64 bits): the 128-bit product's halves.
            let (high, low) = multiply_wide(number, states.total);
            worlds.accepted &= _mm512_cmpge_epu64_mask(low, states.total_threshold);
            let landed = _mm512_mullo_epi64(_mm512_add_epi64(states.first, column), move_bytes);
            // SAFETY: a column is below its state's count of moves and an alias one of them
            // (the build's alias tables), whether or not a lane's choice is later rejected; a
            // way is below its bucket's length; and every state reached has moves (the
            // caller's count).
            let (threshold, alias) = unsafe {
                (
                    gather(landed, moves, THRESHOLD),
                    gather(landed, moves, ALIAS_AND_FIRST_WAY),
                )
            };
            let alias = _mm512_and_si512(alias, low_half);
            let below = _mm512_cmplt_epu64_mask(high, threshold);
            let taken = _mm512_mask_mov_epi64(alias, below, column);
            let at = _mm512_mullo_epi64(_mm512_add_epi64(states.first, taken), move_bytes);
            // SAFETY: as above.
            let (first_way, bucket, next_first, next_columns, total, total_threshold) = unsafe {
                (
                    gather(at, moves, ALIAS_AND_FIRST_WAY),
                    gather(at, moves, WAYS),
                    gather(at, moves, NEXT_FIRST),
                    gather(at, moves, NEXT_COLUMNS),
                    gather(at, moves, NEXT_TOTAL),
                    gather(at, moves, NEXT_TOTAL_THRESHOLD),
                )
            };
            let first_way = _mm512_srli_epi64::<32>(first_way);
            worlds.states = States {
                first: _mm512_and_si512(next_first, low_half),
                columns: _mm512_and_si512(next_columns, low_half),
                columns_threshold: _mm512_srli_epi64::<32>(next_columns),
                total,
                total_threshold,
            };
            // The way from the choice's high half (Lemire, 32 bits).
            let product = _mm512_mul_epu32(_mm512_srli_epi64::<32>(choice), bucket);
            let way = _mm512_srli_epi64::<32>(product);
            worlds.accepted &= _mm512_cmpge_epu64_mask(
                _mm512_and_si512(product, low_half),
                _mm512_srli_epi64::<32>(bucket),
            );
            let way = _mm512_slli_epi64::<3>(_mm512_add_epi64(first_way, way));
            // SAFETY: as above.
            let way = unsafe { gather(way, ways, 0) };
            let shift = _mm_set1_epi64x((LANE_BITS as usize * suit) as i64);
            for (j, hand) in worlds.hands.iter_mut().enumerate() {
                let lane = _mm512_and_si512(
                    _mm512_srl_epi64(way, _mm_set1_epi64x((LANE_BITS as usize * j) as i64)),
                    _mm512_set1_epi64(LANE_MASK as i64),
                );
                *hand = _mm512_or_si512(*hand, _mm512_sll_epi64(lane, shift));
            }
            worlds.runs = add_runs(worlds.runs, way);
        }
    }
    if sets.iter().any(|worlds| worlds.accepted != u8::MAX) {
        return false;
    }
    for (worlds, drawn) in sets.iter().zip(drawn.chunks_exact_mut(LANES)) {
        let mut lanes = [[0u64; LANES]; 4];
        let registers = worlds.hands.iter().chain([&worlds.runs]);
        for (lane, register) in lanes.iter_mut().zip(registers) {
            // SAFETY: eight quadwords.
            unsafe { _mm512_storeu_si512(lane.as_mut_ptr().cast(), *register) };
        }
        for (w, (hand, world_runs)) in drawn.iter_mut().enumerate() {
            *hand = [
                CardSet(lanes[0][w]),
                CardSet(lanes[1][w]),
                CardSet(lanes[2][w]),
            ];
            *world_runs = SuitRuns(lanes[3][w]);
        }
    }
    let numbers = NUMBERS * (SETS * LANES) as u64;
    *rng = SplitMix64::new(start.wrapping_add(GOLDEN.wrapping_mul(numbers)));
    true
}

/// The quadwords at `base + offset + bytes` for each lane's `bytes`.
///
/// # Safety
/// Every lane's address must be within one allocation, 8 readable bytes.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn gather(bytes: __m512i, base: *const u8, offset: i32) -> __m512i {
    // SAFETY: the caller's guarantee.
    unsafe { _mm512_i64gather_epi64::<1>(bytes, base.offset(offset as isize).cast()) }
}

/// The high and low 64 bits of each lane's 128-bit product `a * b`, from 32-bit halves.
#[inline]
#[target_feature(enable = "avx512f")]
fn multiply_wide(a: __m512i, b: __m512i) -> (__m512i, __m512i) {
    let low_half = _mm512_set1_epi64(LOW_HALF);
    let (a_high, b_high) = (_mm512_srli_epi64::<32>(a), _mm512_srli_epi64::<32>(b));
    let low_low = _mm512_mul_epu32(a, b);
    let high_low = _mm512_mul_epu32(a_high, b);
    let low_high = _mm512_mul_epu32(a, b_high);
    let high_high = _mm512_mul_epu32(a_high, b_high);
    // The middle column: three terms below 2^32 each, no overflow.
    let middle = _mm512_add_epi64(
        _mm512_add_epi64(
            _mm512_srli_epi64::<32>(low_low),
            _mm512_and_si512(high_low, low_half),
        ),
        _mm512_and_si512(low_high, low_half),
    );
    let high = _mm512_add_epi64(
        _mm512_add_epi64(high_high, _mm512_srli_epi64::<32>(high_low)),
        _mm512_add_epi64(
            _mm512_srli_epi64::<32>(low_high),
            _mm512_srli_epi64::<32>(middle),
        ),
    );
    let low = _mm512_or_si512(
        _mm512_slli_epi64::<32>(middle),
        _mm512_and_si512(low_low, low_half),
    );
    (high, low)
}

/// [`SuitRuns::add`] in each lane: the runs bits of `way` (above its lanes) added to `runs`.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn add_runs(runs: __m512i, way: __m512i) -> __m512i {
    let theirs = _mm512_andnot_si512(_mm512_set1_epi64(super::WAY_LANES as i64), way);
    let slots = _mm512_set1_epi64(STRENGTH_SLOTS as i64);
    let tops = _mm512_set1_epi64(STRENGTH_TOPS as i64);
    let not_smaller = _mm512_and_si512(
        _mm512_sub_epi64(
            _mm512_or_si512(_mm512_and_si512(runs, slots), tops),
            _mm512_and_si512(theirs, slots),
        ),
        tops,
    );
    let keep = _mm512_mullo_epi64(
        _mm512_srli_epi64::<STRENGTH_TOP_BIT>(not_smaller),
        _mm512_set1_epi64(STRENGTH_SLOT_MASK as i64),
    );
    let best = _mm512_or_si512(
        _mm512_and_si512(runs, keep),
        _mm512_andnot_si512(keep, _mm512_and_si512(theirs, slots)),
    );
    let rest = _mm512_add_epi64(
        _mm512_andnot_si512(slots, runs),
        _mm512_andnot_si512(slots, theirs),
    );
    _mm512_or_si512(best, rest)
}

/// [`multiply_wide`] on arrays, for the tests.
#[cfg(test)]
#[target_feature(enable = "avx512f")]
pub(super) fn multiply_wide_lanes(
    a: [u64; LANES],
    b: [u64; LANES],
) -> ([u64; LANES], [u64; LANES]) {
    let (mut high, mut low) = ([0u64; LANES], [0u64; LANES]);
    // SAFETY: eight quadwords each way.
    unsafe {
        let (h, l) = multiply_wide(
            _mm512_loadu_si512(a.as_ptr().cast()),
            _mm512_loadu_si512(b.as_ptr().cast()),
        );
        _mm512_storeu_si512(high.as_mut_ptr().cast(), h);
        _mm512_storeu_si512(low.as_mut_ptr().cast(), l);
    }
    (high, low)
}
