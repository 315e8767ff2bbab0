"""tarabish: a fast, exact rules engine for Tarabish (RULES.md), Rust core with a typed Python API.

The values (cards, rules, runs, actions, views) are plain dataclasses and enums; the rule
primitives and the game states run in the Rust core (``tarabish._core``). ``tarabish.reference``
is an independent pure-Python implementation with the same interface (docs/ENGINE.md).
"""

from __future__ import annotations

import sys as _sys

from ._cards import DECK, Card, Rank, Suit, parse_cards
from ._errors import IllegalActionError, InvalidInputError, TarabishError

# Not `typing.TYPE_CHECKING`: importing `typing` (with the `re`, `contextlib` and `collections`
# it imports) would be the largest part of the import. Type checkers read this name as theirs.
TYPE_CHECKING = False

# The names that need the Rust extension, by the module that defines them: the one table of
# them. They are imported on first use (PEP 562 ``__getattr__``), so that ``import
# tarabish.reference`` (whose values live in this package) never loads ``tarabish._core``: a
# broken build cannot break the reference. ``__all__`` and ``__dir__`` list them from here.
_LAZY_BY_MODULE = {
    "._core": (
        "TENSOR_SIZE",
        "__version__",
        "HandState",
        "MatchState",
        "card_points",
        "compare_runs",
        "deal_cards",
        "find_runs",
        "kernels",
        "legal_plays",
        "play_random_hand",
        "run_winner",
        "score_hand",
        "trick_winner",
    ),
    # Pure Python, loaded on first use too: the dataclasses (the rules, actions and runs, the
    # views; `dataclasses` imports `inspect`), the record format and its replay are most of
    # what `import tarabish` would otherwise spend (benches/test_bench_import.py).
    "._actions": ("Action", "ActionKind", "Phase"),
    "._rules": ("Rules",),
    "._runs": ("Run",),
    "._views": (
        "CallResult",
        "HandResult",
        "Misplay",
        "Observation",
        "Outcome",
        "RunsResult",
        "Solution",
        "TableView",
        "TrickResult",
    ),
    "._record": ("RecordError", "to_record"),
    "._replay": ("replay",),
    "._simulate": ("Summary", "bot_action", "bot_spec", "simulate"),
    "._self_play": ("SelfPlay", "self_play"),
    "._solve": ("solve", "solve_many"),
    "._tournament": ("TournamentResult", "tournament"),
    "._ladder": ("LadderResult", "ladder"),
}
_LAZY = {name: module for module, names in _LAZY_BY_MODULE.items() for name in names}

if TYPE_CHECKING:  # the same names for type checkers (test_reference_standalone.py checks them)
    from ._actions import Action as Action
    from ._actions import ActionKind as ActionKind
    from ._actions import Phase as Phase
    from ._core import TENSOR_SIZE as TENSOR_SIZE
    from ._core import HandState as HandState
    from ._core import MatchState as MatchState
    from ._core import __version__ as __version__
    from ._core import card_points as card_points
    from ._core import compare_runs as compare_runs
    from ._core import deal_cards as deal_cards
    from ._core import find_runs as find_runs
    from ._core import kernels as kernels
    from ._core import legal_plays as legal_plays
    from ._core import play_random_hand as play_random_hand
    from ._core import run_winner as run_winner
    from ._core import score_hand as score_hand
    from ._core import trick_winner as trick_winner
    from ._ladder import LadderResult as LadderResult
    from ._ladder import ladder as ladder
    from ._record import RecordError as RecordError
    from ._record import to_record as to_record
    from ._replay import replay as replay
    from ._rules import Rules as Rules
    from ._runs import Run as Run
    from ._self_play import SelfPlay as SelfPlay
    from ._self_play import self_play as self_play
    from ._simulate import Summary as Summary
    from ._simulate import bot_action as bot_action
    from ._simulate import bot_spec as bot_spec
    from ._simulate import simulate as simulate
    from ._solve import solve as solve
    from ._solve import solve_many as solve_many
    from ._tournament import TournamentResult as TournamentResult
    from ._tournament import tournament as tournament
    from ._views import CallResult as CallResult
    from ._views import HandResult as HandResult
    from ._views import Misplay as Misplay
    from ._views import Observation as Observation
    from ._views import Outcome as Outcome
    from ._views import RunsResult as RunsResult
    from ._views import Solution as Solution
    from ._views import TableView as TableView
    from ._views import TrickResult as TrickResult


def __getattr__(name: str) -> object:
    """A name of the Rust core (or of a module that needs it), imported on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib  # here: `importlib` imports `warnings`, which a light import spares

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # later lookups are plain attribute lookups
    return value


def __dir__() -> list[str]:
    """The public names, the module's own dunders and the public submodules imported so far:
    not the helpers of this file (``TYPE_CHECKING``, the lazy tables, private modules)."""
    names = {*__all__}
    for name, value in globals().items():
        dunder = name.startswith("__") and name.endswith("__")
        if dunder or (isinstance(value, type(_sys)) and not name.startswith("_")):
            names.add(name)
    return sorted(names)


__all__ = [
    "DECK",
    "Card",
    "IllegalActionError",
    "InvalidInputError",
    "Rank",
    "Suit",
    "TarabishError",
    "parse_cards",
    *_LAZY,
]
