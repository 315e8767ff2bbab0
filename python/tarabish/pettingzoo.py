"""A PettingZoo AEC environment for Tarabish (optional extra ``rl``: ``pip install tarabish[rl]``).

The four agents are the seats ``seat_0`` .. ``seat_3`` (teams: seats 0 and 2, seats 1 and 3,
R1.1). An episode is a match to the target (R7.1) or a single hand; the game itself is the Rust
core's ``MatchState`` / ``HandState``, so every rule of RULES.md applies and an illegal action
raises ``IllegalActionError`` naming the rule (or, with ``illegal_moves="penalize"``, ends the
episode with the offending seat's team penalised, R0's teams). Each agent observes only its
seat's information state: ``{"observation": information_state_tensor(seat), "action_mask":
legal action ids}``, as PettingZoo's classic games do. docs/RL.md documents seeds, rewards and
options.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import _core
from ._actions import NUM_ACTIONS
from ._errors import InvalidInputError
from ._rules import Rules

AGENTS = ("seat_0", "seat_1", "seat_2", "seat_3")
EPISODES = ("match", "hand")
REWARDS = ("win", "score")
ILLEGAL_MOVES = ("raise", "penalize")
DEFAULT_ILLEGAL_REWARD = -1.0
RENDER_MODES = ("human", "ansi")
SEATS = 4
SEED_LIMIT = 2**64  # game seeds are 0 .. 2**64 - 1 (docs/ENGINE.md)

Episode = Literal["match", "hand"]
Reward = Literal["win", "score"]
IllegalMoves = Literal["raise", "penalize"]


def env(**options: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are (order enforced).

    ``options`` are ``TarabishEnv``'s: ``episode``, ``reward``, ``rules``, ``render_mode``,
    ``illegal_moves``, ``illegal_reward``.
    """
    return wrappers.OrderEnforcingWrapper(TarabishEnv(**options))


class TarabishEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """Tarabish as an AEC game of four seats; see the module docstring and docs/RL.md.

    ``episode="match"`` (default) plays a match to ``rules.target``; ``"hand"`` one hand.
    ``reward="win"`` (default) pays +1 to each seat of the team that wins the episode (the
    match; for a hand, the team that scores more) and -1 to the others, once, at the end;
    ``"score"`` pays, as each hand ends, the seat's team's score for the hand minus the other
    team's (R6.2-R6.4), so rewards are zero-sum either way.

    ``illegal_moves="raise"`` (default) refuses an illegal action id with
    ``IllegalActionError`` and changes nothing; ``"penalize"`` ends the episode instead: both
    seats of the team that moved illegally get ``illegal_reward`` (default -1) and both seats of
    the other team its opposite (the teams of R0 win and lose together), and the offending
    agent's info says ``"illegal_move": True``.
    """

    metadata = {  # noqa: RUF012  # PettingZoo reads it as a plain class attribute
        "render_modes": list(RENDER_MODES),
        "name": "tarabish_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        *,
        episode: Episode = "match",
        reward: Reward = "win",
        rules: Rules | None = None,
        render_mode: str | None = None,
        illegal_moves: IllegalMoves = "raise",
        illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
    ) -> None:
        super().__init__()
        if episode not in EPISODES:
            raise InvalidInputError(f"episode must be one of {EPISODES}, got {episode!r}")
        if reward not in REWARDS:
            raise InvalidInputError(f"reward must be one of {REWARDS}, got {reward!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidInputError(
                f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}"
            )
        if illegal_moves not in ILLEGAL_MOVES:
            raise InvalidInputError(
                f"illegal_moves must be one of {ILLEGAL_MOVES}, got {illegal_moves!r}"
            )
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, int | float):
            raise InvalidInputError(f"illegal_reward must be a number, got {illegal_reward!r}")
        if rules is not None and not isinstance(rules, Rules):
            raise InvalidInputError(f"rules must be a tarabish.Rules, got {rules!r}")
        if rules is not None and rules.is_table_mode:
            raise InvalidInputError(
                "the environment plays auto mode (R4.4 auto declarations, R8 legal play "
                "enforced): table mode's calls may come out of turn, which an AEC turn order "
                "cannot express"
            )
        self.episode: Episode = episode
        self.reward: Reward = reward
        self.rules = rules if rules is not None else Rules()
        self.render_mode = render_mode
        self.illegal_moves: IllegalMoves = illegal_moves
        self.illegal_reward = float(illegal_reward)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        # Every entry lies in [0, 1] (docs/ENGINE.md's layout).
        tensor = spaces.Box(0.0, 1.0, (_core.TENSOR_SIZE,), np.float32)
        mask = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        # Public, as PettingZoo's own environments have them: by agent, the tensor and the mask;
        # Discrete(46) over the action ids.
        self.observation_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Dict({"observation": tensor, "action_mask": mask}) for agent in AGENTS
        }
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS
        }
        self._rng: np.random.Generator | None = None
        self.game_seed: int | None = None
        self._game: _core.MatchState | _core.HandState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """A dict of the information-state tensor (float32) and the action mask (int8)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete over the action ids (docs/ENGINE.md); the mask says which are legal."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals a new match (or hand). ``reset(seed=s)`` plays game seed ``s`` exactly as
        ``MatchState(seed=s, first_dealer=s % 4)`` (or ``HandState(dealer=s % 4, seed=s)``);
        later resets without a seed draw their game seeds from a generator seeded with ``s``
        (from the operating system if no seed was ever given)."""
        if seed is not None:
            self._rng, _ = seeding.np_random(seed)
            game_seed = seed
        else:
            if self._rng is None:
                self._rng, _ = seeding.np_random()
            game_seed = int(self._rng.integers(0, SEED_LIMIT, dtype=np.uint64))
        dealer = game_seed % SEATS
        if self.episode == "match":
            self._game = _core.MatchState(seed=game_seed, rules=self.rules, first_dealer=dealer)
        else:
            self._game = _core.HandState(dealer, seed=game_seed, rules=self.rules)
        self.game_seed = game_seed
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self._seat_to_move()]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """What ``agent``'s seat may know, and its legal action ids as a mask (all zeros when it
        is not that seat's turn)."""
        game = self._state()
        seat = AGENTS.index(agent)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if game.to_move == seat:
            mask[game.legal_action_ids()] = 1
        return {"observation": game.information_state_tensor(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Applies ``action`` (an action id) for the agent to move; an illegal id raises
        ``IllegalActionError`` (the rule it breaks) and changes nothing, or with
        ``illegal_moves="penalize"`` ends the episode with the offending team penalised."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._state()
        if self.illegal_moves == "penalize" and _is_illegal_id(action, game):
            self._penalize(agent)
            return
        scores_before = self._scores()
        game.apply(action)  # type: ignore[arg-type]  # None is refused there, with the rule
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        scored = [
            after - before for after, before in zip(self._scores(), scores_before, strict=True)
        ]
        if self.reward == "score" and any(scored):
            for seat, name in enumerate(AGENTS):
                self.rewards[name] = float(scored[seat % 2] - scored[1 - seat % 2])
        if game.is_terminal:
            winner = self._winner()
            if self.reward == "win" and winner is not None:
                for seat, name in enumerate(AGENTS):
                    self.rewards[name] = 1.0 if seat % 2 == winner else -1.0
            self.terminations = dict.fromkeys(AGENTS, True)
        else:
            self.agent_selection = AGENTS[self._seat_to_move()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _penalize(self, agent: str) -> None:
        """Ends the episode on ``agent``'s illegal move: its team gets ``illegal_reward``, the
        other team the opposite (R0's teams); the game itself is left as it was."""
        team = AGENTS.index(agent) % 2
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {
            name: self.illegal_reward if seat % 2 == team else -self.illegal_reward
            for seat, name in enumerate(AGENTS)
        }
        self.terminations = dict.fromkeys(AGENTS, True)
        self.infos[agent] = {**self.infos[agent], "illegal_move": True}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The whole table (every seat's cards: a spectator's view) as text: returned in
        ``"ansi"`` mode, printed in ``"human"`` mode."""
        if self.render_mode is None:
            return None
        text = self._table_text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release: the game is a value in the Rust core."""

    def _state(self) -> _core.MatchState | _core.HandState:
        if self._game is None:
            raise InvalidInputError("call reset() before using the environment")
        return self._game

    def _seat_to_move(self) -> int:
        seat = self._state().to_move
        assert seat is not None, "a game that is not over has a seat to move"
        return seat

    def _scores(self) -> tuple[int, int]:
        game = self._state()
        if isinstance(game, _core.MatchState):
            return game.scores
        result = game.result
        return result.score if result is not None else (0, 0)

    def _winner(self) -> int | None:
        game = self._state()
        if isinstance(game, _core.MatchState):
            return game.winner
        team0, team1 = self._scores()
        return None if team0 == team1 else int(team1 > team0)

    def _table_text(self) -> str:
        game = self._state()
        hand = game.hand if isinstance(game, _core.MatchState) else game
        scores = (
            f"scores {game.scores[0]}-{game.scores[1]}, "
            if isinstance(game, _core.MatchState)
            else ""
        )
        trump = "no trump yet" if hand.trump is None else f"trump {hand.trump} by {hand.caller}"
        lines = [f"{scores}dealer {hand.dealer}, {trump}, points {hand.points[0]}-{hand.points[1]}"]
        for seat, cards in enumerate(hand.hands):
            marker = " <- to move" if hand.to_move == seat else ""
            lines.append(f"seat {seat}: {' '.join(str(card) for card in cards) or '-'}{marker}")
        recent = hand.actions[-4:]
        lines.append("last actions: " + (", ".join(str(action) for action in recent) or "-"))
        return "\n".join(lines)


def _is_illegal_id(action: object, game: _core.MatchState | _core.HandState) -> bool:
    """An action id (an integer, numpy's too) of R0 that the seat to move may not take now.
    Anything else is not a move at all, and ``apply`` refuses it as bad input."""
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        return False
    return 0 <= int(action) < NUM_ACTIONS and int(action) not in game.legal_action_ids()
