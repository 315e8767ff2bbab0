//! `HandState` and `MatchState` for Python (docs/ENGINE.md): the core's `Copy` states behind a
//! small API. `legal_action_ids()` and `apply(int)` are the fast path; the views build the
//! Python dataclasses of `tarabish._views` only when asked for.
//!
//! Thread model (docs/ENGINE.md "Threads"): both classes are frozen and keep their state behind
//! a [`StateLock`], so calls on one state from several threads serialize. The lock is held only
//! while Rust reads or changes the core state, never while Python runs (a view works on a
//! copy taken under the lock), so it cannot deadlock with the interpreter's own lock.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyModule, PyString, PyTuple};

use super::convert::{
    cards_arg, describe, int_arg, invalid, opt_seat_arg, opt_team_pair_arg, py_card_tuple, py_deal,
    text_of, to_py_err,
};
use super::lock::StateLock;
use super::rules::rules_arg;
use super::search;
use super::views::{
    action_type, actions_list, card_texts, events_list, history, ids_list, info_string,
    observation, opt_suit, py_phase, result, table_view, tensor,
};
use crate::action_text::parse_action;
use crate::deal::check_deal;
use crate::error::Error;
use crate::events::{hand_events, match_end_events, Event};
use crate::matches::Match;
use crate::rules::Rules;
use crate::state::{action_text, Hand, NUM_ACTIONS};
use crate::table::TableHand;
use crate::view_json::table_view_json;

fn seat_arg(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    Ok(int_arg(obj, "seat", 3)? as u8)
}

/// An optional seat (None: the seat to move, or a spectator for `events`).
fn opt_seat(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u8>> {
    obj.filter(|obj| !obj.is_none()).map(seat_arg).transpose()
}

/// The seat whose sets are asked for: `seat`, or the seat to move (`None` once over).
fn asked_seat(hand: &TableHand, seat: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u8>> {
    Ok(opt_seat(seat)?.or(hand.hand().to_move()))
}

/// Which of a seat's two sets (docs/TABLE.md "Allowed and legal").
#[derive(Clone, Copy)]
enum Set {
    Allowed,
    Legal,
}

fn mask_of(hand: &TableHand, seat: Option<u8>, set: Set) -> u64 {
    match (seat, set) {
        (None, _) => 0,
        (Some(seat), Set::Allowed) => hand.allowed_mask(seat),
        (Some(seat), Set::Legal) => hand.legal_mask(seat),
    }
}

/// `(seat, id)` to apply: the action's own seat, or `seat` for a plain id; an action naming
/// another seat than `seat` is refused (docs/TABLE.md).
fn seat_and_id(
    action: &Bound<'_, PyAny>,
    seat: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Option<u8>, u8)> {
    let (own, id) = action_arg(action)?;
    let given = opt_seat(seat)?;
    match (own, given) {
        (Some(own), Some(given)) if own != given => Err(invalid(
            action.py(),
            format!("the action names seat {own}, not the seat given ({given})"),
        )),
        (Some(own), _) => Ok((Some(own), id)),
        (None, given) => Ok((given, id)),
    }
}

/// The `since` argument of `events`: a whole number.
fn since_arg(since: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    since.map_or(Ok(0), |since| int_arg(since, "since", u64::MAX))
}

/// The (seat, id) of an action argument: an id (no seat: for the seat to move), an `Action`,
/// or action text (parsed by the core, rust/action_text.rs).
fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<(Option<u8>, u8)> {
    let py = action.py();
    if action.is_exact_instance_of::<pyo3::types::PyInt>() {
        // The fast path of search loops: a plain id for the seat to move.
        return match action.extract::<u8>() {
            Ok(id) if id < NUM_ACTIONS => Ok((None, id)),
            _ => Err(invalid(
                py,
                format!(
                    "action id {} is not in 0..{} (R0)",
                    describe(action),
                    NUM_ACTIONS - 1
                ),
            )),
        };
    }
    if let Ok(text) = action.cast::<PyString>() {
        let (seat, id) = parse_action(&text_of(text)).map_err(|e| to_py_err(py, e))?;
        return Ok((Some(seat), id));
    }
    if action.is_instance(action_type(py)?)? {
        // Checked again: an Action changed behind its constructor's back is refused.
        action.call_method0(pyo3::intern!(py, "check"))?;
        let seat = int_arg(
            &action.getattr(pyo3::intern!(py, "seat"))?,
            "Action.seat",
            3,
        )?;
        let id = int_arg(
            &action.getattr(pyo3::intern!(py, "id"))?,
            "Action.id",
            u8::MAX.into(),
        )?;
        return Ok((Some(seat as u8), id as u8));
    }
    if !action.is_instance_of::<pyo3::types::PyBool>() {
        // Integer-like ids (numpy integers) through `__index__`.
        if let Ok(index) = action.call_method0(pyo3::intern!(py, "__index__")) {
            let id = int_arg(&index, "an action id", u64::from(NUM_ACTIONS) - 1)? as u8;
            return Ok((None, id));
        }
    }
    Err(invalid(
        py,
        format!(
            "an action is an id (int), a tarabish.Action or action text like '2 call H', got {}",
            describe(action)
        ),
    ))
}

/// `tarabish._state_json`, imported once (a state's `to_json` is called often).
static STATE_JSON: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn json_helper<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    STATE_JSON
        .get_or_try_init(py, || -> PyResult<Py<PyModule>> {
            Ok(py.import("tarabish._state_json")?.unbind())
        })?
        .bind(py)
        .getattr(name)
}

/// A state's JSON text, written by `tarabish._state_json.<dump>` from the state and its record
/// `texts` ([`SharedState::json_texts`]: written in Rust, where `str` of each card and action
/// in Python was most of the call).
fn dump_json<'py>(
    state: &Bound<'py, PyAny>,
    texts: Vec<Bound<'py, PyAny>>,
    dump: &str,
) -> PyResult<String> {
    let py = state.py();
    let mut args = vec![state.clone()];
    args.extend(texts);
    let args = PyTuple::new(py, args)?;
    json_helper(py, dump)?.call1(args)?.extract()
}

/// Pickle support: a state is rebuilt from its JSON text by `tarabish._state_json.<load>`.
fn reduce_via_json<'py>(
    state: &Bound<'py, PyAny>,
    texts: Vec<Bound<'py, PyAny>>,
    dump: &str,
    load: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = state.py();
    let text = PyTuple::new(py, [dump_json(state, texts, dump)?])?;
    PyTuple::new(py, [json_helper(py, load)?, text.into_any()])
}

/// What `HandState` and `MatchState` answer each in their own way behind the methods they
/// share (the ones [`state_pymethods`] writes).
trait SharedState {
    /// A copy of the hand the views show: the hand itself, or a match's current hand.
    fn current_hand(&self) -> TableHand;
    /// The seat asked for (`seat`, default the seat to move; None once over) and its `set` of
    /// action ids now.
    fn action_set(&self, seat: Option<&Bound<'_, PyAny>>, set: Set) -> PyResult<(Option<u8>, u64)>;
    /// True if both states are equal, compared without holding two locks at once (`other` may
    /// be `self`).
    fn same_as(&self, other: &Self) -> bool;
    /// Takes action `id` for `seat` (None: the seat to move), every rule checked; a refusal
    /// changes nothing and comes back once the lock is released.
    fn apply_id(&self, seat: Option<u8>, id: u8) -> Result<(), Error>;
    /// What `events` shows the events after `since` from (docs/EVENTS.md): the events in order,
    /// how many came before the first of them, and the hand of each hand index.
    fn events_from(&self, since: u64) -> (Vec<Event>, u64, impl Fn(u32) -> TableHand);
    /// The record texts `to_json`'s helper writes after the state's own fields: a hand's deal
    /// (four seats' cards) and actions, a match's actions hand by hand.
    fn json_texts<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>>;
}

/// Every action of `hand` as record text (`"2 call H"`, as `str(Action)` writes it).
fn action_texts(hand: &TableHand) -> Vec<String> {
    hand.log().map(|(seat, id)| action_text(seat, id)).collect()
}

/// The one `#[pymethods]` block of a state class (PyO3 allows one a class): the methods
/// `HandState` and `MatchState` share, written once on top of [`SharedState`], each with the
/// docstring the call site gives it (the stub `_core.pyi` carries the same, tests/test_docs.py),
/// then the class's own methods. `json` names the `tarabish._state_json` functions that dump
/// and load the class.
macro_rules! state_pymethods {
    (
        impl $class:ident {
            json: ($dump:literal, $load:literal);
            $(#[$rules_doc:meta])* fn rules;
            $(#[$allowed_ids_doc:meta])* fn allowed_action_ids;
            $(#[$legal_ids_doc:meta])* fn legal_action_ids;
            $(#[$allowed_doc:meta])* fn allowed_actions;
            $(#[$legal_doc:meta])* fn legal_actions;
            $(#[$observation_doc:meta])* fn observation;
            $(#[$tensor_doc:meta])* fn information_state_tensor;
            $(#[$string_doc:meta])* fn information_state_string;
            $(#[$view_doc:meta])* fn table_view;
            $(#[$view_json_doc:meta])* fn table_view_json;
            $(#[$to_json_doc:meta])* fn to_json;
            $(#[$from_json_doc:meta])* fn from_json;
            $(#[$apply_doc:meta])* fn apply;
            $(#[$events_doc:meta])* fn events;
            $($own:tt)*
        }
    ) => {
        #[pymethods]
        impl $class {
            $(#[$rules_doc])*
            #[getter]
            fn rules(&self, py: Python<'_>) -> Py<PyAny> {
                self.rules.clone_ref(py)
            }
            $(#[$allowed_ids_doc])*
            #[pyo3(signature = (seat=None))]
            fn allowed_action_ids<'py>(
                &self,
                py: Python<'py>,
                seat: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyList>> {
                ids_list(py, self.action_set(seat, Set::Allowed)?.1)
            }
            $(#[$legal_ids_doc])*
            #[pyo3(signature = (seat=None))]
            fn legal_action_ids<'py>(
                &self,
                py: Python<'py>,
                seat: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyList>> {
                ids_list(py, self.action_set(seat, Set::Legal)?.1)
            }
            $(#[$allowed_doc])*
            #[pyo3(signature = (seat=None))]
            fn allowed_actions<'py>(
                &self,
                py: Python<'py>,
                seat: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyList>> {
                let (seat, mask) = self.action_set(seat, Set::Allowed)?;
                actions_list(py, seat.unwrap_or(0), mask)
            }
            $(#[$legal_doc])*
            #[pyo3(signature = (seat=None))]
            fn legal_actions<'py>(
                &self,
                py: Python<'py>,
                seat: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyList>> {
                let (seat, mask) = self.action_set(seat, Set::Legal)?;
                actions_list(py, seat.unwrap_or(0), mask)
            }
            $(#[$observation_doc])*
            fn observation<'py>(
                &self,
                py: Python<'py>,
                seat: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyAny>> {
                observation(py, &self.current_hand(), seat_arg(seat)?)
            }
            $(#[$tensor_doc])*
            fn information_state_tensor<'py>(
                &self,
                py: Python<'py>,
                seat: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyAny>> {
                tensor(py, &self.current_hand(), seat_arg(seat)?)
            }
            $(#[$string_doc])*
            fn information_state_string(&self, seat: &Bound<'_, PyAny>) -> PyResult<String> {
                Ok(info_string(&self.current_hand(), seat_arg(seat)?))
            }
            $(#[$view_doc])*
            fn table_view<'py>(
                &self,
                py: Python<'py>,
                seat: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyAny>> {
                table_view(py, &self.current_hand(), seat_arg(seat)?)
            }
            $(#[$view_json_doc])*
            fn table_view_json(&self, seat: &Bound<'_, PyAny>) -> PyResult<String> {
                Ok(table_view_json(&self.current_hand(), seat_arg(seat)?))
            }
            $(#[$to_json_doc])*
            fn to_json(slf: &Bound<'_, Self>) -> PyResult<String> {
                dump_json(slf.as_any(), slf.get().json_texts(slf.py())?, $dump)
            }
            $(#[$from_json_doc])*
            #[staticmethod]
            fn from_json<'py>(
                py: Python<'py>,
                text: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyAny>> {
                json_helper(py, $load)?.call1((text,))
            }
            $(#[$apply_doc])*
            #[pyo3(signature = (action, seat=None))]
            fn apply(
                &self,
                py: Python<'_>,
                action: &Bound<'_, PyAny>,
                seat: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<()> {
                let (seat, id) = seat_and_id(action, seat)?;
                // The error (a Python object) is built after the lock is released.
                self.apply_id(seat, id).map_err(|e| to_py_err(py, e))
            }
            $(#[$events_doc])*
            #[pyo3(
                signature = (seat=None, since=None),
                text_signature = "(self, seat=None, since=0)"
            )]
            fn events<'py>(
                &self,
                py: Python<'py>,
                seat: Option<&Bound<'py, PyAny>>,
                since: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyList>> {
                let (seat, since) = (opt_seat(seat)?, since_arg(since)?);
                let (events, skipped, hand_at) = self.events_from(since);
                events_list(py, &events, skipped, seat, since, &hand_at)
            }
            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
                reduce_via_json(slf.as_any(), slf.get().json_texts(slf.py())?, $dump, $load)
            }
            fn __copy__(&self, py: Python<'_>) -> $class {
                self.clone(py)
            }
            fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> $class {
                self.clone(py)
            }
            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                match other.cast::<$class>() {
                    Ok(other) => self.same_as(other.get()),
                    Err(_) => false,
                }
            }
            $($own)*
        }
    };
}

// ---- HandState -------------------------------------------------------------------------

/// One hand of Tarabish: the auction (R3), nine tricks (R5) and the score (R6).
///
/// `HandState(dealer, seed=42)` deals from a seed (the seeded deal of docs/ENGINE.md);
/// `HandState(dealer, deal=[...])` takes four lists of nine cards, seat 0 first, the last three
/// of each the kitty (R2.4). `rules` (default `Rules()`) and `scores_before` (the match totals
/// before the hand, for R3.4) are optional. A state is a value: `clone()` is cheap, `==`
/// compares everything, it pickles and round-trips through JSON. `apply` checks every rule and
/// changes nothing when it refuses an action.
#[pyclass(name = "HandState", module = "tarabish", frozen)]
pub struct PyHandState {
    hand: StateLock<TableHand>,
    rules: Py<PyAny>,
    /// The hand's index in its match (0 for a lone hand), for its events.
    index: u32,
}

impl PyHandState {
    /// A Python state of `hand`, hand `index` of its match.
    pub fn wrap(py: Python<'_>, hand: TableHand, rules: &Py<PyAny>, index: u32) -> PyHandState {
        PyHandState {
            hand: StateLock::new(hand),
            rules: rules.clone_ref(py),
            index,
        }
    }

    /// The hand's index in its match (0 for a hand on its own): the `hand` its events carry.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// A copy of the hand as it is now, with its table record.
    pub fn table(&self) -> TableHand {
        self.hand.get()
    }

    /// A copy of the auto-mode hand underneath as it is now.
    pub fn hand(&self) -> Hand {
        *self.hand.lock().hand()
    }

    /// The `Rules` object the state was made with.
    pub fn rules_object(&self) -> &Py<PyAny> {
        &self.rules
    }

    /// A hand on its own (hand 0) from the arguments every new hand takes, checked in this
    /// order: `dealer` (R2.2; default 0), `rules` (R9; default `Rules()`) and `scores_before`
    /// (R3.4; default 0, 0); `deal` deals it under them.
    pub fn dealt(
        py: Python<'_>,
        dealer: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
        scores_before: Option<&Bound<'_, PyAny>>,
        deal: impl FnOnce(u8, Rules, [u32; 2]) -> PyResult<TableHand>,
    ) -> PyResult<PyHandState> {
        let dealer = opt_seat_arg(dealer, "dealer")?;
        let (rules_obj, rules) = rules_arg(py, rules)?;
        let scores = opt_team_pair_arg(scores_before, "scores_before")?;
        let hand = deal(dealer, rules, scores)?;
        Ok(PyHandState::wrap(py, hand, &rules_obj.unbind(), 0))
    }
}

impl SharedState for PyHandState {
    #[inline]
    fn current_hand(&self) -> TableHand {
        self.table()
    }

    #[inline]
    fn action_set(&self, seat: Option<&Bound<'_, PyAny>>, set: Set) -> PyResult<(Option<u8>, u64)> {
        if seat.is_none() {
            // The fast path of search loops: the seat to move, under the lock only.
            let hand = self.hand.lock();
            let to_move = hand.hand().to_move();
            return Ok((to_move, mask_of(&hand, to_move, set)));
        }
        let hand = self.table();
        let seat = asked_seat(&hand, seat)?;
        Ok((seat, mask_of(&hand, seat, set)))
    }

    #[inline]
    fn same_as(&self, other: &Self) -> bool {
        self.table() == other.table()
    }

    #[inline]
    fn apply_id(&self, seat: Option<u8>, id: u8) -> Result<(), Error> {
        self.hand.lock().apply(seat, id)
    }

    fn events_from(&self, _since: u64) -> (Vec<Event>, u64, impl Fn(u32) -> TableHand) {
        let hand = self.table();
        let mut events = Vec::new();
        hand_events(&hand, self.index, &mut events);
        (events, 0, move |_| hand)
    }

    fn json_texts<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let hand = self.table();
        // Each seat's cards space-separated, as `tarabish._cards.format_cards` writes them.
        let deal = hand.hand().deal().map(|cards| card_texts(cards).join(" "));
        let actions = PyList::new(py, action_texts(&hand))?;
        Ok(vec![PyList::new(py, deal)?.into_any(), actions.into_any()])
    }
}

state_pymethods! {
    impl PyHandState {
        json: ("hand_to_json", "hand_from_json");
        /// The `Rules` the hand is played under (R9).
        fn rules;
        /// Every action id the engine accepts from `seat` now (default: the seat to move),
        /// ascending: with `enforce_legal_play = False` misplays and calls too (R8; docs/TABLE.md).
        fn allowed_action_ids;
        /// The action ids `seat` (default: the seat to move) may take now without breaking a rule,
        /// ascending (R0: 0-35 play that card, 36-39 call C D H S, 40 pass; 41-45 table mode);
        /// empty once the hand is over.
        fn legal_action_ids;
        /// `allowed_action_ids(seat)` as `Action` values.
        fn allowed_actions;
        /// `legal_action_ids(seat)` as `Action` values.
        fn legal_actions;
        /// Everything `seat` may know now and nothing more, as an `Observation`
        /// (R2.4, R4.4, R4.5).
        fn observation;
        /// What `seat` knows, as a numpy float32 vector of `TENSOR_SIZE` values (layout in
        /// docs/ENGINE.md).
        fn information_state_tensor;
        /// What `seat` knows, as text (docs/ENGINE.md).
        fn information_state_string;
        /// What a person at `seat` sees on the table now, as a `TableView` (R8.4; docs/TABLE.md).
        fn table_view;
        /// `table_view(seat).to_dict()` as compact JSON text, written without building the view
        /// (for a server that sends it after every action; docs/TABLE.md).
        fn table_view_json;
        /// The state as JSON text: rules, dealer, scores before, deal and actions
        /// (docs/ENGINE.md).
        fn to_json;
        /// A state from `to_json`'s text, checked by replaying every action; bad text raises
        /// `InvalidInputError`.
        fn from_json;
        /// Take an action: an `Action`, record text such as `"2 play JH"`, or an id (for `seat`,
        /// default the seat to move). Every rule is checked: a refused action raises
        /// `IllegalActionError` (naming the action, the rule and the state) or `InvalidInputError`,
        /// and changes nothing.
        fn apply;
        /// The events `seat` is told (None: a spectator's public events), those after `since`, in
        /// order (docs/EVENTS.md).
        fn events;
        #[new]
        #[pyo3(signature = (dealer=None, *, seed=None, deal=None, rules=None, scores_before=None))]
        fn new<'py>(
            py: Python<'py>,
            dealer: Option<&Bound<'py, PyAny>>,
            seed: Option<&Bound<'py, PyAny>>,
            deal: Option<&Bound<'py, PyAny>>,
            rules: Option<&Bound<'py, PyAny>>,
            scores_before: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<PyHandState> {
            PyHandState::dealt(py, dealer, rules, scores_before, |dealer, rules, scores| {
                match (seed.filter(|s| !s.is_none()), deal.filter(|d| !d.is_none())) {
                    (Some(seed), None) => Ok(TableHand::from_seed(
                        int_arg(seed, "seed", u64::MAX)?,
                        dealer,
                        rules,
                        scores,
                    )),
                    (None, Some(deal)) => {
                        let seats: Vec<Vec<crate::cards::Card>> = deal
                            .try_iter()
                            .map_err(|_| invalid(py, "a deal is four lists of nine cards (R2.4)"))?
                            .map(|seat| cards_arg(&seat?))
                            .collect::<PyResult<_>>()?;
                        let deal = check_deal(&seats).map_err(|e| to_py_err(py, e))?;
                        Ok(TableHand::from_deal(deal, dealer, rules, scores))
                    }
                    _ => Err(invalid(
                        py,
                        "give exactly one of seed= (an int) or deal= (four 9-card lists)",
                    )),
                }
            })
        }
        /// The dealer's seat, 0-3 (R2.2).
        #[getter]
        fn dealer(&self) -> u8 {
            self.hand.lock().hand().dealer()
        }
        /// The match totals (team 0, team 1) before this hand; they decide who is forced under
        /// `forced_at` (R3.4).
        #[getter]
        fn scores_before<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
            PyTuple::new(py, self.hand.lock().hand().scores_before())
        }
        /// Where the hand stands: `Phase.AUCTION` (R3), `Phase.PLAY` (R5) or `Phase.DONE`.
        #[getter]
        fn phase<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            py_phase(py, self.hand().phase())
        }
        /// The seat to act, or None once the hand is over.
        #[getter]
        fn to_move(&self) -> Option<u8> {
            self.hand.lock().hand().to_move()
        }
        /// True once the hand is over: nine tricks played (R5.3), or nobody called (R3.3).
        #[getter]
        fn is_terminal(&self) -> bool {
            self.hand.lock().hand().is_terminal()
        }
        /// The trump `Suit`, or None before it is named (R3).
        #[getter]
        fn trump<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            opt_suit(py, &self.hand())
        }
        /// The seat that named trump, or None before (R3).
        #[getter]
        fn caller(&self) -> Option<u8> {
            self.hand.lock().hand().caller()
        }
        /// Every seat's cards now, four tuples of `Card`: the whole state, hidden cards
        /// included (a player's view is `observation(seat)`).
        #[getter]
        fn hands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
            let hand = self.hand();
            let seats: PyResult<Vec<_>> = (0..4)
                .map(|s| {
                    let cards: Vec<_> = hand.hand(s).iter().collect();
                    py_card_tuple(py, &cards)
                })
                .collect();
            PyTuple::new(py, seats?)
        }
        /// The deal as received: four lists of nine cards, seat 0 first, the last three of
        /// each the kitty (R2.4).
        #[getter]
        fn deal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
            py_deal(py, self.hand().deal())
        }
        /// Every action taken so far, in order, as `Action` values.
        #[getter]
        fn actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
            history(py, &self.table())
        }
        /// Each team's points credited so far (team 0, team 1): cards, last, and runs and bella once
        /// known (R6.1).
        #[getter]
        fn points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
            PyTuple::new(py, self.hand.lock().hand().points())
        }
        /// The `HandResult` once the hand is over (outcome, points, score, runs, bella, tricks: R6),
        /// else None.
        #[getter]
        fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            result(py, &self.table())
        }
        /// An independent copy (cheap: the core state is a plain value).
        fn clone(&self, py: Python<'_>) -> PyHandState {
            PyHandState::wrap(py, self.table(), &self.rules, self.index)
        }
        /// A world `seat` cannot tell from this one, drawn uniformly from a generator seeded
        /// `seed`: same rules, dealer, scores and actions; `observation(seat)` identical
        /// (docs/SEARCH.md).
        fn sample_world(
            &self,
            py: Python<'_>,
            seat: &Bound<'_, PyAny>,
            seed: &Bound<'_, PyAny>,
        ) -> PyResult<PyHandState> {
            let one = 1u8.into_pyobject(py)?.into_any();
            let mut worlds = search::sample_worlds(self, py, seat, seed, &one)?;
            Ok(worlds.remove(0))
        }
        /// `count` worlds drawn in turn from one generator seeded `seed` (docs/SEARCH.md).
        fn sample_worlds(
            &self,
            py: Python<'_>,
            seat: &Bound<'_, PyAny>,
            seed: &Bound<'_, PyAny>,
            count: &Bound<'_, PyAny>,
        ) -> PyResult<Vec<PyHandState>> {
            search::sample_worlds(self, py, seat, seed, count)
        }
        /// How many worlds `seat` cannot tell from this one (docs/SEARCH.md).
        fn count_worlds(&self, py: Python<'_>, seat: &Bound<'_, PyAny>) -> PyResult<u128> {
            search::count_worlds(self, py, seat)
        }
        fn __repr__(&self) -> String {
            format!("<HandState {}>", self.hand.lock().hand().describe())
        }
    }
}

// ---- MatchState ------------------------------------------------------------------------

/// A match (R7): hands in turn until, after a hand, a team has `rules.target` points or more
/// and the totals differ; the team with more wins.
///
/// `MatchState(seed=7)` deals hand i from the seed `derive(seed, i)`, dealt by seat
/// `(first_dealer + i) % 4` (docs/ENGINE.md "Matches"); `rules`, `first_dealer` (default 0) and
/// `scores` (the totals to start from) are optional. The current hand is `hand`, the finished
/// ones `history`; `apply` acts in the current hand and deals the next one when it ends.
#[pyclass(name = "MatchState", module = "tarabish", frozen)]
pub struct PyMatchState {
    game: StateLock<MatchGame>,
    rules: Py<PyAny>,
}

/// What a `MatchState` changes: the core match and its finished hands, locked together.
#[derive(Clone, PartialEq)]
struct MatchGame {
    game: Match<TableHand>,
    history: Vec<TableHand>,
    /// The events of the finished hands in order (docs/EVENTS.md), kept as each hand ends:
    /// deriving them replays every action, so `events` would cost more with every hand.
    finished_events: Vec<Event>,
}

impl MatchGame {
    /// The hand of index `index` in the match: a finished one, or the one in play.
    fn hand_at(&self, index: u32) -> TableHand {
        self.history
            .get(index as usize)
            .copied()
            .unwrap_or(*self.game.hand())
    }

    /// The hand in play, `None` once the match is over.
    fn running(&self) -> Option<&TableHand> {
        (!self.game.is_terminal()).then(|| self.game.hand())
    }
}

impl PyMatchState {
    /// A copy of the core match as it is now (without its history).
    fn game(&self) -> Match<TableHand> {
        self.game.lock().game
    }
}

impl SharedState for PyMatchState {
    #[inline]
    fn current_hand(&self) -> TableHand {
        *self.game.lock().game.hand()
    }

    /// One of the seat's sets in the hand in play (none once the match is over).
    #[inline]
    fn action_set(&self, seat: Option<&Bound<'_, PyAny>>, set: Set) -> PyResult<(Option<u8>, u64)> {
        let game = self.game();
        let hand = game.hand();
        let seat = if game.is_terminal() {
            opt_seat(seat)?
        } else {
            asked_seat(hand, seat)?
        };
        let mask = if game.is_terminal() {
            0
        } else {
            mask_of(hand, seat, set)
        };
        Ok((seat, mask))
    }

    #[inline]
    fn same_as(&self, other: &Self) -> bool {
        let mine = self.game.lock().clone();
        mine == *other.game.lock()
    }

    #[inline]
    fn apply_id(&self, seat: Option<u8>, id: u8) -> Result<(), Error> {
        let mut locked = self.game.lock();
        let done = locked.game.apply_table(seat, id)?;
        if let Some(done) = done {
            let index = locked.history.len() as u32;
            hand_events(&done, index, &mut locked.finished_events);
            locked.history.push(done);
        }
        Ok(())
    }

    fn events_from(&self, since: u64) -> (Vec<Event>, u64, impl Fn(u32) -> TableHand) {
        // Copied under the lock: the finished hands' events after `since`, and the match.
        let (skipped, mut events, game) = {
            let locked = self.game.lock();
            let skipped = (since as usize).min(locked.finished_events.len());
            let tail = locked.finished_events[skipped..].to_vec();
            let game = MatchGame {
                game: locked.game,
                history: locked.history.clone(),
                finished_events: Vec::new(),
            };
            (skipped, tail, game)
        };
        match_end_events(&game.game, &mut events);
        (events, skipped as u64, move |index| game.hand_at(index))
    }

    fn json_texts<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let locked = self.game.lock();
        let playing = (!locked.game.is_terminal()).then(|| locked.game.hand());
        let hands: Vec<Vec<String>> = locked
            .history
            .iter()
            .chain(playing)
            .map(action_texts)
            .collect();
        drop(locked);
        Ok(vec![PyList::new(py, hands)?.into_any()])
    }
}

state_pymethods! {
    impl PyMatchState {
        json: ("match_to_json", "match_from_json");
        /// The `Rules` the match is played under (R9).
        fn rules;
        /// Every action id the engine accepts from `seat` now in the current hand (as
        /// `HandState.allowed_action_ids`).
        fn allowed_action_ids;
        /// The action ids `seat` may take now in the current hand (as
        /// `HandState.legal_action_ids`); empty once the match is over.
        fn legal_action_ids;
        /// `allowed_action_ids(seat)` as `Action` values.
        fn allowed_actions;
        /// `legal_action_ids(seat)` as `Action` values.
        fn legal_actions;
        /// What `seat` may know of the current hand (as `HandState.observation`).
        fn observation;
        /// What `seat` knows of the current hand, as a numpy float32 vector (as
        /// `HandState.information_state_tensor`).
        fn information_state_tensor;
        /// What `seat` knows of the current hand, as text.
        fn information_state_string;
        /// What a person at `seat` sees of the current hand (as `HandState.table_view`).
        fn table_view;
        /// `table_view(seat).to_dict()` of the current hand as compact JSON text (as
        /// `HandState.table_view_json`).
        fn table_view_json;
        /// The match as JSON text: rules, seed, first dealer, start scores and every action
        /// (docs/ENGINE.md).
        fn to_json;
        /// A match from `to_json`'s text, checked by replaying every action; bad text raises
        /// `InvalidInputError`.
        fn from_json;
        /// Take an action in the current hand (as `HandState.apply`: checked, and nothing changes
        /// when refused). When it ends the hand, the hand goes to `history`, its score to `scores`,
        /// and the next hand is dealt unless the match is won (R7.1).
        fn apply;
        /// The events `seat` is told across the whole match, those after `since`
        /// (docs/EVENTS.md).
        fn events;
        #[new]
        #[pyo3(signature = (*, seed, rules=None, first_dealer=None, scores=None))]
        fn new<'py>(
            py: Python<'py>,
            seed: &Bound<'py, PyAny>,
            rules: Option<&Bound<'py, PyAny>>,
            first_dealer: Option<&Bound<'py, PyAny>>,
            scores: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<PyMatchState> {
            let seed = int_arg(seed, "seed", u64::MAX)?;
            let (rules_obj, rules) = rules_arg(py, rules)?;
            let first_dealer = opt_seat_arg(first_dealer, "first_dealer")?;
            let scores = opt_team_pair_arg(scores, "scores")?;
            Ok(PyMatchState {
                game: StateLock::new(MatchGame {
                    game: Match::new(seed, rules, first_dealer, scores),
                    history: Vec::new(),
                    finished_events: Vec::new(),
                }),
                rules: rules_obj.unbind(),
            })
        }
        /// The match seed: hand i is dealt from `derive(seed, i)`.
        #[getter]
        fn seed(&self) -> u64 {
            self.game().seed()
        }
        /// The dealer of the first hand (R2.1).
        #[getter]
        fn first_dealer(&self) -> u8 {
            self.game().first_dealer()
        }
        /// The totals (team 0, team 1) the match started from.
        #[getter]
        fn start_scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
            PyTuple::new(py, self.game().start_scores())
        }
        /// The match totals now (team 0, team 1): `start_scores` plus every finished hand's
        /// score (R7.2).
        #[getter]
        fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
            PyTuple::new(py, self.game().scores())
        }
        /// The number of the current hand, from 0.
        #[getter]
        fn hand_index(&self) -> u32 {
            self.game().hand_index()
        }
        /// The current hand, as a `HandState` (a copy: applying to it leaves the match
        /// unchanged).
        #[getter]
        fn hand(&self, py: Python<'_>) -> PyHandState {
            let game = self.game();
            PyHandState::wrap(py, *game.hand(), &self.rules, game.hand_index())
        }
        /// The finished hands in order, as `HandState` copies.
        #[getter]
        fn history(&self, py: Python<'_>) -> Vec<PyHandState> {
            let history = self.game.lock().history.clone();
            history
                .iter()
                .enumerate()
                .map(|(index, &hand)| PyHandState::wrap(py, hand, &self.rules, index as u32))
                .collect()
        }
        /// The team that won (R7.1), or None while the match goes on.
        #[getter]
        fn winner(&self) -> Option<u8> {
            self.game().winner()
        }
        /// True once the match is over (R7.1).
        #[getter]
        fn is_terminal(&self) -> bool {
            self.game().is_terminal()
        }
        /// The current hand's phase.
        #[getter]
        fn phase<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            py_phase(py, self.game().hand().hand().phase())
        }
        /// The seat to act in the current hand, or None once the match is over.
        #[getter]
        fn to_move(&self) -> Option<u8> {
            self.game
                .lock()
                .running()
                .and_then(|hand| hand.hand().to_move())
        }
        /// The current hand's dealer (R2.2).
        #[getter]
        fn dealer(&self) -> u8 {
            self.game().hand().hand().dealer()
        }
        /// An independent copy of the match, history included.
        fn clone(&self, py: Python<'_>) -> PyMatchState {
            let game = self.game.lock().clone();
            PyMatchState {
                game: StateLock::new(game),
                rules: self.rules.clone_ref(py),
            }
        }
        fn __repr__(&self) -> String {
            let game = self.game();
            let scores = game.scores();
            format!(
                "<MatchState hand {} scores {}-{}: {}>",
                game.hand_index(),
                scores[0],
                scores[1],
                game.hand().hand().describe()
            )
        }
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyHandState>()?;
    m.add_class::<PyMatchState>()?;
    Ok(())
}
