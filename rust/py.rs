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

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TENSOR_SIZE", crate::observe::TENSOR_SIZE)?;
    m.add("MAX_THREADS", crate::sim::MAX_THREADS)?;
    primitives::register(m)?;
    states::register(m)?;
    batch::register(m)?;
    solve::register(m)?;
    vector::register(m)?;
    Ok(())
}
