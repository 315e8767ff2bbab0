//! A team of threads that run one short job together, round after round, for the vectorized
//! environment (rust/vector.rs; docs/RL.md "Vectorized environment"). No rules here.
//!
//! A step of 1,000 games takes about 100 µs on one thread. Handing that to a general pool
//! (rayon) costs a wake-up of a sleeping thread per step, which is about as long as the work,
//! so a second thread made stepping slower. Here the caller takes a share of the work itself,
//! and the team's threads, kept for the environment's lifetime, spin for a while after each
//! round before they sleep: a learner that steps again within about half a millisecond finds
//! them awake.
//!
//! The spin is counted in the thread's own turns, not by the clock. A thread woken from sleep
//! is often placed on its waker's core; if it then slept again whenever the clock said its
//! spin was over, time it spent waiting for that shared core would count, it would sleep
//! after every round and be woken onto the caller's core again, and the two would take turns
//! on one core. Spinning on instead, it stays runnable and the scheduler moves it to the idle
//! core, where it stays.
//!
//! The work is cut into pieces, and each thread has its own run of them, the same every
//! round, so that a game's data stay in the cache of the core that steps it (moving them
//! between cores every step cost more than the step). A thread that is done with its own run
//! takes the pieces left in the others'. A team thread joins a round only while it is open:
//! once the caller has claimed the last piece it closes the round and waits only for the
//! threads that joined, so a team thread held up by other work on the machine never holds up
//! a step: the caller does its pieces.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// How many times a team thread gives its core away while it waits for the next round before
/// it sleeps: about half a millisecond of spinning on a core of its own (a turn of
/// [`SPINS_A_YIELD`] spins and a yield takes about 2 µs). Long enough to bridge a learner's
/// work between two steps (numpy's argmax over 1,000 masks, a small network), short enough not
/// to hold a core that the learner needs for longer work.
const SPIN_YIELDS: u32 = 256;

/// How many spins a waiting thread makes between two yields (giving the core away lets a
/// thread that other work on the machine pushed aside run).
const SPINS_A_YIELD: u32 = 64;

/// The gate's bit saying the round is open to team threads; the bits below count the team
/// threads inside the round.
const OPEN: u64 = 1 << 63;

/// A job of a round: called with piece numbers `0..pieces`, each once, from any thread.
type Job<'a> = &'a (dyn Fn(usize) + Sync);

/// What the caller and the team share.
struct Shared {
    /// The round being run: bumped by the caller to start one.
    round: AtomicU64,
    /// [`OPEN`] while team threads may join the round, and how many are inside it.
    gate: AtomicU64,
    /// The job of the round (set before the gate opens, kept until the last thread left).
    job: Mutex<Option<Job<'static>>>,
    /// The number of pieces of the round's job.
    pieces: AtomicUsize,
    /// Each thread's next piece, as a count into its own run (the caller's first).
    claimed: Box<[Cursor]>,
    /// A piece of the round panicked on a team thread (the caller raises it again).
    panicked: AtomicBool,
    /// Team threads asleep, and their wake-up call.
    asleep: Mutex<usize>,
    wake: Condvar,
    /// The team is being dropped.
    stop: AtomicBool,
}

/// A team of `threads - 1` threads that, with the caller, run jobs round after round.
pub(crate) struct Lockstep {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

impl Lockstep {
    /// A team for `threads` threads in all (the caller and `threads - 1` others).
    pub(crate) fn new(threads: usize) -> Lockstep {
        let shared = Arc::new(Shared {
            round: AtomicU64::new(0),
            gate: AtomicU64::new(0),
            job: Mutex::new(None),
            pieces: AtomicUsize::new(0),
            claimed: (0..threads.max(1)).map(|_| Cursor::default()).collect(),
            panicked: AtomicBool::new(false),
            asleep: Mutex::new(0),
            wake: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        let threads = (1..threads.max(1))
            .map(|member| {
                let shared = Arc::clone(&shared);
                std::thread::spawn(move || serve(&shared, member))
            })
            .collect();
        Lockstep { shared, threads }
    }

    /// Runs `job` on pieces `0..pieces`, each once, on the caller and the team; returns when
    /// every piece is done. A panic in a piece is raised again here, after the round ends.
    pub(crate) fn run(&self, pieces: usize, job: &(dyn Fn(usize) + Sync)) {
        let shared = &*self.shared;
        if self.threads.is_empty() {
            (0..pieces).for_each(job);
            return;
        }
        // SAFETY: team threads call the job only inside the round's gate, and this function
        // returns only after the gate is closed and empty, so the reference never outlives
        // `job`.
        let job: Job<'static> = unsafe { std::mem::transmute::<Job<'_>, Job<'static>>(job) };
        *lock(&shared.job) = Some(job);
        shared.pieces.store(pieces, Ordering::Relaxed);
        for cursor in &shared.claimed {
            cursor.0.store(0, Ordering::Relaxed);
        }
        shared.gate.store(OPEN, Ordering::Release);
        shared.round.fetch_add(1, Ordering::Release);
        if *lock(&shared.asleep) > 0 {
            shared.wake.notify_all();
        }
        let mine = catch_unwind(AssertUnwindSafe(|| claim_pieces(shared, 0, job)));
        shared.gate.fetch_and(!OPEN, Ordering::AcqRel);
        let mut backoff = Backoff::default();
        while shared.gate.load(Ordering::Acquire) != 0 {
            backoff.turn();
        }
        *lock(&shared.job) = None;
        if let Err(panic) = mine {
            resume_unwind(panic);
        }
        assert!(
            !shared.panicked.swap(false, Ordering::Relaxed),
            "a piece of a lockstep round panicked on a team thread"
        );
    }
}

impl Drop for Lockstep {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        self.shared.round.fetch_add(1, Ordering::Release);
        {
            let _asleep = lock(&self.shared.asleep);
            self.shared.wake.notify_all();
        }
        for thread in self.threads.drain(..) {
            // A team thread catches the panics of its pieces, so it ends cleanly.
            let _ = thread.join();
        }
    }
}

/// A thread's next piece, on a cache line of its own (threads claiming pieces do not slow
/// each other down).
#[derive(Default)]
#[repr(align(64))]
struct Cursor(AtomicUsize);

/// Runs the pieces of `member`'s own run of the round's job, then those left in the others'.
fn claim_pieces(shared: &Shared, member: usize, job: Job<'_>) {
    let pieces = shared.pieces.load(Ordering::Relaxed);
    let members = shared.claimed.len();
    for owner in (member..members).chain(0..member) {
        // The owner's run: the pieces from `start` to `end`.
        let start = owner * pieces / members;
        let end = (owner + 1) * pieces / members;
        loop {
            let piece = start + shared.claimed[owner].0.fetch_add(1, Ordering::Relaxed);
            if piece >= end {
                break;
            }
            job(piece);
        }
    }
}

/// Team thread `member`: waits for each round and, if it is still open, takes a part of it.
fn serve(shared: &Shared, member: usize) {
    let mut seen = 0u64;
    loop {
        seen = wait_for_round(shared, seen);
        if shared.stop.load(Ordering::Acquire) {
            return;
        }
        if !join(shared) {
            continue;
        }
        let job = lock(&shared.job).expect("an open round has a job");
        if catch_unwind(AssertUnwindSafe(|| claim_pieces(shared, member, job))).is_err() {
            shared.panicked.store(true, Ordering::Relaxed);
        }
        shared.gate.fetch_sub(1, Ordering::Release);
    }
}

/// Enters the round in progress if it is still open.
fn join(shared: &Shared) -> bool {
    let mut gate = shared.gate.load(Ordering::Relaxed);
    while gate & OPEN != 0 {
        match shared.gate.compare_exchange_weak(
            gate,
            gate + 1,
            Ordering::Acquire,
            Ordering::Relaxed,
        ) {
            Ok(_) => return true,
            Err(now) => gate = now,
        }
    }
    false
}

/// Waits until a round after `seen` starts (spinning for [`SPIN_YIELDS`] yields, then asleep);
/// its number.
fn wait_for_round(shared: &Shared, seen: u64) -> u64 {
    let mut backoff = Backoff::default();
    loop {
        let round = shared.round.load(Ordering::Acquire);
        if round != seen {
            return round;
        }
        if !backoff.turn() || backoff.yields < SPIN_YIELDS {
            continue;
        }
        let mut asleep = lock(&shared.asleep);
        *asleep += 1;
        // The caller bumps the round before it looks at `asleep` under this lock, so a round
        // that started after the load above is seen here or wakes this wait.
        while shared.round.load(Ordering::Acquire) == seen {
            asleep = shared
                .wake
                .wait(asleep)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *asleep -= 1;
    }
}

/// A busy wait that gives the core away now and then.
#[derive(Default)]
struct Backoff {
    turns: u32,
    yields: u32,
}

impl Backoff {
    /// One turn of the wait; whether it gave the core away (once every [`SPINS_A_YIELD`]).
    fn turn(&mut self) -> bool {
        self.turns = self.turns.wrapping_add(1);
        if self.turns.is_multiple_of(SPINS_A_YIELD) {
            std::thread::yield_now();
            self.yields = self.yields.saturating_add(1);
            true
        } else {
            std::hint::spin_loop();
            false
        }
    }
}

/// Locks `mutex`, whatever a panicking holder left (the data are plain values).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_runs_once_a_round() {
        for threads in [1, 2, 3] {
            let team = Lockstep::new(threads);
            for pieces in [0, 1, 7, 64] {
                let counts: Vec<AtomicUsize> = (0..pieces).map(|_| AtomicUsize::new(0)).collect();
                for _ in 0..50 {
                    team.run(pieces, &|piece| {
                        counts[piece].fetch_add(1, Ordering::Relaxed);
                    });
                }
                assert!(counts
                    .iter()
                    .all(|count| count.load(Ordering::Relaxed) == 50));
            }
        }
    }

    #[test]
    fn a_team_asleep_wakes_for_the_next_round() {
        let team = Lockstep::new(2);
        let total = AtomicUsize::new(0);
        for _ in 0..3 {
            std::thread::sleep(std::time::Duration::from_millis(5));
            team.run(8, &|piece| {
                total.fetch_add(piece, Ordering::Relaxed);
            });
        }
        assert_eq!(total.load(Ordering::Relaxed), 3 * 28);
    }

    #[test]
    fn a_panic_in_a_piece_reaches_the_caller_and_the_team_runs_on() {
        let team = Lockstep::new(2);
        let caught = catch_unwind(AssertUnwindSafe(|| {
            team.run(16, &|piece| assert!(piece != 11, "piece 11"));
        }));
        assert!(caught.is_err());
        let total = AtomicUsize::new(0);
        team.run(4, &|piece| {
            total.fetch_add(piece, Ordering::Relaxed);
        });
        assert_eq!(total.load(Ordering::Relaxed), 6);
    }
}
