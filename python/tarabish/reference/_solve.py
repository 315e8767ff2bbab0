"""The double-dummy value of a small endgame by plain minimax (docs/SOLVER.md): every line of
play is tried, no pruning, no table, so it is slow and obviously right; the Rust solver is
checked against it.

A position's value is what the team of the seat to move still takes with best play by all four:
the card points (R1.3) of the tricks not yet complete, the current trick's cards included,
plus the last 10 (R1.4) if it takes the ninth trick, under R5.1's legal plays and variants.
Runs (R4.3) and bella (R4.5) are fixed by the position and reported beside it.
"""

from __future__ import annotations

from .._actions import Phase
from .._errors import InvalidInputError
from .._rules import Rules
from .._views import Solution
from ._hand import HandState
from ._order import LAST_TRICK_BONUS, points_of
from ._play import legal_indices, winning_position

MAX_TRICKS_LEFT = 4
"""The largest endgame the plain minimax takes (four tricks: a few seconds at most)."""


def solve(state: HandState) -> Solution:
    """The exact value of a play-phase endgame of at most ``MAX_TRICKS_LEFT`` tricks, of every
    legal play, and the best plays, as ``tarabish.solve`` gives them."""
    if not isinstance(state, HandState) or state.phase is not Phase.PLAY:
        raise InvalidInputError("the solver needs a hand in the play phase (R5)")
    if state.rules.is_table_mode:
        raise InvalidInputError(
            "the solver plays auto mode only: table mode (R8: manual declarations or accepted "
            "misplays) is not solved"
        )
    held = [sorted(card.index for card in cards) for cards in state.hands]
    if sum(map(len, held)) > 4 * MAX_TRICKS_LEFT:
        raise InvalidInputError(
            f"the reference solver is a plain minimax for at most {MAX_TRICKS_LEFT} tricks left"
        )
    trump = state._trump
    seat = state._to_move
    assert trump is not None and seat is not None
    endgame = _Endgame(trump, state.rules)
    trick = list(state._trick)
    left = sum(points_of(card, trump) for cards in held for card in cards)
    points_left = left + sum(points_of(card, trump) for card in trick) + LAST_TRICK_BONUS
    team = seat % 2
    values = {}
    for card in legal_indices(held[seat], trick, trump, state.rules):
        team0 = endgame.after(held, trick, state._leader, seat, card)
        values[card] = team0 if team == 0 else points_left - team0
    value = max(values.values())
    return Solution(
        seat=seat,
        value=value,
        values=values,
        best=[card for card, v in values.items() if v == value],
        points_left=points_left,
        runs=state._runs_due(trump),
        bella=state._bella_holder,
    )


class _Endgame:
    """Minimax over one trump and rule set; values are team 0's points still to take."""

    def __init__(self, trump: int, rules: Rules) -> None:
        self.trump = trump
        self.rules = rules

    def value(self, held: list[list[int]], trick: list[int], leader: int, seat: int) -> int:
        """Team 0's points with best play: seats 0 and 2 maximize, 1 and 3 minimize."""
        if not any(held):
            return 0
        values = [
            self.after(held, trick, leader, seat, card)
            for card in legal_indices(held[seat], trick, self.trump, self.rules)
        ]
        return max(values) if seat % 2 == 0 else min(values)

    def after(
        self, held: list[list[int]], trick: list[int], leader: int, seat: int, card: int
    ) -> int:
        """Team 0's points once ``seat`` plays ``card``, with best play after."""
        held = [
            cards if s != seat else [c for c in cards if c != card] for s, cards in enumerate(held)
        ]
        trick = [*trick, card]
        if len(trick) < 4:
            return self.value(held, trick, leader, (seat + 1) % 4)
        # R5.2: the winner takes the trick's points (+10 for the ninth, R1.4) and leads.
        winner = (leader + winning_position(trick, self.trump)) % 4
        taken = sum(points_of(c, self.trump) for c in trick)
        if not any(held):
            taken += LAST_TRICK_BONUS
        return (taken if winner % 2 == 0 else 0) + self.value(held, [], winner, winner)
