//! The rule heuristic bot (docs/SEARCH.md): plays the way a careful club player would, from its
//! information set only. It calls trump on hand strength (the trump J, 9, A and 10, trump
//! length, side aces and tens, voids, runs, bella; R3, R4: weights fitted to played-out hands),
//! draws trumps when it holds the master trump (or, calling, three trumps) and the other team
//! may still have some, cashes master cards, feeds points to a partner who is winning, wins
//! cheaply when it can, and otherwise throws its cheapest card, counting which trumps are still
//! out.

use super::Policy;
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::infoset::InfoSet;
use crate::rng::SplitMix64;
use crate::runs::find_runs;
use crate::state::{Phase, CALL_BASE, PASS};
use crate::tricks::{card_points, strength, wins_so_far};

/// The weights of [`expected_margin`], in points: fitted by least squares to 600,000 hands
/// (eldest's first six cards, each suit called in turn, four heuristic bots playing it out;
/// target: the calling team's score minus the other's, R6). Kept in whole points.
mod weight {
    /// Where the sum starts: a hand with none of the features below loses this much.
    pub const BASE: i32 = -130;
    /// The trump J.
    pub const JACK: i32 = 70;
    /// The trump 9.
    pub const NINE: i32 = 47;
    /// The trump A.
    pub const ACE: i32 = 28;
    /// The trump 10.
    pub const TEN: i32 = 21;
    /// Each other trump.
    pub const SMALL_TRUMP: i32 = 14;
    /// Holding at least three trumps.
    pub const THREE_TRUMPS: i32 = 12;
    /// Holding at least four trumps (on top of three).
    pub const FOUR_TRUMPS: i32 = 16;
    /// Each side ace.
    pub const SIDE_ACE: i32 = 24;
    /// Each side ten.
    pub const SIDE_TEN: i32 = 8;
    /// Each side suit the seat is void in.
    pub const VOID: i32 = 9;
    /// The trump K and Q together (R4.5 bella: 20 points, and two trumps that win tricks).
    pub const BELLA: i32 = 31;
    /// Each point of the runs among the cards (R4.1), counted whole.
    pub const RUN_POINT: i32 = 1;
}

/// The bot calls when its best suit's [`expected_margin`] reaches this (R6: a bait hands the
/// whole count to the other team, so a call must be clearly better than even).
const CALL_MARGIN: i32 = 10;
/// Trumps from which a caller without the master trump leads trumps anyway.
const LONG_TRUMPS: u32 = 3;

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

/// The points of all the runs among `cards` (R4.1), whatever the trump: found once for the
/// four suits.
fn run_points(cards: CardSet) -> u32 {
    find_runs(cards).as_slice().iter().map(|r| r.points()).sum()
}

/// The calling team's expected score margin for the hand (R6) if `trump` is called by a seat
/// that knows `cards`, whose runs are worth `runs` ([`run_points`]): the sum of [`weight`]s of
/// the trump J, 9, A, 10 and others, trump length, side aces and tens, voids, bella and runs.
fn expected_margin(cards: CardSet, trump: Suit, runs: u32) -> i32 {
    use weight::*;
    let trumps = cards.of_suit(trump);
    let side = cards.minus(trump.mask());
    let holds = |rank: Rank| trumps.contains(Card::new(trump, rank));
    let count = |rank: Rank| side.iter().filter(|c| c.rank() == rank).count() as i32;
    let length = trumps.len() as i32;
    let honours = [
        (Rank::Jack, JACK),
        (Rank::Nine, NINE),
        (Rank::Ace, ACE),
        (Rank::Ten, TEN),
    ];
    let (held, honour_value) = honours
        .iter()
        .filter(|(rank, _)| holds(*rank))
        .fold((0, 0), |(n, value), (_, weight)| (n + 1, value + weight));
    let voids = Suit::ALL
        .iter()
        .filter(|&&suit| suit != trump && cards.of_suit(suit).is_empty())
        .count() as i32;
    BASE + honour_value
        + SMALL_TRUMP * (length - held)
        + if length >= 3 { THREE_TRUMPS } else { 0 }
        + if length >= 4 { FOUR_TRUMPS } else { 0 }
        + SIDE_ACE * count(Rank::Ace)
        + SIDE_TEN * count(Rank::Ten)
        + VOID * voids
        + if holds(Rank::King) && holds(Rank::Queen) {
            BELLA
        } else {
            0
        }
        + RUN_POINT * runs as i32
}

/// R3: call the suit with the best expected margin when it reaches [`CALL_MARGIN`] (or when
/// passing is not allowed).
fn call(info: &InfoSet, legal: u64) -> u8 {
    let known = info.hand();
    let runs = run_points(known);
    let (best, margin) = Suit::ALL
        .into_iter()
        .map(|suit| (suit, expected_margin(known, suit, runs)))
        .max_by_key(|&(suit, margin)| (margin, std::cmp::Reverse(suit as u8)))
        .unwrap_or((Suit::Clubs, 0));
    let may_pass = legal & (1 << PASS) != 0;
    if may_pass && margin < CALL_MARGIN {
        PASS
    } else {
        CALL_BASE + best as u8
    }
}

/// The cards no one has played and this seat does not hold.
fn outstanding(info: &InfoSet) -> CardSet {
    (0..4u8)
        .fold(CardSet::DECK, |out, who| out.minus(info.played_by(who)))
        .minus(info.hand())
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
    // Draw trumps with the master trump while the others may hold some; the caller without
    // it but with three trumps or more leads its lowest, to drive the master out.
    if calling_team && opponents_may_trump {
        if let Some(master) = trumps.iter().find(|&c| is_master(c, out, trump)) {
            return master;
        }
        if info.caller() == Some(seat) && trumps.len() >= LONG_TRUMPS {
            return cheapest(trumps, trump);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::deal::Deal;
    use crate::rules::Rules;
    use crate::seats::eldest;
    use crate::state::Hand;

    /// A hand dealt by seat 0 in which eldest (seat 1) holds `nine` (its first six first), the
    /// other cards going to the other seats in card order.
    fn eldest_holds(nine: &str) -> Hand {
        let own = parse_cards(nine).unwrap();
        let own_set: CardSet = own.iter().copied().collect();
        let mut rest = CardSet::DECK.minus(own_set).iter();
        let mut deal: Deal = [[Card::from_index_unchecked(0); 9]; 4];
        for (seat, cards) in deal.iter_mut().enumerate() {
            for (slot, card) in cards.iter_mut().enumerate() {
                *card = if seat == 1 {
                    own[slot]
                } else {
                    rest.next().unwrap()
                };
            }
        }
        Hand::from_deal(deal, 0, Rules::default(), [0, 0])
    }

    fn decide(hand: &Hand) -> u8 {
        let seat = hand.to_move().unwrap();
        let info = InfoSet::new(hand, seat);
        HeuristicBot.act(&info, hand.legal_mask(), &mut SplitMix64::new(0))
    }

    /// R3: the J, 9 and A of a suit with a side ace make a call; six low cards of four suits
    /// are a pass, unless the dealer must call (R3.2), who then names its best suit.
    #[test]
    fn calls_on_strength_and_passes_on_rags() {
        assert_eq!(eldest(0), 1);
        let strong = eldest_holds("JS 9S AS AH 7D 8C 6H 7H 6D");
        assert_eq!(decide(&strong), CALL_BASE + Suit::Spades as u8);
        let rags = eldest_holds("6S 7H 8D 6C 7C 8H KD QS AD");
        assert_eq!(decide(&rags), PASS);
        let mut stuck = rags;
        while stuck.to_move() != Some(0) {
            stuck.apply(PASS).unwrap();
        }
        let stuck_seat = InfoSet::new(&stuck, 0);
        let call = decide(&stuck);
        assert_ne!(call, PASS);
        let named = Suit::ALL[(call - CALL_BASE) as usize];
        let known = stuck_seat.hand();
        let margin = |suit| expected_margin(known, suit, run_points(known));
        assert!(Suit::ALL.iter().all(|&suit| margin(suit) <= margin(named)));
    }

    /// The caller without the master trump (the J) but with three trumps leads its lowest
    /// trump while an opponent may still hold one.
    #[test]
    fn a_caller_with_three_trumps_leads_its_lowest() {
        let mut hand = eldest_holds("7S 8S QS AH AD 6C 7C 8C 9C");
        hand.apply(CALL_BASE + Suit::Spades as u8).unwrap();
        assert_eq!(hand.to_move(), Some(1));
        assert_eq!(decide(&hand), parse_cards("7S").unwrap()[0].index());
    }
}
