//! Suits, ranks, cards and card sets (RULES.md R0, R1.1).
//!
//! A card's index is `suit * 9 + rank` with ranks in natural order 6 7 8 9 T J Q K A, so a
//! [`CardSet`] is a 36-bit mask whose suit lanes are 9-bit fields in natural order: runs
//! (R4.1) are shift-and-mask on a lane.

use std::fmt;
use std::str::FromStr;

use crate::error::{excerpt, Error};

/// A suit, indices as R0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// Clubs, index 0.
    Clubs = 0,
    /// Diamonds, index 1.
    Diamonds = 1,
    /// Hearts, index 2.
    Hearts = 2,
    /// Spades, index 3.
    Spades = 3,
}

impl Suit {
    /// The four suits in index order (R0).
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit of index `index` (taken mod 4).
    #[inline]
    pub const fn from_index(index: u8) -> Suit {
        Suit::ALL[(index & 3) as usize]
    }

    /// The suit's index, 0..4 (R0).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit's letter: `C`, `D`, `H` or `S`.
    pub const fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self as usize]
    }

    /// The suit of a letter, any case; `None` for any other character.
    pub fn from_letter(letter: char) -> Option<Suit> {
        match letter.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }

    /// The 9-bit lane of this suit in a [`CardSet`].
    #[inline]
    pub const fn mask(self) -> CardSet {
        CardSet(0x1ff << (9 * self as u32))
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Suit {
    type Err = Error;
    fn from_str(text: &str) -> Result<Suit, Error> {
        let mut chars = text.trim_matches(|c: char| c.is_ascii_whitespace()).chars();
        match (chars.next().and_then(Suit::from_letter), chars.next()) {
            (Some(suit), None) => Ok(suit),
            _ => Err(Error::BadSuit(excerpt(text))),
        }
    }
}

/// A rank in natural order (R0); trick order and points are in `rules` (R1.2, R1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// The 6, lowest in natural order.
    Six = 0,
    /// The 7.
    Seven,
    /// The 8.
    Eight,
    /// The 9.
    Nine,
    /// The ten (`T`).
    Ten,
    /// The jack.
    Jack,
    /// The queen.
    Queen,
    /// The king.
    King,
    /// The ace, highest in natural order.
    Ace,
}

const RANK_LETTERS: [char; 9] = ['6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];

impl Rank {
    /// The nine ranks in natural order (R0).
    pub const ALL: [Rank; 9] = [
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank of index `index` (taken mod 9).
    #[inline]
    pub const fn from_index(index: u8) -> Rank {
        Rank::ALL[index as usize % 9]
    }

    /// The rank's index in natural order, 0..9 (R0).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank's letter: `6`-`9`, `T`, `J`, `Q`, `K` or `A`.
    pub const fn letter(self) -> char {
        RANK_LETTERS[self as usize]
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One of the 36 cards, stored as its index `suit * 9 + rank` (R0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of `suit` and `rank`.
    #[inline]
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 9 + rank as u8)
    }

    /// The card of index `index`, or `None` outside 0..36.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Card> {
        if index < 36 {
            Some(Card(index))
        } else {
            None
        }
    }

    /// The card of index `index` (0..36, unchecked beyond a debug assertion).
    #[inline]
    pub const fn from_index_unchecked(index: u8) -> Card {
        debug_assert!(index < 36);
        Card(index)
    }

    /// The card's index, `suit * 9 + rank` (0..36, R0).
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The card's suit.
    #[inline]
    pub const fn suit(self) -> Suit {
        SUIT_OF[self.0 as usize]
    }

    /// The card's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        RANK_OF[self.0 as usize]
    }

    /// The set holding only this card.
    #[inline]
    pub const fn bit(self) -> CardSet {
        CardSet(1 << self.0)
    }
}

/// Suit and rank of each card index: table lookups instead of division on the hot path.
const SUIT_OF: [Suit; 36] = {
    let mut table = [Suit::Clubs; 36];
    let mut i = 0;
    while i < 36 {
        table[i] = Suit::ALL[i / 9];
        i += 1;
    }
    table
};
const RANK_OF: [Rank; 36] = {
    let mut table = [Rank::Six; 36];
    let mut i = 0;
    while i < 36 {
        table[i] = Rank::ALL[i % 9];
        i += 1;
    }
    table
};

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank(), self.suit())
    }
}

impl FromStr for Card {
    type Err = Error;
    /// Rank then suit, ASCII only, any case, `10` for `T` (R0): `"JH"`, `"10s"`, `"th"`;
    /// blanks around the card are allowed, inside it (`"J H"`) they are not.
    fn from_str(text: &str) -> Result<Card, Error> {
        let bad = || Error::BadCard(excerpt(text));
        let body = text
            .trim_matches(|c: char| c.is_ascii_whitespace())
            .as_bytes();
        let (rank_letter, suit_letter) = match body {
            [b'1', b'0', suit] => (b'T', *suit),
            [rank, suit] => (rank.to_ascii_uppercase(), *suit),
            _ => return Err(bad()),
        };
        let suit = Suit::from_letter(suit_letter as char).ok_or_else(bad)?;
        let rank = RANK_LETTERS
            .iter()
            .position(|&letter| letter == rank_letter as char)
            .ok_or_else(bad)?;
        Ok(Card::new(suit, Rank::from_index(rank as u8)))
    }
}

/// A set of cards as a 36-bit mask (bit = card index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    /// No card.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 36 cards (R1.1).
    pub const DECK: CardSet = CardSet((1 << 36) - 1);

    /// The mask: bit `i` set for the card of index `i`.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// True if the set holds no card.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of cards.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True if `card` is in the set.
    #[inline]
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    /// Adds `card`.
    #[inline]
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Removes `card`.
    #[inline]
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.0);
    }

    /// The cards in either set.
    #[inline]
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// The cards in both sets.
    #[inline]
    pub const fn intersect(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// The cards of this set that are not in `other`.
    #[inline]
    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The cards of `suit` in this set.
    #[inline]
    pub const fn of_suit(self, suit: Suit) -> CardSet {
        CardSet(self.0 & suit.mask().0)
    }

    /// The 9-bit lane of `suit`, bit `r` = rank `r` in natural order.
    #[inline]
    pub const fn lane(self, suit: Suit) -> u32 {
        ((self.0 >> (9 * suit as u32)) & 0x1ff) as u32
    }

    /// The cards of `suit` whose ranks are the set bits of `lane` (the inverse of
    /// [`CardSet::lane`]; `lane` below 2^9).
    #[inline]
    pub const fn from_lane(lane: u32, suit: Suit) -> CardSet {
        CardSet((lane as u64) << (9 * suit as u32))
    }

    /// The lowest card, if any.
    #[inline]
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(self.0.trailing_zeros() as u8))
        }
    }

    /// The `k`-th card in index order (k < len), for uniform random choice from a mask.
    #[inline]
    pub fn nth(self, k: u32) -> Card {
        Card(crate::bits::select(self.0, k) as u8)
    }

    /// The cards in index order.
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
}

/// The cards of a set in index order.
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for card in *self {
            if !first {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
            first = false;
        }
        Ok(())
    }
}

/// The most cards any input holds: the deck (R1.1). Longer card lists are refused as soon as
/// the next card is seen, before the rest is read.
pub const MAX_CARDS: usize = 36;

/// The error for a card list longer than the deck.
pub fn too_many_cards() -> Error {
    Error::invalid(format!(
        "more than {MAX_CARDS} cards given: the deck has {MAX_CARDS} (R1.1)"
    ))
}

/// Parses space- or comma-separated card text, in order; at most [`MAX_CARDS`] cards.
///
/// ```
/// use tarabish::{parse_cards, Card, Rank, Suit};
///
/// let cards = parse_cards("JH, 10s th").unwrap();
/// assert_eq!(cards[0], Card::new(Suit::Hearts, Rank::Jack));
/// assert_eq!(cards[1].to_string(), "TS");
/// assert!(parse_cards("JH JX").is_err());
/// ```
pub fn parse_cards(text: &str) -> Result<Vec<Card>, Error> {
    let mut cards = Vec::new();
    for word in text
        .split(|c: char| c.is_ascii_whitespace() || c == ',')
        .filter(|word| !word.is_empty())
    {
        if cards.len() == MAX_CARDS {
            return Err(too_many_cards());
        }
        cards.push(word.parse()?);
    }
    Ok(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_card() {
        for index in 0..36 {
            let card = Card::from_index(index).unwrap();
            assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
        }
        assert_eq!(
            "10s".parse::<Card>().unwrap(),
            Card::new(Suit::Spades, Rank::Ten)
        );
        assert_eq!("jh".parse::<Card>().unwrap().index(), 2 * 9 + 5);
    }

    #[test]
    fn bad_card_text_is_an_error_not_a_panic() {
        for text in [
            "",
            "H",
            "1H",
            "JX",
            "JHH",
            "ÄH",
            "JÄ",
            "11H",
            "  ",
            "J H",
            "1 0H",
            "\u{1D7CF}H",
        ] {
            assert!(text.parse::<Card>().is_err(), "{text:?} parsed");
        }
        assert_eq!(" jh\t".parse::<Card>().unwrap().to_string(), "JH");
    }

    #[test]
    fn a_bad_card_message_quotes_an_excerpt() {
        let long = "X".repeat(1_000_000);
        let message = long.parse::<Card>().unwrap_err().to_string();
        assert!(message.len() < 200, "{} bytes", message.len());
    }

    #[test]
    fn card_lists_stop_after_the_deck() {
        let deck: Vec<String> = (0..36).map(|i| Card(i).to_string()).collect();
        assert_eq!(parse_cards(&deck.join(" ")).unwrap().len(), MAX_CARDS);
        // The 37th word is refused as such, whatever follows (even text that is not a card).
        let longer = format!("{} 6C {}", deck.join(" "), "?".repeat(1_000));
        let message = parse_cards(&longer).unwrap_err().to_string();
        assert!(message.contains("more than 36"), "{message}");
    }

    #[test]
    fn lanes_are_natural_order() {
        let set: CardSet = parse_cards("6H 8H AH").unwrap().into_iter().collect();
        assert_eq!(set.lane(Suit::Hearts), 0b1_0000_0101);
        assert_eq!(set.lane(Suit::Spades), 0);
    }

    #[test]
    fn nth_selects_in_index_order() {
        let set: CardSet = parse_cards("AS 6C 9D").unwrap().into_iter().collect();
        let picked: Vec<String> = (0..3).map(|k| set.nth(k).to_string()).collect();
        assert_eq!(picked, ["6C", "9D", "AS"]);
    }
}
