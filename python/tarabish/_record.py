"""Game records, ``tarabish-record/1`` (docs/RECORDS.md).

A record is the rules (only the options that differ from R9's defaults) and the consecutive
hands of one match, each with its dealer, the match scores before it, the deal (nine cards a
seat in the order received; the last three are the kitty, R2.4) and the actions in order::

    {"format": "tarabish-record/1", "rules": {"forced_at": 400},
     "hands": [{"dealer": 0, "scores_before": [0, 0], "deal": ["...", "...", "...", "..."],
                "actions": ["1 pass", "2 call H", "1 play 6S", ...]}]}

``parse_record`` checks the form (every field, every card, every action's syntax) and gives a
typed ``Record``; ``play_record`` plays it on an engine module (the Rust core ``tarabish`` by
default, or ``tarabish.reference``; only the interface of docs/ENGINE.md is used) with every
rule checked, and ``replay`` gives the output document: the record printed back with a
``result`` for every hand, the match ``totals`` and the ``winner``. Every problem raises
``RecordError``, whose one-line message names the hand, the action index, the action and the
rule it breaks. ``to_record`` writes the record of a ``MatchState`` or of a list of hands, and
``replay_main`` is ``tarabish replay``.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, TextIO

from ._actions import TABLE_VERBS, Action, Phase
from ._cards import Card, format_cards, parse_cards
from ._errors import IllegalActionError, InvalidInputError, TarabishError, excerpt
from ._json import loads as strict_json
from ._rules import Rules
from ._views import HandResult, RunsResult, TrickResult

__all__ = [
    "FORMAT",
    "TABLE_VERBS",
    "HandRecord",
    "PlayedHand",
    "PlayedRecord",
    "Record",
    "RecordError",
    "ResultDifference",
    "UnfinishedHand",
    "check_results",
    "dump_output",
    "parse_record",
    "play_record",
    "replay",
    "replay_main",
    "to_record",
]

FORMAT = "tarabish-record/1"

ENGINES = {"rust": "tarabish", "reference": "tarabish.reference"}
MAX_SCORE = (1 << 30) - 1  # the largest match score both engines accept

_RECORD_KEYS = ("format", "rules", "hands")
_HAND_KEYS = ("dealer", "scores_before", "deal", "actions")
# Keys of replay's output: accepted on input (so an output can be replayed) and recomputed.
_OUTPUT_RECORD_KEYS = ("totals", "winner")
_OUTPUT_HAND_KEYS = ("result",)


class RecordError(InvalidInputError):
    """A record that is malformed or breaks a rule.

    ``hand`` is the index of the hand at fault (None for the record as a whole),
    ``action_index`` the index of the action in that hand's ``actions`` and ``action`` its text
    (None when the fault is not one action), ``rule`` the rule id it breaks (``"R5.1b"``) or
    None for a fault of form only. The message is one line naming all of them, e.g.
    ``hand 0, action 5 ("2 play 7H"): R5.1b ...``.
    """

    def __init__(
        self,
        detail: str,
        *,
        hand: int | None = None,
        action_index: int | None = None,
        action: str | None = None,
        rule: str | None = None,
    ) -> None:
        self.detail = _one_line(detail)
        self.hand = hand
        self.action_index = action_index
        self.action = action
        self.rule = rule
        super().__init__(_message(self.detail, hand, action_index, action, rule))

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _rebuild_record_error,
            (self.detail, self.hand, self.action_index, self.action, self.rule),
        )


def _rebuild_record_error(
    detail: str, hand: int | None, action_index: int | None, action: str | None, rule: str | None
) -> RecordError:
    return RecordError(detail, hand=hand, action_index=action_index, action=action, rule=rule)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _message(
    detail: str, hand: int | None, action_index: int | None, action: str | None, rule: str | None
) -> str:
    where: list[str] = []
    if hand is not None:
        where.append(f"hand {hand}")
    if action_index is not None:
        quoted = "" if action is None else f" ({json.dumps(action, ensure_ascii=False)})"
        where.append(f"action {action_index}{quoted}")
    elif action is not None:
        where.append(f"action {json.dumps(action, ensure_ascii=False)}")
    prefix = ", ".join(where) if where else "record"
    if rule is not None and not detail.startswith(rule + " "):
        detail = f"{rule} {detail}"
    return f"{prefix}: {detail}"


# -- typed records -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of a record: dealer, match scores before it, the deal in the order received
    (four tuples of nine cards, the last three of each the kitty, R2.4) and the actions.

    ``texts`` are the actions as written in the record (used in error messages); ``actions``
    are the parsed actions, whose ``str`` is the canonical text printed back. ``scores_before``
    None means left out: the running totals (for the first hand 0 0).
    """

    dealer: int
    deal: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    actions: tuple[Action, ...]
    scores_before: tuple[int, int] | None = None
    texts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.texts:
            object.__setattr__(self, "texts", tuple(str(action) for action in self.actions))

    def to_dict(self) -> dict[str, Any]:
        """The hand as the record format writes it (canonical card and action text;
        ``scores_before`` only when given)."""
        written: dict[str, Any] = {"dealer": self.dealer}
        if self.scores_before is not None:
            written["scores_before"] = list(self.scores_before)
        written["deal"] = [format_cards(cards) for cards in self.deal]
        written["actions"] = [str(action) for action in self.actions]
        return written


@dataclass(frozen=True, slots=True)
class Record:
    """A ``tarabish-record/1`` document: the rules and the consecutive hands of one match."""

    rules: Rules
    hands: tuple[HandRecord, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "hands": [hand.to_dict() for hand in self.hands],
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)


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


# -- parsing -------------------------------------------------------------------------------------


def _load(source: Any) -> Any:
    if isinstance(source, bytes | bytearray):
        try:
            source = bytes(source).decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise RecordError(f"a record is UTF-8 JSON text: {error}") from None
    if isinstance(source, str):
        return strict_json(source, RecordError, "record")
    return source


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_keys(
    data: dict[str, Any],
    known: tuple[str, ...],
    ignored: tuple[str, ...],
    what: str,
    hand: int | None,
) -> None:
    unknown = sorted(str(key) for key in set(data) - set(known) - set(ignored))
    if unknown:
        raise RecordError(
            f"{what} has unknown key(s) {unknown}; its keys are {list(known)}", hand=hand
        )


def _parse_rules(data: dict[str, Any]) -> Rules:
    options = data.get("rules", {})
    if not isinstance(options, dict):
        raise RecordError(
            f"'rules' must be an object of R9 options, got {excerpt(options)}", rule="R9"
        )
    try:
        rules = Rules.from_dict(options)
    except TarabishError as error:
        raise RecordError(str(error), rule="R9") from None
    except TypeError as error:  # a non-string key, possible from Python callers only
        raise RecordError(f"bad rule options: {error}", rule="R9") from None
    return rules


def _parse_deal(value: Any, hand: int) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, list) or len(value) != 4:
        raise RecordError(
            f"'deal' must be a list of four hands, one a seat, got {excerpt(value)}",
            hand=hand,
            rule="R2.4",
        )
    seats: list[tuple[Card, ...]] = []
    for seat, cards in enumerate(value):
        if not isinstance(cards, str) and not (
            isinstance(cards, list) and all(isinstance(card, str) for card in cards)
        ):
            raise RecordError(
                f"seat {seat}'s deal must be a string of nine cards, got {excerpt(cards)}",
                hand=hand,
            )
        try:
            parsed = tuple(parse_cards(cards))
        except TarabishError as error:
            raise RecordError(f"seat {seat}'s deal: {error}", hand=hand, rule="R0") from None
        if len(parsed) != 9:
            raise RecordError(
                f"seat {seat} is dealt {len(parsed)} cards, not 9", hand=hand, rule="R2.4"
            )
        seats.append(parsed)
    seen: dict[Card, int] = {}
    for seat, cards in enumerate(seats):
        for card in cards:
            if card in seen:
                where = "twice" if seen[card] == seat else f"to seats {seen[card]} and {seat}"
                raise RecordError(
                    f"the {card} is dealt {where}: the deal is 36 distinct cards",
                    hand=hand,
                    rule="R1.1",
                )
            seen[card] = seat
    return tuple(seats)


def _parse_action(text: Any, hand: int, index: int) -> Action:
    if not isinstance(text, str):
        raise RecordError(
            f"an action is text like '2 call H', got {excerpt(text)}",
            hand=hand,
            action_index=index,
        )
    try:
        return Action.parse(text)
    except TarabishError as error:
        raise RecordError(
            str(error), hand=hand, action_index=index, action=text, rule="R0"
        ) from None


def _parse_scores(value: Any, hand: int) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(_is_int(score) and 0 <= score <= MAX_SCORE for score in value)
    ):
        raise RecordError(
            f"'scores_before' must be two whole numbers 0..{MAX_SCORE} (team 0, team 1), "
            f"got {excerpt(value)}",
            hand=hand,
        )
    return (value[0], value[1])


def _parse_hand(data: Any, index: int) -> HandRecord:
    if not isinstance(data, dict):
        raise RecordError(f"a hand is an object, got {excerpt(data)}", hand=index)
    _check_keys(data, _HAND_KEYS, _OUTPUT_HAND_KEYS, "the hand", index)
    for key in ("dealer", "deal", "actions"):
        if key not in data:
            raise RecordError(f"the hand has no {excerpt(key)}", hand=index)
    dealer = data["dealer"]
    if not _is_int(dealer) or not 0 <= dealer < 4:
        raise RecordError(
            f"'dealer' must be a seat 0..3, got {excerpt(dealer)}", hand=index, rule="R0"
        )
    # Left out, a hand's scores_before are the running totals (the first hand: 0 0, R7.2).
    scores = _parse_scores(data["scores_before"], index) if "scores_before" in data else None
    deal = _parse_deal(data["deal"], index)
    texts = data["actions"]
    if not isinstance(texts, list):
        raise RecordError(
            f"'actions' must be a list of action texts, got {excerpt(texts)}", hand=index
        )
    actions = tuple(_parse_action(text, index, number) for number, text in enumerate(texts))
    return HandRecord(
        dealer=dealer,
        deal=(deal[0], deal[1], deal[2], deal[3]),
        actions=actions,
        scores_before=scores,
        texts=tuple(texts),
    )


def parse_record(source: str | bytes | dict[str, Any] | Record) -> Record:
    """Check the form of a ``tarabish-record/1`` document (JSON text or the parsed object).

    Checks: the format string, the known keys, the rules (R9 options),
    every hand's dealer (0..3), ``scores_before`` (optional), deal (four hands of nine
    cards, 36 distinct cards) and action syntax (table-mode verbs included), and that each hand's
    dealer follows the previous dealer (R2.2). Rule checks needing play are ``play_record``'s.
    Raises ``RecordError``.
    """
    if isinstance(source, Record):
        return source
    data = _load(source)
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise RecordError(f"'format' must be {excerpt(FORMAT)}, got {excerpt(data.get('format'))}")
    _check_keys(data, _RECORD_KEYS, _OUTPUT_RECORD_KEYS, "the record", None)
    rules = _parse_rules(data)
    hands_data = data.get("hands")
    if not isinstance(hands_data, list) or not hands_data:
        raise RecordError(f"'hands' must be a non-empty list of hands, got {excerpt(hands_data)}")
    hands = tuple(_parse_hand(hand, index) for index, hand in enumerate(hands_data))
    for index in range(1, len(hands)):
        expected = (hands[index - 1].dealer + 1) % 4
        if hands[index].dealer != expected:
            raise RecordError(
                f"dealer {hands[index].dealer} follows dealer {hands[index - 1].dealer}: "
                f"the deal passes to the left, so the dealer must be {expected}",
                hand=index,
                rule="R2.2",
            )
    return Record(rules=rules, hands=hands)


# -- playing -------------------------------------------------------------------------------------


def _engine_module(engine: ModuleType | str | None) -> ModuleType:
    if engine is None:
        engine = "rust"
    if isinstance(engine, ModuleType):
        return engine
    if not isinstance(engine, str) or engine not in ENGINES:
        raise InvalidInputError(
            f"unknown engine {excerpt(engine)}: expected one of {sorted(ENGINES)}"
        )
    return importlib.import_module(ENGINES[engine])


def match_winner(totals: tuple[int, int], rules: Rules) -> int | None:
    """R7.1: once a team has at least ``target`` and the totals differ, the team with more."""
    if max(totals) >= rules.target and totals[0] != totals[1]:
        return 0 if totals[0] > totals[1] else 1
    return None


def _rule_detail(error: IllegalActionError) -> str:
    """The engine's reason, from the rule id on (both engines put it after a short prefix)."""
    text = _one_line(str(error))
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
    module = _engine_module(engine)
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


# -- checking stored results --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResultDifference:
    """A stored result that the replay does not give: in ``hand`` (None for the record's
    ``totals`` and ``winner``), the ``field`` (a path such as ``result.tricks[3].points``),
    what the record stores and what the replay gives (``MISSING`` where a side has none)."""

    hand: int | None
    field: str
    stored: Any
    replayed: Any

    def __str__(self) -> str:
        where = "record" if self.hand is None else f"hand {self.hand}"
        return (
            f"{where}: {self.field} is {_shown(self.stored)} in the record, "
            f"the replay gives {_shown(self.replayed)}"
        )


MISSING = object()
"""Stands for a field that one side of a ``ResultDifference`` does not have."""


def _shown(value: Any) -> str:
    return "missing" if value is MISSING else json.dumps(value, ensure_ascii=False)


def _differences(path: str, stored: Any, replayed: Any) -> Iterable[tuple[str, Any, Any]]:
    """Every leaf where ``stored`` and ``replayed`` (JSON values) differ, with its path."""
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in [*replayed, *(k for k in stored if k not in replayed)]:
            yield from _differences(
                f"{path}.{key}", stored.get(key, MISSING), replayed.get(key, MISSING)
            )
    elif isinstance(stored, list) and isinstance(replayed, list) and len(stored) == len(replayed):
        for index, (one, other) in enumerate(zip(stored, replayed, strict=True)):
            yield from _differences(f"{path}[{index}]", one, other)
    elif type(stored) is not type(replayed) or stored != replayed:
        yield path, stored, replayed


def check_results(
    source: str | bytes | dict[str, Any], engine: ModuleType | str | None = None
) -> list[ResultDifference]:
    """Replay a record that stores its results (the output form of ``tarabish replay``) and
    compare every stored field with the recomputed one: each hand's ``result`` and the
    record's ``totals`` and ``winner``. A field the record lacks counts as a difference (an
    audit must not pass on what was never stored). Raises ``RecordError`` for a record that is
    malformed or breaks a rule, like ``play_record``."""
    data = _load(source)
    played = play_record(data, engine)  # checks the form, so data is a record
    # One hand's result as a dict at a time: the whole output document would cost kilobytes a
    # hand.
    differences = [
        ResultDifference(index, field, stored, computed)
        for index, (hand, replayed) in enumerate(zip(data["hands"], played.hands, strict=True))
        for field, stored, computed in _differences(
            "result", hand.get("result", MISSING), replayed.result.to_dict()
        )
    ]
    record_fields = {"totals": list(played.totals), "winner": played.winner}
    for key in _OUTPUT_RECORD_KEYS:
        differences += [
            ResultDifference(None, field, stored, computed)
            for field, stored, computed in _differences(
                key, data.get(key, MISSING), record_fields[key]
            )
        ]
    return differences


# -- writing records -----------------------------------------------------------------------------


def _hand_dict(state: Any) -> dict[str, Any]:
    return {
        "dealer": state.dealer,
        "scores_before": list(state.scores_before),
        "deal": [format_cards(cards) for cards in state.deal],
        "actions": [str(action) for action in state.actions],
    }


def _is_state(value: Any, name: str) -> bool:
    """Whether ``value`` is a ``name`` (``HandState``, ``MatchState``) of either engine."""
    return isinstance(value, tuple(getattr(_engine_module(e), name) for e in ENGINES))


def to_record(match_or_hands: Any) -> dict[str, Any]:
    """The record (no results) of a ``MatchState`` or of a ``HandState`` or a sequence of
    ``HandState`` (one rules, in play order), from either engine, as a dict (``json.dumps`` it
    to save). For a match: its finished hands, then the current hand if it has begun (or if no
    hand is finished yet, so that a record always has a hand)."""
    if _is_state(match_or_hands, "MatchState"):
        hands = list(match_or_hands.history)
        current = match_or_hands.hand
        if not match_or_hands.is_terminal and (current.actions or not hands):
            hands.append(current)
        rules = match_or_hands.rules
    else:
        if _is_state(match_or_hands, "HandState"):
            hands = [match_or_hands]
        elif isinstance(match_or_hands, Iterable) and not isinstance(match_or_hands, str | bytes):
            hands = list(match_or_hands)
        else:
            hands = [match_or_hands]
        if not all(_is_state(hand, "HandState") for hand in hands):
            raise InvalidInputError(
                f"to_record takes a MatchState, a HandState or a list of HandState, "
                f"got {excerpt(match_or_hands)}"
            )
        if not hands:
            raise InvalidInputError("to_record needs at least one hand")
        rules = hands[0].rules
        if any(hand.rules != rules for hand in hands):
            raise InvalidInputError("the hands of one record are played under one set of rules")
    if not isinstance(rules, Rules):
        raise InvalidInputError(f"not a hand or match state: rules {excerpt(rules)}")
    return {"format": FORMAT, "rules": rules.to_dict(), "hands": [_hand_dict(h) for h in hands]}


# -- the command ---------------------------------------------------------------------------------


def _read(path: str) -> bytes:
    if path == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        return data.encode("utf-8") if isinstance(data, str) else data
    with open(path, "rb") as file:
        return file.read()


def replay_main(
    path: str,
    *,
    engine: str = "rust",
    check: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """``tarabish replay FILE``: read the record (``-`` is standard input), play it with every
    check, print the output document (JSON, indent 2) and return 0; on a bad record or an
    unreadable file print one line ``tarabish replay: <message>`` to ``err`` and return 2.

    With ``check``: compare the results stored in the record with the replayed ones
    (``check_results``); print one line ``FILE: ...`` to ``out`` and return 0 when every stored
    result matches, else one line a difference to ``err`` (naming the hand and the field) and
    return 1."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    try:
        source = _read(path)
        if check:
            differences = check_results(source, engine)
        else:
            played = play_record(source, engine)
    except OSError as error:
        detail = error.strerror or str(error)
        print(f"tarabish replay: cannot read {path}: {_one_line(detail)}", file=err)
        return 2
    except (TarabishError, RecursionError) as error:
        print(f"tarabish replay: {_one_line(str(error))}", file=err)
        return 2
    if not check:
        played.write(out)
        return 0
    for difference in differences:
        print(f"tarabish replay: {path}: {difference}", file=err)
    if differences:
        return 1
    print(f"{path}: every stored result matches the replay ({engine})", file=out)
    return 0
