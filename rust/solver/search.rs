//! The double-dummy search (docs/SOLVER.md "Search"): fail-soft alpha-beta on team 0's points still
//! to win (R1.3 card points and R1.4's last 10): principal-variation search on an aspiration window
//! around a guess, every other move a null-window test.
//!
//! Positions are small `Copy` values, so a move is a copy and undo is nothing. Trick-start
//! positions go through the transposition table (table.rs), and the last card of a trick
//! fetches its replies' entries together; moves are the legal plays of R5.1 (the engine's own
//! masks, variants included). The techniques around the search have a file each: the move
//! order (order.rs), the bounds that settle a position without searching it (bounds.rs) and
//! the last two tricks (endgame.rs), with the lane tables they share (lanes.rs). Nothing on
//! this path allocates.

use super::lanes::zero_cards;
use super::table::{Bounds, Key, Table};
use crate::cards::{Card, CardSet, Suit};
use crate::cpu::{Job, KernelSet};
use crate::rules::Rules;
use crate::scoring;
use crate::seats::{next_seat, partner, team_of};
use crate::tricks::{card_points, legal_on_masks, BEATS, LANE, POINTS};
use std::mem::MaybeUninit;

/// R1.4: the winner of the ninth trick adds 10.
pub const LAST_TRICK_BONUS: i32 = scoring::LAST_TRICK_BONUS as i32;
/// A card index that is no card: no move-ordering hint.
pub(super) const NO_CARD: u8 = 0xff;
/// The most moves a seat can have (a full hand).
pub(super) const MAX_MOVES: usize = 9;
/// The fewest cards left at a trick start the table stores (two tricks): the last trick is
/// played out instead. The last card of a trick probes its replies' entries only when they
/// have at least this many.
const MIN_TABLE_CARDS: u32 = 8;
/// Trick starts with at most this many cards (two tricks) are solved by
/// [`Search::two_tricks`] instead of the general search.
pub(super) const ENDGAME_CARDS: u32 = 8;
/// The fewest cards at a trick start whose quick bounds ([`Search::sure_bounds`]) are worked
/// out (four tricks). With three tricks or fewer left they cost more than they save: a
/// position they settle is not stored, while its search is cheap and stores a tighter bound
/// (100 deals, against quick bounds at every trick start: from 16 cards nodes -0.8 %, CPU
/// time -5 %; from 12 cards nodes -2.2 %, time -3 %; from 20 cards nodes +1.6 %, time -5 %).
const MIN_SURE_CARDS: u32 = 16;
/// The half-width of the first window around the guess (200 deals: 6 points searched the
/// fewest nodes of 1, 2, 4, 6, 8, 10, 12 and 16).
const ASPIRATION: i32 = 6;
/// How much the window's step grows each time a search fails on the same side.
const WIDEN: i32 = 2;

/// Every card (the suit led before the lead: a leader may play anything).
pub(super) const ALL_CARDS: u64 = CardSet::DECK.0;
/// Cards in a trick.
const TRICK_CARDS: u8 = 4;

/// A play-phase position with every card known: what the search needs and nothing more. The
/// current trick is kept as masks (as in rust/search/rollout.rs), so a play and R5.1's legal
/// plays are a few mask operations. Cards never change hands, so the cards still held are one
/// set and the search knows each card's seat ([`Search::new`]'s `owners`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The cards still held by anyone (card-index bits).
    pub held: u64,
    /// The cards played so far to the current trick.
    pub trick_cards: u64,
    /// The cards of the suit led (every card before the lead).
    pub led: u64,
    /// The cards that would take the trick from its winner so far (R5.2; none before the lead).
    pub beats: u64,
    /// Card points in the current trick.
    pub trick_points: u8,
    /// Card points still in the hands.
    pub hand_points: u8,
    /// The seat that led the current trick.
    pub leader: u8,
    /// The seat to play.
    pub to_move: u8,
    /// The seat winning the current trick so far (R5.2; the leader before the lead).
    pub winner: u8,
    /// Cards played to the current trick.
    pub trick_len: u8,
}

impl Position {
    /// A trick start: `held` still held, `leader` to lead, `hand_points` card points in them.
    pub fn trick_start(held: u64, hand_points: u8, leader: u8) -> Position {
        Position {
            held,
            trick_cards: 0,
            led: ALL_CARDS,
            beats: 0,
            trick_points: 0,
            hand_points,
            leader,
            to_move: leader,
            winner: leader,
            trick_len: 0,
        }
    }

    /// Plays `card` for the seat to move, `trump` being trump. Returns the next position and
    /// the points team 0 won if the card completed a trick (the next position then starts a
    /// trick; R5.2 the winner leads, R1.4 the last 10 with the ninth trick).
    #[inline(always)]
    pub fn play(&self, card: u8, trump: Suit) -> (Position, i32) {
        self.play_known(
            card,
            card_points(Card::from_index_unchecked(card), trump) as u8,
            BEATS[trump as usize][card as usize],
        )
    }

    /// [`Position::play`] with the card's `points` (R1.3) and the cards that would beat it
    /// (`beats`, R5.2) given.
    #[inline(always)]
    fn play_known(&self, card: u8, points: u8, beats: u64) -> (Position, i32) {
        let mut next = *self;
        let bit = 1u64 << card;
        next.held &= !bit;
        next.hand_points -= points;
        next.trick_points += points;
        if self.trick_len == 0 {
            next.led = LANE << (9 * (card / 9));
        }
        // R5.2: the lead wins so far, and so does a card that beats the winner.
        if self.trick_len == 0 || self.beats & bit != 0 {
            next.beats = beats;
            next.winner = self.to_move;
        }
        next.trick_len += 1;
        if next.trick_len < TRICK_CARDS {
            next.trick_cards |= bit;
            next.to_move = next_seat(self.to_move);
            return (next, 0);
        }
        let winner = next.winner;
        let mut won = next.trick_points as i32;
        if next.held == 0 {
            won += LAST_TRICK_BONUS;
        }
        let next = Position::trick_start(next.held, next.hand_points, winner);
        (next, if team_of(winner) == 0 { won } else { 0 })
    }

    /// Every point not yet won: the hands, the current trick and the last 10 (R1.4).
    #[inline(always)]
    pub fn points_left(&self) -> i32 {
        self.hand_points as i32 + self.trick_points as i32 + LAST_TRICK_BONUS
    }
}

/// A search over one trump and one set of play variants, sharing a table.
pub struct Search<'t> {
    pub(super) table: &'t mut Table,
    pub(super) trump: Suit,
    pub(super) rules: Rules,
    /// Zero-point cards of every suit (for equivalent-card merging).
    pub(super) zero_cards: u64,
    /// The trump suit's cards.
    pub(super) trump_mask: u64,
    /// The cards each seat held when the search began (a superset of what it holds).
    pub(super) owners: [u64; 4],
    /// What a follower must head the trick with when it can (R5.1a): trumps, and every card
    /// under `head_plain`.
    pub(super) head: u64,
    /// Positions searched, for benchmarks and tuning.
    pub nodes: u64,
    /// Aspiration windows searched (a failed window is searched again, wider).
    pub passes: u64,
    /// Killer moves: for each number of cards left and each seat, the last card that refuted a
    /// window there. Tried first at a lead and at the third seat, before the table's move: a
    /// refutation found in a sibling position is more often a refutation here than the best
    /// move of a failed-low search is. (At the second and fourth seats the score below orders
    /// better: measured.)
    pub(super) killers: [[u8; 4]; 37],
    /// While a move is searched beside a tried neighbour (its value alone did not settle it),
    /// the two cards and their point difference: every trick start under it has a twin, the
    /// same with the two cards swapped (Search::settled).
    pub(super) twin: Option<Twin>,
    /// Each card's points (R1.3) under this trump, by card index (every `u8` indexes it: no
    /// bounds check on the search path).
    pub(super) points: [u8; 256],
    /// The cards that beat each card (R5.2, [`BEATS`]) under this trump, indexed likewise.
    pub(super) beats: [u64; 256],
    /// The kernel whose copy the search runs (rust/cpu.rs): with BMI2 and POPCNT, a mask's
    /// `count_ones` is one instruction instead of a dozen.
    kernel: KernelSet,
}

/// [`Search::search`]'s arguments, as a kernel's job.
struct Root<'a, 'b> {
    search: &'a mut Search<'b>,
    pos: &'a Position,
    beta: i32,
}

impl Job for Root<'_, '_> {
    type Output = i32;
    #[inline(always)]
    unsafe fn run<const BMI2: bool, const AVX512: bool, const PDEP: bool>(self) -> i32 {
        // SAFETY: the caller's guarantee.
        unsafe { self.search.recurse::<BMI2>(self.pos, self.beta) }
    }
}

/// A trick start that neither the quick bounds nor the table settle: what its search needs.
struct TrickStart {
    /// Cards still in hand.
    left: u32,
    /// Its table key.
    key: Key,
    /// The stored bounds (0 and the points left when nothing is stored) and best move.
    lower: i32,
    upper: i32,
    hint: u8,
    /// The quick bounds ([`Search::sure_bounds`]).
    sure_lower: i32,
    sure_upper: i32,
}

/// Two cards of one seat and suit with no other seat's live card between them in trick order
/// (R1.2), one played and one tried beside it: positions that differ only by which of the two
/// is still held have values at most `gap` apart (the points' difference, R1.3).
#[derive(Clone, Copy)]
pub(super) struct Twin {
    /// The two cards (card-index bits).
    pub(super) cards: u64,
    /// The difference of their points.
    pub(super) gap: i32,
}

/// Slots of [`Tried`]'s values: one for each card index a `u64` card set can hold.
const CARD_SLOTS: usize = 64;

/// The moves tried at a node and their fail-soft values, none of which refuted the window.
/// Made at every node, so only the set is initialised: a value is written by card index when
/// its card is tried and read only for a card of the set (no zeroing, no search by card).
pub(super) struct Tried {
    /// The cards tried (card-index bits).
    pub(super) cards: u64,
    /// The value of each tried card, by card index (the others uninitialised).
    pub(super) values: [MaybeUninit<i32>; CARD_SLOTS],
}

impl Tried {
    /// Nothing tried yet.
    #[inline(always)]
    fn none() -> Tried {
        Tried {
            cards: 0,
            values: [MaybeUninit::uninit(); CARD_SLOTS],
        }
    }

    #[inline(always)]
    fn push(&mut self, card: u8, value: i32) {
        self.cards |= 1 << card;
        self.values[card as usize % CARD_SLOTS] = MaybeUninit::new(value);
    }

    /// The value of `card`, which was tried (0 for a card that was not).
    #[inline(always)]
    pub(super) fn value_of(&self, card: u8) -> i32 {
        let slot = card as usize % CARD_SLOTS;
        if self.cards & (1 << slot) != 0 {
            // SAFETY: `push` wrote this slot when it put the card in the set.
            unsafe { self.values[slot].assume_init() }
        } else {
            0
        }
    }
}

impl<'t> Search<'t> {
    /// A search with trump `trump` under the play variants of `rules`, storing into `table`.
    /// `owners` are the cards each seat holds (or held earlier in the same deal).
    pub fn new(table: &'t mut Table, trump: Suit, rules: Rules, owners: [u64; 4]) -> Search<'t> {
        Search {
            table,
            trump,
            rules,
            zero_cards: zero_cards(trump),
            trump_mask: trump.mask().0,
            owners,
            head: if rules.head_plain {
                ALL_CARDS
            } else {
                trump.mask().0
            },
            nodes: 0,
            passes: 0,
            killers: [[NO_CARD; 4]; 37],
            twin: None,
            points: std::array::from_fn(|card| {
                POINTS[trump as usize].get(card).copied().unwrap_or(0)
            }),
            beats: std::array::from_fn(|card| {
                BEATS[trump as usize].get(card).copied().unwrap_or(0)
            }),
            kernel: KernelSet::chosen(),
        }
    }

    /// Runs `kernel`'s copy of the search (the tests compare them).
    #[cfg(test)]
    pub(super) fn force_kernel(&mut self, kernel: KernelSet) {
        self.kernel = kernel;
    }

    /// The cards `seat` still holds.
    #[inline(always)]
    pub(super) fn hand(&self, pos: &Position, seat: u8) -> u64 {
        pos.held & self.owners[seat as usize]
    }

    /// The cards the seat to move may play (R5.1).
    #[inline(always)]
    pub fn legal(&self, pos: &Position) -> u64 {
        let hand = self.hand(pos, pos.to_move);
        if pos.trick_len == 0 {
            return hand;
        }
        legal_on_masks(
            hand,
            pos.led,
            pos.beats,
            self.trump_mask,
            self.head,
            self.rules.partner_exempt && pos.winner == partner(pos.to_move),
            self.rules.undertrump_optional,
        )
    }

    /// Plays `card` for the seat to move. Returns the next position and the points team 0 won
    /// if the card completed a trick (the next position then starts a trick).
    #[inline(always)]
    pub fn play(&self, pos: &Position, card: u8) -> (Position, i32) {
        let card_index = card as usize;
        pos.play_known(card, self.points[card_index], self.beats[card_index])
    }

    /// The exact value of `pos` for team 0 (the points it still wins with best play by all
    /// four), by a principal-variation search on a window of [`ASPIRATION`] points either side
    /// of `guess`; a search that fails on one side is run again from the bound it returned,
    /// with a step [`WIDEN`] times the last. (Null-window tests alone, galloping from the
    /// guess then bisecting, searched about 4 % more nodes over 200 deals, 43 passes a full
    /// solve instead of 18; one full window a play 1 % more: docs/SOLVER.md "Tried and rejected".)
    pub fn value(&mut self, pos: &Position, guess: i32) -> i32 {
        let mut step = ASPIRATION;
        let (mut alpha, mut beta) = (guess - step, guess + step);
        loop {
            self.passes += 1;
            let value = self.search_window(pos, alpha, beta);
            step *= WIDEN;
            if value <= alpha {
                // An upper bound: the value is at most `value`.
                (alpha, beta) = (value - step, value + 1);
            } else if value >= beta {
                // A lower bound.
                (alpha, beta) = (value - 1, value + step);
            } else {
                return value;
            }
        }
    }

    /// Fail-soft alpha-beta on the window (`alpha`, `beta`), principal variation first: the
    /// result is exact inside the window, an upper bound at or below `alpha`, a lower bound
    /// at or above `beta`. A null window goes to [`Search::search`].
    fn search_window(&mut self, pos: &Position, alpha: i32, beta: i32) -> i32 {
        if beta - alpha <= 1 {
            return self.search(pos, beta);
        }
        self.nodes += 1;
        if pos.trick_len != 0 {
            return self.best_move_window(pos, alpha, beta, NO_CARD).0;
        }
        let open = match self.settled(pos, alpha, beta, false) {
            Ok(value) => return value,
            Err(open) => open,
        };
        // The window narrowed to what is not yet known: a result beyond a known bound is
        // impossible, so a result inside the narrowed window is still exact.
        let low = alpha.max(open.lower.max(open.sure_lower) - 1);
        let high = beta.min(open.upper.min(open.sure_upper) + 1);
        let (value, best) = self.best_move_window(pos, low, high, open.hint);
        let (lower, upper) = if value <= low {
            (open.lower, value)
        } else if value >= high {
            (value, open.upper)
        } else {
            (value, value)
        };
        self.record(open.key, lower, upper, best, open.left);
        value
    }

    /// The moves of the seat to move against the window (`alpha`, `beta`): the first on the
    /// whole window, each other first as a null-window test of whether it improves on the
    /// best so far, searched on the window again only when it does. Returns the fail-soft
    /// value and the move that reached it.
    fn best_move_window(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        hint: u8,
    ) -> (i32, u8) {
        let maximizing = team_of(pos.to_move) == 0;
        // The same order as the null-window search's: the killer or the hint, then the rest.
        let mut rest = self.distinct_moves(pos, self.legal(pos));
        let mut order = [NO_CARD; MAX_MOVES];
        let mut len = 0;
        let first = self.first_move(pos, rest, hint);
        if first != NO_CARD {
            rest &= !(1u64 << first);
            order[0] = first;
            len = 1;
        }
        if rest != 0 {
            let moves = self.ordered_moves(pos, rest, hint);
            order[len..len + moves.len].copy_from_slice(&moves.cards[..moves.len]);
            len += moves.len;
        }
        let mut best = (if maximizing { i32::MIN } else { i32::MAX }, order[0]);
        let mut tried = 0u64;
        let outer = self.twin;
        for (index, &card) in order[..len].iter().enumerate() {
            let neighbours = self.neighbours(pos, card, tried);
            tried |= 1 << card;
            // Beside a tried neighbour, the positions under this move have twins under it.
            if neighbours != 0 {
                self.twin = Some(self.twin_of(card, neighbours.trailing_zeros() as u8));
            }
            let (next, won) = self.play(pos, card);
            let value = if index == 0 {
                won + self.search_window(&next, alpha - won, beta - won)
            } else if maximizing {
                let test = won + self.search(&next, alpha + 1 - won);
                if test > alpha && test < beta {
                    won + self.search_window(&next, test - 1 - won, beta - won)
                } else {
                    test
                }
            } else {
                let test = won + self.search(&next, beta - won);
                if test < beta && test > alpha {
                    won + self.search_window(&next, alpha - won, test + 1 - won)
                } else {
                    test
                }
            };
            self.twin = outer;
            if self.improves(
                pos,
                if maximizing { beta } else { alpha + 1 },
                &mut best,
                card,
                value,
            ) {
                break;
            }
            if maximizing {
                alpha = alpha.max(value);
            } else {
                beta = beta.min(value);
            }
        }
        best
    }

    /// Null-window fail-soft alpha-beta: whether team 0's points still to win from `pos`
    /// reach `beta`. The result is a lower bound on the value when it is at least `beta`,
    /// otherwise an upper bound. Every search is a null-window test (alpha is `beta - 1`
    /// throughout: a table bound or a move's value never narrows such a window), so one bound
    /// is enough.
    pub fn search(&mut self, pos: &Position, beta: i32) -> i32 {
        self.kernel.run(Root {
            search: self,
            pos,
            beta,
        })
    }

    /// [`Search::search`] compiled for any x86-64 (or other) CPU.
    fn search_portable(&mut self, pos: &Position, beta: i32) -> i32 {
        // SAFETY: the portable path has no requirement.
        unsafe { self.search_with::<false>(pos, beta) }
    }

    /// [`Search::search`] compiled with BMI1, BMI2 and POPCNT: every function it reaches is
    /// inlined into it except itself, which it calls again.
    ///
    /// # Safety
    /// The CPU must support BMI2, BMI1 and POPCNT ([`crate::cpu::Kernel::Bmi2`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt")]
    unsafe fn search_bmi2(&mut self, pos: &Position, beta: i32) -> i32 {
        // SAFETY: this function requires BMI2.
        unsafe { self.search_with::<true>(pos, beta) }
    }

    /// A search one level down, in the same instruction set as this one.
    ///
    /// # Safety
    /// With `BMI2 = true` the CPU must support BMI2, BMI1 and POPCNT.
    #[inline(always)]
    unsafe fn recurse<const BMI2: bool>(&mut self, pos: &Position, beta: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if BMI2 {
            // SAFETY: passed on from the caller.
            return unsafe { self.search_bmi2(pos, beta) };
        }
        self.search_portable(pos, beta)
    }

    /// [`Search::search`] with the instruction set chosen by the caller.
    ///
    /// # Safety
    /// With `BMI2 = true` the CPU must support BMI2, BMI1 and POPCNT.
    #[inline(always)]
    unsafe fn search_with<const BMI2: bool>(&mut self, pos: &Position, beta: i32) -> i32 {
        self.nodes += 1;
        if pos.trick_len != 0 {
            // SAFETY: passed on from the caller.
            return unsafe { self.best_move::<BMI2>(pos, beta, NO_CARD) }.0;
        }
        let TrickStart {
            left,
            key,
            lower,
            upper,
            hint,
            ..
        } = match self.settled(pos, beta - 1, beta, true) {
            Ok(value) => return value,
            Err(open) => open,
        };
        let (value, best) = if left <= ENDGAME_CARDS {
            (self.two_tricks(pos, beta), NO_CARD)
        } else {
            // SAFETY: passed on from the caller.
            unsafe { self.best_move::<BMI2>(pos, beta, hint) }
        };
        let (lower, upper) = if value >= beta {
            (value, upper)
        } else {
            (lower, value)
        };
        self.record(key, lower, upper, best, left);
        value
    }

    /// What settles the trick start `pos` against the window (`alpha`, `beta`) without a
    /// search (`Ok`, fail-soft): the last trick played out, a window beyond the points left
    /// (except at two tricks with nothing stored, when `solve_endgame`: a null window), a
    /// quick bound ([`Search::sure_bounds`], from [`MIN_SURE_CARDS`] cards) or a stored one
    /// outside the window, or an exact stored value. Otherwise (`Err`) what the search of it
    /// starts from.
    #[inline(always)]
    fn settled(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        solve_endgame: bool,
    ) -> Result<i32, TrickStart> {
        let left = pos.held.count_ones();
        if left <= 4 {
            return Ok(self.last_trick(pos));
        }
        let total = pos.points_left();
        // A two-trick start with nothing stored is solved even on a null window beyond the
        // points left (nothing and everything are bounds for free there): the routine is
        // cheap, and the bound it stores (a fail-soft value, often far inside the points
        // left) settles the windows that come after it (nodes -4 %: docs/SOLVER.md "Algorithm").
        let endgame = solve_endgame && left <= ENDGAME_CARDS;
        if !endgame {
            if alpha >= total {
                return Ok(total);
            }
            if beta <= 0 {
                return Ok(0);
            }
        }
        let (mut sure_lower, mut sure_upper) = (0, total);
        if left >= MIN_SURE_CARDS {
            (sure_lower, sure_upper) = self.sure_bounds(pos, total);
            if sure_lower >= beta {
                return Ok(sure_lower);
            }
            if sure_upper <= alpha {
                return Ok(sure_upper);
            }
        }
        let key = self.table.key(pos.held, pos.leader);
        let stored = self.table.probe(key);
        let (lower, upper, hint) = match stored {
            Some(b) => (b.lower as i32, b.upper as i32, b.best),
            None => (0, total, NO_CARD),
        };
        if stored.is_some() || !endgame {
            if lower >= beta || lower == upper {
                return Ok(lower);
            }
            if upper <= alpha {
                return Ok(upper);
            }
        }
        // Under a move searched beside its tried neighbour, the twin of this position (the
        // two cards swapped, one of them still held) was searched under the neighbour: the
        // values differ by at most the two cards' point difference (Search::neighbour_bound).
        if let Some(twin) = self.twin {
            if (pos.held & twin.cards).count_ones() == 1 {
                if let Some(b) = self
                    .table
                    .probe(self.table.key(pos.held ^ twin.cards, pos.leader))
                {
                    let (lower, upper) = (b.lower as i32 - twin.gap, b.upper as i32 + twin.gap);
                    if lower >= beta {
                        return Ok(lower);
                    }
                    if upper <= alpha {
                        return Ok(upper);
                    }
                }
            }
        }
        Err(TrickStart {
            left,
            key,
            lower,
            upper,
            hint,
            sure_lower,
            sure_upper,
        })
    }

    /// Stores `lower <= value <= upper` and the best move for the trick start `key` with
    /// `left` cards in hand.
    #[inline(always)]
    fn record(&mut self, key: Key, lower: i32, upper: i32, best: u8, left: u32) {
        let bounds = Bounds {
            lower: lower as u8,
            upper: upper as u8,
            best,
        };
        self.table.store(key, bounds, left);
    }

    /// Tries the moves of the seat to move in order against the null window below `beta`;
    /// returns the fail-soft value and the move that reached it.
    ///
    /// # Safety
    /// With `BMI2 = true` the CPU must support BMI2, BMI1 and POPCNT.
    #[inline(always)]
    unsafe fn best_move<const BMI2: bool>(
        &mut self,
        pos: &Position,
        beta: i32,
        hint: u8,
    ) -> (i32, u8) {
        let maximizing = team_of(pos.to_move) == 0;
        if pos.trick_len == TRICK_CARDS - 1 && pos.held.count_ones() > MIN_TABLE_CARDS {
            // SAFETY: passed on from the caller.
            return unsafe { self.last_card::<BMI2>(pos, beta, maximizing) };
        }
        let mut rest = self.distinct_moves(pos, self.legal(pos));
        let mut best = (if maximizing { i32::MIN } else { i32::MAX }, NO_CARD);
        // The killer move, or else the table's hint, is tried before the others are ordered:
        // when it refutes the window (most cut nodes), the ordering is never paid.
        let first = self.first_move(pos, rest, hint);
        let mut tried = Tried::none();
        if first != NO_CARD {
            rest &= !(1u64 << first);
            let (next, won) = self.play(pos, first);
            // SAFETY: passed on from the caller.
            let value = won + unsafe { self.recurse::<BMI2>(&next, beta - won) };
            if self.improves(pos, beta, &mut best, first, value) || rest == 0 {
                return best;
            }
            tried.push(first, value);
        }
        let moves = self.ordered_moves(pos, rest, hint);
        for &card in &moves.cards[..moves.len] {
            // SAFETY: passed on from the caller.
            let value = unsafe { self.value_move::<BMI2>(pos, card, beta, &tried) };
            if self.improves(pos, beta, &mut best, card, value) {
                break;
            }
            tried.push(card, value);
        }
        best
    }

    /// The fail-soft value of playing `card` against the null window below `beta`, the card's
    /// points included: its [`Search::neighbour_bound`] from the cards in `tried` where that
    /// settles it, else a search of the position after it, with its twin (if any) the twin
    /// of every trick start under it (see [`Search::settled`]).
    ///
    /// # Safety
    /// With `BMI2 = true` the CPU must support BMI2, BMI1 and POPCNT.
    #[inline(always)]
    unsafe fn value_move<const BMI2: bool>(
        &mut self,
        pos: &Position,
        card: u8,
        beta: i32,
        tried: &Tried,
    ) -> i32 {
        let twin = match self.neighbour_bound(pos, beta, tried, card) {
            Ok(bound) => return bound,
            Err(twin) => twin,
        };
        let outer = self.twin;
        if twin.is_some() {
            self.twin = twin;
        }
        let (next, won) = self.play(pos, card);
        // SAFETY: passed on from the caller.
        let value = won + unsafe { self.recurse::<BMI2>(&next, beta - won) };
        self.twin = outer;
        value
    }

    /// Takes `value`, that of playing `card`, into the fail-soft `best` value and card of the
    /// seat to move; true when it refutes the null window below `beta` (a cut-off, credited
    /// to `card`).
    #[inline(always)]
    fn improves(
        &mut self,
        pos: &Position,
        beta: i32,
        best: &mut (i32, u8),
        card: u8,
        value: i32,
    ) -> bool {
        let maximizing = team_of(pos.to_move) == 0;
        let better = if maximizing {
            value > best.0
        } else {
            value < best.0
        };
        if !better {
            return false;
        }
        *best = (value, card);
        let cuts = (value >= beta) == maximizing;
        if cuts {
            self.credit(pos, card);
        }
        cuts
    }

    /// The last card of a trick, whose replies all lead to trick starts (enhanced transposition
    /// cut-off): their table entries are fetched together, and a stored bound of one may
    /// settle the node before the replies are ordered or searched; otherwise a reply whose
    /// stored bound cannot refute the window is not searched at all: its bound stands for its
    /// value (fail-soft). (The replies are played again when searched: cheaper than keeping
    /// nine positions.)
    ///
    /// # Safety
    /// With `BMI2 = true` the CPU must support BMI2, BMI1 and POPCNT.
    #[inline(always)]
    unsafe fn last_card<const BMI2: bool>(
        &mut self,
        pos: &Position,
        beta: i32,
        maximizing: bool,
    ) -> (i32, u8) {
        let replies = self.distinct_moves(pos, self.legal(pos));
        // Each reply's key and points, in card order (the order does not matter until a
        // reply has to be searched: a third of these nodes are settled here).
        // (Only the first `count` of each are written, and read.)
        let mut keys = [MaybeUninit::<Key>::uninit(); MAX_MOVES];
        let mut won = [MaybeUninit::<i32>::uninit(); MAX_MOVES];
        let mut cards = replies;
        let mut count = 0;
        while cards != 0 {
            let card = cards.trailing_zeros() as u8;
            cards &= cards - 1;
            let (next, points) = self.play(pos, card);
            let key = self.table.key(next.held, next.leader);
            self.table.prefetch(key);
            keys[count] = MaybeUninit::new(key);
            won[count] = MaybeUninit::new(points);
            count += 1;
        }
        // The stored bounds on replies' values that cannot refute the window (the
        // maximizer's upper bound below `beta`, the minimizer's lower bound at or above it)
        // stand for their values: those replies are never searched, and they bound the
        // replies next to them (Search::neighbour_bound).
        let mut tried = Tried::none();
        let mut cards = replies;
        for k in 0..count {
            let card = cards.trailing_zeros() as u8;
            cards &= cards - 1;
            // SAFETY: the loop above wrote the first `count` keys and points.
            let (key, points) = unsafe { (keys[k].assume_init(), won[k].assume_init()) };
            let Some(bounds) = self.table.probe(key) else {
                continue;
            };
            let (lower, upper) = (points + bounds.lower as i32, points + bounds.upper as i32);
            if maximizing && lower >= beta {
                return (lower, card);
            }
            if !maximizing && upper < beta {
                return (upper, card);
            }
            let bound = if maximizing { upper } else { lower };
            if (bound >= beta) != maximizing {
                tried.push(card, bound);
            }
        }
        let moves = self.ordered_moves(pos, replies, NO_CARD);
        let mut best = (if maximizing { i32::MIN } else { i32::MAX }, moves.cards[0]);
        for &card in &moves.cards[..moves.len] {
            if tried.cards & (1 << card) != 0 {
                self.improves(pos, beta, &mut best, card, tried.value_of(card));
                continue;
            }
            // SAFETY: passed on from the caller.
            let value = unsafe { self.value_move::<BMI2>(pos, card, beta, &tried) };
            if self.improves(pos, beta, &mut best, card, value) {
                break;
            }
            tried.push(card, value);
        }
        best
    }
}
