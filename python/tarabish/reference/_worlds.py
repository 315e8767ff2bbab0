"""Consistent worlds, the plain way (docs/SEARCH.md "Sampled worlds"): a slow, obviously
correct enumerator and counter to check the Rust sampler against.

A world is a deal that one seat cannot tell from the real one: the same rules, dealer, scores
and actions, every action legal (R3, R5.1), and the seat's observation the same after every
action (its own cards, R2.4; announcements and shown runs, R4.4; bella, R4.5; points).

- Before trump is named nothing has been played: the seat knows its first six cards only, and
  any split of the other 30 cards into its kitty (3) and the others' first six and kitties is a
  world: 30! / (3! (6! 3!)^3) of them.
- After trump, every way to give the cards the seat neither holds nor saw played to the other
  seats, as many as each holds, is tried: replayed action by action with the rules checked and
  the seat's observation compared. Only small endgames can be listed this way.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from math import factorial
from typing import TYPE_CHECKING

from .._actions import ActionKind
from .._errors import InvalidInputError
from ._deal import SplitMix64

if TYPE_CHECKING:
    from ._hand import HandState

MAX_WORLDS = 1 << 24
"""The largest batch of worlds one call draws (as in the Rust core)."""

MAX_HIDDEN = 9
"""The most hidden cards the reference lists worlds for (3^9 ways at most)."""

FIRST_SIX = 6
KITTY = 3


def count_worlds(state: HandState, seat: int) -> int:
    """How many worlds ``seat`` cannot tell from ``state``."""
    if state.trump is None:
        return factorial(30) // (factorial(KITTY) * (factorial(FIRST_SIX) * factorial(KITTY)) ** 3)
    return sum(1 for _ in worlds(state, seat))


def worlds(state: HandState, seat: int) -> Iterator[HandState]:
    """Every world ``seat`` cannot tell from ``state`` (after trump, small endgames only)."""
    if state.trump is None:
        raise InvalidInputError("the reference lists worlds only after trump is named (R2.4)")
    played: list[list[int]] = [[], [], [], []]
    for action in state.actions:
        if action.kind is ActionKind.PLAY and action.card is not None:
            played[action.seat].append(action.card.index)
    others = [who for who in range(4) if who != seat]
    sizes = [len(state.hands[who]) for who in others]
    own = {card.index for card in state.hands[seat]}
    gone = {card for cards in played for card in cards}
    hidden = sorted(set(range(36)) - own - gone)
    if len(hidden) > MAX_HIDDEN:
        raise InvalidInputError(
            f"{len(hidden)} hidden cards: the reference lists worlds for at most {MAX_HIDDEN}"
        )
    view = state.observation(seat)
    for owners in itertools.product(range(3), repeat=len(hidden)):
        holds: list[list[int]] = [[], [], []]
        for card, owner in zip(hidden, owners, strict=True):
            holds[owner].append(card)
        if [len(cards) for cards in holds] != sizes:
            continue
        deal = [[card.index for card in cards] for cards in state.deal]
        for k, who in enumerate(others):
            deal[who] = played[who] + holds[k]
        world = _replay(state, deal)
        if world is not None and world.observation(seat) == view:
            yield world


def _replay(state: HandState, deal: list[list[int]]) -> HandState | None:
    """``state``'s actions on ``deal``, or None if one is illegal there."""
    # The same hand of its match: its events carry the real hand's index (docs/EVENTS.md).
    world = type(state)._from_indices(
        state.rules, state.dealer, state.scores_before, deal, state._hand_index
    )
    for action in state.actions:
        if action.id not in world.legal_action_ids():
            return None
        world.apply(action)
    return world


def sample_worlds(state: HandState, seat: int, seed: int, count: int) -> list[HandState]:
    """``count`` worlds drawn uniformly (with replacement): before trump by shuffling the 30
    cards the seat has not seen, after trump from the listed worlds."""
    rng = SplitMix64(seed)
    if state.trump is not None:
        every = list(worlds(state, seat))
        return [every[rng.below(len(every))].clone() for _ in range(count)]
    first_six = state.deal[seat][:FIRST_SIX]
    unseen = sorted(set(range(36)) - {card.index for card in first_six})
    drawn = []
    for _ in range(count):
        cards = list(unseen)
        for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        deal = [[card.index for card in state.deal[who]] for who in range(4)]
        deal[seat] = [card.index for card in first_six] + cards[:KITTY]
        others = [who for who in range(4) if who != seat]
        for k, who in enumerate(others):
            deal[who] = cards[KITTY + 9 * k : KITTY + 9 * (k + 1)]
        world = _replay(state, deal)
        assert world is not None  # no card is played before trump
        drawn.append(world)
    return drawn
