"""The one place the server chooses its engine, and the one adapter it uses for bots.

The server speaks only the table-mode interface of docs/TABLE.md and docs/EVENTS.md
(``MatchState``, ``apply(action, seat)``, ``allowed_action_ids(seat)``, ``events(seat, since)``,
``table_view(seat)``), which both engines implement; ``ENGINE`` names the default, the Rust core.
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Any

from .. import _core
from .._actions import MISPLAY_ID, THROW_ID
from .._engines import ENGINES
from .._errors import InvalidInputError

ENGINE = "rust"
"""The engine a server runs unless told otherwise (``tarabish serve --engine``)."""

CALL_IDS = frozenset((MISPLAY_ID, THROW_ID))
"""``misplay`` and ``throw`` (R8.2, R8.3): no bot of the server ever calls them."""


def engine_module(name: str = ENGINE) -> ModuleType:
    """The engine module for ``rust`` or ``reference``; ``InvalidInputError`` otherwise."""
    if name not in ENGINES:
        raise InvalidInputError(f"unknown engine {name!r}: expected one of {sorted(ENGINES)}")
    return importlib.import_module(ENGINES[name])


def bot_choice(match: Any, seat: int, bot: str, seed: int) -> int:
    """The action id bot ``bot`` takes for ``seat`` (the seat to move) in ``match``.

    On the Rust core this is ``tarabish._core.bot_action`` (every bot spec it knows: random,
    greedy, and what the search module adds). On another engine only ``random`` exists: a seeded
    uniform choice among the seat's legal ids less the calls.
    """
    hand = match.hand
    if isinstance(hand, _core.HandState):
        return int(_core.bot_action(hand, bot, seed))
    if bot != "random":
        raise InvalidInputError(f"bot {bot!r} needs the Rust core; this engine has only 'random'")
    # A bella before the trump K or Q may leave only a misplay to play (docs/TABLE.md): then
    # the allowed set is all there is.
    choices: list[int] = [i for i in match.legal_action_ids(seat) if i not in CALL_IDS] or [
        i for i in match.allowed_action_ids(seat) if i not in CALL_IDS
    ]
    return choices[random.Random(seed).randrange(len(choices))]
