"""Tarabish as OpenSpiel games (optional extra ``openspiel``: ``pip install tarabish[openspiel]``).

Importing this module registers two games with ``pyspiel.register_game``:

- ``"tarabish"``: one hand (R2-R6). Parameters: every R9 option by its ``tb.Rules`` field name
  (``forced_at=0`` stands for none), ``dealer`` (0-3) and ``scores_before_0``/``_1`` (the match
  totals before the hand, which R3.4 reads). Returns: each seat's team score for the hand minus
  the other team's (R6.2-R6.4).
- ``"tarabish_match"``: a match to ``target`` (R7), hands dealt in turn from ``dealer`` on
  (R2.2). Returns: +1 to the seats of the team that wins, -1 to the others (R7.1).

Chance nodes deal the cards one at a time in R2.4's order (three rounds, three cards a seat
from eldest clockwise; a chance outcome is the card's index, 0-35, uniform over the cards not
yet dealt), so the deal is uniform and every deal possible. Player actions are tarabish's ids
(R0, docs/TABLE.md): what ``HandState.allowed_action_ids`` gives the seat to move, so in table
mode (R8) misplays, and calls made on one's own turn; a call out of turn has no place in a
turn-based game. The information-state tensor and string are ``HandState``'s own
(docs/ENGINE.md); the observation is the same (it holds the hand's whole public history).
During the deal they show what the seat has received so far (R2.4: not its kitty).
``resample_from_infostate`` draws the world from ``HandState.sample_world``, uniform over the
worlds the seat cannot tell apart (docs/SEARCH.md); states serialize as OpenSpiel's action
history. ``TarabishBot`` plays any tarabish bot inside OpenSpiel (``evaluate_bots``).
"""

from __future__ import annotations

import math
import random
from dataclasses import fields
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from . import _core
from ._actions import NUM_ACTIONS, Action, Phase
from ._cards import DECK, Card
from ._errors import excerpt
from ._python_bots import PythonBot
from ._rules import Rules
from ._simulate import BotSpec
from ._tournament import check_bot
from ._views import Observation
from .reference._observe import MAX_TEAM_POINTS, information_state_string

__all__ = ["HAND_GAME", "MATCH_GAME", "TarabishBot"]

HAND_GAME = "tarabish"
"""The short name of the one-hand game."""
MATCH_GAME = "tarabish_match"
"""The short name of the match game."""

SEATS = 4
DECK_SIZE = len(DECK)
PACKET = 3  # R2.4: three cards at a time
ROUNDS = 3  # R2.4: three rounds, nine cards a seat
FIRST_SEEN = 6  # R2.4: before trump a seat knows only its first six cards
NO_FORCED_AT = 0  # the parameter's value for R3.4 off (OpenSpiel parameters are never None)
MAX_AUCTION = 4  # R3.1: each seat speaks at most once
TABLE_DECLARATIONS = 3 * SEATS  # R8.6d-e: at most an announce, a show and a bella a seat
MAX_CALLS = 1  # R8.2, R8.3: a call ends the hand
MAX_HAND_ACTIONS = MAX_AUCTION + DECK_SIZE + TABLE_DECLARATIONS + MAX_CALLS
LEAST_SCORED = 81
"""The fewest points a hand that is played out adds to the totals (R6: a half bait scores the
other team half the count of at least 162)."""
WIN, LOSS = 1.0, -1.0
SEED_WORDS = 2  # a resampling seed is two 32-bit draws of OpenSpiel's sampler
WORD = 2**32


def _deal_order(dealer: int) -> list[int]:
    """The seat receiving each of the 36 cards in turn (R2.4)."""
    eldest = (dealer + 1) % SEATS
    return [
        (eldest + offset) % SEATS
        for _ in range(ROUNDS)
        for offset in range(SEATS)
        for _ in range(PACKET)
    ]


_RULE_DEFAULTS: dict[str, Any] = {
    field.name: NO_FORCED_AT if field.name == "forced_at" else field.default
    for field in fields(Rules)
}


def _rules(params: dict[str, Any]) -> Rules:
    """The ``Rules`` of a game's parameters (``forced_at=0``: none); checked by ``Rules``."""
    options = {name: params[name] for name in _RULE_DEFAULTS}
    if options["forced_at"] == NO_FORCED_AT:
        options["forced_at"] = None
    return Rules(**options)


def _game_type(short_name: str, long_name: str, extra: dict[str, Any]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=SEATS,
        min_num_players=SEATS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**_RULE_DEFAULTS, "dealer": 0, **extra},
    )


_HAND_TYPE = _game_type(
    HAND_GAME, "Tarabish (one hand)", {"scores_before_0": 0, "scores_before_1": 0}
)
_MATCH_TYPE = _game_type(MATCH_GAME, "Tarabish (a match)", {})


class _TarabishGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """A Tarabish game of OpenSpiel: its parameters read into ``rules``, ``dealer`` (the first
    hand's) and ``scores_before`` (a hand's; a match starts from 0 to 0)."""

    def __init__(
        self, game_type: pyspiel.GameType, params: dict[str, Any] | None, *, match: bool
    ) -> None:
        given = {**game_type.parameter_specification, **(params or {})}
        self.rules = _rules(given)
        self.match = match
        self.dealer = given["dealer"]
        self.scores_before = (
            (0, 0) if match else (given["scores_before_0"], given["scores_before_1"])
        )
        # The dealer and scores checked as a hand checks them, before anything is played.
        _core.HandState(self.dealer, seed=0, rules=self.rules, scores_before=self.scores_before)
        if match:
            hands = math.ceil(2 * self.rules.target / LEAST_SCORED) + 1
            utility, length = WIN, hands * MAX_HAND_ACTIONS
        else:
            utility, length = float(MAX_TEAM_POINTS), MAX_HAND_ACTIONS
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=DECK_SIZE,
            num_players=SEATS,
            min_utility=-utility,
            max_utility=utility,
            utility_sum=0.0,
            max_game_length=length,
        )
        super().__init__(game_type, info, params or {})

    def new_initial_state(self) -> TarabishState:
        """The hand (or match) before its first card is dealt."""
        return TarabishState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> _Observer:
        """The observer of the information-state tensor and string (both kinds are the same)."""
        return _Observer(iig_obs_type, params)


class TarabishHandGame(_TarabishGame):
    """One hand of Tarabish (game ``"tarabish"``); see the module docstring."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_HAND_TYPE, params, match=False)


class TarabishMatchGame(_TarabishGame):
    """A match of Tarabish to ``target`` (game ``"tarabish_match"``); see the module docstring.

    ``max_game_length`` counts the actions of the hands a match takes when every hand adds at
    least 81 points to the totals; void hands (R3.3), hands ended by a call before any points
    (R8.2, R8.3) and equal totals (R7.1) can make a match longer."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_MATCH_TYPE, params, match=True)


class TarabishState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type information
    """A hand (or a match) being dealt or played: the cards dealt so far, then the Rust
    ``HandState`` of the hand; in a match also the finished hands and the totals."""

    def __init__(self, game: _TarabishGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._match = game.match
        self._dealer = game.dealer
        self._totals = game.scores_before
        self._dealt: list[int] = []
        self._hand: _core.HandState | None = None
        self._finished: list[_core.HandState] = []

    @property
    def hand(self) -> _core.HandState | None:
        """The current hand's ``HandState`` once its 36 cards are dealt, else None."""
        return self._hand

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` while cards are dealt, ``TERMINAL`` once over."""
        hand = self._hand
        if hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        to_move = hand.to_move
        return int(pyspiel.PlayerId.TERMINAL) if to_move is None else to_move

    def is_terminal(self) -> bool:
        """The hand is over (in a match: the hand that ends it, R7.1)."""
        return self._hand is not None and self._hand.is_terminal

    def _legal_actions(self, player: int) -> list[int]:
        hand = self._hand
        assert hand is not None and player == hand.to_move
        return hand.allowed_action_ids(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet dealt, each with the same probability (a uniform deal)."""
        left = sorted(set(range(DECK_SIZE)) - set(self._dealt))
        return [(card, 1 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        hand = self._hand
        if hand is None:
            self._dealt.append(action)
            if len(self._dealt) == DECK_SIZE:
                self._hand = _core.HandState(
                    self._dealer,
                    deal=self._received(),
                    rules=self._rules,
                    scores_before=self._totals,
                )
            return
        hand.apply(action, hand.to_move)
        result = hand.result
        if self._match and result is not None:
            totals = (self._totals[0] + result.score[0], self._totals[1] + result.score[1])
            if not _match_won(totals, self._rules.target):
                # R7.1: the match goes on; R2.2: the next dealer deals a new hand.
                self._finished.append(hand)
                self._totals = totals
                self._dealer = (self._dealer + 1) % SEATS
                self._dealt = []
                self._hand = None

    def _received(self) -> list[list[Card]]:
        """Each seat's cards so far, in the order received (R2.4)."""
        cards: list[list[Card]] = [[] for _ in range(SEATS)]
        for seat, card in zip(_deal_order(self._dealer), self._dealt, strict=False):
            cards[seat].append(Card.from_index(card))
        return cards

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            seat = _deal_order(self._dealer)[len(self._dealt)]
            return f"deal {Card.from_index(action)} to seat {seat}"
        return str(Action.from_id(action, player))

    def returns(self) -> list[float]:
        """Zero until the end; then each seat's team score minus the other team's (a hand) or
        +1 and -1 (a match)."""
        hand = self._hand
        if hand is None or hand.result is None:
            return [0.0] * SEATS
        score = hand.result.score
        if self._match:
            totals = (self._totals[0] + score[0], self._totals[1] + score[1])
            winner = 0 if totals[0] > totals[1] else 1
            return [WIN if seat % 2 == winner else LOSS for seat in range(SEATS)]
        return [float(score[seat % 2] - score[1 - seat % 2]) for seat in range(SEATS)]

    def view_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """What ``seat`` knows: ``HandState.information_state_tensor(seat)`` once dealt;
        during the deal the same layout holding what the seat has received so far."""
        _check_seat(seat)
        if self._hand is not None:
            return self._hand.information_state_tensor(seat)
        return self._deal_view(seat).tensor()

    def view_string(self, seat: int) -> str:
        """What ``seat`` knows as text: ``HandState.information_state_string(seat)`` once
        dealt; during the deal a line counting the cards dealt, then the same text."""
        _check_seat(seat)
        if self._hand is not None:
            return self._hand.information_state_string(seat)
        dealt = f"dealt {len(self._dealt)} of {DECK_SIZE}"
        return dealt + "\n" + information_state_string(self._deal_view(seat))

    def _deal_view(self, seat: int) -> Observation:
        """What ``seat`` knows while the cards are dealt (R2.4: its first six cards only)."""
        received = self._received()
        sizes = [len(cards) for cards in received]
        return Observation(
            seat=seat,
            dealer=self._dealer,
            phase=Phase.AUCTION,
            to_move=None,
            scores_before=self._totals,
            hand=tuple(sorted(received[seat][:FIRST_SEEN], key=lambda card: card.index)),
            unseen_kitty=PACKET,
            auction=(),
            trump=None,
            caller=None,
            trick_leader=None,
            trick=(),
            tricks=(),
            announced=(None, None, None, None),
            shown=((), (), (), ()),
            runs=None,
            bella=None,
            points=(0, 0),
            hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
        )

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TarabishState:
        """A state ``player_id`` cannot tell from this one, drawn with ``probability_sampler``
        (OpenSpiel's uniform sampler), replayed from the start so that its history is its own:
        in play, the hand is ``HandState.sample_world`` (uniform over the worlds the seat
        cannot tell apart, docs/SEARCH.md); during the deal, the cards the seat has not seen are
        shuffled uniformly over the places they went to. A match's finished hands stay."""
        _check_seat(player_id)
        seed = 0
        for _ in range(SEED_WORDS):
            seed = seed * WORD + int(probability_sampler() * WORD)
        state: TarabishState = self.get_game().new_initial_state()
        for hand in self._finished:
            state._replay(hand)
        if self._hand is not None:
            state._replay(self._hand.sample_world(player_id, seed))
        else:
            for card in self._resampled_deal(player_id, seed):
                state.apply_action(card)
        return state

    def _replay(self, hand: _core.HandState) -> None:
        """Deal ``hand``'s cards in R2.4's order and apply its actions."""
        received = [0] * SEATS
        for seat in _deal_order(hand.dealer):
            self.apply_action(hand.deal[seat][received[seat]].index)
            received[seat] += 1
        for action in hand.actions:
            self.apply_action(action.id)

    def _resampled_deal(self, seat: int, seed: int) -> list[int]:
        """The cards dealt so far, those ``seat`` has not seen drawn again from the cards it
        has not seen (uniformly, by a generator seeded ``seed``)."""
        order = _deal_order(self._dealer)
        seen = {
            place
            for place in range(len(self._dealt))
            if order[place] == seat and order[:place].count(seat) < FIRST_SEEN
        }
        visible = {self._dealt[place] for place in seen}
        pool = [card for card in range(DECK_SIZE) if card not in visible]
        random.Random(seed).shuffle(pool)
        drawn = iter(pool)
        return [card if place in seen else next(drawn) for place, card in enumerate(self._dealt)]

    def __str__(self) -> str:
        lines = [f"totals {self._totals[0]} {self._totals[1]} dealer {self._dealer}"]
        if self._match:
            lines[0] = f"hand {len(self._finished)} " + lines[0]
        hand = self._hand
        received = hand.deal if hand is not None else self._received()
        lines += [
            f"seat {seat}: {' '.join(str(card) for card in cards) or '-'}"
            for seat, cards in enumerate(received)
        ]
        if hand is not None:
            lines.append("actions: " + (", ".join(str(a) for a in hand.actions) or "-"))
        return "\n".join(lines)


def _match_won(totals: tuple[int, int], target: int) -> bool:
    """R7.1: a team has ``target`` points or more and the totals differ."""
    return max(totals) >= target and totals[0] != totals[1]


def _check_seat(seat: int) -> None:
    if not 0 <= seat < SEATS:
        raise ValueError(f"a player is a seat 0..3 (R0), got {excerpt(seat)}")


class _Observer:
    """OpenSpiel's observer interface: ``tensor`` (one piece, ``"information_state"``),
    ``dict``, ``set_from(state, player)`` and ``string_from(state, player)``."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType | None, params: Any) -> None:
        if params:
            raise ValueError(f"tarabish observers take no parameters, got {params!r}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "tarabish observes one seat with the public information (the information state)"
            )
        self.tensor = np.zeros(_core.TENSOR_SIZE, np.float32)
        self.dict = {"information_state": self.tensor}

    def set_from(self, state: TarabishState, player: int) -> None:
        """Fill ``tensor`` with what ``player`` knows in ``state``."""
        self.tensor[:] = state.view_tensor(player)

    def string_from(self, state: TarabishState, player: int) -> str:
        """What ``player`` knows in ``state``, as text."""
        return state.view_string(player)


class TarabishBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no type information
    """A tarabish bot playing ``player``'s seat inside OpenSpiel (``evaluate_bots``): ``spec``
    is a bot spec (``"heuristic"``, ``"ismcts:iterations=1000"``, a dict) or a Python bot
    (``act(observation, legal_ids)``). The ``k``-th decision since ``restart_at`` uses the seed
    ``derive(seed, k)``, so a game is replayed exactly."""

    def __init__(self, game: pyspiel.Game, player: int, spec: BotSpec | PythonBot, seed: int = 0):
        pyspiel.Bot.__init__(self)
        if not isinstance(game, _TarabishGame):
            raise ValueError(f"a TarabishBot plays {HAND_GAME} or {MATCH_GAME}, got {game}")
        _check_seat(player)
        self._player = player
        self._bot = check_bot(spec)
        self._seed = seed
        _core.derive_seed(seed, 0)  # the seed checked now (0..2**64-1)
        self._decisions = 0

    def player_id(self) -> int:
        """The seat this bot plays."""
        return self._player

    def provides_policy(self) -> bool:
        """A tarabish bot gives its action, not a policy."""
        return False

    def restart_at(self, state: pyspiel.State) -> None:
        """Start counting decisions again (a new game)."""
        del state
        self._decisions = 0

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Nothing to track: the bot reads the state it is asked about."""
        del state, player_id, action

    def step(self, state: pyspiel.State) -> int:
        """The bot's action id for ``state``, where its seat is to move."""
        if not isinstance(state, TarabishState) or state.current_player() != self._player:
            raise ValueError(f"TarabishBot for seat {self._player} asked to move in {state}")
        hand = state.hand
        assert hand is not None
        seed = _core.derive_seed(self._seed, self._decisions)
        self._decisions += 1
        if isinstance(self._bot, str):
            return _core.bot_action(hand, self._bot, seed)
        return self._bot.act(hand.observation(self._player), hand.legal_action_ids())


pyspiel.register_game(_HAND_TYPE, TarabishHandGame)
pyspiel.register_game(_MATCH_TYPE, TarabishMatchGame)
