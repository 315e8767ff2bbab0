//! The rule primitives of docs/ENGINE.md as Python functions (R1.3, R4, R5, R6, R2).

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyTuple, PyType};

use super::convert::{
    card_arg, cards_arg, class, describe, int_arg, invalid, py_cards, py_deal, py_suit, suit_arg,
    to_py_err,
};
use super::rules::primitive_rules;
use crate::cards::{Rank, Suit};
use crate::deal::deal_from_seed;
use crate::runs::{checked_run_winner, compare_runs as core_compare, find_runs as core_find, Run};
use crate::scoring::score_hand as core_score;
use crate::tricks::{checked_legal_plays, checked_trick_winner, distinct};

static RUN_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static RANK_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static OUTCOME_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// R5.1: the legal cards, sorted by index.
#[pyfunction]
#[pyo3(signature = (hand, trick, trump, rules=None))]
fn legal_plays<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    trick: &Bound<'py, PyAny>,
    trump: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (hand, trick, trump) = (cards_arg(hand)?, cards_arg(trick)?, suit_arg(trump)?);
    let rules = primitive_rules(py, rules)?;
    let legal = checked_legal_plays(&hand, &trick, trump, &rules).map_err(|e| to_py_err(py, e))?;
    py_cards(py, legal)
}

/// R5.2: the position in `trick` of the winning card.
#[pyfunction]
fn trick_winner(trick: &Bound<'_, PyAny>, trump: &Bound<'_, PyAny>) -> PyResult<usize> {
    let (cards, trump) = (cards_arg(trick)?, suit_arg(trump)?);
    checked_trick_winner(&cards, trump).map_err(|e| to_py_err(trick.py(), e))
}

/// R1.3.
#[pyfunction]
fn card_points(card: &Bound<'_, PyAny>, trump: &Bound<'_, PyAny>) -> PyResult<u32> {
    Ok(crate::tricks::card_points(
        card_arg(card)?,
        suit_arg(trump)?,
    ))
}

static RUNS: PyOnceLock<Py<PyTuple>> = PyOnceLock::new();

/// Where a run sits in the cache of every possible `Run` value.
fn run_slot(suit: u8, len: u8, top: u8) -> usize {
    suit as usize * 18 + (len as usize - 3) * 9 + top as usize
}

/// A core run as a Python `Run` (frozen values, built once for every possible run).
fn py_run<'py>(py: Python<'py>, run: Run) -> PyResult<Bound<'py, PyAny>> {
    let all = RUNS.get_or_try_init(py, || -> PyResult<Py<PyTuple>> {
        let run_type = class(py, &RUN_TYPE, "tarabish._runs", "Run")?;
        let rank_type = class(py, &RANK_TYPE, "tarabish._cards", "Rank")?;
        let mut slots = vec![py.None().into_bound(py); 72];
        for suit in Suit::ALL {
            for len in 3..=4u8 {
                for top in len - 1..9 {
                    slots[run_slot(suit as u8, len, top)] =
                        run_type.call1((py_suit(py, suit)?, rank_type.call1((top,))?, len))?;
                }
            }
        }
        Ok(PyTuple::new(py, slots)?.unbind())
    })?;
    all.bind(py)
        .get_item(run_slot(run.suit as u8, run.len, run.top as u8))
}

/// Python `Run`s, in order.
pub fn py_runs<'py>(py: Python<'py>, runs: &[Run]) -> PyResult<Bound<'py, PyTuple>> {
    let items: PyResult<Vec<_>> = runs.iter().map(|&run| py_run(py, run)).collect();
    PyTuple::new(py, items?)
}

fn run_arg(obj: &Bound<'_, PyAny>) -> PyResult<Run> {
    let py = obj.py();
    if !obj.is_instance(class(py, &RUN_TYPE, "tarabish._runs", "Run")?)? {
        return Err(invalid(
            py,
            format!("expected a tarabish.Run, got {}", describe(obj)),
        ));
    }
    // Every field read back and checked: a Run changed behind its constructor's back (top 100)
    // is refused, not taken modulo anything.
    let field = |name: &str, max: u64| -> PyResult<u8> {
        Ok(int_arg(&obj.getattr(name)?, &format!("Run.{name}"), max)? as u8)
    };
    let suit = suit_arg(&obj.getattr("suit")?)?;
    let top = Rank::from_index(field("top", Rank::Ace as u64)?);
    let run = Run::new(suit, top, field("length", 4)?).map_err(|e| to_py_err(py, e))?;
    if u32::from(field("points", 50)?) != run.points() {
        return Err(invalid(
            py,
            format!("a run of {} cards scores {} (R4.1)", run.len, run.points()),
        ));
    }
    Ok(run)
}

/// R4.1: the runs of a hand of up to nine cards.
#[pyfunction]
fn find_runs<'py>(py: Python<'py>, hand: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let cards = cards_arg(hand)?;
    if cards.len() > 9 {
        return Err(invalid(
            py,
            format!("a hand holds at most 9 cards (R2.4), got {}", cards.len()),
        ));
    }
    let set = distinct(&cards, "hand").map_err(|e| to_py_err(py, e))?;
    PyList::new(py, py_runs(py, core_find(set).as_slice())?)
}

/// R4.2: 1 if `a` beats `b`, -1 if `b` beats `a`, 0 for a tie.
#[pyfunction]
fn compare_runs(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    trump: &Bound<'_, PyAny>,
) -> PyResult<i32> {
    Ok(core_compare(run_arg(a)?, run_arg(b)?, suit_arg(trump)?) as i32)
}

/// R4.3: the seat whose best run beats every other seat's, or None.
#[pyfunction]
fn run_winner(
    runs_by_seat: &Bound<'_, PyAny>,
    trump: &Bound<'_, PyAny>,
) -> PyResult<Option<usize>> {
    let py = runs_by_seat.py();
    let trump = suit_arg(trump)?;
    let seats: Vec<Vec<Run>> = runs_by_seat
        .try_iter()
        .map_err(|_| invalid(py, "run_winner takes four lists of runs (R4.3)"))?
        .map(|seat| {
            let seat = seat?;
            seat.try_iter()
                .map_err(|_| invalid(py, "each seat's runs are a list of tarabish.Run"))?
                .map(|run| run_arg(&run?))
                .collect::<PyResult<Vec<Run>>>()
        })
        .collect::<PyResult<_>>()?;
    checked_run_winner(&seats, trump).map_err(|e| to_py_err(py, e))
}

/// R6.2-R6.4: `(Outcome, (score0, score1))` from the teams' points and the calling team.
#[pyfunction]
#[pyo3(signature = (points, caller_team, rules=None))]
fn score_hand<'py>(
    py: Python<'py>,
    points: &Bound<'py, PyAny>,
    caller_team: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let points = super::convert::team_pair_arg(points, "points")?;
    let caller_team = int_arg(caller_team, "caller_team", 1)? as usize;
    let rules = primitive_rules(py, rules)?;
    let (outcome, score) = core_score(points, caller_team, &rules);
    let outcome = py_outcome(py, outcome)?;
    PyTuple::new(py, [outcome, PyTuple::new(py, score)?.into_any()])
}

/// The Python `Outcome` of a core outcome.
pub fn py_outcome<'py>(
    py: Python<'py>,
    outcome: crate::scoring::Outcome,
) -> PyResult<Bound<'py, PyAny>> {
    use crate::scoring::Outcome;
    let all = OUTCOMES.get_or_try_init(py, || -> PyResult<Py<PyTuple>> {
        let outcome_type = class(py, &OUTCOME_TYPE, "tarabish._views", "Outcome")?;
        let all: PyResult<Vec<_>> = [
            Outcome::Made,
            Outcome::Bait,
            Outcome::HalfBait,
            Outcome::Void,
            Outcome::Misplay,
            Outcome::ThrowIn,
        ]
        .iter()
        .map(|outcome| outcome_type.call1((outcome.name(),)))
        .collect();
        Ok(PyTuple::new(py, all?)?.unbind())
    })?;
    all.bind(py).get_item(outcome as usize)
}

static OUTCOMES: PyOnceLock<Py<PyTuple>> = PyOnceLock::new();

/// R2.3-R2.4: four lists of nine cards in the order received, from a hand seed.
#[pyfunction]
fn deal_cards<'py>(
    py: Python<'py>,
    seed: &Bound<'py, PyAny>,
    dealer: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let seed = int_arg(seed, "seed", u64::MAX)?;
    let dealer = int_arg(dealer, "dealer", 3)? as u8;
    py_deal(py, &deal_from_seed(seed, dealer))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(legal_plays, m)?)?;
    m.add_function(wrap_pyfunction!(trick_winner, m)?)?;
    m.add_function(wrap_pyfunction!(card_points, m)?)?;
    m.add_function(wrap_pyfunction!(find_runs, m)?)?;
    m.add_function(wrap_pyfunction!(compare_runs, m)?)?;
    m.add_function(wrap_pyfunction!(run_winner, m)?)?;
    m.add_function(wrap_pyfunction!(score_hand, m)?)?;
    m.add_function(wrap_pyfunction!(deal_cards, m)?)?;
    Ok(())
}
