//! Lookup tables on a suit's lane (its nine natural-rank bits) for the double-dummy search: the
//! lane rewritten in trick order (R1.2) with its points (R1.3), the rank of each strength, the
//! strongest card, and each suit's zero-point cards.

use crate::cards::Suit;
use crate::tricks::{PLAIN_POINTS, PLAIN_STRENGTH, TRUMP_POINTS, TRUMP_STRENGTH};

/// Zero-point cards (R1.3) of one suit lane, natural order: 6 7 8 in trump, 6 7 8 9 in a plain
/// suit. They are the weakest of their suit in trick order too (R1.2), weakest first.
const ZERO_TRUMP_LANE: u64 = 0b111;
const ZERO_PLAIN_LANE: u64 = 0b1111;

/// The zero-point cards (R1.3) of every suit when `trump` is trump.
pub(super) fn zero_cards(trump: Suit) -> u64 {
    Suit::ALL
        .iter()
        .map(|&suit| {
            let lane = if suit == trump {
                ZERO_TRUMP_LANE
            } else {
                ZERO_PLAIN_LANE
            };
            lane << (9 * suit as u32)
        })
        .fold(0, |all, lane| all | lane)
}

/// A trump lane (natural-rank bits) rewritten in strength order (bit = strength).
pub(super) const TRUMP_BY_STRENGTH: [u16; 512] = by_strength(TRUMP_STRENGTH, TRUMP_POINTS).0;
/// The points (R1.3) of a trump lane written in strength order (bit = strength).
pub(super) const TRUMP_POINTS_BY_STRENGTH: [u8; 512] = by_strength(TRUMP_STRENGTH, TRUMP_POINTS).1;
/// The same for a plain suit.
pub(super) const PLAIN_BY_STRENGTH: [u16; 512] = by_strength(PLAIN_STRENGTH, PLAIN_POINTS).0;
pub(super) const PLAIN_POINTS_BY_STRENGTH: [u8; 512] = by_strength(PLAIN_STRENGTH, PLAIN_POINTS).1;

/// The rank (natural order, 0 = six) of the trump of each strength (R1.2).
pub(super) const TRUMP_RANK_OF_STRENGTH: [u8; 9] = rank_of_strength(TRUMP_STRENGTH);
/// The same for a plain suit.
pub(super) const PLAIN_RANK_OF_STRENGTH: [u8; 9] = rank_of_strength(PLAIN_STRENGTH);

const fn rank_of_strength(strength: [u8; 9]) -> [u8; 9] {
    let mut table = [0u8; 9];
    let mut rank = 0;
    while rank < 9 {
        table[strength[rank] as usize] = rank as u8;
        rank += 1;
    }
    table
}

/// The strongest card (its natural-rank bit) of a trump lane (natural-rank bits); 0 for none.
pub(super) const STRONGEST_TRUMP: [u16; 512] = strongest(TRUMP_STRENGTH);
/// The same for a plain suit.
pub(super) const STRONGEST_PLAIN: [u16; 512] = strongest(PLAIN_STRENGTH);

const fn strongest(strength: [u8; 9]) -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut lane: u32 = 1;
    while lane < 512 {
        let mut best = lane.trailing_zeros() as usize;
        let mut rank = best + 1;
        while rank < 9 {
            if lane & (1 << rank) != 0 && strength[rank] > strength[best] {
                best = rank;
            }
            rank += 1;
        }
        table[lane as usize] = 1 << best;
        lane += 1;
    }
    table
}

const fn by_strength(strength: [u8; 9], rank_points: [u8; 9]) -> ([u16; 512], [u8; 512]) {
    let mut table = [0u16; 512];
    let mut points = [0u8; 512];
    let mut lane = 0;
    while lane < 512 {
        let (mut ordered, mut sum) = (0u16, 0u8);
        let mut rank = 0;
        while rank < 9 {
            if lane & (1 << rank) != 0 {
                ordered |= 1 << strength[rank];
                sum += rank_points[rank];
            }
            rank += 1;
        }
        table[lane] = ordered;
        points[ordered as usize] = sum;
        lane += 1;
    }
    (table, points)
}
