"""``tarabish play``: a match (R7) in the terminal, you against bots, on a screen redrawn at
each of your turns (``tarabish._screen``). Only your seat's observation is drawn; only the
engine's legal actions are offered (a stuck dealer is never offered ``pass``, R3.2), and a
refused action is explained in one line with the rule it breaks."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import TextIO

from rich.console import Console

from . import _core
from ._actions import Action
from ._errors import IllegalActionError, excerpt
from ._rules import Rules
from ._screen import (
    Choice,
    Seating,
    TableScreen,
    choices,
    pick_choice,
    render_hand_summary,
    render_table,
)
from ._views import HandResult

Bot = Callable[[_core.MatchState], int]
"""A bot seat: the action id it takes in a match whose seat to move is its own."""

QUIT = ("q", "quit", "exit")
HELP = (
    "type a number or the action's text (JH, 10h, call H, pass); q quits; "
    "the kitty is seen once trump is named (R2.4)"
)


def engine_bot(name: str, seed: int) -> Bot:
    """One of the core's bots (``random``, ``greedy``), its moves seeded from ``seed`` and the
    move number, so a match is the same for the same seed and the same answers."""
    moves = 0

    def move(game: _core.MatchState) -> int:
        nonlocal moves
        moves += 1
        return _core.bot_action(game.hand, name, seed ^ moves)

    return move


def refusal(game: _core.MatchState, action: Action) -> str:
    """One short line saying why ``action`` is not allowed now (the rule and its reason)."""
    try:
        game.clone().apply(action)
    except IllegalActionError as error:
        text = " ".join(str(error).split())
        reason = text[text.find(error.rule) :] if error.rule in text else text
        state_at = reason.find(" (dealer ")  # the engine's full state description: not needed
        return f"not allowed: {reason[:state_at] if state_at > 0 else reason}"
    return f"not allowed: {action} is not one of the actions offered"


class PlaySession:
    """A match between you (``seating.you``) and ``bot`` at the other seats, drawn on
    ``console`` and read from ``inp``. ``run`` plays it to its end or until you quit."""

    def __init__(
        self,
        game: _core.MatchState,
        seating: Seating,
        bot: Bot,
        console: Console,
        inp: TextIO,
        title: str,
    ) -> None:
        self.game = game
        self.seating = seating
        self.bot = bot
        self.console = console
        self.inp = inp
        self.title = title
        self.message: str | None = None
        self.last_hand: HandResult | None = None

    def _apply(self, action: Action | int) -> None:
        hands_done = len(self.game.history)
        self.game.apply(action)
        if len(self.game.history) > hands_done:
            self.last_hand = self.game.history[-1].result

    def _draw(self, options: tuple[Choice, ...]) -> None:
        game = self.game
        self.console.clear()
        self.console.print(
            render_table(
                TableScreen(
                    view=game.observation(self.seating.you),
                    seating=self.seating,
                    match_scores=game.scores,
                    target=game.rules.target,
                    hand_number=game.hand_index,
                    options=options,
                    message=self.message,
                    last_hand=self.last_hand,
                    title=self.title,
                )
            )
        )

    def _your_turn(self) -> bool:
        """Draw, read one line, act on it; False when you quit (q or end of input)."""
        options = choices(self.game.legal_actions())
        self._draw(options)
        self.console.print("your action (? for help): ", end="")
        line = self.inp.readline()
        typed = line.strip()
        if not line or typed.lower() in QUIT:
            return False
        if typed in ("?", "h", "help"):
            self.message = HELP
            return True
        picked = pick_choice(typed, options, self.seating.you)
        if isinstance(picked, Choice):
            self.message = None
            self._apply(picked.action)
        elif isinstance(picked, Action):
            self.message = refusal(self.game, picked)
        else:
            self.message = (
                f"{excerpt(typed)} is not an action: type 1-{len(options)} or one of "
                + ", ".join(option.text for option in options)
            )
        return True

    def run(self) -> int:
        """Play to the end of the match; 0 when it ends or you quit."""
        game = self.game
        while not game.is_terminal:
            if game.to_move == self.seating.you:
                if not self._your_turn():
                    self.console.print("\nbye")
                    return 0
            else:
                self._apply(self.bot(game))
        self.console.clear()
        if self.last_hand is not None:
            self.console.print(
                render_hand_summary(self.last_hand, self.seating, game.scores, game.rules.target)
            )
        winner = game.winner if game.winner is not None else 0
        self.console.print(
            f"{self.seating.team_label(winner)} win the match "
            f"{game.scores[winner]}-{game.scores[1 - winner]} (R7.1)"
        )
        return 0


def play_main(
    *,
    seed: int | None,
    seat: int,
    bot: str,
    rules: Rules,
    inp: TextIO = sys.stdin,
    console: Console | None = None,
) -> int:
    """``tarabish play``: a match against the core's ``bot`` at the other three seats."""
    seed = seed if seed is not None else random.randrange(2**63)
    game = _core.MatchState(seed=seed, rules=rules)
    session = PlaySession(
        game,
        Seating(seat),
        engine_bot(bot, seed),
        console if console is not None else Console(highlight=False),
        inp,
        title=f"tarabish, seed {seed}",
    )
    return session.run()
