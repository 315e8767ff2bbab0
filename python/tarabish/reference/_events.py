"""Per-seat events for servers (docs/EVENTS.md): what each seat is told after every action,
already filtered to what it may see (R2.4: the deal and the kitty to their seat only; R8.1: a
misplay only through the ruling on a call).

A state appends ``Entry`` values as actions are applied, so a state rebuilt from its action log
(JSON, records) has exactly the same events. ``seq`` numbers count every event from 1, public
and private alike; a seat sees gaps where another seat's private events were.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any, NamedTuple

from .._cards import Card
from .._runs import Run
from .._views import CallResult, HandResult, RunsResult, TrickResult
from ._input import seat_number, whole_number
from ._order import name

MAX_SEQ = 2**62


class Entry(NamedTuple):
    """One event without its ``seq``: ``to`` is the one seat it is for, or None (everyone)."""

    event: dict[str, Any]
    to: int | None = None


def select(entries: Iterable[Entry], seat: Any, since: Any) -> list[dict[str, Any]]:
    """``events(seat, since)``: the numbered events ``seat`` (None: a spectator) may see with
    ``seq > since``, in order. Each call returns fresh dicts."""
    viewer = None if seat is None else seat_number(seat, "an event seat")
    after = whole_number(since, "since (the last seq seen)", 0, MAX_SEQ)
    return [
        {"seq": seq, **copy.deepcopy(entry.event)}
        for seq, entry in enumerate(entries, start=1)
        if seq > after and (entry.to is None or entry.to == viewer)
    ]


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _names(cards: Iterable[int]) -> list[str]:
    return [name(card) for card in cards]


def hand_start(hand: int, dealer: int, scores: tuple[int, int]) -> Entry:
    return Entry({"kind": "hand_start", "hand": hand, "dealer": dealer, "scores": list(scores)})


def deal(seat: int, cards: Iterable[int]) -> Entry:
    """R2.4: the six cards a seat sees before trump is named (indices), in the order received."""
    return Entry({"kind": "deal", "seat": seat, "cards": _names(cards)}, to=seat)


def pass_(seat: int) -> Entry:
    return Entry({"kind": "pass", "seat": seat})


def call(seat: int, suit: str) -> Entry:
    return Entry({"kind": "call", "seat": seat, "suit": suit})


def kitty(seat: int, cards: Iterable[int]) -> Entry:
    """R2.4: a seat's three kitty cards (indices), seen once trump is named."""
    return Entry({"kind": "kitty", "seat": seat, "cards": _names(cards)}, to=seat)


def announce(seat: int, size: int) -> Entry:
    return Entry({"kind": "announce", "seat": seat, "size": size})


def show(seat: int, runs: tuple[Run, ...], late: bool) -> Entry:
    """The shown runs' cards (by index) and the runs themselves (find_runs order)."""
    cards = sorted((card for run in runs for card in run.cards), key=lambda card: card.index)
    return Entry(
        {
            "kind": "show",
            "seat": seat,
            "cards": _cards(cards),
            "runs": [
                {"suit": str(run.suit), "top": str(run.top), "length": run.length} for run in runs
            ],
            "late": late,
        }
    )


def bella(seat: int, counts: bool) -> Entry:
    return Entry({"kind": "bella", "seat": seat, "counts": counts})


def play(seat: int, card: int) -> Entry:
    return Entry({"kind": "play", "seat": seat, "card": name(card)})


def trick(index: int, result: TrickResult) -> Entry:
    return Entry(
        {
            "kind": "trick",
            "trick": index,
            "leader": result.leader,
            "cards": _cards(result.cards),
            "winner": result.winner,
            "points": result.points,
        }
    )


def runs(result: RunsResult | None) -> Entry:
    """R4.3: the run winner and all run points credited (null and 0 when no run counts)."""
    seat = None if result is None else result.seat
    points = 0 if result is None else result.points
    return Entry({"kind": "runs", "seat": seat, "points": points})


def ruling(result: CallResult) -> Entry:
    """The ruling on a ``misplay`` call (R8.2) or a throw-in (R8.3)."""
    if result.verb == "throw":
        return Entry(
            {"kind": "throw", "seat": result.seat, "team": result.team, "count": result.count}
        )
    return Entry(
        {
            "kind": "misplay",
            "seat": result.seat,
            "correct": result.correct,
            "team": result.team,
            "count": result.count,
            "misplays": [misplay.to_dict() for misplay in result.misplays],
        }
    )


def hand_over(result: HandResult) -> Entry:
    return Entry({"kind": "hand_over", "result": result.to_dict()})


def match_over(winner: int, scores: tuple[int, int]) -> Entry:
    return Entry({"kind": "match_over", "winner": winner, "scores": list(scores)})
