"""A strength ladder: a round robin of duplicate tournaments (``_tournament``) between any
number of bots, each pair on the same deals, with Bradley-Terry ratings fitted to the match
wins and 95% intervals from a bootstrap over the deals (docs/STRENGTH.md).

Deal ``i`` of every pair is the match seeded ``derive(seed, i)``, played twice with the teams
swapped, exactly as ``tournament`` plays it; each deal of each pair is one task, so the wins
by deal (what the bootstrap resamples) are the same on any number of threads. A rating is on
the Elo scale (400 points: ten to one odds of winning a match) relative to ``random`` (or the
first bot when ``random`` is not entered); the fit adds half a win to each side of every pair
(a Jeffreys-like prior), so a pair won every time still has a finite gap.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import MAX_THREADS
from ._errors import InvalidInputError, excerpt
from ._python_bots import Bot, PythonBot, name, play_pairs
from ._rules import Rules
from ._simulate import BotSpec
from ._tournament import check_bot

ELO_SCALE = 400 / math.log(10)
"""Elo points per unit of log odds: a 400-point gap is ten to one odds."""
PRIOR_WINS = 0.5
"""Wins added to each side of every pair before the fit (keeps every rating finite)."""
BOOTSTRAP_SAMPLES = 1000
"""Resamples of the deals behind each interval."""
INTERVAL = (2.5, 97.5)
"""The percentiles of a 95% interval."""
TIMING_HANDS = 4
"""Hands whose decisions time each bot (played by the heuristic from the ladder's seed)."""
TIMING_BOT = "heuristic"
NEWTON_STEPS = 100
NEWTON_TOLERANCE = 1e-10
MAX_NEWTON_STEP = 2.0
"""The largest change of a log-odds rating in one Newton step (keeps the fit from overshooting
when one bot wins nearly every match)."""
MATCHES_A_DEAL = 2


@dataclass(frozen=True, slots=True)
class LadderResult:
    """A round robin's standings. ``wins[i][j]`` is the matches bot ``i`` won against bot ``j``
    (``2 * deals`` matches a pair); ``ratings`` and ``intervals`` are Elo-scale Bradley-Terry
    ratings with 95% bootstrap intervals, the anchor at 0; ``cpu_ms_per_decision`` each bot's
    CPU time a decision over the same positions (a Python bot's included)."""

    bots: tuple[str, ...]
    anchor: str
    deals: int
    wins: tuple[tuple[int, ...], ...]
    ratings: tuple[float, ...]
    intervals: tuple[tuple[float, float], ...]
    cpu_ms_per_decision: tuple[float, ...]
    seed: int
    threads: int
    seconds: float

    @property
    def order(self) -> list[int]:
        """Bot indices, strongest first (ties keep the order entered)."""
        return sorted(range(len(self.bots)), key=lambda i: -self.ratings[i])

    def to_dict(self) -> dict[str, Any]:
        """Everything, for ``tarabish ladder --json``: the bots strongest first, and the
        pairwise wins in the order entered."""
        return {
            "bots": list(self.bots),
            "anchor": self.anchor,
            "deals": self.deals,
            "matches_a_pair": MATCHES_A_DEAL * self.deals,
            "ladder": [
                {
                    "rank": rank + 1,
                    "bot": self.bots[i],
                    "rating": self.ratings[i],
                    "interval": list(self.intervals[i]),
                    "cpu_ms_per_decision": self.cpu_ms_per_decision[i],
                }
                for rank, i in enumerate(self.order)
            ],
            "wins": [list(row) for row in self.wins],
            "seed": self.seed,
            "threads": self.threads,
            "seconds": self.seconds,
        }


def ladder(
    bots: Sequence[BotSpec | PythonBot],
    deals: int = 100,
    *,
    seed: int = 0,
    rules: Rules | None = None,
    threads: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> LadderResult:
    """Every pair of ``bots`` plays a duplicate tournament of ``deals`` deals (as
    ``tournament(a, b, deals, seed=seed)``: each deal twice with the teams swapped, matches to
    ``rules.target``), and each bot gets a Bradley-Terry rating from the match wins.

    A bot is a spec as ``tournament`` takes (``"greedy"``, ``"ismcts:iterations=1000"``, a
    dict) or a Python bot (``act(observation, legal_ids) -> int``, played on the calling
    thread). ``threads=0`` uses every core; ``progress(done, total)`` counts deals of pairs.
    The result is the same for a seed on any number of threads."""
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise InvalidInputError(f"deals must be a whole number 1 or more, got {excerpt(deals)}")
    if type(threads) is not int or not 0 <= threads <= MAX_THREADS:
        raise InvalidInputError(
            f"threads must be 0 (all cores) to {MAX_THREADS}, got {excerpt(threads)}"
        )
    entered = [check_bot(bot) for bot in bots]
    names = [name(bot) for bot in entered]
    if len(entered) < 2:
        raise InvalidInputError(f"a ladder needs two bots or more, got {len(entered)}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise InvalidInputError(f"each bot once in a ladder: {repeated[0]!r} is entered twice")
    rules = rules if rules is not None else Rules()
    # The seed and rules checked as a tournament checks them, before any deal is played.
    _core.tournament(start=0, stop=0, seed=seed, bots=["random", "random"], rules=rules)
    start = time.perf_counter()
    wins_by_deal = _play_round_robin(entered, deals, seed, rules, threads, progress)
    ratings, intervals = rate(wins_by_deal, len(entered), _anchor(names), seed)
    cpu = tuple(decision_cpu_ms(bot, seed, rules) for bot in entered)
    wins = np.zeros((len(entered), len(entered)), dtype=np.int64)
    for (i, j), by_deal in wins_by_deal.items():
        wins[i, j] = int(by_deal.sum())
        wins[j, i] = MATCHES_A_DEAL * deals - wins[i, j]
    return LadderResult(
        bots=tuple(names),
        anchor=names[_anchor(names)],
        deals=deals,
        wins=tuple(tuple(int(x) for x in row) for row in wins),
        ratings=tuple(float(x) for x in ratings),
        intervals=tuple((float(low), float(high)) for low, high in intervals),
        cpu_ms_per_decision=cpu,
        seed=seed,
        threads=threads,
        seconds=time.perf_counter() - start,
    )


def _anchor(names: Sequence[str]) -> int:
    return names.index("random") if "random" in names else 0


def _play_round_robin(
    bots: Sequence[Bot],
    deals: int,
    seed: int,
    rules: Rules,
    threads: int,
    progress: Callable[[int, int], None] | None,
) -> dict[tuple[int, int], npt.NDArray[np.int64]]:
    """The matches the first bot of each pair ``(i, j)``, ``i < j``, won at each deal (0-2).

    Pairs of Rust bots play one deal a task on a pool of ``threads`` threads (the core releases
    the interpreter); pairs with a Python bot play on the calling thread."""
    pairs = [(i, j) for i in range(len(bots)) for j in range(i + 1, len(bots))]
    wins = {pair: np.zeros(deals, dtype=np.int64) for pair in pairs}
    total, done = len(pairs) * deals, 0

    def play(pair: tuple[int, int], deal: int) -> tuple[tuple[int, int], int, int]:
        a, b = bots[pair[0]], bots[pair[1]]
        if isinstance(a, str) and isinstance(b, str):
            counts = _core.tournament(
                start=deal, stop=deal + 1, seed=seed, bots=[a, b], rules=rules, threads=1
            )
        else:
            counts = play_pairs(
                start=deal, stop=deal + 1, threads=1, seed=seed, bots=(a, b), rules=rules
            )
        return pair, deal, int(counts["wins"][0])

    def record(pair: tuple[int, int], deal: int, won: int) -> None:
        nonlocal done
        wins[pair][deal] = won
        done += 1
        if progress is not None:
            progress(done, total)

    native = [p for p in pairs if isinstance(bots[p[0]], str) and isinstance(bots[p[1]], str)]
    workers = threads or os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play, pair, deal) for pair in native for deal in range(deals)]
        for pair in pairs:
            if pair not in native:
                for deal in range(deals):
                    record(*play(pair, deal))
        for future in futures:
            record(*future.result())
    if progress is not None and total == 0:
        progress(0, 0)
    return wins


def rate(
    wins_by_deal: dict[tuple[int, int], npt.NDArray[np.int64]],
    bots: int,
    anchor: int,
    seed: int,
    samples: int = BOOTSTRAP_SAMPLES,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Elo-scale ratings (``anchor`` at 0) of the wins by deal, and their 95% intervals from
    ``samples`` bootstrap resamples of the deals (the same resampled deals for every pair,
    drawn from a generator seeded ``seed``)."""
    pairs = list(wins_by_deal)
    by_deal = np.stack([wins_by_deal[pair] for pair in pairs])  # [pairs, deals]
    deals = by_deal.shape[1]
    first = np.array([i for i, _ in pairs])
    second = np.array([j for _, j in pairs])
    won = by_deal.sum(axis=1, dtype=np.float64)[None, :]
    ratings = fit_bradley_terry(won, MATCHES_A_DEAL * deals, first, second, bots, anchor)[0]
    rng = np.random.default_rng(seed)
    resampled = rng.multinomial(deals, np.full(deals, 1 / deals), size=samples)  # [samples, deals]
    won_resampled = (resampled @ by_deal.T).astype(np.float64)  # [samples, pairs]
    fits = fit_bradley_terry(won_resampled, MATCHES_A_DEAL * deals, first, second, bots, anchor)
    low, high = np.percentile(fits, INTERVAL, axis=0)
    return ratings, np.stack([low, high], axis=1)


def fit_bradley_terry(
    won: npt.NDArray[np.float64],
    matches: int,
    first: npt.NDArray[np.int64],
    second: npt.NDArray[np.int64],
    bots: int,
    anchor: int,
) -> npt.NDArray[np.float64]:
    """Maximum-likelihood Bradley-Terry ratings, Elo scale, ``anchor`` at 0, for each row of
    ``won`` (``[samples, pairs]``: the matches ``first[p]`` won of the ``matches`` it played
    against ``second[p]``), with ``PRIOR_WINS`` added to both sides of every pair.

    Newton's method on the log-likelihood (concave; strictly so with the prior), all rows at
    once, each step at most ``MAX_NEWTON_STEP`` in log odds."""
    samples = won.shape[0]
    wins_first = won + PRIOR_WINS
    played = float(matches) + 2 * PRIOR_WINS
    free = np.array([b for b in range(bots) if b != anchor])
    strength = np.zeros((samples, bots))
    for _ in range(NEWTON_STEPS):
        p = 1 / (1 + np.exp(strength[:, second] - strength[:, first]))  # P(first beats second)
        residual = wins_first - played * p
        weight = played * p * (1 - p)
        gradient = np.zeros((samples, bots))
        information = np.zeros((samples, bots, bots))  # minus the Hessian: positive definite
        for k, (i, j) in enumerate(zip(first, second, strict=True)):
            gradient[:, i] += residual[:, k]
            gradient[:, j] -= residual[:, k]
            information[:, i, i] += weight[:, k]
            information[:, j, j] += weight[:, k]
            information[:, i, j] -= weight[:, k]
            information[:, j, i] -= weight[:, k]
        reduced = information[:, free][:, :, free]
        step = np.linalg.solve(reduced, gradient[:, free, None])[:, :, 0]
        largest = np.abs(step).max(axis=1, keepdims=True)
        step *= np.minimum(1.0, MAX_NEWTON_STEP / np.maximum(largest, MAX_NEWTON_STEP))
        strength[:, free] += step
        if float(largest.max()) < NEWTON_TOLERANCE:
            break
    return ELO_SCALE * strength


def decision_cpu_ms(bot: Bot, seed: int, rules: Rules) -> float:
    """The CPU time (of the whole process, so a bot's own threads count) ``bot`` takes a
    decision, in milliseconds, over every decision of ``TIMING_HANDS`` hands played by the
    heuristic from seeds ``derive(seed, k)`` (the same positions for every bot)."""
    positions = _timing_positions(seed, rules)
    start = time.process_time()
    for k, state in enumerate(positions):
        if isinstance(bot, str):
            _core.bot_action(state, bot, _core.derive_seed(seed, k))
        else:
            to_move = state.to_move
            assert to_move is not None, "a timing position has a seat to move"
            bot.act(state.observation(to_move), state.legal_action_ids())
    return 1000 * (time.process_time() - start) / len(positions)


def _timing_positions(seed: int, rules: Rules) -> list[_core.HandState]:
    positions = []
    for k in range(TIMING_HANDS):
        hand_seed = _core.derive_seed(seed, k)
        state = _core.HandState(k % 4, seed=hand_seed, rules=rules)
        step = 0
        while not state.is_terminal:
            positions.append(state.clone())
            state.apply(_core.bot_action(state, TIMING_BOT, _core.derive_seed(hand_seed, step)))
            step += 1
    return positions
