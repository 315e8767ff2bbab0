"""Bots and table talk for ``tarabish play --table`` (docs/TABLE.md; RULES.md R4.4, R4.5, R8).

A table bot plays the core bot's R5.1-legal card and declares correctly: it announces and shows
its runs in time (R4.4) and calls bella when it counts (R4.5: with its announcement when the
trump K and Q are in one of its runs, else just before playing the second of the two, or the
first under ``first_bell_ok``). Any bot seat calls a misplay (R8.2) as soon as the public plays
prove that a seat of the other team misplayed: a seat that did not follow a suit and later plays
that suit (R5.1a). ``table_lines`` turns a seat's events into the lines a person is told.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from . import _core
from ._actions import ANNOUNCE_ID, BELLA_ID, MISPLAY_ID, SHOW_ID, Action, ActionKind
from ._cards import Card, Rank, Suit
from ._runs import Run

TEAMS = 2


def _bella_cards(trump: Suit) -> tuple[Card, Card]:
    return Card(trump, Rank.KING), Card(trump, Rank.QUEEN)


def _in_one_run(runs: Iterable[Run], pair: tuple[Card, Card]) -> bool:
    """Whether the trump K and Q are both in one of the runs (R4.5 with the announcement)."""
    return any(
        run.suit == pair[0].suit and run.top >= Rank.KING and run.top - run.length < Rank.QUEEN
        for run in runs
    )


def bella_counts_now(hand: Any, seat: int, card: int) -> bool:
    """Whether a bella by ``seat`` now, before playing card id ``card``, counts (R4.5)."""
    trump = hand.trump
    if trump is None:
        return False
    pair = _bella_cards(trump)
    actions = hand.actions
    just_announced = bool(actions) and actions[-1] == Action(seat, ActionKind.ANNOUNCE)
    if just_announced and _in_one_run(_core.find_runs(hand.deal[seat]), pair):
        return True
    held = [c for c in pair if c in hand.hands[seat]]
    playing = any(c.index == card for c in held)
    return playing and (len(held) == 1 or hand.rules.first_bell_ok)


def table_bot_action(game: Any, name: str, seed: int) -> int:
    """The action id the core bot ``name`` takes at the seat to move, declaring correctly."""
    hand = game.hand
    seat = game.to_move
    allowed = game.allowed_action_ids(seat)
    for declaration in (ANNOUNCE_ID, SHOW_ID):
        if declaration in allowed:
            return declaration
    card: int = _core.bot_action(hand, name, seed)
    if BELLA_ID in allowed and bella_counts_now(hand, seat, card):
        return BELLA_ID
    return card


def proven_misplays(actions: Sequence[Action]) -> set[int]:
    """The seats the public plays prove misplayed: each did not follow a suit led (R5.1a) and
    later played a card of that suit."""
    claimed_void: dict[int, set[Suit]] = {}
    proven: set[int] = set()
    plays = [a for a in actions if a.kind is ActionKind.PLAY and a.card is not None]
    for index, action in enumerate(plays):
        assert action.card is not None
        suit = action.card.suit
        if suit in claimed_void.get(action.seat, set()):
            proven.add(action.seat)
        led = plays[index - index % 4].card
        assert led is not None
        if suit != led.suit:
            claimed_void.setdefault(action.seat, set()).add(led.suit)
    return proven


def bot_misplay_call(game: Any, bots: Iterable[int]) -> int | None:
    """A bot seat that can prove a misplay by the other team now (R8.2), or None."""
    if MISPLAY_ID not in game.allowed_action_ids(next(iter(bots), 0)):
        return None
    proven = proven_misplays(game.hand.actions)
    for seat in bots:
        if any(culprit % TEAMS != seat % TEAMS for culprit in proven):
            return seat
    return None


def table_lines(events: Sequence[dict[str, Any]], name: Any, team: Any) -> list[str]:
    """What a person is told of declarations and calls (docs/EVENTS.md), one line each;
    ``name(seat)`` names a seat, ``team(t)`` a team."""
    lines = []
    for event in events:
        kind = event["kind"]
        who = name(event["seat"]) if "seat" in event and event["seat"] is not None else ""
        if kind == "announce":
            lines.append(f"{who} announced a {'fifty' if event['size'] == 50 else 'twenty'}")
        elif kind == "show":
            late = " (a late twenty)" if event["late"] else ""
            lines.append(f"{who} showed {' '.join(event['cards'])}{late}")
        elif kind == "bella":
            lost = "" if event["counts"] else ": table talk, the bella is lost (R4.5)"
            lines.append(f"{who} called bella{lost}")
        elif kind == "runs":
            lines.append(
                f"runs: {who} scores {event['points']} (R4.3)" if who else "runs: none count"
            )
        elif kind == "misplay":
            ruling = "correct" if event["correct"] else "false"
            found = ", ".join(
                f"{name(m['seat'])} {m['card']} in trick {m['trick'] + 1}"
                for m in event["misplays"]
            )
            lines.append(
                f"{who} called a misplay: {ruling} ({found or 'no misplay'}), "
                f"{event['count']} to {team(event['team'])} (R8.2)"
            )
        elif kind == "throw":
            lines.append(
                f"{who} threw the hand in: {event['count']} to {team(event['team'])} (R8.3)"
            )
    return lines
