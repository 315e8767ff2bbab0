"""``simulate`` with bots written in Python: the slower path of rust/sim.rs, played here one
decision at a time on the calling thread. A Python bot is any object with
``act(observation, legal_ids) -> int`` (``tarabish._python_bots.PythonBot``); it sees its seat's
``Observation`` only.

Game ``i`` of a batch seeded ``seed`` is dealt from hand seed ``derive(seed, i)`` by seat
``i % 4`` (a match: match seed ``derive(seed, i)``, first dealer ``i % 4``), and a Rust bot
(a spec) decides the ``k``-th action of the game with seed ``derive(game seed, k)``. The counts
have the keys and meaning of ``_core.simulate``; the draws differ from the all-Rust path, so
the same seed gives other games there.
"""

from __future__ import annotations

from typing import Any

from . import _core
from ._errors import IllegalActionError
from ._python_bots import Bot, PythonBot
from ._rules import Rules
from ._views import HandResult, Outcome

# The order of the core's `Summary::outcomes` (rust/sim.rs): R6, R3.3, then R8.2, R8.3.
OUTCOMES = (
    Outcome.MADE,
    Outcome.BAIT,
    Outcome.HALF_BAIT,
    Outcome.VOID,
    Outcome.MISPLAY,
    Outcome.THROW_IN,
)


def play_range(
    *, start: int, stop: int, threads: int, seed: int, bots: list[Bot], rules: Rules, matches: bool
) -> dict[str, Any]:
    """Plays games ``start..stop`` and returns their counts (``threads`` is ignored: one)."""
    del threads  # a Python bot holds the interpreter: the calling thread plays everything
    totals: dict[str, Any] = {
        "hands": 0,
        "matches": 0,
        "outcomes": [0] * len(OUTCOMES),
        "calls_by_seat": [0, 0, 0, 0],
        "trick_points_by_seat": [0, 0, 0, 0],
        "points_by_team": [0, 0],
        "score_by_team": [0, 0],
        "hands_with_runs": 0,
        "run_points": 0,
        "hands_with_bella": 0,
        "match_wins": [0, 0],
    }
    for index in range(start, stop):
        game_seed = _core.derive_seed(seed, index)
        if matches:
            game = _core.MatchState(seed=game_seed, rules=rules, first_dealer=index % 4)
            _play(game, bots, game_seed, lambda result: _record(totals, result))
            totals["matches"] += 1
            if game.winner is not None:
                totals["match_wins"][game.winner] += 1
        else:
            state = _core.HandState(index % 4, seed=game_seed, rules=rules)
            _play(state, bots, game_seed, lambda result: None)
            if state.result is not None:
                _record(totals, state.result)
    return totals


def _play(game: Any, bots: list[Bot], game_seed: int, finished: Any) -> None:
    """Plays ``game`` (a hand or a match) to its end; ``finished(result)`` after each hand of
    a match."""
    step = 0
    while not game.is_terminal:
        hand = game.hand if isinstance(game, _core.MatchState) else game
        seat = hand.to_move
        assert seat is not None  # a running game has a seat to move
        bot = bots[seat]
        if isinstance(bot, PythonBot):
            legal = hand.legal_action_ids()
            action = bot.act(hand.observation(seat), legal)
            if action not in legal:
                rule = "R5.1" if hand.trump is not None else "R3.1"
                raise IllegalActionError(
                    f"the Python bot at seat {seat} chose {action!r}, not one of the legal "
                    f"ids {legal} ({rule})",
                    action=repr(action),
                    rule=rule,
                    state=f"seat {seat} to move",
                )
        else:
            action = _core.bot_action(hand, bot, _core.derive_seed(game_seed, step))
        before = game.hand_index if isinstance(game, _core.MatchState) else 0
        game.apply(action)
        step += 1
        if isinstance(game, _core.MatchState) and (game.hand_index != before or game.is_terminal):
            finished(game.history[-1].result)


def _record(totals: dict[str, Any], result: HandResult | None) -> None:
    """Adds one finished hand, as rust/sim.rs ``Summary::record``."""
    if result is None:
        return
    totals["hands"] += 1
    totals["outcomes"][OUTCOMES.index(result.outcome)] += 1
    if result.outcome is Outcome.VOID:
        return
    if result.caller is not None:
        totals["calls_by_seat"][result.caller] += 1
    for trick in result.tricks:
        totals["trick_points_by_seat"][trick.winner] += trick.points
    for team in range(2):
        totals["points_by_team"][team] += result.points[team]
        totals["score_by_team"][team] += result.score[team]
    if result.runs is not None:
        totals["hands_with_runs"] += 1
        totals["run_points"] += result.runs.points
    totals["hands_with_bella"] += result.bella is not None
