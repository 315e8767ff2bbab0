//! Move order for the double-dummy search (docs/SOLVER.md "Move ordering"): equivalent cards merged
//! (zero-point cards, R1.3, with no live card between them in trick order, R1.2, are searched
//! once), then the killer move or the table's hint tried first, then the rest by a cheap score (win
//! the trick with points when one's side can, shed nothing of value when it cannot).

use std::mem::MaybeUninit;

use super::lanes::{STRONGEST_PLAIN, STRONGEST_TRUMP};
use super::search::{Position, Search, MAX_MOVES, NO_CARD};
use crate::cards::Card;
use crate::seats::partner;
use crate::tricks::LANE;

/// The one follower (position in the trick) whose killer move is tried first.
const KILLER_FOLLOWER: usize = 2;

/// Up to nine card indices in the order to try them.
pub(super) struct Moves {
    pub(super) cards: [u8; MAX_MOVES],
    pub(super) len: usize,
}

/// The four low bits of a suit's lane (where its zero-point cards sit).
const LOW_LANE: u64 = 0xf;

/// For a lane's live zero-point cards (low four bits of the index) and the legal ones among
/// them (high four bits): the legal ones whose next live card below is not legal (the lowest
/// of each group of equivalent cards, [`Search::distinct_moves`]).
const LOWEST_OF_EQUALS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut index = 0;
    while index < 256 {
        let (live, legal) = (index & 0xf, index >> 4);
        let mut card = 0;
        while card < 4 {
            if legal & (1 << card) != 0 {
                let below = live & ((1 << card) - 1);
                let lower_equal =
                    below != 0 && legal & (1 << (7 - (below as u8).leading_zeros())) != 0;
                if !lower_equal {
                    table[index] |= 1 << card;
                }
            }
            card += 1;
        }
        index += 1;
    }
    table
};

impl Search<'_> {
    /// The move tried first among `distinct`: the killer move at a lead and at the third
    /// seat, else the table's `hint`; [`NO_CARD`] when neither is a distinct legal move.
    #[inline(always)]
    pub(super) fn first_move(&self, pos: &Position, distinct: u64, hint: u8) -> u8 {
        let position_in_trick = pos.trick_len as usize;
        if position_in_trick == 0 || position_in_trick == KILLER_FOLLOWER {
            let killer = self.killers[pos.held.count_ones() as usize][pos.to_move as usize];
            if killer != NO_CARD && distinct & (1u64 << killer) != 0 {
                return killer;
            }
        }
        if hint != NO_CARD && distinct & (1u64 << hint) != 0 {
            hint
        } else {
            NO_CARD
        }
    }

    /// The strongest card of every suit among `live` (R1.2 trick order).
    #[inline(always)]
    fn masters(&self, live: u64) -> u64 {
        (0..4)
            .map(|suit| {
                let lane = ((live >> (9 * suit)) & LANE) as usize;
                let strongest = if suit == self.trump as u32 {
                    STRONGEST_TRUMP[lane]
                } else {
                    STRONGEST_PLAIN[lane]
                };
                (strongest as u64) << (9 * suit)
            })
            .fold(0, |all, master| all | master)
    }

    /// Makes `card`, which refuted a window, the killer move of its seat and cards left, where
    /// killers are tried (a lead, the third seat).
    #[inline(always)]
    pub(super) fn credit(&mut self, pos: &Position, card: u8) {
        if pos.trick_len == 0 || pos.trick_len as usize == KILLER_FOLLOWER {
            self.killers[pos.held.count_ones() as usize][pos.to_move as usize] = card;
        }
    }

    /// The cards of `legal` that are not equivalent to a lower one: zero-point cards (R1.3) of
    /// one suit with no other live card (held by anyone or in the trick) between them in trick
    /// order win and lose the same tricks and carry the same points, so only the lowest of
    /// each such group is searched. Cards with points are never merged: which trick their
    /// points land in matters.
    #[inline(always)]
    pub fn distinct_moves(&self, pos: &Position, legal: u64) -> u64 {
        // Zero-point cards are the lowest of their suit (R1.2), so only live zero-point cards
        // lie below one: each suit's four low bits decide, by one lookup (no branch a card).
        let live = (pos.held | pos.trick_cards) & self.zero_cards;
        let zero = legal & self.zero_cards;
        let lanes = (0..4).fold(0, |keep, suit| {
            let start = 9 * suit;
            let index = (live >> start) & LOW_LANE | ((zero >> start) & LOW_LANE) << 4;
            keep | (LOWEST_OF_EQUALS[index as usize] as u64) << start
        });
        legal & !self.zero_cards | lanes
    }

    /// The `distinct` legal moves, most promising first: the table's hint (when the killer move
    /// was tried before it, [`Search::first_move`]), then by a score that favours winning the trick with points when one's side can, and shedding
    /// nothing of value when it cannot.
    #[inline(always)]
    pub(super) fn ordered_moves(&self, pos: &Position, distinct: u64, hint: u8) -> Moves {
        let mut moves = Moves {
            cards: [0; MAX_MOVES],
            len: 0,
        };
        // Each move's score, best first (only the first `moves.len` written, and read).
        let mut scores = [MaybeUninit::<i32>::uninit(); MAX_MOVES];
        let mut set = distinct;
        if set & (set - 1) == 0 {
            // A forced move: nothing to order.
            moves.cards[0] = set.trailing_zeros() as u8;
            moves.len = 1;
            return moves;
        }
        let live = pos.held | pos.trick_cards;
        let partner = partner(pos.to_move);
        let position_in_trick = pos.trick_len as usize;
        let partner_winning = position_in_trick >= 2 && pos.winner == partner;
        // For a lead: the card no one can beat in each suit, and those the partner holds.
        let masters = if position_in_trick == 0 {
            self.masters(live)
        } else {
            0
        };
        let partner_masters = masters & self.hand(pos, partner);
        while set != 0 {
            let card = set.trailing_zeros() as u8;
            set &= set - 1;
            let c = Card::from_index_unchecked(card);
            let points = self.points[card as usize] as i32;
            let score = if card == hint {
                1_000
            } else if position_in_trick == 0 {
                // Lead a card no one can beat in its suit for its points; else a cheap one.
                if masters & (1 << card) != 0 {
                    100 + points
                } else if partner_masters & (LANE << (9 * c.suit() as u32)) != 0 {
                    80 - points
                } else {
                    -points
                }
            } else {
                let wins = pos.beats & (1 << card) != 0;
                if position_in_trick == 3 && (wins || partner_winning) {
                    100 + points
                } else if wins {
                    60 + points
                } else if partner_winning {
                    30 + points
                } else {
                    -points
                }
            };
            // Insertion by score, best first (ties: the lower card first).
            let mut at = moves.len;
            // SAFETY: the scores below `moves.len` were written.
            while at > 0 && unsafe { scores[at - 1].assume_init() } < score {
                scores[at] = scores[at - 1];
                moves.cards[at] = moves.cards[at - 1];
                at -= 1;
            }
            scores[at] = MaybeUninit::new(score);
            moves.cards[at] = card;
            moves.len += 1;
        }
        moves
    }
}
