"""Hostile input (issue 7): every bad input raises a ``tarabish.TarabishError`` subclass with a
short message naming the rule, on both engines where both have the entry point; nothing a
crafted value carries is trusted.
"""

from __future__ import annotations

import copyreg
import pickle
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from tarabish import InvalidInputError, Rules

# ---- Rules cross the boundary by name (R9) ----------------------------------------------


class _CraftedPickle:
    """Pickles as a ``Rules`` whose attributes are set straight from ``state``, past the
    constructor (what a tampered pickle stream does)."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state

    def __reduce__(self) -> tuple[Any, ...]:
        return (copyreg._reconstructor, (Rules, object, None), self.state)


def crafted_rules(**changes: Any) -> Rules:
    state = dict(vars(Rules()))
    state.update(changes)
    rules = pickle.loads(pickle.dumps(_CraftedPickle(state)))
    assert isinstance(rules, Rules)
    return rules


def test_rules_pickle_round_trips_through_the_constructor() -> None:
    rules = Rules(target=300, forced_at=200, team_runs=True)
    assert pickle.loads(pickle.dumps(rules)) == rules
    # The pickle holds the public options only: no private packed form to tamper with.
    assert b"_packed" not in pickle.dumps(rules)


def test_rules_pickle_with_a_bad_option_is_refused() -> None:
    text = pickle.dumps(Rules(target=300), protocol=2)  # no frames: a byte edit stays valid
    tampered = text.replace(b"M,\x01", b"K\x00")  # target 300 -> 0
    assert tampered != text
    with pytest.raises(InvalidInputError, match=r"Rules\.target.*R9"):
        pickle.loads(tampered)


@pytest.mark.parametrize(
    ("changes", "pattern"),
    [
        ({"target": 0}, r"Rules\.target"),
        ({"target": 10**30}, r"Rules\.target"),
        ({"forced_at": -5}, r"Rules\.forced_at"),
        ({"team_runs": 1}, r"Rules\.team_runs"),
        ({"declarations": np.array(["auto", "manual"])}, r"Rules\.declarations"),
        ({"head_plain": np.bool_(True)}, r"Rules\.head_plain"),
        ({"_packed": 0, "target": "500"}, r"Rules\.target"),
    ],
)
def test_tampered_rules_are_refused_by_both_engines(
    engine: ModuleType, changes: dict[str, Any], pattern: str
) -> None:
    rules = crafted_rules(**changes)
    with pytest.raises(InvalidInputError, match=pattern):
        engine.HandState(0, seed=1, rules=rules)
    with pytest.raises(InvalidInputError, match=pattern):
        engine.MatchState(seed=1, rules=rules)
    with pytest.raises(InvalidInputError, match=pattern):
        engine.legal_plays(["JH"], [], "H", rules)


def test_a_stale_packed_attribute_changes_nothing(engine: ModuleType) -> None:
    """The old pickles' private ``_packed`` (target 0) is ignored: the target read is 500."""
    rules = crafted_rules(_packed=0)
    state = engine.MatchState(seed=3, rules=rules)
    assert state.rules.target == 500
    assert state == engine.MatchState(seed=3)


@pytest.mark.parametrize(
    ("build", "pattern"),
    [
        (lambda: Rules.from_dict({1: 2, "x": 3}), r"unknown rule option"),
        (lambda: Rules.from_dict({"target": 3.0}), r"Rules\.target"),
        (lambda: Rules(declarations=np.array(["auto"])), r"Rules\.declarations"),  # type: ignore[arg-type]
        (lambda: Rules(target=np.int64(300)), r"Rules\.target"),  # type: ignore[arg-type]
        (lambda: Rules(target=10**5000), r"Rules\.target"),
        (lambda: Rules.from_dict(list(range(10**5))), r"R9 options"),
    ],
)
def test_bad_rules_values(build: Any, pattern: str) -> None:
    with pytest.raises(InvalidInputError, match=pattern) as caught:
        build()
    assert len(str(caught.value)) < 400
