//! Dealing (RULES.md R2.3, R2.4): a deal from a seed (shuffle, cut at 4..32, three rounds of
//! three cards from eldest) and the checks on an explicit deal. The seeded deal is pinned by a
//! golden test: it must never change.

use crate::cards::{Card, CardSet};
use crate::error::Error;
use crate::rng::SplitMix64;
use crate::seats::{seat_after, SEATS};

/// Cards dealt to each seat (R2.4).
pub const CARDS_PER_SEAT: usize = 9;
/// The kitty: the last cards a seat receives, unseen until trump is named (R2.4).
pub const KITTY_SIZE: usize = 3;
/// The cards a seat sees before trump is named: its first two packets (R2.4).
pub const FIRST_PACKETS: usize = CARDS_PER_SEAT - KITTY_SIZE;
/// R2.4: the cards go round in packets of three, three rounds.
const PACKET: usize = 3;

/// Four seats' cards in the order received: `cards[seat][0..9]`, the last three its kitty.
pub type Deal = [[Card; CARDS_PER_SEAT]; SEATS as usize];

/// Shuffles, cuts and deals with `rng` (docs/ENGINE.md "Randomness"); `rng` then goes on to
/// drive a random playout.
pub fn deal_with(rng: &mut SplitMix64, dealer: u8) -> Deal {
    let mut deck = [0u8; 36];
    for (i, slot) in deck.iter_mut().enumerate() {
        *slot = i as u8;
    }
    for i in (1..36).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        deck.swap(i, j);
    }
    // R2.3: the dealer's right cuts, leaving at least four cards in each packet.
    let cut = 4 + rng.below(29) as usize;
    deck.rotate_left(cut);
    let mut deal = [[Card::from_index_unchecked(0); CARDS_PER_SEAT]; SEATS as usize];
    let mut next = 0;
    for round in 0..CARDS_PER_SEAT / PACKET {
        for k in 1..=SEATS as usize {
            let seat = seat_after(dealer, k) as usize;
            for slot in 0..PACKET {
                deal[seat][PACKET * round + slot] = Card::from_index_unchecked(deck[next]);
                next += 1;
            }
        }
    }
    deal
}

/// The deal of hand seed `seed` (a fresh generator).
pub fn deal_from_seed(seed: u64, dealer: u8) -> Deal {
    deal_with(&mut SplitMix64::new(seed), dealer)
}

/// Checks four 9-card lists: 36 distinct cards (R1.1, R2.4).
pub fn check_deal(hands: &[Vec<Card>]) -> Result<Deal, Error> {
    if hands.len() != 4 {
        return Err(Error::invalid(format!(
            "a deal is four seats' cards (R2.4), got {} seats",
            hands.len()
        )));
    }
    let mut deal = [[Card::from_index_unchecked(0); 9]; 4];
    let mut seen = CardSet::EMPTY;
    for (seat, cards) in hands.iter().enumerate() {
        if cards.len() != 9 {
            return Err(Error::invalid(format!(
                "seat {seat} is dealt {} cards; every seat gets 9 (R2.4)",
                cards.len()
            )));
        }
        for (slot, &card) in cards.iter().enumerate() {
            if seen.contains(card) {
                return Err(Error::invalid(format!(
                    "card {card} is dealt twice (R1.1: 36 distinct cards)"
                )));
            }
            seen.insert(card);
            deal[seat][slot] = card;
        }
    }
    Ok(deal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seats::seat_of;

    fn text(cards: &[Card]) -> String {
        cards
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn seeded_deals_use_every_card_once() {
        for seed in 0..200 {
            let deal = deal_from_seed(seed, seat_of(seed));
            let all: CardSet = deal.iter().flatten().copied().collect();
            assert_eq!(all, CardSet::DECK);
        }
    }

    #[test]
    fn golden_seeded_deal_never_changes() {
        // Pinned: changing the shuffle, cut or deal order breaks every saved seed.
        let deal = deal_from_seed(42, 0);
        let golden = GOLDEN_SEED_42_DEALER_0;
        for seat in 0..4 {
            assert_eq!(text(&deal[seat]), golden[seat], "seat {seat}");
        }
    }

    /// Computed once by an independent Python transcription of docs/ENGINE.md "Randomness".
    const GOLDEN_SEED_42_DEALER_0: [&str; 4] = [
        "9D KS KD 9S 9H 7D TD AC AD",
        "QD TH TS QS JH QC 7H KH 8S",
        "6S 8C TC AS 7C 8D 8H 7S 6H",
        "JD JS QH 6D JC AH KC 9C 6C",
    ];
}
