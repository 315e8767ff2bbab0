//! Duplicate tournaments between two bots: deal `i` of a tournament seeded `seed` is the match
//! seeded `derive(seed, i)` with first dealer `i % 4` (the matches of [`crate::sim`]), played
//! twice: bot A on seats 0 and 2 against bot B on 1 and 3, then with the teams swapped, so both
//! bots get the same cards and luck cancels out (R7.1 ends each match). Standings are integer
//! sums, so a tournament gives the same standing on any number of threads, in any chunking.

use std::ops::{Add, Range};

use rayon::prelude::*;

use crate::registry::BotSpec;
use crate::rules::Rules;
use crate::sim::{on_pool, play_match, Batch, Seats, Summary};

/// What a tournament is: the two bots (A, B), the rules, the tournament seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tournament {
    /// The tournament seed; deal `i` is the match seeded `derive(seed, i)`.
    pub seed: u64,
    /// The rules of every match.
    pub rules: Rules,
    /// Bot A and bot B.
    pub bots: [BotSpec; 2],
}

/// Totals over the duplicate pairs of a tournament, from bot A's side (index 0) and bot B's
/// (index 1). The squared sums give the pair-to-pair spread of A's margin (docs/SEARCH.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Duplicate pairs played (two matches each).
    pub pairs: u64,
    /// Hands played in all matches.
    pub hands: u64,
    /// Matches won by A and by B.
    pub wins: [u64; 2],
    /// Points scored by A and by B (R6.2-R6.4), summed over all hands.
    pub points: [u64; 2],
    /// Pairs in which A won both matches, one, none.
    pub pairs_won: [u64; 3],
    /// Sum over pairs of the square of A's margin (A's points minus B's in the pair).
    pub margin_squares: u128,
    /// Sum over pairs of the square of the pair's hand count.
    pub hands_squares: u128,
    /// Sum over pairs of A's margin times the pair's hand count.
    pub margin_hands: i128,
}

impl Add for Standing {
    type Output = Standing;
    fn add(self, other: Standing) -> Standing {
        let pair = |a: [u64; 2], b: [u64; 2]| [a[0] + b[0], a[1] + b[1]];
        Standing {
            pairs: self.pairs + other.pairs,
            hands: self.hands + other.hands,
            wins: pair(self.wins, other.wins),
            points: pair(self.points, other.points),
            pairs_won: [0, 1, 2].map(|k| self.pairs_won[k] + other.pairs_won[k]),
            margin_squares: self.margin_squares + other.margin_squares,
            hands_squares: self.hands_squares + other.hands_squares,
            margin_hands: self.margin_hands + other.margin_hands,
        }
    }
}

impl Tournament {
    /// The batch of the first match of a pair (A on seats 0 and 2) or the second (swapped).
    fn batch(&self, swapped: bool) -> Batch {
        let [a, b] = if swapped {
            [self.bots[1], self.bots[0]]
        } else {
            self.bots
        };
        Batch {
            seed: self.seed,
            rules: self.rules,
            bots: [a, b, a, b],
        }
    }

    /// The bots of both matches of a pair, built once per worker and reused pair after pair.
    pub fn seats(&self) -> [Seats; 2] {
        [self.batch(false).seats(), self.batch(true).seats()]
    }

    /// Plays duplicate pair `index` (both matches of deal `index`) into `standing`, with
    /// `seats` from [`Tournament::seats`].
    pub fn play_pair(&self, index: u64, seats: &mut [Seats; 2], standing: &mut Standing) {
        let mut first = Summary::default();
        let mut second = Summary::default();
        play_match(&self.batch(false), index, &mut seats[0], &mut first);
        play_match(&self.batch(true), index, &mut seats[1], &mut second);
        // A is team 0 of the first match and team 1 of the second.
        let points = [
            first.score_by_team[0] + second.score_by_team[1],
            first.score_by_team[1] + second.score_by_team[0],
        ];
        let wins = [
            first.match_wins[0] + second.match_wins[1],
            first.match_wins[1] + second.match_wins[0],
        ];
        let hands = first.hands + second.hands;
        let margin = points[0] as i128 - points[1] as i128;
        standing.pairs += 1;
        standing.hands += hands;
        for side in 0..2 {
            standing.wins[side] += wins[side];
            standing.points[side] += points[side];
        }
        standing.pairs_won[2 - wins[0] as usize] += 1;
        standing.margin_squares += (margin * margin) as u128;
        standing.hands_squares += (hands as u128) * (hands as u128);
        standing.margin_hands += margin * hands as i128;
    }

    /// Plays pairs `range` on the current rayon pool.
    pub fn play(&self, range: Range<u64>) -> Standing {
        range
            .into_par_iter()
            .fold(
                || (Standing::default(), self.seats()),
                |(mut standing, mut seats), index| {
                    self.play_pair(index, &mut seats, &mut standing);
                    (standing, seats)
                },
            )
            .map(|(standing, _)| standing)
            .reduce(Standing::default, Standing::add)
    }

    /// Plays pairs `range` on the calling thread, in order.
    pub fn play_serial(&self, range: Range<u64>) -> Standing {
        let mut seats = self.seats();
        range.fold(Standing::default(), |mut standing, index| {
            self.play_pair(index, &mut seats, &mut standing);
            standing
        })
    }

    /// Plays pairs `range` on `threads` threads (0: all cores; 1: the calling thread).
    pub fn play_on(&self, range: Range<u64>, threads: usize) -> Standing {
        if threads == 1 {
            return self.play_serial(range);
        }
        on_pool(threads, || self.play(range))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tournament(a: &str, b: &str) -> Tournament {
        Tournament {
            seed: 77,
            rules: Rules::default(),
            bots: [a, b].map(|text| BotSpec::parse(text).unwrap()),
        }
    }

    #[test]
    fn any_thread_count_and_chunking_give_the_same_standing() {
        let t = tournament("greedy", "random");
        let serial = t.play_serial(0..60);
        assert_eq!(t.play_on(0..60, 2), serial);
        assert_eq!(t.play_on(0..60, 0), serial);
        assert_eq!(t.play(0..25) + t.play(25..60), serial);
        assert_eq!(serial.pairs, 60);
        assert_eq!(serial.wins[0] + serial.wins[1], 120); // R7.1: every match has a winner
    }

    #[test]
    fn a_bot_against_itself_is_exactly_even() {
        // Both matches of a pair are the same game with the teams' names swapped.
        for bot in ["random", "greedy"] {
            let standing = tournament(bot, bot).play_serial(0..40);
            assert_eq!(standing.wins, [40, 40]);
            assert_eq!(standing.points[0], standing.points[1]);
            assert_eq!(standing.pairs_won, [0, 40, 0]);
        }
    }

    #[test]
    fn swapping_the_bots_mirrors_the_standing() {
        let ab = tournament("greedy", "random").play_serial(0..30);
        let ba = tournament("random", "greedy").play_serial(0..30);
        assert_eq!(ab.wins, [ba.wins[1], ba.wins[0]]);
        assert_eq!(ab.points, [ba.points[1], ba.points[0]]);
        assert_eq!(ab.margin_hands, -ba.margin_hands);
        assert!(ab.wins[0] > 3 * ab.wins[1], "{ab:?}");
    }
}
