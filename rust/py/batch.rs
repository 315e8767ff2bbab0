//! Batch work for Python: `simulate` (many hands or matches by Rust bots, on every core, with
//! the interpreter released, under any rules), `tournament` (duplicate pairs,
//! rust/tournament.rs, the same way, auto mode only) and `play_random_hand` (one random
//! playout, docs/ENGINE.md).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::convert::{int_arg, invalid, text_of, to_py_err};
use super::rules::rules_arg;
use super::states::PyHandState;
use crate::bots::random::random_action;
use crate::deal::deal_with;
use crate::infoset::InfoSet;
use crate::registry::BotSpec;
use crate::rng::{derive, SplitMix64};
use crate::rules::Rules;
use crate::sim::{simulate_on, Batch, Summary, MAX_THREADS};
use crate::table::TableHand;
use crate::tournament::Tournament;

/// What every batch function checks: the seed, the rules, one bot spec for each of `N` slots
/// (seats, or the two bots of a tournament), and the range `start..stop`.
pub fn batch_args<const N: usize>(
    py: Python<'_>,
    (start, stop): (u64, u64),
    seed: &Bound<'_, PyAny>,
    bots: &[String],
    rules: Option<&Bound<'_, PyAny>>,
    threads: usize,
    what: &str,
) -> PyResult<(u64, Rules, [BotSpec; N])> {
    let seed = int_arg(seed, "seed", u64::MAX)?;
    let (_, rules) = rules_arg(py, rules)?;
    if bots.len() != N {
        return Err(invalid(py, format!("bots: {what}")));
    }
    let mut specs = [BotSpec::Random; N];
    for (slot, text) in specs.iter_mut().zip(bots) {
        *slot = BotSpec::parse(text).map_err(|e| to_py_err(py, e))?;
    }
    if stop < start {
        return Err(invalid(py, "stop must not be below start"));
    }
    if threads > MAX_THREADS {
        return Err(invalid(
            py,
            format!("threads must be 0 (all cores) to {MAX_THREADS}, got {threads}"),
        ));
    }
    Ok((seed, rules, specs))
}

/// Plays games `start..stop` of the batch and returns the summary's counts as a dict.
#[pyfunction]
#[pyo3(signature = (*, start, stop, seed, bots, rules=None, threads=0, matches=false))]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    start: u64,
    stop: u64,
    seed: &Bound<'py, PyAny>,
    bots: Vec<String>,
    rules: Option<&Bound<'py, PyAny>>,
    threads: usize,
    matches: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let (seed, rules, seats) = batch_args::<4>(
        py,
        (start, stop),
        seed,
        &bots,
        rules,
        threads,
        "one spec a seat (four)",
    )?;
    let batch = Batch {
        seed,
        rules,
        bots: seats,
    };
    let summary = py.detach(|| simulate_on(&batch, start..stop, matches, threads));
    counts_dict(py, &summary)
}

/// A summary's counts as a dict, by the core's field names (`Summary::fields`): a scalar as an
/// int, an array as a list.
fn counts_dict<'py>(py: Python<'py>, summary: &Summary) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for (name, values) in summary.fields() {
        match values {
            [one] => out.set_item(name, one)?,
            many => out.set_item(name, many)?,
        }
    }
    Ok(out)
}

/// Plays duplicate pairs `start..stop` of the tournament between `bots` (A, B) and returns the
/// standing's sums as a dict.
#[pyfunction]
#[pyo3(signature = (*, start, stop, seed, bots, rules=None, threads=0))]
fn tournament<'py>(
    py: Python<'py>,
    start: u64,
    stop: u64,
    seed: &Bound<'py, PyAny>,
    bots: Vec<String>,
    rules: Option<&Bound<'py, PyAny>>,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let (seed, rules, bots) = batch_args::<2>(
        py,
        (start, stop),
        seed,
        &bots,
        rules,
        threads,
        "two specs, A and B",
    )?;
    if rules.is_table_mode() {
        return Err(invalid(
            py,
            "tournaments play auto-mode hands (R4.4 auto declarations, R8 legal play \
             enforced); table-mode rules are played by simulate, or one action at a time \
             through HandState or MatchState",
        ));
    }
    let tournament = Tournament { seed, rules, bots };
    let standing = py.detach(|| tournament.play_on(start..stop, threads));
    let out = PyDict::new(py);
    out.set_item("pairs", standing.pairs)?;
    out.set_item("hands", standing.hands)?;
    out.set_item("wins", standing.wins)?;
    out.set_item("points", standing.points)?;
    out.set_item("pairs_won", standing.pairs_won)?;
    out.set_item("margin_squares", standing.margin_squares)?;
    out.set_item("hands_squares", standing.hands_squares)?;
    out.set_item("margin_hands", standing.margin_hands)?;
    Ok(out)
}

/// `derive(seed, index)` (docs/ENGINE.md): the seed of game `index` of a batch seeded `seed`.
#[pyfunction]
fn derive_seed(seed: &Bound<'_, PyAny>, index: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(derive(
        int_arg(seed, "seed", u64::MAX)?,
        int_arg(index, "index", u64::MAX)?,
    ))
}

/// The finished hand of a uniform random playout from hand seed `seed`: every action drawn
/// from the legal ids of the seat to move (in table mode declarations and calls too).
#[pyfunction]
#[pyo3(signature = (seed, dealer=None, rules=None, scores_before=None))]
fn play_random_hand<'py>(
    py: Python<'py>,
    seed: &Bound<'py, PyAny>,
    dealer: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
    scores_before: Option<&Bound<'py, PyAny>>,
) -> PyResult<PyHandState> {
    let seed = int_arg(seed, "seed", u64::MAX)?;
    PyHandState::dealt(py, dealer, rules, scores_before, |dealer, rules, scores| {
        let mut rng = SplitMix64::new(seed);
        let mut hand = TableHand::from_deal(deal_with(&mut rng, dealer), dealer, rules, scores);
        // docs/TABLE.md "Random playouts": the legal ids of the seat to move, any mode.
        while let Some(seat) = hand.hand().to_move() {
            hand.apply_unchecked(seat, random_action(hand.legal_mask(seat), &mut rng));
        }
        Ok(hand)
    })
}

/// The action id a Rust bot (a spec such as `"greedy"`) takes in a running hand, drawing from
/// a generator seeded `seed`. Bots see only their seat's information set.
#[pyfunction]
#[pyo3(signature = (state, bot, seed=None))]
fn bot_action(
    state: &Bound<'_, PyAny>,
    bot: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<u8> {
    let py = state.py();
    let Ok(state) = state.cast::<PyHandState>() else {
        return Err(invalid(py, "bot_action takes a tarabish.HandState"));
    };
    let Ok(bot) = bot.cast::<PyString>() else {
        return Err(invalid(py, "a bot is a spec string like 'greedy'"));
    };
    let seed = seed.map_or(Ok(0), |seed| int_arg(seed, "seed", u64::MAX))?;
    let mut bot = BotSpec::parse(&text_of(bot))
        .map_err(|e| to_py_err(py, e))?
        .build();
    let table = state.get().table();
    let Some(seat) = table.hand().to_move() else {
        return Err(invalid(py, "the hand is over (R5.3): no action to choose"));
    };
    let info = InfoSet::of_table(&table, seat);
    let mask = table.bot_mask(seat);
    Ok(py.detach(|| bot.act(&info, mask, &mut SplitMix64::new(seed))))
}

/// The canonical text of a bot spec (`"ismcts:iterations=2000"`), checked: an unknown bot,
/// parameter or out-of-range value raises `InvalidInputError`.
#[pyfunction]
fn bot_spec(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<String> {
    let Ok(text) = text.cast::<PyString>() else {
        return Err(invalid(py, "a bot spec is text like 'greedy'"));
    };
    Ok(BotSpec::parse(&text_of(text))
        .map_err(|e| to_py_err(py, e))?
        .to_string())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bot_spec, m)?)?;
    m.add_function(wrap_pyfunction!(bot_action, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(tournament, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(play_random_hand, m)?)?;
    Ok(())
}
