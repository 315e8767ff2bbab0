"""The vectorized environment, the compact encoding and self-play data (docs/RL.md,
docs/ENGINE.md "Compact encoding"), checked against the scalar API.

- ``VectorEnv`` step by step against ``HandState``/``MatchState``: at every step and in every
  game, the observation (the tensor, or ``unpack`` of the compact row) equals
  ``information_state_tensor`` of ``env.state(i)`` for the observer, the mask its legal ids,
  the seat its seat to move; the state follows from the previous one by the action given, then
  (with opponents) by the bot's own choices (``tb.bot_action``); a hand's end gives the acting
  team's score minus the other's (R6), from the finished hand's result; a reset deals episode
  ``k`` of game ``i`` from hand seed ``derive(derive(seed, i), k)``, dealer ``k % 4``.
- The same steps on 1, 2 and 3 threads give the same arrays (and pass Gymnasium's own
  determinism check, ``data_equivalence``); Gymnasium's spaces contain what the environment
  returns and Gymnasium's episode-statistics wrapper runs on it. (Gymnasium 1.x has no checker
  for vector environments beyond these.)
- ``self_play``: every row is the state's tensor, mask and seat at that decision; each hand's
  actions replay as a ``tarabish-record/1`` record to the stored score; the totals equal
  ``simulate``'s; the arrays do not depend on the thread count.
- Bad input raises a ``TarabishError`` and changes nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import tarabish as tb
from tarabish.vector import COMPACT_SIZE, VectorEnv, unpack

gymnasium = pytest.importorskip("gymnasium")

NUM_ACTIONS = 46


def derive(seed: int, index: int) -> int:
    return tb._core.derive_seed(seed, index)


def tensor_of(env: VectorEnv, obs: dict[str, Any], i: int) -> np.ndarray:
    row = obs["observation"][i]
    return row if env.encoding == "tensor" else unpack(row)


def mask_of(state: Any) -> np.ndarray:
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if not state.is_terminal:
        mask[state.legal_action_ids()] = 1
    return mask


def finished_score(state: Any) -> tuple[int, int]:
    hand = state if isinstance(state, tb.HandState) else state.history[-1]
    score = hand.result.score
    return (score[0], score[1])


def current_hand(state: Any) -> Any:
    return state if isinstance(state, tb.HandState) else state.hand


class Checker:
    """Drives a VectorEnv with random legal actions and checks every game at every step."""

    def __init__(self, env: VectorEnv, seed: int) -> None:
        self.env = env
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.episodes = [0] * env.num_envs
        self.obs, _ = env.reset(seed=seed)
        self.states = [env.state(i) for i in range(env.num_envs)]
        for i in range(env.num_envs):
            self.check_start(i)
            self.check_view(i, terminated=False)

    def check_start(self, i: int) -> None:
        """Episode k of game i: the deal of hand seed derive(derive(seed, i), k)."""
        k = self.episodes[i]
        self.episodes[i] += 1
        episode_seed = derive(derive(self.seed, i), k)
        state = self.states[i]
        if self.env.episode == "hand":
            fresh = tb.HandState(k % 4, seed=episode_seed, rules=self.env.rules)
        else:
            fresh = tb.MatchState(seed=episode_seed, first_dealer=k % 4, rules=self.env.rules)
            assert state.hand_index == 0
        assert current_hand(state).deal == current_hand(fresh).deal
        self.check_bot_moves(fresh, state)

    def check_bot_moves(self, before: Any, after: Any) -> None:
        """``after`` is ``before`` plus moves of uncontrolled seats, each the bot's choice."""
        moves = self.actions(after)[len(self.actions(before)) :]
        state = before.clone()
        for action in moves:
            seat = current_hand(state).to_move
            assert seat not in self.env.controlled
            assert self.env.opponents is not None
            assert tb.bot_action(current_hand(state), self.env.opponents) == action.id
            state.apply(action)
        assert state == after

    @staticmethod
    def actions(state: Any) -> list[Any]:
        if isinstance(state, tb.HandState):
            return list(state.actions)
        hands = list(state.history) + ([] if state.is_terminal else [state.hand])
        return [action for hand in hands for action in hand.actions]

    def check_view(self, i: int, *, terminated: bool) -> None:
        state = self.states[i]
        seat = int(self.obs["seat"][i])
        if not terminated:
            assert current_hand(state).to_move == seat
            assert seat in self.env.controlled
        expected = state.information_state_tensor(seat)
        got = tensor_of(self.env, self.obs, i)
        assert np.array_equal(got, expected), np.nonzero(got != expected)
        assert np.array_equal(self.obs["action_mask"][i], mask_of(state))

    def step(self) -> None:
        masks = np.array(self.obs["action_mask"])
        actions = np.array(
            [self.rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], dtype=np.int64
        )
        ended = [state.is_terminal for state in self.states]
        seats = [int(s) for s in self.obs["seat"]]
        before = self.states
        self.obs, rewards, terminated, truncated, infos = self.env.step(actions)
        self.states = [self.env.state(i) for i in range(self.env.num_envs)]
        assert not truncated.any()
        for i in range(self.env.num_envs):
            if ended[i]:  # next-step autoreset: a new episode, the action not used
                assert rewards[i] == 0 and not terminated[i] and not infos["_score"][i]
                self.check_start(i)
                self.check_view(i, terminated=False)
                continue
            applied = before[i].clone()
            applied.apply(int(actions[i]))
            self.check_bot_moves(applied, self.states[i])
            if isinstance(applied, tb.HandState):
                hand_ended = self.states[i].is_terminal
            else:
                hand_ended = len(self.states[i].history) > len(before[i].history)
            assert bool(infos["_score"][i]) == hand_ended
            if hand_ended:
                score = finished_score(self.states[i])
                team = seats[i] % 2
                assert rewards[i] == score[team] - score[1 - team]  # R6, the acting team's
                assert tuple(infos["score"][i]) == score
            else:
                assert rewards[i] == 0 and tuple(infos["score"][i]) == (0, 0)
            assert bool(terminated[i]) == self.states[i].is_terminal
            if terminated[i]:
                assert int(self.obs["seat"][i]) == seats[i]
            self.check_view(i, terminated=bool(terminated[i]))


@pytest.mark.parametrize(
    ("encoding", "episode", "controlled", "opponents", "rules"),
    [
        ("tensor", "hand", (0, 1, 2, 3), None, tb.Rules()),
        ("compact", "hand", (0, 1, 2, 3), None, tb.Rules(team_runs=True, dealer_may_pass=True)),
        ("compact", "hand", (0, 2), "greedy", tb.Rules()),
        ("tensor", "hand", (3,), "greedy", tb.Rules(half_bait_is_bait=True)),
        ("compact", "match", (1, 3), "greedy", tb.Rules(target=300)),
        ("tensor", "match", (0, 1, 2, 3), None, tb.Rules(target=200)),
    ],
)
def test_steps_equal_the_scalar_api(
    encoding: str, episode: str, controlled: tuple[int, ...], opponents: str | None, rules: Any
) -> None:
    """Thousands of game steps a case (6 games x 250 steps), every one checked."""
    env = VectorEnv(
        6,
        encoding=encoding,
        episode=episode,
        controlled=controlled,
        opponents=opponents,
        rules=rules,
        threads=2,
        seed=5,
    )
    checker = Checker(env, seed=17)
    for _ in range(250):
        checker.step()
    assert sum(checker.episodes) > 6  # resets happened


def run(env: VectorEnv, steps: int) -> list[tuple[np.ndarray, ...]]:
    obs, _ = env.reset(seed=3)
    seen = []
    for _ in range(steps):
        actions = np.asarray(obs["action_mask"]).argmax(axis=1)
        obs, rewards, terminated, _, infos = env.step(actions)
        seen.append(
            (
                np.array(obs["observation"]),
                np.array(obs["action_mask"]),
                np.array(obs["seat"]),
                rewards,
                terminated,
                infos["score"],
            )
        )
    return seen


@pytest.mark.parametrize("encoding", ["tensor", "compact"])
def test_the_thread_count_changes_nothing(encoding: str) -> None:
    runs = [
        run(
            VectorEnv(
                37,
                encoding=encoding,
                episode="match",
                controlled=(0,),
                opponents="greedy",
                rules=tb.Rules(target=150),
                threads=threads,
            ),
            120,
        )
        for threads in (1, 2, 3)
    ]
    for other in runs[1:]:
        for step, (a, b) in enumerate(zip(runs[0], other, strict=True)):
            for x, y in zip(a, b, strict=True):
                assert np.array_equal(x, y), step


def test_gymnasium_spaces_and_wrappers() -> None:
    from gymnasium.vector import AutoresetMode
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    for encoding in ("tensor", "compact"):
        env = VectorEnv(5, encoding=encoding)
        assert isinstance(env, gymnasium.vector.VectorEnv)
        assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
        assert env.single_action_space == gymnasium.spaces.Discrete(NUM_ACTIONS)
        assert env.observation_space == gymnasium.vector.utils.batch_space(
            env.single_observation_space, 5
        )
        wrapped = RecordEpisodeStatistics(env)
        obs, _ = wrapped.reset(seed=1)
        episodes = 0
        for _ in range(200):
            assert env.observation_space.contains(obs)
            actions = np.array(
                [env.single_action_space.sample(mask=m) for m in np.asarray(obs["action_mask"])]
            )
            obs, rewards, terminated, _, infos = wrapped.step(actions)
            assert env.action_space.contains(actions)
            assert rewards.dtype == np.float32 and terminated.dtype == np.bool_
            episodes += int(terminated.sum())
            if terminated.any():
                assert "episode" in infos
        assert episodes > 0
        tensors = tensor_of(env, obs, slice(None))  # type: ignore[arg-type]
        assert ((tensors >= 0) & (tensors <= 1)).all()


def test_unpack_shapes() -> None:
    env = VectorEnv(4, encoding="compact")
    obs, _ = env.reset(seed=2)
    rows = np.array(obs["observation"])
    one_by_one = np.stack([unpack(row) for row in rows])
    assert np.array_equal(unpack(rows), one_by_one)
    assert unpack(rows.reshape(2, 2, COMPACT_SIZE)).shape == (2, 2, tb.TENSOR_SIZE)
    assert unpack(rows[:0]).shape == (0, tb.TENSOR_SIZE)


def replay_hand(dealer: int, hand_seed: int, seats: np.ndarray, actions: np.ndarray) -> Any:
    """The output of replaying one hand as a ``tarabish-record/1`` record."""
    record = tb.to_record(tb.HandState(dealer, seed=hand_seed))
    record["hands"][0]["actions"] = [
        str(tb.Action.from_id(int(a), int(s))) for s, a in zip(seats, actions, strict=True)
    ]
    return tb.replay(record)["hands"][0]["result"]


@pytest.mark.parametrize("encoding", ["compact", "tensor"])
def test_self_play_rows_replay(encoding: str) -> None:
    bots = ["greedy", "random", "heuristic", "random"]
    data = tb.self_play(60, bots, seed=4, encoding=encoding, threads=2)
    assert data.observation.shape == (
        len(data.action),
        COMPACT_SIZE if encoding == "compact" else tb.TENSOR_SIZE,
    )
    assert np.array_equal(np.unique(data.hand), np.arange(60))
    totals = np.zeros(2, dtype=np.int64)
    for hand in range(60):
        rows = np.flatnonzero(data.hand == hand)
        assert np.array_equal(rows, np.arange(rows[0], rows[-1] + 1))  # in order, together
        hand_seed = derive(4, hand)
        result = replay_hand(hand % 4, hand_seed, data.seat[rows], data.action[rows])
        assert (data.score[rows] == result["score"]).all()
        totals += data.score[rows[0]]
        state = tb.HandState(hand % 4, seed=hand_seed)
        for row in rows:
            seat = int(data.seat[row])
            assert state.to_move == seat
            observed = data.observation[row]
            tensor = unpack(observed) if encoding == "compact" else observed
            assert np.array_equal(tensor, state.information_state_tensor(seat))
            assert np.array_equal(data.action_mask[row], mask_of(state))
            if bots[seat] == "greedy" or bots[seat] == "heuristic":
                assert tb.bot_action(state, bots[seat]) == data.action[row]
            state.apply(int(data.action[row]))
        assert state.is_terminal
    summary = tb.simulate(hands=60, seed=4, bots=bots)
    assert tuple(totals) == summary.score_by_team


def test_self_play_is_the_same_on_any_thread_count() -> None:
    runs = [tb.self_play(300, "greedy", seed=8, threads=threads) for threads in (1, 2, 0)]
    for other in runs[1:]:
        for field in ("hand", "seat", "observation", "action_mask", "action", "score"):
            assert np.array_equal(getattr(runs[0], field), getattr(other, field)), field


def snapshot(env: VectorEnv) -> list[Any]:
    obs = env._obs
    return [np.array(obs[key]) for key in obs] + [env.state(i) for i in range(env.num_envs)]


def same(a: list[Any], b: list[Any]) -> bool:
    return all(
        np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y
        for x, y in zip(a, b, strict=True)
    )


def test_bad_steps_change_nothing() -> None:
    env = VectorEnv(3, encoding="compact")
    obs, _ = env.reset(seed=1)
    before = snapshot(env)
    legal = np.asarray(obs["action_mask"]).argmax(axis=1)
    illegal = legal.copy()
    illegal[1] = 0  # a card, in the auction (R3.1)
    for actions, error in [
        (illegal, tb.IllegalActionError),
        (np.append(legal, 40), tb.InvalidInputError),
        (legal[:2], tb.InvalidInputError),
        (legal.astype(np.float64), tb.InvalidInputError),
        (np.array([40, 40, 46]), tb.InvalidInputError),
        (np.array([40, -1, 40]), tb.InvalidInputError),
        (np.array([40, 40, 2**40]), tb.InvalidInputError),
        (np.array([40, 40, 255], dtype=np.uint8), tb.InvalidInputError),
        ("40 40 40", tb.InvalidInputError),
        (legal.astype(bool), tb.InvalidInputError),
    ]:
        with pytest.raises(error) as caught:
            env.step(actions)
        assert same(before, snapshot(env)), actions
        if error is tb.IllegalActionError:
            assert caught.value.rule == "R3.1" and "game 1" in str(caught.value)
    with pytest.raises(ValueError, match="read-only"):
        obs["observation"][0, 0] = 1


def test_step_results_are_the_callers_to_keep() -> None:
    """Each step's rewards, ends and infos are arrays of their own: the later steps leave them
    as they were returned, hands' ends included."""
    env = VectorEnv(8, encoding="compact", threads=2)
    obs, _ = env.reset(seed=3)
    kept: list[tuple[list[np.ndarray], list[np.ndarray]]] = []
    for _ in range(60):
        obs, reward, terminated, truncated, infos = env.step(obs["action_mask"].argmax(axis=1))
        arrays = [reward, terminated, truncated, infos["score"], infos["_score"]]
        kept.append((arrays, [a.copy() for a in arrays]))
    assert any(copies[4].any() for _, copies in kept), "no hand ended"
    for arrays, copies in kept:
        assert all(np.array_equal(a, c) for a, c in zip(arrays, copies, strict=True))
    firsts, seconds = kept[0][0], kept[1][0]
    assert not any(np.shares_memory(a, b) for a, b in zip(firsts, seconds, strict=True))


def test_the_core_refuses_results_sharing_memory() -> None:
    """The private core checks the result arrays it is given (their threads would otherwise
    write what another array holds): refused, and nothing changes."""
    n = 4
    env = VectorEnv(n, encoding="tensor", threads=2)
    obs, _ = env.reset(seed=1)
    before = snapshot(env)
    actions = np.ascontiguousarray(obs["action_mask"].argmax(axis=1), dtype=np.int64)
    sent = actions.copy()
    results = env._results  # a step's result arrays, new at each call
    ends = np.empty(n, np.bool_)
    cases = {
        "two results in one array": [results()[0], ends, ends, results()[3]],
        "a result in the observations": [env._observation[0, :n], *results()[1:]],
        "a result in the actions": [*results()[:3], actions.view(np.int32).reshape(n, 2)],
        "too few": results()[:3],
        "a wrong shape": [np.empty(n + 1, np.float32), *results()[1:]],
        "read-only": [np.empty(n, np.float32), *results()[1:]],
    }
    cases["read-only"][0].flags.writeable = False
    for name, arrays in cases.items():
        with pytest.raises(tb.InvalidInputError):
            env._core.step(actions, arrays)
        assert same(before, snapshot(env)), name
        assert np.array_equal(actions, sent), name
    with pytest.raises(tb.InvalidInputError, match="sharing no memory"):
        env._core.reset([results()[0], ends, ends, results()[3]])
    rows = np.zeros((n, COMPACT_SIZE), np.uint8)
    mask = rows.reshape(-1)[: n * NUM_ACTIONS].view(np.int8).reshape(n, NUM_ACTIONS)
    with pytest.raises(tb.InvalidInputError, match="sharing no memory"):
        tb._core.VectorCore(
            n,
            rules=None,
            controlled=[0, 1, 2, 3],
            opponents=None,
            episode="hand",
            encoding="compact",
            threads=1,
            seed=0,
            arrays=[rows, mask, np.zeros(n, np.int64)],
        )


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_envs": 0},
        {"num_envs": True},
        {"encoding": "bits"},
        {"episode": "game"},
        {"controlled": (0, 0)},
        {"controlled": ()},
        {"controlled": (4,)},
        {"controlled": (0, 1)},  # two seats without a bot for the others
        {"controlled": (0,), "opponents": "nobot"},
        {"threads": -1},
        {"threads": 10_000},
        {"seed": -1},
        {"rules": tb.Rules(declarations="manual")},
        {"rules": "default"},
    ],
)
def test_bad_construction(kwargs: dict[str, Any]) -> None:
    args = {"num_envs": 2, **kwargs}
    with pytest.raises(tb.TarabishError):
        VectorEnv(**args)


def test_bad_state_index_and_rows() -> None:
    env = VectorEnv(2)
    env.reset(seed=0)
    for index in (-1, 2, "0", 1.0, True):
        with pytest.raises(tb.InvalidInputError):
            env.state(index)  # type: ignore[arg-type]
    for rows in (np.zeros(COMPACT_SIZE + 1, np.uint8), np.zeros(COMPACT_SIZE), 3, "rows"):
        with pytest.raises(tb.InvalidInputError):
            unpack(rows)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"hands": -1},
        {"hands": 1.5},
        {"bots": ["random"] * 3},
        {"bots": "nobot"},
        {"encoding": "bits"},
        {"threads": 300},
        {"seed": -5},
        {"rules": tb.Rules(enforce_legal_play=False)},
    ],
)
def test_bad_self_play(kwargs: dict[str, Any]) -> None:
    args = {"hands": 3, "bots": "random", **kwargs}
    with pytest.raises(tb.TarabishError):
        tb.self_play(**args)


def test_same_seed_same_data_by_gymnasiums_own_check() -> None:
    """Gymnasium's ``data_equivalence`` (its env checker's determinism test) on two vectors and
    on one vector reset twice with the same seed."""
    from gymnasium.utils.env_checker import data_equivalence

    def trace(env: VectorEnv) -> list[Any]:
        obs, infos = env.reset(seed=9)
        seen: list[Any] = [{k: np.array(v) for k, v in obs.items()}, infos]
        for _ in range(60):
            obs, *rest = env.step(np.asarray(obs["action_mask"]).argmax(axis=1))
            seen += [{k: np.array(v) for k, v in obs.items()}, *rest]
        return seen

    one = VectorEnv(8, encoding="compact", controlled=(1,), opponents="greedy", threads=1)
    two = VectorEnv(8, encoding="compact", controlled=(1,), opponents="greedy", threads=2)
    first = trace(one)
    assert data_equivalence(first, trace(two), exact=True)
    assert data_equivalence(first, trace(one), exact=True)
