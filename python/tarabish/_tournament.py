"""Duplicate tournaments between two bots (rust/tournament.rs): deal ``i`` is the match seeded
``derive(seed, i)`` with first dealer ``i % 4``, played twice with the teams swapped, on every
core with the interpreter released (or on a Ray cluster). The result carries win rates, points
per hand and 95% confidence intervals; docs/SEARCH.md says how each interval is computed."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from . import _core
from ._batch import PlayRange, run_batch
from ._core import MAX_THREADS
from ._errors import InvalidInputError, excerpt
from ._python_bots import PythonBot, name, play_pairs
from ._rules import Rules
from ._simulate import BotSpec, bot_spec

Z_95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""

# Pairs a chunk: the progress bar moves about a hundred times, and a chunk stays short.
CHUNKS = 100
MAX_PAIRS_A_CHUNK = 500


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """The standing of a duplicate tournament from bot A's side (index 0) against bot B (1).

    Counts and sums are exact integers (what a rerun with the same seed reproduces); rates and
    intervals are derived from them.
    """

    bots: tuple[str, str]
    deals: int
    hands: int
    wins: tuple[int, int]
    points: tuple[int, int]
    pairs_won: tuple[int, int, int]
    margin_squares: int
    hands_squares: int
    margin_hands: int
    seed: int
    threads: int
    seconds: float

    @property
    def matches(self) -> int:
        """Matches played: two a deal."""
        return 2 * self.deals

    @property
    def win_rate(self) -> float:
        """The share of matches A won (R7.1: every match has a winner)."""
        return self.wins[0] / self.matches if self.matches else math.nan

    @property
    def win_rate_interval(self) -> tuple[float, float]:
        """Wilson score 95% interval of A's win rate over the matches."""
        return wilson_interval(self.wins[0], self.matches)

    @property
    def points_per_hand(self) -> tuple[float, float]:
        """Points A and B scored a hand on average (R6.2-R6.4)."""
        if not self.hands:
            return (math.nan, math.nan)
        return (self.points[0] / self.hands, self.points[1] / self.hands)

    @property
    def margin_per_hand(self) -> float:
        """A's points a hand minus B's."""
        return (self.points[0] - self.points[1]) / self.hands if self.hands else math.nan

    @property
    def margin_interval(self) -> tuple[float, float]:
        """95% interval of ``margin_per_hand``, with duplicate pairs as the units: a ratio
        estimator (margin over hands, pair by pair) with its delta-method standard error and a
        normal quantile. NaN with fewer than two pairs."""
        n = self.deals
        if n < 2 or not self.hands:
            return (math.nan, math.nan)
        ratio = self.margin_per_hand
        # Sum over pairs of (margin - ratio * hands)^2, from the exact integer sums.
        residuals = (
            self.margin_squares - 2 * ratio * self.margin_hands + ratio**2 * self.hands_squares
        )
        spread = math.sqrt(max(residuals, 0.0) / (n - 1))
        error = spread / math.sqrt(n) / (self.hands / n)
        return (ratio - Z_95 * error, ratio + Z_95 * error)

    @property
    def matches_per_second(self) -> float:
        """Matches played a second of wall-clock time."""
        return self.matches / self.seconds if self.seconds > 0 else 0.0

    def counts(self) -> dict[str, Any]:
        """The exact counts (what a rerun with the same seed reproduces, on any threads)."""
        return {
            "bots": list(self.bots),
            "deals": self.deals,
            "matches": self.matches,
            "hands": self.hands,
            "wins": list(self.wins),
            "points": list(self.points),
            "pairs_won": list(self.pairs_won),
            "margin_squares": self.margin_squares,
            "hands_squares": self.hands_squares,
            "margin_hands": self.margin_hands,
        }

    def to_dict(self) -> dict[str, Any]:
        """Everything, for ``tarabish tournament --json`` (NaN becomes null)."""
        return {
            **self.counts(),
            "win_rate": _number(self.win_rate),
            "win_rate_interval": [_number(x) for x in self.win_rate_interval],
            "points_per_hand": [_number(x) for x in self.points_per_hand],
            "margin_per_hand": _number(self.margin_per_hand),
            "margin_interval": [_number(x) for x in self.margin_interval],
            "seed": self.seed,
            "threads": self.threads,
            "seconds": self.seconds,
            "matches_per_second": self.matches_per_second,
        }


def _number(x: float) -> float | None:
    return None if math.isnan(x) else x


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (NaN for no trials)."""
    if trials == 0:
        return (math.nan, math.nan)
    p = successes / trials
    scale = 1 + z * z / trials
    center = (p + z * z / (2 * trials)) / scale
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / scale
    return (max(0.0, center - half), min(1.0, center + half))


def tournament(
    a: BotSpec | PythonBot,
    b: BotSpec | PythonBot,
    deals: int = 1000,
    *,
    seed: int = 0,
    rules: Rules | None = None,
    threads: int = 0,
    progress: Callable[[int, int], None] | None = None,
    ray_address: str | None = None,
) -> TournamentResult:
    """Duplicate tournament of bot ``a`` against bot ``b``: ``deals`` match seeds, each played
    twice (``a`` on seats 0 and 2, then on 1 and 3), matches to ``rules.target`` (R7.1).

    A bot is a spec as ``simulate`` takes: text such as ``"greedy"`` or
    ``"ismcts:iterations=1000"``, or a dict ``{"name": ..., key: value}``; or a Python bot, an
    object with ``act(observation, legal_ids) -> int`` (``tarabish._python_bots``), played on
    the calling thread (and picklable, for Ray).

    ``threads=0`` uses every core; ``progress(done, total)`` counts deals; ``ray_address``
    (extra ``ray``) plays on that Ray cluster. The result is the same for a seed whatever the
    threads, chunks or cluster.
    """
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 0:
        raise InvalidInputError(f"deals must be a whole number, got {excerpt(deals)}")
    if type(threads) is not int or not 0 <= threads <= MAX_THREADS:
        raise InvalidInputError(
            f"threads must be 0 (all cores) to {MAX_THREADS}, got {excerpt(threads)}"
        )
    bots = (check_bot(a), check_bot(b))
    rules = rules if rules is not None else Rules()
    play: PlayRange
    if isinstance(bots[0], str) and isinstance(bots[1], str):
        play = partial(_core.tournament, seed=seed, bots=[bots[0], bots[1]], rules=rules)
    else:
        if rules.is_table_mode:
            raise InvalidInputError(
                "tournaments play auto-mode hands (R4.4 auto declarations, R8 legal play enforced)"
            )
        play = partial(play_pairs, seed=seed, bots=bots, rules=rules)
    per_chunk = max(1, min(deals // CHUNKS + 1, MAX_PAIRS_A_CHUNK))
    totals, threads, seconds = run_batch(
        play,
        deals,
        per_chunk=per_chunk,
        threads=threads,
        progress=progress,
        ray_address=ray_address,
    )
    return TournamentResult(
        bots=(name(bots[0]), name(bots[1])),
        deals=totals["pairs"],
        hands=totals["hands"],
        wins=(totals["wins"][0], totals["wins"][1]),
        points=(totals["points"][0], totals["points"][1]),
        pairs_won=(totals["pairs_won"][0], totals["pairs_won"][1], totals["pairs_won"][2]),
        margin_squares=totals["margin_squares"],
        hands_squares=totals["hands_squares"],
        margin_hands=totals["margin_hands"],
        seed=seed,
        threads=threads,
        seconds=seconds,
    )


def check_bot(bot: BotSpec | PythonBot) -> str | PythonBot:
    """A Rust spec in its canonical text (checked), or a Python bot as it is."""
    if isinstance(bot, PythonBot):
        return bot
    return bot_spec(bot)
