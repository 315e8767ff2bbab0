"""Misplays and the calls that end a hand (RULES.md R8.1-R8.3, R8.6a-b; docs/TABLE.md
"Misplays" and "Calls").

With ``enforce_legal_play = False`` a card that breaks R5.1 is accepted and recorded as a
misplay (R8.1). Any seat may then call ``misplay`` (R8.2) or ``throw`` the hand in (R8.3) during
the play; either ends the hand at once, the count going to one team and nothing to the other.
"""

from __future__ import annotations

from .._views import CallResult, Misplay
from ._order import TOTAL_CARD_POINTS

MISPLAY_VERB = "misplay"
THROW_VERB = "throw"


def hand_count(run_points: int, bella_points: int) -> int:
    """R8.2: the count of a hand ended by a call: 162 plus the runs and bella credited so far
    (both teams)."""
    return TOTAL_CARD_POINTS + run_points + bella_points


def misplay_call(seat: int, misplays: list[Misplay], count: int) -> CallResult:
    """R8.2: every card played so far is examined. If a seat of the other team misplayed, the
    call is correct and the caller's team scores the count; otherwise the other team does."""
    team = seat % 2
    correct = any(misplay.seat % 2 != team for misplay in misplays)
    awarded = team if correct else 1 - team
    return CallResult(MISPLAY_VERB, seat, correct, awarded, count, tuple(misplays))


def throw_call(seat: int, count: int) -> CallResult:
    """R8.3: the conceding team scores 0, the other team the count."""
    return CallResult(THROW_VERB, seat, None, 1 - seat % 2, count, ())


def call_score(call: CallResult) -> tuple[int, int]:
    """R8.2, R8.3: the count to the awarded team, 0 to the other."""
    return (call.count, 0) if call.team == 0 else (0, call.count)
