"""Arbitrary text and JSON-like values to every public entry point: the only
exceptions are ``tarabish.TarabishError`` subclasses, on both engines; never a ``TypeError``,
``ValueError``, ``OverflowError``, ``UnicodeEncodeError``, ``RecursionError`` or a panic.

Values include huge integers (beyond 64 bits and beyond Python's 4,300-digit ``int``/``str``
limit), lone surrogates, NaN, deep nesting (2,000 levels) and the engines' own values. Each
call also gets a valid state to work on, so methods are reached too.

Cost: the entry point is drawn with the values; a 130th of the profile's examples a
property, at least 60 (dev: 60, the ``ci`` profile: 153), five properties of seconds each.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
import tarabish
from hypothesis import given, settings
from hypothesis import strategies as st
from tarabish import Action, Card, Rank, Rules, Run, Suit, TarabishError

EXAMPLES = max(60, settings.default.max_examples // 130)


def _deep(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


# Text with every code point, lone surrogates included (category Cs).
TEXT = st.text(st.characters(blacklist_categories=()), max_size=30)
CARD_WORDS = st.sampled_from(["JH", "10s", "th", "6C", "AS", "J H", "QX", "", " ", ","])
# Built when drawn: hypothesis writes its strategies' repr, and a 5,000-digit int has none.
HUGE_INTS = st.one_of(
    st.sampled_from([2**64, -(2**63), -1, 2**30, 46, 41]),
    st.builds(pow, st.just(10), st.sampled_from([5_000, 10_000])),
)
ATOMS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    HUGE_INTS,
    st.floats(allow_nan=True, allow_infinity=True),
    TEXT,
    st.lists(CARD_WORDS, max_size=12).map(" ".join),
    st.sampled_from([Suit.H, Rank.ACE, Card.parse("JH"), Run(Suit.S, Rank.KING, 3)]),
    st.sampled_from([Action.pass_(1), Rules(), Rules(forced_at=100)]),
    st.builds(_deep, st.just(2_000)),
)
VALUES = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(TEXT, st.integers()), inner, max_size=4),
    ),
    max_leaves=12,
)


def only_tarabish_errors(call: Callable[[], object]) -> None:
    try:
        call()
    except TarabishError as error:
        assert len(str(error)) < 2_000, "an error message quotes only an excerpt of the input"


def _engine(name: str) -> Any:
    return importlib.import_module({"rust": "tarabish", "reference": "tarabish.reference"}[name])


ENGINE_CALLS: dict[str, Callable[[Any, Any, Any, Any], object]] = {
    "legal_plays": lambda e, a, b, c: e.legal_plays(a, b, c),
    "legal_plays rules": lambda e, a, b, c: e.legal_plays(["JH"], [], "H", a),
    "trick_winner": lambda e, a, b, c: e.trick_winner(a, b),
    "card_points": lambda e, a, b, c: e.card_points(a, b),
    "find_runs": lambda e, a, b, c: e.find_runs(a),
    "compare_runs": lambda e, a, b, c: e.compare_runs(a, b, c),
    "run_winner": lambda e, a, b, c: e.run_winner(a, b),
    "score_hand": lambda e, a, b, c: e.score_hand(a, b, c),
    "deal_cards": lambda e, a, b, c: e.deal_cards(a, b),
    "play_random_hand": lambda e, a, b, c: e.play_random_hand(a, b, c),
    "HandState seed": lambda e, a, b, c: e.HandState(a, seed=b, rules=c),
    "HandState deal": lambda e, a, b, c: e.HandState(b, deal=a, scores_before=c),
    "MatchState": lambda e, a, b, c: e.MatchState(seed=a, rules=b, first_dealer=c),
    "HandState.from_json": lambda e, a, b, c: e.HandState.from_json(a),
    "MatchState.from_json": lambda e, a, b, c: e.MatchState.from_json(a),
}

STATE_CALLS: dict[str, Callable[[Any, Any], object]] = {
    "apply": lambda state, a: state.apply(a),
    "observation": lambda state, a: state.observation(a),
    "information_state_tensor": lambda state, a: state.information_state_tensor(a),
    "information_state_string": lambda state, a: state.information_state_string(a),
    "eq": lambda state, a: state == a,
}

MODULE_CALLS: dict[str, Callable[[Any, Any], object]] = {
    "parse_cards": lambda a, b: tarabish.parse_cards(a),
    "Card.parse": lambda a, b: Card.parse(a),
    "Card": lambda a, b: Card(a, b),
    "Card.from_index": lambda a, b: Card.from_index(a),
    "Suit.parse": lambda a, b: Suit.parse(a),
    "Rank.parse": lambda a, b: Rank.parse(a),
    "Action.parse": lambda a, b: Action.parse(a),
    "Action.from_id": lambda a, b: Action.from_id(a, b),
    "Rules.from_dict": lambda a, b: Rules.from_dict(a),
    "Rules": lambda a, b: Rules(target=a, forced_at=b),
    "Run": lambda a, b: Run(Suit.H, Rank.ACE, a, b),
    "replay": lambda a, b: tarabish.replay(a),
    "to_record": lambda a, b: tarabish.to_record(a),
    "simulate": lambda a, b: tarabish.simulate(hands=1, seed=a, bots=b),
    "simulate threads": lambda a, b: tarabish.simulate(hands=1, threads=a, rules=b),
    "bot_action": lambda a, b: tarabish.bot_action(tarabish.HandState(0, seed=1), a, b),
}


@pytest.mark.parametrize("engine_name", ["rust", "reference"])
@settings(max_examples=EXAMPLES)
@given(entry=st.sampled_from(list(ENGINE_CALLS)), a=VALUES, b=VALUES, c=VALUES)
def test_engine_entry_points(engine_name: str, entry: str, a: Any, b: Any, c: Any) -> None:
    engine = _engine(engine_name)
    only_tarabish_errors(lambda: ENGINE_CALLS[entry](engine, a, b, c))


@pytest.mark.parametrize("engine_name", ["rust", "reference"])
@settings(max_examples=EXAMPLES)
@given(entry=st.sampled_from(list(STATE_CALLS)), a=VALUES, actions=st.integers(0, 20))
def test_state_methods(engine_name: str, entry: str, a: Any, actions: int) -> None:
    engine = _engine(engine_name)
    state = engine.HandState(actions % 4, seed=actions)
    for _ in range(actions):
        state.apply(state.legal_action_ids()[0])
    before = state.to_json()
    only_tarabish_errors(lambda: STATE_CALLS[entry](state, a))
    if entry != "apply":
        assert state.to_json() == before


@settings(max_examples=EXAMPLES)
@given(entry=st.sampled_from(list(MODULE_CALLS)), a=VALUES, b=VALUES)
def test_module_entry_points(entry: str, a: Any, b: Any) -> None:
    only_tarabish_errors(lambda: MODULE_CALLS[entry](a, b))
