"""tarabish: a fast, exact rules engine for Tarabish (RULES.md), Rust core with a typed Python API.

The values (cards, rules, runs, actions, views) are plain dataclasses and enums; the rule
primitives and the game states run in the Rust core (``tarabish._core``). ``tarabish.reference``
is an independent pure-Python implementation with the same interface (docs/ENGINE.md).
"""

from ._actions import Action, ActionKind, Phase
from ._cards import DECK, Card, Rank, Suit, parse_cards
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
from ._errors import IllegalActionError, InvalidInputError, TarabishError
from ._record import RecordError, replay, to_record
from ._rules import Rules
from ._runs import Run
from ._simulate import Summary, bot_action, bot_spec, simulate
from ._views import (
    CallResult,
    HandResult,
    Misplay,
    Observation,
    Outcome,
    RunsResult,
    TableView,
    TrickResult,
)

__version__ = "0.1.0"

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
    "Suit",
    "Summary",
    "TableView",
    "TarabishError",
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
    "to_record",
    "trick_winner",
]
