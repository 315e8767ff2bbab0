"""Search interfaces (docs/SEARCH.md): bot specs, bots behind one trait that see only their
seat's information set."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
import tarabish as tb
from tarabish import _core
from tarabish._python_sim import play_range


def test_bot_specs_are_checked_and_canonical() -> None:
    assert tb.bot_spec("Greedy") == "greedy"
    assert tb.bot_spec({"name": "random"}) == "random"
    for bad in ("oracle", "random:depth=3", "random:depth", {"name": 3}, {"depth": 1}, 7):
        with pytest.raises(tb.InvalidInputError):
            tb.bot_spec(bad)  # type: ignore[arg-type]


def test_simulate_takes_spec_dicts_like_text() -> None:
    text = tb.simulate(hands=200, seed=3, bots=("greedy", "random"), threads=1)
    dicts = tb.simulate(hands=200, seed=3, bots=({"name": "greedy"}, "random"), threads=1)
    assert text.counts() == dicts.counts()
    assert text.bots == ("greedy", "random", "greedy", "random")


def test_bot_action_is_legal_and_needs_a_running_hand() -> None:
    state = tb.HandState(1, seed=4)
    while not state.is_terminal:
        action = tb.bot_action(state, "greedy", seed=1)
        assert action in state.legal_action_ids()
        state.apply(action)
    with pytest.raises(tb.InvalidInputError):
        tb.bot_action(state, "greedy")


BOTS = [
    "random",
    "greedy",
    "heuristic",
    "ismcts:iterations=300,seed=4",
    "ismcts:iterations=300,threads=2,playout=0,bid=0",
]


def running_states(count: int) -> list[tb.HandState]:
    """Hands stopped at a random decision (auction or play, every R5.1 variant)."""
    rng = random.Random(17)
    states = []
    variants = [tb.Rules(), tb.Rules(head_plain=True, undertrump_optional=True)]
    for k in range(count):
        state = tb.HandState(k % 4, seed=k, rules=variants[k % 2])
        for _ in range(rng.randrange(40)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_action_ids()))
        if not state.is_terminal:
            states.append(state)
    return states


@pytest.mark.parametrize("bot", BOTS)
def test_a_decision_does_not_change_when_hidden_cards_are_redealt(bot: str) -> None:
    """The leak test: re-deal what the seat to move cannot see (``sample_world``); a bot with
    a fixed seed must choose the same action, or it read a hidden card."""
    for state in running_states(25 if bot.startswith("ismcts") else 120):
        seat = state.to_move
        assert seat is not None
        chosen = tb.bot_action(state, bot, seed=9)
        assert chosen in state.legal_action_ids()
        for world in state.sample_worlds(seat, seed=3, count=3):
            assert tb.bot_action(world, bot, seed=9) == chosen


def test_ismcts_is_deterministic_for_a_seed_and_thread_count() -> None:
    for state in running_states(8):
        for spec in ("ismcts:iterations=400,threads=2", "ismcts:iterations=400"):
            assert tb.bot_action(state, spec, seed=5) == tb.bot_action(state, spec, seed=5)


def test_bot_specs_with_parameters() -> None:
    spec = tb.bot_spec({"name": "ismcts", "iterations": 100, "c": 1.0})
    assert spec == "ismcts:iterations=100,c=1,threads=1,seed=0,playout=1,bid=1"
    assert tb.bot_spec(spec) == spec
    for bad in ("ismcts:iterations=0", "ismcts:threads=0", "ismcts:depth=2", "heuristic:c=1"):
        with pytest.raises(tb.InvalidInputError):
            tb.bot_spec(bad)
    summary = tb.simulate(hands=4, seed=1, bots=("ismcts:iterations=50", "heuristic"), threads=1)
    assert summary.hands == 4


class FirstLegal:
    """A bot written in Python: always the lowest legal id; counts its decisions."""

    name = "first-legal"

    def __init__(self) -> None:
        self.decisions = 0

    def act(self, observation: tb.Observation, legal_ids: list[int]) -> int:
        self.decisions += 1
        assert observation.to_move == observation.seat
        return legal_ids[0]


def test_simulate_takes_bots_written_in_python() -> None:
    bot = FirstLegal()
    summary = tb.simulate(hands=30, seed=2, bots=(bot, "heuristic"), threads=0)
    assert summary.hands == 30 and summary.threads == 1
    assert summary.bots == ("first-legal", "heuristic", "first-legal", "heuristic")
    assert bot.decisions > 30 * 18  # both of its seats play nine cards a hand
    again = tb.simulate(hands=30, seed=2, bots=(FirstLegal(), "heuristic"))
    assert again.counts() == summary.counts()
    matches = tb.simulate(matches=2, seed=2, bots=(FirstLegal(), "random"))
    assert sum(matches.match_wins) == 2 and matches.hands >= 2


def test_python_bots_play_table_mode() -> None:
    """Under table rules a Python bot gets the seat's legal ids, calls included (docs/TABLE.md):
    one that throws in at its first chance ends every hand by a throw-in, the count going to
    the other team (R8.3)."""

    class ThrowIn:
        def act(self, observation: tb.Observation, legal_ids: list[int]) -> int:
            throw = 45  # docs/TABLE.md "Action ids and text": throw
            return throw if throw in legal_ids else legal_ids[0]

    rules = tb.Rules(declarations="manual", enforce_legal_play=False)
    summary = tb.simulate(hands=20, seed=4, bots=(ThrowIn(), "greedy"), rules=rules)
    assert summary.throw_in == 20 == summary.hands
    assert summary.score_by_team[0] == 0 and summary.score_by_team[1] >= 162 * 20


def test_a_python_bot_choosing_an_illegal_id_is_refused() -> None:
    class Cheat:
        def act(self, observation: tb.Observation, legal_ids: list[int]) -> int:
            return 99

    with pytest.raises(tb.IllegalActionError):
        tb.simulate(hands=1, seed=0, bots=Cheat())


def test_play_against_ismcts_from_standard_input() -> None:
    """``tarabish play --bot SPEC``: a whole match against a parameterised ISMCTS (R7.1)."""
    done = subprocess.run(
        [sys.executable, "-m", "tarabish", "play", "--seed", "5", "--bot", "ismcts:iterations=50"],
        input="1\n" * 400,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "win the match" in done.stdout


@pytest.mark.parametrize(
    "rules",
    [
        tb.Rules(),
        tb.Rules(head_plain=True, partner_exempt=True, team_runs=True),
        tb.Rules(undertrump_optional=True, dealer_may_pass=True, half_bait_is_bait=True),
    ],
)
def test_batches_give_bots_the_information_set_built_from_scratch(rules: tb.Rules) -> None:
    """rust/sim.rs keeps each hand's information sets up to date action by action
    (``InfoTracker``); the Python path asks ``bot_action`` for every decision, which builds the
    seat's information set from the state. The heuristic and greedy bots are deterministic, so
    the two paths play the same games exactly when every decision saw the same information
    set (R4.4 declarations seen, R5.1 voids, R2.4 own cards)."""
    bots = ["heuristic", "greedy", "greedy", "heuristic"]
    for matches, games in ((False, 120), (True, 3)):
        batch = _core.simulate(
            start=0, stop=games, seed=5, bots=bots, rules=rules, threads=1, matches=matches
        )
        one_by_one = play_range(
            start=0, stop=games, threads=1, seed=5, bots=list(bots), rules=rules, matches=matches
        )
        assert batch == one_by_one
