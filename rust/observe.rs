//! Per-seat views (RULES.md R2.4, R4.4 auto mode, R4.5): what one seat knows (an
//! [`InfoSet`], so a view cannot show a hidden card), as a
//! fixed-size information-state tensor and a canonical string (layouts in docs/ENGINE.md).
//! Here the tensor's layout; rust/compact.rs writes it, through its compact row.
//! Kept out of `apply`: views are built only when asked for.

use std::fmt::Write;

use crate::cards::Suit;
use crate::infoset::InfoSet;
use crate::runs::FIFTY;
use crate::scoring::{BELLA_POINTS, CARD_COUNT};
use crate::seats::{SEATS, TEAMS};
use crate::state::{action_text, Phase, TRICKS};

// The tensor's segments in order (docs/ENGINE.md "Information-state tensor"): each offset is
// the previous one plus that segment's size, so the layout is written once.
const SEAT_COUNT: usize = SEATS as usize;
const SUITS: usize = Suit::ALL.len();
const PHASES: usize = 3; // auction, play, done
const DECK: usize = 36;
pub(crate) const SEAT: usize = 0; // the observer, one-hot
pub(crate) const DEALER: usize = SEAT + SEAT_COUNT; // one-hot
pub(crate) const PHASE: usize = DEALER + SEAT_COUNT; // one-hot
pub(crate) const HAND: usize = PHASE + PHASES; // the observer's visible cards
pub(crate) const KITTY: usize = HAND + DECK; // 1 while the observer's kitty is unseen
pub(crate) const AUCTION: usize = KITTY + 1; // per seat: passed, called
pub(crate) const TRUMP: usize = AUCTION + 2 * SEAT_COUNT; // one-hot
pub(crate) const TRICK: usize = TRUMP + SUITS; // per seat: the card it played to the current trick
pub(crate) const PAST_TRICKS: usize = TRICK + SEAT_COUNT * DECK; // per completed trick and seat: its card
pub(crate) const TRICK_LEADERS: usize = PAST_TRICKS + TRICKS * SEAT_COUNT * DECK; // per completed trick
pub(crate) const TRICK_LEADER: usize = TRICK_LEADERS + TRICKS * SEAT_COUNT; // the current trick's
pub(crate) const ANNOUNCED: usize = TRICK_LEADER + SEAT_COUNT; // per seat: twenty, fifty
pub(crate) const SHOWN: usize = ANNOUNCED + 2 * SEAT_COUNT; // per seat: its shown run cards
pub(crate) const RUNS_WINNER: usize = SHOWN + SEAT_COUNT * DECK; // one-hot
pub(crate) const BELLA: usize = RUNS_WINNER + SEAT_COUNT; // one-hot
pub(crate) const POINTS: usize = BELLA + SEAT_COUNT; // per team, over MAX_TEAM_POINTS
pub(crate) const SCORES: usize = POINTS + TEAMS; // per team, over SCORE_SCALE
pub(crate) const TO_MOVE: usize = SCORES + TEAMS; // one-hot

/// The most points a team can be credited in one hand (R6.1): every card and the last trick
/// (R1.4), two fifties of the run winner and two of its partner (R4.1: nine cards hold at most
/// two chunks of four; R4.3 `team_runs`), and bella (R4.5). The tensor's points are divided by
/// it, so they lie in [0, 1].
pub const MAX_TEAM_POINTS: u32 = CARD_COUNT + 2 * 2 * FIFTY + BELLA_POINTS;
/// The match total that the tensor reads as 1 (twice R9's default target): `scores_before`
/// enters the tensor as `min(score, SCORE_SCALE) / SCORE_SCALE`.
pub const SCORE_SCALE: u32 = 1000;

/// The length of the information-state tensor (docs/ENGINE.md).
pub const TENSOR_SIZE: usize = TO_MOVE + SEAT_COUNT;
const _: () = assert!(
    TENSOR_SIZE == 1708,
    "the tensor layout is a public contract"
);

/// `value / max` in float32 (one correctly rounded division, as numpy's), capped at 1.
pub(crate) fn ratio(value: u32, max: u32) -> f32 {
    value.min(max) as f32 / max as f32
}

fn or_dash(text: String) -> String {
    if text.is_empty() {
        "-".to_string()
    } else {
        text
    }
}

fn seat_or_dash(seat: Option<u8>) -> String {
    seat.map_or("-".to_string(), |s| s.to_string())
}

/// The canonical information-state string of the seat of `info` (docs/ENGINE.md).
pub fn information_string(info: &InfoSet) -> String {
    let seat = info.seat();
    let mut text = String::with_capacity(512);
    let scores = info.scores_before();
    // Writing to a String cannot fail.
    let _ = writeln!(
        text,
        "seat {seat} dealer {} phase {} to_move {} scores {} {}",
        info.dealer(),
        info.phase().name(),
        seat_or_dash(info.to_move()),
        scores[0],
        scores[1]
    );
    let _ = writeln!(text, "hand {}", or_dash(info.hand().to_string()));
    let _ = writeln!(text, "kitty {}", info.unseen_kitty());
    let auction: Vec<String> = info.auction().map(|(s, id)| action_text(s, id)).collect();
    let _ = writeln!(text, "auction {}", or_dash(auction.join(", ")));
    let _ = writeln!(
        text,
        "trump {} caller {}",
        info.trump()
            .map_or("-".to_string(), |s: Suit| s.to_string()),
        seat_or_dash(info.caller())
    );
    let tricks: Vec<String> = info
        .completed_tricks()
        .map(|t| {
            let cards: Vec<String> = t.cards.iter().map(|c| c.to_string()).collect();
            format!("{}:{}>{}", t.leader, cards.join(" "), t.winner)
        })
        .collect();
    let _ = writeln!(text, "tricks {}", or_dash(tricks.join(" | ")));
    let trick = match info.trick_leader() {
        Some(leader) if info.phase() == Phase::Play && !info.current_trick().is_empty() => {
            let cards: Vec<String> = info.current_trick().iter().map(|c| c.to_string()).collect();
            format!("{leader}:{}", cards.join(" "))
        }
        _ => String::new(),
    };
    let _ = writeln!(text, "trick {}", or_dash(trick));
    let announced: Vec<String> = (0..4)
        .map(|who| match info.announced(who) {
            Some(points) if points > 0 => points.to_string(),
            _ => "-".to_string(),
        })
        .collect();
    let _ = writeln!(text, "announced {}", announced.join(" "));
    let shown: Vec<String> = (0..4u8)
        .filter_map(|who| {
            let runs = info.shown(who);
            (!runs.is_empty()).then(|| {
                let runs: Vec<String> = runs
                    .as_slice()
                    .iter()
                    .map(|r| format!("{}{}{}", r.top, r.suit, r.len))
                    .collect();
                format!("{who}:{}", runs.join(","))
            })
        })
        .collect();
    let _ = writeln!(text, "shown {}", or_dash(shown.join(" ")));
    let runs = info
        .runs_scored()
        .map_or("-".to_string(), |(who, points)| format!("{who} {points}"));
    let _ = writeln!(text, "runs {runs}");
    let _ = writeln!(text, "bella {}", seat_or_dash(info.bella()));
    let points = info.points();
    let _ = write!(text, "points {} {}", points[0], points[1]);
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;
    use crate::compact::write_tensor;
    use crate::deal::FIRST_PACKETS;
    use crate::rules::Rules;
    use crate::state::Hand;

    #[test]
    fn before_trump_only_the_first_six_cards_show() {
        let hand = Hand::from_seed(42, 0, Rules::default(), [0, 0]);
        for seat in 0..4u8 {
            let info = InfoSet::new(&hand, seat);
            assert_eq!(info.hand().len(), 6);
            let mut tensor = [0.0; TENSOR_SIZE];
            write_tensor(&info, &mut tensor);
            let kitty: CardSet = hand.deal()[seat as usize][FIRST_PACKETS..]
                .iter()
                .copied()
                .collect();
            for card in kitty {
                assert_eq!(tensor[HAND + card.index() as usize], 0.0);
                assert!(!information_string(&info).contains(&card.to_string()));
            }
        }
    }
}
