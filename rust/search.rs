//! Search under hidden information (docs/SEARCH.md): single-observer ISMCTS ([`ismcts`]) over
//! worlds drawn exactly uniformly from one seat's information set ([`worlds`]), each iteration
//! played out on card masks ([`rollout`]). Each has its AVX-512 kernel beside it
//! (`name/avx512.rs`), chosen at run time, with a scalar twin and a test that the two agree.

pub(crate) mod ismcts;
pub(crate) mod rollout;
pub(crate) mod worlds;
