"""Batch simulation from Python: many hands or matches played by the Rust bots on every core,
with the interpreter released (rust/sim.rs), under any rules: table-mode hands (docs/TABLE.md)
may end by a misplay call or a throw-in (R8.2, R8.3). Game ``i`` of a batch uses seed
``derive(seed, i)`` (docs/ENGINE.md), so the summary does not depend on threads or chunking."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from . import _core
from ._batch import run_batch
from ._core import MAX_THREADS
from ._errors import InvalidInputError, excerpt
from ._python_bots import PythonBot
from ._python_bots import name as python_bot_name
from ._python_sim import play_range
from ._rules import Rules

BOTS = ("random", "greedy", "heuristic", "ismcts", "pimc")
"""The core's bots by name (rust/registry.rs ``BOT_NAMES``); each takes ``name:key=value,...``."""
MAX_GAMES = 2**64 - 1
"""The most games one batch plays (game numbers are 64-bit, docs/ENGINE.md)."""

# Games a chunk: the progress bar moves about fifty times, and a chunk stays short (a match is
# about ten hands, so fewer matches than hands).
CHUNKS = 50
MAX_HANDS_A_CHUNK = 200_000
MAX_MATCHES_A_CHUNK = 2_000

BotSpec = str | Mapping[str, Any]
"""A bot: text ``name`` or ``name:key=value,...`` (``"greedy"``), or a dict
``{"name": "greedy", key: value, ...}`` (docs/SEARCH.md)."""


def bot_spec(bot: BotSpec) -> str:
    """The canonical text of a bot spec, checked (``InvalidInputError`` names what is wrong)."""
    if isinstance(bot, Mapping):
        params = {key: value for key, value in bot.items() if key != "name"}
        name = bot.get("name")
        if not isinstance(name, str) or any(
            isinstance(v, bool) or not isinstance(v, int | float) for v in params.values()
        ):
            raise InvalidInputError(
                f"a bot dict has a str 'name' and numeric parameters, got {excerpt(dict(bot))}"
            )
        bot = name + ":" + ",".join(f"{key}={value}" for key, value in params.items())
    if not isinstance(bot, str):
        raise InvalidInputError(f"a bot is a spec string or dict, got {excerpt(bot)}")
    return _core.bot_spec(bot)


@dataclass(frozen=True, slots=True)
class Summary:
    """What a batch did. Counts and sums are exact integers; rates are derived from them."""

    hands: int
    matches: int
    made: int
    bait: int
    half_bait: int
    void: int
    misplay: int
    throw_in: int
    calls_by_seat: tuple[int, int, int, int]
    trick_points_by_seat: tuple[int, int, int, int]
    points_by_team: tuple[int, int]
    score_by_team: tuple[int, int]
    hands_with_runs: int
    run_points: int
    hands_with_bella: int
    match_wins: tuple[int, int]
    seed: int
    bots: tuple[str, str, str, str]
    threads: int
    seconds: float

    @property
    def played(self) -> int:
        """Hands not void (R3.3): played out, or ended by a call (R8.2, R8.3)."""
        return self.hands - self.void

    @property
    def bait_rate(self) -> float:
        """The share of played-out hands that were bait (R6.3)."""
        return self.bait / self.played if self.played else 0.0

    @property
    def hands_per_second(self) -> float:
        """Hands played a second of wall-clock time."""
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def counts(self) -> dict[str, Any]:
        """The exact counts (what a rerun with the same seed reproduces)."""
        return {
            "hands": self.hands,
            "matches": self.matches,
            "outcomes": {
                "made": self.made,
                "bait": self.bait,
                "half_bait": self.half_bait,
                "void": self.void,
                "misplay": self.misplay,
                "throw_in": self.throw_in,
            },
            "calls_by_seat": list(self.calls_by_seat),
            "trick_points_by_seat": list(self.trick_points_by_seat),
            "points_by_team": list(self.points_by_team),
            "score_by_team": list(self.score_by_team),
            "hands_with_runs": self.hands_with_runs,
            "run_points": self.run_points,
            "hands_with_bella": self.hands_with_bella,
            "match_wins": list(self.match_wins),
        }

    def to_dict(self) -> dict[str, Any]:
        """The summary as ``tarabish simulate --json`` prints it: the counts and the run's
        settings and timing."""
        return {
            **self.counts(),
            "seed": self.seed,
            "bots": list(self.bots),
            "threads": self.threads,
            "seconds": self.seconds,
            "hands_per_second": self.hands_per_second,
            "bait_rate": self.bait_rate,
        }


def bot_action(state: _core.HandState, bot: BotSpec, seed: int = 0) -> int:
    """The action id the Rust bot ``bot`` takes for the seat to move in ``state``, from that
    seat's information set only, drawing from a generator seeded ``seed``."""
    return _core.bot_action(state, bot_spec(bot), seed)


def _bots(bots: Any) -> list[Any]:
    if isinstance(bots, str | Mapping | PythonBot):
        specs: list[Any] = [bots] * 4
    elif isinstance(bots, Sequence):
        specs = list(bots)
    else:
        raise InvalidInputError(
            f"bots: a bot spec, or a list of two (by team) or four (by seat); got {excerpt(bots)}"
        )
    if len(specs) == 1:
        specs = specs * 4
    if len(specs) == 2:
        specs = specs * 2  # one bot a team: seats 0 and 2, then 1 and 3
    if len(specs) != 4:
        raise InvalidInputError(
            f"bots: one spec for all seats, two (by team) or four (by seat); got {excerpt(bots)}"
        )
    return [spec if isinstance(spec, PythonBot) else bot_spec(spec) for spec in specs]


def simulate(
    hands: int | None = None,
    matches: int | None = None,
    *,
    seed: int = 0,
    bots: BotSpec | PythonBot | Sequence[BotSpec | PythonBot] = "random",
    rules: Rules | None = None,
    threads: int = 0,
    progress: Callable[[int, int], None] | None = None,
    ray_address: str | None = None,
) -> Summary:
    """Plays ``hands`` hands or ``matches`` matches with Rust bots and sums up the results.

    ``bots`` is one bot spec for every seat, two (team 0, team 1) or four (by seat): text such
    as ``"greedy"`` or ``"ismcts:iterations=1000"``, or a dict (docs/SEARCH.md), or a bot
    written in Python (an object with ``act(observation, legal_ids) -> int``: the slower path of
    ``tarabish._python_sim``, on the calling thread, not on Ray).
    ``rules`` may be table-mode rules (docs/TABLE.md): random bots then choose among the legal
    ids of the seat to move, declarations and calls included, so many hands end by a call; the
    other bots play their R5.1-legal cards and never declare or call.
    ``threads=0`` uses every core; at most ``MAX_THREADS`` (256) threads, in a pool built once
    (and kept for the next batch of as many threads). ``progress(done, total)`` is called after
    each of about 50 chunks of the batch; without it the batch is played in one call.
    ``ray_address`` (extra ``ray``) plays on that Ray cluster instead, one range of games a task
    on one core of a node (``threads`` is then the cluster's CPU count): the counts equal the
    local run's for the same seed (docs/SEARCH.md).
    """
    if (hands is None) == (matches is None):
        raise InvalidInputError("give exactly one of hands= or matches=")
    total = hands if hands is not None else matches
    if type(total) is not int or not 0 <= total <= MAX_GAMES:
        raise InvalidInputError(
            f"the number of games must be a whole number 0..{MAX_GAMES}, got {excerpt(total)}"
        )
    if type(threads) is not int or not 0 <= threads <= MAX_THREADS:
        raise InvalidInputError(
            f"threads must be 0 (all cores) to {MAX_THREADS}, got {excerpt(threads)}"
        )
    seats = _bots(bots)
    rules = rules if rules is not None else Rules()
    if any(isinstance(bot, PythonBot) for bot in seats):
        if ray_address is not None:
            raise InvalidInputError("bots written in Python play locally: drop ray_address")
        play = partial(play_range, seed=seed, bots=seats, rules=rules, matches=matches is not None)
        threads = 1
    else:
        play = partial(
            _core.simulate, seed=seed, bots=seats, rules=rules, matches=matches is not None
        )
    most = MAX_HANDS_A_CHUNK if matches is None else MAX_MATCHES_A_CHUNK
    per_chunk = max(1, min(total // CHUNKS + 1, most))
    totals, threads, seconds = run_batch(
        play,
        total,
        per_chunk=per_chunk,
        threads=threads,
        progress=progress,
        ray_address=ray_address,
    )
    names = [python_bot_name(bot) for bot in seats]
    return _summary(totals, seed, (names[0], names[1], names[2], names[3]), threads, seconds)


def _summary(
    totals: dict[str, Any],
    seed: int,
    seats: tuple[str, str, str, str],
    threads: int,
    seconds: float,
) -> Summary:
    # The counts by the core's field names (rust/sim.rs `Summary::fields`), arrays as tuples.
    counts: dict[str, Any] = {}
    for name, value in totals.items():
        counts[name] = tuple(value) if isinstance(value, list) else value
    made, bait, half_bait, void, misplay, throw_in = counts.pop("outcomes")
    return Summary(
        **counts,
        made=made,
        bait=bait,
        half_bait=half_bait,
        void=void,
        misplay=misplay,
        throw_in=throw_in,
        seed=seed,
        bots=seats,
        threads=threads,
        seconds=seconds,
    )
