//! Search for Python (docs/SEARCH.md): sampled worlds of a hand state for one seat, drawn and
//! counted in the core with the interpreter released.

use pyo3::prelude::*;

use super::convert::{int_arg, invalid};
use super::states::PyHandState;
use crate::infoset::InfoSet;
use crate::rng::SplitMix64;
use crate::search::worlds::WorldSampler;
use crate::state::Hand;
use crate::table::TableHand;

/// The largest batch of worlds one call draws.
const MAX_WORLDS: u64 = 1 << 24;

/// `count` worlds `seat` cannot tell from `hand`, drawn uniformly from a generator seeded
/// `seed` (the first is `sample_world(seat, seed)`).
pub fn sample_worlds(
    state: &PyHandState,
    py: Python<'_>,
    seat: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
) -> PyResult<Vec<PyHandState>> {
    let seat = int_arg(seat, "seat", 3)? as u8;
    let seed = int_arg(seed, "seed", u64::MAX)?;
    let count = int_arg(count, "count", MAX_WORLDS)?;
    let hand = auto_hand(state, py)?;
    let worlds: Vec<TableHand> = py.detach(|| {
        let sampler = WorldSampler::new(&InfoSet::new(&hand, seat));
        let history = hand.history();
        let mut rng = SplitMix64::new(seed);
        (0..count)
            .map(|_| {
                let deal = sampler.sample_deal(&mut rng);
                let mut world =
                    TableHand::from_deal(deal, hand.dealer(), *hand.rules(), hand.scores_before());
                for &(who, id) in &history {
                    world.apply_unchecked(who, id);
                }
                world
            })
            .collect()
    });
    let rules = state.rules_object();
    Ok(worlds
        .into_iter()
        .map(|world| PyHandState::wrap(py, world, rules, state.index()))
        .collect())
}

/// How many worlds `seat` cannot tell from `hand` (docs/SEARCH.md "Sampled worlds").
pub fn count_worlds(
    state: &PyHandState,
    py: Python<'_>,
    seat: &Bound<'_, PyAny>,
) -> PyResult<u128> {
    let seat = int_arg(seat, "seat", 3)? as u8;
    let hand = auto_hand(state, py)?;
    Ok(py.detach(|| WorldSampler::new(&InfoSet::new(&hand, seat)).count()))
}

/// The hand of `state`, refused in table mode: a world there would have to agree with
/// declarations as made and with plays that may be misplays (docs/SEARCH.md).
fn auto_hand(state: &PyHandState, py: Python<'_>) -> PyResult<Hand> {
    let hand = state.hand();
    if hand.rules().is_table_mode() {
        return Err(invalid(
            py,
            "sampled worlds are for auto mode (declarations=\"auto\", enforce_legal_play=True; \
             R4.4, R8): table-mode hands are not sampled",
        ));
    }
    Ok(hand)
}
