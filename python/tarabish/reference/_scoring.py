"""Scoring a played-out hand from the two teams' points: RULES.md R6.2 (made), R6.3 (bait),
R6.4 (half bait, variant ``half_bait_is_bait``). R6.1 (what the points are made of) is done by
the hand as it is played (``_hand.py``); R6.5: nothing is rounded, no bonus for all tricks.
"""

from __future__ import annotations

from typing import Any

from .._rules import Rules
from .._views import Outcome
from ._input import rules_value, score_pair, whole_number


def score(
    points: tuple[int, int], caller_team: int, rules: Rules
) -> tuple[Outcome, tuple[int, int]]:
    """R6.2-R6.4 on checked input: the outcome and each team's score for the hand."""
    other_team = 1 - caller_team
    caller_points, other_points = points[caller_team], points[other_team]
    count = caller_points + other_points  # R6.1: the hand's count
    scores = [0, 0]
    if caller_points > other_points:
        # R6.2: the calling team took more than half the count: each team scores its points.
        outcome = Outcome.MADE
        scores = list(points)
    elif caller_points < other_points:
        # R6.3 bait: the calling team scores 0, the other team the whole count.
        outcome = Outcome.BAIT
        scores[other_team] = count
    else:
        # R6.4 half bait: the calling team scores 0, the other team its own points
        # (variant half_bait_is_bait: the whole count).
        outcome = Outcome.HALF_BAIT
        scores[other_team] = count if rules.half_bait_is_bait else other_points
    return outcome, (scores[0], scores[1])


def score_hand(
    points: Any,
    caller_team: Any,
    rules: Rules = Rules(),  # noqa: B008
) -> tuple[Outcome, tuple[int, int]]:
    """R6.2-R6.4: ``(Outcome, (score0, score1))`` from the two teams' points for the hand.

    Example (R10.8), count 202: caller 110 / other 92 -> made, both score; 95 / 107 -> bait,
    the other team scores 202; 101 / 101 -> half bait, 0 and 101 (202 with half_bait_is_bait).
    """
    rules = rules_value(rules)
    checked = score_pair(points, "points")
    team = whole_number(caller_team, "caller_team (R0)", 0, 1)
    return score(checked, team, rules)
