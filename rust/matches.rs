//! The match (RULES.md R7, R2.2): hands until a team reaches `target` with the totals unequal,
//! the deal moving left after every hand (void ones too). A `Copy` value like [`Hand`]: the
//! record of finished hands is kept by the caller that wants it. The hands are auto-mode
//! [`Hand`]s (search, simulation) or [`TableHand`]s (any mode, with their action log).

use crate::error::Error;
use crate::rng::derive;
use crate::rules::Rules;
use crate::seats::seat_after;
use crate::state::Hand;
use crate::table::TableHand;

/// A hand a match can deal and play: [`Hand`] or [`TableHand`].
pub trait MatchHand: Copy {
    /// Hand `seed` dealt by `dealer` with the match scores before it.
    fn deal(seed: u64, dealer: u8, rules: Rules, scores_before: [u32; 2]) -> Self;
    /// The auto-mode state underneath (the outcome and score).
    fn core(&self) -> &Hand;
}

impl MatchHand for Hand {
    fn deal(seed: u64, dealer: u8, rules: Rules, scores_before: [u32; 2]) -> Hand {
        Hand::from_seed(seed, dealer, rules, scores_before)
    }
    #[inline]
    fn core(&self) -> &Hand {
        self
    }
}

impl MatchHand for TableHand {
    fn deal(seed: u64, dealer: u8, rules: Rules, scores_before: [u32; 2]) -> TableHand {
        TableHand::from_seed(seed, dealer, rules, scores_before)
    }
    fn core(&self) -> &Hand {
        self.hand()
    }
}

/// A match of auto-mode hands ([`Hand`], the default) or of [`TableHand`]s.
///
/// ```
/// use tarabish::{Match, Rules};
///
/// let mut game: Match = Match::new(7, Rules::default(), 0, [0, 0]);
/// while !game.is_terminal() {
///     let legal = game.legal_mask();
///     game.apply_for(None, legal.trailing_zeros() as u8).unwrap();
/// }
/// let winner = game.winner().unwrap() as usize;
/// assert!(game.scores()[winner] >= 500); // R7.1
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Match<H: MatchHand = Hand> {
    seed: u64,
    first_dealer: u8,
    hand_index: u32,
    start_scores: [u32; 2],
    scores: [u32; 2],
    winner: Option<u8>,
    hand: H,
}

impl<H: MatchHand> Match<H> {
    /// Hand `i` is dealt from hand seed `derive(seed, i)` by seat `(first_dealer + i) % 4`.
    pub fn new(seed: u64, rules: Rules, first_dealer: u8, scores: [u32; 2]) -> Match<H> {
        Match {
            seed,
            first_dealer,
            hand_index: 0,
            start_scores: scores,
            scores,
            winner: None,
            hand: H::deal(derive(seed, 0), first_dealer, rules, scores),
        }
    }

    /// The match seed: hand `i` is dealt from `derive(seed, i)`.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The dealer of the first hand (R2.1).
    pub fn first_dealer(&self) -> u8 {
        self.first_dealer
    }
    /// The totals the match started from.
    pub fn start_scores(&self) -> [u32; 2] {
        self.start_scores
    }
    /// The running totals (R7.1).
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }
    /// The number of the hand being played, from 0.
    pub fn hand_index(&self) -> u32 {
        self.hand_index
    }
    /// The team that won, once the match is over.
    pub fn winner(&self) -> Option<u8> {
        self.winner
    }
    /// True once the match is over (R7.1).
    pub fn is_terminal(&self) -> bool {
        self.winner.is_some()
    }
    /// The hand being played (the last one once the match is over).
    pub fn hand(&self) -> &H {
        &self.hand
    }

    /// After an action: the finished hand when it ended one (and the next hand is dealt).
    #[inline]
    fn hand_over(&mut self) -> Option<H> {
        self.hand.core().is_terminal().then(|| self.finish_hand())
    }

    fn finish_hand(&mut self) -> H {
        let finished = self.hand;
        let score = finished.core().score();
        self.scores = [self.scores[0] + score[0], self.scores[1] + score[1]];
        let rules = *finished.core().rules();
        // R7.1: a team at the target with more points wins; equal totals play on.
        if self.scores[0].max(self.scores[1]) >= rules.target as u32
            && self.scores[0] != self.scores[1]
        {
            self.winner = Some((self.scores[1] > self.scores[0]) as u8);
        } else {
            self.hand_index += 1;
            let dealer = seat_after(self.first_dealer, self.hand_index as usize);
            self.hand = H::deal(
                derive(self.seed, self.hand_index as u64),
                dealer,
                rules,
                self.scores,
            );
        }
        finished
    }
}

impl Match<Hand> {
    /// The legal action ids of the seat to move (none once the match is over).
    #[inline]
    pub fn legal_mask(&self) -> u64 {
        if self.winner.is_some() {
            0
        } else {
            self.hand.legal_mask()
        }
    }

    /// Applies a legal action; returns the finished hand when this action ended one.
    #[inline]
    pub fn apply_unchecked(&mut self, action: u8) -> Option<Hand> {
        self.hand.apply_unchecked(action);
        self.hand_over()
    }

    /// Checks and applies an action for `seat` (the seat to move when `None`); on error
    /// nothing changes.
    pub fn apply_for(&mut self, seat: Option<u8>, action: u8) -> Result<Option<Hand>, Error> {
        self.hand.check_for(seat, action)?;
        Ok(self.apply_unchecked(action))
    }
}

impl Match<TableHand> {
    /// Checks and applies `id` for `seat` (the seat to move when `None`; any seat may call,
    /// docs/TABLE.md); returns the finished hand when this action ended one. On error nothing
    /// changes; once the match is over every action is refused (R7.1).
    pub fn apply_table(&mut self, seat: Option<u8>, id: u8) -> Result<Option<TableHand>, Error> {
        self.hand.apply(seat, id)?;
        Ok(self.hand_over())
    }

    /// Applies an allowed id for `seat` (the caller checked [`TableHand::allowed_mask`]);
    /// returns the finished hand when this action ended one.
    #[inline]
    pub fn apply_table_unchecked(&mut self, seat: u8, id: u8) -> Option<TableHand> {
        self.hand.apply_unchecked(seat, id);
        self.hand_over()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;
    use crate::rng::SplitMix64;
    use crate::seats::seat_of;

    #[test]
    fn random_matches_end_at_the_target_with_a_winner() {
        for seed in 0..40 {
            let rules = Rules {
                forced_at: Some(400),
                dealer_may_pass: seed % 2 == 0,
                ..Rules::default()
            };
            let mut game: Match = Match::new(seed, rules, seat_of(seed), [0, 0]);
            let mut rng = SplitMix64::new(seed);
            let mut totals = [0u32; 2];
            let mut hands = 0;
            while !game.is_terminal() {
                let mask = game.legal_mask();
                let action = CardSet(mask).nth(rng.below(mask.count_ones())).index();
                if let Some(done) = game.apply_unchecked(action) {
                    assert_eq!(done.scores_before(), totals);
                    assert_eq!(done.dealer(), seat_after(seat_of(seed), hands as usize));
                    totals[0] += done.score()[0];
                    totals[1] += done.score()[1];
                    hands += 1;
                }
            }
            assert_eq!(game.scores(), totals);
            let winner = game.winner().unwrap() as usize;
            assert!(totals[winner] >= 500 && totals[winner] > totals[1 - winner]);
        }
    }
}
