"""``tarabish play``: a match (R7) in the terminal, you against bots, on a screen redrawn at
each of your turns (``tarabish._screen``). Only your seat's observation is drawn; only the
engine's legal actions are offered (a stuck dealer is never offered ``pass``, R3.2), and a
refused action is explained in one line with the rule it breaks.

``--table`` plays table mode (docs/TABLE.md): manual declarations and misplays accepted. You are
offered every action you are allowed (any card you hold, R8.1; announce, show and bella while
their window is open, R4.4, R4.5; misplay and throw calls, R8.2, R8.3), told which cards would
be misplays and which declaration windows you missed, and what the table declared and called;
the bots declare correctly and call a misplay the plays prove (``tarabish._table_bots``). Calls
may come out of turn (R8.6a): whenever a card has been played (or trump named) since you last
had the word and another seat is to act, the screen stops so that you may call a misplay or
throw in, or let the table play on with Enter."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import TextIO

from rich.console import Console

from . import _core
from ._actions import (
    ANNOUNCE_ID,
    BELLA_ID,
    CALL_BASE,
    MISPLAY_ID,
    SHOW_ID,
    THROW_ID,
    Action,
    ActionKind,
)
from ._cards import Rank
from ._errors import IllegalActionError, excerpt
from ._rules import Rules
from ._screen import (
    Choice,
    Seating,
    TableScreen,
    choices,
    not_an_action,
    pick_choice,
    render_hand_summary,
    render_table,
)
from ._table_bots import (
    bot_misplay_call,
    table_bot_action,
    table_lines,
)
from ._views import HandResult

Bot = Callable[[_core.MatchState], int]
"""A bot seat: the action id it takes in a match whose seat to move is its own."""

QUIT = ("q", "quit", "exit")
HELP = (
    "type a number or the action's text (JH, 10h, call H, pass); q quits; "
    "the kitty is seen once trump is named (R2.4)"
)
PAUSE_PROMPT = "Enter to go on, or a call (? for help): "
PAUSE_HELP = (
    "another seat is to act: press Enter to let it, or call out of turn (R8.6a): misplay "
    "(R8.2: right if the other team misplayed this hand, else the hand goes to them) or throw "
    "(R8.3: concede the hand); q quits"
)
_CALLS = (MISPLAY_ID, THROW_ID)


def engine_bot(name: str, seed: int) -> Bot:
    """One of the core's bots (``random``, ``greedy``), its moves seeded from ``seed`` and the
    move number, so a match is the same for the same seed and the same answers."""
    moves = 0

    def move(game: _core.MatchState) -> int:
        nonlocal moves
        moves += 1
        return _core.bot_action(game.hand, name, seed ^ moves)

    return move


def table_bot(name: str, seed: int) -> Bot:
    """``engine_bot`` for table mode: the same card choice, declaring correctly."""
    moves = 0

    def move(game: _core.MatchState) -> int:
        nonlocal moves
        moves += 1
        return table_bot_action(game, name, seed ^ moves)

    return move


_WINDOWS = {
    ANNOUNCE_ID: "you hold a run: announce it now, before your card, or it does not count (R4.4)",
    SHOW_ID: "show your announced runs now, before your card, or they do not count (R4.4)",
    BELLA_ID: "you may call bella now: with your announcement, or before playing the trump K "
    "or Q (R4.5)",
}
_MISSED = {
    ANNOUNCE_ID: "you did not announce: your runs do not count this hand (R4.4)",
    SHOW_ID: "you did not show in time: your runs do not count unless a late twenty is "
    "allowed (R4.4)",
    BELLA_ID: "you played the trump K or Q without calling bella (R4.5)",
}


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
        table: bool = False,
    ) -> None:
        self.game = game
        self.table = table
        self.seen = 0  # the last event seq you were told (table mode)
        # (hand, cards played) when you last had the word: table mode stops once a moment.
        self.prompted: tuple[int, int] | None = None
        self.notes: list[str] = []
        self.seating = seating
        self.bot = bot
        self.console = console
        self.inp = inp
        self.title = title
        self.message: str | None = None
        self.last_hand: HandResult | None = None

    def _apply(self, action: Action | int, seat: int | None = None) -> None:
        hands_done = len(self.game.history)
        self.game.apply(action, seat)
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
                    message="\n".join([*self.notes, self.message or ""]).strip() or None,
                    last_hand=self.last_hand,
                    title=self.title,
                )
            )
        )

    def _table_notes(self) -> None:
        """Table mode: what the table declared and called since your last turn, your open
        declaration windows, and the cards that would be misplays (R8.1)."""
        you = self.seating.you
        events = self.game.events(you, self.seen)
        if events:
            self.seen = events[-1]["seq"]
        self.notes = table_lines(events, self.seating.name, self.seating.team_name)
        allowed = self.game.allowed_action_ids(you)
        legal = set(self.game.legal_action_ids(you))
        self.notes += [_WINDOWS[i] for i in (ANNOUNCE_ID, SHOW_ID, BELLA_ID) if i in allowed]
        misplays = [
            str(a.card)
            for a in self.game.allowed_actions(you)
            if a.id < CALL_BASE and a.id not in legal
        ]
        if misplays:
            self.notes.append(
                f"would break R5.1 (a misplay anyone may call, R8.1): {' '.join(misplays)}"
            )

    def _missed(self, action: Action) -> str | None:
        """Table mode: the declaration window your card closes (R4.4, R4.5)."""
        if action.kind is not ActionKind.PLAY or action.card is None:
            return None
        allowed = self.game.allowed_action_ids(self.seating.you)
        trump = self.game.hand.trump
        for window in (ANNOUNCE_ID, SHOW_ID):
            if window in allowed:
                return _MISSED[window]
        bells = (
            trump is not None
            and action.card.suit == trump
            and action.card.rank
            in (
                Rank.KING,
                Rank.QUEEN,
            )
        )
        return _MISSED[BELLA_ID] if BELLA_ID in allowed and bells else None

    def _call_moment(self) -> tuple[int, int] | None:
        """Table mode: (hand, cards played) if you may call a misplay or throw in now (R8.2,
        R8.3: in the play, out of turn too, R8.6a), else None."""
        allowed = self.game.allowed_action_ids(self.seating.you)
        if not any(call in allowed for call in _CALLS):
            return None
        plays = sum(1 for action in self.game.hand.actions if action.kind is ActionKind.PLAY)
        return (self.game.hand_index, plays)

    def _between_cards(self) -> bool:
        """Table mode, another seat to act: draw, read one line; Enter lets the table play on,
        a call is applied out of turn (R8.6a). False when you quit."""
        you = self.seating.you
        self._table_notes()
        options = choices([a for a in self.game.allowed_actions(you) if a.id in _CALLS])
        self._draw(options)
        self.console.print(PAUSE_PROMPT, end="")
        line = self.inp.readline()
        typed = line.strip()
        if not line or typed.lower() in QUIT:
            return False
        self.message = None
        if not typed:
            return True
        self.prompted = None  # anything but Enter or a call: ask again
        if typed in ("?", "h", "help"):
            self.message = PAUSE_HELP
            return True
        picked = pick_choice(typed, options, you)
        if isinstance(picked, Choice):
            self._apply(picked.action)
        elif isinstance(picked, Action):
            self.message = refusal(self.game, picked)
        else:
            self.message = f"{excerpt(typed)} is not a call: press Enter to go on, or type " + (
                ", ".join(option.text for option in options)
            )
        return True

    def _your_turn(self) -> bool:
        """Draw, read one line, act on it; False when you quit (q or end of input)."""
        you = self.seating.you
        if self.table:
            self._table_notes()
            options = choices(self.game.allowed_actions(you))
        else:
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
            self.message = self._missed(picked.action) if self.table else None
            self._apply(picked.action)
            if self.table:
                self.prompted = self._call_moment()  # you just had the word
        elif isinstance(picked, Action):
            self.message = refusal(self.game, picked)
        else:
            self.message = not_an_action(typed, options)
        return True

    def run(self) -> int:
        """Play to the end of the match; 0 when it ends or you quit."""
        game = self.game
        bots = [seat for seat in range(4) if seat != self.seating.you]
        while not game.is_terminal:
            caller = bot_misplay_call(game, bots) if self.table else None
            staying = True
            if caller is not None:
                self._apply(MISPLAY_ID, caller)
            elif game.to_move == self.seating.you:
                staying = self._your_turn()
            elif self.table and self._call_moment() not in (None, self.prompted):
                self.prompted = self._call_moment()
                staying = self._between_cards()
            else:
                self._apply(self.bot(game))
            if not staying:
                self.console.print("\nbye")
                return 0
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
    table: bool = False,
) -> int:
    """``tarabish play``: a match against the core's ``bot`` at the other three seats; with
    ``table`` in table mode (manual declarations, misplays accepted: docs/TABLE.md)."""
    seed = seed if seed is not None else random.randrange(2**63)
    if table:
        rules = Rules(**{**rules.to_dict(), "declarations": "manual", "enforce_legal_play": False})
    game = _core.MatchState(seed=seed, rules=rules)
    session = PlaySession(
        game,
        Seating(seat),
        table_bot(bot, seed) if table else engine_bot(bot, seed),
        console if console is not None else Console(highlight=False),
        inp,
        title=f"tarabish{' table' if table else ''}, seed {seed}",
        table=table,
    )
    return session.run()
