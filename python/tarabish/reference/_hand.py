"""One hand of Tarabish as a state machine: ``HandState`` (docs/ENGINE.md "Hands",
docs/TABLE.md for table mode).

Rules implemented here: R2.4 (the deal received, kitty), R3.1-R3.5 (the auction: calls, passes,
the stuck dealer, ``dealer_may_pass``, ``forced_at``, eldest leads), R4.3/R4.4 (runs credited
once every player has played a second card, a third with manual ``late_twenty``: R8.6c), R4.5
(bella: auto mode on the second of the trump K and Q), R5.1-R5.3 (playing nine tricks), R1.4
(10 for the last trick), R6 (scoring, via ``_scoring``), and the order of table mode's
refusals (docs/TABLE.md "Refusals"). Table mode's concepts live in their own modules:
``_declarations`` (manual announce, show, bella: R4.4, R4.5, R8.5, R8.6c-e), ``_calls``
(misplays and calls: R8.1-R8.3, R8.6a-b), ``_events`` (per-seat events), ``_table_view`` (R8.4).

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

from .._actions import (
    CALL_BASE,
    MISPLAY_ID,
    NUM_ACTIONS,
    PASS_ID,
    THROW_ID,
    Action,
    ActionKind,
    Phase,
)
from .._cards import Card, Suit
from .._errors import IllegalActionError, InvalidInputError, excerpt
from .._json import loads as strict_json
from .._rules import Rules
from .._runs import Run
from .._views import (
    CallResult,
    HandResult,
    Misplay,
    Observation,
    Outcome,
    RunsResult,
    TableView,
    TrickResult,
)
from . import _declarations as declare
from . import _events as events
from ._calls import call_score, hand_count, misplay_call, throw_call
from ._deal import deal_indices
from ._input import (
    card_indices,
    check_distinct,
    rules_value,
    score_pair,
    seat_number,
    seed_number,
    whole_number,
)
from ._observe import FIRST_SEEN, information_state_string, information_state_tensor, observe
from ._order import LAST_TRICK_BONUS, names, points_of
from ._play import illegal_reason, legal_indices, winning_position
from ._runs import bella_holder, is_bella_card, runs_of, winning_seat
from ._scoring import score
from ._table_view import table_view
from ._worlds import MAX_WORLDS, count_worlds, sample_worlds

STATE_FORMAT = "tarabish-state/1"
BELLA_POINTS = 20  # R4.5
DECLARATIONS = (ActionKind.ANNOUNCE, ActionKind.SHOW, ActionKind.BELLA)
CALLS = (ActionKind.MISPLAY, ActionKind.THROW)
TABLE_KINDS = DECLARATIONS + CALLS
CALL_IDS = [MISPLAY_ID, THROW_ID]

# docs/TABLE.md "Refusals": a table verb whose option is off does not exist in the game at all;
# that is named first, whatever the phase or seat.
_OFF_RULES = {
    ActionKind.ANNOUNCE: ("R4.4", "declarations are automatic (declarations='auto')"),
    ActionKind.SHOW: ("R4.4", "declarations are automatic (declarations='auto')"),
    ActionKind.BELLA: ("R4.5", "bella is automatic (declarations='auto')"),
    ActionKind.MISPLAY: ("R8.2", "legal play is enforced (enforce_legal_play=True)"),
    ActionKind.THROW: ("R8.3", "legal play is enforced (enforce_legal_play=True)"),
}
_DECLARATION_CHECKS = {
    ActionKind.ANNOUNCE: (declare.ANNOUNCE_RULE, declare.announce_problem),
    ActionKind.SHOW: (declare.ANNOUNCE_RULE, declare.show_problem),
    ActionKind.BELLA: (declare.BELLA_RULE, declare.bella_problem),
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
            f"deal must be four lists of 9 cards (or four strings), got {excerpt(deal)}"
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
        checked_rules = rules_value(Rules() if rules is None else rules)
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
        self,
        rules: Rules,
        dealer: int,
        scores_before: tuple[int, int],
        deal: list[list[int]],
        hand_index: int = 0,
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
        self._manual = rules.declarations == "manual"
        self._declared = declare.Declarations()  # manual mode (R4.4, R4.5)
        self._misplays: list[Misplay] = []  # R8.1, in play order
        self._runs_after = declare.runs_credited_after(self)  # R8.6c
        self._hand_index = hand_index  # for the hand_start event of a match's hand
        self._events = [events.hand_start(hand_index, dealer, scores_before)]
        for seat in range(4):
            seen = deal[seat][:FIRST_SEEN]  # R2.4
            self._events.append(events.deal(seat, seen))

    @classmethod
    def _from_indices(
        cls,
        rules: Rules,
        dealer: int,
        scores_before: tuple[int, int],
        deal: list[list[int]],
        hand_index: int = 0,
    ) -> HandState:
        """A fresh hand from already checked values (used by MatchState and random playouts)."""
        state = cls.__new__(cls)
        state._setup(rules_value(rules), dealer, scores_before, deal, hand_index)
        return state

    # -- read-only attributes ---------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The `Rules` the hand is played under (R9)."""
        return self._rules

    @property
    def dealer(self) -> int:
        """The dealer's seat, 0-3 (R2.2)."""
        return self._dealer

    @property
    def scores_before(self) -> tuple[int, int]:
        """The match totals (team 0, team 1) before this hand; they decide who is forced under
        `forced_at` (R3.4).
        """
        return self._scores_before

    @property
    def phase(self) -> Phase:
        """Where the hand stands: `Phase.AUCTION` (R3), `Phase.PLAY` (R5) or `Phase.DONE`."""
        return self._phase

    @property
    def to_move(self) -> int | None:
        """The seat to act, or None once the hand is over."""
        return self._to_move

    @property
    def is_terminal(self) -> bool:
        """True once the hand is over: nine tricks played (R5.3), or nobody called (R3.3)."""
        return self._phase is Phase.DONE

    @property
    def trump(self) -> Suit | None:
        """The trump `Suit`, or None before it is named (R3)."""
        return None if self._trump is None else Suit(self._trump)

    @property
    def caller(self) -> int | None:
        """The seat that named trump, or None before (R3)."""
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
        """Every action taken so far, in order, as `Action` values."""
        return list(self._actions)

    @property
    def points(self) -> tuple[int, int]:
        """Team points credited so far: cards, last, runs and bella (R6.1)."""
        return (self._points[0], self._points[1])

    @property
    def result(self) -> HandResult | None:
        """The `HandResult` once the hand is over (outcome, points, score, runs, bella, tricks: R6),
        else None.
        """
        return self._result

    # -- legal actions ----------------------------------------------------------------------

    def allowed_action_ids(self, seat: int | None = None) -> list[int]:
        """The ids of every action the engine accepts from ``seat`` (default: the seat to move)
        now, ascending (docs/TABLE.md "Allowed and legal")."""
        return self._action_ids(seat, legal_only=False)

    def legal_action_ids(self, seat: int | None = None) -> list[int]:
        """The allowed ids less the plays that break R5.1 (misplays, R8.1), ascending. In auto
        mode with legal play enforced this equals ``allowed_action_ids``."""
        return self._action_ids(seat, legal_only=True)

    def allowed_actions(self, seat: int | None = None) -> list[Action]:
        """``allowed_action_ids`` as ``Action``s of that seat."""
        return self._actions_of(seat, self.allowed_action_ids(seat))

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """``legal_action_ids`` as ``Action``s of that seat."""
        return self._actions_of(seat, self.legal_action_ids(seat))

    def _actions_of(self, seat: int | None, ids: list[int]) -> list[Action]:
        actor = self._to_move if seat is None else seat
        if actor is None:
            return []
        return [Action.from_id(action_id, actor) for action_id in ids]

    def _action_ids(self, seat: int | None, legal_only: bool) -> list[int]:
        if seat is not None:
            seat = seat_number(seat, "seat")
        if self._phase is Phase.DONE or self._to_move is None:
            return []
        # R8.2, R8.3, R8.6a: calls by any seat, in or out of turn, during the play.
        calls = CALL_IDS if self._phase is Phase.PLAY and not self._rules.enforce_legal_play else []
        if seat is not None and seat != self._to_move:
            return list(calls)
        seat = self._to_move
        if self._phase is Phase.AUCTION:
            # R3.1: any of the four calls, and a pass unless R3.2/R3.4 forbid it.
            ids = list(range(CALL_BASE, PASS_ID))
            if self._pass_problem(seat) is None:
                ids.append(PASS_ID)
            return ids
        assert self._trump is not None
        held = sorted(self._held[seat])
        legal = legal_indices(held, self._trick, self._trump, self._rules)
        if self._rules.enforce_legal_play or legal_only:
            cards = legal
        else:
            cards = held  # R8.1: any card held may be played, a misplay if not legal
        if self._declared.bella_pending == seat:
            # R8.6e: after a bella before playing one of them, the card is the trump K or Q.
            cards = [card for card in cards if is_bella_card(card, self._trump)]
        return cards + self._declaration_ids(seat) + calls

    def _declaration_ids(self, seat: int) -> list[int]:
        """The manual declarations ``seat`` may take now (R8.6d-e), in id order."""
        if not self._manual:
            return []
        return [
            Action(seat, kind).id
            for kind, (_, problem) in _DECLARATION_CHECKS.items()
            if problem(self, seat) is None
        ]

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

    def apply(self, action: Action | int | str, seat: int | None = None) -> None:
        """Apply an ``Action``, action text (which names its seat) or an action id, taken for
        ``seat`` (default: the seat to move; docs/TABLE.md "Allowed and legal").

        Malformed input raises ``InvalidInputError``; an action the rules forbid raises
        ``IllegalActionError`` naming the rule it breaks, and changes nothing.
        """
        checked = self._action_of(action, seat)
        problem = self._problem(checked)
        if problem is not None:
            rule, reason = problem
            self._refuse(checked, rule, reason)
        self._perform(checked)

    def _action_of(self, action: Any, seat: Any) -> Action:
        """An ``Action``, an id 0..45 or action text to an ``Action`` (InvalidInputError else)."""
        actor = None if seat is None else seat_number(seat, "seat")
        if isinstance(action, Action | str):
            checked = action if isinstance(action, Action) else Action.parse(action)
            checked.check()
            if actor is not None and checked.seat != actor:
                raise InvalidInputError(
                    f"action {excerpt(str(checked))} names seat {checked.seat}, "
                    f"but seat={actor} was given"
                )
            return checked
        if isinstance(action, bool | np.bool_) or not isinstance(action, numbers.Integral):
            raise InvalidInputError(
                "an action is an Action, an id 0..45 or text like '2 call "
                f"H', got {excerpt(action)}"
            )
        action_id = whole_number(int(action), "an action id (R0)", 0, NUM_ACTIONS - 1)
        if actor is None:
            actor = self._to_move
        if actor is None:
            # No seat to act for: the hand is over.
            verb = str(Action.from_id(action_id, 0)).split(" ", 1)[1]
            rule, reason = self._ended_problem(Action.from_id(action_id, 0).kind)
            raise IllegalActionError(
                f"cannot {verb}: {rule} {reason} ({self._describe()})",
                action=verb,
                rule=rule,
                state=self._describe(),
            )
        return Action.from_id(action_id, actor)

    def _ended_problem(self, kind: ActionKind) -> tuple[str, str]:
        """Why an action of this kind is refused once the hand is over (docs/TABLE.md)."""
        if kind in TABLE_KINDS and self._verb_is_off(kind):
            return _OFF_RULES[kind]
        if kind in CALLS:
            return "R8.6a", "calls come during the play, never after the hand"
        return "R5.3", "the hand is over"

    def _verb_is_off(self, kind: ActionKind) -> bool:
        """A table verb whose option is off (R4.4: auto declarations; R8: legal play enforced)."""
        if kind in DECLARATIONS:
            return not self._manual
        return self._rules.enforce_legal_play

    def _problem(self, action: Action) -> tuple[str, str] | None:
        """Why ``action`` is forbidden now, with the rule docs/TABLE.md "Refusals" names: the
        table verb's option first, then the hand being over, then the phase, seat and card."""
        kind = action.kind
        if kind in TABLE_KINDS and self._verb_is_off(kind):
            return _OFF_RULES[kind]
        if self._phase is Phase.DONE:
            return self._ended_problem(kind)
        seat = action.seat
        if kind in CALLS:
            if self._phase is Phase.AUCTION:
                return "R8.6a", "calls come during the play, once trump is named"
            return None  # R8.2, R8.3: any seat, in or out of turn
        if kind in DECLARATIONS:
            rule, check = _DECLARATION_CHECKS[kind]
            reason = check(self, seat)
            return None if reason is None else (rule, reason)
        if seat != self._to_move:
            # Turn order is checked before the action's kind (docs/DECISIONS.md).
            rule = "R3.1" if self._phase is Phase.AUCTION else self._play_rule(kind)
            return rule, f"it is seat {self._to_move}'s turn"
        if self._phase is Phase.AUCTION:
            if kind is ActionKind.PLAY:
                return "R3.1", "trump is not named yet: each player in turn calls or passes first"
            if kind is ActionKind.PASS:
                return self._pass_problem(seat)
            return None
        assert self._trump is not None and self._caller is not None
        if kind is not ActionKind.PLAY:
            suit = Suit(self._trump)
            return "R3.1", f"trump is already named ({suit} by seat {self._caller})"
        assert action.card is not None
        card = action.card.index
        if card not in self._held[seat]:
            return self._play_rule(kind), f"seat {seat} does not hold the {action.card}"
        if self._declared.bella_pending == seat and not is_bella_card(card, self._trump):
            return declare.BELLA_RULE, f"seat {seat} called bella: its card is the trump K or Q"
        if not self._rules.enforce_legal_play:
            return None  # R8.1: a misplay is accepted (and recorded)
        return illegal_reason(sorted(self._held[seat]), self._trick, self._trump, self._rules, card)

    def _play_rule(self, kind: ActionKind) -> str:
        """The rule a card out of turn or not held breaks: R8.1 when legal play is not enforced
        (docs/TABLE.md), else R5.1; a pass or call in the play keeps R5.1."""
        if kind is ActionKind.PLAY and not self._rules.enforce_legal_play:
            return "R8.1"
        return "R5.1"

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
        """Carry out a checked, allowed action, and append the events it makes (EVENTS.md)."""
        self._actions.append(action)
        seat = action.seat
        kind = action.kind
        if kind is ActionKind.PASS:
            self._events.append(events.pass_(seat))
            self._passes += 1
            if self._passes == 4:
                self._finish_void()  # R3.3: everyone passed, no score
            else:
                self._to_move = (seat + 1) % 4
        elif kind is ActionKind.CALL:
            # R3.1: the first call ends the auction; R3.5: eldest leads.
            assert action.suit is not None
            self._events.append(events.call(seat, str(action.suit)))
            self._trump = int(action.suit)
            self._caller = seat
            self._phase = Phase.PLAY
            self._to_move = self._leader
            self._bella_holder = bella_holder(self._deal, self._trump)
            for holder in range(4):  # R2.4: each seat now sees its kitty
                self._events.append(events.kitty(holder, self._deal[holder][FIRST_SEEN:]))
        elif kind is ActionKind.PLAY:
            assert action.card is not None
            self._play(seat, action.card.index)
        elif kind is ActionKind.ANNOUNCE:
            self._events.append(events.announce(seat, declare.announce(self, seat)))
        elif kind is ActionKind.SHOW:
            runs, late = declare.show(self, seat)
            self._events.append(events.show(seat, runs, late))
        elif kind is ActionKind.BELLA:
            counts = declare.call_bella(self, seat)
            if counts:  # R8.6c: a valid bella is credited at once
                self._credit_bella(seat)
            self._events.append(events.bella(seat, counts))
        elif kind is ActionKind.MISPLAY:
            self._finish_call(misplay_call(seat, self._misplays, self._count()))
        else:
            self._finish_call(throw_call(seat, self._count()))

    def _play(self, seat: int, card: int) -> None:
        trump = self._trump
        assert trump is not None and self._caller is not None
        if not self._rules.enforce_legal_play:
            held = sorted(self._held[seat])
            if card not in legal_indices(held, self._trick, trump, self._rules):
                # R8.1: accepted and recorded, known to no other seat until a call rules on it.
                self._misplays.append(Misplay(seat, Card.from_index(card), len(self._tricks)))
        runs = self._runs[seat]
        if runs and not self._manual and self._played[seat] < 2:
            # R4.4 auto mode: the best run's size is announced with the first card, the runs
            # shown with the second.
            if self._played[seat] == 0:
                self._events.append(events.announce(seat, runs[0].points))
            else:
                self._events.append(events.show(seat, tuple(runs), False))
        self._held[seat].remove(card)
        self._played[seat] += 1
        self._trick.append(card)
        self._declared.bella_pending = None
        self._events.append(events.play(seat, card))
        # R4.5 auto mode: bella is credited as its holder plays the second of the trump K and Q.
        if not self._manual and seat == self._bella_holder and is_bella_card(card, trump):
            if not any(is_bella_card(other, trump) for other in self._held[seat]):
                self._credit_bella(seat)
                self._events.append(events.bella(seat, True))
        if len(self._trick) == 4:
            # R5.2: the trick's winner takes its card points (R1.3, + last R1.4) and leads.
            winner = (self._leader + winning_position(self._trick, trump)) % 4
            taken = sum(points_of(played, trump) for played in self._trick)
            if len(self._tricks) == 8:
                taken += LAST_TRICK_BONUS
            completed = TrickResult(self._leader, self._card_tuple(), winner, taken)
            self._events.append(events.trick(len(self._tricks), completed))
            self._tricks.append(completed)
            self._points[winner % 2] += taken
            self._leader = winner
            self._trick = []
            self._to_move = winner
        else:
            self._to_move = (seat + 1) % 4
        if sum(self._played) == self._runs_after:
            self._credit_runs(trump)
            self._events.append(events.runs(self._runs_result))
        if len(self._tricks) == 9:  # R5.3: nine tricks make a hand
            self._finish(trump, self._caller)

    def _card_tuple(self) -> tuple[Card, ...]:
        return tuple(Card.from_index(card) for card in self._trick)

    def _credit_bella(self, seat: int) -> None:
        self._points[seat % 2] += BELLA_POINTS
        self._bella = seat

    def _counted_runs(self) -> list[list[Run]]:
        """The runs each seat may score: in auto mode every run dealt (R4.4), in manual mode
        only the runs announced and shown in time (a late show: its one twenty)."""
        if self._manual:
            return [list(runs) for runs in self._declared.shown]
        return self._runs

    def _credit_runs(self, trump: int) -> None:
        """R4.3: credit the runs once every player has played a second card."""
        self._runs_result = self._runs_due(trump)
        if self._runs_result is not None:
            self._points[self._runs_result.seat % 2] += self._runs_result.points

    def _runs_due(self, trump: int) -> RunsResult | None:
        """R4.3: the seat whose best run beats every other best run scores all its runs
        (and, with ``team_runs``, its partner's runs too), among the runs that count
        (``_counted_runs``); in auto mode that is decided the moment trump is named."""
        counted = self._counted_runs()
        seat = winning_seat(counted, trump)
        if seat is None:
            return None
        scored = sum(run.points for run in counted[seat])
        if self._rules.team_runs:
            scored += sum(run.points for run in counted[(seat + 2) % 4])
        return RunsResult(seat, scored)

    def _count(self) -> int:
        """R8.2: the count of a hand ended by a call (162 + runs and bella credited so far)."""
        run_points = 0 if self._runs_result is None else self._runs_result.points
        return hand_count(run_points, 0 if self._bella is None else BELLA_POINTS)

    def _finish(self, trump: int, caller: int) -> None:
        """R6: score the played-out hand."""
        points = self.points
        outcome, scores = score(points, caller % 2, self._rules)
        self._close(outcome, scores, None)

    def _finish_call(self, call: CallResult) -> None:
        """R8.2, R8.3, R8.6b: a call ends the hand at once. Its points are those credited so far
        (the cards of an unfinished trick go to no one); its score is the call's."""
        self._events.append(events.ruling(call))
        outcome = Outcome.MISPLAY if call.verb == "misplay" else Outcome.THROW_IN
        self._close(outcome, call_score(call), call)

    def _close(self, outcome: Outcome, scores: tuple[int, int], call: CallResult | None) -> None:
        """End a hand in which trump was named, with its result and the ``hand_over`` event."""
        self._result = HandResult(
            outcome=outcome,
            trump=self.trump,
            caller=self._caller,
            points=self.points,
            score=scores,
            runs=self._runs_result,
            bella=self._bella,
            tricks=tuple(self._tricks),
            call=call,
        )
        self._end()

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
        self._end()

    def _end(self) -> None:
        assert self._result is not None
        self._events.append(events.hand_over(self._result))
        self._phase = Phase.DONE
        self._to_move = None

    # -- copies, equality, pickling ---------------------------------------------------------

    def clone(self) -> HandState:
        """An independent copy."""
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
        copy._declared = self._declared.copy()
        copy._misplays = list(self._misplays)
        copy._events = list(self._events)  # entries are never changed
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

    def sample_world(self, seat: int, seed: int) -> HandState:
        """A world ``seat`` cannot tell from this one, drawn uniformly (``_worlds``)."""
        return self.sample_worlds(seat, seed, 1)[0]

    def sample_worlds(self, seat: int, seed: int, count: int) -> list[HandState]:
        """``count`` worlds ``seat`` cannot tell from this one, drawn uniformly."""
        checked = whole_number(count, "count", 0, MAX_WORLDS)
        return sample_worlds(self, seat_number(seat, "seat"), seed_number(seed), checked)

    def count_worlds(self, seat: int) -> int:
        """How many worlds ``seat`` cannot tell from this one (``_worlds``)."""
        return count_worlds(self, seat_number(seat, "seat"))

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (R2.4, R4.4 auto mode, R4.5), as docs/ENGINE.md."""
        return observe(self, seat_number(seat, "observer seat"))

    def information_state_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """The 1708 floats of docs/ENGINE.md for ``seat``'s observation."""
        return information_state_tensor(self.observation(seat))

    def information_state_string(self, seat: int) -> str:
        """The text form of docs/ENGINE.md for ``seat``'s observation."""
        return information_state_string(self.observation(seat))

    def table_view(self, seat: int) -> TableView:
        """What a person at ``seat`` sees on the table now (R8.4, docs/TABLE.md)."""
        return table_view(self, seat_number(seat, "table view seat"))

    def table_view_json(self, seat: int) -> str:
        """``table_view(seat).to_dict()`` as compact JSON text (what a server sends a seat)."""
        return json.dumps(self.table_view(seat).to_dict(), separators=(",", ":"))

    def events(self, seat: int | None = None, since: int = 0) -> list[dict[str, Any]]:
        """The events of this hand ``seat`` may see (None: a spectator's, public only), with
        ``seq > since`` (docs/EVENTS.md)."""
        return events.select(self._events, seat, since)

    def _announced(self, seat: int) -> int | None:
        """The size of ``seat``'s best run once announced (R4.4): in auto mode as it plays its
        first card, in manual mode when it announces."""
        if self._manual:
            return self._declared.announced[seat]
        runs = self._runs[seat]  # longest first: runs[0] is the largest run
        return runs[0].points if self._played[seat] >= 1 and runs else None

    def _shown(self, seat: int) -> tuple[Run, ...]:
        """``seat``'s runs once shown (R4.4): in auto mode as it plays its second card, in manual
        mode when it shows (a late show: its one twenty)."""
        if self._manual:
            return self._declared.shown[seat]
        return tuple(self._runs[seat]) if self._played[seat] >= 2 else ()

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
        """The state as JSON text: rules, dealer, scores before, deal and actions
        (docs/ENGINE.md).
        """
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
                raise InvalidInputError(
                    f"action {excerpt(text)} cannot be replayed: {error}"
                ) from None


def _hand_from_json(text: str) -> HandState:
    return HandState.from_json(text)


def _load_json(text: Any) -> Any:
    if not isinstance(text, str | bytes | bytearray):
        raise InvalidInputError(f"a state is JSON text, got {type(text).__name__}")
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise InvalidInputError(f"malformed JSON state: {error}") from None
    return strict_json(text, InvalidInputError, "state")


def _check_keys(data: Any, kind: str, keys: tuple[str, ...]) -> None:
    """A ``tarabish-state/1`` object of the given kind with exactly the given other keys."""
    if not isinstance(data, dict):
        raise InvalidInputError("a state is a JSON object")
    if data.get("format") != STATE_FORMAT:
        raise InvalidInputError(
            f"state format must be {excerpt(STATE_FORMAT)}, got {excerpt(data.get('format'))}"
        )
    if data.get("kind") != kind:
        raise InvalidInputError(
            f"state kind must be {excerpt(kind)}, got {excerpt(data.get('kind'))}"
        )
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
        raise InvalidInputError(f"{what} must be a list of strings, got {excerpt(value)}")
    return value
