"""The OpenSpiel games (python/tarabish/openspiel.py): OpenSpiel's own `random_sim_test` (with
serialization) on both games under several rule sets; the deal's chance nodes in R2.4's order;
tensors, strings and legal actions equal to `HandState`'s and `MatchState`'s along random games;
resampled states keep the seat's information state and are drawn by `sample_world`; OpenSpiel's
Python ISMCTS, `evaluate_bots` and `rl_environment` finish games, with `TarabishBot`s; bad
parameters."""

from __future__ import annotations

import pickle
from dataclasses import fields

import numpy as np
import pyspiel
import pytest
import tarabish as tb
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from tarabish import _core
from tarabish.openspiel import HAND_GAME, MATCH_GAME, TarabishBot, TarabishState

SEATS = 4
HAND_RULES = [
    {},
    {"dealer": 3, "dealer_may_pass": True, "forced_at": 200, "scores_before_0": 250},
    {
        "team_runs": True,
        "head_plain": True,
        "undertrump_optional": True,
        "partner_exempt": True,
        "half_bait_is_bait": True,
    },
    {"declarations": "manual", "first_bell_ok": True, "late_twenty": True},
    {"enforce_legal_play": False, "declarations": "manual", "dealer": 1},
]
MATCH_RULES = [{"target": 300}, {"dealer": 2, "dealer_may_pass": True, "forced_at": 150}]


def _rules(params: dict[str, object]) -> tb.Rules:
    options = {f.name: params[f.name] for f in fields(tb.Rules) if f.name in params}
    return tb.Rules(**options)


def _deal_order(dealer: int) -> list[int]:
    """R2.4 read directly: three rounds, three cards at a time, from eldest clockwise."""
    return [(dealer + 1 + k // 3) % SEATS for k in range(12)] * 3


def _deal(state: pyspiel.State, hand: tb.HandState) -> None:
    """Feed the chance nodes the cards of ``hand``'s deal, in the order they are dealt."""
    received = [0] * SEATS
    for seat in _deal_order(hand.dealer):
        assert state.is_chance_node()
        state.apply_action(hand.deal[seat][received[seat]].index)
        received[seat] += 1


@pytest.mark.parametrize("params", HAND_RULES)
def test_openspiel_random_sim_test_on_hands(params: dict[str, object]) -> None:
    game = pyspiel.load_game(HAND_GAME, params)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


@pytest.mark.parametrize("params", MATCH_RULES)
def test_openspiel_random_sim_test_on_matches(params: dict[str, object]) -> None:
    game = pyspiel.load_game(MATCH_GAME, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_every_rule_option_is_a_game_parameter() -> None:
    for name in (HAND_GAME, MATCH_GAME):
        spec = pyspiel.load_game(name).get_type().parameter_specification
        assert {f.name for f in fields(tb.Rules)} | {"dealer"} <= set(spec)
    params = {"target": 700, "forced_at": 400, "team_runs": True, "declarations": "manual"}
    game = pyspiel.load_game(HAND_GAME, params)
    assert game.rules == tb.Rules(target=700, forced_at=400, team_runs=True, declarations="manual")
    assert pyspiel.load_game(HAND_GAME).rules == tb.Rules()  # forced_at=0 stands for none
    # The game string round-trips, as OpenSpiel's serialization needs.
    assert str(pyspiel.load_game(str(game))) == str(game)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"dealer": 4}, "dealer must be a whole number 0..3"),
        ({"forced_at": -1}, "Rules.forced_at must be a whole number 1..65535"),
        ({"declarations": "sometimes"}, "Rules.declarations must be 'auto' or 'manual'"),
        ({"scores_before_1": -5}, "scores_before must be a whole number"),
    ],
)
def test_bad_parameters_are_refused(params: dict[str, object], message: str) -> None:
    with pytest.raises(tb.InvalidInputError, match=message):
        pyspiel.load_game(HAND_GAME, params)


@pytest.mark.parametrize("seed", range(4))
def test_the_chance_nodes_deal_in_r2_order_and_play_the_core_s_hand(seed: int) -> None:
    params = HAND_RULES[seed % len(HAND_RULES)]
    game = pyspiel.load_game(HAND_GAME, params)
    dealer = int(params.get("dealer", 0))
    scores = (int(params.get("scores_before_0", 0)), 0)
    core = tb.HandState(dealer, seed=seed, rules=_rules(params), scores_before=scores)
    state = game.new_initial_state()
    for k, (seat, card) in enumerate(zip(_deal_order(dealer), _dealt(core), strict=True)):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 36 - k and sum(p for _, p in outcomes) == pytest.approx(1)
        assert (
            state.action_to_string(pyspiel.PlayerId.CHANCE, card)
            == f"deal {card_text(card)} to seat {seat}"
        )
        state.apply_action(card)
    assert state.hand == core
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        _same_views(state, core)
        assert state.legal_actions() == core.allowed_action_ids()
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        core.apply(action, core.to_move)
    _same_views(state, core)
    assert core.result is not None
    score = core.result.score
    assert state.returns() == [score[s % 2] - score[1 - s % 2] for s in range(SEATS)]


def card_text(index: int) -> str:
    return str(tb.Card.from_index(index))


def _dealt(hand: tb.HandState) -> list[int]:
    received = [0] * SEATS
    cards = []
    for seat in _deal_order(hand.dealer):
        cards.append(hand.deal[seat][received[seat]].index)
        received[seat] += 1
    return cards


def _same_views(state: pyspiel.State, core: tb.HandState | tb.MatchState) -> None:
    for seat in range(SEATS):
        tensor = core.information_state_tensor(seat)
        assert np.array_equal(np.asarray(state.information_state_tensor(seat)), tensor)
        assert np.array_equal(np.asarray(state.observation_tensor(seat)), tensor)
        assert state.information_state_string(seat) == core.information_state_string(seat)
        assert state.observation_string(seat) == core.information_state_string(seat)


@pytest.mark.parametrize("params", MATCH_RULES)
def test_a_match_is_the_core_s_match_of_the_same_deals(params: dict[str, object]) -> None:
    game = pyspiel.load_game(MATCH_GAME, params)
    dealer = int(params.get("dealer", 0))
    core = tb.MatchState(seed=9, rules=_rules(params), first_dealer=dealer)
    state = game.new_initial_state()
    rng = np.random.default_rng(9)
    hands = 0
    while not core.is_terminal:
        if state.is_chance_node():
            _deal(state, core.hand)
            hands += 1
        _same_views(state, core)
        assert state.legal_actions() == core.legal_action_ids()
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        core.apply(action)
    assert state.is_terminal() and hands == len(core.history)
    assert core.winner is not None
    assert state.returns() == [1.0 if s % 2 == core.winner else -1.0 for s in range(SEATS)]


class FixedSampler:
    """Stands in for OpenSpiel's uniform sampler with known draws."""

    def __init__(self, *draws: float) -> None:
        self.draws = list(draws)

    def __call__(self) -> float:
        return self.draws.pop(0)


def _random_states(game: pyspiel.Game, seed: int) -> list[pyspiel.State]:
    rng = np.random.default_rng(seed)
    state, states = game.new_initial_state(), []
    while not state.is_terminal():
        states.append(state.clone())
        if state.is_chance_node():
            action = rng.choice([card for card, _ in state.chance_outcomes()])
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(int(action))
    return states


@pytest.mark.parametrize("name", [HAND_GAME, MATCH_GAME])
def test_resampled_states_keep_the_information_state(name: str) -> None:
    game = pyspiel.load_game(name, {"target": 200} if name == MATCH_GAME else {})
    states = _random_states(game, 3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for state in states[:: max(1, len(states) // 60)]:
        for seat in range(SEATS):
            world = state.resample_from_infostate(seat, sampler)
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert world.current_player() == state.current_player()
            # Its history is its own: deserializing it gives the same state.
            _, again = pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(game, world)
            )
            assert str(again) == str(world)


def test_a_resampled_hand_is_the_exact_sampler_s_world() -> None:
    game = pyspiel.load_game(HAND_GAME)
    for state in _random_states(game, 5)[36::7]:
        seat = state.current_player()
        draws = (0.25, 0.5)
        seed = int(draws[0] * 2**32) * 2**32 + int(draws[1] * 2**32)
        world = state.resample_from_infostate(seat, FixedSampler(*draws))
        assert isinstance(world, TarabishState) and world.hand is not None
        assert world.hand == state.hand.sample_world(seat, seed)


def test_resampling_during_the_deal_keeps_only_the_seat_s_first_six_cards() -> None:
    game = pyspiel.load_game(HAND_GAME)
    state = _random_states(game, 6)[30]  # 30 cards dealt: every seat's six, some kitties
    seen_by = {seat: state.information_state_string(seat) for seat in range(SEATS)}
    for k in range(20):
        world = state.resample_from_infostate(1, FixedSampler(k / 20, 0.5))
        assert world.information_state_string(1) == seen_by[1]
        assert world.is_chance_node() and len(world.chance_outcomes()) == 6


def test_states_pickle_and_clone() -> None:
    game = pyspiel.load_game(MATCH_GAME, {"target": 200})
    for state in _random_states(game, 8)[::25]:
        for copy in (pickle.loads(pickle.dumps(state)), state.clone()):
            assert str(copy) == str(state) and copy.history() == state.history()


class RestartingISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTS with the ``restart_at`` that ``evaluate_bots`` calls (the bot
    itself leaves it to its C++ base, which refuses it)."""

    def restart_at(self, state: pyspiel.State) -> None:
        del state
        self.reset()


def _ismcts(game: pyspiel.Game, seed: int) -> RestartingISMCTS:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    return RestartingISMCTS(game, evaluator, 2.0, 15, random_state=np.random.RandomState(seed))


def test_openspiel_ismcts_and_tarabish_bots_finish_a_hand_with_evaluate_bots() -> None:
    game = pyspiel.load_game(HAND_GAME)
    bots = [
        _ismcts(game, 1),
        TarabishBot(game, 1, "heuristic"),
        _ismcts(game, 2),
        TarabishBot(game, 3, "ismcts:iterations=50", seed=4),
    ]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0))
    assert state.is_terminal() and returns == state.returns()
    assert returns[0] == returns[2] == -returns[1] == -returns[3]


def test_openspiel_rl_environment_plays_a_hand_on_the_tensor() -> None:
    game = pyspiel.load_game(HAND_GAME, {"dealer": 2})
    environment = rl_environment.Environment(game, seed=3)
    step = environment.reset()
    while not step.last():
        seat = step.observations["current_player"]
        tensor = step.observations["info_state"][seat]
        state = environment.get_state
        assert np.array_equal(np.float32(tensor), state.hand.information_state_tensor(seat))
        step = environment.step([step.observations["legal_actions"][seat][-1]])
    score = environment.get_state.hand.result.score
    assert step.rewards == [score[s % 2] - score[1 - s % 2] for s in range(SEATS)]


class FirstLegal:
    """A Python bot: the smallest legal id."""

    def act(self, observation: tb.Observation, legal_ids: list[int]) -> int:
        del observation
        return legal_ids[0]


def test_tarabish_bots_play_a_match_as_the_core_s_bots_do() -> None:
    game = pyspiel.load_game(MATCH_GAME, {"target": 300})
    specs: list[str | FirstLegal] = ["greedy", "heuristic", FirstLegal(), "random"]
    bots = [TarabishBot(game, seat, spec, seed=7) for seat, spec in enumerate(specs)]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(1))
    assert state.is_terminal() and sorted(returns) == [-1.0, -1.0, 1.0, 1.0]
    # Replayed by hand: each seat's k-th decision used the seed derive(7, k).
    replay, decisions = game.new_initial_state(), [0] * SEATS
    for action in state.history():
        if not replay.is_chance_node():
            seat = replay.current_player()
            spec = specs[seat]
            if isinstance(spec, str):
                seed = _core.derive_seed(7, decisions[seat])
                assert action == _core.bot_action(replay.hand, tb.bot_spec(spec), seed)
            else:
                assert action == replay.legal_actions()[0]
            decisions[seat] += 1
        replay.apply_action(action)


def test_a_bot_refuses_a_seat_not_to_move_and_other_games() -> None:
    game = pyspiel.load_game(HAND_GAME)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    bot = TarabishBot(game, (state.current_player() + 1) % SEATS, "greedy")
    with pytest.raises(ValueError, match="asked to move"):
        bot.step(state)
    with pytest.raises(ValueError, match="plays tarabish or tarabish_match"):
        TarabishBot(pyspiel.load_game("kuhn_poker"), 0, "greedy")
    with pytest.raises(tb.InvalidInputError, match='unknown bot "oracle"'):
        TarabishBot(game, 0, "oracle")
