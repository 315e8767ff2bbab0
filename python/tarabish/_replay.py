"""Playing a ``tarabish-record/1`` record (docs/RECORDS.md) with every rule checked.

``play_record`` plays a record on an engine module (the Rust core ``tarabish`` by default, or
``tarabish.reference``; only the interface of docs/ENGINE.md is used), checking every action and
that the hands are consecutive hands of one match (R5.3, R7.1, R7.2); ``replay`` gives the
output document of ``tarabish replay``: the record printed back with a ``result`` for every
hand, the match ``totals`` and the ``winner``. Every problem raises ``RecordError``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, TextIO

from ._actions import Phase
from ._engines import engine_module
from ._errors import IllegalActionError, TarabishError, one_line
from ._record import FORMAT, HandRecord, Record, RecordError, parse_record
from ._rules import Rules
from ._views import HandResult, RunsResult, TrickResult

__all__ = [
    "PlayedHand",
    "PlayedRecord",
    "UnfinishedHand",
    "dump_output",
    "match_winner",
    "play_record",
    "replay",
]


@dataclass(frozen=True, slots=True)
class UnfinishedHand:
    """Where a hand that stops before its end stands (its partial ``result``).

    ``points`` are the team points credited so far (cards, last, runs, bella), ``tricks`` the
    completed tricks; ``runs`` and ``bella`` as far as they are known (runs once every player
    has played a second card, R4.4 auto mode; bella once its second card is played, R4.5).
    """

    phase: Phase
    to_move: int | None
    trump: str | None
    caller: int | None
    points: tuple[int, int]
    runs: RunsResult | None
    bella: int | None
    tricks: tuple[TrickResult, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "complete": False,
            "phase": self.phase.value,
            "to_move": self.to_move,
            "outcome": None,
            "trump": self.trump,
            "caller": self.caller,
            "points": list(self.points),
            "score": None,
            "runs": None if self.runs is None else self.runs.to_dict(),
            "bella": self.bella,
            "tricks": [trick.to_dict() for trick in self.tricks],
        }


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A hand of a record after play: its ``HandResult``, or an ``UnfinishedHand``."""

    record: HandRecord
    result: HandResult | UnfinishedHand

    @property
    def complete(self) -> bool:
        return isinstance(self.result, HandResult)

    def to_dict(self) -> dict[str, Any]:
        return {**self.record.to_dict(), "result": self.result.to_dict()}


@dataclass(frozen=True, slots=True)
class PlayedRecord:
    """A record after play: every hand with its result, the match totals (from the first
    hand's ``scores_before``, adding every finished hand's score) and the winner (R7.1)."""

    record: Record
    hands: tuple[PlayedHand, ...]
    totals: tuple[int, int]
    winner: int | None

    def to_dict(self) -> dict[str, Any]:
        """The output document of ``tarabish replay``."""
        return self._document([hand.to_dict() for hand in self.hands])

    def write(self, out: TextIO) -> None:
        """Write the output document, ``dump_output(self.to_dict())``, to ``out`` a hand at a
        time, so that only one hand's output is held at once (the whole document and the JSON
        encoder's pieces of it cost about 6 KB a hand: 5.5 GB for 10^6 hands)."""
        frame = dump_output(self._document([_HAND_SLOT]))
        head, slot, tail = frame.partition(_HAND_INDENT + json.dumps(_HAND_SLOT))
        if not slot:
            raise AssertionError("no place for the hands in the output frame")
        out.write(head)
        for number, hand in enumerate(self.hands):
            text = json.dumps(hand.to_dict(), indent=2, ensure_ascii=False)
            out.write((",\n" if number else "") + _HAND_INDENT)
            out.write(text.replace("\n", "\n" + _HAND_INDENT))
        out.write(tail)

    def _document(self, hands: list[Any]) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules": self.record.rules.to_dict(),
            "hands": hands,
            "totals": list(self.totals),
            "winner": self.winner,
        }


# Where ``PlayedRecord.write`` puts the hands: a string no output holds (JSON escapes it), and
# the indentation of an item of the output's "hands" list (level 2 of indent 2).
_HAND_SLOT = "\x00hands"
_HAND_INDENT = " " * 4


def dump_output(document: dict[str, Any]) -> str:
    """The canonical text of an output document: JSON, indent 2, one final newline."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def match_winner(totals: tuple[int, int], rules: Rules) -> int | None:
    """R7.1: once a team has at least ``target`` and the totals differ, the team with more."""
    if max(totals) >= rules.target and totals[0] != totals[1]:
        return 0 if totals[0] > totals[1] else 1
    return None


def _rule_detail(error: IllegalActionError) -> str:
    """The engine's reason, from the rule id on (both engines put it after a short prefix)."""
    text = one_line(str(error))
    at = text.find(error.rule + " ")
    return text[at:] if at >= 0 else f"{error.rule} {text}"


def _play_hand(
    engine: ModuleType, rules: Rules, hand: HandRecord, index: int
) -> HandResult | UnfinishedHand:
    try:
        state = engine.HandState(
            hand.dealer,
            deal=[list(cards) for cards in hand.deal],
            rules=rules,
            scores_before=hand.scores_before,
        )
    except TarabishError as error:
        raise RecordError(str(error), hand=index) from None
    for number, (action, text) in enumerate(zip(hand.actions, hand.texts, strict=True)):
        try:
            state.apply(str(action))
        except IllegalActionError as error:
            raise RecordError(
                _rule_detail(error),
                hand=index,
                action_index=number,
                action=text,
                rule=error.rule,
            ) from None
        except TarabishError as error:
            raise RecordError(str(error), hand=index, action_index=number, action=text) from None
    result = state.result
    if result is not None:
        if not isinstance(result, HandResult):
            raise TypeError(f"engine {engine.__name__} gave a result of type {type(result)}")
        return result
    view = state.observation(0)  # public facts only: tricks, runs, bella
    trump = state.trump
    return UnfinishedHand(
        phase=state.phase,
        to_move=state.to_move,
        trump=None if trump is None else str(trump),
        caller=state.caller,
        points=(state.points[0], state.points[1]),
        runs=view.runs,
        bella=view.bella,
        tricks=tuple(view.tricks),
    )


def play_record(
    record: str | bytes | dict[str, Any] | Record, engine: ModuleType | str | None = None
) -> PlayedRecord:
    """Play a record on an engine (``tarabish`` by default, or ``tarabish.reference``, or
    ``"rust"`` / ``"reference"``), checking every action and that the hands are consecutive
    hands of one match: each later hand's ``scores_before`` are the running totals (R7.2: left
    out, they are taken as such; the output always states them), no
    hand follows one that stopped before its end (R5.3) or one that ended the match (R7.1).
    Raises ``RecordError``.
    """
    parsed = parse_record(record)
    module = engine_module(engine)
    totals = parsed.hands[0].scores_before or (0, 0)
    played: list[PlayedHand] = []
    for index, hand in enumerate(parsed.hands):
        if index > 0:
            before = played[-1]
            if not before.complete:
                raise RecordError(
                    f"hand {index - 1} stops before its end, so no hand can follow it: "
                    "only the last hand of a record may be unfinished",
                    hand=index - 1,
                    rule="R5.3",
                )
            winner = match_winner(totals, parsed.rules)
            if winner is not None:
                raise RecordError(
                    f"the match is over before this hand: team {winner} won with totals "
                    f"{totals[0]} {totals[1]} (target {parsed.rules.target})",
                    hand=index,
                    rule="R7.1",
                )
            if hand.scores_before is not None and hand.scores_before != totals:
                raise RecordError(
                    f"scores_before {list(hand.scores_before)} are not the running totals "
                    f"{list(totals)} after hand {index - 1}",
                    hand=index,
                    rule="R7.2",
                )
        hand = replace(hand, scores_before=totals)  # the output states them
        result = _play_hand(module, parsed.rules, hand, index)
        played.append(PlayedHand(hand, result))
        if isinstance(result, HandResult):
            totals = (totals[0] + result.score[0], totals[1] + result.score[1])
    return PlayedRecord(
        record=parsed,
        hands=tuple(played),
        totals=totals,
        winner=match_winner(totals, parsed.rules),
    )


def replay(
    record: str | bytes | dict[str, Any] | Record, engine: ModuleType | str | None = None
) -> dict[str, Any]:
    """The output document of ``tarabish replay`` for a record (see ``play_record``)."""
    return play_record(record, engine).to_dict()
