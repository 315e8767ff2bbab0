"""Actions and phases of a hand, with the dense action ids of RULES.md R0.

Ids: 0-35 play the card of that index; 36-39 call trump C, D, H, S; 40 pass.
Text form (the record format of DESIGN.md): ``"<seat> pass"``, ``"<seat> call H"``,
``"<seat> play JH"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ._cards import Card, Suit
from ._errors import InvalidInputError

CALL_BASE = 36
PASS_ID = 40
NUM_ACTIONS = 41


class Phase(Enum):
    """Where a hand stands: naming trump (R3), playing tricks (R5), or over."""

    AUCTION = "auction"
    PLAY = "play"
    DONE = "done"

    def __str__(self) -> str:
        return self.value


class ActionKind(Enum):
    PASS = "pass"
    CALL = "call"
    PLAY = "play"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Action:
    """One player's action. Build with ``Action.play``, ``Action.call``, ``Action.pass_``,
    ``Action.from_id`` or ``Action.parse``."""

    seat: int
    kind: ActionKind
    card: Card | None = None
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or not 0 <= self.seat < 4:
            raise InvalidInputError(f"a seat is 0..3 (R0), got {self.seat!r}")
        wants_card = self.kind is ActionKind.PLAY
        wants_suit = self.kind is ActionKind.CALL
        if wants_card != isinstance(self.card, Card) or wants_suit != isinstance(self.suit, Suit):
            wants = "a card" if wants_card else "a suit" if wants_suit else "no card or suit"
            raise InvalidInputError(f"a {self.kind} action takes {wants}")

    @classmethod
    def play(cls, seat: int, card: Card | str) -> Action:
        return cls(seat, ActionKind.PLAY, card=card if isinstance(card, Card) else Card.parse(card))

    @classmethod
    def call(cls, seat: int, suit: Suit | str) -> Action:
        return cls(seat, ActionKind.CALL, suit=suit if isinstance(suit, Suit) else Suit.parse(suit))

    @classmethod
    def pass_(cls, seat: int) -> Action:
        return cls(seat, ActionKind.PASS)

    @property
    def id(self) -> int:
        """The dense action id (R0)."""
        if self.card is not None:
            return self.card.index
        if self.suit is not None:
            return CALL_BASE + int(self.suit)
        return PASS_ID

    @classmethod
    def from_id(cls, action_id: int, seat: int) -> Action:
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise InvalidInputError(f"an action id is an int 0..40 (R0), got {action_id!r}")
        if 0 <= action_id < CALL_BASE:
            return cls.play(seat, Card.from_index(action_id))
        if CALL_BASE <= action_id < PASS_ID:
            return cls.call(seat, Suit(action_id - CALL_BASE))
        if action_id == PASS_ID:
            return cls.pass_(seat)
        raise InvalidInputError(f"action id {action_id} is not in 0..40 (R0)")

    @classmethod
    def parse(cls, text: str) -> Action:
        """``"2 call H"``, ``"1 play 6S"``, ``"0 pass"``; raises ``InvalidInputError`` otherwise."""
        if not isinstance(text, str):
            raise InvalidInputError(f"an action is text like '2 call H', got {text!r}")
        words = text.split()
        if len(words) < 2 or not words[0].isdigit():
            raise InvalidInputError(f"malformed action {text!r}: expected '<seat> <verb> [arg]'")
        seat, verb, args = int(words[0]), words[1].lower(), words[2:]
        if verb == "pass" and not args:
            return cls.pass_(seat)
        if verb == "call" and len(args) == 1:
            return cls.call(seat, args[0])
        if verb == "play" and len(args) == 1:
            return cls.play(seat, args[0])
        if verb in ("announce", "show", "bella", "misplay", "throw"):
            raise InvalidInputError(
                f"action {text!r}: table-mode verb {verb!r} (R8) is not supported yet"
            )
        raise InvalidInputError(
            f"malformed action {text!r}: verbs are pass, call <suit>, play <card>"
        )

    def __str__(self) -> str:
        if self.card is not None:
            return f"{self.seat} play {self.card}"
        if self.suit is not None:
            return f"{self.seat} call {self.suit.name}"
        return f"{self.seat} pass"
