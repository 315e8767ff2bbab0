"""A vectorized environment for reinforcement learning (extra ``rl``; docs/RL.md "Vectorized
environment"): ``VectorEnv`` steps ``num_envs`` auto-mode games at once in Rust, with the
interpreter released and on every core, writing observations, action masks and seats into numpy
arrays in place; a ``gymnasium.vector.VectorEnv`` with next-step autoreset. ``unpack`` turns the
compact encoding into the float tensor (docs/ENGINE.md "Compact encoding").

Rules: R3 and R5 (the hand), R6 (the reward: the acting team's hand score minus the other
team's), R7 (matches)."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space

from . import _core
from ._actions import NUM_ACTIONS
from ._compact import COMPACT_SIZE, unpack
from ._errors import InvalidInputError, excerpt
from ._rules import Rules
from ._simulate import BotSpec, bot_spec

TENSOR_SIZE: int = _core.TENSOR_SIZE

EPISODES = ("hand", "match")
"""What one episode is: a hand, or a match to ``rules.target`` (R7.1)."""
ENCODINGS = ("tensor", "compact")
"""The observation encodings: float32 tensors, or compact uint8 rows (``unpack``)."""

Observation = dict[str, npt.NDArray[Any]]


class VectorEnv(GymVectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games stepped together: each step is one decision in every game.

    ``observation`` (float32 ``[N, 1708]``, or uint8 ``[N, COMPACT_SIZE]`` with
    ``encoding="compact"``), ``action_mask`` (int8 ``[N, 46]``) and ``seat`` (the observer: the
    seat to move; at an episode's end, the seat that acted) are written in place at every step:
    copy what you keep (the rewards, ends and ``infos`` are new arrays at every step). Seats
    outside ``controlled`` are played by the bot spec ``opponents`` between steps. The reward
    is 0 until a hand ends; then it is the acting team's hand score minus the other team's
    (R6), and ``infos["score"]`` holds both teams' scores (masked by ``infos["_score"]``).
    After an episode ends, the next step starts the next episode in that game and ignores its
    action (Gymnasium's next-step autoreset).

    Game ``i`` of a vector seeded ``seed`` has the seed ``derive(seed, i)``; its episode ``k`` is
    hand ``k`` of ``simulate`` with that seed (a match: match ``k``), whatever ``threads`` is.
    ``state(i)`` is a copy of game ``i``'s ``HandState`` (or ``MatchState``).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        *,
        rules: Rules | None = None,
        controlled: Sequence[int] = (0, 1, 2, 3),
        opponents: BotSpec | None = None,
        encoding: str = "tensor",
        episode: str = "hand",
        threads: int = 0,
        seed: int = 0,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise InvalidInputError(
                f"num_envs must be a whole number >= 1, got {excerpt(num_envs)}"
            )
        if encoding not in ENCODINGS:
            raise InvalidInputError(f"encoding is 'tensor' or 'compact', got {excerpt(encoding)}")
        if episode not in EPISODES:
            raise InvalidInputError(f"episode is 'hand' or 'match', got {excerpt(episode)}")
        if type(threads) is not int or not 0 <= threads <= _core.MAX_THREADS:
            raise InvalidInputError(
                f"threads must be 0 (all cores) to {_core.MAX_THREADS}, got {excerpt(threads)}"
            )
        seats = _seats(controlled)
        self.num_envs = num_envs
        self.rules = rules if rules is not None else Rules()
        self.encoding = encoding
        self.episode = episode
        self.controlled = seats
        self.opponents = None if opponents is None else bot_spec(opponents)
        single: spaces.Box
        if encoding == "tensor":
            self._observation: npt.NDArray[Any] = np.zeros((num_envs, TENSOR_SIZE), np.float32)
            single = spaces.Box(0.0, 1.0, (TENSOR_SIZE,), np.float32)
        else:
            self._observation = np.zeros((num_envs, COMPACT_SIZE), dtype=np.uint8)
            single = spaces.Box(0, 255, (COMPACT_SIZE,), np.uint8)
        self._mask = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
        self._seat = np.zeros(num_envs, dtype=np.int64)
        self._core = _core.VectorCore(
            num_envs,
            rules=rules,
            controlled=list(seats),
            opponents=self.opponents,
            episode=episode,
            encoding=encoding,
            threads=threads,
            seed=seed,
            arrays=[self._observation, self._mask, self._seat],
        )
        self._obs: Observation = {
            "observation": _read_only(self._observation),
            "action_mask": _read_only(self._mask),
            "seat": _read_only(self._seat),
        }
        self.single_observation_space = spaces.Dict(
            {
                "observation": single,
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                "seat": spaces.Discrete(4),
            }
        )
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Starts a new episode in every game; with ``seed``, as a new vector seeded so."""
        super().reset(seed=seed)
        self._core.reset(self._results(), seed)
        return self._obs, {}

    def step(
        self, actions: Any
    ) -> tuple[
        Observation,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One action id a game (ignored in a game whose episode ended at the last step). A
        malformed or illegal action raises ``TarabishError`` and changes nothing."""
        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or array.dtype.kind not in "iu":
            raise InvalidInputError(
                f"actions: integers of shape ({self.num_envs},), got {array.dtype} {array.shape}"
            )
        if array.dtype.kind == "u" and array.size and int(array.max()) >= NUM_ACTIONS:
            raise InvalidInputError(f"actions: action ids are 0..{NUM_ACTIONS - 1}")
        results = self._results()
        reward, terminated, hand_over, score = results
        self._core.step(np.ascontiguousarray(array, dtype=np.int64), results)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._obs, reward, terminated, truncated, {"score": score, "_score": hand_over}

    def _results(self) -> list[npt.NDArray[Any]]:
        # Fresh arrays at every step, written through by the core (every game's entry of
        # each), so that the caller keeps what a step returns without a copy.
        n = self.num_envs
        return [
            np.empty(n, dtype=np.float32),
            np.empty(n, dtype=np.bool_),
            np.empty(n, dtype=np.bool_),
            np.empty((n, 2), dtype=np.int32),
        ]

    def state(self, index: int) -> Any:
        """A copy of game ``index``'s state now: a ``HandState`` (``episode="hand"``) or a
        ``MatchState``, rebuilt from its seed and actions through the checked API."""
        try:
            i = operator.index(index)
        except TypeError:
            i = -1
        if isinstance(index, bool) or not 0 <= i < self.num_envs:
            raise InvalidInputError(f"index: 0..{self.num_envs - 1}, got {excerpt(index)}")
        seed, dealer, actions = self._core.record(i)
        state: Any
        if self.episode == "hand":
            state = _core.HandState(dealer, seed=seed, rules=self.rules)
        else:
            state = _core.MatchState(seed=seed, rules=self.rules, first_dealer=dealer)
        for action in actions:
            state.apply(action)
        return state


def _seats(controlled: Sequence[int]) -> tuple[int, ...]:
    try:
        seats = tuple(operator.index(seat) for seat in controlled)
    except TypeError:
        seats = ()
    if not seats or len(set(seats)) != len(seats) or not all(0 <= s < 4 for s in seats):
        raise InvalidInputError(f"controlled: distinct seats 0..3, got {excerpt(controlled)}")
    return seats


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    view = array.view()
    view.flags.writeable = False
    return view


__all__ = ["COMPACT_SIZE", "ENCODINGS", "EPISODES", "VectorEnv", "unpack"]
