//! The Python views of a hand, built only when asked for: actions, its result (R6, R8.2-R8.3),
//! the observation (R2.4, R4.4, R4.5), the tensor, the table view (R8.4) and the per-seat
//! events (docs/EVENTS.md). Values are the dataclasses of `tarabish._views` and plain dicts.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyList, PyString, PyTuple, PyType};

use super::convert::{class, py_card, py_card_tuple, py_suit};
use super::primitives::{py_outcome, py_runs};
use crate::cards::{Card, CardSet, Suit};
use crate::compact::write_tensor;
use crate::events::{Event, EventKind};
use crate::infoset::InfoSet;
use crate::observe::{information_string, TENSOR_SIZE};
use crate::runs::Runs;
use crate::state::{Hand, Phase, TrickRecord, MISPLAY, NUM_ACTIONS};
use crate::table::{CallRecord, TableHand};
use crate::view_json::tricks_won_and_last;

static ACTION_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static PHASE_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static TRICK_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static RUNS_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static RESULT_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static CALL_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static MISPLAY_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static OBSERVATION_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static TABLE_VIEW_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static FLOAT32: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static ACTIONS: PyOnceLock<Py<PyTuple>> = PyOnceLock::new();
static PHASES: PyOnceLock<Py<PyTuple>> = PyOnceLock::new();

/// The Python `Action` of a seat and an id: every one of the 4 x 46 (immutable) values is
/// built once and shared.
pub fn py_action<'py>(py: Python<'py>, seat: u8, id: u8) -> PyResult<Bound<'py, PyAny>> {
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

/// The Python `Action` class.
pub fn action_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    class(py, &ACTION_TYPE, "tarabish._actions", "Action")
}

/// The Python `Phase` of a core phase.
pub fn py_phase<'py>(py: Python<'py>, phase: Phase) -> PyResult<Bound<'py, PyAny>> {
    let all = PHASES.get_or_try_init(py, || -> PyResult<Py<PyTuple>> {
        let phase_type = class(py, &PHASE_TYPE, "tarabish._actions", "Phase")?;
        let all: PyResult<Vec<_>> = [Phase::Auction, Phase::Play, Phase::Done]
            .iter()
            .map(|phase| phase_type.call1((phase.name(),)))
            .collect();
        Ok(PyTuple::new(py, all?)?.unbind())
    })?;
    all.bind(py).get_item(phase as usize)
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

/// The ids of a mask as a Python list, ascending.
pub fn ids_list<'py>(py: Python<'py>, mask: u64) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, ids_of(mask))
}

/// The ids of a mask as `Action`s of `seat`, ascending.
pub fn actions_list<'py>(py: Python<'py>, seat: u8, mask: u64) -> PyResult<Bound<'py, PyList>> {
    let actions: PyResult<Vec<_>> = ids_of(mask).map(|id| py_action(py, seat, id)).collect();
    PyList::new(py, actions?)
}

/// Every action of the hand, as recorded, as `Action`s.
pub fn history<'py>(py: Python<'py>, hand: &TableHand) -> PyResult<Bound<'py, PyList>> {
    let actions: PyResult<Vec<_>> = hand
        .log()
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

fn py_runs_result<'py>(py: Python<'py>, hand: &TableHand) -> PyResult<Bound<'py, PyAny>> {
    match hand.runs_scored() {
        Some((seat, points)) => {
            class(py, &RUNS_TYPE, "tarabish._views", "RunsResult")?.call1((seat, points))
        }
        None => Ok(py.None().into_bound(py)),
    }
}

/// A suit, or None.
fn opt_py_suit<'py>(py: Python<'py>, suit: Option<Suit>) -> PyResult<Bound<'py, PyAny>> {
    match suit {
        Some(suit) => py_suit(py, suit),
        None => Ok(py.None().into_bound(py)),
    }
}

/// Trump, or None before it is named.
pub fn opt_suit<'py>(py: Python<'py>, hand: &Hand) -> PyResult<Bound<'py, PyAny>> {
    opt_py_suit(py, hand.trump())
}

/// A call's verb (its result's `verb`, its event's kind), as an interned Python string.
fn verb_string<'py>(py: Python<'py>, call: &CallRecord) -> &'py Bound<'py, PyString> {
    if call.verb == MISPLAY {
        intern!(py, "misplay")
    } else {
        intern!(py, "throw")
    }
}

/// The misplays a call ruled on: every misplay of the hand for a misplay call, none for a
/// throw (docs/TABLE.md "Results").
fn ruled_misplays(hand: &TableHand, call: &CallRecord) -> Vec<crate::table::Misplay> {
    if call.verb == MISPLAY {
        hand.misplays().collect()
    } else {
        Vec::new()
    }
}

fn py_call<'py>(py: Python<'py>, hand: &TableHand) -> PyResult<Bound<'py, PyAny>> {
    let Some(call) = hand.call() else {
        return Ok(py.None().into_bound(py));
    };
    let misplay_type = class(py, &MISPLAY_TYPE, "tarabish._views", "Misplay")?;
    let misplays: PyResult<Vec<_>> = ruled_misplays(hand, &call)
        .into_iter()
        .map(|m| misplay_type.call1((m.seat, py_card(py, m.card)?, m.trick)))
        .collect();
    class(py, &CALL_TYPE, "tarabish._views", "CallResult")?.call1((
        verb_string(py, &call),
        call.seat,
        call.correct,
        call.team,
        call.count,
        PyTuple::new(py, misplays?)?,
    ))
}

/// The hand's `HandResult`, None while it runs.
pub fn result<'py>(py: Python<'py>, hand: &TableHand) -> PyResult<Bound<'py, PyAny>> {
    let core = hand.hand();
    let Some(outcome) = core.outcome() else {
        return Ok(py.None().into_bound(py));
    };
    class(py, &RESULT_TYPE, "tarabish._views", "HandResult")?.call1((
        py_outcome(py, outcome)?,
        opt_suit(py, core)?,
        core.caller(),
        PyTuple::new(py, core.points())?,
        PyTuple::new(py, core.score())?,
        py_runs_result(py, hand)?,
        hand.bella(),
        py_tricks(py, core)?,
        py_call(py, hand)?,
    ))
}

/// The fields the observation and the table view share: what `seat` sees of the deal, the
/// auction, the trick in play, declarations and points.
fn seat_view<'py>(py: Python<'py>, info: &InfoSet) -> PyResult<Bound<'py, PyDict>> {
    // R4.4: an announcement names a run; a seat without one announces nothing.
    let announced: [Option<u32>; 4] =
        std::array::from_fn(|s| info.announced(s as u8).filter(|&points| points > 0));
    let sizes: [u32; 4] = std::array::from_fn(|s| info.hand_size(s as u8));
    let visible: Vec<_> = info.hand().iter().collect();
    let auction: PyResult<Vec<_>> = info.auction().map(|(s, id)| py_action(py, s, id)).collect();
    // The keys of every dict this file builds are interned (`intern!`): hashed once, and
    // matched by identity against a dataclass's parameter names, where a new string a call
    // was the larger part of building a view.
    let kwargs = PyDict::new(py);
    kwargs.set_item(intern!(py, "seat"), info.seat())?;
    kwargs.set_item(intern!(py, "dealer"), info.dealer())?;
    kwargs.set_item(intern!(py, "phase"), py_phase(py, info.phase())?)?;
    kwargs.set_item(intern!(py, "to_move"), info.to_move())?;
    kwargs.set_item(intern!(py, "hand"), py_card_tuple(py, &visible)?)?;
    kwargs.set_item(intern!(py, "unseen_kitty"), info.unseen_kitty())?;
    kwargs.set_item(intern!(py, "auction"), PyTuple::new(py, auction?)?)?;
    kwargs.set_item(intern!(py, "trump"), opt_py_suit(py, info.trump())?)?;
    kwargs.set_item(intern!(py, "caller"), info.caller())?;
    kwargs.set_item(intern!(py, "trick_leader"), info.trick_leader())?;
    // The current trick, in play only: a hand ended by a call mid-trick shows none (R8.2).
    let trick = if info.phase() == Phase::Play {
        info.current_trick()
    } else {
        &[]
    };
    kwargs.set_item(intern!(py, "trick"), py_card_tuple(py, trick)?)?;
    kwargs.set_item(intern!(py, "announced"), PyTuple::new(py, announced)?)?;
    kwargs.set_item(intern!(py, "bella"), info.bella())?;
    kwargs.set_item(intern!(py, "points"), PyTuple::new(py, info.points())?)?;
    kwargs.set_item(intern!(py, "hand_sizes"), PyTuple::new(py, sizes)?)?;
    Ok(kwargs)
}

/// `seat`'s `Observation` (docs/ENGINE.md; in manual mode the declarations as made,
/// docs/TABLE.md).
pub fn observation<'py>(
    py: Python<'py>,
    hand: &TableHand,
    seat: u8,
) -> PyResult<Bound<'py, PyAny>> {
    let core = hand.hand();
    let info = InfoSet::of_table(hand, seat);
    let shown: PyResult<Vec<_>> = (0..4u8)
        .map(|s| py_runs(py, info.shown(s).as_slice()))
        .collect();
    let kwargs = seat_view(py, &info)?;
    kwargs.set_item(
        intern!(py, "scores_before"),
        PyTuple::new(py, core.scores_before())?,
    )?;
    kwargs.set_item(intern!(py, "tricks"), py_tricks(py, core)?)?;
    kwargs.set_item(intern!(py, "shown"), PyTuple::new(py, shown?)?)?;
    kwargs.set_item(intern!(py, "runs"), py_runs_result(py, hand)?)?;
    class(py, &OBSERVATION_TYPE, "tarabish._views", "Observation")?.call((), Some(&kwargs))
}

/// Bytes of a tensor value (numpy's `<f4`).
const F32_BYTES: usize = std::mem::size_of::<f32>();

/// `seat`'s information-state tensor as a numpy float32 array.
pub fn tensor<'py>(py: Python<'py>, hand: &TableHand, seat: u8) -> PyResult<Bound<'py, PyAny>> {
    let mut values = [0f32; TENSOR_SIZE];
    write_tensor(&InfoSet::of_table(hand, seat), &mut values);
    // Written straight into the bytearray numpy reads, four bytes a value in one pass (a
    // loop of pushes onto a Vec was four-tenths of this call).
    let bytes = PyByteArray::new_with(py, TENSOR_SIZE * F32_BYTES, |bytes| {
        for (place, value) in bytes.chunks_exact_mut(F32_BYTES).zip(values) {
            place.copy_from_slice(&value.to_le_bytes());
        }
        Ok(())
    })?;
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
    frombuffer.bind(py).call1((bytes, float32.bind(py)))
}

/// `seat`'s information-state string.
pub fn info_string(hand: &TableHand, seat: u8) -> String {
    information_string(&InfoSet::of_table(hand, seat))
}

/// What a person at `seat` sees on the table now (R8.4, docs/TABLE.md "The table view").
pub fn table_view<'py>(py: Python<'py>, hand: &TableHand, seat: u8) -> PyResult<Bound<'py, PyAny>> {
    let core = hand.hand();
    let (tricks_won, last_trick) = tricks_won_and_last(core);
    let shown: PyResult<Vec<_>> = (0..4u8)
        .map(|s| {
            let cards: Vec<Card> = hand.shown(s).cards().iter().collect();
            py_card_tuple(py, &cards)
        })
        .collect();
    let kwargs = seat_view(py, &InfoSet::of_table(hand, seat))?;
    kwargs.set_item(
        intern!(py, "scores"),
        PyTuple::new(py, core.scores_before())?,
    )?;
    match last_trick {
        Some(trick) => kwargs.set_item(intern!(py, "last_trick"), py_trick(py, trick)?)?,
        None => kwargs.set_item(intern!(py, "last_trick"), py.None())?,
    }
    kwargs.set_item(intern!(py, "tricks_won"), PyTuple::new(py, tricks_won)?)?;
    kwargs.set_item(intern!(py, "shown"), PyTuple::new(py, shown?)?)?;
    kwargs.set_item(intern!(py, "bella_forfeited"), hand.bella_forfeited())?;
    let ids = |mask: u64| PyTuple::new(py, ids_of(mask).collect::<Vec<_>>());
    kwargs.set_item(intern!(py, "allowed"), ids(hand.allowed_mask(seat))?)?;
    kwargs.set_item(intern!(py, "legal"), ids(hand.legal_mask(seat))?)?;
    class(py, &TABLE_VIEW_TYPE, "tarabish._views", "TableView")?.call((), Some(&kwargs))
}

/// Each card's record text (`"JH"`), in order.
pub fn card_texts(cards: impl IntoIterator<Item = Card>) -> Vec<String> {
    cards.into_iter().map(|card| card.to_string()).collect()
}

/// Every card's record text as a Python string, by card index, made once: an event names a
/// card or several, and a new string for each was a tenth of building the events.
static CARD_STRINGS: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();

/// `card`'s record text as a Python string (the same object every time).
fn card_string<'py>(py: Python<'py>, card: Card) -> Bound<'py, PyString> {
    let strings = CARD_STRINGS.get_or_init(py, || {
        CardSet::DECK
            .iter()
            .map(|card| PyString::new(py, &card.to_string()).unbind())
            .collect()
    });
    strings[card.index() as usize].bind(py).clone()
}

/// The cards' record texts as a Python list, in order.
fn card_string_list<'py>(
    py: Python<'py>,
    cards: impl IntoIterator<Item = Card>,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyList::new(py, cards.into_iter().map(|card| card_string(py, card)))?.into_any())
}

fn runs_dicts<'py>(py: Python<'py>, runs: &Runs) -> PyResult<Bound<'py, PyList>> {
    let items: PyResult<Vec<_>> = runs
        .as_slice()
        .iter()
        .map(|run| {
            let item = PyDict::new(py);
            item.set_item(intern!(py, "suit"), run.suit.to_string())?;
            item.set_item(intern!(py, "top"), run.top.to_string())?;
            item.set_item(intern!(py, "length"), run.len)?;
            Ok(item)
        })
        .collect();
    PyList::new(py, items?)
}

/// The JSON-ready dict of one event (docs/EVENTS.md "Kinds"); `hand_of(i)` is the state's
/// hand of index `i` in the match (for a call's misplays and `hand_over`'s result).
fn event_dict<'py>(
    py: Python<'py>,
    seq: usize,
    event: &Event,
    hand_of: &dyn Fn(u32) -> TableHand,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item(intern!(py, "seq"), seq)?;
    let set = |key: &Bound<'py, PyString>, value: Bound<'py, PyAny>| out.set_item(key, value);
    let int = |value: u32| value.into_pyobject(py).map(|v| v.into_any());
    let kind = match event.kind {
        EventKind::HandStart {
            hand,
            dealer,
            scores,
        } => {
            set(intern!(py, "hand"), int(hand)?)?;
            set(intern!(py, "dealer"), int(dealer as u32)?)?;
            set(intern!(py, "scores"), PyList::new(py, scores)?.into_any())?;
            intern!(py, "hand_start")
        }
        EventKind::Deal { seat, cards } => {
            set(intern!(py, "seat"), int(seat as u32)?)?;
            set(intern!(py, "cards"), card_string_list(py, cards)?)?;
            intern!(py, "deal")
        }
        EventKind::Pass { seat } => {
            set(intern!(py, "seat"), int(seat as u32)?)?;
            intern!(py, "pass")
        }
        EventKind::Call { seat, suit } => {
            set(intern!(py, "seat"), int(seat as u32)?)?;
            set(
                intern!(py, "suit"),
                suit.to_string().into_pyobject(py)?.into_any(),
            )?;
            intern!(py, "call")
        }
        EventKind::Kitty { seat, cards } => {
            set(intern!(py, "seat"), int(seat as u32)?)?;
            set(intern!(py, "cards"), card_string_list(py, cards)?)?;
            intern!(py, "kitty")
        }
        EventKind::Announce { seat, size } => {
            set(intern!(py, "seat"), int(seat as u32)?)?;
            set(intern!(py, "size"), int(size)?)?;
            intern!(py, "announce")
        }
        EventKind::Show { seat, runs, late } => {
            set(intern!(py, "seat"), int(seat as u32)?)?;
            let cards: CardSet = runs.cards();
            set(intern!(py, "cards"), card_string_list(py, cards.iter())?)?;
            set(intern!(py, "runs"), runs_dicts(py, &runs)?.into_any())?;
            set(
                intern!(py, "late"),
                late.into_pyobject(py)?.to_owned().into_any(),
            )?;
            intern!(py, "show")
        }
        EventKind::Bella { seat, counts } => {
            set(intern!(py, "seat"), int(seat as u32)?)?;
            set(
                intern!(py, "counts"),
                counts.into_pyobject(py)?.to_owned().into_any(),
            )?;
            intern!(py, "bella")
        }
        EventKind::Play { seat, card } => {
            set(intern!(py, "seat"), int(seat as u32)?)?;
            set(intern!(py, "card"), card_string(py, card).into_any())?;
            intern!(py, "play")
        }
        EventKind::Trick { trick, record } => {
            set(intern!(py, "trick"), int(trick as u32)?)?;
            set(intern!(py, "leader"), int(record.leader as u32)?)?;
            set(intern!(py, "cards"), card_string_list(py, record.cards)?)?;
            set(intern!(py, "winner"), int(record.winner as u32)?)?;
            set(intern!(py, "points"), int(record.points)?)?;
            intern!(py, "trick")
        }
        EventKind::Runs { seat, points } => {
            set(intern!(py, "seat"), seat.into_pyobject(py)?.into_any())?;
            set(intern!(py, "points"), int(points)?)?;
            intern!(py, "runs")
        }
        EventKind::CallMade { hand, call } => {
            set(intern!(py, "seat"), int(call.seat as u32)?)?;
            if call.verb == MISPLAY {
                set(
                    intern!(py, "correct"),
                    call.correct.into_pyobject(py)?.into_any(),
                )?;
            }
            set(intern!(py, "team"), int(call.team as u32)?)?;
            set(intern!(py, "count"), int(call.count)?)?;
            if call.verb == MISPLAY {
                let hand = hand_of(hand);
                let misplays: PyResult<Vec<_>> = ruled_misplays(&hand, &call)
                    .into_iter()
                    .map(|m| {
                        let item = PyDict::new(py);
                        item.set_item(intern!(py, "seat"), m.seat)?;
                        item.set_item(intern!(py, "card"), card_string(py, m.card))?;
                        item.set_item(intern!(py, "trick"), m.trick)?;
                        Ok(item)
                    })
                    .collect();
                set(
                    intern!(py, "misplays"),
                    PyList::new(py, misplays?)?.into_any(),
                )?;
            }
            verb_string(py, &call)
        }
        EventKind::HandOver { hand } => {
            let result = result(py, &hand_of(hand))?;
            set(intern!(py, "result"), result.call_method0("to_dict")?)?;
            intern!(py, "hand_over")
        }
        EventKind::MatchOver { winner, scores } => {
            set(intern!(py, "winner"), int(winner as u32)?)?;
            set(intern!(py, "scores"), PyList::new(py, scores)?.into_any())?;
            intern!(py, "match_over")
        }
    };
    out.set_item(intern!(py, "kind"), kind)?;
    Ok(out)
}

/// The events `seat` (`None`: a spectator) is told, with `seq > since` (docs/EVENTS.md):
/// `events` are those from `seq = skipped + 1` on. `hand_of(i)` is the hand of index `i` in
/// the match.
pub fn events_list<'py>(
    py: Python<'py>,
    events: &[Event],
    skipped: u64,
    seat: Option<u8>,
    since: u64,
    hand_of: &dyn Fn(u32) -> TableHand,
) -> PyResult<Bound<'py, PyList>> {
    let mut items = Vec::new();
    for (index, event) in events.iter().enumerate() {
        let seq = skipped as usize + index + 1;
        if seq as u64 > since && event.is_for(seat) {
            items.push(event_dict(py, seq, event, hand_of)?);
        }
    }
    PyList::new(py, items)
}
