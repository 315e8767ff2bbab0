//! Table mode (RULES.md R4.4, R4.5, R8; the interface is docs/TABLE.md): the game as people play
//! it. A [`TableHand`] is the auto-mode [`Hand`] plus a fixed-size, `Copy` [`TableRecord`]: the
//! action log with seats, manual declarations, misplays and the call that ended the hand.
//!
//! The auto-mode hot path (search, playouts, `sim`) uses [`Hand`] alone and knows nothing of
//! this module. Here every action goes through [`TableHand::apply`]: what a seat may do now is
//! [`TableHand::allowed_mask`] (R8.1-R8.3: any held card, calls by any seat) beside
//! [`TableHand::legal_mask`] (the same less the plays that break R5.1). In auto mode with legal
//! play enforced both are the hand's legal mask and nothing else changes.

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::deal::{deal_from_seed, Deal};
use crate::error::Error;
use crate::rules::{Declarations, Rules};
use crate::runs::{self, find_runs, has_bella, has_runs, run_winner, Run, Runs};
use crate::scoring::{Outcome, BELLA_POINTS, CARD_COUNT};
use crate::seats::{partner, team_of, SEATS};
use crate::state::{
    action_text, Hand, Phase, ANNOUNCE, BELLA, CALL_BASE, MISPLAY, NUM_ACTIONS, PASS,
    PLAYS_BEFORE_RUNS, SHOW, THROW,
};

/// The two calls any seat may make during the play (R8.2, R8.3).
const CALLS: u64 = 1 << MISPLAY | 1 << THROW;
/// The ids of the 36 cards.
const CARDS: u64 = (1 << CALL_BASE) - 1;
/// The longest possible log: 4 auction actions, 36 cards, 4 announcements, 4 shows, a bella
/// and a call.
const MAX_LOG: usize = 50;
/// A log entry packs the seat above the id (ids are below 64).
const SEAT_SHIFT: u32 = 6;
const ID_MASK: u8 = (1 << SEAT_SHIFT) - 1;
/// R4.1: the size an announcement reveals.
const FIFTY: u8 = runs::FIFTY as u8;
const TWENTY: u8 = runs::TWENTY as u8;
/// R8.6c: runs are credited once every seat has played its second card (`PLAYS_BEFORE_RUNS`),
/// or its third with `late_twenty`.
const LATE_RUNS_AT: usize = 3 * SEATS as usize;
const CARDS_PER_TRICK: usize = 4;
/// Trick indexes of the declaration windows (R4.4, R8.6d).
const ANNOUNCE_TRICK: usize = 0;
const SHOW_TRICK: usize = 1;
const LATE_SHOW_TRICK: usize = 2;

/// A play that broke R5.1 (R8.1): who, which card, and the trick's index (0-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Misplay {
    /// The seat that misplayed.
    pub seat: u8,
    /// The card it played.
    pub card: Card,
    /// The index of the trick it was played to.
    pub trick: u8,
}

/// The call that ended a hand (R8.2, R8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CallRecord {
    /// [`MISPLAY`] or [`THROW`].
    pub verb: u8,
    /// The calling seat.
    pub seat: u8,
    /// For a misplay call: whether a seat of the other team had misplayed. `None` for a throw.
    pub correct: Option<bool>,
    /// The team awarded the count.
    pub team: u8,
    /// R8.2: 162 + the run and bella points credited so far.
    pub count: u32,
}

/// How a seat showed its runs (R4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Shown {
    No,
    /// In trick two: every run it was dealt.
    OnTime,
    /// In trick three under `late_twenty`: its best fifty's top three cards, as a twenty.
    Late,
}

/// What table mode records beside the auto-mode hand: fixed-size and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableRecord {
    /// Every action in order, `seat << 6 | id`.
    log: [u8; MAX_LOG],
    n_log: u8,
    /// The cards played as misplays (R8.1); their seats and tricks follow from the plays.
    misplayed: CardSet,
    /// R4.4: the size each seat announced (0: none).
    announced: [u8; 4],
    shown: [Shown; 4],
    /// R4.5: bella was called this hand (it is called once).
    bella_called: bool,
    /// The seat credited with bella, the seat whose bella was lost as table talk.
    bella: Option<u8>,
    bella_forfeited: Option<u8>,
    /// R8.6e: the seat to move called bella before playing the trump K or Q, so its card must
    /// be one of them.
    bella_pending: bool,
    /// R4.3 in manual mode: the run winner and its points, once credited.
    runs: Option<(u8, u32)>,
    runs_credited: bool,
    call: Option<CallRecord>,
}

impl TableRecord {
    const EMPTY: TableRecord = TableRecord {
        log: [0; MAX_LOG],
        n_log: 0,
        misplayed: CardSet::EMPTY,
        announced: [0; 4],
        shown: [Shown::No; 4],
        bella_called: false,
        bella: None,
        bella_forfeited: None,
        bella_pending: false,
        runs: None,
        runs_credited: false,
        call: None,
    };
}

/// A hand in any mode with its recorded action log (docs/TABLE.md). `Copy`, allocation-free.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableHand {
    hand: Hand,
    table: TableRecord,
}

/// The trump K and Q (R4.5).
fn bella_pair(trump: Suit) -> CardSet {
    Card::new(trump, Rank::King)
        .bit()
        .union(Card::new(trump, Rank::Queen).bit())
}

impl TableHand {
    /// A hand dealt from an explicit deal (checked by `deal::check_deal`).
    pub fn from_deal(deal: Deal, dealer: u8, rules: Rules, scores_before: [u32; 2]) -> TableHand {
        TableHand {
            hand: Hand::from_deal(deal, dealer, rules, scores_before),
            table: TableRecord::EMPTY,
        }
    }

    /// A hand dealt from hand seed `seed` (docs/ENGINE.md "Randomness").
    pub fn from_seed(seed: u64, dealer: u8, rules: Rules, scores_before: [u32; 2]) -> TableHand {
        TableHand::from_deal(deal_from_seed(seed, dealer), dealer, rules, scores_before)
    }

    /// The auto-mode state underneath: deal, cards, tricks, points, outcome and score.
    pub fn hand(&self) -> &Hand {
        &self.hand
    }
    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        self.hand.rules()
    }
    fn manual(&self) -> bool {
        self.rules().declarations == Declarations::Manual
    }
    fn enforced(&self) -> bool {
        self.rules().enforce_legal_play
    }

    /// Every action so far as (seat, id), in order.
    pub fn log(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.table.log[..self.table.n_log as usize]
            .iter()
            .map(|&entry| (entry >> SEAT_SHIFT, entry & ID_MASK))
    }

    /// The misplays so far (R8.1), in play order.
    pub fn misplays(&self) -> impl Iterator<Item = Misplay> + '_ {
        let misplayed = self.table.misplayed;
        self.hand
            .plays_by_seat()
            .enumerate()
            .filter(move |(_, (_, card))| misplayed.contains(*card))
            .map(|(index, (seat, card))| Misplay {
                seat,
                card,
                trick: (index / CARDS_PER_TRICK) as u8,
            })
    }

    /// The call that ended the hand (R8.2, R8.3), if one did.
    pub fn call(&self) -> Option<CallRecord> {
        self.table.call
    }

    /// The size `seat` announced (manual mode), or in auto mode the size its first card made
    /// public (R4.4).
    pub fn announced(&self, seat: u8) -> Option<u32> {
        if self.manual() {
            let size = self.table.announced[seat as usize];
            return (size > 0).then_some(size as u32);
        }
        if self.hand.trump().is_none() || self.hand.cards_played_by(seat) == 0 {
            return None;
        }
        let points = find_runs(self.hand.dealt(seat as usize)).best_points();
        (points > 0).then_some(points)
    }

    /// The runs `seat` has shown: in manual mode when it showed (a late show: its one twenty),
    /// in auto mode once it has played its second card (R4.4).
    pub fn shown(&self, seat: u8) -> Runs {
        if self.manual() {
            return self.shown_manual(seat);
        }
        if self.hand.trump().is_none() || self.hand.cards_played_by(seat) < 2 {
            return Runs::NONE;
        }
        find_runs(self.hand.dealt(seat as usize))
    }

    /// Whether `seat`'s show was a late twenty (R4.4 `late_twenty`).
    pub fn shown_late(&self, seat: u8) -> bool {
        self.table.shown[seat as usize] == Shown::Late
    }

    fn shown_manual(&self, seat: u8) -> Runs {
        let dealt = find_runs(self.hand.dealt(seat as usize));
        match self.table.shown[seat as usize] {
            Shown::No => Runs::NONE,
            Shown::OnTime => dealt,
            Shown::Late => {
                let trump = self.hand.trump().unwrap_or(Suit::Clubs);
                // Its best fifty by R4.2; between equal plain fifties the first in `find_runs`
                // order (lower suit), as docs/DECISIONS.md says. `max_by_key` keeps the last of
                // equal keys, so it reads the runs backwards.
                let fifty = dealt
                    .as_slice()
                    .iter()
                    .rev()
                    .filter(|run| run.len == 4)
                    .max_by_key(|run| run.strength(trump))
                    .copied();
                fifty.map_or(Runs::NONE, |run| Runs::one(Run { len: 3, ..run }))
            }
        }
    }

    /// The run winner (R4.3) and all run points credited, once credited.
    pub fn runs_scored(&self) -> Option<(u8, u32)> {
        if self.manual() {
            self.table.runs
        } else {
            self.hand.runs_scored()
        }
    }

    /// Whether runs have been credited yet (R8.6c), whoever won them.
    pub fn runs_credited(&self) -> bool {
        let at = if self.manual() {
            self.table.runs_credited
        } else {
            self.hand.plays().len() >= PLAYS_BEFORE_RUNS
        };
        at && self.hand.trump().is_some()
    }

    /// The seat credited with bella (R4.5), once it is.
    pub fn bella(&self) -> Option<u8> {
        if self.manual() {
            self.table.bella
        } else {
            self.hand.bella()
        }
    }

    /// The seat whose bella was lost as table talk (R4.5, manual mode).
    pub fn bella_forfeited(&self) -> Option<u8> {
        self.table.bella_forfeited
    }

    fn trick_index(&self) -> usize {
        self.hand.plays().len() / CARDS_PER_TRICK
    }

    /// The cards the seat to move may put down now (play phase).
    fn playable(&self) -> CardSet {
        let cards = if self.enforced() {
            self.hand.legal_cards()
        } else {
            self.hand.hand(self.hand.to_move().unwrap_or(0) as usize)
        };
        if self.table.bella_pending {
            cards.intersect(bella_pair(self.hand.trump().unwrap_or(Suit::Clubs)))
        } else {
            cards
        }
    }

    /// Every id `seat` may take now (docs/TABLE.md "Allowed and legal"): bit = id.
    pub fn allowed_mask(&self, seat: u8) -> u64 {
        match self.hand.phase() {
            Phase::Done => 0,
            Phase::Auction if self.hand.to_move() == Some(seat) => self.hand.legal_mask(),
            Phase::Auction => 0,
            Phase::Play => {
                let calls = if self.enforced() { 0 } else { CALLS };
                if self.hand.to_move() != Some(seat) {
                    return calls;
                }
                let declarations = if self.manual() {
                    self.declarations_mask(seat)
                } else {
                    0
                };
                calls | declarations | self.playable().bits()
            }
        }
    }

    /// The allowed ids less the plays that break R5.1 (misplays).
    pub fn legal_mask(&self, seat: u8) -> u64 {
        let allowed = self.allowed_mask(seat);
        if self.enforced() || allowed & CARDS == 0 {
            return allowed;
        }
        allowed & (!CARDS | self.hand.legal_cards().bits())
    }

    /// The ids a bot that knows only cards and trump calls (ids up to [`PASS`]) chooses from:
    /// the seat's R5.1-legal ones, or after a bella that leaves none legal, the K or Q it must
    /// play (R8.6e).
    pub fn bot_mask(&self, seat: u8) -> u64 {
        const PLAIN: u64 = (1 << (PASS + 1)) - 1;
        let legal = self.legal_mask(seat) & PLAIN;
        if legal != 0 {
            legal
        } else {
            self.allowed_mask(seat) & PLAIN
        }
    }

    /// The declarations `seat` (to move, play phase, manual mode) may make now.
    fn declarations_mask(&self, seat: u8) -> u64 {
        let mut mask = 0;
        if self.may_announce(seat) {
            mask |= 1 << ANNOUNCE;
        }
        if self.may_show(seat) {
            mask |= 1 << SHOW;
        }
        if self.bella_case(seat).is_some() {
            mask |= 1 << BELLA;
        }
        mask
    }

    /// R8.6d: in trick one, once, with a run dealt.
    fn may_announce(&self, seat: u8) -> bool {
        self.trick_index() == ANNOUNCE_TRICK
            && self.table.announced[seat as usize] == 0
            && has_runs(self.hand.dealt(seat as usize))
    }

    /// R8.6d: in trick two after one's own announcement, once; a fifty in trick three too
    /// with `late_twenty`.
    fn may_show(&self, seat: u8) -> bool {
        let announced = self.table.announced[seat as usize];
        if announced == 0 || self.table.shown[seat as usize] != Shown::No {
            return false;
        }
        match self.trick_index() {
            SHOW_TRICK => true,
            LATE_SHOW_TRICK => self.rules().late_twenty && announced == FIFTY,
            _ => false,
        }
    }

    /// R8.6e: whether `seat` may call bella now, and whether it is the announcement case
    /// (`Some(true)`: the card is then free) or before playing the K or Q (`Some(false)`).
    fn bella_case(&self, seat: u8) -> Option<bool> {
        let trump = self.hand.trump()?;
        let dealt = self.hand.dealt(seat as usize);
        if self.table.bella_called || !has_bella(dealt, trump) {
            return None;
        }
        let pair = bella_pair(trump);
        let just_announced = self.log().last() == Some((seat, ANNOUNCE));
        let in_one_run = find_runs(dealt)
            .as_slice()
            .iter()
            .any(|run| run.cards().intersect(pair) == pair);
        if self.trick_index() == ANNOUNCE_TRICK && just_announced && in_one_run {
            return Some(true);
        }
        // The card this turn must be the K or Q, so one of them must be playable now
        // (docs/DECISIONS.md, the row of a bella "before playing one of them" when R5.1
        // forbids the trump K and Q this turn).
        (!self.playable().intersect(pair).is_empty()).then_some(false)
    }

    /// Checks that `seat` (the seat to move when `None`) may take `id` now; returns the seat.
    pub fn check(&self, seat: Option<u8>, id: u8) -> Result<u8, Error> {
        if id >= NUM_ACTIONS || seat.is_some_and(|s| s > 3) {
            return Err(Error::invalid(format!(
                "action id {id} for seat {} is not an action (ids 0..{}, seats 0..3; R0, \
                 docs/TABLE.md)",
                seat.map_or("to move".to_string(), |s| s.to_string()),
                NUM_ACTIONS - 1
            )));
        }
        let seat = seat.or(self.hand.to_move());
        if let Some(seat) = seat {
            if self.allowed_mask(seat) & (1 << id) != 0 {
                return Ok(seat);
            }
        }
        let seat = seat.unwrap_or(u8::MAX);
        let (rule, reason) = self.refusal(seat, id)?;
        Err(Error::Illegal {
            action: action_text(seat, id),
            rule,
            state: self.hand.describe(),
            reason,
        })
    }

    /// Why `seat` may not take `id` (the order is docs/TABLE.md "Refusals"); an auto-mode
    /// action's refusal is the hand's own error.
    fn refusal(&self, seat: u8, id: u8) -> Result<(&'static str, String), Error> {
        let hand = &self.hand;
        let is_call = id == MISPLAY || id == THROW;
        if id > PASS && !is_call && !self.manual() {
            let rule = if id == BELLA { "R4.5" } else { "R4.4" };
            return Ok((
                rule,
                "declarations are automatic (declarations = \"auto\")".into(),
            ));
        }
        if is_call && self.enforced() {
            let rule = if id == MISPLAY { "R8.2" } else { "R8.3" };
            return Ok((rule, "calls need enforce_legal_play = False".into()));
        }
        let phase = hand.phase();
        if is_call {
            let when = if phase == Phase::Done {
                "the hand is over"
            } else {
                "trump is not named yet"
            };
            return Ok(("R8.6a", format!("calls are made during the play; {when}")));
        }
        if phase == Phase::Done {
            return Ok(("R5.3", "the hand is over".into()));
        }
        let turn = hand.to_move().unwrap_or(0);
        let not_turn =
            (seat != turn).then(|| format!("it is seat {turn}'s turn, not seat {seat}'s"));
        if id == ANNOUNCE || id == SHOW {
            let reason = not_turn.unwrap_or_else(|| self.declaration_reason(seat, id));
            return Ok(("R8.6d", reason));
        }
        if id == BELLA {
            let reason = not_turn.unwrap_or_else(|| {
                "bella is called once, by the seat dealt the trump K and Q, before playing one \
                 of them (a card it may play now) or right after its announcement with both in \
                 one run"
                    .into()
            });
            return Ok(("R8.6e", reason));
        }
        if phase == Phase::Play && id < CALL_BASE {
            let card = Card::from_index_unchecked(id);
            let held = hand.hand(seat as usize).contains(card);
            if !self.enforced() && (not_turn.is_some() || !held) {
                let reason =
                    not_turn.unwrap_or_else(|| format!("seat {seat} does not hold {card}"));
                return Ok(("R8.1", reason));
            }
            if self.table.bella_pending && not_turn.is_none() && held {
                return Ok((
                    "R8.6e",
                    format!("after bella seat {seat} plays the trump K or Q, not {card}"),
                ));
            }
        }
        match hand.check_for(Some(seat), id) {
            Err(Error::Illegal { rule, reason, .. }) => Ok((rule, reason)),
            Err(other) => Err(other),
            Ok(()) => Ok(("R0", "not allowed now".into())),
        }
    }

    fn declaration_reason(&self, seat: u8, id: u8) -> String {
        if self.hand.phase() != Phase::Play {
            return "declarations are made in the play, after trump is named".into();
        }
        let announced = self.table.announced[seat as usize];
        if id == ANNOUNCE {
            if announced > 0 {
                format!("seat {seat} has announced already")
            } else if self.trick_index() != ANNOUNCE_TRICK {
                "runs are announced in trick one, before one's card".into()
            } else {
                format!("seat {seat} was dealt no run (R4.1)")
            }
        } else if announced == 0 {
            format!("seat {seat} shows only runs it announced")
        } else if self.table.shown[seat as usize] != Shown::No {
            format!("seat {seat} has shown already")
        } else {
            "runs are shown in trick two, before one's card (a fifty in trick three with \
             late_twenty)"
                .into()
        }
    }

    /// Checks and applies `id` for `seat` (the seat to move when `None`); on error nothing
    /// changes.
    pub fn apply(&mut self, seat: Option<u8>, id: u8) -> Result<(), Error> {
        let seat = self.check(seat, id)?;
        self.apply_unchecked(seat, id);
        Ok(())
    }

    /// Applies an allowed id for `seat` (the caller checked [`TableHand::allowed_mask`]).
    pub fn apply_unchecked(&mut self, seat: u8, id: u8) {
        debug_assert!(self.allowed_mask(seat) & (1 << id) != 0);
        match id {
            ANNOUNCE => {
                let best = find_runs(self.hand.dealt(seat as usize)).best_points();
                self.table.announced[seat as usize] =
                    if best == FIFTY as u32 { FIFTY } else { TWENTY };
            }
            SHOW => {
                self.table.shown[seat as usize] = if self.trick_index() == SHOW_TRICK {
                    Shown::OnTime
                } else {
                    Shown::Late
                };
            }
            BELLA => self.call_bella(seat),
            MISPLAY | THROW => self.end_by_call(seat, id),
            _ if id < CALL_BASE => self.play(Card::from_index_unchecked(id)),
            _ => {
                self.hand.apply_unchecked(id);
                if self.manual() && self.hand.trump().is_some() {
                    self.hand.clear_auto_declarations();
                }
            }
        }
        // Logged after applying: a bella reads whether the entry before it is an announcement.
        let table = &mut self.table;
        table.log[table.n_log as usize] = seat << SEAT_SHIFT | id;
        table.n_log += 1;
    }

    fn play(&mut self, card: Card) {
        if !self.enforced() && !self.hand.legal_cards().contains(card) {
            self.table.misplayed.insert(card);
        }
        self.table.bella_pending = false;
        self.hand.play_any(card);
        let runs_at = if self.rules().late_twenty {
            LATE_RUNS_AT
        } else {
            PLAYS_BEFORE_RUNS
        };
        if self.manual() && self.hand.plays().len() == runs_at {
            self.credit_runs();
        }
    }

    /// R4.3 on the runs announced and shown in time (R4.4), credited once (R8.6c).
    fn credit_runs(&mut self) {
        self.table.runs_credited = true;
        let trump = self.hand.trump().unwrap_or(Suit::Clubs);
        let shown: [Runs; 4] = std::array::from_fn(|seat| self.shown_manual(seat as u8));
        let best: [u8; 4] = std::array::from_fn(|seat| {
            shown[seat]
                .as_slice()
                .iter()
                .map(|run| run.strength(trump))
                .max()
                .unwrap_or(0)
        });
        let Some(winner) = run_winner(best) else {
            return;
        };
        let total =
            |seat: usize| -> u32 { shown[seat].as_slice().iter().map(|r| r.points()).sum() };
        let mut points = total(winner);
        if self.rules().team_runs {
            points += total(partner(winner as u8) as usize);
        }
        self.table.runs = Some((winner as u8, points));
        self.hand.credit(team_of(winner as u8), points);
    }

    /// R4.5, R8.6e: bella with the announcement counts; before playing the K or Q it counts
    /// on the second, and on the first only under `first_bell_ok`.
    fn call_bella(&mut self, seat: u8) {
        let with_announcement = self.bella_case(seat) == Some(true);
        self.table.bella_called = true;
        let trump = self.hand.trump().unwrap_or(Suit::Clubs);
        let holds_both =
            self.hand.hand(seat as usize).intersect(bella_pair(trump)) == bella_pair(trump);
        if !with_announcement {
            self.table.bella_pending = true;
        }
        if with_announcement || !holds_both || self.rules().first_bell_ok {
            self.table.bella = Some(seat);
            self.hand.credit(team_of(seat), BELLA_POINTS);
        } else {
            self.table.bella_forfeited = Some(seat);
        }
    }

    /// R8.2, R8.3: the count to the team the call awards, the hand over at once.
    fn end_by_call(&mut self, seat: u8, verb: u8) {
        let own = team_of(seat);
        let (correct, team, outcome) = if verb == MISPLAY {
            let correct = self.misplays().any(|m| team_of(m.seat) != own);
            (
                Some(correct),
                if correct { own } else { 1 - own },
                Outcome::Misplay,
            )
        } else {
            (None, 1 - own, Outcome::ThrowIn)
        };
        let runs = self.runs_scored().map_or(0, |(_, points)| points);
        let bella = if self.bella().is_some() {
            BELLA_POINTS
        } else {
            0
        };
        let count = CARD_COUNT + runs + bella;
        let mut score = [0; 2];
        score[team] = count;
        self.table.call = Some(CallRecord {
            verb,
            seat,
            correct,
            team: team as u8,
            count,
        });
        self.table.bella_pending = false;
        self.hand.end_by_call(outcome, score);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::cpu::test_cases;
    use crate::rng::SplitMix64;
    use crate::seats::seat_of;

    fn rules_with(manual: bool, enforce: bool) -> Rules {
        Rules {
            declarations: if manual {
                Declarations::Manual
            } else {
                Declarations::Auto
            },
            enforce_legal_play: enforce,
            ..Rules::default()
        }
    }

    /// A random table-mode hand: random allowed actions of random seats.
    fn random_table_hand(seed: u64, rules: Rules) -> TableHand {
        let mut rng = SplitMix64::new(seed);
        let mut hand = TableHand::from_seed(rng.next_u64(), seat_of(seed), rules, [0, 0]);
        while !hand.hand().is_terminal() {
            let seat = if rng.below(8) == 0 {
                rng.below(4) as u8
            } else {
                hand.hand().to_move().unwrap()
            };
            let mask = hand.allowed_mask(seat);
            assert_eq!(mask & !hand.allowed_mask(seat), 0);
            assert_eq!(hand.legal_mask(seat) & !mask, 0, "legal is within allowed");
            for id in 0..NUM_ACTIONS {
                let mut copy = hand;
                let result = copy.apply(Some(seat), id);
                assert_eq!(result.is_ok(), mask & (1 << id) != 0, "seat {seat} id {id}");
                if result.is_err() {
                    assert_eq!(copy, hand, "a refused action changes nothing");
                }
            }
            if mask == 0 {
                continue;
            }
            // Calls are rare, so hands mostly run long.
            let mut pick = mask;
            if rng.below(20) != 0 && mask & !CALLS != 0 {
                pick &= !CALLS;
            }
            let id = CardSet(pick).nth(rng.below(pick.count_ones())).index();
            hand.apply(Some(seat), id).unwrap();
        }
        hand
    }

    #[test]
    fn auto_mode_with_legal_play_is_the_hand() {
        let mut rng = SplitMix64::new(3);
        for seed in 0..200 {
            let mut table = TableHand::from_seed(seed, seat_of(seed), Rules::default(), [0, 0]);
            let mut hand = Hand::from_seed(seed, seat_of(seed), Rules::default(), [0, 0]);
            while let Some(seat) = hand.to_move() {
                let mask = hand.legal_mask();
                assert_eq!(table.allowed_mask(seat), mask);
                assert_eq!(table.legal_mask(seat), mask);
                for other in (0..4).filter(|&s| s != seat) {
                    assert_eq!(table.allowed_mask(other), 0);
                }
                let id = CardSet(mask).nth(rng.below(mask.count_ones())).index();
                hand.apply_unchecked(id);
                table.apply(None, id).unwrap();
                assert_eq!(*table.hand(), hand);
            }
            let log: Vec<(u8, u8)> = table.log().collect();
            assert_eq!(log, hand.history());
        }
    }

    #[test]
    fn random_table_hands_conserve_cards_and_count() {
        for seed in 0..test_cases("random_table_hands_conserve_cards_and_count", 400) {
            let rules = Rules {
                late_twenty: seed % 3 == 0,
                first_bell_ok: seed % 5 == 0,
                team_runs: seed % 7 == 0,
                ..rules_with(seed % 2 == 0, seed % 4 < 2)
            };
            let hand = random_table_hand(seed, rules);
            let core = hand.hand();
            let held: u32 = (0..4).map(|s| core.hand(s).len()).sum();
            assert_eq!(held as usize + core.plays().len(), 36);
            let runs = hand.runs_scored().map_or(0, |(_, p)| p);
            let bella = if hand.bella().is_some() { 20 } else { 0 };
            let points = core.points()[0] + core.points()[1];
            match core.outcome().unwrap() {
                Outcome::Misplay | Outcome::ThrowIn => {
                    let call = hand.call().unwrap();
                    assert_eq!(call.count, 162 + runs + bella, "R8.2 count");
                    assert_eq!(core.score()[call.team as usize], call.count);
                    assert_eq!(core.score()[1 - call.team as usize], 0);
                }
                Outcome::Void => assert_eq!(core.score(), [0, 0]),
                _ => assert_eq!(points, 162 + runs + bella, "seed {seed}"),
            }
        }
    }

    fn deal(text: [&str; 4]) -> Deal {
        text.map(|seat| {
            let cards = parse_cards(seat).unwrap();
            std::array::from_fn(|i| cards[i])
        })
    }

    /// Seat 1 (eldest of dealer 0) holds a hearts fifty with the K and Q; seat 2 a twenty.
    fn table_deal() -> Deal {
        deal([
            "6C 7C 8D 9S TS JC QD KD AD",
            "JH QH KH AH 6S 7S 9C TC 6D",
            "6H 7H 8H 9D TD JD QS KS AS",
            "9H TH 8S JS 8C QC KC AC 7D",
        ])
    }

    fn apply_all(hand: &mut TableHand, actions: &[(u8, u8)]) {
        for &(seat, id) in actions {
            hand.apply(Some(seat), id)
                .unwrap_or_else(|e| panic!("{}: {e}", action_text(seat, id)));
        }
    }

    fn card(text: &str) -> u8 {
        text.parse::<Card>().unwrap().index()
    }

    #[test]
    fn fifty_with_the_bells_announced_and_shown() {
        let rules = rules_with(true, true);
        let mut hand = TableHand::from_deal(table_deal(), 0, rules, [0, 0]);
        // Seat 1 calls hearts and leads.
        apply_all(&mut hand, &[(1, CALL_BASE + Suit::Hearts as u8)]);
        assert_ne!(hand.allowed_mask(1) & 1 << ANNOUNCE, 0);
        assert_eq!(
            hand.allowed_mask(1) & 1 << BELLA,
            1 << BELLA,
            "before playing K or Q"
        );
        apply_all(&mut hand, &[(1, ANNOUNCE), (1, BELLA)]);
        assert_eq!(hand.bella(), Some(1), "with the announcement it counts");
        assert_eq!(hand.hand().points(), [0, 20]);
        assert_eq!(hand.announced(1), Some(50));
        // The card is free after a bella with the announcement.
        apply_all(&mut hand, &[(1, card("6S"))]);
        let err = hand.apply(Some(2), SHOW).unwrap_err();
        assert!(matches!(err, Error::Illegal { rule: "R8.6d", .. }));
    }

    #[test]
    fn first_bell_is_table_talk_unless_allowed() {
        for first_bell_ok in [false, true] {
            let rules = Rules {
                first_bell_ok,
                ..rules_with(true, true)
            };
            let mut hand = TableHand::from_deal(table_deal(), 0, rules, [0, 0]);
            apply_all(
                &mut hand,
                &[(1, CALL_BASE + Suit::Hearts as u8), (1, BELLA)],
            );
            let err = hand.apply(Some(1), card("6S")).unwrap_err();
            assert!(matches!(err, Error::Illegal { rule: "R8.6e", .. }));
            apply_all(&mut hand, &[(1, card("KH"))]);
            if first_bell_ok {
                assert_eq!((hand.bella(), hand.bella_forfeited()), (Some(1), None));
            } else {
                assert_eq!((hand.bella(), hand.bella_forfeited()), (None, Some(1)));
            }
            assert_eq!(hand.allowed_mask(2) & 1 << BELLA, 0);
        }
    }

    #[test]
    fn calls_end_the_hand_with_the_count() {
        let rules = rules_with(false, false);
        let mut hand = TableHand::from_deal(table_deal(), 0, rules, [0, 0]);
        // Clubs trump; seat 1 leads 6S, seat 2 holds spades but plays 9D: a misplay.
        apply_all(
            &mut hand,
            &[
                (1, CALL_BASE + Suit::Clubs as u8),
                (1, card("6S")),
                (2, card("9D")),
            ],
        );
        assert_eq!(hand.legal_mask(3) & CARDS, card_bits(&["8S", "JS"]));
        assert_ne!(
            hand.allowed_mask(0) & 1 << MISPLAY,
            0,
            "any seat, out of turn"
        );
        let mut partner = hand;
        partner.apply(Some(0), MISPLAY).unwrap();
        let call = partner.call().unwrap();
        assert_eq!((call.correct, call.team, call.count), (Some(false), 1, 162));
        assert_eq!(partner.hand().score(), [0, 162]);
        hand.apply(Some(3), MISPLAY).unwrap();
        let call = hand.call().unwrap();
        assert_eq!((call.correct, call.team), (Some(true), 1));
        let misplays: Vec<Misplay> = hand.misplays().collect();
        assert_eq!(misplays.len(), 1);
        assert_eq!((misplays[0].seat, misplays[0].trick), (2, 0));
        assert!(matches!(
            hand.apply(Some(0), THROW),
            Err(Error::Illegal { rule: "R8.6a", .. })
        ));
    }

    fn card_bits(cards: &[&str]) -> u64 {
        cards.iter().fold(0, |bits, c| bits | 1 << card(c))
    }
}
