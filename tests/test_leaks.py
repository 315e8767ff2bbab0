"""The leak test (docs/TESTING.md): what a seat observes must not depend on the cards it cannot
see. On both engines.

For a random state (a random playout stopped at a random point) and each seat, the cards that
seat cannot see are re-dealt consistently with what it has seen: every played card stays with
its player, every shown run card (R4.4, a seat that has played its second card) stays with its
owner, each seat keeps its number of cards, the seat keeps the cards it has seen (before trump:
its first six, R2.4; its own kitty is re-dealt), and a seat that failed to follow a suit gets no
card of it (with the default play rules, a seat that discarded neither the suit led nor trump
gets no trump either). The public history is then replayed on the new deal with every legality
check (so the failures to beat, to head and to trump are respected too) and the sample is
dropped if any action is illegal, or if the announcements, shown runs, runs winner or bella
would differ, judged with the primitives ``find_runs``/``run_winner`` on the new deal. On every
kept sample, the seat's observation, information-state tensor and string must be unchanged.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from strategies import choose_action, hand_setup_from_seed
from tarabish import ActionKind, Card, IllegalActionError, Rank, Suit

BASE_EXAMPLES = settings.default.max_examples  # dev 300, ci 10 000
LEAK_EXAMPLES = max(60, BASE_EXAMPLES // 40)  # ci: 250 playouts an engine
SAMPLES = 4  # re-deals tried per (state, seat)
KING, QUEEN = Rank.KING, Rank.QUEEN


def play_counts(state: Any) -> list[int]:
    counts = [0, 0, 0, 0]
    for action in state.actions:
        if action.kind is ActionKind.PLAY:
            counts[action.seat] += 1
    return counts


def public_tricks(state: Any) -> list[tuple[int, list[Card]]]:
    """The tricks so far (completed and current) as (leader, cards), from the action list."""
    plays = [a for a in state.actions if a.kind is ActionKind.PLAY]
    tricks = []
    for start in range(0, len(plays), 4):
        chunk = plays[start : start + 4]
        tricks.append((chunk[0].seat, [a.card for a in chunk]))
    return tricks


def voids(state: Any) -> list[set[Suit]]:
    """Suits each seat is known to lack from its plays (R5.1)."""
    known: list[set[Suit]] = [set(), set(), set(), set()]
    trump = state.trump
    rules = state.rules
    sure_of_trump = not rules.partner_exempt and not rules.undertrump_optional
    for leader, cards in public_tricks(state):
        led = cards[0].suit
        for position, card in enumerate(cards[1:], start=1):
            seat = (leader + position) % 4
            if card.suit != led:
                known[seat].add(led)  # R5.1a: it would have followed
                if card.suit != trump and sure_of_trump:
                    known[seat].add(trump)  # R5.1b: it would have trumped
    return known


def shown_cards(engine: ModuleType, deal: list[list[Card]], counts: list[int]) -> set[Card]:
    shown: set[Card] = set()
    for seat in range(4):
        if counts[seat] >= 2:  # R4.4 auto mode: runs are shown with the second card
            for found in engine.find_runs(deal[seat]):
                shown.update(found.cards)
    return shown


def hidden_slots(engine: ModuleType, state: Any, seat: int) -> list[list[int]]:
    """For each owner, the positions (in the received order) of the cards ``seat`` cannot
    see: unplayed, not shown in a run, and not the seat's own seen cards."""
    deal = state.deal
    counts = play_counts(state)
    played = {a.card for a in state.actions if a.kind is ActionKind.PLAY}
    shown = shown_cards(engine, deal, counts)
    trump_named = state.trump is not None
    slots: list[list[int]] = [[], [], [], []]
    for owner in range(4):
        for position, card in enumerate(deal[owner]):
            if card in played or card in shown:
                continue
            if owner == seat and (trump_named or position < 6):
                continue  # the seat's own cards, seen (the kitty is unseen before trump)
            slots[owner].append(position)
    return slots


def redeal(
    engine: ModuleType, state: Any, seat: int, rng: random.Random
) -> list[list[Card]] | None:
    """A deal consistent with what ``seat`` has seen, or None if the draw failed."""
    deal = state.deal
    slots = hidden_slots(engine, state, seat)
    pool = [deal[owner][position] for owner in range(4) for position in slots[owner]]
    forbidden = voids(state)
    remaining = set(pool)
    chosen: list[list[Card]] = [[], [], [], []]
    for owner in sorted(range(4), key=lambda s: (len(slots[s]) == 0, rng.random())):
        allowed = sorted(card for card in remaining if card.suit not in forbidden[owner])
        if len(allowed) < len(slots[owner]):
            return None
        chosen[owner] = rng.sample(allowed, len(slots[owner]))
        remaining -= set(chosen[owner])
    new = [list(cards) for cards in deal]
    for owner in range(4):
        for position, card in zip(slots[owner], chosen[owner], strict=True):
            new[owner][position] = card
    return new


def declarations(engine: ModuleType, deal: list[list[Card]], state: Any) -> tuple[Any, ...]:
    """What is public about runs and bella in ``state`` if the deal were ``deal``, by the
    primitives: announced best runs, shown runs, the runs winner, the bella seat."""
    counts = play_counts(state)
    runs = [engine.find_runs(cards) for cards in deal]
    announced = tuple(runs[s][0].points if counts[s] >= 1 and runs[s] else None for s in range(4))
    shown = tuple(tuple(runs[s]) if counts[s] >= 2 else () for s in range(4))
    trump = state.trump
    winner = engine.run_winner(runs, trump) if sum(counts) >= 8 else None
    bella = None
    if trump is not None:
        king, queen = Card(trump, KING), Card(trump, QUEEN)
        played = {(a.seat, a.card) for a in state.actions if a.kind is ActionKind.PLAY}
        for s in range(4):
            if king in deal[s] and queen in deal[s] and {(s, king), (s, queen)} <= played:
                bella = s
    return announced, shown, winner, bella


def replay(engine: ModuleType, state: Any, deal: list[list[Card]]) -> Any | None:
    """The public history replayed on ``deal`` with every check, or None if illegal there."""
    new = engine.HandState(
        state.dealer, deal=deal, rules=state.rules, scores_before=state.scores_before
    )
    try:
        for action in state.actions:
            new.apply(action)
    except IllegalActionError:
        return None
    return new


def same_view(state: Any, other: Any, seat: int) -> None:
    assert other.observation(seat) == state.observation(seat)
    tensor, other_tensor = (
        state.information_state_tensor(seat),
        other.information_state_tensor(seat),
    )
    assert tensor.dtype == other_tensor.dtype == np.float32
    assert np.array_equal(tensor, other_tensor), np.nonzero(tensor != other_tensor)
    assert other.information_state_string(seat) == state.information_state_string(seat)


def check_no_leak(
    engine: ModuleType, state: Any, seat: int, rng: random.Random, tries: int = SAMPLES
) -> tuple[int, int]:
    """Re-deal ``tries`` times for ``seat``; returns (kept samples, kept samples that differ
    from the real deal)."""
    kept = changed = 0
    public = declarations(engine, state.deal, state)
    for _ in range(tries):
        deal = redeal(engine, state, seat, rng)
        if deal is None or declarations(engine, deal, state) != public:
            continue
        other = replay(engine, state, deal)
        if other is None:
            continue
        kept += 1
        changed += deal != state.deal
        same_view(state, other, seat)
    return kept, changed


def check_own_cards_only(state: Any) -> None:
    trump_named = state.trump is not None
    for seat in range(4):
        hand = state.observation(seat).hand
        assert set(hand) <= set(state.hands[seat])  # never another seat's card
        if not trump_named:
            kitty = set(state.deal[seat][6:])
            assert not set(hand) & kitty  # R2.4: the kitty is unseen before trump
            assert set(hand) == set(state.deal[seat][:6])
        else:
            assert set(hand) == set(state.hands[seat])


def random_states(engine: ModuleType, seed: int, points: int = 3) -> list[Any]:
    """Copies of one random playout at ``points`` random moments (the start and the end can be
    among them)."""
    setup = hand_setup_from_seed(seed)
    state = engine.HandState(setup.dealer, **setup.kwargs())
    rng = random.Random(setup.action_seed)
    history = [state.clone()]
    while not state.is_terminal:
        state.apply(choose_action(state.legal_action_ids(), rng, setup.pass_bias))
        history.append(state.clone())
    return rng.sample(history, min(points, len(history)))


@pytest.mark.long
@settings(max_examples=LEAK_EXAMPLES)
@given(seed=st.integers(0, 2**64 - 1))
def test_observations_do_not_leak_hidden_cards(engine: ModuleType, seed: int) -> None:
    note(repr(hand_setup_from_seed(seed)))
    rng = random.Random(seed)
    for state in random_states(engine, seed):
        check_own_cards_only(state)
        for seat in range(4):
            check_no_leak(engine, state, seat, rng)


def test_the_leak_check_resamples_for_real(engine: ModuleType) -> None:
    """The re-deals are not vacuous: most (state, seat) pairs with several hidden cards in
    several hands keep samples that differ from the real deal, at every stage of the hand."""
    pairs = with_change = 0
    stages = {"auction": 0, "early": 0, "late": 0}
    for seed in range(40):
        for state in random_states(engine, seed, points=4):
            plays = sum(play_counts(state))
            for seat in range(4):
                slots = hidden_slots(engine, state, seat)
                if sum(len(positions) >= 2 for positions in slots) < 2:
                    continue  # too little hidden to expect a different deal
                pairs += 1
                _, changed = check_no_leak(engine, state, seat, random.Random(seed), tries=8)
                if changed:
                    with_change += 1
                    stage = "auction" if state.trump is None else "early" if plays < 16 else "late"
                    stages[stage] += 1
    assert pairs > 100
    assert with_change >= 0.6 * pairs, (with_change, pairs)
    assert all(count > 0 for count in stages.values()), stages


def test_a_changed_hidden_card_changes_only_the_owners_view(engine: ModuleType) -> None:
    """Sanity of the method: swapping two unplayed cards between seats 1 and 3 (after trump,
    no run or bella involved) changes the views of seats 1 and 3 but not those of 0 and 2."""
    deal = [
        "6C 8C TC QC AC 7D 9D JD KD",
        "7C 9C JC KC 6D 8D TD QD AD",
        "6H 8H TH QH AH 7S 9S JS KS",
        "7H 9H JH KH 6S 8S TS QS AS",
    ]
    swapped = [deal[0], deal[1].replace("7C", "6S"), deal[2], deal[3].replace("6S", "7C")]
    state = engine.HandState(0, deal=deal)
    other = engine.HandState(0, deal=swapped)
    for target in (state, other):
        target.apply("1 call H")
    for seat in (0, 2):
        same_view(state, other, seat)
    for seat in (1, 3):
        assert state.observation(seat) != other.observation(seat)
        assert state.information_state_string(seat) != other.information_state_string(seat)
