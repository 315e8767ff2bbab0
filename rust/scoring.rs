//! Scoring a hand (RULES.md R6): made, bait, half bait, and the `half_bait_is_bait` variant;
//! the outcomes of a hand ended by a call (R8.2, R8.3) are scored by `table`.

use crate::rules::Rules;

/// R1.4: the winner of the ninth trick adds 10 ("last").
pub const LAST_TRICK_BONUS: u32 = 10;
/// R1.4: the card points of the deck (152) and the last (10): every played-out hand's cards.
pub const CARD_COUNT: u32 = 162;
/// R4.5: what bella scores.
pub const BELLA_POINTS: u32 = 20;

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// R6.2: the calling team took more than the other team.
    Made,
    /// R6.3: the calling team took less.
    Bait,
    /// R6.4: equal points.
    HalfBait,
    /// R3.3: everyone passed under `dealer_may_pass`.
    Void,
    /// R8.2: a misplay call ended the hand.
    Misplay,
    /// R8.3: a team threw the hand in.
    ThrowIn,
}

impl Outcome {
    /// The outcome's name in records: `made`, `bait`, `half_bait`, `void`, `misplay`, `throw_in`.
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Made => "made",
            Outcome::Bait => "bait",
            Outcome::HalfBait => "half_bait",
            Outcome::Void => "void",
            Outcome::Misplay => "misplay",
            Outcome::ThrowIn => "throw_in",
        }
    }
}

/// R6.2-R6.4: what each team scores from the teams' points (cards, last, runs, bella; R6.1).
///
/// R10 example 8: a count of 202; the callers (team 0) take 95 against 107, so bait.
///
/// ```
/// use tarabish::{score_hand, Outcome, Rules};
///
/// assert_eq!(score_hand([95, 107], 0, &Rules::default()), (Outcome::Bait, [0, 202]));
/// assert_eq!(score_hand([110, 92], 0, &Rules::default()), (Outcome::Made, [110, 92]));
/// ```
pub fn score_hand(points: [u32; 2], caller_team: usize, rules: &Rules) -> (Outcome, [u32; 2]) {
    let (callers, others) = (points[caller_team], points[1 - caller_team]);
    let count = points[0] + points[1];
    let outcome = match callers.cmp(&others) {
        std::cmp::Ordering::Greater => Outcome::Made,
        std::cmp::Ordering::Less => Outcome::Bait,
        std::cmp::Ordering::Equal => Outcome::HalfBait,
    };
    // R6.2: each team scores its points; R6.3: the others take the count; R6.4: the others
    // keep theirs (the count under `half_bait_is_bait`); the callers score nothing unless made.
    // As selects, not branches on the outcome: in the search's random playouts the outcome
    // cannot be predicted (docs/SEARCH.md "The playout kernel").
    let made = callers > others;
    let others_keep = made | ((callers == others) & !rules.half_bait_is_bait);
    let callers_score = if made { callers } else { 0 };
    let others_score = if others_keep { others } else { count };
    // Both scores placed at once: an array written by index and read back whole waits on a
    // store-forwarding stall.
    let score = if caller_team == 0 {
        [callers_score, others_score]
    } else {
        [others_score, callers_score]
    };
    (outcome, score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r10_8_examples() {
        let rules = Rules::default();
        assert_eq!(score_hand([110, 92], 0, &rules), (Outcome::Made, [110, 92]));
        assert_eq!(score_hand([92, 110], 1, &rules), (Outcome::Made, [92, 110]));
        assert_eq!(score_hand([95, 107], 0, &rules), (Outcome::Bait, [0, 202]));
        assert_eq!(
            score_hand([101, 101], 0, &rules),
            (Outcome::HalfBait, [0, 101])
        );
        // The same with the teams swapped: each score lands on its own team's side.
        assert_eq!(score_hand([107, 95], 1, &rules), (Outcome::Bait, [202, 0]));
        assert_eq!(
            score_hand([101, 101], 1, &rules),
            (Outcome::HalfBait, [101, 0])
        );
        let strict = Rules {
            half_bait_is_bait: true,
            ..rules
        };
        assert_eq!(
            score_hand([101, 101], 0, &strict),
            (Outcome::HalfBait, [0, 202])
        );
        assert_eq!(
            score_hand([101, 101], 1, &strict),
            (Outcome::HalfBait, [202, 0])
        );
    }
}
