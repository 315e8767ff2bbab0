"""tarabish: a fast, exact rules engine for Tarabish (RULES.md), Rust core with a typed Python API.

The values (cards, rules, runs, actions, views) are plain dataclasses and enums; the rule
primitives and the game states run in the Rust core (``tarabish._core``). ``tarabish.reference``
is an independent pure-Python implementation with the same interface (docs/ENGINE.md).
"""

from __future__ import annotations

import importlib as _importlib
from importlib import metadata as _metadata
from typing import TYPE_CHECKING, Any

from ._actions import Action, ActionKind, Phase
from ._cards import DECK, Card, Rank, Suit, parse_cards
from ._errors import IllegalActionError, InvalidInputError, TarabishError
from ._record import RecordError, replay, to_record
from ._rules import Rules
from ._runs import Run
from ._views import (
    CallResult,
    HandResult,
    Misplay,
    Observation,
    Outcome,
    RunsResult,
    Solution,
    TableView,
    TrickResult,
)

if TYPE_CHECKING:
    from ._core import (
        TENSOR_SIZE,
        HandState,
        MatchState,
        card_points,
        compare_runs,
        deal_cards,
        find_runs,
        legal_plays,
        play_random_hand,
        run_winner,
        score_hand,
        trick_winner,
    )
    from ._simulate import Summary, bot_action, bot_spec, simulate
    from ._solve import solve, solve_many
    from ._tournament import TournamentResult, tournament

# The names that need the Rust extension, by the module that defines them. They are imported on
# first use (PEP 562 ``__getattr__``), so that ``import tarabish.reference`` (whose values live
# in this package) never loads ``tarabish._core``: a broken build cannot break the reference.
_LAZY = {
    **dict.fromkeys(
        (
            "TENSOR_SIZE",
            "HandState",
            "MatchState",
            "card_points",
            "compare_runs",
            "deal_cards",
            "find_runs",
            "legal_plays",
            "play_random_hand",
            "run_winner",
            "score_hand",
            "trick_winner",
        ),
        "._core",
    ),
    **dict.fromkeys(("Summary", "bot_action", "bot_spec", "simulate"), "._simulate"),
    **dict.fromkeys(("solve", "solve_many"), "._solve"),
    **dict.fromkeys(("TournamentResult", "tournament"), "._tournament"),
}


def __getattr__(name: str) -> Any:
    """A name of the Rust core (or of a module that needs it), imported on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_importlib.import_module(module, __name__), name)
    globals()[name] = value  # later lookups are plain attribute lookups
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


try:  # one version source: Cargo.toml, written into the installed metadata by maturin
    __version__ = _metadata.version("tarabish")
except _metadata.PackageNotFoundError:  # a source tree on sys.path, not installed
    __version__ = "0+unknown"

__all__ = [
    "DECK",
    "TENSOR_SIZE",
    "Action",
    "ActionKind",
    "CallResult",
    "Card",
    "HandResult",
    "HandState",
    "IllegalActionError",
    "InvalidInputError",
    "MatchState",
    "Misplay",
    "Observation",
    "Outcome",
    "Phase",
    "Rank",
    "RecordError",
    "Rules",
    "Run",
    "RunsResult",
    "Solution",
    "Suit",
    "Summary",
    "TableView",
    "TarabishError",
    "TournamentResult",
    "TrickResult",
    "__version__",
    "bot_action",
    "bot_spec",
    "card_points",
    "compare_runs",
    "deal_cards",
    "find_runs",
    "legal_plays",
    "parse_cards",
    "play_random_hand",
    "replay",
    "run_winner",
    "score_hand",
    "simulate",
    "solve",
    "solve_many",
    "to_record",
    "tournament",
    "trick_winner",
]
