//! The lock of a Python state (`HandState`, `MatchState`): calls on one state from several
//! threads serialize (docs/ENGINE.md "Threads").
//!
//! Why not `std::sync::Mutex`: measured from Python, its uncontended lock and unlock (two
//! read-modify-write instructions and a poison check) added 10-12 % to `clone` and `apply`,
//! above the 10 % the project allows. This lock takes one compare-exchange and releases with a
//! plain store. It is held only while Rust reads or changes the core state (well under a
//! microsecond, no Python code, no allocation except a `MatchState` history copy), so a thread
//! that finds it taken spins briefly and then yields. With the interpreter's global lock a
//! Python thread never even finds it taken; it matters for free-threaded Python.

use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};

/// Spins before yielding the thread while another thread holds the lock.
const SPINS_BEFORE_YIELD: u32 = 64;

/// A value only one thread at a time reads or changes.
pub struct StateLock<T> {
    held: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: `value` is reached only through a `Guard`, and at most one `Guard` exists at a time
// (it is made only after `held` went from false to true, and it sets `held` back on drop), so
// sharing a `StateLock` between threads shares a `T` the way a mutex does.
unsafe impl<T: Send> Sync for StateLock<T> {}

impl<T> StateLock<T> {
    /// A new, unlocked value.
    pub fn new(value: T) -> StateLock<T> {
        StateLock {
            held: AtomicBool::new(false),
            value: UnsafeCell::new(value),
        }
    }

    /// The value, locked until the guard is dropped.
    #[inline]
    pub fn lock(&self) -> Guard<'_, T> {
        let mut spins = 0;
        while self
            .held
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            if spins < SPINS_BEFORE_YIELD {
                spins += 1;
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        Guard { lock: self }
    }
}

impl<T: Copy> StateLock<T> {
    /// A copy of the value, taken under the lock.
    #[inline]
    pub fn get(&self) -> T {
        *self.lock()
    }
}

/// Access to a locked value; unlocks when dropped.
pub struct Guard<'a, T> {
    lock: &'a StateLock<T>,
}

impl<T> Deref for Guard<'_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        // SAFETY: this guard is the only one (see `StateLock`'s `Sync`).
        unsafe { &*self.lock.value.get() }
    }
}

impl<T> DerefMut for Guard<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: this guard is the only one (see `StateLock`'s `Sync`).
        unsafe { &mut *self.lock.value.get() }
    }
}

impl<T> Drop for Guard<'_, T> {
    #[inline]
    fn drop(&mut self) {
        self.lock.held.store(false, Ordering::Release);
    }
}
