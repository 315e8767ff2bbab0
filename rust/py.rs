//! The Python bindings (`tarabish._core`), the only code that knows Python exists. Thin
//! wrappers: ints and masks cross the boundary, the Python values (`Card`, `Suit`, views) are
//! the ones defined in `python/tarabish/`, and every core error goes through [`to_py_err`].

mod batch;
mod convert;
mod lock;
mod primitives;
mod rules;
mod search;
mod solve;
mod states;
mod vector;
mod views;

use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::cpu::KernelSet;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // A kernel TARABISH_KERNEL names that the CPU lacks refuses the import, naming the missing
    // extension, rather than failing later inside a search.
    KernelSet::selected().map_err(|error| PyImportError::new_err(error.to_string()))?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(kernels, m)?)?;
    m.add("TENSOR_SIZE", crate::observe::TENSOR_SIZE)?;
    m.add("MAX_THREADS", crate::sim::MAX_THREADS)?;
    primitives::register(m)?;
    states::register(m)?;
    batch::register(m)?;
    solve::register(m)?;
    vector::register(m)?;
    Ok(())
}

/// The kernels this CPU runs (slowest first) and the one in use: `{"running": "avx512",
/// "available": ["portable", "bmi2", "avx512"]}` (rust/cpu.rs).
#[pyfunction]
fn kernels(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let kernels = PyDict::new(py);
    kernels.set_item("running", KernelSet::chosen().name())?;
    let available: Vec<&str> = KernelSet::available().map(KernelSet::name).collect();
    kernels.set_item("available", available)?;
    Ok(kernels)
}
