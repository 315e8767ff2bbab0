//! The random playout's whole tricks (rust/search/rollout.rs, [`Rollout::finish_random_together`])
//! for up to eight worlds at once in AVX-512 registers (docs/SEARCH.md "The playout kernel"):
//! lane `i` of each 512-bit register holds one field of world `i`, so R5.1's legal sets, the
//! random choices, the trick winners (R5.2) and the points (R1.3, R1.4) of eight worlds are one
//! chain of vector operations. It plays exactly the cards the scalar kernel plays from the same
//! generator stream (the tests in rust/search/rollout.rs compare both paths), so a decision
//! does not depend on the CPU. Used only when the CPU has every extension below
//! ([`crate::cpu::Kernel::Avx512`]).
//!
//! Each seat's hand is kept relative to the trick's leader (register `j` holds the hand of the
//! seat `j` places after the leader), so the hand to play from is known at compile time at
//! every position; after a trick the four registers are rotated, lane by lane, to the winner.

use core::arch::x86_64::*;
use core::mem::{offset_of, size_of};

use super::{Rollout, ALL, CARD_FACTS, HAND_PLAYS, MASK_BITS, MOST_TOGETHER, TRICK_CARDS};
use crate::rng::{SplitMix64, GOLDEN, MIX_1, MIX_2};
use crate::scoring::LAST_TRICK_BONUS;
use crate::seats::SEATS;
use crate::tricks::LANE;

/// Worlds a register holds: 64-bit lanes of a 512-bit register.
pub(crate) const LANES: usize = 8;
/// The mask of every lane.
const EVERY_LANE: __mmask8 = u8::MAX;
/// The random draws a round of plays takes for a full register: one for each pair of worlds.
const DRAWS_A_ROUND: usize = LANES / 2;
/// Cards of a suit (R1.1).
const SUIT_CARDS: usize = LANE.count_ones() as usize;
/// Qword table entries a register holds.
const QWORDS: usize = 8;
/// [`CARD_FACTS`]'s cards rounded up to whole registers of qwords (five).
const BEATS_REGISTERS: usize = (HAND_PLAYS as usize).div_ceil(QWORDS);

/// Byte `k` of each table: what card `k` (a bit index) makes under one trump; past the deck 0.
struct ByteTables {
    /// The card's points (R1.3).
    points: [[u8; MASK_BITS]; 4],
    /// The bit index of its suit's lowest card (nine times the suit).
    suit_shift: [u8; MASK_BITS],
}

static BYTE_TABLES: ByteTables = {
    let mut points = [[0u8; MASK_BITS]; 4];
    let mut suit_shift = [0u8; MASK_BITS];
    let mut card = 0;
    while card < HAND_PLAYS as usize {
        let mut trump = 0;
        while trump < 4 {
            points[trump][card] = CARD_FACTS[trump][card].points as u8;
            trump += 1;
        }
        suit_shift[card] = (card - card % SUIT_CARDS) as u8;
        card += 1;
    }
    ByteTables { points, suit_shift }
};

/// [`crate::tricks::BEATS`] of each card under each trump as whole registers of qwords.
static BEATS_QWORDS: [[u64; BEATS_REGISTERS * QWORDS]; 4] = {
    let mut table = [[0u64; BEATS_REGISTERS * QWORDS]; 4];
    let mut trump = 0;
    while trump < 4 {
        let mut card = 0;
        while card < HAND_PLAYS as usize {
            table[trump][card] = CARD_FACTS[trump][card].beats;
            card += 1;
        }
        trump += 1;
    }
    table
};

/// `SELECT_IN_NIBBLE[(n << 2) | k]`: the place of the `k`-th set bit of the nibble `n` (0 when
/// it has no such bit).
static SELECT_IN_NIBBLE: [u8; MASK_BITS] = {
    let mut table = [0u8; MASK_BITS];
    let mut key = 0;
    while key < MASK_BITS {
        let (nibble, k) = (key >> 2, key & 3);
        let mut seen = 0;
        let mut bit = 0;
        while bit < 4 {
            if nibble & (1 << bit) != 0 {
                if seen == k {
                    table[key] = bit as u8;
                }
                seen += 1;
            }
            bit += 1;
        }
        key += 1;
    }
    table
};

/// What one search's worlds share (one trump, one set of rules), in registers.
struct Shared {
    beats: [__m512i; BEATS_REGISTERS],
    points: __m512i,
    suit_shift: __m512i,
    select_in_nibble: __m512i,
    trump_mask: __m512i,
    head: __m512i,
}

/// The trick under way, lane by lane.
#[derive(Clone, Copy)]
struct Trick {
    /// The cards of the suit led.
    led: __m512i,
    /// The cards that would take the trick from its winner so far ([`crate::tricks::BEATS`]).
    beats: __m512i,
    /// The winner so far, as places after the leader.
    winner: __m512i,
    points: __m512i,
}

/// The worlds' hands and scores, lane by lane.
struct Lanes {
    /// The hand of the seat `j` places after the trick's leader, by `j`.
    places: [__m512i; 4],
    /// The trick's leader (a seat).
    leader: __m512i,
    /// Plays left from the trick's start.
    left: __m512i,
    /// Team points credited so far (R6.1).
    team_points: [__m512i; 2],
}

/// Whether the worlds can go through the kernel: at most [`MOST_TOGETHER`], and all with the
/// first's trump, heading rule (R5.1a: `head`) and R5.1 variants `undertrump_optional` and
/// `partner_exempt`, which the kernel takes from the first (a search's worlds always share
/// them; the other rules do not change a play).
pub(crate) fn fits(worlds: &[Rollout]) -> bool {
    let Some(first) = worlds.first() else {
        return false;
    };
    let plays_alike = |world: &Rollout| {
        (world.trump == first.trump)
            & (world.head == first.head)
            & (world.rules.undertrump_optional == first.rules.undertrump_optional)
            & (world.rules.partner_exempt == first.rules.partner_exempt)
    };
    worlds.len() <= MOST_TOGETHER && worlds.iter().all(plays_alike)
}

/// Registers of worlds played together at most: two chains of dependent steps, which the CPU
/// overlaps (one register's chain leaves its vector units idle much of the time).
const MOST_GROUPS: usize = MOST_TOGETHER / LANES;
const _: () = assert!(MOST_GROUPS * LANES == MOST_TOGETHER && MOST_GROUPS == 2);

/// Plays each of `worlds` to the end at random exactly as
/// [`Rollout::finish_random_together`] does: the tricks under way first, one card of each such
/// world in turn, a draw each; then whole tricks, a round of plays (one position of every world
/// with a trick before the last) taking one draw for each pair of worlds, its low half for the
/// first and its high half for the second; then the last trick's only cards, drawing nothing.
///
/// # Safety
/// The CPU must have the extensions of [`crate::cpu::Kernel::Avx512`]; `worlds` must [`fits`].
pub(crate) unsafe fn finish_random(worlds: &mut [Rollout], rng: &mut SplitMix64) {
    debug_assert!(fits(worlds));
    let rules = worlds[0].rules;
    let one = worlds.len() <= LANES;
    // The two R5.1 variants that change the masks' logic, fixed at compile time, and one
    // register of worlds or two.
    // SAFETY: the caller's guarantee.
    unsafe {
        match (rules.undertrump_optional, rules.partner_exempt, one) {
            (false, false, true) => finish_with::<false, false, 1>(worlds, rng),
            (false, true, true) => finish_with::<false, true, 1>(worlds, rng),
            (true, false, true) => finish_with::<true, false, 1>(worlds, rng),
            (true, true, true) => finish_with::<true, true, 1>(worlds, rng),
            (false, false, false) => finish_with::<false, false, 2>(worlds, rng),
            (false, true, false) => finish_with::<false, true, 2>(worlds, rng),
            (true, false, false) => finish_with::<true, false, 2>(worlds, rng),
            (true, true, false) => finish_with::<true, true, 2>(worlds, rng),
        }
    }
}

/// One register's worlds, lane by lane, with their tricks under way.
struct Group {
    lanes: Lanes,
    trick: Trick,
    /// Cards in the trick under way (0: none under way).
    position: __m512i,
}

/// [`Group`] of `worlds` (at most [`LANES`]; the other lanes hold no cards and no plays).
/// Each field is gathered from the worlds straight into its register: written lane by lane
/// into an array and read back as one register, the 64-byte load would wait for the eight
/// narrower stores to leave the store buffer (a store-forwarding stall, docs/SEARCH.md
/// "The playout kernel").
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn load_group(worlds: &[Rollout]) -> Group {
    let filled = ((1u32 << worlds.len()) - 1) as __mmask8;
    let base = worlds.as_ptr().cast::<u8>();
    let world_offsets = _mm512_mullo_epi64(
        _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0),
        _mm512_set1_epi64(size_of::<Rollout>() as i64),
    );
    let seats = _mm512_set1_epi64(SEATS as i64 - 1);
    // SAFETY: every offset gathered lies inside one of `worlds` (the masked-off lanes read
    // nothing); the 32-bit reads of the byte fields stay inside their world (asserted below).
    unsafe {
        let qword = |offset: usize| {
            _mm512_mask_i64gather_epi64::<1>(
                _mm512_setzero_si512(),
                filled,
                _mm512_add_epi64(world_offsets, _mm512_set1_epi64(offset as i64)),
                base.cast(),
            )
        };
        let dword = |offset: usize| {
            _mm512_cvtepu32_epi64(_mm512_mask_i64gather_epi32::<1>(
                _mm256_setzero_si256(),
                filled,
                _mm512_add_epi64(world_offsets, _mm512_set1_epi64(offset as i64)),
                base.cast(),
            ))
        };
        let byte = |offset: usize| _mm512_and_si512(dword(offset), _mm512_set1_epi64(0xFF));
        let to_move = byte(offset_of!(Rollout, to_move));
        let trick_len = byte(offset_of!(Rollout, trick_len));
        let first_seat = _mm512_and_si512(_mm512_sub_epi64(to_move, trick_len), seats);
        let hand_of = |place: i64| {
            let seat = _mm512_and_si512(
                _mm512_add_epi64(first_seat, _mm512_set1_epi64(place)),
                seats,
            );
            _mm512_mask_i64gather_epi64::<1>(
                _mm512_setzero_si512(),
                filled,
                _mm512_add_epi64(
                    _mm512_add_epi64(world_offsets, _mm512_slli_epi64::<3>(seat)),
                    _mm512_set1_epi64(offset_of!(Rollout, hands) as i64),
                ),
                base.cast(),
            )
        };
        let winner = _mm512_and_si512(
            _mm512_sub_epi64(byte(offset_of!(Rollout, winner_seat)), first_seat),
            seats,
        );
        Group {
            lanes: Lanes {
                places: [hand_of(0), hand_of(1), hand_of(2), hand_of(3)],
                leader: first_seat,
                left: _mm512_add_epi64(byte(offset_of!(Rollout, plays_left)), trick_len),
                team_points: [
                    dword(offset_of!(Rollout, points)),
                    dword(offset_of!(Rollout, points) + size_of::<u32>()),
                ],
            },
            trick: Trick {
                led: qword(offset_of!(Rollout, led)),
                beats: qword(offset_of!(Rollout, beats)),
                winner,
                points: dword(offset_of!(Rollout, trick_points)),
            },
            position: trick_len,
        }
    }
}

// The byte fields are read as 32-bit words: each must have three bytes after it in a world.
const _: () = {
    let last_word = size_of::<Rollout>() - size_of::<u32>();
    assert!(
        offset_of!(Rollout, to_move) <= last_word
            && offset_of!(Rollout, trick_len) <= last_word
            && offset_of!(Rollout, winner_seat) <= last_word
            && offset_of!(Rollout, plays_left) <= last_word
    );
};

/// A register of lanes from memory.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn load(values: &[u64; LANES]) -> __m512i {
    // SAFETY: the array is 64 bytes (`loadu` needs no alignment).
    unsafe { _mm512_loadu_si512(values.as_ptr().cast()) }
}

/// A register of bytes (a [`MASK_BITS`]-entry table) from memory.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn load_bytes(bytes: &[u8; MASK_BITS]) -> __m512i {
    // SAFETY: the array is 64 bytes.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// Writes the finished `group` back into its `worlds`: every world is over, so every hand
/// is empty and only the leader of the next trick and the points are the group's.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn store_group(group: &Group, worlds: &mut [Rollout]) {
    let store = |register: __m512i| {
        let mut values = [0u64; LANES];
        // SAFETY: the store writes the whole array of 64 bytes.
        unsafe { _mm512_storeu_si512(values.as_mut_ptr().cast(), register) };
        values
    };
    let lanes = &group.lanes;
    debug_assert!(lanes
        .places
        .iter()
        .all(|&hand| _mm512_test_epi64_mask(hand, hand) == 0));
    let leader = store(lanes.leader);
    let points = lanes.team_points.map(store);
    for (lane, world) in worlds.iter_mut().enumerate() {
        let seat = leader[lane] as u8;
        world.hands = [0; SEATS as usize];
        world.to_move = seat;
        world.winner_seat = seat;
        world.plays_left = 0;
        world.trick_len = 0;
        world.led = ALL;
        world.beats = 0;
        world.trick_points = 0;
        world.points = [points[0][lane] as u32, points[1][lane] as u32];
    }
}

/// [`finish_random`] under R5.1's `undertrump_optional` and `partner_exempt` as given, on
/// `GROUPS` registers of worlds.
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn finish_with<const UNDERTRUMP_OPTIONAL: bool, const PARTNER_EXEMPT: bool, const GROUPS: usize>(
    worlds: &mut [Rollout],
    rng: &mut SplitMix64,
) {
    let first = worlds[0];
    let trump = first.trump as usize;
    let shared = Shared {
        beats: core::array::from_fn(|k| {
            // SAFETY: `k * QWORDS + QWORDS` is within the trump's row.
            unsafe { _mm512_loadu_si512(BEATS_QWORDS[trump][k * QWORDS..].as_ptr().cast()) }
        }),
        points: load_bytes(&BYTE_TABLES.points[trump]),
        suit_shift: load_bytes(&BYTE_TABLES.suit_shift),
        select_in_nibble: load_bytes(&SELECT_IN_NIBBLE),
        trump_mask: _mm512_set1_epi64(first.trump_mask as i64),
        head: _mm512_set1_epi64(first.head as i64),
    };
    let chunk =
        |g: usize| &worlds[(g * LANES).min(worlds.len())..((g + 1) * LANES).min(worlds.len())];
    let mut groups: [Group; GROUPS] = core::array::from_fn(|g| load_group(chunk(g)));
    let mut state = rng.state();

    // The tricks under way. The scalar kernel plays them in rounds, a card of each world with
    // one in turn, a draw each: a world whose trick holds `p` cards plays its place `p` in
    // round 1, `p + 1` in round 2, ... So the rounds' draws are made first (they depend only on
    // which worlds are under way in each round), then the places are played in order, each
    // lane with the draw of the round in which it plays that place, and the tricks end
    // together.
    let one_to_eight: [u64; LANES] = core::array::from_fn(|k| GOLDEN.wrapping_mul(k as u64 + 1));
    let one_to_eight = load(&one_to_eight);
    let started = groups.each_ref().map(|group| {
        [1, 2, 3].map(|cards| _mm512_cmpeq_epu64_mask(group.position, _mm512_set1_epi64(cards)))
    });
    if started.iter().flatten().any(|&lanes| lanes != 0) {
        let mut rounds = [[_mm512_setzero_si512(); TRICK_CARDS as usize - 1]; GROUPS];
        for round in 0..TRICK_CARDS as usize - 1 {
            for (draws, started) in rounds.iter_mut().zip(&started) {
                // Under way in this round: at most `3 - round` cards when the kernel started.
                let under_way = started[..TRICK_CARDS as usize - 1 - round]
                    .iter()
                    .fold(0, |lanes, &more| lanes | more);
                let mixed = mix64(_mm512_add_epi64(
                    _mm512_set1_epi64(state as i64),
                    one_to_eight,
                ));
                state = state.wrapping_add(GOLDEN.wrapping_mul(under_way.count_ones() as u64));
                draws[round] = _mm512_maskz_expand_epi64(under_way, mixed);
            }
        }
        play_under_way::<UNDERTRUMP_OPTIONAL, PARTNER_EXEMPT, GROUPS>(
            &mut groups,
            &rounds,
            &started,
            &shared,
        );
    }

    // Whole tricks: the generator's states of two rounds' draws for each group (a pair of
    // worlds a draw, the rounds one after the other), then the draws of all the rounds to come.
    let draws = worlds.len().div_ceil(2) as u64;
    let offsets: [__m512i; GROUPS] = core::array::from_fn(|g| {
        let offsets: [u64; 2 * DRAWS_A_ROUND] = core::array::from_fn(|k| {
            let round = (k / DRAWS_A_ROUND) as u64;
            let draw = (g * DRAWS_A_ROUND + k % DRAWS_A_ROUND) as u64;
            GOLDEN.wrapping_mul(draw + 1 + round * draws)
        });
        load(&offsets)
    });
    let four = _mm512_set1_epi64(TRICK_CARDS as i64);
    let rounds = |state: u64, offsets: __m512i| {
        let mixed = mix64(_mm512_add_epi64(_mm512_set1_epi64(state as i64), offsets));
        (
            _mm512_cvtepu32_epi64(_mm512_castsi512_si256(mixed)),
            _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64::<1>(mixed)),
        )
    };
    // A whole trick's draws from the generator's `state`, and the state after them.
    let trick_draws = |state: u64| {
        let later = state.wrapping_add(GOLDEN.wrapping_mul(2 * draws));
        let draws_of = offsets.map(|offsets| {
            let (first, second) = rounds(state, offsets);
            let (third, fourth) = rounds(later, offsets);
            [first, second, third, fourth]
        });
        (draws_of, later.wrapping_add(GOLDEN.wrapping_mul(2 * draws)))
    };
    // Each trick's draws are made before the previous trick is played: they depend on the
    // generator only, and made just before their trick they would stand on its chain (two
    // 64-bit multiplies of 15 cycles each).
    let (mut draws_of, mut after) = trick_draws(state);
    loop {
        let playing = groups
            .each_ref()
            .map(|group| _mm512_cmpgt_epu64_mask(group.lanes.left, four));
        if playing.iter().all(|&lanes| lanes == 0) {
            break;
        }
        let (next_draws, next_after) = trick_draws(after);
        play_tricks::<UNDERTRUMP_OPTIONAL, PARTNER_EXEMPT, GROUPS>(
            &mut groups,
            Some(draws_of),
            playing,
            &shared,
        );
        state = after;
        (draws_of, after) = (next_draws, next_after);
    }
    *rng = SplitMix64::new(state);

    // The last trick (R2.4: one card each), drawing nothing.
    let last = groups
        .each_ref()
        .map(|group| _mm512_cmpeq_epu64_mask(group.lanes.left, four));
    if last.iter().any(|&lanes| lanes != 0) {
        play_tricks::<UNDERTRUMP_OPTIONAL, PARTNER_EXEMPT, GROUPS>(
            &mut groups,
            None,
            last,
            &shared,
        );
    }
    for (g, group) in groups.iter().enumerate() {
        let end = ((g + 1) * LANES).min(worlds.len());
        store_group(group, &mut worlds[(g * LANES).min(end)..end]);
    }
}

/// Finishes the tricks under way: a lane whose trick held `p` cards (`started[p - 1]`) plays
/// its places `p` to 3, place `q` with the draw of round `q - p + 1` (`rounds[g][q - p]`).
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn play_under_way<
    const UNDERTRUMP_OPTIONAL: bool,
    const PARTNER_EXEMPT: bool,
    const GROUPS: usize,
>(
    groups: &mut [Group; GROUPS],
    rounds: &[[__m512i; TRICK_CARDS as usize - 1]; GROUPS],
    started: &[[__mmask8; TRICK_CARDS as usize - 1]; GROUPS],
    shared: &Shared,
) {
    let [one, two, three] = [0, 1, 2];
    let draws: [[__m512i; 4]; GROUPS] = core::array::from_fn(|g| {
        let (rounds, started) = (&rounds[g], &started[g]);
        [
            _mm512_setzero_si512(),
            rounds[0],
            _mm512_mask_mov_epi64(rounds[0], started[one], rounds[1]),
            _mm512_mask_mov_epi64(
                _mm512_mask_mov_epi64(rounds[0], started[two], rounds[1]),
                started[one],
                rounds[2],
            ),
        ]
    });
    let at_one = started.map(|started| started[one]);
    let by_two = started.map(|started| started[one] | started[two]);
    let by_three = started.map(|started| started[one] | started[two] | started[three]);
    follow_in_groups::<1, UNDERTRUMP_OPTIONAL, PARTNER_EXEMPT, GROUPS, true>(
        groups,
        Some(draws),
        at_one,
        shared,
    );
    follow_in_groups::<2, UNDERTRUMP_OPTIONAL, PARTNER_EXEMPT, GROUPS, true>(
        groups,
        Some(draws),
        by_two,
        shared,
    );
    follow_in_groups::<3, UNDERTRUMP_OPTIONAL, PARTNER_EXEMPT, GROUPS, true>(
        groups,
        Some(draws),
        by_three,
        shared,
    );
    for (group, &under_way) in groups.iter_mut().zip(&by_three) {
        end_trick(&mut group.lanes, group.trick, under_way);
    }
}

/// SplitMix64's output function ([`crate::rng::mix64`]) on each lane.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
pub(crate) fn mix64(z: __m512i) -> __m512i {
    let z = _mm512_xor_si512(z, _mm512_srli_epi64::<30>(z));
    let z = _mm512_mullo_epi64(z, _mm512_set1_epi64(MIX_1 as i64));
    let z = _mm512_xor_si512(z, _mm512_srli_epi64::<27>(z));
    let z = _mm512_mullo_epi64(z, _mm512_set1_epi64(MIX_2 as i64));
    _mm512_xor_si512(z, _mm512_srli_epi64::<31>(z))
}

/// In each lane, the index of the card of `cards` (not empty) that the low 32 bits of `draw`
/// choose, as the scalar kernel chooses it: the `k`-th set bit, `k = draw * count >> 32`
/// (at most 35: the product's fifth byte).
/// Found bytewise: the byte holding the `k`-th bit is the one whose cards before it number at
/// most `k` and with it more; inside it, the nibble likewise; inside the nibble, a table.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn choose(cards: __m512i, draw: __m512i, select_in_nibble: __m512i) -> __m512i {
    /// `vpshufb`'s indices broadcasting each qword's fifth byte (bits 32..39, where the
    /// product `draw * count` holds `k`) to its eight bytes: it works in 128-bit lanes, where
    /// an even qword's fifth byte is byte 4 and an odd one's byte 12.
    const EVEN_FIFTH_BYTE: i64 = 0x0404_0404_0404_0404;
    const ODD_FIFTH_BYTE: i64 = 0x0C0C_0C0C_0C0C_0C0C;
    /// Multiplying per-byte counts by this sums, in each byte, the bytes below it (the cards
    /// sit in the low five bytes, so 52 bits of product suffice).
    const BYTES_BELOW: u64 = 0x01_0101_0100;
    /// Each byte's first bit index within its qword.
    const BYTE_BASE: u64 = 0x3830_2820_1810_0800;
    const HIGH_NIBBLE: u64 = 0x0404_0404_0404_0404;
    const LOW_NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const LOW_TWO_BITS: u64 = 0x0303_0303_0303_0303;
    /// `vpternlogq` of `a | (b & c)`.
    const A_OR_B_AND_C: i32 = 0xF8;
    /// `vpternlogq` of `a | b | c`.
    const ANY_OF_THREE: i32 = 0xFE;
    let count = _mm512_popcnt_epi64(cards);
    let scaled = _mm512_mul_epu32(draw, count);
    let byte_counts = _mm512_popcnt_epi8(cards);
    let below = _mm512_madd52lo_epu64(
        _mm512_setzero_si512(),
        byte_counts,
        _mm512_set1_epi64(BYTES_BELOW as i64),
    );
    let fifth_byte = _mm512_set_epi64(
        ODD_FIFTH_BYTE,
        EVEN_FIFTH_BYTE,
        ODD_FIFTH_BYTE,
        EVEN_FIFTH_BYTE,
        ODD_FIFTH_BYTE,
        EVEN_FIFTH_BYTE,
        ODD_FIFTH_BYTE,
        EVEN_FIFTH_BYTE,
    );
    // In each nibble: which of its cards is the k-th (valid in the nibble holding it).
    let low = _mm512_and_si512(cards, _mm512_set1_epi64(LOW_NIBBLES as i64));
    let high = _mm512_and_si512(
        _mm512_srli_epi16::<4>(cards),
        _mm512_set1_epi64(LOW_NIBBLES as i64),
    );
    let low_counts = _mm512_popcnt_epi8(low);
    let high_counts = _mm512_sub_epi8(byte_counts, low_counts);
    let below_high = _mm512_add_epi8(below, low_counts);
    let k = _mm512_shuffle_epi8(scaled, fifth_byte);
    let rank_low = _mm512_sub_epi8(k, below);
    let rank_high = _mm512_sub_epi8(k, below_high);
    let in_low = _mm512_cmplt_epu8_mask(rank_low, low_counts);
    let in_high = _mm512_cmplt_epu8_mask(rank_high, high_counts);
    let key = |nibble: __m512i, rank: __m512i| {
        _mm512_ternarylogic_epi64::<A_OR_B_AND_C>(
            _mm512_slli_epi16::<2>(nibble),
            rank,
            _mm512_set1_epi64(LOW_TWO_BITS as i64),
        )
    };
    let bit_low = _mm512_maskz_permutexvar_epi8(in_low, key(low, rank_low), select_in_nibble);
    let bit_high = _mm512_maskz_permutexvar_epi8(in_high, key(high, rank_high), select_in_nibble);
    let base = _mm512_maskz_mov_epi8(in_low | in_high, _mm512_set1_epi64(BYTE_BASE as i64));
    let base_high = _mm512_maskz_mov_epi8(in_high, _mm512_set1_epi64(HIGH_NIBBLE as i64));
    // Only the holding nibble's byte is not zero: summing a qword's bytes gives the index.
    _mm512_sad_epu8(
        _mm512_ternarylogic_epi64::<ANY_OF_THREE>(
            bit_low,
            bit_high,
            _mm512_or_si512(base, base_high),
        ),
        _mm512_setzero_si512(),
    )
}

/// The legal cards (R5.1) of `hand` in each lane, as [`crate::tricks::legal_on_masks`]: the
/// cards of the suit led that head the trick, else the suit led, else (void) the whole hand
/// when `exempt`, else the trumps that beat, else the whole hand under `undertrump_optional`,
/// else any trump, else the whole hand.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn legal<const UNDERTRUMP_OPTIONAL: bool>(
    hand: __m512i,
    trick: &Trick,
    exempt: __mmask8,
    shared: &Shared,
) -> __m512i {
    /// `vpternlogq` of `a & b & c`.
    const ALL_THREE: i32 = 0x80;
    let follow = _mm512_and_si512(hand, trick.led);
    let trumps = _mm512_and_si512(hand, shared.trump_mask);
    let follows = _mm512_test_epi64_mask(hand, trick.led);
    let cannot_beat = if UNDERTRUMP_OPTIONAL {
        hand
    } else {
        let any_trump = _mm512_test_epi64_mask(hand, shared.trump_mask) & !exempt;
        _mm512_mask_blend_epi64(any_trump, hand, trumps)
    };
    let beat = _mm512_test_epi64_mask(trumps, trick.beats) & !exempt;
    let void = _mm512_mask_blend_epi64(beat, cannot_beat, _mm512_and_si512(trumps, trick.beats));
    let heading = _mm512_ternarylogic_epi64::<ALL_THREE>(follow, trick.beats, shared.head);
    let heads = _mm512_test_epi64_mask(heading, heading);
    let followed = _mm512_mask_blend_epi64(heads, follow, heading);
    _mm512_mask_blend_epi64(follows, void, followed)
}

/// [`crate::tricks::BEATS`] of card `index` in each lane: a permute from the trump's table.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn beats_of(index: __m512i, shared: &Shared) -> __m512i {
    const FIRST_16: i64 = 16;
    const FIRST_32: i64 = 32;
    let [b0, b1, b2, b3, b4] = shared.beats;
    let low = _mm512_permutex2var_epi64(b0, index, b1);
    let middle = _mm512_permutex2var_epi64(b2, index, b3);
    let high = _mm512_permutexvar_epi64(index, b4);
    let below_16 = _mm512_cmplt_epu64_mask(index, _mm512_set1_epi64(FIRST_16));
    let below_32 = _mm512_cmplt_epu64_mask(index, _mm512_set1_epi64(FIRST_32));
    _mm512_mask_blend_epi64(
        below_16,
        _mm512_mask_blend_epi64(below_32, high, middle),
        low,
    )
}

/// The leader plays card `index` in the `playing` lanes: it wins so far, its suit is led
/// (R5.2).
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn lead(hand: &mut __m512i, index: __m512i, playing: __mmask8, shared: &Shared) -> Trick {
    let card = _mm512_sllv_epi64(_mm512_set1_epi64(1), index);
    *hand = _mm512_mask_andnot_epi64(*hand, playing, card, *hand);
    Trick {
        led: _mm512_sllv_epi64(
            _mm512_set1_epi64(LANE as i64),
            _mm512_permutexvar_epi8(index, shared.suit_shift),
        ),
        beats: beats_of(index, shared),
        winner: _mm512_setzero_si512(),
        points: _mm512_permutexvar_epi8(index, shared.points),
    }
}

/// The seat `PLACE` places after the leader plays in the `playing` lanes: a random legal card
/// from `draw`, or its only card (the last trick) without one. With `KEEP_IDLE` the other
/// lanes' tricks are left as they are.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn follow<
    const PLACE: u64,
    const UNDERTRUMP_OPTIONAL: bool,
    const PARTNER_EXEMPT: bool,
    const KEEP_IDLE: bool,
>(
    hand: &mut __m512i,
    trick: &mut Trick,
    draw: Option<__m512i>,
    playing: __mmask8,
    shared: &Shared,
) {
    let place = _mm512_set1_epi64(PLACE as i64);
    let (card, index) = match draw {
        Some(draw) => {
            // R5.1 `partner_exempt`: the partner (two places back) wins so far.
            let exempt = if PARTNER_EXEMPT && PLACE >= 2 {
                _mm512_cmpeq_epu64_mask(trick.winner, _mm512_set1_epi64(PLACE as i64 - 2))
            } else {
                0
            };
            let cards = legal::<UNDERTRUMP_OPTIONAL>(*hand, trick, exempt, shared);
            let index = choose(cards, draw, shared.select_in_nibble);
            (_mm512_sllv_epi64(_mm512_set1_epi64(1), index), index)
        }
        None => (*hand, only_card(*hand)),
    };
    *hand = _mm512_mask_andnot_epi64(*hand, playing, card, *hand);
    let adding = if KEEP_IDLE { playing } else { EVERY_LANE };
    take_if_beats(trick, card, index, place, adding, shared);
}

/// A whole trick of each group in its `playing` lanes: each seat's card from its group's
/// `draws` (one a position), or without draws its only card (the last trick). The groups take
/// each position in turn, so that their chains overlap.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn play_tricks<const UNDERTRUMP_OPTIONAL: bool, const PARTNER_EXEMPT: bool, const GROUPS: usize>(
    groups: &mut [Group; GROUPS],
    draws: Option<[[__m512i; 4]; GROUPS]>,
    playing: [__mmask8; GROUPS],
    shared: &Shared,
) {
    for (g, group) in groups.iter_mut().enumerate() {
        let hand = group.lanes.places[0];
        let index = match draws {
            Some(draws) => choose(hand, draws[g][0], shared.select_in_nibble),
            None => only_card(hand),
        };
        group.trick = lead(&mut group.lanes.places[0], index, playing[g], shared);
    }
    follow_in_groups::<1, UNDERTRUMP_OPTIONAL, PARTNER_EXEMPT, GROUPS, false>(
        groups, draws, playing, shared,
    );
    follow_in_groups::<2, UNDERTRUMP_OPTIONAL, PARTNER_EXEMPT, GROUPS, false>(
        groups, draws, playing, shared,
    );
    follow_in_groups::<3, UNDERTRUMP_OPTIONAL, PARTNER_EXEMPT, GROUPS, false>(
        groups, draws, playing, shared,
    );
    for (group, &playing) in groups.iter_mut().zip(&playing) {
        end_trick(&mut group.lanes, group.trick, playing);
    }
}

/// [`follow`] at `PLACE` in each group in turn. `KEEP_IDLE`: the lanes not playing hold a
/// trick of their own (the tricks under way), which the play must leave as it is; in whole
/// tricks they have none. (Its two values also give the two callers their own copies, which
/// the compiler inlines into each; one copy shared is kept out of line, a call a place.)
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn follow_in_groups<
    const PLACE: u64,
    const UNDERTRUMP_OPTIONAL: bool,
    const PARTNER_EXEMPT: bool,
    const GROUPS: usize,
    const KEEP_IDLE: bool,
>(
    groups: &mut [Group; GROUPS],
    draws: Option<[[__m512i; 4]; GROUPS]>,
    playing: [__mmask8; GROUPS],
    shared: &Shared,
) {
    for (g, group) in groups.iter_mut().enumerate() {
        let draw = draws.map(|draws| draws[g][PLACE as usize]);
        let Group { lanes, trick, .. } = group;
        follow::<PLACE, UNDERTRUMP_OPTIONAL, PARTNER_EXEMPT, KEEP_IDLE>(
            &mut lanes.places[PLACE as usize],
            trick,
            draw,
            playing[g],
            shared,
        );
    }
}

/// The index of each lane's only card.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn only_card(hand: __m512i) -> __m512i {
    _mm512_sub_epi64(
        _mm512_set1_epi64(MASK_BITS as i64 - 1),
        _mm512_lzcnt_epi64(hand),
    )
}

/// Adds `card` (bit `index`), played from `place` places after the leader, to the trick in
/// the `adding` lanes: it takes the trick when it beats the winner (R5.2), and its points
/// count (R1.3).
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn take_if_beats(
    trick: &mut Trick,
    card: __m512i,
    index: __m512i,
    place: __m512i,
    adding: __mmask8,
    shared: &Shared,
) {
    let wins = _mm512_mask_test_epi64_mask(adding, trick.beats, card);
    trick.beats = _mm512_mask_mov_epi64(trick.beats, wins, beats_of(index, shared));
    trick.winner = _mm512_mask_mov_epi64(trick.winner, wins, place);
    trick.points = _mm512_mask_add_epi64(
        trick.points,
        adding,
        trick.points,
        _mm512_permutexvar_epi8(index, shared.points),
    );
}

/// Ends the trick in the `playing` lanes: its winner's team takes its points and, in the
/// ninth trick, the last (R1.4); the winner leads the next (the hands rotated to it); four
/// plays fewer are left.
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512ifma"
)]
fn end_trick(lanes: &mut Lanes, trick: Trick, playing: __mmask8) {
    let seat = _mm512_and_si512(
        _mm512_add_epi64(lanes.leader, trick.winner),
        _mm512_set1_epi64(SEATS as i64 - 1),
    );
    let last = _mm512_cmpeq_epu64_mask(lanes.left, _mm512_set1_epi64(TRICK_CARDS as i64));
    let points = _mm512_mask_add_epi64(
        trick.points,
        last,
        trick.points,
        _mm512_set1_epi64(LAST_TRICK_BONUS as i64),
    );
    let odd_team = _mm512_test_epi64_mask(seat, _mm512_set1_epi64(1));
    lanes.team_points[0] = _mm512_mask_add_epi64(
        lanes.team_points[0],
        playing & !odd_team,
        lanes.team_points[0],
        points,
    );
    lanes.team_points[1] = _mm512_mask_add_epi64(
        lanes.team_points[1],
        playing & odd_team,
        lanes.team_points[1],
        points,
    );
    // Rotate by the winner's place: by one, then by two.
    for step in [1, 2] {
        let moves = playing & _mm512_test_epi64_mask(trick.winner, _mm512_set1_epi64(step as i64));
        let before = lanes.places;
        for (place, hand) in lanes.places.iter_mut().enumerate() {
            *hand = _mm512_mask_mov_epi64(*hand, moves, before[(place + step) % SEATS as usize]);
        }
    }
    lanes.leader = _mm512_mask_mov_epi64(lanes.leader, playing, seat);
    lanes.left = _mm512_mask_sub_epi64(
        lanes.left,
        playing,
        lanes.left,
        _mm512_set1_epi64(TRICK_CARDS as i64),
    );
}
