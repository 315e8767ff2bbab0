//! The double-dummy solver: the exact value of a play-phase hand when every card is known
//! (R1.3 card points and R1.4's last 10 still to be won, under R5.1's play rules and variants),
//! the value of every legal play, and the best plays. docs/SOLVER.md describes the method.
//!
//! Runs (R4.3) and bella (R4.5) are decided by the position in auto mode, whatever is played,
//! so they are reported beside the value, not in it.

mod bounds;
mod endgame;
mod lanes;
mod order;
mod pimc;
mod search;
mod table;

use std::cell::RefCell;

use rayon::prelude::*;

pub use pimc::{PimcBot, DEFAULT_WORLDS, MAX_WORLDS};
pub use search::{Position, Search};
pub use table::{Table, ENTRY_BYTES, TABLE_ENTRIES};

use crate::cards::{Card, CardSet};
use crate::error::Error;
use crate::seats::team_of;
use crate::state::{Hand, Phase};

/// What a solve found, from the point of view of the seat to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The seat to move.
    pub seat: u8,
    /// Points the seat's team takes from the tricks not yet complete (the current trick's
    /// cards included, and the last 10 if it takes the ninth trick) with best play by all four.
    pub value: u32,
    /// Every point still to be won (both teams' values add up to it).
    pub points_left: u32,
    /// The legal plays (R5.1).
    pub legal: CardSet,
    /// The value of each legal play (indexed by card; meaningful for `legal` cards only).
    pub values: [u8; 36],
    /// The legal plays that reach `value`.
    pub best: CardSet,
    /// The run winner and all the run points it is credited (R4.3), fixed by the position.
    pub runs: Option<(u8, u32)>,
    /// The seat credited with bella (R4.5), fixed by the position.
    pub bella: Option<u8>,
    /// Positions searched.
    pub nodes: u64,
}

impl Solution {
    /// The value of playing `card` (a legal play).
    pub fn value_of(&self, card: Card) -> u32 {
        debug_assert!(self.legal.contains(card));
        self.values[card.index() as usize] as u32
    }
}

/// A reusable solver: one transposition table ([`TABLE_ENTRIES`] entries of [`ENTRY_BYTES`]),
/// allocated once. Positions of one trump and play variants share what it learned.
pub struct Solver {
    table: Table,
    /// The trump and play variants (R5.1) the table's generation holds values for.
    config: Option<(u8, [bool; 3])>,
    /// Positions searched by the last call.
    pub nodes: u64,
    /// Aspiration windows searched by the last call (a failed window counts again).
    pub passes: u64,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Solver {
        Solver {
            table: Table::new(),
            config: None,
            nodes: 0,
            passes: 0,
        }
    }

    /// The search of a play-phase hand, its table generation chosen for its trump and play
    /// variants.
    fn search_for(&mut self, hand: &Hand) -> Result<(Search<'_>, Position), Error> {
        let (pos, trump) = position_of(hand)?;
        let hands = [0, 1, 2, 3].map(|seat| hand.hand(seat).0);
        let rules = *hand.rules();
        let config = (
            trump as u8,
            [
                rules.head_plain,
                rules.undertrump_optional,
                rules.partner_exempt,
            ],
        );
        let same_rules = self.config == Some(config);
        self.config = Some(config);
        self.table
            .begin(&hands, lanes::zero_cards(trump), same_rules);
        Ok((Search::new(&mut self.table, trump, rules, hands), pos))
    }

    /// The value alone (see [`Solution::value`]): one search, cheaper than [`Solver::solve`].
    pub fn value(&mut self, hand: &Hand) -> Result<u32, Error> {
        let (mut search, pos) = self.search_for(hand)?;
        let team0 = search.value(&pos, pos.points_left() / 2);
        let (nodes, passes) = (search.nodes, search.passes);
        self.nodes = nodes;
        self.passes = passes;
        Ok(if team_of(pos.to_move) == 0 {
            team0
        } else {
            pos.points_left() - team0
        } as u32)
    }

    /// Solves a play-phase hand: the value, the value of every legal play, the best plays.
    /// Errors (`Error::Invalid`) for a hand not in the play phase.
    pub fn solve(&mut self, hand: &Hand) -> Result<Solution, Error> {
        let (mut search, pos) = self.search_for(hand)?;
        let team = team_of(pos.to_move);
        let points_left = pos.points_left();
        let for_mover = |team0: i32| {
            if team == 0 {
                team0
            } else {
                points_left - team0
            }
        };
        let legal = search.legal(&pos);
        let distinct = search.distinct_moves(&pos, legal);
        let mut values = [0u8; 36];
        // Each play's search starts from a guess (search::Search::value): the previous play's
        // value (the next card of a suit usually does about as well), or at a new suit the best
        // value so far (1,000 deals: 1.1 % fewer nodes than the previous play's value alone).
        let mut guess = points_left / 2;
        let mut best_for_mover = None;
        let mut previous_suit = None;
        let mut solved = 0u64;
        let mut bits = distinct;
        while bits != 0 {
            let card = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let suit = Card::from_index_unchecked(card).suit();
            if previous_suit != Some(suit) {
                guess = best_for_mover.map_or(guess, for_mover);
            }
            previous_suit = Some(suit);
            let (next, won) = search.play(&pos, card);
            // A play next to one already solved (same suit, no other seat's card between)
            // is searched beside it: its positions' twins are in the table.
            let neighbours = search.neighbours(&pos, card, solved);
            let team0 = won
                + if neighbours != 0 {
                    search.value_beside(&next, guess - won, card, neighbours.trailing_zeros() as u8)
                } else {
                    search.value(&next, guess - won)
                };
            solved |= 1 << card;
            guess = team0;
            let value = for_mover(team0);
            best_for_mover = Some(best_for_mover.map_or(value, |best: i32| best.max(value)));
            values[card as usize] = value as u8;
        }
        // A merged card has the value of the lowest card of its group
        // (`Search::distinct_moves`, solver/order.rs).
        let mut merged = legal & !distinct;
        while merged != 0 {
            let card = merged.trailing_zeros() as usize;
            merged &= merged - 1;
            let representative = (0..card).rev().find(|&c| distinct & (1 << c) != 0);
            values[card] = values[representative.expect("a merged card has a lower twin")];
        }
        let value = CardSet(legal)
            .iter()
            .map(|c| values[c.index() as usize])
            .max()
            .expect("a play-phase seat has a legal play") as u32;
        let best = CardSet(legal)
            .iter()
            .filter(|c| values[c.index() as usize] as u32 == value)
            .collect();
        let (nodes, passes) = (search.nodes, search.passes);
        self.nodes = nodes;
        self.passes = passes;
        Ok(Solution {
            seat: pos.to_move,
            value,
            points_left: points_left as u32,
            legal: CardSet(legal),
            values,
            best,
            runs: hand.runs_decided(),
            bella: hand.bella_holder(),
            nodes,
        })
    }
}

/// The search position of a play-phase hand, and its trump; `Error::Invalid` otherwise.
pub fn position_of(hand: &Hand) -> Result<(Position, crate::cards::Suit), Error> {
    if hand.rules().is_table_mode() {
        return Err(Error::Invalid(
            "the solver plays auto mode only: table mode (R8: manual declarations or accepted \
             misplays) is not solved"
                .to_string(),
        ));
    }
    let (Phase::Play, Some(trump), Some(seat), Some(leader)) = (
        hand.phase(),
        hand.trump(),
        hand.to_move(),
        hand.trick_leader(),
    ) else {
        return Err(Error::Invalid(format!(
            "the solver needs a hand in the play phase (R5), not one in the {} phase",
            hand.phase().name()
        )));
    };
    // The trick start with the current trick's cards given back, then those cards played
    // again in order.
    let trick_cards = hand.current_trick();
    let held = (0..4)
        .map(|seat| hand.hand(seat))
        .chain(trick_cards.iter().map(|card| card.bit()))
        .fold(CardSet::EMPTY, |all, cards| all.union(cards));
    let hand_points = crate::tricks::set_points(held, trump);
    let mut pos = Position::trick_start(held.0, hand_points as u8, leader);
    for card in trick_cards {
        pos = pos.play(card.index(), trump).0;
    }
    debug_assert_eq!(pos.to_move, seat);
    Ok((pos, trump))
}

thread_local! {
    /// One solver per thread, so repeated solves reuse one table and allocate nothing.
    static SOLVER: RefCell<Solver> = RefCell::new(Solver::new());
}

/// [`Solver::solve`] with this thread's solver.
///
/// ```
/// use tarabish::{solve, Hand, Rules};
///
/// let mut hand = Hand::from_seed(3, 0, Rules::default(), [0, 0]);
/// hand.apply(36).unwrap(); // eldest calls clubs: the play begins
/// let solution = solve(&hand).unwrap();
/// assert!(solution.value <= solution.points_left);
/// assert!(solution.legal.contains(solution.best.first().unwrap()));
/// ```
pub fn solve(hand: &Hand) -> Result<Solution, Error> {
    SOLVER.with(|solver| solver.borrow_mut().solve(hand))
}

/// Solves many hands on `threads` threads (0: every core), each with its own solver; the
/// results are in input order and equal those of solving one by one.
pub fn solve_many(hands: &[Hand], threads: usize) -> Result<Vec<Solution>, Error> {
    match threads {
        0 => return hands.par_iter().map(solve).collect(),
        1 => return hands.iter().map(solve).collect(),
        _ => {}
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Invalid(format!("cannot start {threads} threads: {e}")))?;
    pool.install(|| hands.par_iter().map(solve).collect())
}

#[cfg(test)]
mod tests;
