"""Search interfaces (docs/SEARCH.md): bot specs, bots behind one trait that see only their
seat's information set."""

from __future__ import annotations

import pytest
import tarabish as tb


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
