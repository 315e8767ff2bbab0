"""Calls on one state from several threads (docs/ENGINE.md "Threads"): they serialize.

``HandState`` and ``MatchState`` keep their core state behind a lock (rust/py/lock.rs), so one
thread applying while others read (``observation``, ``clone``, ``legal_action_ids``, ...) never
fails: no ``RuntimeError: Already borrowed``, no torn state. The interpreter is told to switch
threads as often as it can, so the calls really interleave.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import tarabish
from tarabish import HandState, MatchState

READERS = 3  # with the applier, 4 threads on one state
MATCH_SEED = 4_242
# A long match: thousands of actions on one state.
HAND_SEEDS = range(12)
LONG_MATCH = tarabish.Rules(target=3_000)
# Switch threads after (at least) this many seconds of running one: as often as possible.
SWITCH_INTERVAL = 1e-6


@contextmanager
def frequent_switches() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def check_clone(state: Any) -> None:
    """A clone is a consistent state of its own: it reloads from its JSON text."""
    copy = state.clone()
    assert type(copy).from_json(copy.to_json()) == copy


# The reading calls of a state, one a step (a reader cycles through them).
READS: tuple[Callable[[Any], object], ...] = (
    lambda state: state.legal_action_ids(),
    lambda state: state.legal_actions(),
    lambda state: state.observation(state.dealer),
    lambda state: state.information_state_tensor(state.dealer),
    lambda state: state.information_state_string(state.dealer),
    check_clone,
    lambda state: state == state.clone(),
    repr,
    lambda state: (state.phase, state.is_terminal, state.to_move),
)


def run_concurrently(apply_all: Callable[[], list[int]], state: Any) -> tuple[list[int], int]:
    """``apply_all`` on this thread while READERS threads read ``state`` until it returns;
    every reader exception is re-raised here. Returns the ids ``apply_all`` applied and the
    number of reads made meanwhile."""
    done = threading.Event()
    started = threading.Barrier(READERS + 1)
    errors: list[BaseException] = []
    reads = [0] * READERS

    def reader(slot: int) -> None:
        started.wait()
        try:
            while not done.is_set():
                READS[reads[slot] % len(READS)](state)
                reads[slot] += 1
        except BaseException as exc:  # re-raised on the main thread
            errors.append(exc)

    threads = [threading.Thread(target=reader, args=(slot,)) for slot in range(READERS)]
    with frequent_switches():
        for thread in threads:
            thread.start()
        started.wait()
        try:
            applied = apply_all()
        finally:
            done.set()
            for thread in threads:
                thread.join()
    if errors:
        raise errors[0]
    return applied, sum(reads)


def play_on(state: Any, rng: random.Random) -> list[int]:
    """Random legal ids applied to ``state`` until it ends, letting the other threads run after
    each; the ids applied."""
    applied = []
    while not state.is_terminal:
        action = rng.choice(state.legal_action_ids())
        state.apply(action)
        applied.append(action)
        time.sleep(0)
    return applied


def test_match_state_four_threads_equal_one_thread() -> None:
    shared = MatchState(seed=MATCH_SEED, rules=LONG_MATCH)
    applied, reads = run_concurrently(lambda: play_on(shared, random.Random(1)), shared)
    assert len(applied) + reads > 2_000 and reads > 0, "thousands of operations on one state"
    alone = MatchState(seed=MATCH_SEED, rules=LONG_MATCH)
    for action in applied:
        alone.apply(action)
    assert shared == alone
    assert shared.to_json() == alone.to_json()


def test_hand_states_four_threads_equal_one_thread() -> None:
    rng = random.Random(2)
    total_reads = 0
    for seed in HAND_SEEDS:
        shared = HandState(seed % 4, seed=seed)
        applied, reads = run_concurrently(lambda: play_on(shared, rng), shared)  # noqa: B023
        total_reads += reads
        alone = HandState(seed % 4, seed=seed)
        for action in applied:
            alone.apply(action)
        assert shared == alone and shared.result == alone.result
    assert total_reads > len(HAND_SEEDS), "the readers ran during the hands"


def test_concurrent_appliers_serialize() -> None:
    """Four threads apply to one hand at once: each action is applied whole or refused whole
    with IllegalActionError (another thread moved first), and the state stays consistent."""
    for seed in HAND_SEEDS:
        shared = HandState(0, seed=seed)
        errors: list[BaseException] = []

        def applier(
            shared: HandState = shared, seed: int = seed, errors: list[BaseException] = errors
        ) -> None:
            rng = random.Random(seed + threading.get_ident())
            try:
                while not shared.is_terminal:
                    ids = shared.legal_action_ids()
                    if not ids:
                        continue
                    try:
                        shared.apply(rng.choice(ids))
                    except tarabish.IllegalActionError:
                        pass  # the state moved on between the two calls
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=applier) for _ in range(READERS + 1)]
        with frequent_switches():
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        assert not errors, errors[0]
        replayed = HandState(0, seed=seed)
        for action in shared.actions:
            replayed.apply(action)
        assert replayed == shared
