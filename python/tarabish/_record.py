"""Game records, ``tarabish-record/1`` (docs/RECORDS.md): the format, read and written.

A record is the rules (only the options that differ from R9's defaults) and the consecutive
hands of one match, each with its dealer, the match scores before it, the deal (nine cards a
seat in the order received; the last three are the kitty, R2.4) and the actions in order::

    {"format": "tarabish-record/1", "rules": {"forced_at": 400},
     "hands": [{"dealer": 0, "scores_before": [0, 0], "deal": ["...", "...", "...", "..."],
                "actions": ["1 pass", "2 call H", "1 play 6S", ...]}]}

``parse_record`` checks the form (every field, every card, every action's syntax, R0, R1.1,
R2.2, R2.4, R9) and gives a typed ``Record``; ``to_record`` writes the record of a
``MatchState`` or of a list of hands. Every problem raises ``RecordError``, whose one-line
message names the hand, the action index, the action and the rule it breaks. Playing a record
is ``_replay.py``; comparing the results it stores, ``_result_diff.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ._actions import TABLE_VERBS, Action
from ._cards import Card, format_cards, parse_cards
from ._engines import ENGINES, engine_module
from ._errors import InvalidInputError, TarabishError, excerpt, one_line
from ._json import loads as strict_json
from ._rules import Rules

__all__ = [
    "FORMAT",
    "TABLE_VERBS",
    "HandRecord",
    "Record",
    "RecordError",
    "parse_record",
    "to_record",
]

FORMAT = "tarabish-record/1"

MAX_SCORE = (1 << 30) - 1  # the largest match score both engines accept

_RECORD_KEYS = ("format", "rules", "hands")
_HAND_KEYS = ("dealer", "scores_before", "deal", "actions")
# Keys of replay's output: accepted on input (so an output can be replayed) and recomputed.
OUTPUT_RECORD_KEYS = ("totals", "winner")
_OUTPUT_HAND_KEYS = ("result",)
# Accepted on input and not replayed: a server's revealed seed and salt (docs/RECORDS.md).
_PROVENANCE_KEYS = ("fairness",)


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
        self.detail = one_line(detail)
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


# -- parsing -------------------------------------------------------------------------------------


def load_document(source: Any) -> Any:
    """A record's JSON text (str, or UTF-8 bytes) parsed, or an already parsed object as is."""
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
    data = load_document(source)
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise RecordError(f"'format' must be {excerpt(FORMAT)}, got {excerpt(data.get('format'))}")
    _check_keys(data, _RECORD_KEYS, (*OUTPUT_RECORD_KEYS, *_PROVENANCE_KEYS), "the record", None)
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
    return isinstance(value, tuple(getattr(engine_module(e), name) for e in ENGINES))


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
