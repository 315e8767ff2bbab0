"""Type stubs for the Rust core (rust/py/). Kept honest by ``python -m mypy.stubtest``."""

from collections.abc import Iterable, Sequence
from typing import Any, TypedDict, final, type_check_only

import numpy
import numpy.typing

from ._actions import Action, Phase
from ._cards import Card, Suit
from ._rules import Rules
from ._runs import Run
from ._views import HandResult, Observation, Outcome, TableView

__all__ = [
    "COMPACT_LAYOUT",
    "COMPACT_SIZE",
    "MAX_TEAM_POINTS",
    "MAX_THREADS",
    "SCORE_SCALE",
    "TENSOR_SIZE",
    "HandState",
    "MatchState",
    "VectorCore",
    "__version__",
    "bot_action",
    "bot_spec",
    "card_points",
    "compare_runs",
    "deal_cards",
    "derive_seed",
    "find_runs",
    "kernels",
    "legal_plays",
    "play_random_hand",
    "run_winner",
    "score_hand",
    "self_play",
    "simulate",
    "solve",
    "solve_many",
    "tournament",
    "trick_winner",
]

TENSOR_SIZE: int
MAX_THREADS: int
COMPACT_SIZE: int
COMPACT_LAYOUT: tuple[tuple[str, str, int, int, int, int, int], ...]
MAX_TEAM_POINTS: int
SCORE_SCALE: int
__version__: str

@type_check_only
class _Kernels(TypedDict):
    running: str
    available: list[str]

def kernels() -> _Kernels:
    """The kernels this CPU runs, slowest first, and the one in use (``TARABISH_KERNEL``)."""

_Cards = str | Iterable[Card | str]
_SuitLike = Suit | str

def legal_plays(
    hand: _Cards, trick: _Cards, trump: _SuitLike, rules: Rules | None = None
) -> list[Card]: ...
def trick_winner(trick: _Cards, trump: _SuitLike) -> int: ...
def card_points(card: Card | str, trump: _SuitLike) -> int: ...
def find_runs(hand: _Cards) -> list[Run]: ...
def compare_runs(a: Run, b: Run, trump: _SuitLike) -> int: ...
def run_winner(runs_by_seat: Sequence[Sequence[Run]], trump: _SuitLike) -> int | None: ...
def score_hand(
    points: Sequence[int], caller_team: int, rules: Rules | None = None
) -> tuple[Outcome, tuple[int, int]]: ...
def deal_cards(seed: int, dealer: int) -> list[list[Card]]: ...
def play_random_hand(
    seed: int,
    dealer: int | None = None,
    rules: Rules | None = None,
    scores_before: Sequence[int] | None = None,
) -> HandState: ...
def bot_action(state: HandState, bot: str, seed: int | None = None) -> int: ...
def bot_spec(text: str) -> str: ...

_RawSolution = tuple[
    int, int, int, list[tuple[int, int]], list[int], tuple[int, int] | None, int | None
]

def solve(state: object) -> _RawSolution: ...
def solve_many(states: Iterable[object], threads: object) -> list[_RawSolution]: ...
def simulate(
    *,
    start: int,
    stop: int,
    seed: int,
    bots: Sequence[str],
    rules: Rules | None = None,
    threads: int = 0,
    matches: bool = False,
) -> dict[str, Any]: ...
def derive_seed(seed: int, index: int) -> int: ...
def self_play(
    hands: int,
    bots: Sequence[str],
    *,
    seed: int,
    encoding: str,
    rules: Rules | None = None,
    threads: int = 0,
) -> dict[str, Any]: ...

@final
class VectorCore:
    """The vectorized environment over the observation arrays it writes in place
    (python/tarabish/vector.py makes them and keeps them; they are checked here once)."""

    def __new__(
        cls,
        num_envs: int,
        *,
        rules: Rules | None,
        controlled: Sequence[int],
        opponents: str | None,
        episode: str,
        encoding: str,
        threads: int,
        seed: int,
        arrays: Sequence[Any],
    ) -> VectorCore: ...
    def reset(self, results: Sequence[Any], seed: int | None = None) -> None:
        """Starts a new episode in every game (`seed`: as a new vector seeded so), its results
        (all zero) written into `results`."""
    def step(self, actions: Any, results: Sequence[Any]) -> None:
        """One step in every game; `actions` an int64 array, one action a game; the step's
        rewards, ends and scores written into `results`. A bad or illegal action raises and
        changes nothing."""
    def record(self, i: int) -> tuple[int, int, bytes]:
        """Game `i`'s episode so far: (seed, first dealer, actions as bytes)."""

def tournament(
    *,
    start: int,
    stop: int,
    seed: int,
    bots: Sequence[str],
    rules: Rules | None = None,
    threads: int = 0,
) -> dict[str, Any]: ...

@final
class HandState:
    """One hand of Tarabish: the auction (R3), nine tricks (R5) and the score (R6).

    `HandState(dealer, seed=42)` deals from a seed (the seeded deal of docs/ENGINE.md);
    `HandState(dealer, deal=[...])` takes four lists of nine cards, seat 0 first, the last three
    of each the kitty (R2.4). `rules` (default `Rules()`) and `scores_before` (the match totals
    before the hand, for R3.4) are optional. A state is a value: `clone()` is cheap, `==`
    compares everything, it pickles and round-trips through JSON. `apply` checks every rule and
    changes nothing when it refuses an action.
    """

    def __new__(
        cls,
        dealer: int | None = None,
        *,
        seed: int | None = None,
        deal: Sequence[_Cards] | None = None,
        rules: Rules | None = None,
        scores_before: Sequence[int] | None = None,
    ) -> HandState: ...
    @property
    def rules(self) -> Rules:
        """The `Rules` the hand is played under (R9)."""
    @property
    def dealer(self) -> int:
        """The dealer's seat, 0-3 (R2.2)."""
    @property
    def scores_before(self) -> tuple[int, int]:
        """The match totals (team 0, team 1) before this hand; they decide who is forced under
        `forced_at` (R3.4).
        """
    @property
    def phase(self) -> Phase:
        """Where the hand stands: `Phase.AUCTION` (R3), `Phase.PLAY` (R5) or `Phase.DONE`."""
    @property
    def to_move(self) -> int | None:
        """The seat to act, or None once the hand is over."""
    @property
    def is_terminal(self) -> bool:
        """True once the hand is over: nine tricks played (R5.3), or nobody called (R3.3)."""
    @property
    def trump(self) -> Suit | None:
        """The trump `Suit`, or None before it is named (R3)."""
    @property
    def caller(self) -> int | None:
        """The seat that named trump, or None before (R3)."""
    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's cards now, four tuples of `Card`: the whole state, hidden cards
        included (a player's view is `observation(seat)`).
        """
    @property
    def deal(self) -> list[list[Card]]:
        """The deal as received: four lists of nine cards, seat 0 first, the last three of
        each the kitty (R2.4).
        """
    @property
    def actions(self) -> list[Action]:
        """Every action taken so far, in order, as `Action` values."""
    @property
    def points(self) -> tuple[int, int]:
        """Each team's points credited so far (team 0, team 1): cards, last, and runs and bella once
        known (R6.1).
        """
    @property
    def result(self) -> HandResult | None:
        """The `HandResult` once the hand is over (outcome, points, score, runs, bella, tricks: R6),
        else None.
        """
    def allowed_action_ids(self, seat: int | None = None) -> list[int]:
        """Every action id the engine accepts from `seat` now (default: the seat to move),
        ascending: with `enforce_legal_play = False` misplays and calls too (R8; docs/TABLE.md).
        """
    def legal_action_ids(self, seat: int | None = None) -> list[int]:
        """The action ids `seat` (default: the seat to move) may take now without breaking a rule,
        ascending (R0: 0-35 play that card, 36-39 call C D H S, 40 pass; 41-45 table mode);
        empty once the hand is over.
        """
    def allowed_actions(self, seat: int | None = None) -> list[Action]:
        """`allowed_action_ids(seat)` as `Action` values."""
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """`legal_action_ids(seat)` as `Action` values."""
    def apply(self, action: Action | int | str, seat: int | None = None) -> None:
        """Take an action: an `Action`, record text such as `"2 play JH"`, or an id (for `seat`,
        default the seat to move). Every rule is checked: a refused action raises
        `IllegalActionError` (naming the action, the rule and the state) or `InvalidInputError`,
        and changes nothing.
        """
    def clone(self) -> HandState:
        """An independent copy (cheap: the core state is a plain value)."""
    def __copy__(self) -> HandState: ...
    def __deepcopy__(self, memo: Any) -> HandState: ...
    def __eq__(self, value: object, /) -> bool: ...
    def sample_world(self, seat: int, seed: int) -> HandState:
        """A world `seat` cannot tell from this one, drawn uniformly from a generator seeded
        `seed`: same rules, dealer, scores and actions; `observation(seat)` identical
        (docs/SEARCH.md).
        """
    def sample_worlds(self, seat: int, seed: int, count: int) -> list[HandState]:
        """`count` worlds drawn in turn from one generator seeded `seed` (docs/SEARCH.md)."""
    def count_worlds(self, seat: int) -> int:
        """How many worlds `seat` cannot tell from this one (docs/SEARCH.md)."""
    def observation(self, seat: int) -> Observation:
        """Everything `seat` may know now and nothing more, as an `Observation`
        (R2.4, R4.4, R4.5).
        """
    def information_state_tensor(self, seat: int) -> numpy.typing.NDArray[numpy.float32]:
        """What `seat` knows, as a numpy float32 vector of `TENSOR_SIZE` values (layout in
        docs/ENGINE.md).
        """
    def information_state_string(self, seat: int) -> str:
        """What `seat` knows, as text (docs/ENGINE.md)."""
    def table_view(self, seat: int) -> TableView:
        """What a person at `seat` sees on the table now, as a `TableView` (R8.4; docs/TABLE.md)."""
    def table_view_json(self, seat: int) -> str:
        """`table_view(seat).to_dict()` as compact JSON text, written without building the view
        (for a server that sends it after every action; docs/TABLE.md).
        """
    def events(self, seat: int | None = None, since: int = 0) -> list[dict[str, Any]]:
        """The events `seat` is told (None: a spectator's public events), those after `since`, in
        order (docs/EVENTS.md).
        """
    def to_json(self) -> str:
        """The state as JSON text: rules, dealer, scores before, deal and actions
        (docs/ENGINE.md).
        """
    @staticmethod
    def from_json(text: str | bytes) -> HandState:
        """A state from `to_json`'s text, checked by replaying every action; bad text raises
        `InvalidInputError`.
        """
    def __reduce__(self) -> tuple[Any, ...]: ...

@final
class MatchState:
    """A match (R7): hands in turn until, after a hand, a team has `rules.target` points or more
    and the totals differ; the team with more wins.

    `MatchState(seed=7)` deals hand i from the seed `derive(seed, i)`, dealt by seat
    `(first_dealer + i) % 4` (docs/ENGINE.md "Matches"); `rules`, `first_dealer` (default 0) and
    `scores` (the totals to start from) are optional. The current hand is `hand`, the finished
    ones `history`; `apply` acts in the current hand and deals the next one when it ends.
    """

    def __new__(
        cls,
        *,
        seed: int,
        rules: Rules | None = None,
        first_dealer: int | None = None,
        scores: Sequence[int] | None = None,
    ) -> MatchState: ...
    @property
    def rules(self) -> Rules:
        """The `Rules` the match is played under (R9)."""
    @property
    def seed(self) -> int:
        """The match seed: hand i is dealt from `derive(seed, i)`."""
    @property
    def first_dealer(self) -> int:
        """The dealer of the first hand (R2.1)."""
    @property
    def start_scores(self) -> tuple[int, int]:
        """The totals (team 0, team 1) the match started from."""
    @property
    def scores(self) -> tuple[int, int]:
        """The match totals now (team 0, team 1): `start_scores` plus every finished hand's
        score (R7.2).
        """
    @property
    def hand_index(self) -> int:
        """The number of the current hand, from 0."""
    @property
    def hand(self) -> HandState:
        """The current hand, as a `HandState` (a copy: applying to it leaves the match
        unchanged).
        """
    @property
    def history(self) -> list[HandState]:
        """The finished hands in order, as `HandState` copies."""
    @property
    def winner(self) -> int | None:
        """The team that won (R7.1), or None while the match goes on."""
    @property
    def is_terminal(self) -> bool:
        """True once the match is over (R7.1)."""
    @property
    def phase(self) -> Phase:
        """The current hand's phase."""
    @property
    def to_move(self) -> int | None:
        """The seat to act in the current hand, or None once the match is over."""
    @property
    def dealer(self) -> int:
        """The current hand's dealer (R2.2)."""
    def allowed_action_ids(self, seat: int | None = None) -> list[int]:
        """Every action id the engine accepts from `seat` now in the current hand (as
        `HandState.allowed_action_ids`).
        """
    def legal_action_ids(self, seat: int | None = None) -> list[int]:
        """The action ids `seat` may take now in the current hand (as
        `HandState.legal_action_ids`); empty once the match is over.
        """
    def allowed_actions(self, seat: int | None = None) -> list[Action]:
        """`allowed_action_ids(seat)` as `Action` values."""
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """`legal_action_ids(seat)` as `Action` values."""
    def apply(self, action: Action | int | str, seat: int | None = None) -> None:
        """Take an action in the current hand (as `HandState.apply`: checked, and nothing changes
        when refused). When it ends the hand, the hand goes to `history`, its score to `scores`,
        and the next hand is dealt unless the match is won (R7.1).
        """
    def clone(self) -> MatchState:
        """An independent copy of the match, history included."""
    def __copy__(self) -> MatchState: ...
    def __deepcopy__(self, memo: Any) -> MatchState: ...
    def __eq__(self, value: object, /) -> bool: ...
    def observation(self, seat: int) -> Observation:
        """What `seat` may know of the current hand (as `HandState.observation`)."""
    def information_state_tensor(self, seat: int) -> numpy.typing.NDArray[numpy.float32]:
        """What `seat` knows of the current hand, as a numpy float32 vector (as
        `HandState.information_state_tensor`).
        """
    def information_state_string(self, seat: int) -> str:
        """What `seat` knows of the current hand, as text."""
    def table_view(self, seat: int) -> TableView:
        """What a person at `seat` sees of the current hand (as `HandState.table_view`)."""
    def table_view_json(self, seat: int) -> str:
        """`table_view(seat).to_dict()` of the current hand as compact JSON text (as
        `HandState.table_view_json`).
        """
    def events(self, seat: int | None = None, since: int = 0) -> list[dict[str, Any]]:
        """The events `seat` is told across the whole match, those after `since`
        (docs/EVENTS.md).
        """
    def to_json(self) -> str:
        """The match as JSON text: rules, seed, first dealer, start scores and every action
        (docs/ENGINE.md).
        """
    @staticmethod
    def from_json(text: str | bytes) -> MatchState:
        """A match from `to_json`'s text, checked by replaying every action; bad text raises
        `InvalidInputError`.
        """
    def __reduce__(self) -> tuple[Any, ...]: ...
