"""A match: hands dealt one after another until a team wins, ``MatchState`` (docs/ENGINE.md
"Matches").

Rules implemented here: R2.2 (the deal passes to the left after every hand, a void hand too),
R7.1 (play until, at the end of a hand, a team has ``target`` points and the totals differ;
equal totals play on), R7.2 (every hand is recorded: ``history`` and ``to_record``).
Hand ``i`` is dealt from hand seed ``derive(seed, i)`` by dealer ``(first_dealer + i) % 4``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import numpy.typing as npt

from .._actions import Action, Phase
from .._errors import IllegalActionError, InvalidInputError, excerpt
from .._rules import Rules
from .._views import Observation, TableView
from ._deal import deal_indices, derive
from ._events import match_over, select
from ._hand import STATE_FORMAT, HandState, _check_keys, _load_json, _string_list
from ._input import rules_value, score_pair, seat_number, seed_number
from ._order import names

RECORD_FORMAT = "tarabish-record/1"


class MatchState:
    """A match of hands to ``rules.target`` points (R7)."""

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __init__(
        self,
        *,
        seed: int,
        rules: Rules | None = None,
        first_dealer: int | None = 0,
        scores: tuple[int, int] | None = (0, 0),
    ) -> None:
        # None stands for the default, as in the Rust engine (docs/ENGINE.md).
        self._rules = rules_value(Rules() if rules is None else rules)
        self._seed = seed_number(seed)
        self._first_dealer = seat_number(
            0 if first_dealer is None else first_dealer, "first_dealer"
        )
        self._start_scores = score_pair((0, 0) if scores is None else scores, "scores")
        self._scores = self._start_scores
        self._hand_index = 0
        self._history: list[HandState] = []
        self._winner: int | None = None
        self._hand = self._deal_hand(0)

    def _deal_hand(self, index: int) -> HandState:
        """Hand ``index``: seed ``derive(seed, index)``, dealer moving left each hand (R2.2)."""
        dealer = (self._first_dealer + index) % 4
        deal = deal_indices(derive(self._seed, index), dealer)
        return HandState._from_indices(self._rules, dealer, self._scores, deal, index)

    # -- read-only attributes ---------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The `Rules` the match is played under (R9)."""
        return self._rules

    @property
    def seed(self) -> int:
        """The match seed: hand i is dealt from `derive(seed, i)`."""
        return self._seed

    @property
    def first_dealer(self) -> int:
        """The dealer of the first hand (R2.1)."""
        return self._first_dealer

    @property
    def start_scores(self) -> tuple[int, int]:
        """The totals the match started from (``scores=`` of the constructor)."""
        return self._start_scores

    @property
    def scores(self) -> tuple[int, int]:
        """The running totals (after the hands finished so far)."""
        return self._scores

    @property
    def hand_index(self) -> int:
        """The number of the current hand, from 0."""
        return self._hand_index

    @property
    def hand(self) -> HandState:
        """A copy of the current hand (the last hand once the match is over)."""
        return self._hand.clone()

    @property
    def history(self) -> list[HandState]:
        """Copies of the finished hands, in order."""
        return [hand.clone() for hand in self._history]

    @property
    def winner(self) -> int | None:
        """The team that won (R7.1), or None while the match goes on."""
        return self._winner

    @property
    def is_terminal(self) -> bool:
        """True once the match is over (R7.1)."""
        return self._winner is not None

    @property
    def phase(self) -> Phase:
        """The current hand's phase."""
        return self._hand.phase

    @property
    def to_move(self) -> int | None:
        """The seat to act in the current hand, or None once the match is over."""
        return self._hand.to_move

    @property
    def dealer(self) -> int:
        """The current hand's dealer (R2.2)."""
        return self._hand.dealer

    # -- actions --------------------------------------------------------------------------------

    def allowed_action_ids(self, seat: int | None = None) -> list[int]:
        """The current hand's ``allowed_action_ids`` (docs/TABLE.md)."""
        return self._hand.allowed_action_ids(seat)

    def legal_action_ids(self, seat: int | None = None) -> list[int]:
        """The current hand's ``legal_action_ids`` (docs/TABLE.md)."""
        return self._hand.legal_action_ids(seat)

    def allowed_actions(self, seat: int | None = None) -> list[Action]:
        """`allowed_action_ids(seat)` as `Action` values."""
        return self._hand.allowed_actions(seat)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """`legal_action_ids(seat)` as `Action` values."""
        return self._hand.legal_actions(seat)

    def apply(self, action: Action | int | str, seat: int | None = None) -> None:
        """Apply an action to the current hand (an id for ``seat``, default the seat to move);
        when it ends, score it and deal the next."""
        self._hand.apply(action, seat)
        if self._hand.is_terminal:
            self._end_hand()

    def _end_hand(self) -> None:
        result = self._hand.result
        assert result is not None
        # R6 / R3.3: add the hand's score (nothing for a void hand).
        self._scores = (self._scores[0] + result.score[0], self._scores[1] + result.score[1])
        self._history.append(self._hand.clone())
        # R7.1: the match ends once a team has the target and the totals differ.
        if max(self._scores) >= self._rules.target and self._scores[0] != self._scores[1]:
            self._winner = 0 if self._scores[0] > self._scores[1] else 1
            return
        # R2.2: the deal passes to the left.
        self._hand_index += 1
        self._hand = self._deal_hand(self._hand_index)

    # -- views ----------------------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What `seat` may know of the current hand (as `HandState.observation`)."""
        return self._hand.observation(seat)

    def information_state_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """What `seat` knows of the current hand, as a numpy float32 vector (as
        `HandState.information_state_tensor`).
        """
        return self._hand.information_state_tensor(seat)

    def information_state_string(self, seat: int) -> str:
        """What `seat` knows of the current hand, as text."""
        return self._hand.information_state_string(seat)

    def table_view(self, seat: int) -> TableView:
        """The current hand's table view for ``seat`` (R8.4); ``scores`` are the match totals
        before it."""
        return self._hand.table_view(seat)

    def table_view_json(self, seat: int) -> str:
        """The current hand's ``table_view_json(seat)`` (compact JSON of the table view)."""
        return self._hand.table_view_json(seat)

    def events(self, seat: int | None = None, since: int = 0) -> list[dict[str, Any]]:
        """The events of every hand of the match, in order with ``seq`` continuing, then
        ``match_over`` once the match is over (docs/EVENTS.md)."""
        entries = [entry for hand in self._all_hands() for entry in hand._events]
        if self._winner is not None:
            entries.append(match_over(self._winner, self._scores))
        return select(entries, seat, since)

    # -- copies, equality, pickling ---------------------------------------------------------

    def _all_hands(self) -> list[HandState]:
        """Every hand dealt so far: the finished ones, then the current one if still open."""
        if self.is_terminal:
            return list(self._history)
        return [*self._history, self._hand]

    def clone(self) -> MatchState:
        """An independent copy."""
        copy = MatchState.__new__(MatchState)
        copy.__dict__.update(self.__dict__)
        copy._history = list(self._history)  # finished hands are never changed again
        copy._hand = self._hand.clone()
        return copy

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchState):
            return NotImplemented
        return (
            self._rules == other._rules
            and self._seed == other._seed
            and self._first_dealer == other._first_dealer
            and self._start_scores == other._start_scores
            and [hand.actions for hand in self._all_hands()]
            == [hand.actions for hand in other._all_hands()]
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_match_from_json, (self.to_json(),))

    def __repr__(self) -> str:
        return (
            f"MatchState(seed={self._seed}, hand_index={self._hand_index}, "
            f"scores={self._scores}, winner={self._winner})"
        )

    # -- serialization --------------------------------------------------------------------------

    def _to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "kind": "match",
            "rules": self._rules.to_dict(),
            "seed": self._seed,
            "first_dealer": self._first_dealer,
            "scores": list(self._start_scores),
            "hands": [
                {"actions": [str(action) for action in hand.actions]} for hand in self._all_hands()
            ],
        }

    def to_json(self) -> str:
        """The match as JSON text: rules, seed, first dealer, start scores and every action
        (docs/ENGINE.md).
        """
        return json.dumps(self._to_dict())

    @classmethod
    def from_json(cls, text: str) -> MatchState:
        """Load a ``tarabish-state/1`` match, re-dealing from the seed and replaying every
        action with every check."""
        return cls._from_dict(_load_json(text))

    @classmethod
    def _from_dict(cls, data: Any) -> MatchState:
        _check_keys(data, "match", ("rules", "seed", "first_dealer", "scores", "hands"))
        state = cls(
            seed=data["seed"],
            rules=Rules.from_dict(data["rules"]),
            first_dealer=data["first_dealer"],
            scores=data["scores"],
        )
        hands = data["hands"]
        if not isinstance(hands, list):
            raise InvalidInputError("a match state's hands must be a list")
        for index, entry in enumerate(hands):
            if not isinstance(entry, dict) or set(entry) != {"actions"}:
                raise InvalidInputError(
                    f"hand {index} of a match state must be {{'actions': [...]}}"
                )
            if state.is_terminal or state.hand_index != index:
                raise InvalidInputError(
                    f"hand {index} of the match state cannot be played: the match is over or "
                    "an earlier hand is unfinished"
                )
            for text in _string_list(entry["actions"], "actions"):
                if state.hand_index != index:
                    raise InvalidInputError(f"hand {index} has actions after it ended")
                try:
                    state.apply(text)
                except IllegalActionError as error:
                    raise InvalidInputError(
                        f"action {excerpt(text)} of hand {index} cannot be replayed: {error}"
                    ) from None
        return state

    def to_record(self) -> dict[str, Any]:
        """The ``tarabish-record/1`` dict of the hands so far (R7.2), without results: every
        finished hand, then the current hand if it has begun."""
        hands = [hand for hand in self._all_hands() if hand.is_terminal or hand.actions]
        return {
            "format": RECORD_FORMAT,
            "rules": self._rules.to_dict(),
            "hands": [
                {
                    "dealer": hand.dealer,
                    "scores_before": list(hand.scores_before),
                    "deal": [names([card.index for card in cards]) for cards in hand.deal],
                    "actions": [str(action) for action in hand.actions],
                }
                for hand in hands
            ],
        }


def _match_from_json(text: str) -> MatchState:
    return MatchState.from_json(text)
