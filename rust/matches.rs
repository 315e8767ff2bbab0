//! The match (RULES.md R7, R2.2): hands until a team reaches `target` with the totals unequal,
//! the deal moving left after every hand (void ones too). A `Copy` value like [`Hand`]: the
//! record of finished hands is kept by the caller that wants it.

use crate::error::Error;
use crate::rng::derive;
use crate::state::Hand;
use crate::variants::Rules;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Match {
    seed: u64,
    first_dealer: u8,
    hand_index: u32,
    start_scores: [u32; 2],
    scores: [u32; 2],
    winner: Option<u8>,
    hand: Hand,
}

impl Match {
    /// Hand `i` is dealt from hand seed `derive(seed, i)` by seat `(first_dealer + i) % 4`.
    pub fn new(seed: u64, rules: Rules, first_dealer: u8, scores: [u32; 2]) -> Match {
        Match {
            seed,
            first_dealer,
            hand_index: 0,
            start_scores: scores,
            scores,
            winner: None,
            hand: Hand::from_seed(derive(seed, 0), first_dealer, rules, scores),
        }
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn first_dealer(&self) -> u8 {
        self.first_dealer
    }
    pub fn start_scores(&self) -> [u32; 2] {
        self.start_scores
    }
    /// The running totals (R7.1).
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }
    pub fn hand_index(&self) -> u32 {
        self.hand_index
    }
    /// The team that won, once the match is over.
    pub fn winner(&self) -> Option<u8> {
        self.winner
    }
    pub fn is_terminal(&self) -> bool {
        self.winner.is_some()
    }
    /// The hand being played (the last one once the match is over).
    pub fn hand(&self) -> &Hand {
        &self.hand
    }

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
        self.hand.is_terminal().then(|| self.finish_hand())
    }

    /// Checks and applies an action for `seat` (the seat to move when `None`); on error
    /// nothing changes.
    pub fn apply_for(&mut self, seat: Option<u8>, action: u8) -> Result<Option<Hand>, Error> {
        self.hand.check_for(seat, action)?;
        Ok(self.apply_unchecked(action))
    }

    fn finish_hand(&mut self) -> Hand {
        let finished = self.hand;
        let score = finished.score();
        self.scores = [self.scores[0] + score[0], self.scores[1] + score[1]];
        let target = finished.rules().target as u32;
        // R7.1: a team at the target with more points wins; equal totals play on.
        if self.scores[0].max(self.scores[1]) >= target && self.scores[0] != self.scores[1] {
            self.winner = Some((self.scores[1] > self.scores[0]) as u8);
        } else {
            self.hand_index += 1;
            let dealer = ((self.first_dealer as u32 + self.hand_index) % 4) as u8;
            self.hand = Hand::from_seed(
                derive(self.seed, self.hand_index as u64),
                dealer,
                *finished.rules(),
                self.scores,
            );
        }
        finished
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;
    use crate::rng::SplitMix64;

    #[test]
    fn random_matches_end_at_the_target_with_a_winner() {
        for seed in 0..40 {
            let rules = Rules {
                forced_at: Some(400),
                dealer_may_pass: seed % 2 == 0,
                ..Rules::default()
            };
            let mut game = Match::new(seed, rules, (seed % 4) as u8, [0, 0]);
            let mut rng = SplitMix64::new(seed);
            let mut totals = [0u32; 2];
            let mut hands = 0;
            while !game.is_terminal() {
                let mask = game.legal_mask();
                let action = CardSet(mask).nth(rng.below(mask.count_ones())).index();
                if let Some(done) = game.apply_unchecked(action) {
                    assert_eq!(done.scores_before(), totals);
                    assert_eq!(done.dealer() as u32, (seed as u32 + hands) % 4);
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
