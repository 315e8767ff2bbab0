//! `tarabish.Rules` into the core's [`Rules`] (RULES.md R9): every option is read from the
//! Python object by its field name and checked here, one line a field in [`read_rules`]. There
//! is no second, packed form of the options to trust: a hand-made or tampered `Rules` (a
//! crafted pickle, `object.__setattr__`) either carries valid R9 values or is refused with
//! `InvalidInputError`.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyInt, PyString, PyType};

use super::convert::{class, describe, invalid};
use crate::rules::{Declarations, Rules};

static RULES_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static DEFAULT_RULES: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The largest `target` or `forced_at` (R9; python/tarabish/_rules.py checks the same).
const MAX_POINTS_OPTION: u64 = u16::MAX as u64;

/// One R9 option's value as the core holds it, read from a `Rules` attribute and checked.
trait RuleOption: Sized {
    fn from_py(value: &Bound<'_, PyAny>) -> Option<Self>;
    /// What the option must be, for the error message.
    const EXPECTED: &'static str;
}

impl RuleOption for bool {
    fn from_py(value: &Bound<'_, PyAny>) -> Option<bool> {
        value.cast::<PyBool>().ok().map(|flag| flag.is_true())
    }
    const EXPECTED: &'static str = "True or False";
}

/// `target`, `forced_at`: whole numbers 1..65535.
impl RuleOption for u16 {
    fn from_py(value: &Bound<'_, PyAny>) -> Option<u16> {
        if !value.is_exact_instance_of::<PyInt>() {
            return None;
        }
        let number: u64 = value.extract().ok()?;
        (1..=MAX_POINTS_OPTION)
            .contains(&number)
            .then_some(number as u16)
    }
    const EXPECTED: &'static str = "a whole number 1..65535";
}

impl RuleOption for Option<u16> {
    fn from_py(value: &Bound<'_, PyAny>) -> Option<Option<u16>> {
        if value.is_none() {
            return Some(None);
        }
        u16::from_py(value).map(Some)
    }
    const EXPECTED: &'static str = "None or a whole number 1..65535";
}

/// `declarations`: whether it is "manual" (R4.4).
struct ManualDeclarations(bool);

impl RuleOption for ManualDeclarations {
    fn from_py(value: &Bound<'_, PyAny>) -> Option<ManualDeclarations> {
        match value.cast::<PyString>().ok()?.to_str().ok()? {
            "auto" => Some(ManualDeclarations(false)),
            "manual" => Some(ManualDeclarations(true)),
            _ => None,
        }
    }
    const EXPECTED: &'static str = "'auto' or 'manual'";
}

/// The option `name` of a `Rules` object, checked.
fn option<T: RuleOption>(rules: &Bound<'_, PyAny>, name: &Bound<'_, PyString>) -> PyResult<T> {
    let value = rules.getattr(name)?;
    T::from_py(&value).ok_or_else(|| {
        invalid(
            rules.py(),
            format!(
                "Rules.{name} must be {}, got {} (R9)",
                T::EXPECTED,
                describe(&value)
            ),
        )
    })
}

/// The core form of a `Rules` object.
fn read_rules(obj: &Bound<'_, PyAny>) -> PyResult<Rules> {
    let py = obj.py();
    let ManualDeclarations(manual) = option(obj, intern!(py, "declarations"))?;
    Ok(Rules {
        target: option(obj, intern!(py, "target"))?,
        dealer_may_pass: option(obj, intern!(py, "dealer_may_pass"))?,
        forced_at: option(obj, intern!(py, "forced_at"))?,
        team_runs: option(obj, intern!(py, "team_runs"))?,
        head_plain: option(obj, intern!(py, "head_plain"))?,
        undertrump_optional: option(obj, intern!(py, "undertrump_optional"))?,
        partner_exempt: option(obj, intern!(py, "partner_exempt"))?,
        half_bait_is_bait: option(obj, intern!(py, "half_bait_is_bait"))?,
        declarations: if manual {
            Declarations::Manual
        } else {
            Declarations::Auto
        },
        first_bell_ok: option(obj, intern!(py, "first_bell_ok"))?,
        late_twenty: option(obj, intern!(py, "late_twenty"))?,
        enforce_legal_play: option(obj, intern!(py, "enforce_legal_play"))?,
    })
}

/// The rules object (or the default `Rules()` for None) and its core form: every R9 option,
/// table mode's too (docs/TABLE.md).
pub fn rules_arg<'py>(
    py: Python<'py>,
    obj: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, Rules)> {
    let Some(rules_obj) = obj.filter(|obj| !obj.is_none()) else {
        let default = DEFAULT_RULES.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
            Ok(class(py, &RULES_TYPE, "tarabish._rules", "Rules")?
                .call0()?
                .unbind())
        })?;
        return Ok((default.bind(py).clone(), Rules::default()));
    };
    if !rules_obj.is_instance(class(py, &RULES_TYPE, "tarabish._rules", "Rules")?)? {
        return Err(invalid(
            py,
            format!(
                "rules must be a tarabish.Rules, got {}",
                describe(rules_obj)
            ),
        ));
    }
    Ok((rules_obj.clone(), read_rules(rules_obj)?))
}

/// The core rules for the primitives: `None` is the default without touching Python.
pub fn primitive_rules(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
    match obj {
        Some(obj) if !obj.is_none() => Ok(rules_arg(py, Some(obj))?.1),
        _ => Ok(Rules::default()),
    }
}
