//! The double-dummy search: fail-soft alpha-beta on team 0's points still to win (R1.3 card
//! points and R1.4's last 10): principal-variation search on an aspiration window around a
//! guess, every other move a null-window test.
//!
//! Positions are small `Copy` values, so a move is a copy and undo is nothing. Trick-start
//! positions go through the transposition table; moves are the legal plays of R5.1 (the
//! engine's own `legal_plays`, variants included) with equivalent cards merged and ordered by
//! a cheap heuristic. Nothing on this path allocates.

use super::table::{Bounds, Key, Table};
use crate::bits::has_bmi2;
use crate::cards::{Card, CardSet, Suit};
use crate::rules::Rules;
use crate::scoring;
use crate::seats::{next_seat, partner, team_of};
use crate::tricks::{
    card_points, legal_on_masks, BEATS, LANE, PLAIN_POINTS, PLAIN_STRENGTH, POINTS, STRENGTH,
    TRUMP_POINTS, TRUMP_STRENGTH,
};
use std::mem::MaybeUninit;

/// R1.4: the winner of the ninth trick adds 10.
pub const LAST_TRICK_BONUS: i32 = scoring::LAST_TRICK_BONUS as i32;
/// A card index that is no card: no move-ordering hint.
const NO_CARD: u8 = 0xff;
/// The most moves a seat can have (a full hand).
const MAX_MOVES: usize = 9;
/// The fewest cards left at a trick start the table stores (two tricks): the last trick is
/// played out instead. The last card of a trick probes its replies' entries only when they
/// have at least this many.
const MIN_TABLE_CARDS: u32 = 8;
/// Trick starts with at most this many cards (two tricks) are solved by
/// [`Search::two_tricks`] instead of the general search.
const ENDGAME_CARDS: u32 = 8;
/// The fewest cards at a trick start whose quick bounds ([`Search::sure_bounds`]) are worked
/// out (four tricks). With three tricks or fewer left they cost more than they save: a
/// position they settle is not stored, while its search is cheap and stores a tighter bound
/// (100 deals, against quick bounds at every trick start: from 16 cards nodes -0.8 %, CPU
/// time -5 %; from 12 cards nodes -2.2 %, time -3 %; from 20 cards nodes +1.6 %, time -5 %).
const MIN_SURE_CARDS: u32 = 16;
/// The one follower (position in the trick) whose killer move is tried first.
const KILLER_FOLLOWER: usize = 2;
/// The half-width of the first window around the guess (200 deals: 6 points searched the
/// fewest nodes of 1, 2, 4, 6, 8, 10, 12 and 16).
const ASPIRATION: i32 = 6;
/// How much the window's step grows each time a search fails on the same side.
const WIDEN: i32 = 2;

/// Zero-point cards (R1.3) of one suit lane, natural order: 6 7 8 in trump, 6 7 8 9 in a plain
/// suit. They are the weakest of their suit in trick order too (R1.2), weakest first.
const ZERO_TRUMP_LANE: u64 = 0b111;
const ZERO_PLAIN_LANE: u64 = 0b1111;

/// The zero-point cards (R1.3) of every suit when `trump` is trump.
pub(super) fn zero_cards(trump: Suit) -> u64 {
    Suit::ALL
        .iter()
        .map(|&suit| {
            let lane = if suit == trump {
                ZERO_TRUMP_LANE
            } else {
                ZERO_PLAIN_LANE
            };
            lane << (9 * suit as u32)
        })
        .fold(0, |all, lane| all | lane)
}

/// Every card (the suit led before the lead: a leader may play anything).
const ALL_CARDS: u64 = CardSet::DECK.0;
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
    table: &'t mut Table,
    trump: Suit,
    rules: Rules,
    /// Zero-point cards of every suit (for equivalent-card merging).
    zero_cards: u64,
    /// The trump suit's cards.
    trump_mask: u64,
    /// The cards each seat held when the search began (a superset of what it holds).
    owners: [u64; 4],
    /// What a follower must head the trick with when it can (R5.1a): trumps, and every card
    /// under `head_plain`.
    head: u64,
    /// Positions searched, for benchmarks and tuning.
    pub nodes: u64,
    /// Aspiration windows searched (a failed window is searched again, wider).
    pub passes: u64,
    /// Killer moves: for each number of cards left and each seat, the last card that refuted a
    /// window there. Tried first at a lead and at the third seat, before the table's move: a
    /// refutation found in a sibling position is more often a refutation here than the best
    /// move of a failed-low search is. (At the second and fourth seats the score below orders
    /// better: measured.)
    killers: [[u8; 4]; 37],
    /// While a move is searched beside a tried neighbour (its value alone did not settle it),
    /// the two cards and their point difference: every trick start under it has a twin, the
    /// same with the two cards swapped (Search::settled).
    twin: Option<Twin>,
    /// Each card's points (R1.3) under this trump, by card index (every `u8` indexes it: no
    /// bounds check on the search path).
    points: [u8; 256],
    /// The cards that beat each card (R5.2, [`BEATS`]) under this trump, indexed likewise.
    beats: [u64; 256],
    /// Whether this CPU has BMI2 and POPCNT ([`has_bmi2`]): the search then runs its copy
    /// compiled for them (a mask's `count_ones` one instruction instead of a dozen).
    bmi2: bool,
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
struct Twin {
    /// The two cards (card-index bits).
    cards: u64,
    /// The difference of their points.
    gap: i32,
}

/// Slots of [`Tried`]'s values: one for each card index a `u64` card set can hold.
const CARD_SLOTS: usize = 64;

/// The moves tried at a node and their fail-soft values, none of which refuted the window.
/// Made at every node, so only the set is initialised: a value is written by card index when
/// its card is tried and read only for a card of the set (no zeroing, no search by card).
struct Tried {
    /// The cards tried (card-index bits).
    cards: u64,
    /// The value of each tried card, by card index (the others uninitialised).
    values: [MaybeUninit<i32>; CARD_SLOTS],
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
    fn value_of(&self, card: u8) -> i32 {
        let slot = card as usize % CARD_SLOTS;
        if self.cards & (1 << slot) != 0 {
            // SAFETY: `push` wrote this slot when it put the card in the set.
            unsafe { self.values[slot].assume_init() }
        } else {
            0
        }
    }
}

/// Up to nine card indices in the order to try them.
struct Moves {
    cards: [u8; MAX_MOVES],
    len: usize,
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
            bmi2: has_bmi2(),
        }
    }

    /// Runs the portable copy of the search even on a CPU with BMI2 (the tests compare them).
    #[cfg(test)]
    pub(super) fn force_portable(&mut self) {
        self.bmi2 = false;
    }

    /// The cards `seat` still holds.
    #[inline(always)]
    fn hand(&self, pos: &Position, seat: u8) -> u64 {
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
    /// solve instead of 18; one full window a play 1 % more: docs/SOLVER.md.)
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

    /// [`Search::value`] of `pos`, reached by playing `card` beside `neighbour` (an earlier
    /// play from the same position, one of [`Search::neighbours`], already searched on this
    /// table): every trick start under it has a twin under the neighbour (Search::settled).
    pub(super) fn value_beside(
        &mut self,
        pos: &Position,
        guess: i32,
        card: u8,
        neighbour: u8,
    ) -> i32 {
        let outer = self.twin;
        self.twin = Some(self.twin_of(card, neighbour));
        let value = self.value(pos, guess);
        self.twin = outer;
        value
    }

    /// The [`Twin`] of `card` played beside `neighbour`, one of its [`Search::neighbours`].
    #[inline(always)]
    fn twin_of(&self, card: u8, neighbour: u8) -> Twin {
        Twin {
            cards: 1 << card | 1 << neighbour,
            gap: (self.points[card as usize] as i32 - self.points[neighbour as usize] as i32).abs(),
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
        if self.bmi2 {
            // SAFETY: BMI2 (with BMI1 and POPCNT) is present, checked by `has_bmi2`.
            unsafe { self.recurse::<true>(pos, beta) }
        } else {
            // SAFETY: the portable path has no requirement.
            unsafe { self.recurse::<false>(pos, beta) }
        }
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
    /// The CPU must support BMI2, BMI1 and POPCNT ([`has_bmi2`]).
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
        // left) settles the windows that come after it (nodes -4 %: docs/SOLVER.md).
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

    /// Quick bounds on team 0's value at a trick start, each a strategy's sure gain:
    /// - a trump stronger than every trump the other team holds wins its trick for its team
    ///   whenever it is played (R5.2; only a partner's trump can beat it), so each team is sure
    ///   of those trumps' own points;
    /// - the leader can cash the cards of a plain suit that beat every card the three others
    ///   hold in it, one trick each, as long as no opponent can trump them: an opponent with
    ///   no trump never can, one with trump must follow suit (R5.1a) while it holds the suit,
    ///   so the leader's team is sure of the points of as many such cards as the shortest
    ///   holding of that suit among the opponents with trump, and the partner if it has trump
    ///   and `partner_exempt` is off (void, it would have to ruff and take the lead, R5.1b).
    ///   Cashing one suit never makes an opponent with trump discard another suit, and no one
    ///   trumps, so the suits and the sure trumps add up.
    #[inline(always)]
    fn sure_bounds(&self, pos: &Position, total: i32) -> (i32, i32) {
        let lane = |cards: u64, suit: u32| ((cards >> (9 * suit)) & LANE) as usize;
        let trump = self.trump as u32;
        let team0 = TRUMP_BY_STRENGTH[lane(self.hand(pos, 0) | self.hand(pos, 2), trump)];
        let team1 = TRUMP_BY_STRENGTH[lane(self.hand(pos, 1) | self.hand(pos, 3), trump)];
        let sure_trumps =
            |own: u16, other: u16| TRUMP_POINTS_BY_STRENGTH[above(own, other) as usize] as i32;
        let opponents = [
            self.hand(pos, next_seat(pos.leader)),
            self.hand(pos, partner(next_seat(pos.leader))),
        ];
        // R5.1b: a partner void in the suit led with trump must ruff its partner's master (unless
        // `partner_exempt`): the ruff wins the trick but takes the lead, so the cashing is sure
        // only while such a partner still follows suit, as for the opponents with trump.
        let partner_hand = self.hand(pos, partner(pos.leader));
        let partner_may_ruff = if self.rules.partner_exempt {
            0
        } else {
            partner_hand
        };
        // A seat with no trump can never ruff: it counts as holding every card of each suit.
        let may_ruff = [opponents[0], opponents[1], partner_may_ruff].map(|hand| {
            if lane(hand, trump) != 0 {
                hand
            } else {
                ALL_CARDS
            }
        });
        // The partner's cards count as the other team's: a stronger one would take the trick
        // and the lead (it must follow suit, and under `head_plain` head the trick, R5.1a).
        let others = opponents[0] | opponents[1] | partner_hand;
        let mut cashed = 0;
        for suit in (0..4).filter(|&suit| suit != trump) {
            let own = PLAIN_BY_STRENGTH[lane(self.hand(pos, pos.leader), suit)];
            let other = PLAIN_BY_STRENGTH[lane(others, suit)];
            let mut masters = above(own, other);
            if masters == 0 {
                continue;
            }
            let [first, second, third] = may_ruff.map(|hand| lane(hand, suit).count_ones());
            let safe = first.min(second).min(third);
            while masters.count_ones() > safe {
                masters &= masters - 1; // keep the strongest: they carry the most points
            }
            cashed += PLAIN_POINTS_BY_STRENGTH[masters as usize] as i32;
        }
        // The leader's trumps stronger than every other trump win the tricks it leads them
        // to, and each opponent holding trumps must follow with one (R5.1a) for as many
        // rounds: at least its cheapest ones, which are its weakest (R1.2, R1.3: trump
        // strength and points go in the same order).
        let leader_trumps = TRUMP_BY_STRENGTH[lane(self.hand(pos, pos.leader), trump)];
        let drawn = above(leader_trumps, TRUMP_BY_STRENGTH[lane(others, trump)]).count_ones();
        if drawn > 0 {
            for opponent in opponents {
                let mut weakest = TRUMP_BY_STRENGTH[lane(opponent, trump)];
                while weakest.count_ones() > drawn {
                    weakest &= !(1 << (15 - weakest.leading_zeros()));
                }
                cashed += TRUMP_POINTS_BY_STRENGTH[weakest as usize] as i32;
            }
        }
        let (sure0, sure1) = (sure_trumps(team0, team1), sure_trumps(team1, team0));
        if team_of(pos.leader) == 0 {
            (sure0 + cashed, total - sure1)
        } else {
            (sure0, total - sure1 - cashed)
        }
    }

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

    /// The last two tricks from their start ([`ENDGAME_CARDS`] cards, two a seat): the four
    /// plays of the first over masks, then the last trick played out.
    #[inline(always)]
    fn two_tricks(&self, pos: &Position, beta: i32) -> i32 {
        self.each_play(pos, beta, |s, p, b| {
            s.each_play(p, b, |s, p, b| {
                s.each_play(p, b, |s, p, b| s.each_play(p, b, |s, p, _| s.last_trick(p)))
            })
        })
    }

    /// The last trick (one card each, or none): no choice left. R5.2: the strongest trump
    /// wins it, or with no trump the strongest card of the suit led (the leader's card's).
    #[inline(always)]
    fn last_trick(&self, pos: &Position) -> i32 {
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

    /// A bound on the value of playing `card` that cannot refute the null window below
    /// `beta`, from a card of the same suit already tried at this node (its value in `tried`,
    /// which did not refute the window either) with no live card (held, or in the trick)
    /// between them in trick order (R1.2): whatever is played afterwards, the two cards win
    /// and lose the same tricks and are legal in the same positions (R5.1), so swapping them
    /// changes only which of two tricks each one's points (R1.3) land in, and their values
    /// differ by at most the difference of their points. `Err` when no such bound exists:
    /// the card must be searched, with its [`Twin`] when it has such a neighbour.
    #[inline(always)]
    fn neighbour_bound(
        &self,
        pos: &Position,
        beta: i32,
        tried: &Tried,
        card: u8,
    ) -> Result<i32, Option<Twin>> {
        let start = 9 * (card / 9) as u32;
        if tried.cards & (LANE << start) == 0 {
            return Err(None);
        }
        let neighbours = self.neighbours(pos, card, tried.cards);
        let maximizing = team_of(pos.to_move) == 0;
        let mut candidates = neighbours & tried.cards;
        let mut twin = None;
        while candidates != 0 {
            let other = candidates.trailing_zeros() as u8;
            candidates &= candidates - 1;
            let pair = self.twin_of(card, other);
            let value = tried.value_of(other);
            let bound = if maximizing {
                value + pair.gap
            } else {
                value - pair.gap
            };
            if (bound >= beta) != maximizing {
                return Ok(bound);
            }
            twin = Some(pair);
        }
        Err(twin)
    }

    /// The cards of `candidates` (the seat to move's) with no card of another seat (held, or
    /// played to this trick) between them and `card` in trick order (R1.2): a seat's own cards
    /// never meet in a trick, so such cards win and lose the same tricks as `card` whatever is
    /// played, and are legal in the same positions (R5.1).
    #[inline(always)]
    pub(super) fn neighbours(&self, pos: &Position, card: u8, candidates: u64) -> u64 {
        let start = 9 * (card / 9) as u32;
        let trump = self.trump as usize;
        let is_trump = card as u32 / 9 == trump as u32;
        // The cards another seat holds or has played to this trick: only those ever meet
        // this seat's cards in a trick.
        let others = pos.held & !self.owners[pos.to_move as usize] | pos.trick_cards;
        let lane = |cards: u64| ((cards >> start) & LANE) as usize;
        let (others, candidates, rank_of) = if is_trump {
            (
                TRUMP_BY_STRENGTH[lane(others)],
                TRUMP_BY_STRENGTH[lane(candidates)],
                &TRUMP_RANK_OF_STRENGTH,
            )
        } else {
            (
                PLAIN_BY_STRENGTH[lane(others)],
                PLAIN_BY_STRENGTH[lane(candidates)],
                &PLAIN_RANK_OF_STRENGTH,
            )
        };
        let strength = STRENGTH[trump][card as usize] as u32;
        // The strengths between the other seats' nearest cards above and below this one.
        let stronger = others >> (strength + 1);
        let below_next = if stronger != 0 {
            (1u16 << (strength + 1 + stronger.trailing_zeros())) - 1
        } else {
            u16::MAX
        };
        let weaker = others & ((1 << strength) - 1);
        let above_previous = if weaker != 0 {
            !((2u16 << (15 - weaker.leading_zeros())) - 1)
        } else {
            u16::MAX
        };
        let mut block = candidates & below_next & above_previous;
        let mut neighbours = 0u64;
        while block != 0 {
            let next = block.trailing_zeros();
            block &= block - 1;
            neighbours |= 1 << (start + rank_of[next as usize] as u32);
        }
        neighbours
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

    /// The move tried first among `distinct`: the killer move at a lead and at the third
    /// seat, else the table's `hint`; [`NO_CARD`] when neither is a distinct legal move.
    #[inline(always)]
    fn first_move(&self, pos: &Position, distinct: u64, hint: u8) -> u8 {
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
    fn credit(&mut self, pos: &Position, card: u8) {
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
    fn ordered_moves(&self, pos: &Position, distinct: u64, hint: u8) -> Moves {
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

/// The cards of `own` (a lane in strength order, bit = strength) stronger than every card of
/// `other`.
#[inline(always)]
fn above(own: u16, other: u16) -> u16 {
    if other == 0 {
        own
    } else {
        own & !((2u16 << (15 - other.leading_zeros())) - 1)
    }
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

/// A trump lane (natural-rank bits) rewritten in strength order (bit = strength).
const TRUMP_BY_STRENGTH: [u16; 512] = by_strength(TRUMP_STRENGTH, TRUMP_POINTS).0;
/// The points (R1.3) of a trump lane written in strength order (bit = strength).
const TRUMP_POINTS_BY_STRENGTH: [u8; 512] = by_strength(TRUMP_STRENGTH, TRUMP_POINTS).1;
/// The same for a plain suit.
const PLAIN_BY_STRENGTH: [u16; 512] = by_strength(PLAIN_STRENGTH, PLAIN_POINTS).0;
const PLAIN_POINTS_BY_STRENGTH: [u8; 512] = by_strength(PLAIN_STRENGTH, PLAIN_POINTS).1;

/// The rank (natural order, 0 = six) of the trump of each strength (R1.2).
const TRUMP_RANK_OF_STRENGTH: [u8; 9] = rank_of_strength(TRUMP_STRENGTH);
/// The same for a plain suit.
const PLAIN_RANK_OF_STRENGTH: [u8; 9] = rank_of_strength(PLAIN_STRENGTH);

const fn rank_of_strength(strength: [u8; 9]) -> [u8; 9] {
    let mut table = [0u8; 9];
    let mut rank = 0;
    while rank < 9 {
        table[strength[rank] as usize] = rank as u8;
        rank += 1;
    }
    table
}

/// The strongest card (its natural-rank bit) of a trump lane (natural-rank bits); 0 for none.
const STRONGEST_TRUMP: [u16; 512] = strongest(TRUMP_STRENGTH);
/// The same for a plain suit.
const STRONGEST_PLAIN: [u16; 512] = strongest(PLAIN_STRENGTH);

const fn strongest(strength: [u8; 9]) -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut lane: u32 = 1;
    while lane < 512 {
        let mut best = lane.trailing_zeros() as usize;
        let mut rank = best + 1;
        while rank < 9 {
            if lane & (1 << rank) != 0 && strength[rank] > strength[best] {
                best = rank;
            }
            rank += 1;
        }
        table[lane as usize] = 1 << best;
        lane += 1;
    }
    table
}

const fn by_strength(strength: [u8; 9], rank_points: [u8; 9]) -> ([u16; 512], [u8; 512]) {
    let mut table = [0u16; 512];
    let mut points = [0u8; 512];
    let mut lane = 0;
    while lane < 512 {
        let (mut ordered, mut sum) = (0u16, 0u8);
        let mut rank = 0;
        while rank < 9 {
            if lane & (1 << rank) != 0 {
                ordered |= 1 << strength[rank];
                sum += rank_points[rank];
            }
            rank += 1;
        }
        table[lane] = ordered;
        points[ordered as usize] = sum;
        lane += 1;
    }
    (table, points)
}
