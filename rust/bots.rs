//! Bots that choose actions from what their seat may see: a uniform random bot (the playout
//! policy of docs/ENGINE.md, picking the k-th set bit of the legal mask) and a greedy bot that
//! calls on strength and plays the cheapest winning card.

use crate::bits::{has_bmi2, select, select_with};
use crate::cards::{Card, CardSet, Suit};
use crate::rng::SplitMix64;
use crate::rules::{card_points, strength, TrickSoFar};
use crate::state::{Hand, Phase, CALL_BASE, PASS};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bot {
    /// Every legal action equally likely.
    Random,
    /// Calls its strongest suit when it is strong enough; wins tricks cheaply, feeds points to
    /// a winning partner, and throws its cheapest card otherwise.
    Greedy,
}

impl Bot {
    pub fn from_name(name: &str) -> Option<Bot> {
        match name {
            "random" => Some(Bot::Random),
            "greedy" => Some(Bot::Greedy),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Bot::Random => "random",
            Bot::Greedy => "greedy",
        }
    }

    /// The action id this bot takes in `hand` (not over).
    #[inline]
    pub fn choose(self, hand: &Hand, rng: &mut SplitMix64) -> u8 {
        if has_bmi2() {
            // SAFETY: BMI2 is present.
            unsafe { self.choose_with::<true>(hand, rng) }
        } else {
            // SAFETY: no requirement without BMI2.
            unsafe { self.choose_with::<false>(hand, rng) }
        }
    }

    /// [`Bot::choose`] with the instruction set chosen by the caller.
    ///
    /// # Safety
    /// With `BMI2 = true` the CPU must support BMI2.
    #[inline(always)]
    pub unsafe fn choose_with<const BMI2: bool>(self, hand: &Hand, rng: &mut SplitMix64) -> u8 {
        let mask = hand.legal_mask();
        match self {
            // SAFETY: passed on from the caller.
            Bot::Random => unsafe { random_action_with::<BMI2>(mask, rng) },
            Bot::Greedy => greedy_action(hand, mask),
        }
    }
}

/// A uniformly random id of `mask` (not empty): the `below(popcount)`-th set bit.
#[inline]
pub fn random_action(mask: u64, rng: &mut SplitMix64) -> u8 {
    select(mask, rng.below(mask.count_ones())) as u8
}

/// [`random_action`] with the instruction set chosen by the caller.
///
/// # Safety
/// With `BMI2 = true` the CPU must support BMI2.
#[inline(always)]
unsafe fn random_action_with<const BMI2: bool>(mask: u64, rng: &mut SplitMix64) -> u8 {
    // SAFETY: passed on from the caller.
    unsafe { select_with::<BMI2>(mask, rng.below(mask.count_ones())) as u8 }
}

fn greedy_action(hand: &Hand, mask: u64) -> u8 {
    if hand.phase() == Phase::Auction {
        return greedy_call(hand, mask);
    }
    let Some(trump) = hand.trump() else {
        return mask.trailing_zeros() as u8;
    };
    let legal = CardSet(mask);
    let trick = hand.current_trick();
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
    let so_far = TrickSoFar::of(trick, trump);
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
        .filter(|&card| {
            let mut next = so_far;
            next.push(card, trump);
            next.winner() == position
        })
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
fn greedy_call(hand: &Hand, mask: u64) -> u8 {
    let seat = hand.to_move().unwrap_or(0) as usize;
    let known = hand.first_six(seat);
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
