//! The search kernel of ISMCTS (docs/SEARCH.md "Speed"): the play phase of an auto-mode hand
//! reduced to what a playout needs, on card masks, allocation-free. Once trump is named, runs
//! (R4.3) and bella (R4.5) are fixed by the deal and every one not yet credited is credited by
//! the end of the hand, so a full playout needs only the legal plays (R5.1 under the active
//! variants, through [`legal_plays`]), the trick winners (R5.2), the card points (R1.3), the
//! last (R1.4) and, at the end, the score (R6.2-R6.4). Its tests prove it plays and scores
//! exactly as [`Hand`].

use crate::bits::select_with;
use crate::cards::{Card, CardSet, Suit};
use crate::rng::SplitMix64;
use crate::rules::{card_points, legal_plays, TrickSoFar};
use crate::scoring::{score_hand, BELLA_POINTS, LAST_TRICK_BONUS};
use crate::seats::{next_seat, seat_after, team_of};
use crate::state::{Hand, Phase};
use crate::variants::Rules;

/// Cards played in a whole hand (R2.4: nine each).
const HAND_PLAYS: u8 = 36;
/// The low 32 bits of a draw.
const HALF: u64 = u32::MAX as u64;
/// Cards in a trick.
const TRICK_CARDS: usize = 4;

/// The play phase of one world, from the seat to move to the end of the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rollout {
    hands: [CardSet; 4],
    rules: Rules,
    trump: Suit,
    to_move: u8,
    leader: u8,
    trick: TrickSoFar,
    trick_points: u32,
    plays_left: u8,
    caller_team: u8,
    /// Team points credited so far (R6.1).
    points: [u32; 2],
    /// Runs and bella fixed by the deal and not credited yet: credited by the end of the hand.
    pending: [u32; 2],
}

impl Rollout {
    /// The play phase of `hand`, or `None` outside it.
    pub(crate) fn of(hand: &Hand) -> Option<Rollout> {
        if hand.phase() != Phase::Play {
            return None;
        }
        let trump = hand.trump()?;
        let played = hand.current_trick();
        let mut pending = [0u32; 2];
        if let (Some((seat, points)), None) = (hand.runs_decided(), hand.runs_scored()) {
            pending[team_of(seat)] += points;
        }
        if let (Some(seat), None) = (hand.bella_holder(), hand.bella()) {
            pending[team_of(seat)] += BELLA_POINTS;
        }
        Some(Rollout {
            hands: [0, 1, 2, 3].map(|seat| hand.hand(seat)),
            rules: *hand.rules(),
            trump,
            to_move: hand.to_move()?,
            leader: hand.trick_leader()?,
            trick: TrickSoFar::of(played, trump),
            trick_points: played.iter().map(|&card| card_points(card, trump)).sum(),
            plays_left: HAND_PLAYS - hand.plays().len() as u8,
            caller_team: team_of(hand.caller()?) as u8,
            points: hand.points(),
            pending,
        })
    }

    /// The same position with the cards each seat holds now and the runs and bella still to
    /// credit replaced (a redealt world, docs/SEARCH.md).
    pub(crate) fn redealt(&self, hands: [CardSet; 4], pending: [u32; 2]) -> Rollout {
        Rollout {
            hands,
            pending,
            ..*self
        }
    }

    /// The seat to move.
    #[inline(always)]
    pub(crate) fn to_move(self) -> u8 {
        self.to_move
    }

    /// Whether the hand is over.
    #[inline(always)]
    pub(crate) fn is_over(&self) -> bool {
        self.plays_left == 0
    }

    /// The trump suit.
    #[inline(always)]
    pub(crate) fn trump(&self) -> Suit {
        self.trump
    }

    /// The trick so far.
    #[inline(always)]
    pub(crate) fn trick(&self) -> &TrickSoFar {
        &self.trick
    }

    /// The cards the seat to move may play (R5.1).
    #[inline(always)]
    pub(crate) fn legal(&self) -> CardSet {
        legal_plays(
            self.hands[self.to_move as usize],
            &self.trick,
            self.trump,
            &self.rules,
        )
    }

    /// Plays a legal card of the seat to move (R5.2: the trick's winner takes its points and
    /// leads the next; R1.4: the ninth trick's winner adds the last).
    #[inline(always)]
    pub(crate) fn play(&mut self, card: Card) {
        debug_assert!(self.legal().contains(card));
        let seat = self.to_move;
        self.hands[seat as usize].remove(card);
        self.trick.push(card, self.trump);
        self.trick_points += card_points(card, self.trump);
        self.plays_left -= 1;
        if self.trick.len() < TRICK_CARDS {
            self.to_move = next_seat(seat);
            return;
        }
        let winner = seat_after(self.leader, self.trick.winner());
        let last = if self.plays_left == 0 {
            LAST_TRICK_BONUS
        } else {
            0
        };
        self.points[team_of(winner)] += self.trick_points + last;
        self.trick = TrickSoFar::EMPTY;
        self.trick_points = 0;
        self.leader = winner;
        self.to_move = winner;
    }

    /// What each team scores (R6.2-R6.4) once the hand is over: the points taken plus the runs
    /// and bella credited on the way.
    pub(crate) fn score(&self) -> [u32; 2] {
        debug_assert!(self.is_over());
        let points = [
            self.points[0] + self.pending[0],
            self.points[1] + self.pending[1],
        ];
        score_hand(points, self.caller_team as usize, &self.rules).1
    }

    /// Plays to the end with uniformly random legal cards.
    ///
    /// # Safety
    /// With `BMI2 = true` the CPU must support BMI2 (see [`crate::bits::has_bmi2`]).
    #[inline(always)]
    pub(crate) unsafe fn finish_random<const BMI2: bool>(&mut self, rng: &mut SplitMix64) {
        // Each 64-bit draw makes two choices, one from each half (multiply-shift on 32 bits:
        // a choice among at most 9 cards is off uniform by less than 2^-29).
        let (mut halves, mut spare) = (0u64, false);
        while !self.is_over() {
            let cards = self.legal().bits();
            let half = if spare {
                halves >> 32
            } else {
                halves = rng.next_u64();
                halves & HALF
            };
            spare = !spare;
            let k = ((half * cards.count_ones() as u64) >> 32) as u32;
            // SAFETY: the caller's guarantee.
            let index = unsafe { select_with::<BMI2>(cards, k) };
            self.play(Card::from_index_unchecked(index as u8));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::has_bmi2;
    use crate::bots::random_action;
    use crate::rng::derive;

    /// Every R5.1 variant on and off, over random hands: at every play the kernel's legal
    /// cards are the state's, and the same cards played to the end score what the state scores
    /// (R6), from every position of the hand.
    #[test]
    fn rollout_plays_and_scores_as_hand() {
        let mut checked = 0;
        for index in 0..800u64 {
            let variant = index % 32;
            let rules = Rules {
                head_plain: variant & 1 != 0,
                undertrump_optional: variant & 2 != 0,
                partner_exempt: variant & 4 != 0,
                team_runs: variant & 8 != 0,
                half_bait_is_bait: variant & 16 != 0,
                ..Rules::default()
            };
            let mut rng = SplitMix64::new(derive(11, index));
            let mut hand = Hand::from_seed(rng.next_u64(), (index % 4) as u8, rules, [0, 0]);
            while hand.phase() == Phase::Auction {
                hand.apply_unchecked(random_action(hand.legal_mask(), &mut rng));
            }
            // Start the kernel from a random point of the play.
            let start = rng.below(HAND_PLAYS as u32);
            while hand.phase() == Phase::Play && hand.plays().len() < start as usize {
                hand.apply_unchecked(random_action(hand.legal_mask(), &mut rng));
            }
            let Some(mut kernel) = Rollout::of(&hand) else {
                continue;
            };
            while hand.phase() == Phase::Play {
                assert_eq!(kernel.legal(), hand.legal_cards(), "R5.1: {hand:?}");
                assert_eq!(Some(kernel.to_move()), hand.to_move());
                let card = random_action(hand.legal_mask(), &mut rng);
                hand.apply_unchecked(card);
                kernel.play(Card::from_index_unchecked(card));
            }
            assert!(kernel.is_over());
            assert_eq!(kernel.score(), hand.score(), "R6: {hand:?}");
            checked += 1;
        }
        assert!(checked > 700);
    }

    /// A random kernel playout is a legal random hand's end: its count is 162 plus the runs
    /// and bella of the deal (R6.1), and the BMI2 and portable paths draw the same cards.
    #[test]
    fn random_finish_is_the_same_on_both_paths() {
        let mut hand = Hand::from_seed(5, 0, Rules::default(), [0, 0]);
        hand.apply(36).unwrap();
        let kernel = Rollout::of(&hand).unwrap();
        for seed in 0..50 {
            let mut portable = kernel;
            // SAFETY: the portable path has no requirement.
            unsafe { portable.finish_random::<false>(&mut SplitMix64::new(seed)) };
            if has_bmi2() {
                let mut fast = kernel;
                // SAFETY: BMI2 is present.
                unsafe { fast.finish_random::<true>(&mut SplitMix64::new(seed)) };
                assert_eq!(fast, portable);
            }
            let total = portable.points[0] + portable.points[1];
            assert_eq!(total + portable.pending[0] + portable.pending[1], {
                let (_, runs) = hand.runs_decided().unwrap_or((0, 0));
                let bella = hand.bella_holder().map_or(0, |_| BELLA_POINTS);
                162 + runs + bella
            });
        }
    }
}
