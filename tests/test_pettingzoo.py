"""The PettingZoo environment (python/tarabish/pettingzoo.py, docs/RL.md): PettingZoo's own API
and seed tests, observations that are exactly the seat's information state and legal ids, the
rewards of each option against the core's scores (R6, R7.1), seeds, illegal actions, the docs'
example."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import tarabish as tb
from pettingzoo.test import api_test, render_test, seed_test
from tarabish._actions import NUM_ACTIONS
from tarabish.pettingzoo import AGENTS, TarabishEnv, env

DOCS = Path(__file__).resolve().parent.parent / "docs" / "RL.md"


# PettingZoo's generic hints for dict observations; its classic games get them too.
DICT_OBSERVATION_HINTS = (
    "ignore:Observation space for each agent probably should be",
    "ignore:Observation is not a NumPy array",
)


@pytest.mark.filterwarnings(*DICT_OBSERVATION_HINTS)
def test_pettingzoo_api_test_match_episodes() -> None:
    api_test(env(), num_cycles=1000)


@pytest.mark.filterwarnings(*DICT_OBSERVATION_HINTS)
def test_pettingzoo_api_test_hand_episodes_with_score_rewards() -> None:
    api_test(env(episode="hand", reward="score", rules=tb.Rules(dealer_may_pass=True)))


def test_pettingzoo_seed_test() -> None:
    seed_test(env, num_cycles=500)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(env)
    assert "seat 0:" in capsys.readouterr().out  # the "human" mode printed the table


@pytest.mark.filterwarnings(*DICT_OBSERVATION_HINTS)
def test_pettingzoo_api_test_with_illegal_moves_penalized() -> None:
    api_test(env(episode="hand", illegal_moves="penalize"), num_cycles=200)


def test_the_spaces_are_public_and_hold_every_observation() -> None:
    game = env()
    game.reset(seed=4)
    assert set(game.observation_spaces) == set(game.action_spaces) == set(AGENTS)
    for agent in AGENTS:
        space = game.observation_spaces[agent]
        assert space is game.observation_space(agent)
        assert game.action_spaces[agent] is game.action_space(agent)
        assert game.action_spaces[agent].n == NUM_ACTIONS
        tensor = space["observation"]
        assert (tensor.low == 0).all() and (tensor.high == 1).all()
        assert space.contains(game.observe(agent))


def _random_episode(game: TarabishEnv, seed: int) -> tuple[list[int], dict[str, float]]:
    """Plays one episode with random legal actions; the actions taken and each seat's rewards
    summed as last() reports them."""
    rng = np.random.default_rng(seed)
    game.reset(seed=seed)
    actions: list[int] = []
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        totals[agent] += reward
        if termination or truncation:
            game.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        actions.append(action)
        game.step(action)
    return actions, totals


@pytest.mark.parametrize("seed", [0, 7, 2**64 - 1])
def test_a_match_episode_is_the_core_match_of_its_seed(seed: int) -> None:
    game = TarabishEnv(reward="score")
    rng = np.random.default_rng(seed % 1000)
    game.reset(seed=seed)
    match = tb.MatchState(seed=seed, first_dealer=seed % 4)
    totals = dict.fromkeys(AGENTS, 0.0)
    while not match.is_terminal:
        agent = game.agent_selection
        assert agent == AGENTS[match.to_move]  # the seat to move acts (R3.1, R5.2)
        for seat, name in enumerate(AGENTS):
            observation = game.observe(name)
            assert np.array_equal(observation["observation"], match.information_state_tensor(seat))
            expected = np.zeros(NUM_ACTIONS, np.int8)
            if seat == match.to_move:
                expected[match.legal_action_ids()] = 1
            assert np.array_equal(observation["action_mask"], expected)
        action = int(rng.choice(match.legal_action_ids()))
        game.step(action)
        match.apply(action)
        for name in AGENTS:
            totals[name] += game.rewards[name]
    assert all(game.terminations.values())
    # Score rewards add up to the final score difference (R6.2-R6.4), for both seats of a team.
    difference = match.scores[0] - match.scores[1]
    assert totals == {
        "seat_0": difference,
        "seat_1": -difference,
        "seat_2": difference,
        "seat_3": -difference,
    }


def test_score_rewards_come_as_each_hand_ends() -> None:
    game = TarabishEnv(reward="score")
    game.reset(seed=3)
    match = tb.MatchState(seed=3, first_dealer=3)
    rng = np.random.default_rng(3)
    while match.hand_index == 0:
        action = int(rng.choice(match.legal_action_ids()))
        game.step(action)
        match.apply(action)
        if match.hand_index == 0:
            assert set(game.rewards.values()) == {0.0}
    score = match.history[0].result.score
    assert game.rewards["seat_0"] == game.rewards["seat_2"] == score[0] - score[1]
    assert game.rewards["seat_1"] == game.rewards["seat_3"] == score[1] - score[0]


@pytest.mark.parametrize("seed", range(4))
def test_win_rewards_pay_the_match_winner_once(seed: int) -> None:
    rules = tb.Rules(target=150)
    actions, totals = _random_episode(TarabishEnv(rules=rules), seed)
    match = tb.MatchState(seed=seed, first_dealer=seed % 4, rules=rules)
    for action in actions:
        match.apply(action)
    winner = match.winner
    assert winner is not None  # R7.1: a match ends with a winner
    assert totals == {name: 1.0 if seat % 2 == winner else -1.0 for seat, name in enumerate(AGENTS)}


def test_hand_episodes_with_win_rewards_pay_the_team_that_scored_more() -> None:
    seen = set()
    for seed in range(12):
        game = TarabishEnv(episode="hand", rules=tb.Rules(dealer_may_pass=True))
        actions, totals = _random_episode(game, seed)
        hand = tb.HandState(seed % 4, seed=seed, rules=tb.Rules(dealer_may_pass=True))
        for action in actions:
            hand.apply(action)
        assert hand.is_terminal
        score = hand.result.score
        expected = 0.0 if score[0] == score[1] else (1.0 if score[0] > score[1] else -1.0)
        assert totals["seat_0"] == totals["seat_2"] == expected
        assert totals["seat_1"] == totals["seat_3"] == -expected
        seen.add(expected)
    assert seen >= {1.0, -1.0}


def test_unseeded_resets_follow_the_last_seed() -> None:
    first, second = TarabishEnv(), TarabishEnv()
    first.reset(seed=11)
    second.reset(seed=11)
    assert first.game_seed == second.game_seed == 11
    first.reset()
    second.reset()
    assert first.game_seed == second.game_seed != 11
    assert first.observe("seat_0")["observation"].tolist() == (
        second.observe("seat_0")["observation"].tolist()
    )


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    game = TarabishEnv()
    game.reset(seed=1)
    seat = AGENTS.index(game.agent_selection)
    before = game.observe(game.agent_selection)
    with pytest.raises(tb.IllegalActionError) as error:
        game.step(0)  # a card during the auction
    assert error.value.rule == "R3.1"
    assert game.agent_selection == AGENTS[seat]
    after = game.observe(game.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])
    with pytest.raises(tb.InvalidInputError):
        game.step(NUM_ACTIONS)


@pytest.mark.parametrize("illegal_reward", [-1.0, -5.0])
def test_an_illegal_move_can_penalize_the_team_and_end_the_episode(illegal_reward: float) -> None:
    game = TarabishEnv(illegal_moves="penalize", illegal_reward=illegal_reward)
    game.reset(seed=1)
    agent = game.agent_selection
    team = AGENTS.index(agent) % 2
    before = game.unwrapped._state().clone()
    game.step(np.int64(0))  # a card during the auction (R3.1)
    assert all(game.terminations.values())
    assert game.unwrapped._state() == before  # the move was not played
    for seat, name in enumerate(AGENTS):
        expected = illegal_reward if seat % 2 == team else -illegal_reward
        assert game.rewards[name] == expected
    assert game.infos[agent] == {"illegal_move": True}
    # Every agent sees its reward through last() and takes its dead step.
    seen = {}
    for name in game.agent_iter():
        _, reward, termination, _, _ = game.last()
        assert termination
        seen[name] = reward
        game.step(None)
    assert seen == {
        name: illegal_reward if seat % 2 == team else -illegal_reward
        for seat, name in enumerate(AGENTS)
    }


def test_with_penalties_legal_moves_play_on_and_bad_input_still_raises() -> None:
    game = TarabishEnv(illegal_moves="penalize")
    game.reset(seed=2)
    game.step(game.unwrapped._state().legal_action_ids()[0])
    assert not any(game.terminations.values())
    with pytest.raises(tb.InvalidInputError):
        game.step(NUM_ACTIONS)  # no action id at all: not a move to penalize
    with pytest.raises(tb.InvalidInputError):
        game.step("pass")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options",
    [
        {"illegal_moves": "ignore"},
        {"illegal_reward": "a lot"},
        {"episode": "set"},
        {"reward": "points"},
        {"render_mode": "rgb_array"},
        {"rules": "x"},
        {"rules": tb.Rules(declarations="manual")},
    ],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(tb.InvalidInputError):
        TarabishEnv(**options)  # type: ignore[arg-type]


def test_render_shows_the_table() -> None:
    game = env(render_mode="ansi")
    game.reset(seed=5)
    text = game.render()
    hands = tb.MatchState(seed=5, first_dealer=1).hand.hands
    for seat in range(4):
        assert f"seat {seat}: {' '.join(str(card) for card in hands[seat])}" in text


def test_the_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(), re.DOTALL)
    example = next(block for block in blocks if "agent_iter" in block)
    exec(compile(example, str(DOCS), "exec"), {})
    assert re.findall(r"match \d: team 0 finished [+-]\d+ points ahead", capsys.readouterr().out)
