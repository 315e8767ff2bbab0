"""Bots written in Python in duplicate tournaments: the slower path of rust/tournament.rs, played
here, one decision at a time, on the calling thread (or one Ray task a range).

A Python bot is any object with ``act(observation, legal_ids) -> int``: ``observation`` is the
``tb.Observation`` of its seat (what that seat may know, nothing more) and ``legal_ids`` the
legal action ids, ascending. The counts are those of ``_core.tournament`` (the same keys and
meaning); a Rust bot (a spec) facing a Python bot decides through ``_core.bot_action`` with the
seed ``derive(match seed, k)`` for the match's ``k``-th action, so the result is the same for a
seed on every run.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from . import _core
from ._rules import Rules
from ._views import Observation


@runtime_checkable
class PythonBot(Protocol):
    """A bot written in Python."""

    def act(self, observation: Observation, legal_ids: list[int]) -> int:
        """The action id to take (one of ``legal_ids``) for the seat of ``observation``."""
        ...


Bot = str | PythonBot
"""A canonical Rust bot spec, or a Python bot."""

TEAMS = 2


def name(bot: Bot) -> str:
    """What the result calls a bot: its spec, or a Python bot's ``name`` or class name."""
    if isinstance(bot, str):
        return bot
    return str(getattr(bot, "name", type(bot).__name__))


def play_pairs(
    *, start: int, stop: int, threads: int, seed: int, bots: tuple[Bot, Bot], rules: Rules
) -> dict[str, Any]:
    """Plays duplicate pairs ``start .. stop`` (``threads`` is not used: one thread) and returns
    the counts of ``_core.tournament``."""
    del threads  # Python bots hold the interpreter: more threads would only wait for it
    counts: dict[str, Any] = {
        "pairs": 0,
        "hands": 0,
        "wins": [0, 0],
        "points": [0, 0],
        "pairs_won": [0, 0, 0],
        "margin_squares": 0,
        "hands_squares": 0,
        "margin_hands": 0,
    }
    for index in range(start, stop):
        match_seed = _core.derive_seed(seed, index)
        wins, points, hands = [0, 0], [0, 0], 0
        for swapped in (False, True):
            # Team 0 (seats 0 and 2) is A in the first match, B in the second.
            by_team = (bots[1], bots[0]) if swapped else bots
            match = _play_match(match_seed, index % 4, by_team, rules)
            hands += len(match.history)
            scores = match.scores[::-1] if swapped else match.scores
            for side in range(TEAMS):
                points[side] += scores[side]
            winner = match.winner
            assert winner is not None, "R7.1: a finished match has a winner"
            wins[winner ^ swapped] += 1
        margin = points[0] - points[1]
        counts["pairs"] += 1
        counts["hands"] += hands
        for side in range(TEAMS):
            counts["wins"][side] += wins[side]
            counts["points"][side] += points[side]
        counts["pairs_won"][2 - wins[0]] += 1
        counts["margin_squares"] += margin * margin
        counts["hands_squares"] += hands * hands
        counts["margin_hands"] += margin * hands
    return counts


def _play_match(
    match_seed: int, first_dealer: int, by_team: tuple[Bot, Bot], rules: Rules
) -> _core.MatchState:
    match = _core.MatchState(seed=match_seed, rules=rules, first_dealer=first_dealer)
    step = 0
    while not match.is_terminal:
        seat = match.to_move
        assert seat is not None, "a match that is not over has a seat to move"
        bot = by_team[seat % TEAMS]
        if isinstance(bot, str):
            action = _core.bot_action(match.hand, bot, _core.derive_seed(match_seed, step))
        else:
            action = bot.act(match.observation(seat), match.legal_action_ids())
        match.apply(action)  # an illegal choice raises IllegalActionError naming the rule
        step += 1
    return match
