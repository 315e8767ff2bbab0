//! The table view of one seat (R8.4, docs/TABLE.md "The table view") written straight to JSON
//! text, for servers that send it to a client after every action: the same object as
//! `TableView.to_dict()`, without building the view's Python values first. It shows exactly
//! what the table view shows (R2.4, R4.4, R4.5: what `seat` may see and nothing else).

use std::fmt::Write;

use crate::cards::Card;
use crate::infoset::InfoSet;
use crate::seats::team_of;
use crate::state::{action_text, Hand, Phase, TrickRecord};
use crate::table::TableHand;

/// The table view of `seat` as compact JSON text: the object `TableView.to_dict()` gives, with
/// its keys in the same order (docs/TABLE.md "The table view").
pub fn table_view_json(hand: &TableHand, seat: u8) -> String {
    let info = InfoSet::of_table(hand, seat);
    let core = hand.hand();
    let (tricks_won, last_trick) = tricks_won_and_last(core);
    let mut out = String::with_capacity(640);
    let _ = write!(
        out,
        "{{\"seat\":{},\"dealer\":{},\"phase\":\"{}\",\"to_move\":",
        info.seat(),
        info.dealer(),
        info.phase().name()
    );
    optional(&mut out, info.to_move());
    out.push_str(",\"scores\":");
    numbers(&mut out, core.scores_before());
    out.push_str(",\"hand\":");
    cards(&mut out, info.hand().iter());
    let _ = write!(
        out,
        ",\"unseen_kitty\":{},\"auction\":[",
        info.unseen_kitty()
    );
    for (index, (who, id)) in info.auction().enumerate() {
        if index > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{}\"", action_text(who, id));
    }
    out.push_str("],\"trump\":");
    match info.trump() {
        Some(suit) => {
            let _ = write!(out, "\"{suit}\"");
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"caller\":");
    optional(&mut out, info.caller());
    out.push_str(",\"trick_leader\":");
    optional(&mut out, info.trick_leader());
    out.push_str(",\"trick\":");
    // The current trick, in play only: a hand ended by a call mid-trick shows none (R8.2).
    let trick: &[Card] = if info.phase() == Phase::Play {
        info.current_trick()
    } else {
        &[]
    };
    cards(&mut out, trick.iter().copied());
    out.push_str(",\"last_trick\":");
    match last_trick {
        Some(trick) => {
            let _ = write!(out, "{{\"leader\":{},\"cards\":", trick.leader);
            cards(&mut out, trick.cards.iter().copied());
            let _ = write!(
                out,
                ",\"winner\":{},\"points\":{}}}",
                trick.winner, trick.points
            );
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"tricks_won\":");
    numbers(&mut out, tricks_won);
    // R4.4: an announcement names a run; a seat without one announces nothing.
    out.push_str(",\"announced\":[");
    for who in 0..4u8 {
        if who > 0 {
            out.push(',');
        }
        optional(&mut out, info.announced(who).filter(|&points| points > 0));
    }
    out.push_str("],\"shown\":[");
    for who in 0..4u8 {
        if who > 0 {
            out.push(',');
        }
        cards(&mut out, hand.shown(who).cards().iter());
    }
    out.push_str("],\"bella\":");
    optional(&mut out, info.bella());
    out.push_str(",\"bella_forfeited\":");
    optional(&mut out, hand.bella_forfeited());
    out.push_str(",\"points\":");
    numbers(&mut out, info.points());
    out.push_str(",\"hand_sizes\":");
    numbers(
        &mut out,
        std::array::from_fn::<u32, 4, _>(|who| info.hand_size(who as u8)),
    );
    out.push_str(",\"allowed\":");
    ids(&mut out, hand.allowed_mask(seat));
    out.push_str(",\"legal\":");
    ids(&mut out, hand.legal_mask(seat));
    out.push('}');
    out
}

/// The table view's `tricks_won` (completed tricks by team) and `last_trick` (R8.4: the last
/// completed trick only).
pub(crate) fn tricks_won_and_last(core: &Hand) -> ([u32; 2], Option<TrickRecord>) {
    let mut tricks_won = [0u32; 2];
    let mut last_trick = None;
    for trick in core.completed_tricks() {
        tricks_won[team_of(trick.winner)] += 1;
        last_trick = Some(trick);
    }
    (tricks_won, last_trick)
}

fn optional(out: &mut String, value: Option<impl std::fmt::Display>) {
    match value {
        Some(value) => {
            let _ = write!(out, "{value}");
        }
        None => out.push_str("null"),
    }
}

fn numbers<const N: usize>(out: &mut String, values: [u32; N]) {
    out.push('[');
    for (index, value) in values.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        let _ = write!(out, "{value}");
    }
    out.push(']');
}

fn cards(out: &mut String, cards: impl Iterator<Item = Card>) {
    out.push('[');
    for (index, card) in cards.enumerate() {
        if index > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{card}\"");
    }
    out.push(']');
}

/// The set bits of an action mask, ascending (the ids of `allowed` and `legal`).
fn ids(out: &mut String, mut mask: u64) {
    out.push('[');
    let mut first = true;
    while mask != 0 {
        if !first {
            out.push(',');
        }
        first = false;
        let _ = write!(out, "{}", mask.trailing_zeros());
        mask &= mask - 1;
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn a_fresh_deal_shows_the_seats_own_cards_only() {
        let hand = TableHand::from_seed(7, 0, Rules::default(), [0, 0]);
        let own = table_view_json(&hand, 1);
        let other = table_view_json(&hand, 2);
        // R2.4: each seat sees its first six cards, and another seat's view shows none of them.
        for card in hand.hand().first_six(1).iter() {
            assert!(own.contains(&format!("\"{card}\"")));
            assert!(!other.contains(&format!("\"{card}\"")));
        }
        assert!(own.starts_with("{\"seat\":1,\"dealer\":0,\"phase\":\"auction\",\"to_move\":1,"));
    }
}
