"""One hand of Tarabish as a state machine: ``HandState`` (docs/ENGINE.md "Hands").

Rules implemented here: R2.4 (the deal received, kitty), R3.1-R3.5 (the auction: calls, passes,
the stuck dealer, ``dealer_may_pass``, ``forced_at``, eldest leads), R4.3/R4.4 auto mode (runs
credited once every player has played a second card), R4.5 (bella credited on the second of
the trump K and Q), R5.1-R5.3 (playing nine tricks), R1.4 (10 for the last trick), R6 (scoring,
via ``_scoring``). Table mode (R8, manual declarations) is not supported and is refused.

The state is kept as plain values: card indices (R0) in lists and sets, seats as ints.
Every action is checked completely before anything changes, so a rejected action leaves the
state exactly as it was.
"""

from __future__ import annotations

import json
import numbers
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from .._actions import NUM_ACTIONS, Action, ActionKind, Phase
from .._cards import Card, Suit
from .._errors import IllegalActionError, InvalidInputError
from .._rules import Rules
from .._runs import Run
from .._views import HandResult, Observation, Outcome, RunsResult, TrickResult
from ._deal import deal_indices
from ._input import (
    card_indices,
    check_distinct,
    engine_rules,
    score_pair,
    seat_number,
    seed_number,
    whole_number,
)
from ._observe import information_state_string, information_state_tensor, observe
from ._order import LAST_TRICK_BONUS, names, points_of
from ._play import illegal_reason, legal_indices, winning_position
from ._runs import bella_holder, is_bella_card, runs_of, winning_seat
from ._scoring import score

STATE_FORMAT = "tarabish-state/1"
BELLA_POINTS = 20  # R4.5
PLAYS_BEFORE_RUNS = 8  # R4.4 auto mode: runs are known once every player has played twice


_TABLE_RULES = {
    ActionKind.ANNOUNCE: ("R4.4", "declarations are automatic (declarations='auto')"),
    ActionKind.SHOW: ("R4.4", "declarations are automatic (declarations='auto')"),
    ActionKind.BELLA: ("R4.5", "bella is automatic (declarations='auto')"),
    ActionKind.MISPLAY: ("R8.2", "legal play is enforced (enforce_legal_play=True)"),
    ActionKind.THROW: ("R8.3", "legal play is enforced (enforce_legal_play=True)"),
}


def forced_team(rules: Rules, scores_before: tuple[int, int]) -> int | None:
    """R3.4: the team that must call (``forced_at``): the team with at least that many points;
    if both have, the higher; at equal scores neither."""
    if rules.forced_at is None:
        return None
    qualified = [team for team in (0, 1) if scores_before[team] >= rules.forced_at]
    if len(qualified) == 1:
        return qualified[0]
    if len(qualified) == 2 and scores_before[0] != scores_before[1]:
        return 0 if scores_before[0] > scores_before[1] else 1
    return None


def _parse_deal(deal: Any) -> list[list[int]]:
    """Four lists (or strings) of 9 cards in the order received, 36 distinct cards (R2.4)."""
    if isinstance(deal, str | bytes | dict):
        raise InvalidInputError("deal must be four lists of 9 cards (or four strings), one a seat")
    try:
        seats = list(deal)
    except TypeError:
        raise InvalidInputError(
            f"deal must be four lists of 9 cards (or four strings), got {deal!r}"
        ) from None
    if len(seats) != 4:
        raise InvalidInputError(f"a deal is four hands, one a seat (R2.4), got {len(seats)}")
    hands = [card_indices(cards, f"seat {seat}'s deal") for seat, cards in enumerate(seats)]
    for seat, cards in enumerate(hands):
        if len(cards) != 9:
            raise InvalidInputError(f"seat {seat} is dealt 9 cards (R2.4), got {len(cards)}")
    check_distinct([card for cards in hands for card in cards], "the deal")
    return hands


class HandState:
    """One hand: the auction (R3) then nine tricks (R5), scored by R6 (docs/ENGINE.md).

    Give exactly one of ``seed`` (dealt by the seeded deal of docs/ENGINE.md) or ``deal``
    (four 9-card lists or strings, in the order received; the last three are the kitty).
    """

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __init__(
        self,
        dealer: int | None = 0,
        *,
        seed: int | None = None,
        deal: Any = None,
        rules: Rules | None = None,
        scores_before: tuple[int, int] | None = (0, 0),
    ) -> None:
        # None stands for the default, as in the Rust engine (docs/ENGINE.md).
        checked_rules = engine_rules(Rules() if rules is None else rules)
        checked_dealer = seat_number(0 if dealer is None else dealer, "dealer")
        checked_scores = score_pair(
            (0, 0) if scores_before is None else scores_before, "scores_before"
        )
        if (seed is None) == (deal is None):
            raise InvalidInputError("HandState needs exactly one of seed= or deal=")
        if seed is not None:
            cards = deal_indices(seed_number(seed), checked_dealer)
        else:
            cards = _parse_deal(deal)
        self._setup(checked_rules, checked_dealer, checked_scores, cards)

    def _setup(
        self, rules: Rules, dealer: int, scores_before: tuple[int, int], deal: list[list[int]]
    ) -> None:
        self._rules = rules
        self._dealer = dealer
        self._scores_before = scores_before
        self._deal = [list(cards) for cards in deal]  # in the order received (R2.4)
        self._held = [set(cards) for cards in deal]
        self._actions: list[Action] = []
        self._phase = Phase.AUCTION
        self._to_move: int | None = (dealer + 1) % 4  # R3.1: eldest speaks first
        self._passes = 0
        self._trump: int | None = None
        self._caller: int | None = None
        self._leader = (dealer + 1) % 4  # R3.5: eldest leads the first trick
        self._trick: list[int] = []
        self._tricks: list[TrickResult] = []
        self._played = [0, 0, 0, 0]  # cards played so far by each seat
        self._points = [0, 0]
        self._runs: list[list[Run]] = [runs_of(cards) for cards in deal]  # R4.1, dealt cards
        self._runs_result: RunsResult | None = None
        self._bella_holder: int | None = None
        self._bella: int | None = None
        self._result: HandResult | None = None
        self._forced_team = forced_team(rules, scores_before)

    @classmethod
    def _from_indices(
        cls, rules: Rules, dealer: int, scores_before: tuple[int, int], deal: list[list[int]]
    ) -> HandState:
        """A fresh hand from already checked values (used by MatchState and random playouts)."""
        state = cls.__new__(cls)
        state._setup(engine_rules(rules), dealer, scores_before, deal)
        return state

    # -- read-only attributes ---------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def scores_before(self) -> tuple[int, int]:
        return self._scores_before

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def is_terminal(self) -> bool:
        return self._phase is Phase.DONE

    @property
    def trump(self) -> Suit | None:
        return None if self._trump is None else Suit(self._trump)

    @property
    def caller(self) -> int | None:
        return self._caller

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The cards each seat still holds (kitty included), by index."""
        return tuple(tuple(Card.from_index(card) for card in sorted(held)) for held in self._held)

    @property
    def deal(self) -> list[list[Card]]:
        """The four hands as dealt, in the order received (the last three are the kitty)."""
        return [[Card.from_index(card) for card in cards] for cards in self._deal]

    @property
    def actions(self) -> list[Action]:
        return list(self._actions)

    @property
    def points(self) -> tuple[int, int]:
        """Team points credited so far: cards, last, runs and bella (R6.1)."""
        return (self._points[0], self._points[1])

    @property
    def result(self) -> HandResult | None:
        return self._result

    # -- legal actions ----------------------------------------------------------------------

    def legal_action_ids(self) -> list[int]:
        """The ids (R0) of the actions the seat to move may take, ascending."""
        if self._phase is Phase.DONE or self._to_move is None:
            return []
        seat = self._to_move
        if self._phase is Phase.AUCTION:
            # R3.1: any of the four calls, and a pass unless R3.2/R3.4 forbid it.
            ids = [36, 37, 38, 39]
            if self._pass_problem(seat) is None:
                ids.append(40)
            return ids
        assert self._trump is not None
        return legal_indices(sorted(self._held[seat]), self._trick, self._trump, self._rules)

    def legal_actions(self) -> list[Action]:
        seat = self._to_move
        if seat is None:
            return []
        return [Action.from_id(action_id, seat) for action_id in self.legal_action_ids()]

    def _pass_problem(self, seat: int) -> tuple[str, str] | None:
        """Why ``seat`` may not pass now (rule, explanation), or None if it may."""
        dealer = self._dealer
        if seat == dealer and self._passes == 3 and not self._rules.dealer_may_pass:
            # R3.2 "stick the dealer": after three passes the dealer must call.
            return "R3.2", "the dealer must call after three passes"
        team = self._forced_team
        if team is not None:
            # R3.4: the forced team's player on the dealer's right may not pass, or the dealer
            # if the forced team holds the deal (even under dealer_may_pass).
            forced_seat = dealer if dealer % 2 == team else (dealer + 3) % 4
            if seat == forced_seat:
                return (
                    "R3.4",
                    f"team {team} has {self._scores_before[team]} points "
                    f"(forced_at {self._rules.forced_at}) and must call",
                )
        return None

    # -- applying actions -------------------------------------------------------------------

    def apply(self, action: Action | int | str) -> None:
        """Apply an ``Action``, an action id (for the seat to move) or action text.

        Malformed input raises ``InvalidInputError``; an action the rules forbid raises
        ``IllegalActionError`` naming the rule it breaks, and changes nothing.
        """
        checked = self._action_of(action)
        problem = self._problem(checked)
        if problem is not None:
            rule, reason = problem
            self._refuse(checked, rule, reason)
        self._perform(checked)

    def _action_of(self, action: Any) -> Action:
        """An ``Action``, an id 0..45 or action text to an ``Action`` (InvalidInputError else)."""
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            return Action.parse(action)
        if isinstance(action, bool | np.bool_) or not isinstance(action, numbers.Integral):
            raise InvalidInputError(
                f"an action is an Action, an id 0..45 or text like '2 call H', got {action!r}"
            )
        action = whole_number(int(action), "an action id (R0)", 0, NUM_ACTIONS - 1)
        if self._to_move is None:
            # No seat to act for: the hand is over (R5.3).
            verb = str(Action.from_id(action, 0)).split(" ", 1)[1]
            raise IllegalActionError(
                f"cannot {verb}: R5.3 the hand is over ({self._describe()})",
                action=verb,
                rule="R5.3",
                state=self._describe(),
            )
        return Action.from_id(action, self._to_move)

    def _problem(self, action: Action) -> tuple[str, str] | None:
        """Why ``action`` is forbidden now (rule id as docs/ENGINE.md's table, explanation)."""
        if action.kind in _TABLE_RULES:
            # The engine plays auto mode with legal play enforced only: these verbs do not
            # exist in that game (docs/TABLE.md "Refusals").
            return _TABLE_RULES[action.kind]
        if self._phase is Phase.DONE:
            return "R5.3", "the hand is over"
        seat = action.seat
        if seat != self._to_move:
            rule = "R3.1" if self._phase is Phase.AUCTION else "R5.1"
            return rule, f"it is seat {self._to_move}'s turn"
        if self._phase is Phase.AUCTION:
            if action.kind is ActionKind.PLAY:
                return "R3.1", "trump is not named yet: each player in turn calls or passes first"
            if action.kind is ActionKind.PASS:
                return self._pass_problem(seat)
            return None
        assert self._trump is not None and self._caller is not None
        if action.kind is not ActionKind.PLAY:
            suit = Suit(self._trump)
            return "R3.1", f"trump is already named ({suit} by seat {self._caller})"
        assert action.card is not None
        card = action.card.index
        if card not in self._held[seat]:
            return "R5.1", f"seat {seat} does not hold the {action.card}"
        return illegal_reason(sorted(self._held[seat]), self._trick, self._trump, self._rules, card)

    def _refuse(self, action: Action, rule: str, reason: str) -> NoReturn:
        verb = str(action).split(" ", 1)[1]
        state = self._describe()
        raise IllegalActionError(
            f"seat {action.seat} cannot {verb}: {rule} {reason} ({state})",
            action=str(action),
            rule=rule,
            state=state,
        )

    def _describe(self) -> str:
        """A one-line description of the state, for error messages."""
        if self._phase is Phase.DONE:
            assert self._result is not None
            score0, score1 = self._result.score
            return f"hand over: {self._result.outcome}, score {score0} {score1}"
        if self._phase is Phase.AUCTION:
            spoken = ", ".join(str(action) for action in self._actions) or "no one has spoken"
            return (
                f"auction, dealer {self._dealer}, {spoken}, seat {self._to_move} to speak, "
                f"scores before {self._scores_before[0]} {self._scores_before[1]}"
            )
        assert self._trump is not None and self._to_move is not None
        held = self._held[self._to_move]
        return (
            f"trump {Suit(self._trump)}, trick {names(self._trick)} led by seat {self._leader}, "
            f"seat {self._to_move} to play, hand {names(sorted(held))}"
        )

    def _perform(self, action: Action) -> None:
        """Carry out a checked, legal action."""
        self._actions.append(action)
        seat = action.seat
        if action.kind is ActionKind.PASS:
            self._passes += 1
            if self._passes == 4:
                self._finish_void()  # R3.3: everyone passed, no score
            else:
                self._to_move = (seat + 1) % 4
        elif action.kind is ActionKind.CALL:
            # R3.1: the first call ends the auction; R3.5: eldest leads.
            assert action.suit is not None
            self._trump = int(action.suit)
            self._caller = seat
            self._phase = Phase.PLAY
            self._to_move = self._leader
            self._bella_holder = bella_holder(self._deal, self._trump)
        else:
            assert action.card is not None
            self._play(seat, action.card.index)

    def _play(self, seat: int, card: int) -> None:
        trump = self._trump
        assert trump is not None and self._caller is not None
        self._held[seat].remove(card)
        self._played[seat] += 1
        self._trick.append(card)
        # R4.5: bella is credited as its holder plays the second of the trump K and Q.
        if seat == self._bella_holder and is_bella_card(card, trump):
            if not any(is_bella_card(other, trump) for other in self._held[seat]):
                self._points[seat % 2] += BELLA_POINTS
                self._bella = seat
        if len(self._trick) == 4:
            # R5.2: the trick's winner takes its card points (R1.3, + last R1.4) and leads.
            winner = (self._leader + winning_position(self._trick, trump)) % 4
            taken = sum(points_of(played, trump) for played in self._trick)
            if len(self._tricks) == 8:
                taken += LAST_TRICK_BONUS
            self._tricks.append(TrickResult(self._leader, self._card_tuple(), winner, taken))
            self._points[winner % 2] += taken
            self._leader = winner
            self._trick = []
            self._to_move = winner
        else:
            self._to_move = (seat + 1) % 4
        if sum(self._played) == PLAYS_BEFORE_RUNS:
            self._credit_runs(trump)
        if len(self._tricks) == 9:  # R5.3: nine tricks make a hand
            self._finish(trump, self._caller)

    def _card_tuple(self) -> tuple[Card, ...]:
        return tuple(Card.from_index(card) for card in self._trick)

    def _credit_runs(self, trump: int) -> None:
        """R4.3: the seat whose best run beats every other best run scores all its runs
        (and, with ``team_runs``, its partner's runs too)."""
        seat = winning_seat(self._runs, trump)
        if seat is None:
            return
        scored = sum(run.points for run in self._runs[seat])
        if self._rules.team_runs:
            scored += sum(run.points for run in self._runs[(seat + 2) % 4])
        self._points[seat % 2] += scored
        self._runs_result = RunsResult(seat, scored)

    def _finish(self, trump: int, caller: int) -> None:
        """R6: score the played-out hand."""
        points = self.points
        outcome, scores = score(points, caller % 2, self._rules)
        self._result = HandResult(
            outcome=outcome,
            trump=Suit(trump),
            caller=caller,
            points=points,
            score=scores,
            runs=self._runs_result,
            bella=self._bella,
            tricks=tuple(self._tricks),
        )
        self._phase = Phase.DONE
        self._to_move = None

    def _finish_void(self) -> None:
        """R3.3: four passes (``dealer_may_pass``): the hand is void and scores nothing."""
        self._result = HandResult(
            outcome=Outcome.VOID,
            trump=None,
            caller=None,
            points=(0, 0),
            score=(0, 0),
            runs=None,
            bella=None,
            tricks=(),
        )
        self._phase = Phase.DONE
        self._to_move = None

    # -- copies, equality, pickling ---------------------------------------------------------

    def clone(self) -> HandState:
        copy = HandState.__new__(HandState)
        copy.__dict__.update(self.__dict__)
        copy._deal = [list(cards) for cards in self._deal]
        copy._held = [set(held) for held in self._held]
        copy._actions = list(self._actions)
        copy._trick = list(self._trick)
        copy._tricks = list(self._tricks)
        copy._played = list(self._played)
        copy._points = list(self._points)
        copy._runs = [list(runs) for runs in self._runs]
        return copy

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandState):
            return NotImplemented
        return (
            self._rules == other._rules
            and self._dealer == other._dealer
            and self._scores_before == other._scores_before
            and self._deal == other._deal
            and self._actions == other._actions
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_hand_from_json, (self.to_json(),))

    def __repr__(self) -> str:
        return (
            f"HandState(dealer={self._dealer}, phase={self._phase}, to_move={self._to_move}, "
            f"actions={len(self._actions)})"
        )

    # -- views --------------------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (R2.4, R4.4 auto mode, R4.5), as docs/ENGINE.md."""
        return observe(self, seat_number(seat, "observer seat"))

    def information_state_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """The 1708 floats of docs/ENGINE.md for ``seat``'s observation."""
        return information_state_tensor(self.observation(seat))

    def information_state_string(self, seat: int) -> str:
        """The text form of docs/ENGINE.md for ``seat``'s observation."""
        return information_state_string(self.observation(seat))

    # -- serialization --------------------------------------------------------------------------

    def _to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "kind": "hand",
            "rules": self._rules.to_dict(),
            "dealer": self._dealer,
            "scores_before": list(self._scores_before),
            "deal": [names(cards) for cards in self._deal],
            "actions": [str(action) for action in self._actions],
        }

    def to_json(self) -> str:
        return json.dumps(self._to_dict())

    @classmethod
    def from_json(cls, text: str) -> HandState:
        """Load a ``tarabish-state/1`` hand, replaying every action with every check."""
        return cls._from_dict(_load_json(text))

    @classmethod
    def _from_dict(cls, data: Any) -> HandState:
        _check_keys(data, "hand", ("rules", "dealer", "scores_before", "deal", "actions"))
        rules = Rules.from_dict(data["rules"])
        state = cls(
            data["dealer"],
            deal=_string_list(data["deal"], "deal"),
            rules=rules,
            scores_before=data["scores_before"],
        )
        state._replay(data["actions"])
        return state

    def _replay(self, actions: Any) -> None:
        """Apply a list of action texts; any illegal one is malformed content here."""
        for text in _string_list(actions, "actions"):
            try:
                self.apply(text)
            except IllegalActionError as error:
                raise InvalidInputError(f"action {text!r} cannot be replayed: {error}") from None


def _hand_from_json(text: str) -> HandState:
    return HandState.from_json(text)


def _load_json(text: Any) -> Any:
    if not isinstance(text, str | bytes | bytearray):
        raise InvalidInputError(f"a state is JSON text, got {type(text).__name__}")
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise InvalidInputError(f"malformed JSON state: {error}") from None


def _check_keys(data: Any, kind: str, keys: tuple[str, ...]) -> None:
    """A ``tarabish-state/1`` object of the given kind with exactly the given other keys."""
    if not isinstance(data, dict):
        raise InvalidInputError("a state is a JSON object")
    if data.get("format") != STATE_FORMAT:
        raise InvalidInputError(
            f"state format must be {STATE_FORMAT!r}, got {data.get('format')!r}"
        )
    if data.get("kind") != kind:
        raise InvalidInputError(f"state kind must be {kind!r}, got {data.get('kind')!r}")
    expected = {"format", "kind", *keys}
    if set(data) != expected:
        raise InvalidInputError(
            f"a {kind} state has the keys {sorted(expected)}, got {sorted(data)}"
        )
    missing = [key for key in keys if data[key] is None]
    if missing:
        # In a saved state every value is written out; null never stands for a default.
        raise InvalidInputError(f"a {kind} state's {missing} must not be null")


def _string_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InvalidInputError(f"{what} must be a list of strings, got {value!r}")
    return value
