"""Declarations: runs (RULES.md R4.1 finding, R4.2 comparing, R4.3 who scores) and the bella
(R4.5) holder.

A run is a ``tarabish.Run`` (suit, top card in natural order, length 3 or 4). The functions
``find_runs``, ``compare_runs`` and ``run_winner`` are the public primitives of docs/ENGINE.md.
"""

from __future__ import annotations

from typing import Any

from .._cards import Card, Rank, Suit
from .._errors import InvalidInputError, excerpt
from .._runs import Run
from ._input import card_indices, check_distinct, suit_value
from ._order import KING, QUEEN, rank_of, suit_of

FIFTY_LENGTH = 4
TWENTY_LENGTH = 3


def runs_of(cards: list[int]) -> list[Run]:
    """R4.1: the runs in a set of card indices, ordered by length desc, top desc, suit asc.

    Each maximal sequence of consecutive ranks (natural order, one suit) is cut into chunks of
    four from the top down: a chunk of 4 is a fifty, a final chunk of 3 a twenty, shorter
    chunks count nothing (L = 3 -> 20; 4, 5, 6 -> 50; 7 -> 50 + 20; 8 -> 50 + 50).
    """
    held = set(cards)
    runs: list[Run] = []
    for suit in range(4):
        rank = 8
        while rank >= 0:
            if suit * 9 + rank not in held:
                rank -= 1
                continue
            # A maximal sequence tops at ``rank``; measure its length going down.
            top = rank
            while rank >= 0 and suit * 9 + rank in held:
                rank -= 1
            remaining = top - rank
            while remaining >= FIFTY_LENGTH:
                runs.append(Run(Suit(suit), Rank(top), FIFTY_LENGTH))
                top -= FIFTY_LENGTH
                remaining -= FIFTY_LENGTH
            if remaining == TWENTY_LENGTH:
                runs.append(Run(Suit(suit), Rank(top), TWENTY_LENGTH))
    runs.sort(key=lambda run: (-run.length, -int(run.top), int(run.suit)))
    return runs


def run_key(run: Run, trump: int) -> tuple[int, int, int]:
    """R4.2 as a sort key: size first (a fifty beats a twenty), then the top card in natural
    order, then a trump run beats a plain run. Equal keys tie."""
    return (run.length, int(run.top), 1 if int(run.suit) == trump else 0)


def compare_keys(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    return (a > b) - (a < b)


def best_run(runs: list[Run], trump: int) -> Run | None:
    """A seat's best run under R4.2 (None if it has none)."""
    return max(runs, key=lambda run: run_key(run, trump), default=None)


def winning_seat(runs_by_seat: list[list[Run]], trump: int) -> int | None:
    """R4.3: the seat whose best run beats every other seat's best run; None when nobody has
    a run or when the two best runs tie (two equal plain runs)."""
    bests = [
        (run_key(best, trump), seat)
        for seat, runs in enumerate(runs_by_seat)
        if (best := best_run(runs, trump)) is not None
    ]
    if not bests:
        return None
    bests.sort(reverse=True)
    if len(bests) > 1 and bests[0][0] == bests[1][0]:
        return None  # the two best tie: no one scores any run this hand
    return bests[0][1]


def bella_holder(deal: list[list[int]], trump: int) -> int | None:
    """R4.5: the seat dealt both the K and the Q of trump, if any."""
    king, queen = trump * 9 + KING, trump * 9 + QUEEN
    for seat, cards in enumerate(deal):
        if king in cards and queen in cards:
            return seat
    return None


def is_bella_card(card: int, trump: int) -> bool:
    return suit_of(card) == trump and rank_of(card) in (KING, QUEEN)


def _run_value(run: Any) -> Run:
    if not isinstance(run, Run):
        raise InvalidInputError(f"expected a tarabish.Run, got {excerpt(run)}")
    run.check()
    return run


def find_runs(hand: Any) -> list[Run]:
    """R4.1: the runs in ``hand`` (at most 9 distinct cards), by length desc, top desc, suit asc.

    Examples (R10.5): A Q J T 8 7 6 of one suit -> Q-J-T and 8-7-6 (two twenties);
    A K Q J 9 8 7 6 -> two fifties; A K J T 8 7 -> no run.
    """
    cards = card_indices(hand, "hand")
    if len(cards) > 9:
        raise InvalidInputError(f"a hand holds at most 9 cards (R2.4), got {len(cards)}")
    check_distinct(cards, "the hand")
    return runs_of(cards)


def compare_runs(a: Any, b: Any, trump: Any) -> int:
    """R4.2: 1 if run ``a`` beats run ``b``, -1 if ``b`` beats ``a``, 0 for a tie.

    Examples (R10.6, R10.7): T-9-8-7 beats 9-8-7-6 beats A-K-Q; a trump T-9-8-7 beats a plain
    T-9-8-7; a plain K-Q-J-T beats a trump A-K-Q.
    """
    trump_suit = suit_value(trump)
    return compare_keys(run_key(_run_value(a), trump_suit), run_key(_run_value(b), trump_suit))


def run_winner(runs_by_seat: Any, trump: Any) -> int | None:
    """R4.3: the seat whose best run beats every other seat's best run, or None (no runs, or
    the two best runs tie). ``runs_by_seat`` is four lists of ``Run``, one per seat."""
    trump_suit = suit_value(trump)
    if isinstance(runs_by_seat, str | bytes | dict):
        raise InvalidInputError("run_winner takes four lists of runs, one per seat")
    try:
        seats = [list(runs) for runs in runs_by_seat]
    except TypeError:
        raise InvalidInputError("run_winner takes four lists of runs, one per seat") from None
    if len(seats) != 4:
        raise InvalidInputError(f"run_winner takes four lists of runs (R0), got {len(seats)}")
    checked = [[_run_value(run) for run in runs] for runs in seats]
    # R4.1: a card belongs to at most one run (and each card exists once, R1.1).
    seen: set[Card] = set()
    for card in (card for runs in checked for run in runs for card in run.cards):
        if card in seen:
            raise InvalidInputError(f"{card} is in two runs (R4.1, R1.1)")
        seen.add(card)
    return winning_seat(checked, trump_suit)
