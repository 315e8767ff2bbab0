//! Conversions between Python values and the core: cards, suits, seats, and the one
//! conversion of [`Error`] into `InvalidInputError` / `IllegalActionError`.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};

use crate::cards::{parse_cards, too_many_cards, Card, CardSet, Suit, MAX_CARDS};
use crate::error::Error;

static INVALID_INPUT: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static ILLEGAL_ACTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static CARD_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static SUIT_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// A Python class or value of the package, imported once.
pub fn class<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyType>>,
    module: &str,
    name: &str,
) -> PyResult<&'py Bound<'py, PyType>> {
    cell.import(py, module, name)
}

/// The one conversion of a core error into a Python exception.
pub fn to_py_err(py: Python<'_>, error: Error) -> PyErr {
    let build = || -> PyResult<PyErr> {
        Ok(match &error {
            Error::Illegal {
                action,
                rule,
                state,
                ..
            } => {
                let kwargs = PyDict::new(py);
                kwargs.set_item("action", action)?;
                kwargs.set_item("rule", *rule)?;
                kwargs.set_item("state", state)?;
                let class = class(
                    py,
                    &ILLEGAL_ACTION,
                    "tarabish._errors",
                    "IllegalActionError",
                )?;
                PyErr::from_value(class.call((error.to_string(),), Some(&kwargs))?)
            }
            _ => invalid(py, error.to_string()),
        })
    };
    build().unwrap_or_else(|err| err)
}

/// An `InvalidInputError` with `message`.
pub fn invalid(py: Python<'_>, message: impl Into<String>) -> PyErr {
    let message = message.into();
    match class(py, &INVALID_INPUT, "tarabish._errors", "InvalidInputError")
        .and_then(|class| class.call1((message,)))
    {
        Ok(value) => PyErr::from_value(value),
        Err(err) => err,
    }
}

/// Interned Python objects (the 36 cards, the 4 suits) found by identity: a collision-free
/// multiplicative hash of their addresses into their index, checked against the address.
struct Interned {
    objects: Py<PyTuple>,
    /// The objects' addresses, by index: `objects` holds them, so they stay valid and
    /// distinct, and a lookup compares an address here instead of fetching the tuple's item
    /// through the C API.
    addresses: Box<[usize]>,
    /// Odd multiplier of the hash; 0 when no multiplier tried was collision-free, and then a
    /// lookup scans the objects (still exact, a little slower).
    multiplier: usize,
    /// `slot -> index + 1`, 0 for an empty slot.
    slots: Box<[u8; SLOTS]>,
}

const SLOT_BITS: u32 = 10;
const SLOTS: usize = 1 << SLOT_BITS;

fn slot(pointer: usize, multiplier: usize) -> usize {
    pointer.wrapping_mul(multiplier) >> (usize::BITS - SLOT_BITS)
}

impl Interned {
    fn new(objects: Bound<'_, PyTuple>) -> Interned {
        let addresses: Box<[usize]> = objects.iter().map(|o| o.as_ptr() as usize).collect();
        let mut slots = Box::new([0u8; SLOTS]);
        let mut multiplier = 0;
        // 36 keys in 1024 slots: about half of all multipliers are collision-free.
        let mut candidate: usize = 0x9E37_79B9_7F4A_7C15u64 as usize | 1;
        for _ in 0..64 {
            slots.fill(0);
            let fits = addresses.iter().enumerate().all(|(index, &p)| {
                let entry = &mut slots[slot(p, candidate)];
                let free = *entry == 0;
                *entry = index as u8 + 1;
                free
            });
            if fits {
                multiplier = candidate;
                break;
            }
            candidate = (crate::rng::mix64(candidate as u64) as usize) | 1;
        }
        Interned {
            objects: objects.unbind(),
            addresses,
            multiplier,
            slots,
        }
    }

    #[inline]
    fn index_of(&self, obj: &Bound<'_, PyAny>) -> Option<usize> {
        let address = obj.as_ptr() as usize;
        if self.multiplier == 0 {
            return self.addresses.iter().position(|&known| known == address);
        }
        let found = self.slots[slot(address, self.multiplier)].checked_sub(1)? as usize;
        (self.addresses.get(found) == Some(&address)).then_some(found)
    }
}

static CARDS: PyOnceLock<Interned> = PyOnceLock::new();
static SUITS: PyOnceLock<Interned> = PyOnceLock::new();

fn interned<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Interned>,
    module: &str,
    name: &str,
) -> PyResult<&'py Interned> {
    cell.get_or_try_init(py, || -> PyResult<Interned> {
        let all = py.import(module)?.getattr(name)?;
        Ok(Interned::new(PyTuple::new(
            py,
            all.try_iter()?.collect::<PyResult<Vec<_>>>()?,
        )?))
    })
}

/// The Python `Card` of a core card (the interned instances of `tarabish._cards.DECK`).
pub fn py_card<'py>(py: Python<'py>, card: Card) -> PyResult<Bound<'py, PyAny>> {
    let cards = interned(py, &CARDS, "tarabish._cards", "DECK")?;
    cards.objects.bind(py).get_item(card.index() as usize)
}

/// The cards of a set as a Python list of `Card`, by index.
pub fn py_cards<'py>(py: Python<'py>, cards: CardSet) -> PyResult<Bound<'py, PyAny>> {
    let list: PyResult<Vec<Bound<'py, PyAny>>> = cards.iter().map(|c| py_card(py, c)).collect();
    Ok(pyo3::types::PyList::new(py, list?)?.into_any())
}

/// Cards in a given order as a Python tuple.
pub fn py_card_tuple<'py>(py: Python<'py>, cards: &[Card]) -> PyResult<Bound<'py, PyTuple>> {
    let items: PyResult<Vec<Bound<'py, PyAny>>> = cards.iter().map(|&c| py_card(py, c)).collect();
    PyTuple::new(py, items?)
}

/// The Python `Suit` member of a core suit.
pub fn py_suit<'py>(py: Python<'py>, suit: Suit) -> PyResult<Bound<'py, PyAny>> {
    let suits = interned(py, &SUITS, "tarabish._cards", "Suit")?;
    suits.objects.bind(py).get_item(suit as usize)
}

/// One card from a `Card` or card text.
pub fn card_arg(obj: &Bound<'_, PyAny>) -> PyResult<Card> {
    let py = obj.py();
    // Cards are interned (python/tarabish/_cards.py), so a card is found by identity.
    if let Some(index) = interned(py, &CARDS, "tarabish._cards", "DECK")?.index_of(obj) {
        return Ok(Card::from_index_unchecked(index as u8));
    }
    if let Ok(text) = obj.cast::<PyString>() {
        return text_of(text).parse::<Card>().map_err(|e| to_py_err(py, e));
    }
    if obj.is_instance(class(py, &CARD_TYPE, "tarabish._cards", "Card")?)? {
        let index = int_arg(&obj.getattr(pyo3::intern!(py, "index"))?, "Card.index", 35)?;
        return Ok(Card::from_index_unchecked(index as u8));
    }
    Err(invalid(
        py,
        format!(
            "expected a Card or card text like 'JH', got {}",
            describe(obj)
        ),
    ))
}

/// Cards from one string (`"JH 9H"`) or an iterable of cards / card texts, in order.
pub fn cards_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    let py = obj.py();
    let deck = interned(py, &CARDS, "tarabish._cards", "DECK")?;
    if let Ok(list) = obj.cast::<PyList>() {
        return at_most_a_deck(py, deck, list.iter().map(Ok));
    }
    if let Ok(text) = obj.cast::<PyString>() {
        return parse_cards(&text_of(text)).map_err(|e| to_py_err(py, e));
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return at_most_a_deck(py, deck, tuple.iter().map(Ok));
    }
    let iter = obj.try_iter().map_err(|_| {
        invalid(
            py,
            format!("expected cards (a list or a string), got {}", describe(obj)),
        )
    })?;
    at_most_a_deck(py, deck, iter)
}

/// The cards of an iterator of cards or card texts ([`card_arg`]), refused as soon as there
/// are more than a deck's (R1.1). An interned card is looked up here, in the loop: its card
/// stays in a register, where [`card_arg`]'s whole `PyResult` would be written out and read
/// back for every card (a stall that was most of a short list's time).
fn at_most_a_deck<'py>(
    py: Python<'py>,
    deck: &Interned,
    items: impl Iterator<Item = PyResult<Bound<'py, PyAny>>>,
) -> PyResult<Vec<Card>> {
    let mut out = Vec::with_capacity(items.size_hint().0.min(MAX_CARDS));
    for item in items {
        if out.len() == MAX_CARDS {
            return Err(to_py_err(py, too_many_cards()));
        }
        let item = item?;
        let card = match deck.index_of(&item) {
            Some(index) => Card::from_index_unchecked(index as u8),
            None => card_arg(&item)?,
        };
        out.push(card);
    }
    Ok(out)
}

/// The text of a Python string; a lone surrogate (not Unicode text) becomes U+FFFD, which no
/// grammar of R0 accepts, so it is refused as the bad text it is.
pub fn text_of<'a>(text: &'a Bound<'_, PyString>) -> std::borrow::Cow<'a, str> {
    text.to_string_lossy()
}

/// A suit from a `Suit` or a suit letter.
pub fn suit_arg(obj: &Bound<'_, PyAny>) -> PyResult<Suit> {
    let py = obj.py();
    if let Some(index) = interned(py, &SUITS, "tarabish._cards", "Suit")?.index_of(obj) {
        return Ok(Suit::from_index(index as u8));
    }
    if let Ok(text) = obj.cast::<PyString>() {
        return text_of(text).parse::<Suit>().map_err(|e| to_py_err(py, e));
    }
    if obj.is_instance(class(py, &SUIT_TYPE, "tarabish._cards", "Suit")?)? {
        let index: u8 = obj.extract()?;
        return Ok(Suit::from_index(index));
    }
    Err(invalid(
        py,
        format!("expected a Suit or a suit letter, got {}", describe(obj)),
    ))
}

/// A whole number in `0..=max` (not a bool), or an `InvalidInputError` naming `what`.
pub fn int_arg(obj: &Bound<'_, PyAny>, what: &str, max: u64) -> PyResult<u64> {
    let py = obj.py();
    let bad = || {
        invalid(
            py,
            format!(
                "{what} must be a whole number 0..{max}, got {}",
                describe(obj)
            ),
        )
    };
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad());
    }
    match obj.extract::<u64>() {
        Ok(value) if value <= max && obj.is_instance_of::<pyo3::types::PyInt>() => Ok(value),
        _ => Err(bad()),
    }
}

/// An optional seat argument (0 when absent).
pub fn opt_seat_arg(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<u8> {
    obj.map_or(Ok(0), |obj| Ok(int_arg(obj, what, 3)? as u8))
}

/// An optional pair of team numbers ([0, 0] when absent).
pub fn opt_team_pair_arg(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<[u32; 2]> {
    obj.map_or(Ok([0, 0]), |obj| team_pair_arg(obj, what))
}

/// A deal as four Python lists of nine `Card`s, in the order received.
pub fn py_deal<'py>(py: Python<'py>, deal: &crate::deal::Deal) -> PyResult<Bound<'py, PyList>> {
    let seats: PyResult<Vec<_>> = deal
        .iter()
        .map(|cards| PyList::new(py, py_card_tuple(py, cards)?))
        .collect();
    PyList::new(py, seats?)
}

/// Two whole numbers, one a team (`what`: "points", "scores_before" …).
pub fn team_pair_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[u32; 2]> {
    let py = obj.py();
    let bad = || {
        invalid(
            py,
            format!(
                "{what} are two whole numbers, one a team; got {}",
                describe(obj)
            ),
        )
    };
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<pyo3::types::PyBytes>()
        || obj.is_instance_of::<PyDict>()
    {
        return Err(bad());
    }
    let items: Vec<Bound<'_, PyAny>> = obj
        .try_iter()
        .and_then(|it| it.collect::<PyResult<Vec<_>>>())
        .map_err(|_| bad())?;
    if items.len() != 2 {
        return Err(bad());
    }
    // docs/ENGINE.md: scores and points are 0..2**30-1, so match totals never overflow.
    let max = (1 << 30) - 1;
    Ok([
        int_arg(&items[0], what, max)? as u32,
        int_arg(&items[1], what, max)? as u32,
    ])
}

/// A short description of a Python value for error messages: its repr, cut, and its type.
pub fn describe(obj: &Bound<'_, PyAny>) -> String {
    let type_name = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    match obj.repr() {
        Ok(repr) => {
            let text = repr.to_string();
            let short: String = text.chars().take(60).collect();
            format!("{short} ({type_name})")
        }
        Err(_) => type_name,
    }
}
