"""``tarabish play``: a match in the terminal, you against the Rust bots. Shows only what your
seat may see (its observation); any illegal input is explained with the rule it breaks."""

from __future__ import annotations

import random
import sys
from typing import TextIO

from . import _core
from ._actions import Action, ActionKind
from ._cards import format_cards
from ._errors import TarabishError
from ._rules import Rules
from ._views import HandResult, Observation


def _show(obs: Observation, out: TextIO) -> None:
    trump = (
        "no trump yet" if obs.trump is None else f"trump {obs.trump} (called by seat {obs.caller})"
    )
    out.write(f"\n{trump}; points {obs.points[0]}-{obs.points[1]}\n")
    if obs.tricks:
        last = obs.tricks[-1]
        out.write(
            f"last trick: {format_cards(last.cards)} (led by seat {last.leader}), "
            f"won by seat {last.winner}\n"
        )
    if obs.trick_leader is not None:
        cards = format_cards(obs.trick) or "-"
        out.write(f"this trick (led by seat {obs.trick_leader}): {cards}\n")
    kitty = f" + {obs.unseen_kitty} unseen" if obs.unseen_kitty else ""
    out.write(f"your cards: {format_cards(obs.hand)}{kitty}\n")


def _result_line(result: HandResult) -> str:
    runs = f", runs {result.runs.points} to seat {result.runs.seat}" if result.runs else ""
    bella = f", bella seat {result.bella}" if result.bella is not None else ""
    return (
        f"hand over: {result.outcome}, points {result.points[0]}-{result.points[1]}, "
        f"score {result.score[0]}-{result.score[1]}{runs}{bella}"
    )


def _read_action(legal: list[Action], seat: int, inp: TextIO, out: TextIO) -> Action | None:
    for number, action in enumerate(legal):
        label = {
            ActionKind.PLAY: str(action.card),
            ActionKind.CALL: f"call {action.suit}",
            ActionKind.PASS: "pass",
        }[action.kind]
        out.write(f"  {number}: {label}\n")
    out.write("your action (number, card like JH, 'call H', 'pass'; q quits): ")
    out.flush()
    line = inp.readline()
    if not line or line.strip().lower() in ("q", "quit"):
        return None
    text = line.strip()
    if text.isdigit() and int(text) < len(legal):
        return legal[int(text)]
    words = text.split()
    if len(words) == 1 and words[0].lower() != "pass":
        words = ["play", *words]
    try:
        return Action.parse(f"{seat} {' '.join(words)}")
    except TarabishError as error:
        out.write(f"{error}\n")
        return _read_action(legal, seat, inp, out)


def play_main(
    *,
    seed: int | None,
    seat: int,
    bot: str,
    rules: Rules,
    inp: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
) -> int:
    seed = seed if seed is not None else random.randrange(2**63)
    game = _core.MatchState(seed=seed, rules=rules)
    out.write(
        f"tarabish match, seed {seed}: you are seat {seat} (team {seat % 2}), "
        f"playing to {rules.target}\n"
    )
    hands_seen = 0
    step = 0
    while not game.is_terminal:
        hand = game.hand
        if game.to_move == seat:
            _show(game.observation(seat), out)
            action = _read_action(game.legal_actions(), seat, inp, out)
            if action is None:
                out.write("bye\n")
                return 0
            try:
                game.apply(action)
            except TarabishError as error:
                out.write(f"not allowed: {error}\n")
                continue
        else:
            step += 1
            action_id = _core.bot_action(hand, bot, seed ^ step)
            out.write(f"{Action.from_id(action_id, hand.to_move or 0)}\n")
            game.apply(action_id)
        if len(game.history) > hands_seen:
            hands_seen = len(game.history)
            result = game.history[-1].result
            if result is not None:
                out.write(_result_line(result) + "\n")
            out.write(f"match score {game.scores[0]}-{game.scores[1]}\n")
    out.write(f"team {game.winner} wins the match {game.scores[0]}-{game.scores[1]}\n")
    return 0
