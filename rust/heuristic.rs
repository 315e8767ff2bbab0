//! The rule heuristic bot (docs/SEARCH.md): plays the way a careful club player would, from its
//! information set only. It calls trump on hand strength (trump length, the J and 9, side aces,
//! runs, bella; R3, R4), draws trumps when it holds the master trump and the other team may
//! still have some, cashes master cards, feeds points to a partner who is winning, wins cheaply
//! when it can, and otherwise throws its cheapest card, counting which trumps are still out.

use crate::bots::{wins_so_far, Policy};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::infoset::InfoSet;
use crate::rng::SplitMix64;
use crate::rules::{card_points, strength};
use crate::runs::find_runs;
use crate::state::{Phase, CALL_BASE, PASS};

/// Hand strength (in the units of [`trump_value`]) from which the bot calls.
const CALL_THRESHOLD: u32 = 58;
/// Value of each trump held, on top of its points.
const TRUMP_LENGTH_VALUE: u32 = 9;
/// Value of a side ace.
const SIDE_ACE_VALUE: u32 = 10;
/// Points of bella (R4.5).
const BELLA_POINTS: u32 = 20;
/// Share of the run points counted towards calling (runs score for the caller only if best).
const RUN_SHARE_PERCENT: u32 = 50;

/// The rule heuristic bot.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

impl Policy for HeuristicBot {
    fn act(&mut self, info: &InfoSet, legal: u64, _rng: &mut SplitMix64) -> u8 {
        if info.phase() == Phase::Auction {
            return call(info, legal);
        }
        match info.trump() {
            Some(trump) => play(info, CardSet(legal), trump).index(),
            None => legal.trailing_zeros() as u8,
        }
    }
}

/// How good `cards` are with `trump` as trump: trump points and length (the J and 9 count
/// most), side aces, half the runs, bella.
pub fn trump_value(cards: CardSet, trump: Suit) -> u32 {
    let trumps = cards.of_suit(trump);
    let trump_points: u32 = trumps.iter().map(|c| card_points(c, trump)).sum();
    let side_aces = cards
        .iter()
        .filter(|c| c.suit() != trump && c.rank() == Rank::Ace)
        .count() as u32;
    let runs: u32 = find_runs(cards).as_slice().iter().map(|r| r.points()).sum();
    let bella = trumps.contains(Card::new(trump, Rank::King))
        && trumps.contains(Card::new(trump, Rank::Queen));
    trump_points
        + TRUMP_LENGTH_VALUE * trumps.len()
        + SIDE_ACE_VALUE * side_aces
        + runs * RUN_SHARE_PERCENT / 100
        + if bella { BELLA_POINTS } else { 0 }
}

/// R3: call the best suit when strong enough (or when passing is not allowed).
fn call(info: &InfoSet, legal: u64) -> u8 {
    let known = info.hand();
    let best = Suit::ALL
        .into_iter()
        .max_by_key(|&s| (trump_value(known, s), std::cmp::Reverse(s as u8)))
        .unwrap_or(Suit::Clubs);
    let may_pass = legal & (1 << PASS) != 0;
    // Six cards are known; scale to a nine-card hand's expectation.
    if may_pass && trump_value(known, best) < CALL_THRESHOLD {
        PASS
    } else {
        CALL_BASE + best as u8
    }
}

/// The cards no one has played and this seat does not hold.
fn outstanding(info: &InfoSet) -> CardSet {
    let played: CardSet = info.plays().iter().copied().collect();
    CardSet::DECK.minus(played).minus(info.hand())
}

/// Whether `card` beats every outstanding card of its suit (a master card).
fn is_master(card: Card, out: CardSet, trump: Suit) -> bool {
    out.of_suit(card.suit())
        .iter()
        .all(|other| strength(other, trump) < strength(card, trump))
}

fn cheapest(cards: CardSet, trump: Suit) -> Card {
    cards
        .iter()
        .min_by_key(|&c| (card_points(c, trump), c.suit() == trump, strength(c, trump)))
        .unwrap_or(Card::from_index_unchecked(
            cards.bits().trailing_zeros() as u8
        ))
}

fn richest(cards: CardSet, trump: Suit) -> Card {
    cards
        .iter()
        .max_by_key(|&c| (card_points(c, trump), std::cmp::Reverse(strength(c, trump))))
        .unwrap_or(Card::from_index_unchecked(
            cards.bits().trailing_zeros() as u8
        ))
}

fn play(info: &InfoSet, legal: CardSet, trump: Suit) -> Card {
    let out = outstanding(info);
    let trick = *info.trick();
    if trick.is_empty() {
        return lead(info, legal, trump, out);
    }
    let position = trick.len();
    let partner_winning = position >= 2 && trick.winner() == position - 2;
    let last = position == 3;
    let winning_card = info.current_trick()[trick.winner()];
    // The partner's card holds if we are last, or if no one after us can beat it for sure.
    let partner_holds = partner_winning && (last || is_master(winning_card, out, trump));
    let plain = |cards: CardSet| cards.minus(trump.mask());
    if partner_holds {
        // Feed points, but not the trump J or 9.
        let feed = plain(legal);
        return if feed.is_empty() {
            cheapest(legal, trump)
        } else {
            richest(feed, trump)
        };
    }
    let winners: CardSet = legal
        .iter()
        .filter(|&c| wins_so_far(trick, c, trump))
        .collect();
    if !winners.is_empty() {
        let safe: CardSet = winners
            .iter()
            .filter(|&c| last || is_master(c, out, trump) || c.suit() == trump)
            .collect();
        if !safe.is_empty() {
            // Win as cheaply as possible, but a plain win may as well take points.
            return safe
                .iter()
                .min_by_key(|&c| (c.suit() == trump, strength(c, trump)))
                .unwrap_or(cheapest(safe, trump));
        }
    }
    if partner_winning {
        let feed = plain(legal);
        if !feed.is_empty() {
            return cheapest(feed, trump);
        }
    }
    cheapest(legal, trump)
}

fn lead(info: &InfoSet, legal: CardSet, trump: Suit, out: CardSet) -> Card {
    let trumps = legal.of_suit(trump);
    let calling_team = info.caller().map(|c| c % 2) == Some(info.seat() % 2);
    let trumps_out = out.of_suit(trump);
    // Trumps an opponent may still hold (not proven void by its plays, R5.1).
    let seat = info.seat();
    let opponents_may_trump = [(seat + 1) % 4, (seat + 3) % 4]
        .iter()
        .any(|&who| !trumps_out.minus(info.cannot_hold(who)).is_empty());
    // Draw trumps with the master trump while the others may hold some.
    if calling_team && opponents_may_trump {
        if let Some(master) = trumps.iter().find(|&c| is_master(c, out, trump)) {
            return master;
        }
    }
    // Cash a master plain card, richest first.
    let masters: CardSet = legal
        .minus(trump.mask())
        .iter()
        .filter(|&c| is_master(c, out, trump))
        .collect();
    if !masters.is_empty() {
        return richest(masters, trump);
    }
    // Otherwise a low card of a plain suit, not a guard of a ten.
    let plain = legal.minus(trump.mask());
    let unguarding = |c: Card| {
        let suit = legal.of_suit(c.suit());
        suit.contains(Card::new(c.suit(), Rank::Ten)) && suit.len() == 2
    };
    let safe: CardSet = plain
        .iter()
        .filter(|&c| card_points(c, trump) == 0 && !unguarding(c))
        .collect();
    if !safe.is_empty() {
        return cheapest(safe, trump);
    }
    if !plain.is_empty() {
        return cheapest(plain, trump);
    }
    cheapest(legal, trump)
}
