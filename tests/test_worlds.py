"""Sampled worlds (docs/SEARCH.md): ``HandState.sample_world(seat, seed)``, its batch form and
``count_worlds(seat)``. Every world keeps what the seat has seen (R2.4, R4.4, R4.5, R5.1) and
replays legally; sampling is uniform; both engines count the same worlds.

Seeded loops, not hypothesis: each test's cost is fixed (about a second), whatever the profile.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
import tarabish as tb
from tarabish import reference

VARIANTS = [
    tb.Rules(),
    tb.Rules(head_plain=True),
    tb.Rules(undertrump_optional=True),
    tb.Rules(partner_exempt=True),
    tb.Rules(head_plain=True, undertrump_optional=True, partner_exempt=True),
]


def random_state(engine: Any, seed: int, steps: int, rules: tb.Rules) -> Any:
    """A hand of ``engine`` after ``steps`` random legal actions."""
    rng = random.Random(seed)
    state = engine.HandState(seed % 4, seed=seed, rules=rules)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_action_ids()))
    return state


def replayed(world: Any, real: Any) -> Any:
    """``real``'s actions replayed, each checked, on ``world``'s deal."""
    state = tb.HandState(
        real.dealer, deal=world.deal, rules=real.rules, scores_before=real.scores_before
    )
    for action in real.actions:
        state.apply(action)  # raises IllegalActionError if the world breaks a rule
    return state


def seen_cards(state: Any, seat: int) -> dict[int, int]:
    """Each card ``seat`` has seen, with its owner: its own hand, every play, shown runs."""
    view = state.observation(seat)
    owner = {card.index: seat for card in view.hand}
    for action in state.actions:
        if action.card is not None:
            owner[action.card.index] = action.seat
    for who, runs in enumerate(view.shown):
        for run in runs:
            for rank in range(run.top - run.length + 1, run.top + 1):
                owner[run.suit * 9 + rank] = who
    return owner


def test_worlds_keep_the_view_replay_legally_and_move_no_seen_card() -> None:
    for k in range(1500):
        real = random_state(tb, k, k % 42, VARIANTS[k % len(VARIANTS)])
        seat = (k // 7) % 4
        view = real.observation(seat)
        seen = seen_cards(real, seat)
        dealt = {card.index: who for who in range(4) for card in real.deal[who]}
        for world in real.sample_worlds(seat, k, 3):
            assert replayed(world, real) == world
            assert world.observation(seat) == view
            assert world.information_state_string(seat) == real.information_state_string(seat)
            world_dealt = {card.index: who for who in range(4) for card in world.deal[who]}
            assert all(world_dealt[card] == dealt[card] for card in seen)
            assert (world.rules, world.dealer, world.scores_before) == (
                real.rules,
                real.dealer,
                real.scores_before,
            )
        assert real.sample_world(seat, k) == real.sample_worlds(seat, k, 1)[0]


def test_before_trump_the_own_kitty_is_resampled_too() -> None:
    real = tb.HandState(0, seed=11)
    kitties = {tuple(world.deal[2][6:]) for world in real.sample_worlds(2, 5, 50)}
    assert len(kitties) > 40  # 30 * 29 * 28 / 6 = 4060 possible kitties
    assert all(world.deal[2][:6] == real.deal[2][:6] for world in real.sample_worlds(2, 6, 20))
    assert real.count_worlds(2) == reference.HandState(0, seed=11).count_worlds(2)


def endgames(count: int) -> list[tuple[int, tb.Rules, int, int]]:
    """(seed, rules, steps, seat) of small endgames: at most nine hidden cards."""
    found: list[tuple[int, tb.Rules, int, int]] = []
    k = 0
    while len(found) < count:
        rules = VARIANTS[k % len(VARIANTS)]
        steps = 28 + k % 14
        seat = k % 4
        state = random_state(tb, 1000 + k, steps, rules)
        hidden = 36 - len(state.hands[seat]) - sum(a.card is not None for a in state.actions)
        if state.trump is not None and 0 < hidden <= reference._worlds.MAX_HIDDEN:
            found.append((1000 + k, rules, steps, seat))
        k += 1
    return found


@pytest.mark.parametrize(("seed", "rules", "steps", "seat"), endgames(40))
def test_both_engines_count_the_same_worlds(
    seed: int, rules: tb.Rules, steps: int, seat: int
) -> None:
    rust = random_state(tb, seed, steps, rules)
    ref = random_state(reference, seed, steps, rules)
    listed = list(reference._worlds.worlds(ref, seat))
    assert rust.count_worlds(seat) == ref.count_worlds(seat) == len(listed) >= 1


def test_sampling_is_uniform_chi_square() -> None:
    """Pearson's chi-square over every listed world of small endgames with 4 to 60 worlds:
    each statistic must stay below the 0.999 quantile (Wilson-Hilferty), so a sampler that
    favours some worlds fails; the seeds are fixed, so the test is deterministic."""
    tested = 0
    for seed, rules, steps, seat in endgames(60):
        rust = random_state(tb, seed, steps, rules)
        ref = random_state(reference, seed, steps, rules)
        listed = [tuple(map(tuple, w.deal)) for w in reference._worlds.worlds(ref, seat)]
        if not 4 <= len(listed) <= 60:
            continue
        index = {_hands(deal): i for i, deal in enumerate(listed)}
        draws = 200 * len(listed)
        counts = Counter(index[_hands(w.deal)] for w in rust.sample_worlds(seat, seed, draws))
        expected = draws / len(listed)
        chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(len(listed)))
        dof = len(listed) - 1
        z = 3.09  # the 0.999 quantile of the standard normal
        limit = dof * (1 - 2 / (9 * dof) + z * (2 / (9 * dof)) ** 0.5) ** 3
        assert chi2 < limit, (seed, len(listed), chi2, limit)
        tested += 1
    assert tested >= 10


def _hands(deal: Any) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(card.index for card in cards) for cards in deal)


def test_bad_arguments_raise_invalid_input() -> None:
    state = tb.HandState(0, seed=1)
    for engine_state in (state, reference.HandState(0, seed=1)):
        with pytest.raises(tb.InvalidInputError):
            engine_state.sample_world(4, 0)
        with pytest.raises(tb.InvalidInputError):
            engine_state.sample_world(0, -1)
        with pytest.raises(tb.InvalidInputError):
            engine_state.count_worlds("x")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("engine", "actions"),
    # The reference lists every world after trump: small endgames only, so the auction.
    [(tb, 0), (tb, 3), (reference, 0)],
    ids=["rust-auction", "rust-trick-one", "reference-auction"],
)
def test_a_world_of_a_match_hand_keeps_its_hand_index(engine: Any, actions: int) -> None:
    # A world is the same hand of the match (docs/EVENTS.md "hand"): its events, like the real
    # hand's, carry the hand's index in the match, not 0.
    game = engine.MatchState(seed=3)
    while game.hand_index < 2 or len(game.hand.actions) < actions:
        game.apply(game.legal_action_ids()[0])
    real = game.hand
    seat = real.to_move
    assert seat is not None and real.events()[0]["hand"] == 2
    for world in [real.sample_world(seat, 1), *real.sample_worlds(seat, 2, 3)]:
        assert world.events()[0] == real.events()[0]
        assert [e["hand"] for e in world.events() if "hand" in e] == [
            e["hand"] for e in real.events() if "hand" in e
        ]
