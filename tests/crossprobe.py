"""The cross-platform probe: what the engine computes from fixed seeds, hashed by kind.

Run as a script (``python tests/crossprobe.py``) it prints one JSON object: the kernels this
CPU runs and a hash of each kind of result (simulate summaries, bot decisions, solver values,
sampled worlds) plus whether every golden record replays to its stored results. The same
seeds must give the same hashes on every kernel (``TARABISH_KERNEL``) and on every platform:
tests/test_kernels.py compares the kernels here, ``make cross`` compares aarch64 and an x86-64
without BMI2 and AVX-512 under qemu with the native run. It needs only the standard library
and tarabish, so it runs under an emulated interpreter with nothing else installed.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

import tarabish as tb

GOLDEN = Path(__file__).resolve().parent / "golden"
# Deals of every kind of decision: the auction, trick one, later tricks.
DEALS = range(6)
# Random plays before the decision (0: the auction).
DEPTHS = (0, 1, 5, 13, 22)
# The bots whose decisions are hashed: the walk with random and greedy playouts, and PIMC
# (the solver on sampled worlds).
BOTS = ("ismcts:iterations=1500,playout=0", "ismcts:iterations=800", "pimc:worlds=3")
# Hands simulated for the summaries.
SIMULATED = 400


def _digest(values: Any) -> str:
    return hashlib.sha256(repr(values).encode()).hexdigest()[:16]


def _states() -> list[tb.HandState]:
    """Positions after DEPTHS random plays of DEALS deals (the plays drawn by a seeded bot)."""
    states = []
    for deal in DEALS:
        state = tb.HandState(seed=deal, dealer=deal % 4)
        for depth in range(max(DEPTHS) + 1):
            if state.is_terminal:
                break
            if depth in DEPTHS:
                states.append(state.clone())
            state.apply(tb.bot_action(state, "random", seed=depth))
    return states


def _summary(summary: Any) -> tuple[Any, ...]:
    """A summary's counts (its time left out)."""
    return tuple(
        getattr(summary, field.name) for field in fields(summary) if field.name != "seconds"
    )


def probe() -> dict[str, Any]:
    """The hashes of each kind of result, and the golden records' replay check."""
    states = _states()
    playing = [s for s in states if s.trump is not None]
    simulate = [
        _summary(tb.simulate(hands=SIMULATED, seed=11, bots=bots, threads=1))
        for bots in ("random", "heuristic", ["greedy", "random", "heuristic", "random"])
    ]
    decisions = [tb.bot_action(s, bot, seed=5) for s in states for bot in BOTS]
    solutions = [tb.solve(s) for s in playing if s.to_move is not None]
    values = [(x.value, sorted(x.values.items()), x.best) for x in solutions]
    worlds = [
        [w.hands for w in s.sample_worlds(s.to_move, seed=9, count=4)]
        for s in states
        if s.to_move is not None
    ]
    goldens = sorted(GOLDEN.glob("*.json"))
    replays_match = all(
        tb.replay(path.read_text())["hands"] == json.loads(path.read_text())["hands"]
        for path in goldens
    )
    return {
        "kernels": tb.kernels(),
        "simulate": _digest(simulate),
        "decisions": _digest(decisions),
        "solver": _digest(values),
        "worlds": _digest(worlds),
        "goldens": len(goldens),
        "goldens_replay": replays_match,
    }


if __name__ == "__main__":
    json.dump(probe(), sys.stdout)
    sys.stdout.write("\n")
