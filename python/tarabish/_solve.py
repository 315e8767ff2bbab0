"""The double-dummy solver (docs/SOLVER.md): the exact value of a play-phase hand when every
card is known, under R5.1's play rules and the hand's variants.

``solve(state)`` and ``solve_many(states, threads=0)`` run the Rust core's solver with the
interpreter released; ``Solution`` is what they give back.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import _core
from ._views import RunsResult, Solution

__all__ = ["Solution", "solve", "solve_many"]


def _solution(raw: _core._RawSolution) -> Solution:
    seat, value, points_left, values, best, runs, bella = raw
    return Solution(
        seat=seat,
        value=value,
        values=dict(values),
        best=best,
        points_left=points_left,
        runs=None if runs is None else RunsResult(*runs),
        bella=bella,
    )


def solve(state: _core.HandState) -> Solution:
    """Solves a play-phase ``HandState`` exactly (every card known): see ``Solution``.

    Raises ``InvalidInputError`` for anything else (a state in the auction or finished)."""
    return _solution(_core.solve(state))


def solve_many(states: Iterable[_core.HandState], threads: int = 0) -> list[Solution]:
    """Solves many play-phase states on ``threads`` threads (0: every core) with the
    interpreter released; the solutions are in input order and equal ``solve``'s."""
    return [_solution(raw) for raw in _core.solve_many(states, threads)]
