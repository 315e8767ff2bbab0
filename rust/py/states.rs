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
use pyo3::types::{PyByteArray, PyDict, PyList, PyString, PyTuple, PyType};

use super::convert::{
    cards_arg, class, int_arg, invalid, opt_seat_arg, opt_team_pair_arg, py_card_tuple, py_deal,
    py_suit, to_py_err,
};
use super::lock::StateLock;
use super::primitives::{py_outcome, py_runs};
use super::rules::game_rules_arg;
use crate::deal::check_deal;
use crate::infoset::InfoSet;
use crate::matches::Match;
use crate::observe::{information_string, write_tensor, TENSOR_SIZE};
use crate::state::{Hand, Phase, TrickRecord, NUM_ACTIONS};

static ACTION_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static PHASE_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static TRICK_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static RUNS_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static RESULT_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static OBSERVATION_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static FLOAT32: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

// ---- views shared by both states -------------------------------------------------------

static ACTIONS: PyOnceLock<Py<PyTuple>> = PyOnceLock::new();
static PHASES: PyOnceLock<Py<PyTuple>> = PyOnceLock::new();

/// The Python `Action` of a seat and an id: every one of the 164 (immutable) values is built
/// once and shared.
fn py_action<'py>(py: Python<'py>, seat: u8, id: u8) -> PyResult<Bound<'py, PyAny>> {
    let all = ACTIONS.get_or_try_init(py, || -> PyResult<Py<PyTuple>> {
        let action_type = class(py, &ACTION_TYPE, "tarabish._actions", "Action")?;
        let all: PyResult<Vec<_>> = (0..4u8)
            .flat_map(|seat| (0..NUM_ACTIONS).map(move |id| (seat, id)))
            .map(|(seat, id)| action_type.call_method1("from_id", (id, seat)))
            .collect();
        Ok(PyTuple::new(py, all?)?.unbind())
    })?;
    all.bind(py)
        .get_item(seat as usize * NUM_ACTIONS as usize + id as usize)
}

fn py_phase<'py>(py: Python<'py>, hand: &Hand) -> PyResult<Bound<'py, PyAny>> {
    let all = PHASES.get_or_try_init(py, || -> PyResult<Py<PyTuple>> {
        let phase_type = class(py, &PHASE_TYPE, "tarabish._actions", "Phase")?;
        let all: PyResult<Vec<_>> = [Phase::Auction, Phase::Play, Phase::Done]
            .iter()
            .map(|phase| phase_type.call1((phase.name(),)))
            .collect();
        Ok(PyTuple::new(py, all?)?.unbind())
    })?;
    all.bind(py).get_item(hand.phase() as usize)
}

/// The set bits of a mask (action ids), ascending.
fn ids_of(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let id = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            id
        })
    })
}

fn legal_ids_list<'py>(py: Python<'py>, mask: u64) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, ids_of(mask))
}

fn legal_actions<'py>(py: Python<'py>, hand: &Hand, mask: u64) -> PyResult<Bound<'py, PyList>> {
    let seat = hand.to_move().unwrap_or(0);
    let actions: PyResult<Vec<_>> = ids_of(mask).map(|id| py_action(py, seat, id)).collect();
    PyList::new(py, actions?)
}

fn history<'py>(py: Python<'py>, hand: &Hand) -> PyResult<Bound<'py, PyList>> {
    let actions: PyResult<Vec<_>> = hand
        .history()
        .into_iter()
        .map(|(seat, id)| py_action(py, seat, id))
        .collect();
    PyList::new(py, actions?)
}

fn py_trick<'py>(py: Python<'py>, trick: TrickRecord) -> PyResult<Bound<'py, PyAny>> {
    class(py, &TRICK_TYPE, "tarabish._views", "TrickResult")?.call1((
        trick.leader,
        py_card_tuple(py, &trick.cards)?,
        trick.winner,
        trick.points,
    ))
}

fn py_tricks<'py>(py: Python<'py>, hand: &Hand) -> PyResult<Bound<'py, PyTuple>> {
    let tricks: PyResult<Vec<_>> = hand.completed_tricks().map(|t| py_trick(py, t)).collect();
    PyTuple::new(py, tricks?)
}

fn py_runs_result<'py>(py: Python<'py>, hand: &Hand) -> PyResult<Bound<'py, PyAny>> {
    match hand.runs_scored() {
        Some((seat, points)) => {
            class(py, &RUNS_TYPE, "tarabish._views", "RunsResult")?.call1((seat, points))
        }
        None => Ok(py.None().into_bound(py)),
    }
}

fn opt_suit<'py>(py: Python<'py>, hand: &Hand) -> PyResult<Bound<'py, PyAny>> {
    match hand.trump() {
        Some(suit) => py_suit(py, suit),
        None => Ok(py.None().into_bound(py)),
    }
}

fn result<'py>(py: Python<'py>, hand: &Hand) -> PyResult<Bound<'py, PyAny>> {
    let Some(outcome) = hand.outcome() else {
        return Ok(py.None().into_bound(py));
    };
    class(py, &RESULT_TYPE, "tarabish._views", "HandResult")?.call1((
        py_outcome(py, outcome)?,
        opt_suit(py, hand)?,
        hand.caller(),
        PyTuple::new(py, hand.points())?,
        PyTuple::new(py, hand.score())?,
        py_runs_result(py, hand)?,
        hand.bella(),
        py_tricks(py, hand)?,
    ))
}

fn seat_arg(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    Ok(int_arg(obj, "seat", 3)? as u8)
}

fn observation<'py>(py: Python<'py>, hand: &Hand, seat: u8) -> PyResult<Bound<'py, PyAny>> {
    let info = InfoSet::new(hand, seat);
    let auction: PyResult<Vec<_>> = info.auction().map(|(s, id)| py_action(py, s, id)).collect();
    // R4.4: an announcement names a run; a seat without one announces nothing.
    let announced: [Option<u32>; 4] =
        std::array::from_fn(|s| info.announced(s as u8).filter(|&points| points > 0));
    let shown: PyResult<Vec<_>> = (0..4u8)
        .map(|s| py_runs(py, info.shown(s).as_slice()))
        .collect();
    let sizes: [u32; 4] = std::array::from_fn(|s| info.hand_size(s as u8));
    let visible: Vec<_> = info.hand().iter().collect();
    let kwargs = PyDict::new(py);
    kwargs.set_item("seat", seat)?;
    kwargs.set_item("dealer", info.dealer())?;
    kwargs.set_item("phase", py_phase(py, hand)?)?;
    kwargs.set_item("to_move", info.to_move())?;
    kwargs.set_item("scores_before", PyTuple::new(py, info.scores_before())?)?;
    kwargs.set_item("hand", py_card_tuple(py, &visible)?)?;
    kwargs.set_item("unseen_kitty", info.unseen_kitty())?;
    kwargs.set_item("auction", PyTuple::new(py, auction?)?)?;
    kwargs.set_item("trump", opt_suit(py, hand)?)?;
    kwargs.set_item("caller", info.caller())?;
    kwargs.set_item("trick_leader", info.trick_leader())?;
    kwargs.set_item("trick", py_card_tuple(py, info.current_trick())?)?;
    kwargs.set_item("tricks", py_tricks(py, hand)?)?;
    kwargs.set_item("announced", PyTuple::new(py, announced)?)?;
    kwargs.set_item("shown", PyTuple::new(py, shown?)?)?;
    kwargs.set_item("runs", py_runs_result(py, hand)?)?;
    kwargs.set_item("bella", info.bella())?;
    kwargs.set_item("points", PyTuple::new(py, info.points())?)?;
    kwargs.set_item("hand_sizes", PyTuple::new(py, sizes)?)?;
    class(py, &OBSERVATION_TYPE, "tarabish._views", "Observation")?.call((), Some(&kwargs))
}

fn tensor<'py>(py: Python<'py>, hand: &Hand, seat: u8) -> PyResult<Bound<'py, PyAny>> {
    let mut values = [0f32; TENSOR_SIZE];
    write_tensor(&InfoSet::new(hand, seat), &mut values);
    let mut bytes = Vec::with_capacity(TENSOR_SIZE * 4);
    for value in values {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    let frombuffer = FROMBUFFER.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
        Ok(py.import("numpy")?.getattr("frombuffer")?.unbind())
    })?;
    let float32 = FLOAT32.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
        Ok(py
            .import("numpy")?
            .getattr("dtype")?
            .call1(("<f4",))?
            .unbind())
    })?;
    frombuffer
        .bind(py)
        .call1((PyByteArray::new(py, &bytes), float32.bind(py)))
}

/// The (seat, id) of an action argument: an id (no seat: for the seat to move), an `Action`,
/// or action text.
fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<(Option<u8>, u8)> {
    let py = action.py();
    if action.is_exact_instance_of::<pyo3::types::PyInt>() {
        // The fast path of search loops: a plain id for the seat to move.
        return match action.extract::<u8>() {
            Ok(id) if id <= 40 => Ok((None, id)),
            _ => Err(invalid(
                py,
                format!("action id {action} is not in 0..40 (R0)"),
            )),
        };
    }
    let action_type = class(py, &ACTION_TYPE, "tarabish._actions", "Action")?;
    let parsed;
    let action = if action.is_instance_of::<PyString>() {
        parsed = action_type.call_method1("parse", (action,))?;
        &parsed
    } else {
        action
    };
    if !action.is_instance(action_type)? {
        if !action.is_instance_of::<pyo3::types::PyBool>() {
            // Integer-like ids (numpy integers) through `__index__`.
            if let Ok(index) = action.call_method0(pyo3::intern!(py, "__index__")) {
                let id = int_arg(&index, "an action id", 40)? as u8;
                return Ok((None, id));
            }
        }
        return Err(invalid(
            py,
            "an action is an id (int), a tarabish.Action or action text like '2 call H'",
        ));
    }
    let seat: u8 = action.getattr("seat")?.extract()?;
    let id: u8 = action.getattr("id")?.extract()?;
    Ok((Some(seat), id))
}

fn json_helper<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("tarabish._state_json")?.getattr(name)
}

/// A state's JSON text, written by `tarabish._state_json.<dump>`.
fn dump_json(state: &Bound<'_, PyAny>, dump: &str) -> PyResult<String> {
    json_helper(state.py(), dump)?.call1((state,))?.extract()
}

/// Pickle support: a state is rebuilt from its JSON text by `tarabish._state_json.<load>`.
fn reduce_via_json<'py>(
    state: &Bound<'py, PyAny>,
    dump: &str,
    load: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = state.py();
    let text = PyTuple::new(py, [dump_json(state, dump)?])?;
    PyTuple::new(py, [json_helper(py, load)?, text.into_any()])
}

// ---- HandState -------------------------------------------------------------------------

/// One hand of Tarabish (docs/ENGINE.md "Hands").
#[pyclass(name = "HandState", module = "tarabish", frozen)]
pub struct PyHandState {
    hand: StateLock<Hand>,
    rules: Py<PyAny>,
}

impl PyHandState {
    pub fn wrap(py: Python<'_>, hand: Hand, rules: &Py<PyAny>) -> PyHandState {
        PyHandState {
            hand: StateLock::new(hand),
            rules: rules.clone_ref(py),
        }
    }

    /// A copy of the hand as it is now.
    pub fn hand(&self) -> Hand {
        self.hand.get()
    }
}

#[pymethods]
impl PyHandState {
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
        let dealer = opt_seat_arg(dealer, "dealer")?;
        let (rules_obj, rules) = game_rules_arg(py, rules)?;
        let scores = opt_team_pair_arg(scores_before, "scores_before")?;
        let hand = match (seed.filter(|s| !s.is_none()), deal.filter(|d| !d.is_none())) {
            (Some(seed), None) => {
                Hand::from_seed(int_arg(seed, "seed", u64::MAX)?, dealer, rules, scores)
            }
            (None, Some(deal)) => {
                let seats: Vec<Vec<crate::cards::Card>> = deal
                    .try_iter()
                    .map_err(|_| invalid(py, "a deal is four lists of nine cards (R2.4)"))?
                    .map(|seat| cards_arg(&seat?))
                    .collect::<PyResult<_>>()?;
                let deal = check_deal(&seats).map_err(|e| to_py_err(py, e))?;
                Hand::from_deal(deal, dealer, rules, scores)
            }
            _ => {
                return Err(invalid(
                    py,
                    "give exactly one of seed= (an int) or deal= (four 9-card lists)",
                ))
            }
        };
        Ok(PyHandState {
            hand: StateLock::new(hand),
            rules: rules_obj.unbind(),
        })
    }

    #[getter]
    fn rules(&self, py: Python<'_>) -> Py<PyAny> {
        self.rules.clone_ref(py)
    }
    #[getter]
    fn dealer(&self) -> u8 {
        self.hand.lock().dealer()
    }
    #[getter]
    fn scores_before<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.hand.lock().scores_before())
    }
    #[getter]
    fn phase<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py_phase(py, &self.hand())
    }
    #[getter]
    fn to_move(&self) -> Option<u8> {
        self.hand.lock().to_move()
    }
    #[getter]
    fn is_terminal(&self) -> bool {
        self.hand.lock().is_terminal()
    }
    #[getter]
    fn trump<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        opt_suit(py, &self.hand())
    }
    #[getter]
    fn caller(&self) -> Option<u8> {
        self.hand.lock().caller()
    }
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
    #[getter]
    fn deal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        py_deal(py, self.hand().deal())
    }
    #[getter]
    fn actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        history(py, &self.hand())
    }
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.hand.lock().points())
    }
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        result(py, &self.hand())
    }

    fn legal_action_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mask = self.hand.lock().legal_mask();
        legal_ids_list(py, mask)
    }
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let hand = self.hand();
        legal_actions(py, &hand, hand.legal_mask())
    }
    fn apply(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let (seat, id) = action_arg(action)?;
        let checked = {
            let mut hand = self.hand.lock();
            let checked = hand.check_for(seat, id);
            if checked.is_ok() {
                hand.apply_unchecked(id);
            }
            checked
        };
        // The error (a Python object) is built after the lock is released.
        checked.map_err(|e| to_py_err(py, e))
    }
    fn clone(&self, py: Python<'_>) -> PyHandState {
        PyHandState::wrap(py, self.hand(), &self.rules)
    }
    fn __copy__(&self, py: Python<'_>) -> PyHandState {
        self.clone(py)
    }
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyHandState {
        self.clone(py)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyHandState>() {
            Ok(other) => self.hand() == other.get().hand(),
            Err(_) => false,
        }
    }
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        observation(py, &self.hand(), seat_arg(seat)?)
    }
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        tensor(py, &self.hand(), seat_arg(seat)?)
    }
    fn information_state_string(&self, seat: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(information_string(&InfoSet::new(
            &self.hand(),
            seat_arg(seat)?,
        )))
    }
    fn to_json(slf: &Bound<'_, Self>) -> PyResult<String> {
        dump_json(slf.as_any(), "hand_to_json")
    }
    #[staticmethod]
    fn from_json<'py>(py: Python<'py>, text: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        json_helper(py, "hand_from_json")?.call1((text,))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        reduce_via_json(slf.as_any(), "hand_to_json", "hand_from_json")
    }
    fn __repr__(&self) -> String {
        format!("<HandState {}>", self.hand.lock().describe())
    }
}

// ---- MatchState ------------------------------------------------------------------------

/// A match: hands until a team reaches the target (docs/ENGINE.md "Matches").
#[pyclass(name = "MatchState", module = "tarabish", frozen)]
pub struct PyMatchState {
    game: StateLock<MatchGame>,
    rules: Py<PyAny>,
}

/// What a `MatchState` changes: the core match and its finished hands, locked together.
#[derive(Clone, PartialEq)]
struct MatchGame {
    game: Match,
    history: Vec<Hand>,
}

impl PyMatchState {
    /// A copy of the core match as it is now (without its history).
    fn game(&self) -> Match {
        self.game.lock().game
    }
}

#[pymethods]
impl PyMatchState {
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
        let (rules_obj, rules) = game_rules_arg(py, rules)?;
        let first_dealer = opt_seat_arg(first_dealer, "first_dealer")?;
        let scores = opt_team_pair_arg(scores, "scores")?;
        Ok(PyMatchState {
            game: StateLock::new(MatchGame {
                game: Match::new(seed, rules, first_dealer, scores),
                history: Vec::new(),
            }),
            rules: rules_obj.unbind(),
        })
    }

    #[getter]
    fn rules(&self, py: Python<'_>) -> Py<PyAny> {
        self.rules.clone_ref(py)
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.game().seed()
    }
    #[getter]
    fn first_dealer(&self) -> u8 {
        self.game().first_dealer()
    }
    #[getter]
    fn start_scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.game().start_scores())
    }
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.game().scores())
    }
    #[getter]
    fn hand_index(&self) -> u32 {
        self.game().hand_index()
    }
    #[getter]
    fn hand(&self, py: Python<'_>) -> PyHandState {
        PyHandState::wrap(py, *self.game().hand(), &self.rules)
    }
    #[getter]
    fn history(&self, py: Python<'_>) -> Vec<PyHandState> {
        let history = self.game.lock().history.clone();
        history
            .iter()
            .map(|&hand| PyHandState::wrap(py, hand, &self.rules))
            .collect()
    }
    #[getter]
    fn winner(&self) -> Option<u8> {
        self.game().winner()
    }
    #[getter]
    fn is_terminal(&self) -> bool {
        self.game().is_terminal()
    }
    #[getter]
    fn phase<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py_phase(py, self.game().hand())
    }
    #[getter]
    fn to_move(&self) -> Option<u8> {
        let game = self.game();
        if game.is_terminal() {
            None
        } else {
            game.hand().to_move()
        }
    }
    #[getter]
    fn dealer(&self) -> u8 {
        self.game().hand().dealer()
    }

    fn legal_action_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mask = self.game.lock().game.legal_mask();
        legal_ids_list(py, mask)
    }
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let game = self.game();
        legal_actions(py, game.hand(), game.legal_mask())
    }
    fn apply(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let (seat, id) = action_arg(action)?;
        let applied = {
            let mut locked = self.game.lock();
            let applied = locked.game.apply_for(seat, id);
            if let Ok(Some(done)) = applied {
                locked.history.push(done);
            }
            applied
        };
        // The error (a Python object) is built after the lock is released.
        applied.map(drop).map_err(|e| to_py_err(py, e))
    }
    fn clone(&self, py: Python<'_>) -> PyMatchState {
        let game = self.game.lock().clone();
        PyMatchState {
            game: StateLock::new(game),
            rules: self.rules.clone_ref(py),
        }
    }
    fn __copy__(&self, py: Python<'_>) -> PyMatchState {
        self.clone(py)
    }
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyMatchState {
        self.clone(py)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyMatchState>() {
            Ok(other) => {
                let mine = self.game.lock().clone();
                mine == *other.get().game.lock()
            }
            Err(_) => false,
        }
    }
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        observation(py, self.game().hand(), seat_arg(seat)?)
    }
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        tensor(py, self.game().hand(), seat_arg(seat)?)
    }
    fn information_state_string(&self, seat: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(information_string(&InfoSet::new(
            self.game().hand(),
            seat_arg(seat)?,
        )))
    }
    fn to_json(slf: &Bound<'_, Self>) -> PyResult<String> {
        dump_json(slf.as_any(), "match_to_json")
    }
    #[staticmethod]
    fn from_json<'py>(py: Python<'py>, text: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        json_helper(py, "match_from_json")?.call1((text,))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        reduce_via_json(slf.as_any(), "match_to_json", "match_from_json")
    }
    fn __repr__(&self) -> String {
        let game = self.game();
        let scores = game.scores();
        format!(
            "<MatchState hand {} scores {}-{}: {}>",
            game.hand_index(),
            scores[0],
            scores[1],
            game.hand().describe()
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyHandState>()?;
    m.add_class::<PyMatchState>()?;
    Ok(())
}
