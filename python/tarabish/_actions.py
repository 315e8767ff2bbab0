"""Actions and phases of a hand, with the dense action ids of RULES.md R0.

Ids: 0-35 play the card of that index; 36-39 call trump C, D, H, S; 40 pass; table mode
(R8, docs/TABLE.md): 41 announce, 42 show, 43 bella, 44 misplay, 45 throw.
Text form (the record format, docs/RECORDS.md): ``"<seat> pass"``, ``"<seat> call H"``,
``"<seat> play JH"``, ``"<seat> announce"`` (and the other table verbs, which take no argument).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ._cards import Card, Suit, ascii_lower, split_blanks
from ._errors import InvalidInputError, excerpt

CALL_BASE = 36
PASS_ID = 40
ANNOUNCE_ID = 41
SHOW_ID = 42
BELLA_ID = 43
MISPLAY_ID = 44
THROW_ID = 45
NUM_ACTIONS = 46


class Phase(Enum):
    """Where a hand stands: naming trump (R3), playing tricks (R5), or over."""

    AUCTION = "auction"
    PLAY = "play"
    DONE = "done"

    def __str__(self) -> str:
        return self.value


class ActionKind(Enum):
    """The verb of an action: the auction's (R3), a card (R5), or table mode's (R4.4, R4.5, R8)."""

    PASS = "pass"
    CALL = "call"
    PLAY = "play"
    ANNOUNCE = "announce"
    SHOW = "show"
    BELLA = "bella"
    MISPLAY = "misplay"
    THROW = "throw"

    def __str__(self) -> str:
        return self.value


_TABLE_IDS = {
    ActionKind.ANNOUNCE: ANNOUNCE_ID,
    ActionKind.SHOW: SHOW_ID,
    ActionKind.BELLA: BELLA_ID,
    ActionKind.MISPLAY: MISPLAY_ID,
    ActionKind.THROW: THROW_ID,
}
_TABLE_KINDS = {action_id: kind for kind, action_id in _TABLE_IDS.items()}
_TABLE_BY_VERB = {kind.value: kind for kind in _TABLE_IDS}
TABLE_VERBS = tuple(_TABLE_BY_VERB)
"""The table-mode verbs, in id order (docs/TABLE.md)."""

MAX_ACTION_TEXT = 64
"""The longest action text read (rust/action_text.rs has the same): longer text is refused
before it is split. The longest action (``"3 announce"``) has 10 characters."""
_SEATS = "0123"
# Each verb of the text grammar and what follows it (one line a verb).
_VERB_ARGUMENTS = {"pass": "none", "call": "suit", "play": "card"} | dict.fromkeys(
    TABLE_VERBS, "none"
)


def _malformed(text: str) -> InvalidInputError:
    return InvalidInputError(
        f"malformed action {excerpt(text)}: expected '<seat 0-3> <verb> [suit or card]', "
        f"verbs {', '.join(_VERB_ARGUMENTS)} (R0)"
    )


@dataclass(frozen=True, slots=True)
class Action:
    """One player's action. Build with ``Action.play``, ``Action.call``, ``Action.pass_``,
    ``Action.table`` (the table-mode verbs), ``Action.from_id`` or ``Action.parse``."""

    seat: int
    kind: ActionKind
    card: Card | None = None
    suit: Suit | None = None

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Raise ``InvalidInputError`` unless this is an action of R0. The constructor runs it;
        the engines run it again on the actions they are given (an ``Action`` changed behind the
        constructor's back is refused, never applied)."""
        if type(self.seat) is not int or not 0 <= self.seat < 4:
            raise InvalidInputError(f"a seat is 0..3 (R0), got {excerpt(self.seat)}")
        if type(self.kind) is not ActionKind:
            raise InvalidInputError(f"an action's kind is an ActionKind, got {excerpt(self.kind)}")
        wants_card = self.kind is ActionKind.PLAY
        wants_suit = self.kind is ActionKind.CALL
        if wants_card != (type(self.card) is Card) or wants_suit != (type(self.suit) is Suit):
            wants = "a card" if wants_card else "a suit" if wants_suit else "no card or suit"
            raise InvalidInputError(f"a {self.kind} action takes {wants}")

    @classmethod
    def play(cls, seat: int, card: Card | str) -> Action:
        """``seat`` plays ``card`` (a ``Card`` or card text such as ``"JH"``)."""
        return cls(seat, ActionKind.PLAY, card=card if isinstance(card, Card) else Card.parse(card))

    @classmethod
    def call(cls, seat: int, suit: Suit | str) -> Action:
        """``seat`` names ``suit`` trump (a ``Suit`` or its letter), R3.1."""
        return cls(seat, ActionKind.CALL, suit=suit if isinstance(suit, Suit) else Suit.parse(suit))

    @classmethod
    def pass_(cls, seat: int) -> Action:
        """``seat`` passes in the auction (R3.1)."""
        return cls(seat, ActionKind.PASS)

    @classmethod
    def table(cls, seat: int, verb: ActionKind | str) -> Action:
        """A table-mode action (``"announce"``, ``"show"``, ``"bella"``, ``"misplay"``,
        ``"throw"``), which takes no card or suit."""
        kind = verb if isinstance(verb, ActionKind) else _TABLE_BY_VERB.get(verb)
        if kind is None or kind not in _TABLE_IDS:
            raise InvalidInputError(
                f"{excerpt(verb)} is not a table-mode verb ({', '.join(TABLE_VERBS)})"
            )
        return cls(seat, kind)

    @property
    def id(self) -> int:
        """The dense action id (R0, docs/TABLE.md)."""
        if self.card is not None:
            return self.card.index
        if self.suit is not None:
            return CALL_BASE + int(self.suit)
        if self.kind is ActionKind.PASS:
            return PASS_ID
        return _TABLE_IDS[self.kind]

    @classmethod
    def from_id(cls, action_id: int, seat: int) -> Action:
        """The action of ``seat`` with the dense id ``action_id`` (0..45)."""
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise InvalidInputError(f"an action id is an int 0..45 (R0), got {excerpt(action_id)}")
        if 0 <= action_id < CALL_BASE:
            return cls.play(seat, Card.from_index(action_id))
        if CALL_BASE <= action_id < PASS_ID:
            return cls.call(seat, Suit(action_id - CALL_BASE))
        if action_id == PASS_ID:
            return cls.pass_(seat)
        if PASS_ID < action_id < NUM_ACTIONS:
            return cls(seat, _TABLE_KINDS[action_id])
        raise InvalidInputError(f"action id {excerpt(action_id)} is not in 0..45 (R0)")

    @classmethod
    def parse(cls, text: str) -> Action:
        """``"2 call H"``, ``"1 play 6S"``, ``"0 pass"``, ``"3 announce"`` (any table verb);
        raises ``InvalidInputError`` otherwise.

        The grammar is R0's, ASCII only: ``<seat> <verb> [argument]``, the seat one digit 0-3,
        words separated by ASCII blanks, the verb in any case, the argument a suit letter or card
        text. The Rust core reads exactly the same texts (rust/action_text.rs)."""
        if not isinstance(text, str):
            raise InvalidInputError(f"an action is text like '2 call H', got {excerpt(text)}")
        if len(text) > MAX_ACTION_TEXT:
            raise InvalidInputError(
                f"action text {excerpt(text)} is longer than {MAX_ACTION_TEXT} characters (R0)"
            )
        words = split_blanks(text)
        if len(words) not in (2, 3):
            raise _malformed(text)
        seat_text, verb = words[0], ascii_lower(words[1])
        if len(seat_text) != 1 or seat_text not in _SEATS:
            raise InvalidInputError(
                f"action {excerpt(text)}: the seat is one digit 0..3 (R0), got {excerpt(seat_text)}"
            )
        seat, reads = int(seat_text), _VERB_ARGUMENTS.get(verb)
        if len(words) == 2 and reads == "none":
            return cls.pass_(seat) if verb == "pass" else cls.table(seat, verb)
        if len(words) == 3 and reads == "suit":
            return cls.call(seat, Suit.parse(words[2]))
        if len(words) == 3 and reads == "card":
            return cls.play(seat, Card.parse(words[2]))
        raise _malformed(text)

    def __str__(self) -> str:
        if self.card is not None:
            return f"{self.seat} play {self.card}"
        if self.suit is not None:
            return f"{self.seat} call {self.suit.name}"
        return f"{self.seat} {self.kind.value}"
