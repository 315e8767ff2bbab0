"""The double-dummy solver (docs/SOLVER.md): ``tarabish.solve`` against the reference's plain
minimax on endgames (every action's value, the best actions, runs and bella beside), its
properties on bigger positions, ``solve_many``, and bad input.

Costs (the ``ci`` profile, 10 000 base examples): 250 random hands with every position of at
most three tricks left checked (3 000 positions), 5 four-trick endgames (the reference's
plain minimax takes about a second on each), 50 property examples; about half a minute in all
on one core."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SEEDS, VARIANT_RULES
from tarabish import InvalidInputError, Phase, Rules, Solution
from tarabish._actions import CALL_BASE

Engines = tuple[ModuleType, ModuleType]

BASE_EXAMPLES = settings.default.max_examples  # dev 300, ci 10 000
ENDGAME_HANDS = max(15, BASE_EXAMPLES // 40)  # ci: 250 hands, 12 positions each
FOUR_TRICK_ENDGAMES = max(3, BASE_EXAMPLES // 2000)  # ci: 5 (plain minimax: ~1 s each)
PROPERTY_EXAMPLES = max(10, BASE_EXAMPLES // 200)  # ci: 50

TRICKS_IN_A_HAND = 9


def played_pair(engines: Engines, seed: int, rules: Rules, plays: int) -> tuple[Any, Any]:
    """The same hand on both engines: dealt from ``seed``, a random trump called by eldest,
    then ``plays`` random legal cards."""
    rust, ref = engines
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    deal_seed = rng.randrange(2**63)
    a = rust.HandState(dealer, seed=deal_seed, rules=rules)
    b = ref.HandState(dealer, seed=deal_seed, rules=rules)
    call = CALL_BASE + rng.randrange(4)
    a.apply(call)
    b.apply(call)
    for _ in range(plays):
        action = rng.choice(a.legal_action_ids())
        a.apply(action)
        b.apply(action)
    return a, b


def team_taken(state: Any, team: int) -> int:
    """Card points and last the team has taken in completed tricks (R1.3, R1.4)."""
    tricks = state.observation(0).tricks
    return sum(trick.points for trick in tricks if trick.winner % 2 == team)


@pytest.mark.long
@settings(max_examples=ENDGAME_HANDS)
@given(seed=SEEDS, rules=VARIANT_RULES)
def test_every_position_of_three_tricks_left_matches_minimax(
    engine_pair: Engines, seed: int, rules: Rules
) -> None:
    """R5.1 (variants included), R1.3, R1.4: every position with at most three tricks left, at
    every point of a trick, gets the reference minimax's value for every legal action."""
    rust, ref = engine_pair
    a, b = played_pair(engine_pair, seed, rules, plays=4 * (TRICKS_IN_A_HAND - 3))
    while a.phase is Phase.PLAY:
        assert rust.solve(a) == ref.solve(b)
        action = random.Random(seed ^ len(a.actions)).choice(a.legal_action_ids())
        a.apply(action)
        b.apply(action)


@settings(max_examples=FOUR_TRICK_ENDGAMES)
@given(seed=SEEDS, rules=VARIANT_RULES, trick_position=st.integers(0, 3))
def test_four_trick_endgames_match_minimax(
    engine_pair: Engines, seed: int, rules: Rules, trick_position: int
) -> None:
    """Four tricks left (at any point of the first of them): the same values as minimax."""
    rust, ref = engine_pair
    plays = 4 * (TRICKS_IN_A_HAND - 4) + trick_position
    a, b = played_pair(engine_pair, seed, rules, plays=plays)
    assert rust.solve(a) == ref.solve(b)


@pytest.mark.timeout(120)  # about 10 s on the idle machine: a wrong bound must not hang it
@settings(max_examples=PROPERTY_EXAMPLES)
@given(seed=SEEDS, rules=VARIANT_RULES, tricks_left=st.integers(4, 6))
def test_values_are_bounded_consistent_and_reached(
    engine_pair: Engines, seed: int, rules: Rules, tricks_left: int
) -> None:
    """The value never exceeds the points left; each action's value is what its team takes
    in the trick it may complete plus the next position's value from that team's side,
    whichever seat moves next; best moves played out by the solver take exactly the value."""
    rust, _ = engine_pair
    state, _ = played_pair(engine_pair, seed, rules, plays=4 * (TRICKS_IN_A_HAND - tricks_left))
    first = rust.solve(state)
    team = first.seat % 2
    goal = team_taken(state, team) + first.value
    while state.phase is Phase.PLAY:
        solution = rust.solve(state)
        assert 0 <= solution.value <= solution.points_left
        assert solution.value == max(solution.values.values())
        assert solution.best == [a for a, v in solution.values.items() if v == solution.value]
        assert sorted(solution.values) == state.legal_action_ids()
        mover_team = solution.seat % 2
        for action, value in solution.values.items():
            after = state.clone()
            after.apply(action)
            gained = team_taken(after, mover_team) - team_taken(state, mover_team)
            assert value == gained + own_value(rust, after, mover_team), action
        assert team_taken(state, team) + own_value(rust, state, team) == goal
        state.apply(solution.best[0])
    assert team_taken(state, team) == goal


def own_value(rust: ModuleType, state: Any, team: int) -> int:
    """What ``team`` still takes from ``state`` with best play (0 once the hand is over)."""
    if state.phase is not Phase.PLAY:
        return 0
    solution: Solution = rust.solve(state)
    return solution.value if solution.seat % 2 == team else solution.points_left - solution.value


def test_solve_many_equals_solve_on_one_and_two_threads(engine_pair: Engines) -> None:
    rust, _ = engine_pair
    states = [
        played_pair(engine_pair, seed, Rules(), plays=12 + seed % 16)[0] for seed in range(12)
    ]
    one_by_one = [rust.solve(state) for state in states]
    assert rust.solve_many(states, threads=1) == one_by_one
    assert rust.solve_many(states, threads=2) == one_by_one
    assert rust.solve_many(iter(states)) == one_by_one
    assert rust.solve_many([]) == []


def test_runs_and_bella_are_reported_beside_the_value(engine_pair: Engines) -> None:
    """R4.3, R4.5: the run winner and the bella holder are fixed once trump is named; the
    value counts neither."""
    rust, _ = engine_pair
    for seed in range(40):
        state, _ = played_pair(engine_pair, seed, Rules(), plays=16)
        solution = rust.solve(state)
        assert solution.points_left == 162 - team_taken(state, 0) - team_taken(state, 1)
        state_after = state.clone()
        while state_after.phase is Phase.PLAY:
            state_after.apply(state_after.legal_action_ids()[0])
        result = state_after.result
        assert solution.runs == result.runs
        assert solution.bella == result.bella


@pytest.mark.parametrize(
    "make",
    [
        lambda rust: rust.HandState(0, seed=1),  # auction
        lambda rust: finished(rust),
        lambda rust: "not a state",
        lambda rust: None,
    ],
    ids=["auction", "done", "text", "none"],
)
def test_states_not_in_play_are_invalid_input(engine_pair: Engines, make: Any) -> None:
    rust, ref = engine_pair
    with pytest.raises(InvalidInputError, match="play phase"):
        rust.solve(make(rust))
    with pytest.raises(InvalidInputError, match="play phase"):
        rust.solve_many([make(rust)])
    with pytest.raises(InvalidInputError, match="play phase"):
        ref.solve(make(ref))


@pytest.mark.parametrize(
    "rules", [Rules(declarations="manual"), Rules(enforce_legal_play=False)], ids=str
)
def test_table_mode_is_invalid_input(engine_pair: Engines, rules: Rules) -> None:
    """R8: table mode (manual declarations, accepted misplays) is not solved."""
    for engine in engine_pair:
        state = engine.HandState(0, seed=4, rules=rules)
        state.apply(CALL_BASE)
        with pytest.raises(InvalidInputError, match="table mode"):
            engine.solve(state)


@pytest.mark.parametrize("threads", [-1, 1.5, True, "2", 2**70])
def test_bad_thread_counts_are_invalid_input(engine_pair: Engines, threads: Any) -> None:
    rust, _ = engine_pair
    with pytest.raises(InvalidInputError, match="threads"):
        rust.solve_many([], threads=threads)


def test_the_reference_minimax_refuses_big_positions(engine_pair: Engines) -> None:
    _, ref = engine_pair
    state = ref.HandState(0, seed=3)
    state.apply(CALL_BASE)
    with pytest.raises(InvalidInputError, match="at most 4 tricks"):
        ref.solve(state)


def finished(engine: ModuleType) -> Any:
    state = engine.HandState(0, seed=2)
    while not state.is_terminal:
        state.apply(state.legal_action_ids()[0])
    return state


def test_pimc_bot_plays_legal_cards_and_a_best_card_when_the_world_is_known(
    engine_pair: Engines,
) -> None:
    """The PIMC bot (bot spec ``pimc:worlds=N``) plays a legal card at every turn of the last
    three tricks, a solver-best card in the last; the spec is checked. (rust/solver/pimc.rs
    checks that it plays a solver-best card whenever its seat's information leaves one world.)"""
    rust, _ = engine_pair
    for seed in range(12):
        state, _ = played_pair(engine_pair, seed, Rules(), plays=4 * (TRICKS_IN_A_HAND - 3))
        while state.phase is Phase.PLAY:
            action = rust.bot_action(state, "pimc:worlds=2", seed)
            assert action in state.legal_action_ids()
            if len(state.actions) - 1 >= 4 * (TRICKS_IN_A_HAND - 1):  # after the one call
                assert action in rust.solve(state).best
            state.apply(action)
    assert rust.bot_spec("pimc") == "pimc:worlds=20"
    with pytest.raises(InvalidInputError, match="worlds"):
        rust.bot_spec("pimc:worlds=0")


@pytest.mark.parametrize(
    "rules", [Rules(declarations="manual"), Rules(enforce_legal_play=False)], ids=str
)
def test_pimc_plays_table_mode_hands_without_the_solver(rules: Rules) -> None:
    """R8: the solver does not play table mode, so the PIMC bot plays there like the greedy
    bot (legal cards, whole hands) instead of failing."""
    import tarabish

    summary = tarabish.simulate(hands=2, bots=["pimc:worlds=2"], threads=1, seed=3, rules=rules)
    assert summary.hands == 2
