//! Runs and bella (RULES.md R4): detection with the top-down cut of long sequences (R4.1),
//! comparison (R4.2), the single run winner with ties (R4.3) and bella (R4.5).

use std::cmp::Ordering;

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::error::Error;

/// R4.1: what a run of three cards scores.
pub const TWENTY: u32 = 20;
/// R4.1: what a run of four cards scores.
pub const FIFTY: u32 = 50;

/// A twenty (3 cards) or a fifty (4 cards) of one suit, `top` its highest card in natural order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Run {
    /// The run's suit.
    pub suit: Suit,
    /// Its highest card in natural order.
    pub top: Rank,
    /// Its length: 3 (a twenty) or 4 (a fifty).
    pub len: u8,
}

impl Run {
    /// R4.1: 20 for three cards, 50 for four.
    #[inline]
    pub const fn points(self) -> u32 {
        run_points(self.len)
    }

    /// The run's cards as a set.
    pub const fn cards(self) -> CardSet {
        let lane = ((1u64 << self.len) - 1) << (self.top as u32 + 1 - self.len as u32);
        CardSet(lane << (9 * self.suit as u32))
    }

    /// A number that orders runs by R4.2 (size, then top card, then trump over plain); equal
    /// keys tie. Never 0, so 0 can stand for "no run".
    #[inline]
    pub fn strength(self, trump: Suit) -> u8 {
        strength_key(self.len, self.top as u8) | (self.suit == trump) as u8
    }

    /// Builds a run from its parts, checking that it can exist (R4.1).
    pub fn new(suit: Suit, top: Rank, len: u8) -> Result<Run, Error> {
        if !(3..=4).contains(&len) || (top as u8) + 1 < len {
            return Err(Error::invalid(format!(
                "no run of {len} cards tops at {top}{suit} (R4.1)"
            )));
        }
        Ok(Run { suit, top, len })
    }
}

/// R4.1: what a run of `len` cards scores.
const fn run_points(len: u8) -> u32 {
    if len == 4 {
        FIFTY
    } else {
        TWENTY
    }
}

/// [`Run::strength`] without the trump bit.
const fn strength_key(len: u8, top: u8) -> u8 {
    (((len == 4) as u8) << 5) | (top << 1) | 0x40
}

/// The runs of a set of cards, highest first: at most eight (two fifties a suit), three in a
/// hand of nine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Runs {
    runs: [Run; 8],
    len: u8,
}

impl Runs {
    /// No run.
    pub const NONE: Runs = Runs {
        runs: [Run {
            suit: Suit::Clubs,
            top: Rank::Eight,
            len: 3,
        }; 8],
        len: 0,
    };

    /// A single run (a late twenty shown in table mode, R4.4 `late_twenty`).
    pub const fn one(run: Run) -> Runs {
        let mut runs = Runs::NONE;
        runs.runs[0] = run;
        runs.len = 1;
        runs
    }

    /// The runs, highest first (R4.2).
    pub fn as_slice(&self) -> &[Run] {
        &self.runs[..self.len as usize]
    }

    /// True if there is no run.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The points of the best run under `trump` (what an announcement reveals, R4.4), 0 if none.
    pub fn best_points(&self) -> u32 {
        // Runs are ordered fifties first, so the first run has the announced size.
        self.as_slice().first().map_or(0, |run| run.points())
    }

    /// The cards of all runs.
    pub fn cards(&self) -> CardSet {
        self.as_slice()
            .iter()
            .fold(CardSet::EMPTY, |all, run| all.union(run.cards()))
    }
}

/// Card bits that can start a run of three upwards (ranks 6 to Q of every suit lane).
const RUN_STARTS: u64 = 0x7f | 0x7f << 9 | 0x7f << 18 | 0x7f << 27;

/// Whether `hand` holds any run: three consecutive cards of one suit (R4.1).
#[inline]
pub fn has_runs(hand: CardSet) -> bool {
    let h = hand.bits();
    h & (h >> 1) & (h >> 2) & RUN_STARTS != 0
}

/// The runs of one suit's cards (a lane: bit `r` = natural rank `r`), as R4.1 finds them:
/// each maximal sequence cut from the top down into fifties and a last twenty. Nine cards hold
/// at most two (two sequences of three or more need a gap; a longer one is cut 4 + 4 or 4 + 3).
#[derive(Clone, Copy, Debug)]
struct LaneRuns {
    /// The runs' top ranks and lengths, the highest sequence first (`count` of them).
    tops: [u8; 2],
    lens: [u8; 2],
    count: u8,
    /// The best run's [`Run::strength`] without the trump bit, 0 for none.
    best: u8,
    /// The points of all of them.
    points: u8,
}

const fn lane_runs(mut lane: u32) -> LaneRuns {
    let mut runs = LaneRuns {
        tops: [0; 2],
        lens: [0; 2],
        count: 0,
        best: 0,
        points: 0,
    };
    while lane != 0 {
        // The maximal sequence holding the highest remaining card, cut from the top down.
        let top = 31 - lane.leading_zeros();
        let below_gap = (!lane) & ((1 << top) - 1);
        let bottom = if below_gap == 0 {
            0
        } else {
            32 - below_gap.leading_zeros()
        };
        let mut chunk_top = top as i32;
        let mut remaining = top - bottom + 1;
        while remaining >= 3 {
            let len = if remaining < 4 { remaining } else { 4 };
            runs.tops[runs.count as usize] = chunk_top as u8;
            runs.lens[runs.count as usize] = len as u8;
            runs.count += 1;
            let strength = strength_key(len as u8, chunk_top as u8);
            if strength > runs.best {
                runs.best = strength;
            }
            runs.points += run_points(len as u8) as u8;
            chunk_top -= len as i32;
            remaining -= len;
        }
        lane &= !(((1u32 << (top - bottom + 1)) - 1) << bottom);
    }
    runs
}

/// The cards a suit has.
const SUIT_RANKS: usize = 9;

/// [`lane_runs`] of every lane, computed at compile time: finding a hand's runs is four
/// lookups.
static LANE_RUNS: [LaneRuns; 1 << SUIT_RANKS] = {
    let mut table = [lane_runs(0); 1 << SUIT_RANKS];
    let mut lane = 0;
    while lane < table.len() {
        table[lane] = lane_runs(lane as u32);
        lane += 1;
    }
    table
};

/// Calls `found` with every run of `hand` (R4.1), suit by suit, highest first in each suit.
#[inline]
fn each_run(hand: CardSet, mut found: impl FnMut(Run)) {
    if !has_runs(hand) {
        return;
    }
    for suit in Suit::ALL {
        let runs = &LANE_RUNS[hand.lane(suit) as usize];
        for k in 0..runs.count as usize {
            found(Run {
                suit,
                top: Rank::from_index(runs.tops[k]),
                len: runs.lens[k],
            });
        }
    }
}

/// R4.1: the runs of `hand`, ordered by length, then top card (both descending), then suit.
///
/// R10 example 5: A Q J T 8 7 6 of one suit holds two twenties, Q-J-T and 8-7-6.
///
/// ```
/// use tarabish::{find_runs, parse_cards, CardSet};
///
/// let hand: CardSet = parse_cards("AH QH JH TH 8H 7H 6H").unwrap().into_iter().collect();
/// let runs = find_runs(hand);
/// let points: Vec<u32> = runs.as_slice().iter().map(|run| run.points()).collect();
/// assert_eq!(points, [20, 20]);
/// ```
pub fn find_runs(hand: CardSet) -> Runs {
    let mut found = Runs::NONE;
    each_run(hand, |run| {
        found.runs[found.len as usize] = run;
        found.len += 1;
    });
    let runs = &mut found.runs[..found.len as usize];
    runs.sort_by(|a, b| {
        b.len
            .cmp(&a.len)
            .then(b.top.cmp(&a.top))
            .then(a.suit.cmp(&b.suit))
    });
    found
}

/// What R4.3 needs of a hand's runs under `trump`: the strength of its best run (0 for none,
/// see [`Run::strength`]) and the points of all its runs. No sorting: the hot path of a call.
#[inline]
pub fn runs_summary(hand: CardSet, trump: Suit) -> (u8, u32) {
    let (mut best, mut points) = (0, 0);
    for suit in Suit::ALL {
        let (suit_best, suit_points) = suit_runs_summary(hand, suit, trump);
        best = best.max(suit_best);
        points += suit_points;
    }
    (best, points)
}

/// [`runs_summary`] of the cards of `hand` in one suit.
#[inline]
pub(crate) fn suit_runs_summary(hand: CardSet, suit: Suit, trump: Suit) -> (u8, u32) {
    let runs = &LANE_RUNS[hand.lane(suit) as usize];
    // R4.2's trump bit only where the suit has a run.
    (
        runs.best | (runs.best != 0 && suit == trump) as u8,
        runs.points as u32,
    )
}

/// R4.2: `Greater` if `a` beats `b`.
///
/// R10 example 6: T-9-8-7 beats 9-8-7-6, and a trump run beats the same plain run.
///
/// ```
/// use std::cmp::Ordering;
/// use tarabish::{compare_runs, Rank, Run, Suit};
///
/// let ten_high = Run::new(Suit::Clubs, Rank::Ten, 4).unwrap();
/// let nine_high = Run::new(Suit::Hearts, Rank::Nine, 4).unwrap();
/// assert_eq!(compare_runs(ten_high, nine_high, Suit::Spades), Ordering::Greater);
/// let trump = Run::new(Suit::Spades, Rank::Ten, 4).unwrap();
/// assert_eq!(compare_runs(trump, ten_high, Suit::Spades), Ordering::Greater);
/// ```
pub fn compare_runs(a: Run, b: Run, trump: Suit) -> Ordering {
    a.strength(trump).cmp(&b.strength(trump))
}

/// R4.3: the seat whose best run (given as [`Run::strength`], 0 for none) beats every
/// other seat's best, or `None` when no one has a run or the two best tie.
#[inline]
pub fn run_winner(best: [u8; 4]) -> Option<usize> {
    let top = *best.iter().max()?;
    if top == 0 || best.iter().filter(|&&s| s == top).count() > 1 {
        return None;
    }
    best.iter().position(|&s| s == top)
}

/// R4.3 on declared runs given per seat: checks that no card is in two runs first.
pub fn checked_run_winner(runs_by_seat: &[Vec<Run>], trump: Suit) -> Result<Option<usize>, Error> {
    if runs_by_seat.len() != 4 {
        return Err(Error::invalid(format!(
            "run_winner takes the runs of four seats (R4.3), got {}",
            runs_by_seat.len()
        )));
    }
    let mut seen = CardSet::EMPTY;
    let mut best = [0u8; 4];
    for (seat, runs) in runs_by_seat.iter().enumerate() {
        for &run in runs {
            let cards = run.cards();
            if let Some(card) = seen.intersect(cards).first() {
                return Err(Error::invalid(format!(
                    "card {card} is in two runs (R4.1: a card belongs to at most one run)"
                )));
            }
            seen = seen.union(cards);
            best[seat] = best[seat].max(run.strength(trump));
        }
    }
    Ok(run_winner(best))
}

/// R4.5: whether `hand` holds both the K and Q of trump.
#[inline]
pub fn has_bella(hand: CardSet, trump: Suit) -> bool {
    let pair = Card::new(trump, Rank::King)
        .bit()
        .union(Card::new(trump, Rank::Queen).bit());
    hand.intersect(pair) == pair
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn runs_of(text: &str) -> Vec<(String, u32)> {
        let hand: CardSet = parse_cards(text).unwrap().into_iter().collect();
        find_runs(hand)
            .as_slice()
            .iter()
            .map(|r| (format!("{}{}", r.top, r.suit), r.points()))
            .collect()
    }

    #[test]
    fn runs_summary_agrees_with_find_runs() {
        let mut hand = 0x5A5A_F0F0_1234u64;
        for _ in 0..2000 {
            hand = hand.rotate_left(11) ^ (hand >> 5) ^ 0x9E37_79B9;
            let set = CardSet(hand & CardSet::DECK.bits());
            for trump in Suit::ALL {
                let runs = find_runs(set);
                let best = runs.as_slice().iter().map(|r| r.strength(trump)).max();
                let points = runs.as_slice().iter().map(|r| r.points()).sum();
                assert_eq!(runs_summary(set, trump), (best.unwrap_or(0), points));
            }
        }
    }

    #[test]
    fn has_runs_agrees_with_find_runs_on_every_lane() {
        for lane in 0u64..512 {
            for suit in Suit::ALL {
                let hand = CardSet(lane << (9 * suit as u32));
                assert_eq!(has_runs(hand), !find_runs_slow(hand).is_empty(), "{lane:b}");
            }
        }
    }

    fn find_runs_slow(hand: CardSet) -> Vec<Run> {
        let mut runs = Vec::new();
        for suit in Suit::ALL {
            let lane = hand.lane(suit);
            for top in 2..9u32 {
                if lane >> (top - 2) & 0b111 == 0b111 {
                    runs.push(Run::new(suit, Rank::from_index(top as u8), 3).unwrap());
                }
            }
        }
        runs
    }

    #[test]
    fn r10_5_examples() {
        assert_eq!(
            runs_of("AH QH JH TH 8H 7H 6H"),
            [("QH".into(), 20), ("8H".into(), 20)]
        );
        assert_eq!(
            runs_of("AH KH QH JH 9H 8H 7H 6H"),
            [("AH".into(), 50), ("9H".into(), 50)]
        );
        assert!(runs_of("AH KH JH TH 8H 7H").is_empty());
    }

    #[test]
    fn r4_1_long_sequences_cut_from_the_top() {
        let suit = "6S 7S 8S 9S TS JS QS KS AS";
        let lengths = |n: usize| {
            let cards: Vec<&str> = suit.split(' ').rev().take(n).collect();
            runs_of(&cards.join(" "))
                .iter()
                .map(|r| r.1)
                .collect::<Vec<_>>()
        };
        assert_eq!(lengths(3), [20]);
        assert_eq!(lengths(5), [50]);
        assert_eq!(lengths(6), [50]);
        assert_eq!(lengths(7), [50, 20]);
        assert_eq!(lengths(8), [50, 50]);
        assert_eq!(lengths(9), [50, 50]);
    }

    #[test]
    fn r10_6_and_7_comparisons() {
        let run = |suit, top, len| Run::new(suit, top, len).unwrap();
        let trump = Suit::Hearts;
        let t987 = run(Suit::Spades, Rank::Ten, 4);
        let n876 = run(Suit::Spades, Rank::Nine, 4);
        let akq = run(Suit::Clubs, Rank::Ace, 3);
        assert_eq!(compare_runs(t987, n876, trump), Ordering::Greater);
        assert_eq!(compare_runs(n876, akq, trump), Ordering::Greater);
        let trump_t987 = run(Suit::Hearts, Rank::Ten, 4);
        assert_eq!(compare_runs(trump_t987, t987, trump), Ordering::Greater);
        let kqjt = run(Suit::Spades, Rank::King, 4);
        assert_eq!(
            compare_runs(kqjt, run(Suit::Hearts, Rank::Ace, 3), trump),
            Ordering::Greater
        );
        let equal = run(Suit::Diamonds, Rank::Ten, 4);
        assert_eq!(compare_runs(t987, equal, trump), Ordering::Equal);
    }

    #[test]
    fn r4_3_tie_between_the_two_best_cancels_all_runs() {
        let run = |suit, top, len| Run::new(suit, top, len).unwrap();
        let runs = vec![
            vec![run(Suit::Spades, Rank::Ten, 4)],
            vec![run(Suit::Diamonds, Rank::Ten, 4)],
            vec![run(Suit::Clubs, Rank::Ace, 3)],
            vec![],
        ];
        assert_eq!(checked_run_winner(&runs, Suit::Hearts).unwrap(), None);
        let mut no_tie = runs.clone();
        no_tie[1] = vec![run(Suit::Hearts, Rank::Ten, 4)];
        assert_eq!(checked_run_winner(&no_tie, Suit::Hearts).unwrap(), Some(1));
    }
}
