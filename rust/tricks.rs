//! Trick order and card points (R1.2, R1.3), legal plays (R5.1 with its variants) and the trick
//! winner (R5.2).
//!
//! Trick strength in both orders is "card points, then natural rank", written out as tables;
//! "must beat" checks use a precomputed lane mask of the ranks above a strength, so legal plays
//! are a handful of mask operations.

use crate::cards::{Card, CardSet, Suit};
use crate::error::Error;
use crate::rules::Rules;

/// Trick strength (0 = lowest, 8 = highest) of each natural rank in the trump suit:
/// J 9 A T K Q 8 7 6 (R1.2).
pub(crate) const TRUMP_STRENGTH: [u8; 9] = [0, 1, 2, 7, 5, 8, 3, 4, 6];
/// Trick strength of each natural rank in a plain suit: A T K Q J 9 8 7 6 (R1.2).
pub(crate) const PLAIN_STRENGTH: [u8; 9] = [0, 1, 2, 3, 7, 4, 5, 6, 8];
/// R1.3 card points by natural rank.
pub(crate) const TRUMP_POINTS: [u8; 9] = [0, 0, 0, 14, 10, 20, 3, 4, 11];
pub(crate) const PLAIN_POINTS: [u8; 9] = [0, 0, 0, 0, 10, 2, 3, 4, 11];

/// Lane masks (natural-rank bits) of the ranks stronger than strength `s`, per order.
const fn above_masks(strength: [u8; 9]) -> [u32; 9] {
    let mut masks = [0u32; 9];
    let mut s = 0;
    while s < 9 {
        let mut rank = 0;
        while rank < 9 {
            if strength[rank] > s as u8 {
                masks[s] |= 1 << rank;
            }
            rank += 1;
        }
        s += 1;
    }
    masks
}
const ABOVE_TRUMP: [u32; 9] = above_masks(TRUMP_STRENGTH);
const ABOVE_PLAIN: [u32; 9] = above_masks(PLAIN_STRENGTH);

/// The cards of one suit's lane of a card mask.
pub(crate) const LANE: u64 = 0x1ff;

/// `BEATS[trump][card]`: the cards that take a trick from `card` when `card` wins it so far
/// (R5.2): a trump loses only to higher trumps; a card of the suit led to the higher cards of
/// its suit and to every trump (a discard never wins, so a winner that is not trump is of the
/// suit led).
pub(crate) static BEATS: [[u64; 36]; 4] = beats_table();

pub(crate) const fn beats_table() -> [[u64; 36]; 4] {
    let mut table = [[0u64; 36]; 4];
    let mut trump = 0;
    while trump < 4 {
        let mut card = 0;
        while card < 36 {
            let (suit, rank) = (card / 9, card % 9);
            let (stronger, trumps) = if suit == trump {
                (ABOVE_TRUMP[TRUMP_STRENGTH[rank] as usize], 0)
            } else {
                (
                    ABOVE_PLAIN[PLAIN_STRENGTH[rank] as usize],
                    LANE << (9 * trump),
                )
            };
            table[trump][card] = (stronger as u64) << (9 * suit) | trumps;
            card += 1;
        }
        trump += 1;
    }
    table
}

/// `a` unless it is empty, else `b` (written for a conditional move).
#[inline(always)]
fn first_of(a: u64, b: u64) -> u64 {
    if a != 0 {
        a
    } else {
        b
    }
}

/// R5.1 on card masks, for the search kernels (rust/search/rollout.rs, the solver): the cards of
/// `hand` that may be played to a trick whose suit led is `led` (every card before the lead)
/// and whose winner so far loses to `beats` ([`BEATS`]); `head` is what a follower must head
/// the trick with when it can (trumps, every card under `head_plain`), `exempt` whether
/// `partner_exempt` frees the seat (its partner wins the trick so far). The first non-empty
/// of: the cards of the suit led that head the trick, the cards of the suit led, then (void)
/// the trumps that beat, the whole hand when nothing need be beaten under
/// `undertrump_optional`, any trump, the whole hand (R5.1a-c). Equal to [`legal_plays`]
/// (tested in rust/search/rollout.rs and rust/solver/tests.rs).
#[inline(always)]
pub(crate) fn legal_on_masks(
    hand: u64,
    led: u64,
    beats: u64,
    trump_mask: u64,
    head: u64,
    exempt: bool,
    undertrump_optional: bool,
) -> u64 {
    let follow = hand & led;
    let trumps = hand & trump_mask;
    let cannot_beat = if undertrump_optional {
        hand
    } else {
        first_of(trumps, hand)
    };
    let void = if exempt {
        hand
    } else {
        first_of(trumps & beats, cannot_beat)
    };
    first_of(follow & beats & head, first_of(follow, void))
}

/// `table[trump][card]`: a per-rank value in the trump order for trump cards, the plain order
/// otherwise, so the hot path does one lookup and no branch.
const fn by_trump(trump_values: [u8; 9], plain_values: [u8; 9]) -> [[u8; 36]; 4] {
    let mut table = [[0u8; 36]; 4];
    let mut trump = 0;
    while trump < 4 {
        let mut card = 0;
        while card < 36 {
            let rank = card % 9;
            table[trump][card] = if card / 9 == trump {
                trump_values[rank]
            } else {
                plain_values[rank]
            };
            card += 1;
        }
        trump += 1;
    }
    table
}
/// `STRENGTH[trump][card]`: a card's trick strength in its own suit (R1.2) under `trump`.
pub(crate) const STRENGTH: [[u8; 36]; 4] = by_trump(TRUMP_STRENGTH, PLAIN_STRENGTH);
/// `POINTS[trump][card]`: a card's points (R1.3) under `trump`.
pub(crate) const POINTS: [[u8; 36]; 4] = by_trump(TRUMP_POINTS, PLAIN_POINTS);

/// R1.2: trick strength of `card` in its own suit's order (trump or plain).
#[inline]
pub fn strength(card: Card, trump: Suit) -> u8 {
    STRENGTH[trump as usize][card.index() as usize]
}

/// R1.3: the points of `card` when `trump` is trump.
///
/// ```
/// use tarabish::{card_points, Card, Rank, Suit};
///
/// let jack = Card::new(Suit::Hearts, Rank::Jack);
/// assert_eq!(card_points(jack, Suit::Hearts), 20); // the jack of trump
/// assert_eq!(card_points(jack, Suit::Spades), 2); // a plain jack
/// ```
#[inline]
pub fn card_points(card: Card, trump: Suit) -> u32 {
    POINTS[trump as usize][card.index() as usize] as u32
}

/// The points of every card of a set (R1.3).
pub fn set_points(cards: CardSet, trump: Suit) -> u32 {
    cards.iter().map(|card| card_points(card, trump)).sum()
}

/// The cards of `suit` that beat strength `s` in that suit's order.
#[inline]
pub fn cards_above(suit: Suit, s: u8, trump: Suit) -> CardSet {
    let lane = if suit == trump {
        ABOVE_TRUMP[s as usize]
    } else {
        ABOVE_PLAIN[s as usize]
    };
    CardSet((lane as u64) << (9 * suit as u32))
}

/// What the rules need to know of the cards played so far to a trick, kept up to date card by
/// card: the suit led, the strongest card so far as a key (a running maximum, so the highest
/// trump is never confused with the last trump played) and the position of that card.
///
/// R10 example 4, diamonds trump: a low ruff wins, and then the highest trump.
///
/// ```
/// use tarabish::{parse_cards, Suit, TrickSoFar};
///
/// let trick = TrickSoFar::of(&parse_cards("8S 8D 9D JD").unwrap(), Suit::Diamonds);
/// assert_eq!(trick.winner(), 3); // the jack of trump
/// let trick = TrickSoFar::of(&parse_cards("8S 9S 6H 6C").unwrap(), Suit::Diamonds);
/// assert_eq!(trick.winner(), 1); // no trump: the highest spade
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrickSoFar {
    len: u8,
    led: Suit,
    /// `TRUMPED + strength` of the highest trump if any, else the strength of the highest
    /// card of the suit led (R5.2); a discard never raises it.
    best: u8,
    winner: u8,
}

/// Keys of trumps start here, above every plain strength (0-8).
const TRUMPED: u8 = 16;

impl TrickSoFar {
    /// A trick with no card yet.
    pub const EMPTY: TrickSoFar = TrickSoFar {
        len: 0,
        led: Suit::Clubs,
        best: 0,
        winner: 0,
    };

    /// The summary of `cards` played in order (at most four).
    pub fn of(cards: &[Card], trump: Suit) -> TrickSoFar {
        let mut trick = TrickSoFar::EMPTY;
        for &card in cards {
            trick.push(card, trump);
        }
        trick
    }

    /// Adds the next card played to the trick (R5.2: the winner so far is kept up to date).
    #[inline(always)]
    pub fn push(&mut self, card: Card, trump: Suit) {
        let suit = card.suit();
        if self.len == 0 {
            self.led = suit;
        }
        let s = strength(card, trump);
        let key = if suit == trump {
            TRUMPED + s
        } else if suit == self.led {
            s
        } else {
            0
        };
        // The leader's card always counts: a led 6 has key 0 like a discard, and ties keep the
        // earlier card.
        if key > self.best || self.len == 0 {
            self.best = key;
            self.winner = self.len;
        }
        self.len += 1;
    }

    /// The number of cards played to the trick.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True before the lead.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The suit led, if a card has been played.
    #[inline]
    pub fn led(&self) -> Option<Suit> {
        (self.len > 0).then_some(self.led)
    }

    /// R5.2: the position in the trick of the card winning it so far.
    #[inline]
    pub fn winner(&self) -> usize {
        self.winner as usize
    }
}

/// Which part of R5.1 a held card breaks, if any: `"R5.1a"` (holding the suit led) or
/// `"R5.1b"` (void in it); for error messages.
pub fn broken_rule(hand: CardSet, trick: &TrickSoFar) -> &'static str {
    match trick.led() {
        Some(led) if !hand.of_suit(led).is_empty() => "R5.1a",
        _ => "R5.1b",
    }
}

/// R5.1: the cards of `hand` that may be played to `trick`.
///
/// R10 example 2: spades trump, the trick holds the trump ten, and only the 9 heads it.
///
/// ```
/// use tarabish::{legal_plays, parse_cards, CardSet, Rules, Suit, TrickSoFar};
///
/// let hand: CardSet = parse_cards("6S 7S 8S 9S").unwrap().into_iter().collect();
/// let trick = TrickSoFar::of(&parse_cards("TS").unwrap(), Suit::Spades);
/// let legal = legal_plays(hand, &trick, Suit::Spades, &Rules::default());
/// assert_eq!(legal.iter().map(|card| card.to_string()).collect::<Vec<_>>(), ["9S"]);
/// ```
#[inline(always)]
pub fn legal_plays(hand: CardSet, trick: &TrickSoFar, trump: Suit, rules: &Rules) -> CardSet {
    if trick.len == 0 {
        return hand;
    }
    let led = trick.led;
    let follow = hand.of_suit(led);
    let trumped = trick.best >= TRUMPED;
    if !follow.is_empty() {
        // R5.1a: follow suit; head the trick in trump, or in a plain suit under `head_plain`.
        let beat = if led == trump {
            follow.intersect(cards_above(led, trick.best - TRUMPED, trump))
        } else if rules.head_plain && !trumped {
            follow.intersect(cards_above(led, trick.best, trump))
        } else {
            return follow;
        };
        return if beat.is_empty() { follow } else { beat };
    }
    // R5.1 `partner_exempt`: the partner (two cards back) is winning.
    if rules.partner_exempt && trick.len >= 2 && trick.winner == trick.len - 2 {
        return hand;
    }
    let trumps = hand.of_suit(trump);
    if trumps.is_empty() {
        return hand; // R5.1c
    }
    if !trumped {
        return trumps; // R5.1b: trump
    }
    // R5.1b: play to beat the highest trump; if you cannot, a lower trump (or any card).
    let beat = trumps.intersect(cards_above(trump, trick.best - TRUMPED, trump));
    if !beat.is_empty() {
        beat
    } else if rules.undertrump_optional {
        hand
    } else {
        trumps
    }
}

/// R5.1 read backwards: the cards a player cannot have held besides `card` when they played
/// `card` to `trick` legally. For every hand `h` holding `card`, `card` is in
/// `legal_plays(h, trick)` exactly when `h` holds none of the returned cards, so these sets are
/// all a seat's play tells the others (voids from not following, no trump from not trumping, no
/// higher trump from failing to head or beat, under the active variants).
pub fn implied_voids(trick: &TrickSoFar, card: Card, trump: Suit, rules: &Rules) -> CardSet {
    if trick.len == 0 {
        return CardSet::EMPTY; // the leader may lead any card
    }
    let led = trick.led;
    let trumped = trick.best >= TRUMPED;
    // The cards that would have had to be played instead of `card`, unless `card` is one.
    let unless_played = |must: CardSet| {
        if must.contains(card) {
            CardSet::EMPTY
        } else {
            must
        }
    };
    if card.suit() == led {
        // R5.1a: following; heading in trump, or in a plain suit under `head_plain`.
        return if led == trump {
            unless_played(cards_above(trump, trick.best - TRUMPED, trump))
        } else if rules.head_plain && !trumped {
            unless_played(cards_above(led, trick.best, trump))
        } else {
            CardSet::EMPTY
        };
    }
    let void = led.mask();
    if rules.partner_exempt && trick.len >= 2 && trick.winner == trick.len - 2 {
        return void;
    }
    let beat = if trumped {
        cards_above(trump, trick.best - TRUMPED, trump)
    } else {
        trump.mask()
    };
    if card.suit() == trump {
        // R5.1b: trumping, and beating the highest trump when it could.
        void.union(unless_played(beat))
    } else if trumped && rules.undertrump_optional {
        void.union(beat) // R5.1b variant: any card only when it cannot beat
    } else {
        void.union(trump.mask()) // R5.1c: holding neither suit
    }
}

/// Checks a hand and a partial trick for the primitives: 1-9 distinct cards in hand, 0-3 in the
/// trick, none in both.
pub fn checked_legal_plays(
    hand: &[Card],
    trick: &[Card],
    trump: Suit,
    rules: &Rules,
) -> Result<CardSet, Error> {
    let hand_set = distinct(hand, "hand")?;
    if hand.is_empty() || hand.len() > 9 {
        return Err(Error::invalid(format!(
            "a hand holds 1 to 9 cards (R2.4, R5.3), got {}",
            hand.len()
        )));
    }
    if trick.len() > 3 {
        return Err(Error::invalid(format!(
            "a trick to play to holds 0 to 3 cards (R5.1), got {}",
            trick.len()
        )));
    }
    let trick_set = distinct(trick, "trick")?;
    let both = hand_set.intersect(trick_set);
    if let Some(card) = both.first() {
        return Err(Error::invalid(format!(
            "card {card} is both in the hand and in the trick"
        )));
    }
    Ok(legal_plays(
        hand_set,
        &TrickSoFar::of(trick, trump),
        trump,
        rules,
    ))
}

/// R5.2 for a whole or partial trick given as cards: the position of the winning card.
pub fn checked_trick_winner(trick: &[Card], trump: Suit) -> Result<usize, Error> {
    if trick.is_empty() || trick.len() > 4 {
        return Err(Error::invalid(format!(
            "a trick holds 1 to 4 cards (R5.1), got {}",
            trick.len()
        )));
    }
    distinct(trick, "trick")?;
    Ok(TrickSoFar::of(trick, trump).winner())
}

/// The cards as a set, or an error naming the first card given twice.
pub fn distinct(cards: &[Card], what: &str) -> Result<CardSet, Error> {
    let mut set = CardSet::EMPTY;
    for &card in cards {
        if set.contains(card) {
            return Err(Error::invalid(format!(
                "card {card} appears twice in the {what} (R1.1: each card once)"
            )));
        }
        set.insert(card);
    }
    Ok(set)
}

/// Whether `card` played to `trick` would be winning it so far (R5.2).
pub fn wins_so_far(trick: TrickSoFar, card: Card, trump: Suit) -> bool {
    let mut next = trick;
    next.push(card, trump);
    next.winner() == trick.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{parse_cards, Rank};

    /// Every rank of a suit, weakest first in that suit's trick order (R1.2).
    fn ranks_by_strength(trump: bool) -> [Rank; 9] {
        let table = if trump {
            &TRUMP_STRENGTH
        } else {
            &PLAIN_STRENGTH
        };
        let mut ranks = [Rank::Six; 9];
        for rank in Rank::ALL {
            ranks[table[rank.index()] as usize] = rank;
        }
        ranks
    }

    fn set(text: &str) -> CardSet {
        parse_cards(text).unwrap().into_iter().collect()
    }

    fn legal(hand: &str, trick: &str, trump: Suit, rules: &Rules) -> CardSet {
        checked_legal_plays(
            &parse_cards(hand).unwrap(),
            &parse_cards(trick).unwrap(),
            trump,
            rules,
        )
        .unwrap()
    }

    #[test]
    fn r1_2_trick_orders() {
        let names = |trump| {
            ranks_by_strength(trump)
                .iter()
                .rev()
                .map(|r| r.letter())
                .collect::<String>()
        };
        assert_eq!(names(true), "J9ATKQ876");
        assert_eq!(names(false), "ATKQJ9876");
    }

    #[test]
    fn r1_3_points_total_152_in_cards() {
        for trump in Suit::ALL {
            assert_eq!(set_points(CardSet::DECK, trump), 152);
            assert_eq!(set_points(trump.mask(), trump), 62);
        }
    }

    #[test]
    fn r10_2_only_the_nine_beats_the_trump_ten() {
        let rules = Rules::default();
        assert_eq!(legal("6S 7S 8S 9S", "TS", Suit::Spades, &rules), set("9S"));
    }

    #[test]
    fn r10_3_void_must_trump() {
        let rules = Rules::default();
        assert_eq!(legal("6D AC KS", "8H", Suit::Diamonds, &rules), set("6D"));
    }

    #[test]
    fn r10_4_trick_winners() {
        let trick = parse_cards("8S 8D 9D JD").unwrap();
        assert_eq!(checked_trick_winner(&trick, Suit::Diamonds).unwrap(), 3);
        let trick = parse_cards("8S 9S 6H 6C").unwrap();
        assert_eq!(checked_trick_winner(&trick, Suit::Diamonds).unwrap(), 1);
    }

    #[test]
    fn r5_1b_undertrump_and_its_variant() {
        let trick = "AH JS";
        assert_eq!(
            legal("7S 8C", trick, Suit::Spades, &Rules::default()),
            set("7S")
        );
        let optional = Rules {
            undertrump_optional: true,
            ..Rules::default()
        };
        assert_eq!(legal("7S 8C", trick, Suit::Spades, &optional), set("7S 8C"));
    }

    #[test]
    fn r5_1_partner_exempt_only_when_partner_wins() {
        let exempt = Rules {
            partner_exempt: true,
            ..Rules::default()
        };
        assert_eq!(legal("7S 8C", "AH 6H", Suit::Spades, &exempt), set("7S 8C"));
        assert_eq!(legal("7S 8C", "6H AH", Suit::Spades, &exempt), set("7S"));
    }

    #[test]
    fn r5_1a_head_plain() {
        let head = Rules {
            head_plain: true,
            ..Rules::default()
        };
        assert_eq!(legal("9H AH", "TH", Suit::Spades, &head), set("AH"));
        assert_eq!(
            legal("9H AH", "TH", Suit::Spades, &Rules::default()),
            set("9H AH")
        );
        assert_eq!(legal("9H AH", "TH 6S", Suit::Spades, &head), set("9H AH"));
    }

    /// `implied_voids` is exactly R5.1 read backwards, for random hands, tricks and variants.
    #[test]
    fn r5_1_implied_voids_are_exact() {
        let mut rng = crate::rng::SplitMix64::new(51);
        for round in 0..20_000u32 {
            let rules = Rules {
                head_plain: round & 1 != 0,
                undertrump_optional: round & 2 != 0,
                partner_exempt: round & 4 != 0,
                ..Rules::default()
            };
            let trump = Suit::from_index((round >> 3) as u8);
            let mut deck: Vec<u8> = (0..36).collect();
            for i in (1..36).rev() {
                deck.swap(i, rng.below(i as u32 + 1) as usize);
            }
            let trick_len = rng.below(4) as usize;
            let hand_len = 1 + rng.below(9) as usize;
            let cards: Vec<Card> = deck
                .iter()
                .map(|&i| Card::from_index_unchecked(i))
                .collect();
            let trick = TrickSoFar::of(&cards[..trick_len], trump);
            let hand: CardSet = cards[trick_len..trick_len + hand_len]
                .iter()
                .copied()
                .collect();
            let legal = legal_plays(hand, &trick, trump, &rules);
            for card in hand {
                let voids = implied_voids(&trick, card, trump, &rules);
                let consistent = hand.minus(card.bit()).intersect(voids).is_empty();
                assert_eq!(legal.contains(card), consistent, "{hand} {card} {rules:?}");
            }
        }
    }

    #[test]
    fn bad_primitive_input_is_an_error() {
        let rules = Rules::default();
        let cards = |t| parse_cards(t).unwrap();
        assert!(checked_legal_plays(&cards("6H 6H"), &[], Suit::Clubs, &rules).is_err());
        assert!(checked_legal_plays(&cards("6H"), &cards("6H"), Suit::Clubs, &rules).is_err());
        assert!(
            checked_legal_plays(&cards("6H"), &cards("7H 8H 9H TH"), Suit::Clubs, &rules).is_err()
        );
        assert!(checked_legal_plays(&[], &[], Suit::Clubs, &rules).is_err());
        assert!(checked_trick_winner(&[], Suit::Clubs).is_err());
    }
}
