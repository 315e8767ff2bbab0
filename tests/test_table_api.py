"""The table-mode interface of the states (docs/TABLE.md "Allowed and legal", docs/EVENTS.md,
docs/ENGINE.md "Serialized states"), on both engines: an action for a given seat, bad seats and
``since`` values, event numbering across a match's hands, saved and loaded table states with
table verbs mid-hand, ``simulate`` playing table rules (the random playouts, summed) and
tournaments refusing them (docs/DECISIONS.md).
"""

from __future__ import annotations

import json
import pickle
from types import ModuleType

import pytest
from strategies import playout_counts
from tarabish import Action, IllegalActionError, InvalidInputError, Rules

TABLE = Rules(declarations="manual", enforce_legal_play=False, late_twenty=True)
DEAL = [
    "6C 7C 8D 9S TS JC QD KD AD",
    "JH QH KH AH 6S 7S 9C TC 6D",
    "6H 7H 8H 9D TD JD QS KS AS",
    "9H TH 8S JS 8C QC KC AC 7D",
]


def table_hand(engine: ModuleType) -> object:
    """Hearts trump; seat 1 announced its fifty and called bella with it; a misplay by 2."""
    state = engine.HandState(0, deal=DEAL, rules=TABLE)
    for action in ("1 call H", "1 announce", "1 bella", "1 play 6S", "2 play 9D"):
        state.apply(action)
    return state


def test_an_id_is_taken_for_the_seat_given(engine: ModuleType) -> None:
    state = table_hand(engine)
    assert state.to_move == 3
    state.apply(44, 0)  # R8.2: seat 0 calls out of turn; its partner misplayed: a false call
    call = state.result.call
    assert (call.seat, call.correct, call.team) == (0, False, 1)


def test_an_action_naming_another_seat_than_the_one_given_is_invalid(engine: ModuleType) -> None:
    state = table_hand(engine)
    before = state.to_json()
    for action in ("3 misplay", Action.from_id(44, 3)):
        with pytest.raises(InvalidInputError):
            state.apply(action, 0)
    state.apply("3 misplay", 3)  # the same seat: accepted
    assert state.to_json() != before


@pytest.mark.parametrize("bad", [-1, 4, "1", 1.0, True])
def test_bad_seats_and_since_are_invalid_input(engine: ModuleType, bad: object) -> None:
    state = table_hand(engine)
    for call in (
        lambda: state.events(bad),
        lambda: state.allowed_action_ids(bad),
        lambda: state.legal_action_ids(bad),
        lambda: state.table_view(bad),
        lambda: state.apply(44, bad),
    ):
        with pytest.raises(InvalidInputError):
            call()
    with pytest.raises(InvalidInputError):
        state.events(None, -1 if bad == -1 else "0")


def test_seats_not_to_move_may_only_call(engine: ModuleType) -> None:
    state = table_hand(engine)
    for seat in (0, 1, 2):
        assert state.allowed_action_ids(seat) == state.legal_action_ids(seat) == [44, 45]
    with pytest.raises(IllegalActionError) as error:
        state.apply("0 play 6C")
    assert error.value.rule == "R8.1"


def test_a_table_state_saves_and_loads_with_its_table_verbs(engine: ModuleType) -> None:
    state = table_hand(engine)
    text = state.to_json()
    assert ["1 call H", "1 announce", "1 bella"] == json.loads(text)["actions"][:3]
    loaded = engine.HandState.from_json(text)
    assert loaded == state
    assert loaded.events(2) == state.events(2) and loaded.table_view(1) == state.table_view(1)
    assert pickle.loads(pickle.dumps(state)) == state
    loaded.apply("3 throw")
    again = engine.HandState.from_json(loaded.to_json())
    assert again.result == loaded.result and again.result.call.verb == "throw"


def test_match_events_number_on_across_hands(engine: ModuleType) -> None:
    game = engine.MatchState(seed=11, rules=TABLE)
    while game.hand_index < 2:
        seat = game.to_move
        game.apply(45 if 45 in game.allowed_action_ids(seat) else game.legal_action_ids()[0])
    events = game.events()
    told = {e["seq"] for seat in (0, 1, 2, 3, None) for e in game.events(seat)}
    assert sorted(told) == list(range(1, max(told) + 1))  # private ones fill the gaps
    starts = [e for e in events if e["kind"] == "hand_start"]
    assert [e["hand"] for e in starts] == [0, 1, 2]
    assert game.hand.events()[0]["hand"] == 2  # the hand knows its index in the match
    last = max(told)
    assert game.events(None, last) == [] and game.events(0, last + 100) == []
    # Finished hands' events are kept as the hands end; every `since` cuts the same list.
    for seat in (0, 3, None):
        everything = game.events(seat)
        for since in range(last + 1):
            assert game.events(seat, since) == [e for e in everything if e["seq"] > since]
    loaded = engine.MatchState.from_json(game.to_json())
    assert loaded.events(3) == game.events(3)


SIMULATED_HANDS = 300


@pytest.mark.parametrize(
    "rules",
    [TABLE, Rules(declarations="manual", first_bell_ok=True, team_runs=True)],
    ids=["misplays", "manual"],
)
def test_simulate_table_hands_are_the_random_playouts(engine: ModuleType, rules: Rules) -> None:
    """Batch hand i of seed s under table rules is the random playout of hand seed
    derive(s, i) by dealer i % 4 (docs/TABLE.md "Allowed and legal"): the Rust batch's counts
    equal the sums over the hands played one by one, on each engine (so the Rust batch agrees
    with the reference). Random seats call at random: with misplays allowed most hands end by a
    misplay call or a throw-in (R8.2, R8.3)."""
    import tarabish

    summary = tarabish.simulate(hands=SIMULATED_HANDS, seed=2026, rules=rules, threads=2)
    counts = summary.counts()
    seeds = [tarabish._core.derive_seed(2026, i) for i in range(SIMULATED_HANDS)]
    expected = playout_counts(engine.play_random_hand, seeds, rules)
    assert {key: counts[key] for key in expected} == expected
    outcomes = counts["outcomes"]
    assert sum(outcomes.values()) == SIMULATED_HANDS
    called = outcomes["misplay"] + outcomes["throw_in"]
    if rules.enforce_legal_play:
        assert called == 0  # R8.2, R8.3: calls need enforce_legal_play off
    else:
        assert outcomes["misplay"] > 0 and outcomes["throw_in"] > 0
        # R8.2: the count (162 and what was credited) to one team, nothing to the other.
        assert summary.score_by_team[0] + summary.score_by_team[1] >= 162 * called


@pytest.mark.parametrize("bots", ["random", ("greedy", "heuristic")])
def test_simulate_table_matches_serial_and_parallel_agree(bots: str | tuple[str, str]) -> None:
    import tarabish

    one = tarabish.simulate(matches=20, seed=5, bots=bots, rules=TABLE, threads=1)
    two = tarabish.simulate(matches=20, seed=5, bots=bots, rules=TABLE, threads=2)
    assert one.counts() == two.counts()
    assert sum(one.match_wins) == 20  # R7.1
    outcomes = one.counts()["outcomes"]
    assert sum(outcomes.values()) == one.hands


def test_tournaments_refuse_table_rules() -> None:
    import tarabish

    with pytest.raises(InvalidInputError, match="auto-mode"):
        tarabish._core.tournament(start=0, stop=1, seed=0, bots=["random"] * 2, rules=TABLE)
