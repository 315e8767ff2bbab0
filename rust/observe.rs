//! Per-seat views (RULES.md R2.4, R4.4 auto mode, R4.5): what one seat may know, as a
//! fixed-size information-state tensor and a canonical string (layouts in docs/ENGINE.md).
//! Kept out of `apply`: views are built only when asked for.

use std::fmt::Write;

use crate::cards::{CardSet, Suit};
use crate::runs::{find_runs, Runs};
use crate::state::{action_text, Hand, Phase, PASS};

pub const TENSOR_SIZE: usize = 1708;

const SEAT: usize = 0;
const DEALER: usize = 4;
const PHASE: usize = 8;
const HAND: usize = 11;
const KITTY: usize = 47;
const AUCTION: usize = 48;
const TRUMP: usize = 56;
const TRICK: usize = 60;
const TRICKS: usize = 204;
const TRICK_LEADERS: usize = 1500;
const TRICK_LEADER: usize = 1536;
const ANNOUNCED: usize = 1540;
const SHOWN: usize = 1548;
const RUNS_WINNER: usize = 1692;
const BELLA: usize = 1696;
const POINTS: usize = 1700;
const SCORES: usize = 1702;
const TO_MOVE: usize = 1704;

/// The cards `seat` can see in its own hand: only its first six before trump (R2.4).
pub fn visible_hand(hand: &Hand, seat: usize) -> CardSet {
    if hand.trump().is_some() {
        hand.hand(seat)
    } else {
        hand.first_six(seat).intersect(hand.hand(seat))
    }
}

/// Own kitty cards `seat` has not seen yet (3 before trump is named, R2.4).
pub fn unseen_kitty(hand: &Hand) -> u32 {
    if hand.trump().is_some() {
        0
    } else {
        3
    }
}

/// R4.4 auto mode: the size of `seat`'s best run, public once it has played its first card.
pub fn announced(hand: &Hand, seat: u8) -> Option<u32> {
    if hand.trump().is_none() || hand.cards_played_by(seat) == 0 {
        return None;
    }
    let points = find_runs(hand.dealt(seat as usize)).best_points();
    (points > 0).then_some(points)
}

/// R4.4 auto mode: `seat`'s runs, shown once it has played its second card.
pub fn shown(hand: &Hand, seat: u8) -> Runs {
    if hand.trump().is_none() || hand.cards_played_by(seat) < 2 {
        return Runs::NONE;
    }
    find_runs(hand.dealt(seat as usize))
}

/// The information-state tensor of `seat` (docs/ENGINE.md), written into `out`.
pub fn write_tensor(hand: &Hand, seat: u8, out: &mut [f32; TENSOR_SIZE]) {
    out.fill(0.0);
    let mut set = |offset: usize, value: f32| out[offset] = value;
    set(SEAT + seat as usize, 1.0);
    set(DEALER + hand.dealer() as usize, 1.0);
    set(PHASE + hand.phase() as usize, 1.0);
    for card in visible_hand(hand, seat as usize) {
        set(HAND + card.index() as usize, 1.0);
    }
    if unseen_kitty(hand) > 0 {
        set(KITTY, 1.0);
    }
    for (who, id) in hand.auction() {
        set(AUCTION + 2 * who as usize + (id != PASS) as usize, 1.0);
    }
    if let Some(trump) = hand.trump() {
        set(TRUMP + trump as usize, 1.0);
    }
    if let Some(leader) = hand.trick_leader() {
        set(TRICK_LEADER + leader as usize, 1.0);
        for (pos, card) in hand.current_trick().iter().enumerate() {
            let who = (leader as usize + pos) % 4;
            set(TRICK + 36 * who + card.index() as usize, 1.0);
        }
    }
    for (k, trick) in hand.completed_tricks().enumerate() {
        set(TRICK_LEADERS + 4 * k + trick.leader as usize, 1.0);
        for (pos, card) in trick.cards.iter().enumerate() {
            let who = (trick.leader as usize + pos) % 4;
            set(TRICKS + 36 * (4 * k + who) + card.index() as usize, 1.0);
        }
    }
    for who in 0..4u8 {
        match announced(hand, who) {
            Some(20) => set(ANNOUNCED + 2 * who as usize, 1.0),
            Some(_) => set(ANNOUNCED + 2 * who as usize + 1, 1.0),
            None => {}
        }
        for card in shown(hand, who).cards() {
            set(SHOWN + 36 * who as usize + card.index() as usize, 1.0);
        }
    }
    if let Some((who, _)) = hand.runs_scored() {
        set(RUNS_WINNER + who as usize, 1.0);
    }
    if let Some(who) = hand.bella() {
        set(BELLA + who as usize, 1.0);
    }
    let points = hand.points();
    let scores = hand.scores_before();
    for team in 0..2 {
        set(POINTS + team, points[team] as f32);
        set(SCORES + team, scores[team] as f32);
    }
    if let Some(who) = hand.to_move() {
        set(TO_MOVE + who as usize, 1.0);
    }
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

/// The canonical information-state string of `seat` (docs/ENGINE.md).
pub fn information_string(hand: &Hand, seat: u8) -> String {
    let mut text = String::with_capacity(512);
    let scores = hand.scores_before();
    // Writing to a String cannot fail.
    let _ = writeln!(
        text,
        "seat {seat} dealer {} phase {} to_move {} scores {} {}",
        hand.dealer(),
        hand.phase().name(),
        seat_or_dash(hand.to_move()),
        scores[0],
        scores[1]
    );
    let _ = writeln!(
        text,
        "hand {}",
        or_dash(visible_hand(hand, seat as usize).to_string())
    );
    let _ = writeln!(text, "kitty {}", unseen_kitty(hand));
    let auction: Vec<String> = hand.auction().map(|(s, id)| action_text(s, id)).collect();
    let _ = writeln!(text, "auction {}", or_dash(auction.join(", ")));
    let _ = writeln!(
        text,
        "trump {} caller {}",
        hand.trump()
            .map_or("-".to_string(), |s: Suit| s.to_string()),
        seat_or_dash(hand.caller())
    );
    let tricks: Vec<String> = hand
        .completed_tricks()
        .map(|t| {
            let cards: Vec<String> = t.cards.iter().map(|c| c.to_string()).collect();
            format!("{}:{}>{}", t.leader, cards.join(" "), t.winner)
        })
        .collect();
    let _ = writeln!(text, "tricks {}", or_dash(tricks.join(" | ")));
    let trick = match hand.trick_leader() {
        Some(leader) if hand.phase() == Phase::Play && !hand.current_trick().is_empty() => {
            let cards: Vec<String> = hand.current_trick().iter().map(|c| c.to_string()).collect();
            format!("{leader}:{}", cards.join(" "))
        }
        _ => String::new(),
    };
    let _ = writeln!(text, "trick {}", or_dash(trick));
    let announced: Vec<String> = (0..4)
        .map(|who| announced(hand, who).map_or("-".to_string(), |p| p.to_string()))
        .collect();
    let _ = writeln!(text, "announced {}", announced.join(" "));
    let shown: Vec<String> = (0..4u8)
        .filter_map(|who| {
            let runs = shown(hand, who);
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
    let runs = hand
        .runs_scored()
        .map_or("-".to_string(), |(who, points)| format!("{who} {points}"));
    let _ = writeln!(text, "runs {runs}");
    let _ = writeln!(text, "bella {}", seat_or_dash(hand.bella()));
    let points = hand.points();
    let _ = write!(text, "points {} {}", points[0], points[1]);
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Rules;

    #[test]
    fn before_trump_only_the_first_six_cards_show() {
        let hand = Hand::from_seed(42, 0, Rules::default(), [0, 0]);
        for seat in 0..4u8 {
            let visible = visible_hand(&hand, seat as usize);
            assert_eq!(visible.len(), 6);
            let mut tensor = [0.0; TENSOR_SIZE];
            write_tensor(&hand, seat, &mut tensor);
            let kitty: CardSet = hand.deal()[seat as usize][6..].iter().copied().collect();
            for card in kitty {
                assert_eq!(tensor[HAND + card.index() as usize], 0.0);
                assert!(!information_string(&hand, seat).contains(&card.to_string()));
            }
        }
    }
}
