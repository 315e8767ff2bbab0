"""Manual declarations (RULES.md R4.4, R4.5, R8.5, R8.6c-e; docs/TABLE.md "Manual declarations").

With ``declarations = "manual"`` nothing is declared by itself: a seat announces its runs in
trick one and shows them in trick two (trick three for a late twenty, ``late_twenty``), on its
turn before its card, and calls bella on the trump K or Q (or with its announcement). This module
says which of these a seat may take now, and why not (the rule id of docs/TABLE.md "Refusals"),
records what each one declares, and gives the runs that then count (R4.3 compares only runs
announced and shown in time).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .._actions import Action, ActionKind
from .._cards import Rank
from .._runs import Run
from ._order import KING, QUEEN
from ._play import legal_indices
from ._runs import FIFTY_LENGTH, TWENTY_LENGTH, best_run, is_bella_card

if TYPE_CHECKING:
    from ._hand import HandState

ANNOUNCE_TRICK = 0  # R4.4: runs are announced in the first trick ...
SHOW_TRICK = 1  # ... and shown in the second,
LATE_SHOW_TRICK = 2  # ... or, a fifty as a twenty with late_twenty, in the third.
FIFTY_POINTS = 50
TWENTY_POINTS = 20
RUNS_AFTER_PLAYS = 8  # R8.6c: every seat has played its second card ...
LATE_RUNS_AFTER_PLAYS = 12  # ... or its third under late_twenty (manual mode).
ANNOUNCE_RULE = "R8.6d"  # announce and show
BELLA_RULE = "R8.6e"


@dataclass
class Declarations:
    """What each seat has declared so far in a manual-mode hand."""

    announced: list[int | None] = field(default_factory=lambda: [None] * 4)  # sizes (R4.4)
    shown: list[tuple[Run, ...]] = field(default_factory=lambda: [()] * 4)  # runs that count
    showed: list[bool] = field(default_factory=lambda: [False] * 4)
    late: list[bool] = field(default_factory=lambda: [False] * 4)  # a late twenty (R4.4)
    bella_called: bool = False  # once a hand (R8.6e), counted or not
    bella_forfeited: int | None = None  # the seat whose bella was table talk (R4.5)
    bella_pending: int | None = None  # this seat's card must now be the trump K or Q

    def copy(self) -> Declarations:
        return Declarations(
            list(self.announced),
            list(self.shown),
            list(self.showed),
            list(self.late),
            self.bella_called,
            self.bella_forfeited,
            self.bella_pending,
        )


def runs_credited_after(state: HandState) -> int:
    """R8.6c: the number of cards played once the last window to show a run has closed."""
    rules = state._rules
    late = rules.declarations == "manual" and rules.late_twenty
    return LATE_RUNS_AFTER_PLAYS if late else RUNS_AFTER_PLAYS


def _trick_index(state: HandState) -> int:
    return len(state._tricks)


def _turn_problem(state: HandState, seat: int) -> str | None:
    """Declarations are made on one's own turn in the play, before one's card (R4.4, R8.6d-e)."""
    if state._trump is None:
        return "trump is not named yet"
    if seat != state._to_move:
        return f"it is seat {state._to_move}'s turn"
    return None


def announce_problem(state: HandState, seat: int) -> str | None:
    """R8.6d: once, in trick one, on one's turn before one's card, holding a run (R4.1)."""
    problem = _turn_problem(state, seat)
    if problem is not None:
        return problem
    if _trick_index(state) != ANNOUNCE_TRICK:
        return "runs are announced in trick one, before one's first card"
    if state._declared.announced[seat] is not None:
        return f"seat {seat} has announced already"
    if not state._runs[seat]:
        return f"seat {seat} holds no run (R4.1)"
    return None


def may_show_late(state: HandState, seat: int) -> bool:
    """R4.4 ``late_twenty``: a seat that announced a fifty and did not show it in trick two may
    show it in trick three, as a twenty."""
    declared = state._declared
    return (
        state._rules.late_twenty
        and _trick_index(state) == LATE_SHOW_TRICK
        and declared.announced[seat] == FIFTY_POINTS
        and not declared.showed[seat]
    )


def show_problem(state: HandState, seat: int) -> str | None:
    """R8.6d: once, in trick two (three for a late twenty), on one's turn before one's card,
    after one's own announcement."""
    problem = _turn_problem(state, seat)
    if problem is not None:
        return problem
    declared = state._declared
    if declared.announced[seat] is None:
        return f"seat {seat} did not announce (runs are shown only after an announcement)"
    if declared.showed[seat]:
        return f"seat {seat} has shown already"
    if _trick_index(state) == SHOW_TRICK or may_show_late(state, seat):
        return None
    if state._rules.late_twenty:
        return "runs are shown in trick two (a fifty as a twenty in trick three, late_twenty)"
    return "runs are shown in trick two, before one's second card"


def _bella_in_announced_run(state: HandState, seat: int, before: list[Action]) -> bool:
    """R4.5, R8.6e: the call right after one's own announcement (the last of the actions
    ``before`` it), with the trump K and Q both inside one run the seat was dealt."""
    if _trick_index(state) != ANNOUNCE_TRICK or not before:
        return False
    if before[-1] != Action(seat, ActionKind.ANNOUNCE):
        return False
    trump = state._trump
    return any(
        int(run.suit) == trump and run.top >= KING and run.top - run.length < QUEEN
        for run in state._runs[seat]
    )


def playable_bella_cards(state: HandState, seat: int) -> list[int]:
    """The trump K and Q that ``seat`` still holds and may play this turn: any card held when
    legal play is not enforced (R8.1), else only an R5.1-legal one."""
    assert state._trump is not None
    trump = state._trump
    held = sorted(state._held[seat])
    if state._rules.enforce_legal_play:
        held = legal_indices(held, state._trick, trump, state._rules)
    return [card for card in held if is_bella_card(card, trump)]


def bella_problem(state: HandState, seat: int) -> str | None:
    """R8.6e: once a hand, by the seat dealt both trump K and Q, on its turn before a card that
    is one of them (so it must be able to play one now: docs/DECISIONS.md), or right after its
    announcement when both are inside one of its runs."""
    problem = _turn_problem(state, seat)
    if problem is not None:
        return problem
    if seat != state._bella_holder:
        return f"seat {seat} was not dealt both the trump K and Q (R4.5)"
    if state._declared.bella_called:
        return "bella is called once a hand"
    if _bella_in_announced_run(state, seat, state._actions):
        return None
    if not playable_bella_cards(state, seat):
        return f"seat {seat} may not play the trump K or Q this turn"
    return None


def announce(state: HandState, seat: int) -> int:
    """Record ``seat``'s announcement; it reveals the size of its best run (R4.4)."""
    size = FIFTY_POINTS if state._runs[seat][0].length == FIFTY_LENGTH else TWENTY_POINTS
    state._declared.announced[seat] = size
    return size


def show(state: HandState, seat: int) -> tuple[tuple[Run, ...], bool]:
    """Record ``seat``'s show: every run it was dealt (R8.6d), or in trick three under
    ``late_twenty`` the top three cards of its best fifty as one twenty. Returns the runs that
    now count for the seat and whether the show was late."""
    declared = state._declared
    late = _trick_index(state) == LATE_SHOW_TRICK
    if late:
        assert state._trump is not None
        fifty = best_run(state._runs[seat], state._trump)  # R4.2: its best run is a fifty
        assert fifty is not None
        runs: tuple[Run, ...] = (Run(fifty.suit, Rank(fifty.top), TWENTY_LENGTH),)
    else:
        runs = tuple(state._runs[seat])
    declared.shown[seat] = runs
    declared.showed[seat] = True
    declared.late[seat] = late
    return runs, late


def call_bella(state: HandState, seat: int) -> bool:
    """Record ``seat``'s bella (R4.5, R8.6e), the last action logged; True when it counts.

    With the announcement it counts and the card is free. Before playing the K or Q, the card
    this turn must be one of them; the second of the two counts, the first only under
    ``first_bell_ok`` (else it is table talk and the bella is lost for the hand).
    """
    declared = state._declared
    declared.bella_called = True
    if _bella_in_announced_run(state, seat, state._actions[:-1]):
        return True
    declared.bella_pending = seat
    assert state._trump is not None
    held_bells = [card for card in state._held[seat] if is_bella_card(card, state._trump)]
    counts = len(held_bells) == 1 or state._rules.first_bell_ok
    if not counts:
        declared.bella_forfeited = seat
    return counts
