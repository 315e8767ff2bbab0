//! The core of `tarabish.vector` (python/tarabish/vector.py): `VectorCore`, the vectorized
//! environment of rust/vector.rs writing into numpy arrays the Python side made; `self_play`
//! (rust/self_play.rs) into arrays made here; the compact layout (rust/compact.rs) for
//! `unpack`. The observation arrays are kept and checked once; the results of a step (rewards,
//! ends, scores) go into arrays given with each call, checked then (writable, C order, dtype,
//! shape, and apart from every other array of the call); the work runs with the interpreter
//! released.

use std::sync::{Mutex, PoisonError};

use pyo3::buffer::PyUntypedBuffer;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

use super::batch::batch_args;
use super::convert::{int_arg, invalid, to_py_err};
use super::rules::rules_arg;
use crate::compact::{Kind, COMPACT_SIZE, LAYOUT};
use crate::observe::{MAX_TEAM_POINTS, SCORE_SCALE, TENSOR_SIZE};
use crate::registry::BotSpec;
use crate::self_play::{play_logs, row_starts, write_rows, Rows};
use crate::sim::{Batch, MAX_THREADS};
use crate::state::NUM_ACTIONS;
use crate::vector::{Config, Encoding, Episode, Outputs, VectorEnv};

/// The element kinds of the arrays crossing here, by their buffer format letters.
const SIGNED: &str = "bhilqn";
const UNSIGNED: &str = "BHILQN";
const FLOAT: &str = "f";
const BOOL: &str = "?";

/// The buffer of `array`, checked: writable, C order, items of `size` bytes whose format is
/// one of `formats`, and the `shape` given.
fn out_buffer(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    what: &str,
    (formats, size): (&str, usize),
    shape: &[usize],
) -> PyResult<PyUntypedBuffer> {
    let buffer = PyUntypedBuffer::get(array)
        .map_err(|_| invalid(py, format!("{what}: a numpy array is needed")))?;
    let format = buffer.format().to_bytes();
    let letter = format.last().map_or(' ', |&b| b as char);
    if buffer.readonly()
        || !buffer.is_c_contiguous()
        || buffer.item_size() != size
        || !formats.contains(letter)
        || buffer.shape() != shape
    {
        return Err(invalid(
            py,
            format!("{what}: a writable C-order array of shape {shape:?}, {size}-byte items"),
        ));
    }
    Ok(buffer)
}

fn encoding_arg(py: Python<'_>, encoding: &str) -> PyResult<Encoding> {
    match encoding {
        "tensor" => Ok(Encoding::Tensor),
        "compact" => Ok(Encoding::Compact),
        other => Err(invalid(
            py,
            format!("encoding is \"tensor\" or \"compact\", got {other:?}"),
        )),
    }
}

fn threads_arg(py: Python<'_>, threads: usize) -> PyResult<usize> {
    if threads > MAX_THREADS {
        return Err(invalid(
            py,
            format!("threads must be 0 (all cores) to {MAX_THREADS}, got {threads}"),
        ));
    }
    Ok(threads)
}

/// The observation array's item format and size under `encoding`, and its row width.
fn observation_items(encoding: Encoding) -> ((&'static str, usize), usize) {
    match encoding {
        Encoding::Tensor => ((FLOAT, 4), TENSOR_SIZE),
        Encoding::Compact => ((UNSIGNED, 1), COMPACT_SIZE),
    }
}

/// The vectorized environment over the observation arrays it writes in place
/// (python/tarabish/vector.py makes them and keeps them; they are checked here once).
#[pyclass(name = "VectorCore", module = "tarabish._core", frozen)]
pub struct PyVectorCore {
    env: Mutex<VectorEnv>,
    /// The number of games.
    games: usize,
    /// The kept arrays' pointers; those of a step's results are null until a call gives them.
    kept: Outputs,
    /// The kept arrays' buffers, held so the arrays stay alive and in place.
    buffers: Vec<PyUntypedBuffer>,
}

/// The arrays of one call's results, in the order of `RESULTS`.
const RESULTS: [&str; 4] = ["reward", "terminated", "hand_over", "score"];

/// The byte range of `buffer`'s memory.
fn span(buffer: &PyUntypedBuffer) -> (usize, usize) {
    let start = buffer.buf_ptr() as usize;
    (start, start + buffer.len_bytes())
}

/// The first of the first `among` buffers whose memory overlaps another's of `buffers`.
fn first_overlap<'a>(
    buffers: impl Iterator<Item = &'a PyUntypedBuffer>,
    among: usize,
) -> Option<usize> {
    let spans: Vec<(usize, usize)> = buffers.map(span).collect();
    (0..among.min(spans.len())).find(|&k| {
        let (start, end) = spans[k];
        spans
            .iter()
            .enumerate()
            .any(|(j, &(other_start, other_end))| j != k && start < other_end && other_start < end)
    })
}

impl PyVectorCore {
    /// The result arrays of a call (`RESULTS`, a row a game), checked, and the outputs with
    /// them. The Python side passes new arrays at every step, so that what a step returns is
    /// the caller's to keep without a copy. Refused where one shares memory with another
    /// array of the call (the kept arrays, `inputs`): a step's threads would write what
    /// another array holds.
    fn results(
        &self,
        py: Python<'_>,
        arrays: &[Bound<'_, PyAny>],
        inputs: &[&PyUntypedBuffer],
    ) -> PyResult<(Outputs, Vec<PyUntypedBuffer>)> {
        let n = self.games;
        let specs: [((&str, usize), &[usize]); 4] = [
            ((FLOAT, 4), &[n]),
            ((BOOL, 1), &[n]),
            ((BOOL, 1), &[n]),
            ((SIGNED, 4), &[n, 2]),
        ];
        if arrays.len() != RESULTS.len() {
            return Err(invalid(
                py,
                format!("results: the {} arrays {RESULTS:?}", RESULTS.len()),
            ));
        }
        let results = arrays
            .iter()
            .zip(RESULTS.iter().zip(&specs))
            .map(|(array, (what, (items, shape)))| out_buffer(py, array, what, *items, shape))
            .collect::<PyResult<Vec<_>>>()?;
        let all = results
            .iter()
            .chain(self.buffers.iter())
            .chain(inputs.iter().copied());
        if let Some(k) = first_overlap(all, results.len()) {
            return Err(invalid(
                py,
                format!(
                    "{}: an array of its own, sharing no memory with the others",
                    RESULTS[k]
                ),
            ));
        }
        let ptr = |k: usize| results[k].buf_ptr();
        let out = Outputs {
            reward: ptr(0) as *mut f32,
            terminated: ptr(1) as *mut bool,
            hand_over: ptr(2) as *mut bool,
            score: ptr(3) as *mut i32,
            ..self.kept
        };
        Ok((out, results))
    }

    /// Runs `work` on the environment writing into `out`, with the interpreter released (the
    /// lock is taken and given back inside, so a thread waiting for it never holds the
    /// interpreter).
    fn with_env<T: Send>(
        &self,
        py: Python<'_>,
        out: Outputs,
        work: impl FnOnce(&mut VectorEnv, Outputs) -> T + Send,
    ) -> T {
        py.detach(|| {
            let mut env = self.env.lock().unwrap_or_else(PoisonError::into_inner);
            work(&mut env, out)
        })
    }
}

#[pymethods]
impl PyVectorCore {
    /// `num_envs` games; `controlled` the seats the caller plays, the others played by the bot
    /// spec `opponents`; `arrays` the kept arrays: observation, action mask, seat.
    #[new]
    #[pyo3(signature = (num_envs, *, rules, controlled, opponents, episode, encoding, threads, seed, arrays))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        rules: Option<&Bound<'_, PyAny>>,
        controlled: Vec<u8>,
        opponents: Option<String>,
        episode: &str,
        encoding: &str,
        threads: usize,
        seed: &Bound<'_, PyAny>,
        arrays: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<PyVectorCore> {
        let (_, rules) = rules_arg(py, rules)?;
        if rules.is_table_mode() {
            return Err(invalid(
                py,
                "the vectorized environment plays auto-mode hands (R4.4 auto declarations, \
                 R8 legal play enforced)",
            ));
        }
        let mut seats = [false; 4];
        for &seat in &controlled {
            match seats.get_mut(seat as usize) {
                Some(slot) if !*slot => *slot = true,
                _ => {
                    return Err(invalid(
                        py,
                        format!("controlled: distinct seats 0..3, got {controlled:?}"),
                    ))
                }
            }
        }
        if controlled.is_empty() {
            return Err(invalid(py, "controlled: at least one seat"));
        }
        let opponents = opponents
            .map(|text| BotSpec::parse(&text).map_err(|e| to_py_err(py, e)))
            .transpose()?;
        if opponents.is_none() && controlled.len() < 4 {
            return Err(invalid(
                py,
                "opponents: a bot spec is needed to play the seats not in controlled",
            ));
        }
        let episode = match episode {
            "hand" => Episode::Hand,
            "match" => Episode::Match,
            other => {
                return Err(invalid(
                    py,
                    format!("episode is \"hand\" or \"match\", got {other:?}"),
                ))
            }
        };
        let encoding = encoding_arg(py, encoding)?;
        let threads = threads_arg(py, threads)?;
        let seed = int_arg(seed, "seed", u64::MAX)?;
        let n = num_envs;
        let (observation, width) = observation_items(encoding);
        let specs: [(&str, (&str, usize), Vec<usize>); 3] = [
            ("observation", observation, vec![n, width]),
            ("action_mask", (SIGNED, 1), vec![n, NUM_ACTIONS as usize]),
            ("seat", (SIGNED, 8), vec![n]),
        ];
        if arrays.len() != specs.len() {
            return Err(invalid(
                py,
                "arrays: the observation, action mask and seat arrays",
            ));
        }
        let buffers = arrays
            .iter()
            .zip(&specs)
            .map(|(array, (what, items, shape))| out_buffer(py, array, what, *items, shape))
            .collect::<PyResult<Vec<_>>>()?;
        let ptr = |k: usize| buffers[k].buf_ptr();
        if first_overlap(buffers.iter(), buffers.len()).is_some() {
            return Err(invalid(py, "arrays: three arrays sharing no memory"));
        }
        let kept = Outputs {
            observation: ptr(0) as *mut u8,
            action_mask: ptr(1) as *mut i8,
            seat: ptr(2) as *mut i64,
            reward: std::ptr::null_mut(),
            terminated: std::ptr::null_mut(),
            hand_over: std::ptr::null_mut(),
            score: std::ptr::null_mut(),
        };
        let config = Config {
            rules,
            controlled: seats,
            opponents,
            episode,
            encoding,
        };
        Ok(PyVectorCore {
            env: Mutex::new(VectorEnv::new(n, config, seed, threads)),
            games: n,
            kept,
            buffers,
        })
    }

    /// Starts a new episode in every game (`seed`: as a new vector seeded so), its results
    /// (all zero) written into `results`.
    #[pyo3(signature = (results, seed=None))]
    fn reset(
        &self,
        py: Python<'_>,
        results: Vec<Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let seed = seed
            .filter(|s| !s.is_none())
            .map(|s| int_arg(s, "seed", u64::MAX))
            .transpose()?;
        let (out, held) = self.results(py, &results, &[])?;
        // SAFETY: the arrays were checked to hold a row a game, apart from one another, and
        // are kept alive by `buffers` and `held`; the lock keeps other calls out while they
        // are written.
        self.with_env(py, out, |env, out| unsafe { env.reset(seed, out) });
        drop(held);
        Ok(())
    }

    /// One step in every game; `actions` an int64 array, one action a game; the step's
    /// rewards, ends and scores written into `results`. A bad or illegal action raises and
    /// changes nothing.
    fn step(
        &self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        results: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let n = self.games;
        let buffer = PyUntypedBuffer::get(actions)
            .ok()
            .filter(|b| {
                b.is_c_contiguous() && b.item_size() == 8 && b.shape() == [n] && {
                    let letter = b.format().to_bytes().last().map_or(' ', |&c| c as char);
                    SIGNED.contains(letter)
                }
            })
            .ok_or_else(|| invalid(py, format!("actions: an int64 array of shape ({n},)")))?;
        let (out, held) = self.results(py, &results, &[&buffer])?;
        let address = buffer.buf_ptr() as usize;
        let result = self.with_env(py, out, |env, out| {
            // SAFETY: the buffer holds n int64 and stays alive (held by `buffer`) for the call;
            // no output array shares its memory.
            let actions = unsafe { std::slice::from_raw_parts(address as *const i64, n) };
            env.check(actions)?;
            // SAFETY: as in `reset`; the actions passed the check.
            unsafe { env.step(actions, out) };
            Ok(())
        });
        drop((buffer, held));
        result.map_err(|e| to_py_err(py, e))
    }

    /// Game `i`'s episode so far: (seed, first dealer, actions as bytes).
    fn record<'py>(&self, py: Python<'py>, i: usize) -> PyResult<(u64, u8, Bound<'py, PyBytes>)> {
        let env = self.env.lock().unwrap_or_else(PoisonError::into_inner);
        let (seed, dealer, actions) = env
            .record(i)
            .ok_or_else(|| invalid(py, format!("env index 0..{}, got {i}", env.len())))?;
        Ok((seed, dealer, PyBytes::new(py, &actions)))
    }
}

/// Every decision of `hands` hands played by `bots` (one spec a seat) as a dict of numpy
/// arrays, one row a decision: `hand`, `seat`, `observation`, `action_mask`, `action`,
/// `score` (rust/self_play.rs).
#[pyfunction]
#[pyo3(signature = (hands, bots, *, seed, encoding, rules=None, threads=0))]
fn self_play<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    bots: Vec<String>,
    seed: &Bound<'py, PyAny>,
    encoding: &str,
    rules: Option<&Bound<'py, PyAny>>,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let hands = int_arg(hands, "hands", u32::MAX as u64)?;
    let (seed, rules, seats) = batch_args::<4>(
        py,
        (0, hands),
        seed,
        &bots,
        rules,
        threads,
        "one spec a seat (four)",
    )?;
    let encoding = encoding_arg(py, encoding)?;
    if rules.is_table_mode() {
        return Err(invalid(
            py,
            "self_play plays auto-mode hands (R4.4 auto declarations, R8 legal play enforced)",
        ));
    }
    let batch = Batch {
        seed,
        rules,
        bots: seats,
    };
    let logs = py.detach(|| play_logs(&batch, hands, threads));
    let starts = row_starts(&logs);
    let total = starts[logs.len()];
    let numpy = py.import("numpy")?;
    let empty =
        |shape: Bound<'py, PyTuple>, dtype: &str| numpy.getattr("empty")?.call1((shape, dtype));
    let (_, width) = observation_items(encoding);
    let observation_dtype = match encoding {
        Encoding::Tensor => "float32",
        Encoding::Compact => "uint8",
    };
    let arrays = [
        ("hand", empty(PyTuple::new(py, [total])?, "int64")?),
        ("seat", empty(PyTuple::new(py, [total])?, "int8")?),
        (
            "observation",
            empty(PyTuple::new(py, [total, width])?, observation_dtype)?,
        ),
        (
            "action_mask",
            empty(PyTuple::new(py, [total, NUM_ACTIONS as usize])?, "int8")?,
        ),
        ("action", empty(PyTuple::new(py, [total])?, "int8")?),
        ("score", empty(PyTuple::new(py, [total, 2])?, "int32")?),
    ];
    let buffers = arrays
        .iter()
        .map(|(what, array)| PyUntypedBuffer::get(array).map(|b| (what, b)))
        .collect::<PyResult<Vec<_>>>()?;
    let address = |k: usize| buffers[k].1.buf_ptr() as usize;
    let addresses = [0, 1, 2, 3, 4, 5].map(address);
    py.detach(|| {
        let rows = Rows {
            hand: addresses[0] as *mut i64,
            seat: addresses[1] as *mut i8,
            observation: addresses[2] as *mut u8,
            action_mask: addresses[3] as *mut i8,
            action: addresses[4] as *mut i8,
            score: addresses[5] as *mut i32,
        };
        // SAFETY: the arrays were just made with `total` rows of the widths and types named,
        // and no one else has them yet.
        unsafe { write_rows(&batch, &logs, &starts, encoding, rows, threads) }
    });
    drop(buffers);
    let out = PyDict::new(py);
    for (what, array) in arrays {
        out.set_item(what, array)?;
    }
    Ok(out)
}

/// The compact layout for `unpack`: one tuple a segment, (name, kind, byte, slots, entry,
/// stride, n), `n` being a flag byte's flags or a count's maximum (0 otherwise).
fn layout_tuple(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    let segments = LAYOUT.iter().map(|segment| {
        let (kind, n) = match segment.kind {
            Kind::OneHot => ("onehot", 0),
            Kind::Flags(flags) => ("flags", flags as u32),
            Kind::Cards => ("cards", 0),
            Kind::Count(max) => ("count", max),
        };
        (
            segment.name,
            kind,
            segment.byte,
            segment.slots,
            segment.entry,
            segment.stride,
            n,
        )
    });
    PyTuple::new(py, segments)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("COMPACT_SIZE", COMPACT_SIZE)?;
    m.add("COMPACT_LAYOUT", layout_tuple(py)?)?;
    m.add("MAX_TEAM_POINTS", MAX_TEAM_POINTS)?;
    m.add("SCORE_SCALE", SCORE_SCALE)?;
    m.add_class::<PyVectorCore>()?;
    m.add_function(wrap_pyfunction!(self_play, m)?)?;
    Ok(())
}
