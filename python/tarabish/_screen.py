"""The screen of ``tarabish play``: one seat's table drawn from its public view.

Everything drawn comes from ``Observation`` (R2.4, R4.4, R4.5: what the seat may know) and the
match scores (R7), never from the full state, so the screen cannot leak a hidden card. The
allowed actions are given as ``Choice`` values built from the engine's legal actions, so any
verb the engine allows (table mode's ``announce``, ``misplay`` ... included) is offered with no
change here; a bot seat is only a name on the screen.

``render_table`` draws the table (your hand, the trick, the last trick, trump, the dealer, your
partner, whose turn, the hand's points and the match score by team), ``render_hand_summary``
a finished hand (R6), ``pick_choice`` reads a choice by number or by its text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ._actions import Action, ActionKind, Phase
from ._cards import Card, Suit
from ._errors import TarabishError, excerpt
from ._views import HandResult, Observation, Outcome

SEATS = 4
TEAMS = 2
_SUIT_STYLE = {Suit.C: "bold", Suit.D: "bold red", Suit.H: "bold red", Suit.S: "bold"}
_SUIT_NAME = {Suit.C: "clubs", Suit.D: "diamonds", Suit.H: "hearts", Suit.S: "spades"}
_OUTCOME_TEXT = {
    Outcome.MADE: "made",
    Outcome.BAIT: "bait: the callers lose it all",
    Outcome.HALF_BAIT: "half bait",
    Outcome.VOID: "void: nobody called",
    Outcome.MISPLAY: "ended by a misplay call (R8.2)",
    Outcome.THROW_IN: "thrown in (R8.3)",
}


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where, as seen from ``you``: play goes to the left (R2.2, R5.1), so seat
    ``you + 1`` is Left, ``you + 2`` your partner (R0: seats s and s + 2 are a team) and
    ``you + 3`` Right. Teams are named from your side: "Us" and "Them"."""

    you: int

    def name(self, seat: int) -> str:
        """``"You"``, ``"Left"``, ``"Partner"`` or ``"Right"``."""
        return ("You", "Left", "Partner", "Right")[(seat - self.you) % SEATS]

    def label(self, seat: int) -> str:
        """The name with the seat number: ``"Left (seat 1)"``."""
        return f"{self.name(seat)} (seat {seat})"

    def team_name(self, team: int) -> str:
        """``"Us"`` for your team, ``"Them"`` for the other (team = seat mod 2, R0)."""
        return "Us" if team == self.you % TEAMS else "Them"

    def team_label(self, team: int) -> str:
        """The team name with its players: ``"Us (You + Partner)"``."""
        first, second = (team, team + TEAMS)
        return f"{self.team_name(team)} ({self.name(first)} + {self.name(second)})"


@dataclass(frozen=True, slots=True)
class Choice:
    """One allowed action, offered by ``number`` and by ``text`` (what the player may type:
    ``"JH"``, ``"call H"``, ``"pass"``, or any other verb the engine allows)."""

    number: int
    text: str
    action: Action


def choice_text(action: Action) -> str:
    """The text of an action without its seat; a card play is just the card (``"JH"``)."""
    if action.kind is ActionKind.PLAY and action.card is not None:
        return str(action.card)
    return str(action).split(" ", 1)[1]


def choices(actions: Sequence[Action]) -> tuple[Choice, ...]:
    """The allowed actions numbered from 1, in the engine's order."""
    return tuple(Choice(number, choice_text(a), a) for number, a in enumerate(actions, start=1))


def not_an_action(typed: str, options: Sequence[Choice]) -> str:
    """The line for text that is no action at all: what may be typed instead (the options'
    numbers and texts)."""
    numbers = "1" if len(options) == 1 else f"1-{len(options)}"
    texts = ", ".join(option.text for option in options)
    listed = texts if len(options) == 1 else f"one of {texts}"
    return f"{excerpt(typed)} is not an action: type {numbers} or {listed}"


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


_MAX_CHOICE_DIGITS = 3


def pick_choice(text: str, options: Sequence[Choice], seat: int) -> Choice | Action | None:
    """The choice the player typed (its number, or its text in any case: ``jh``, ``10h`` for
    ``TH``, ``play JH``, ``call h``, ``h`` for ``call H``, ``pass``). An action that parses but
    is not allowed comes back as the ``Action`` (so its refusal can be explained); text that is
    no action at all gives None."""
    typed = _normal(text)
    if typed.isascii() and typed.isdigit():
        # ASCII digits only (int() reads Arabic-Indic digits and refuses superscripts or 5,000
        # digits); the options number in the dozens, so a long number is no option.
        number = int(typed) if len(typed) <= _MAX_CHOICE_DIGITS else -1
        return next((c for c in options if c.number == number), None)
    for option in options:
        if typed in (_normal(option.text), _normal(str(option.action).split(" ", 1)[1])):
            return option
    action = _parse(typed, seat)
    if action is None:
        return None
    return next((c for c in options if c.action == action), action)


def _parse(typed: str, seat: int) -> Action | None:
    words = typed.split()
    candidates = [typed]
    if len(words) == 1:
        candidates.append(f"play {typed}")
        if len(typed) == 1:
            candidates.append(f"call {typed}")
    for candidate in candidates:
        try:
            return Action.parse(f"{seat} {candidate}")
        except TarabishError:
            continue
    return None


def card_text(card: Card, trump: Suit | None = None) -> Text:
    """A card in its suit's colour, underlined when it is a trump."""
    style = _SUIT_STYLE[card.suit] + (" underline" if card.suit == trump else "")
    return Text(str(card), style=style)


def cards_text(cards: Sequence[Card], trump: Suit | None = None, empty: str = "-") -> Text:
    """Cards separated by spaces (``empty`` when there are none)."""
    if not cards:
        return Text(empty, style="dim")
    return Text(" ").join(card_text(card, trump) for card in cards)


def _played_by(leader: int, cards: Sequence[Card], seating: Seating, trump: Suit | None) -> Text:
    parts = [
        Text.assemble(f"{seating.name((leader + i) % SEATS)} ", card_text(card, trump))
        for i, card in enumerate(cards)
    ]
    return Text(", ").join(parts) if parts else Text("-", style="dim")


def _trump_line(view: Observation, seating: Seating) -> Text:
    if view.trump is None:
        return Text("not named yet", style="yellow")
    caller = "" if view.caller is None else f", called by {seating.label(view.caller)}"
    return Text.assemble(
        (f"{view.trump} {_SUIT_NAME[view.trump]}", _SUIT_STYLE[view.trump]), caller
    )


def _auction_line(view: Observation, seating: Seating) -> Text:
    """The auction so far (R3.1): each seat's pass or call, in order."""
    words = [
        f"{seating.name(a.seat)} {'passed' if a.kind is ActionKind.PASS else choice_text(a)}"
        for a in view.auction
    ]
    return Text(", ".join(words) or "no one has spoken yet")


def _runs_line(view: Observation, seating: Seating) -> Text | None:
    announced = [f"{seating.name(s)} {points}" for s, points in enumerate(view.announced) if points]
    parts = []
    if announced:
        parts.append("announced " + ", ".join(announced))
    if view.runs is not None:
        parts.append(f"{seating.name(view.runs.seat)} scores {view.runs.points} in runs (R4.3)")
    if view.bella is not None:
        parts.append(f"bella to {seating.name(view.bella)} (R4.5)")
    return Text("; ".join(parts)) if parts else None


def _scores_table(
    seating: Seating, hand_points: Sequence[int], match_scores: Sequence[int], target: int
) -> Table:
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("team")
    table.add_column("this hand", justify="right")
    table.add_column(f"match (to {target})", justify="right")
    for team in (seating.you % TEAMS, (seating.you + 1) % TEAMS):
        style = "bold green" if team == seating.you % TEAMS else ""
        table.add_row(
            Text(seating.team_label(team), style=style),
            str(hand_points[team]),
            str(match_scores[team]),
        )
    return table


@dataclass(frozen=True, slots=True)
class TableScreen:
    """What one frame shows: the seat's view, the match, the allowed actions and the last
    message (a refused action, or None)."""

    view: Observation
    seating: Seating
    match_scores: tuple[int, int]
    target: int
    hand_number: int
    options: tuple[Choice, ...]
    message: str | None = None
    last_hand: HandResult | None = None
    title: str = "tarabish"


def render_table(screen: TableScreen) -> RenderableType:
    """The whole table as one renderable (fits 80 columns)."""
    view, seating = screen.view, screen.seating
    info = Table.grid(padding=(0, 2))
    info.add_column(style="cyan", no_wrap=True)
    info.add_column()
    info.add_row("trump", _trump_line(view, seating))
    if view.trump is None:
        info.add_row("auction", _auction_line(view, seating))
    info.add_row("dealer", seating.label(view.dealer))
    info.add_row("partner", seating.label((seating.you + 2) % SEATS))
    if view.trick_leader is not None:
        info.add_row("trick", _played_by(view.trick_leader, view.trick, seating, view.trump))
    if view.tricks:
        last = view.tricks[-1]
        info.add_row(
            "last trick",
            Text.assemble(
                _played_by(last.leader, last.cards, seating, view.trump),
                f"  won by {seating.name(last.winner)}, {last.points} points",
            ),
        )
    runs = _runs_line(view, seating)
    if runs is not None:
        info.add_row("runs", runs)
    others = "  ".join(
        f"{seating.name(s)} {view.hand_sizes[s]}" for s in range(SEATS) if s != seating.you
    )
    info.add_row("cards left", others)
    kitty = f" + {view.unseen_kitty} kitty cards, seen once trump is named"
    info.add_row(
        "your hand",
        Text.assemble(cards_text(view.hand, view.trump), kitty if view.unseen_kitty else ""),
    )
    turn = (
        Text("hand over", style="dim")
        if view.to_move is None
        else Text("your turn", style="bold green")
        if view.to_move == seating.you
        else Text(f"{seating.label(view.to_move)} to move")
    )
    info.add_row("turn", turn)
    parts: list[RenderableType] = [
        _scores_table(seating, view.points, screen.match_scores, screen.target),
        Text(""),
        info,
    ]
    if screen.last_hand is not None:
        parts += [Text(""), hand_summary_line(screen.last_hand, seating, "last hand")]
    if screen.options:
        parts += [Text(""), options_text(screen.options)]
        why = _no_pass_reason(view, screen.options)
        if why is not None:
            parts.append(Text(why, style="yellow"))
    if screen.message:
        parts.append(Text(screen.message, style="bold red"))
    heading = f"{screen.title}: hand {screen.hand_number + 1}, you are {seating.label(seating.you)}"
    return Panel(Group(*parts), title=heading, title_align="left")


def _no_pass_reason(view: Observation, options: Sequence[Choice]) -> str | None:
    """Why ``pass`` is missing from an auction turn: the stuck dealer (R3.2) or a team that
    must call (R3.4)."""
    if view.phase is not Phase.AUCTION or any(o.action.kind is ActionKind.PASS for o in options):
        return None
    if view.to_move == view.dealer:
        return "no pass: the dealer must call here (R3.2 stuck dealer, or R3.4 forced call)"
    return "no pass: your team has enough points that it must call (R3.4)"


def options_text(options: Sequence[Choice]) -> Text:
    """The allowed actions: ``1) JH  2) 9H  3) pass``."""
    return Text("  ").join(
        Text.assemble((f"{option.number})", "cyan"), f" {option.text}") for option in options
    )


def hand_summary_line(result: HandResult, seating: Seating, label: str = "hand") -> Text:
    """A finished hand (R6) in two lines: trump, caller and outcome (with runs and bella),
    then each team's points and score by team name."""
    if result.outcome is Outcome.VOID:
        return Text(f"{label}: {_OUTCOME_TEXT[result.outcome]}, no score (R3.3)")
    caller = "" if result.caller is None else f" by {seating.name(result.caller)}"
    extras = []
    if result.runs is not None:
        extras.append(f"runs {result.runs.points} to {seating.name(result.runs.seat)}")
    if result.bella is not None:
        extras.append(f"bella to {seating.name(result.bella)}")
    tail = f" ({', '.join(extras)})" if extras else ""
    teams = "   ".join(
        f"{seating.team_name(t)} {result.points[t]} points, scores {result.score[t]}"
        for t in (seating.you % TEAMS, (seating.you + 1) % TEAMS)
    )
    return Text(
        f"{label}: {result.trump} called{caller}, {_OUTCOME_TEXT[result.outcome]}{tail}\n  {teams}"
    )


def render_hand_summary(
    result: HandResult, seating: Seating, match_scores: Sequence[int], target: int
) -> RenderableType:
    """A finished hand (R6) with the match score after it (R7)."""
    return Panel(
        Group(
            hand_summary_line(result, seating),
            Text(""),
            _scores_table(seating, result.score, match_scores, target),
        ),
        title="hand over",
        title_align="left",
    )
