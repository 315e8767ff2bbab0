//! The last tricks of the double-dummy search (docs/SOLVER.md "The last two tricks"): from two
//! tricks left ([`ENDGAME_CARDS`](super::search::ENDGAME_CARDS) cards), a plain null-window
//! alpha-beta over the legal plays, with no table, no ordering and no merging (there they cost more
//! than they save), and the last trick played out (R5.2).

use super::lanes::{STRONGEST_PLAIN, STRONGEST_TRUMP};
use super::search::{Position, Search};
use crate::seats::team_of;
use crate::tricks::LANE;

impl Search<'_> {
    /// Null-window fail-soft alpha-beta over the plays of the seat to move, each followed by
    /// `rest` (the value of the position after it, on the window less the points the play
    /// won): no table, no ordering, no merging, for the last tricks, where they cost more
    /// than they save.
    #[inline(always)]
    fn each_play(
        &self,
        pos: &Position,
        beta: i32,
        rest: impl Fn(&Self, &Position, i32) -> i32,
    ) -> i32 {
        let maximizing = team_of(pos.to_move) == 0;
        let mut best = if maximizing { i32::MIN } else { i32::MAX };
        let mut cards = self.legal(pos);
        while cards != 0 {
            let card = cards.trailing_zeros() as u8;
            cards &= cards - 1;
            let (next, won) = self.play(pos, card);
            let value = won + rest(self, &next, beta - won);
            if maximizing {
                best = best.max(value);
                if best >= beta {
                    break;
                }
            } else {
                best = best.min(value);
                if best < beta {
                    break;
                }
            }
        }
        best
    }

    /// The last two tricks from their start ([`ENDGAME_CARDS`](super::search::ENDGAME_CARDS)
    /// cards, two a seat): the four plays of the first over masks, then the last trick played
    /// out.
    #[inline(always)]
    pub(super) fn two_tricks(&self, pos: &Position, beta: i32) -> i32 {
        self.each_play(pos, beta, |s, p, b| {
            s.each_play(p, b, |s, p, b| {
                s.each_play(p, b, |s, p, b| s.each_play(p, b, |s, p, _| s.last_trick(p)))
            })
        })
    }

    /// The last trick (one card each, or none): no choice left. R5.2: the strongest trump
    /// wins it, or with no trump the strongest card of the suit led (the leader's card's).
    #[inline(always)]
    pub(super) fn last_trick(&self, pos: &Position) -> i32 {
        if pos.held == 0 {
            return 0;
        }
        let trump = self.trump as u32;
        let lane = |suit: u32| ((pos.held >> (9 * suit)) & LANE) as usize;
        let winning_card = if pos.held & self.trump_mask != 0 {
            (STRONGEST_TRUMP[lane(trump)] as u64) << (9 * trump)
        } else {
            let led = self.hand(pos, pos.leader).trailing_zeros() / 9;
            (STRONGEST_PLAIN[lane(led)] as u64) << (9 * led)
        };
        if winning_card & (self.owners[0] | self.owners[2]) != 0 {
            pos.points_left()
        } else {
            0
        }
    }
}
