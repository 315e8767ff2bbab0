//! The double-dummy solver for Python (docs/SOLVER.md): `solve` and `solve_many` with the
//! interpreter released; plain ints and tuples cross the boundary and `tarabish._solve` makes
//! the `Solution` values.

use pyo3::prelude::*;

use super::convert::{int_arg, invalid, to_py_err};
use super::states::PyHandState;
use crate::solver::{self, position_of, Solution};
use crate::state::Hand;

/// The most threads `solve_many` accepts.
const MAX_THREADS: u64 = 1024;

/// seat, value, points left, (action id, value) for every legal play, best ids (a list, not
/// bytes), runs (seat, points) and bella seat fixed by the position.
type RawSolution = (
    u8,
    u32,
    u32,
    Vec<(u8, u32)>,
    Vec<u32>,
    Option<(u8, u32)>,
    Option<u8>,
);

fn raw(solution: Solution) -> RawSolution {
    (
        solution.seat,
        solution.value,
        solution.points_left,
        solution
            .legal
            .iter()
            .map(|card| (card.index(), solution.value_of(card)))
            .collect(),
        solution
            .best
            .iter()
            .map(|card| card.index() as u32)
            .collect(),
        solution.runs,
        solution.bella,
    )
}

/// The hand of `state`, checked to be a play-phase `HandState` (named `what` in errors).
fn play_hand(state: &Bound<'_, PyAny>, what: &str) -> PyResult<Hand> {
    let py = state.py();
    let state = state.cast::<PyHandState>().map_err(|_| {
        invalid(
            py,
            format!("{what} must be a HandState in the play phase (R5)"),
        )
    })?;
    let hand = state.get().hand();
    position_of(&hand).map_err(|e| invalid(py, format!("{what}: {e}")))?;
    Ok(hand)
}

/// Solves one play-phase state (see `tarabish.solve`).
#[pyfunction]
fn solve(state: &Bound<'_, PyAny>) -> PyResult<RawSolution> {
    let py = state.py();
    let hand = play_hand(state, "the state to solve")?;
    py.detach(|| solver::solve(&hand))
        .map(raw)
        .map_err(|e| to_py_err(py, e))
}

/// Solves many play-phase states on `threads` threads (0: every core), in input order.
#[pyfunction]
#[pyo3(signature = (states, threads))]
fn solve_many(
    py: Python<'_>,
    states: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
) -> PyResult<Vec<RawSolution>> {
    let threads = int_arg(threads, "threads", MAX_THREADS)? as usize;
    let hands = states
        .try_iter()
        .map_err(|_| invalid(py, "states must be an iterable of HandState"))?
        .enumerate()
        .map(|(i, state)| play_hand(&state?, &format!("states[{i}]")))
        .collect::<PyResult<Vec<Hand>>>()?;
    py.detach(|| solver::solve_many(&hands, threads))
        .map(|solutions| solutions.into_iter().map(raw).collect())
        .map_err(|e| to_py_err(py, e))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    Ok(())
}
