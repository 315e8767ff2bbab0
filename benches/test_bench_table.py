"""Table mode (docs/TABLE.md) from Python, the Rust core beside the reference in the same run.

1. ``play_random_hand`` with every table option on (manual declarations, misplays accepted,
   ``first_bell_ok``, ``late_twenty``): whole random table hands a second (the legal ids of the
   seat to move each step, so declarations and calls come up). Both engines must give the same
   states (their JSON), and every result must be scored by R6 or R8.2-R8.3 (a call awards its
   count, 162 + credited runs and bella, to one team).
2. What a game server asks after every action, on a mid-hand table state: a seat's new events
   (``events(seat, since)``) and its ``table_view(seat)``; each result equals the other
   engine's. The same new events of a match many hands in (``MatchState.events(seat, since)``:
   the finished hands' events are kept, not derived again at every call).

The auto-mode Rust figures (hands a second before and after table mode, and ``TableHand`` in
both modes) are the Rust bench's: ``cargo bench --bench hands`` (benches/README.md).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
import tarabish
from engines import on_each_engine, on_the_other
from tarabish import Rules

TABLE_RULES = Rules(
    declarations="manual", enforce_legal_play=False, first_bell_ok=True, late_twenty=True
)
HANDS = 300
SEEDS = list(range(9_000, 9_000 + HANDS))
PER_CALL: dict[str, Any] = {"min_time": 2e-4, "warmup": True, "warmup_iterations": 500}
CARD_COUNT = 162


def play_all(engine: ModuleType) -> list[Any]:
    return [engine.play_random_hand(seed, seed % 4, TABLE_RULES) for seed in SEEDS]


def scored_right(result: Any) -> bool:
    """R8.2-R8.3: a call awards its count to one team; otherwise R6 as usual (R1.4)."""
    runs = 0 if result.runs is None else result.runs.points
    bella = 0 if result.bella is None else 20
    if result.call is not None:
        return result.call.count == CARD_COUNT + runs + bella and sorted(result.score) == [
            0,
            result.call.count,
        ]
    return result.trump is None or sum(result.points) == CARD_COUNT + runs + bella


@pytest.fixture(scope="module")
def rust_json() -> list[str]:
    return [state.to_json() for state in play_all(tarabish)]


@pytest.mark.benchmark(group=f"play_random_hand, table mode ({HANDS} hands a round)")
def test_random_table_hands(
    benchmark: Any, engine: ModuleType, rate: Callable[[int], None], rust_json: list[str]
) -> None:
    states = benchmark.pedantic(play_all, args=(engine,), rounds=3)
    rate(HANDS)
    assert [state.to_json() for state in states] == rust_json
    assert all(scored_right(state.result) for state in states)
    assert any(state.result.call is not None for state in states)


def mid_table(engine: ModuleType) -> Any:
    """A table hand in trick three: declarations taken, misplays (the highest card each
    seat is allowed), a trick under way."""
    state = engine.HandState(1, seed=77, rules=TABLE_RULES)
    while len(state.actions) < 14:
        ids = [i for i in state.allowed_action_ids() if i < 44]
        state.apply(ids[-1])
    return state


@pytest.fixture(scope="module")
def mid_states() -> dict[str, Any]:
    return on_each_engine(mid_table)


@pytest.mark.benchmark(group="HandState.events(seat, since)", **PER_CALL)
def test_events(benchmark: Any, engine: ModuleType, mid_states: dict[str, Any]) -> None:
    state = mid_states[benchmark.extra_info["engine"]]
    since = state.events(2)[-3]["seq"]
    events = benchmark(state.events, 2, since)
    assert len(events) == 2 and all(event["seq"] > since for event in events)
    assert events == on_the_other(engine, mid_states).events(2, since)


def late_match(engine: ModuleType) -> Any:
    """A table-mode match in its twelfth hand, two actions in."""
    game = engine.MatchState(seed=5, rules=Rules(enforce_legal_play=False, target=10_000))
    while game.hand_index < LATE_HAND or len(game.hand.actions) < 2:
        game.apply(game.legal_action_ids()[0])
    return game


LATE_HAND = 11


@pytest.fixture(scope="module")
def late_matches() -> dict[str, Any]:
    return on_each_engine(late_match)


@pytest.mark.benchmark(group="MatchState.events(seat, since), hand 12", **PER_CALL)
def test_match_events(benchmark: Any, engine: ModuleType, late_matches: dict[str, Any]) -> None:
    game = late_matches[benchmark.extra_info["engine"]]
    since = game.events(2)[-2]["seq"]
    events = benchmark(game.events, 2, since)
    assert len(events) == 1 and events[0]["seq"] > since
    assert events == on_the_other(engine, late_matches).events(2, since)


@pytest.mark.benchmark(group="HandState.table_view", **PER_CALL)
def test_table_view(benchmark: Any, engine: ModuleType, mid_states: dict[str, Any]) -> None:
    state = mid_states[benchmark.extra_info["engine"]]
    view = benchmark(state.table_view, 2)
    assert view.allowed == tuple(state.allowed_action_ids(2))
    assert view == on_the_other(engine, mid_states).table_view(2)
