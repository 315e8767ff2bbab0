//! The greedy bot: calls on strength (R3) and plays the cheapest winning card (R5), feeding
//! points to a winning partner; from its information set only.

use super::Policy;
use crate::cards::{Card, CardSet, Suit};
use crate::infoset::InfoSet;
use crate::rng::SplitMix64;
use crate::state::{Phase, CALL_BASE, PASS};
use crate::tricks::{card_points, strength, wins_so_far};

/// Calls its strongest suit when it is strong enough; wins tricks cheaply, feeds points to a
/// winning partner, and throws its cheapest card otherwise.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

impl Policy for GreedyBot {
    fn act(&mut self, info: &InfoSet, legal: u64, _rng: &mut SplitMix64) -> u8 {
        greedy_action(info, legal)
    }
}

fn greedy_action(info: &InfoSet, mask: u64) -> u8 {
    if info.phase() == Phase::Auction {
        return greedy_call(info, mask);
    }
    let Some(trump) = info.trump() else {
        return mask.trailing_zeros() as u8;
    };
    let legal = CardSet(mask);
    let trick = info.current_trick();
    let cheapest = |cards: CardSet| -> Card {
        cards
            .iter()
            .min_by_key(|&c| (card_points(c, trump), strength(c, trump), c.suit() == trump))
            .unwrap_or_else(|| Card::from_index_unchecked(mask.trailing_zeros() as u8))
    };
    if trick.is_empty() {
        // Lead a plain ace if there is one; else the cheapest card.
        let aces = legal
            .iter()
            .find(|c| c.suit() != trump && strength(*c, trump) == 8);
        return aces.unwrap_or_else(|| cheapest(legal)).index();
    }
    let so_far = *info.trick();
    let position = trick.len();
    if position >= 2 && so_far.winner() == position - 2 {
        // The partner is winning: add the most points that are not a trump J or 9.
        let feed = legal
            .iter()
            .filter(|c| c.suit() != trump)
            .max_by_key(|&c| card_points(c, trump));
        return feed.unwrap_or_else(|| cheapest(legal)).index();
    }
    let winners: CardSet = legal
        .iter()
        .filter(|&card| wins_so_far(so_far, card, trump))
        .collect();
    if winners.is_empty() {
        cheapest(legal).index()
    } else {
        winners
            .iter()
            .min_by_key(|&c| (c.suit() == trump, strength(c, trump)))
            .unwrap_or_else(|| cheapest(winners))
            .index()
    }
}

/// Calls the suit whose known cards are worth most as trump, if worth enough or if passing is
/// not allowed.
fn greedy_call(info: &InfoSet, mask: u64) -> u8 {
    let known = info.hand();
    let value = |suit: Suit| -> u32 {
        known
            .of_suit(suit)
            .iter()
            .map(|c| card_points(c, suit) + 6)
            .sum::<u32>()
            + known
                .iter()
                .filter(|c| c.suit() != suit && strength(*c, suit) == 8)
                .count() as u32
                * 8
    };
    let best = Suit::ALL
        .into_iter()
        .max_by_key(|&s| value(s))
        .unwrap_or(Suit::Clubs);
    let may_pass = mask & (1 << PASS) != 0;
    if may_pass && value(best) < 50 {
        PASS
    } else {
        CALL_BASE + best as u8
    }
}
