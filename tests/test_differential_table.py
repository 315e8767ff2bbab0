"""Differential tests of table mode (docs/TABLE.md, docs/EVENTS.md; RULES.md R4.4, R4.5, R8):
the Rust core and ``tarabish.reference`` are driven by the same random table play and must agree
at every step.

Random table play (tests/strategies.py ``choose_table_action``): random rules (manual or auto
declarations, misplays accepted or not, ``first_bell_ok``, ``late_twenty`` and every other R9
variant), declarations taken, forgotten or taken late, misplays, and misplay and throw calls by
random seats in and out of turn at random moments.

At every step: the allowed ids of all four seats and the legal ids of the seat to move; at a
random fifth of the steps the table view of a random seat, the new events of a random seat and
of the spectator (``events(seat, since=last seen)``, as a reconnecting client reads them), all
four seats' legal ids, and refusals of a random sample of the ids a random seat may not take
(same rule, nothing changed). At the end: the result, every seat's table view, every seat's and
the spectator's whole event list (equal to what was read step by step), the JSON and
cross-loading. Events are append-only in both engines, so equal final lists and equal
increments mean equal lists at every step.

Example counts follow the hypothesis profile (tests/conftest.py): with ``ci`` (10 000) 2 500
table hands and 125 table matches; with ``dev`` (300) 75 hands and 8 matches.
"""

from __future__ import annotations

import json
import random
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from strategies import (
    SEEDS,
    HandSetup,
    TableHabits,
    choose_table_action,
    table_rules_from,
    table_setup_from_seed,
)
from tarabish import IllegalActionError
from tarabish._actions import NUM_ACTIONS

Engines = tuple[ModuleType, ModuleType]

BASE_EXAMPLES = settings.default.max_examples  # dev 300, ci 10 000
HAND_EXAMPLES = max(60, BASE_EXAMPLES // 4)  # ci: 2 500 hands
MATCH_EXAMPLES = max(8, BASE_EXAMPLES // 80)  # ci: 125 matches
SPECTATOR = None


class EventLog:
    """The events each seat and the spectator have been told so far, read with ``since`` as a
    reconnecting client would, and compared between the engines as they arrive."""

    def __init__(self) -> None:
        self.seen: dict[int | None, list[dict[str, Any]]] = {s: [] for s in (0, 1, 2, 3, None)}

    def catch_up(self, rust: Any, ref: Any, audiences: list[int | None] | None = None) -> None:
        for seat in self.seen if audiences is None else audiences:
            seen = self.seen[seat]
            since = seen[-1]["seq"] if seen else 0
            new = rust.events(seat, since)
            assert new == ref.events(seat, since), (seat, since)
            assert all(event["seq"] > since for event in new)
            seen.extend(new)

    def check_whole(self, rust: Any, ref: Any) -> None:
        for seat, seen in self.seen.items():
            assert rust.events(seat) == ref.events(seat) == seen, seat
            seqs = [event["seq"] for event in seen]
            assert seqs == sorted(set(seqs))


def same_sets(rust: Any, ref: Any, every_legal: bool) -> None:
    """Every seat's allowed ids, the seat to move's legal ids (the default seat), and with
    ``every_legal`` every seat's legal ids."""
    for seat in range(4):
        allowed = rust.allowed_action_ids(seat)
        assert allowed == ref.allowed_action_ids(seat), seat
        if every_legal:
            legal = rust.legal_action_ids(seat)
            assert legal == ref.legal_action_ids(seat), seat
            assert set(legal) <= set(allowed)
    assert rust.legal_action_ids() == ref.legal_action_ids()
    if every_legal:
        assert rust.legal_actions() == ref.legal_actions()


def same_refusals(rust: Any, ref: Any, rng: random.Random) -> None:
    """A random seat's refused ids (a sample): the same rule from both, nothing changed."""
    seat = rng.randrange(4)
    allowed = set(rust.allowed_action_ids(seat))
    refused = [i for i in range(NUM_ACTIONS) if i not in allowed]
    before = rust.to_json()
    for action_id in rng.sample(refused, min(4, len(refused))):
        rules = []
        for state in (rust, ref):
            try:
                state.apply(action_id, seat)
            except IllegalActionError as error:
                rules.append(error.rule)
            else:  # pragma: no cover - a failure
                raise AssertionError(f"id {action_id} for seat {seat} was accepted")
        assert rules[0] == rules[1], (seat, action_id, rules)
    assert rust.to_json() == ref.to_json() == before


def same_views(rust: Any, ref: Any, seats: range | list[int]) -> None:
    for seat in seats:
        view = rust.table_view(seat)
        assert view == ref.table_view(seat), seat
        assert view.allowed == tuple(rust.allowed_action_ids(seat))
        # The JSON text a server sends is the view's dict, keys in the same order, both engines.
        for state in (rust, ref):
            sent = json.loads(state.table_view_json(seat))
            assert sent == view.to_dict() and list(sent) == list(view.to_dict()), seat


def drive_table_hand(engines: Engines, setup: HandSetup) -> None:
    note(repr(setup))
    rust_engine, ref_engine = engines
    rust = rust_engine.HandState(setup.dealer, **setup.kwargs())
    ref = ref_engine.HandState(setup.dealer, **setup.kwargs())
    rng = random.Random(setup.action_seed)
    habits = TableHabits.from_rng(rng)
    log = EventLog()
    while True:
        thorough = rng.random() < 0.2
        same_sets(rust, ref, thorough)
        if thorough:
            log.catch_up(rust, ref, [rng.randrange(4), SPECTATOR])
            same_views(rust, ref, [rng.randrange(4)])
            same_refusals(rust, ref, rng)
        if rust.is_terminal:
            break
        seat, action_id = choose_table_action(rust, rng, habits, setup.pass_bias)
        rust.apply(action_id, seat)
        ref.apply(action_id, seat)
    assert rust.result is not None
    assert rust.result == ref.result
    assert rust.result.to_dict() == ref.result.to_dict()
    log.catch_up(rust, ref)
    log.check_whole(rust, ref)
    same_views(rust, ref, range(4))
    assert rust.actions == ref.actions
    text = rust.to_json()
    assert text == ref.to_json()
    assert rust_engine.HandState.from_json(ref.to_json()) == rust
    assert ref_engine.HandState.from_json(text) == ref
    assert rust_engine.HandState.from_json(text).events(0) == rust.events(0)


@pytest.mark.long
@settings(max_examples=HAND_EXAMPLES)
@given(seed=SEEDS)
def test_table_hands_agree(engine_pair: Engines, seed: int) -> None:
    drive_table_hand(engine_pair, table_setup_from_seed(seed))


@settings(max_examples=MATCH_EXAMPLES)
@given(seed=SEEDS, target=st.sampled_from((101, 200, 300)))
def test_table_matches_agree(engine_pair: Engines, seed: int, target: int) -> None:
    rng = random.Random(seed)
    rules = table_rules_from(rng)
    rules = type(rules)(**{**rules.to_dict(), "target": target})
    note(repr(rules))
    rust_engine, ref_engine = engine_pair
    first_dealer = rng.randrange(4)
    rust = rust_engine.MatchState(seed=seed, rules=rules, first_dealer=first_dealer)
    ref = ref_engine.MatchState(seed=seed, rules=rules, first_dealer=first_dealer)
    habits = TableHabits.from_rng(rng)
    log = EventLog()
    while not rust.is_terminal:
        same_sets(rust, ref, every_legal=False)
        if rng.random() < 0.2:
            log.catch_up(rust, ref, [rng.randrange(4), SPECTATOR])
            same_views(rust, ref, [rng.randrange(4)])
        assert rust.scores == ref.scores
        seat, action_id = choose_table_action(rust, rng, habits, 0.3)
        rust.apply(action_id, seat)
        ref.apply(action_id, seat)
    assert ref.is_terminal
    assert rust.winner == ref.winner
    assert [h.result for h in rust.history] == [h.result for h in ref.history]
    log.catch_up(rust, ref)
    log.check_whole(rust, ref)
    assert log.seen[SPECTATOR][-1]["kind"] == "match_over"
    assert rust.to_json() == ref.to_json()
    assert rust_engine.MatchState.from_json(rust.to_json()).events() == rust.events()
