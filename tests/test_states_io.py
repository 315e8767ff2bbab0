"""Serialized, copied and compared states (docs/ENGINE.md "Serialized states"), bad input to the
state constructors, and the ``IllegalActionError`` attributes, on both engines.

- ``to_json``/``from_json``, pickle, ``clone``, ``copy.copy``/``copy.deepcopy`` of ``HandState`` and
  ``MatchState`` give equal, independent states with the same JSON; the JSON has exactly the
  documented shape.
- Equality compares rules, dealer, scores, deal and actions (so trump and declarations too):
  states that differ in any of them are unequal (docs/TESTING.md: equality keys that omit trump,
  declarations or scores). States are unhashable (mutable, compared by value).
- Malformed serialized states (bad JSON, wrong format or kind, missing/extra keys, a card twice,
  10 cards, an illegal action, wrong types, ...) raise ``InvalidInputError`` (a ``ValueError``)
  and nothing else.
- Construction errors (dealer 4, seed -1, seed and deal both or neither, ...)
  raise ``InvalidInputError``.
- ``IllegalActionError`` carries ``action``, ``rule`` and ``state``; its message names the
  action and the rule; it pickles.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from strategies import choose_action, hand_setup_from_seed
from tarabish import (
    Action,
    IllegalActionError,
    InvalidInputError,
    Rules,
    TarabishError,
    parse_cards,
)

BASE_EXAMPLES = settings.default.max_examples  # dev 300, ci 10 000
ROUND_TRIP_EXAMPLES = max(30, BASE_EXAMPLES // 100)  # ci: 100 hands an engine

FORMAT = "tarabish-state/1"
DEAL = [
    "6C 7C 8C 6H 7H TD 7D AS 8S",
    "JH 9H TC JC AD 9D 6D TS 7S",
    "KH QH AC 9C KD 8D 6S 9S QS",
    "AH TH 8H KC QC QD JD KS JS",
]
# Dealer 3: seat 0 speaks first and calls hearts, then leads the AS.
HAND = {
    "format": FORMAT,
    "kind": "hand",
    "rules": {},
    "dealer": 3,
    "scores_before": [0, 0],
    "deal": DEAL,
    "actions": ["0 call H", "0 play AS"],
}
MATCH = {
    "format": FORMAT,
    "kind": "match",
    "rules": {"target": 300},
    "seed": 5,
    "first_dealer": 2,
    "scores": [10, 20],
    "hands": [{"actions": ["3 pass"]}],
}


def expect_invalid(call: Callable[[], Any]) -> InvalidInputError:
    """``call`` raises InvalidInputError (and nothing else: any other exception propagates)."""
    with pytest.raises(InvalidInputError) as info:
        call()
    error = info.value
    assert isinstance(error, ValueError) and isinstance(error, TarabishError)
    assert str(error)
    return error


def with_(base: dict[str, Any], **changes: Any) -> str:
    """``base`` as JSON with some keys changed (``...`` deletes a key)."""
    data = copy.deepcopy(base)
    for key, value in changes.items():
        if value is ...:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


def played_out_hand_actions(engine: ModuleType) -> list[str]:
    """The actions of HAND's deal played out by the smallest legal ids (input for a test)."""
    state = engine.HandState(3, deal=DEAL)
    while not state.is_terminal:
        state.apply(state.legal_action_ids()[0])
    return [str(action) for action in state.actions]


# --------------------------------------------------------------------------------------------
# Round trips
# --------------------------------------------------------------------------------------------


def check_round_trips(engine: ModuleType, state: Any, kind: str) -> None:
    cls = getattr(engine, kind)
    text = state.to_json()
    loaded = [
        cls.from_json(text),
        cls.from_json(text.encode()),
        pickle.loads(pickle.dumps(state)),
        state.clone(),
        copy.copy(state),
        copy.deepcopy(state),
    ]
    for other in loaded:
        assert type(other) is cls
        assert other == state and not other != state
        assert other.to_json() == text
        assert other.legal_action_ids() == state.legal_action_ids()
        assert other.to_move == state.to_move and other.phase is state.phase
        for seat in range(4):
            assert other.observation(seat) == state.observation(seat)
        assert other.information_state_string(1) == state.information_state_string(1)
    if kind == "HandState":
        assert all(other.result == state.result for other in loaded)
        assert all(other.points == state.points for other in loaded)
    else:
        assert all(other.scores == state.scores for other in loaded)
        assert all(other.hand_index == state.hand_index for other in loaded)
    if not state.is_terminal:
        for other in loaded:  # independent: moving a copy leaves the state alone
            other.apply(other.legal_action_ids()[-1])
            assert other != state
        assert state.to_json() == text


def check_hand_json_shape(state: Any) -> None:
    data = json.loads(state.to_json())
    assert set(data) == {"format", "kind", "rules", "dealer", "scores_before", "deal", "actions"}
    assert data["format"] == FORMAT and data["kind"] == "hand"
    assert data["rules"] == state.rules.to_dict()
    assert data["dealer"] == state.dealer
    assert data["scores_before"] == list(state.scores_before)
    assert data["deal"] == [" ".join(str(card) for card in cards) for cards in state.deal]
    assert data["actions"] == [str(action) for action in state.actions]


@pytest.mark.long
@settings(max_examples=ROUND_TRIP_EXAMPLES)
@given(seed=st.integers(0, 2**64 - 1))
def test_hand_round_trips(engine: ModuleType, seed: int) -> None:
    setup = hand_setup_from_seed(seed)
    note(repr(setup))
    state = engine.HandState(setup.dealer, **setup.kwargs())
    rng = random.Random(setup.action_seed)
    while True:
        if rng.random() < 0.35 or state.is_terminal or not state.actions:
            check_round_trips(engine, state, "HandState")
            check_hand_json_shape(state)
        if state.is_terminal:
            break
        state.apply(choose_action(state.legal_action_ids(), rng, setup.pass_bias))


@settings(max_examples=max(5, BASE_EXAMPLES // 400))
@given(seed=st.integers(0, 2**64 - 1), first_dealer=st.integers(0, 3))
def test_match_round_trips(engine: ModuleType, seed: int, first_dealer: int) -> None:
    rules = Rules(target=200, dealer_may_pass=True, team_runs=True)
    match = engine.MatchState(seed=seed, rules=rules, first_dealer=first_dealer, scores=(40, 7))
    rng = random.Random(seed)
    step = 0
    while True:
        if step % 5 == 0 or match.is_terminal:
            check_round_trips(engine, match, "MatchState")
            data = json.loads(match.to_json())
            assert set(data) == {
                "format",
                "kind",
                "rules",
                "seed",
                "first_dealer",
                "scores",
                "hands",
            }
            assert data["format"] == FORMAT and data["kind"] == "match"
            assert data["rules"] == {"target": 200, "dealer_may_pass": True, "team_runs": True}
            assert (data["seed"], data["first_dealer"], data["scores"]) == (
                seed,
                first_dealer,
                [40, 7],
            )
            hands = [*match.history] + ([] if match.is_terminal else [match.hand])
            assert data["hands"] == [
                {"actions": [str(action) for action in hand.actions]} for hand in hands
            ]
        if match.is_terminal:
            break
        match.apply(choose_action(match.legal_action_ids(), rng, 0.3))
        step += 1


def test_explicit_states_load(engine: ModuleType) -> None:
    hand = engine.HandState.from_json(json.dumps(HAND))
    assert hand.dealer == 3
    assert hand.trump is not None and str(hand.trump) == "H"
    assert hand.deal == [parse_cards(cards) for cards in DEAL]
    assert json.loads(hand.to_json()) == HAND
    match = engine.MatchState.from_json(json.dumps(MATCH))
    assert match.seed == 5 and match.dealer == 2 and match.scores == (10, 20)
    assert match.rules == Rules(target=300)
    assert json.loads(match.to_json()) == MATCH
    # A fresh match: an empty hands list is the same state as one empty hand.
    fresh = engine.MatchState.from_json(with_(MATCH, hands=[]))
    assert fresh == engine.MatchState(
        seed=5, rules=Rules(target=300), first_dealer=2, scores=(10, 20)
    )


# --------------------------------------------------------------------------------------------
# Equality keys
# --------------------------------------------------------------------------------------------


def test_equality_compares_everything_that_matters(engine: ModuleType) -> None:
    def hand(**changes: Any) -> Any:
        kwargs: dict[str, Any] = {"deal": DEAL, "rules": Rules(), "scores_before": (0, 0)}
        dealer = changes.pop("dealer", 3)
        actions = changes.pop("actions", ["0 call H"])
        kwargs.update(changes)
        state = engine.HandState(dealer, **kwargs)
        for action in actions:
            state.apply(action)
        return state

    base = hand()
    assert base == hand()
    swapped = [DEAL[0].replace("6C", "JH"), DEAL[1].replace("JH", "6C"), DEAL[2], DEAL[3]]
    different = {
        "scores": hand(scores_before=(0, 1)),
        "rules": hand(rules=Rules(team_runs=True)),
        "target": hand(rules=Rules(target=400)),
        "trump": hand(actions=["0 call S"]),
        "caller": hand(actions=["0 pass", "1 call H"]),
        "deal": hand(deal=swapped),
        "dealer": hand(dealer=2, actions=["3 call H"]),
        "actions": hand(actions=["0 call H", "0 play AS"]),
    }
    for name, other in different.items():
        assert other != base, name
        assert not other == base, name
        assert other.to_json() != base.to_json(), name
    for state in (base, engine.MatchState(seed=1)):
        with pytest.raises(TypeError):
            hash(state)
        assert state != 5 and state is not None

    match = engine.MatchState(seed=9, scores=(1, 2))
    assert match == engine.MatchState(seed=9, scores=(1, 2))
    for other in (
        engine.MatchState(seed=10, scores=(1, 2)),
        engine.MatchState(seed=9, scores=(2, 1)),
        engine.MatchState(seed=9, scores=(1, 2), first_dealer=1),
        engine.MatchState(seed=9, scores=(1, 2), rules=Rules(target=300)),
    ):
        assert other != match
    moved = match.clone()
    moved.apply(moved.legal_action_ids()[0])
    assert moved != match


# --------------------------------------------------------------------------------------------
# Malformed serialized states
# --------------------------------------------------------------------------------------------

BAD_TEXT = {
    "empty": "",
    "brace": "{",
    "trailing": json.dumps(HAND) + "}",
    "single_quotes": "{'format': 'tarabish-state/1'}",
    "null": "null",
    "number": "42",
    "list": "[]",
    "string": '"hand"',
    "object": "{}",
    "nan": with_(HAND, dealer=float("nan")),
    "deep_list": "[" * 5000 + "]" * 5000,
    "deep_object": '{"a":' * 5000 + "1" + "}" * 5000,
}

BAD_HAND = {
    # format and kind
    "format_2": with_(HAND, format="tarabish-state/2"),
    "format_record": with_(HAND, format="tarabish-record/1"),
    "format_missing": with_(HAND, format=...),
    "format_null": with_(HAND, format=None),
    "kind_match": with_(HAND, kind="match"),
    "kind_record": with_(HAND, kind="record"),
    "kind_missing": with_(HAND, kind=...),
    # keys
    **{
        f"missing_{key}": with_(HAND, **{key: ...}) for key in HAND if key not in ("format", "kind")
    },
    "extra_key": with_(HAND, result=None),
    "extra_seed": with_(HAND, seed=1),
    # the deal
    "card_twice": with_(HAND, deal=[DEAL[0], DEAL[1], DEAL[2], DEAL[3].replace("JS", "6C")]),
    "ten_cards": with_(HAND, deal=[DEAL[0] + " JS", DEAL[1], DEAL[2], DEAL[3].replace(" JS", "")]),
    "eight_cards_each": with_(HAND, deal=[" ".join(cards.split()[:8]) for cards in DEAL]),
    "three_seats": with_(HAND, deal=DEAL[:3]),
    "five_seats": with_(HAND, deal=[*DEAL, "6C"]),
    "unknown_card": with_(HAND, deal=[DEAL[0].replace("6C", "5C"), *DEAL[1:]]),
    "deal_one_string": with_(HAND, deal=" ".join(DEAL)),
    "deal_lists": with_(HAND, deal=[cards.split() for cards in DEAL]),
    "deal_ints": with_(HAND, deal=[list(range(9 * s, 9 * s + 9)) for s in range(4)]),
    "deal_null": with_(HAND, deal=None),
    # the actions
    "wrong_seat": with_(HAND, actions=["1 pass"]),
    "play_in_auction": with_(HAND, actions=["0 play 6C"]),
    "card_not_held": with_(HAND, actions=["0 call H", "0 play JS"]),
    "must_follow": with_(HAND, actions=["0 call H", "0 play AS", "1 play JH"]),
    "speaks_twice": with_(HAND, actions=["0 call H", "0 call S"]),
    "stuck_dealer": with_(HAND, actions=["0 pass", "1 pass", "2 pass", "3 pass"]),
    "malformed_action": with_(HAND, actions=["0 dance"]),
    "table_verb": with_(HAND, actions=["0 announce"]),
    "action_ids": with_(HAND, actions=[40]),
    "action_string": with_(HAND, actions="0 call H"),
    "action_null": with_(HAND, actions=None),
    "action_dict": with_(HAND, actions=[{"seat": 0}]),
    # wrong types and values
    "dealer_text": with_(HAND, dealer="3"),
    "dealer_4": with_(HAND, dealer=4),
    "dealer_negative": with_(HAND, dealer=-1),
    "dealer_true": with_(HAND, dealer=True),
    "dealer_float": with_(HAND, dealer=3.0),
    "dealer_null": with_(HAND, dealer=None),
    "scores_one": with_(HAND, scores_before=[1]),
    "scores_three": with_(HAND, scores_before=[1, 2, 3]),
    "scores_negative": with_(HAND, scores_before=[-1, 0]),
    "scores_text": with_(HAND, scores_before="0 0"),
    "scores_float": with_(HAND, scores_before=[1.5, 0]),
    "scores_true": with_(HAND, scores_before=[True, 0]),
    "scores_null": with_(HAND, scores_before=None),
    "scores_huge": with_(HAND, scores_before=[2**70, 0]),
    "scores_2_30": with_(HAND, scores_before=[2**30, 0]),
    "rules_list": with_(HAND, rules=[]),
    "rules_text": with_(HAND, rules="default"),
    "rules_null": with_(HAND, rules=None),
    "rules_unknown": with_(HAND, rules={"jokers": True}),
    "rules_target_0": with_(HAND, rules={"target": 0}),
    "rules_target_true": with_(HAND, rules={"target": True}),
    "rules_forced_negative": with_(HAND, rules={"forced_at": -5}),
    "rules_flag_text": with_(HAND, rules={"team_runs": "yes"}),
}

BAD_MATCH = {
    "kind_hand": with_(MATCH, kind="hand"),
    "format_2": with_(MATCH, format="tarabish-state/2"),
    **{f"missing_{key}": with_(MATCH, **{key: ...}) for key in MATCH if key != "format"},
    "extra_key": with_(MATCH, winner=None),
    "seed_negative": with_(MATCH, seed=-1),
    "seed_2_64": with_(MATCH, seed=2**64),
    "seed_text": with_(MATCH, seed="5"),
    "seed_float": with_(MATCH, seed=5.0),
    "seed_true": with_(MATCH, seed=True),
    "seed_null": with_(MATCH, seed=None),
    "first_dealer_4": with_(MATCH, first_dealer=4),
    "first_dealer_text": with_(MATCH, first_dealer="2"),
    "first_dealer_null": with_(MATCH, first_dealer=None),
    "scores_negative": with_(MATCH, scores=[-1, 0]),
    "scores_one": with_(MATCH, scores=[0]),
    "scores_text": with_(MATCH, scores="0 0"),
    "scores_null": with_(MATCH, scores=None),
    "hands_object": with_(MATCH, hands={}),
    "hands_null": with_(MATCH, hands=None),
    "hand_list": with_(MATCH, hands=[[]]),
    "hand_empty_object": with_(MATCH, hands=[{}]),
    "hand_extra_key": with_(MATCH, hands=[{"actions": [], "dealer": 2}]),
    "hand_actions_text": with_(MATCH, hands=[{"actions": "3 pass"}]),
    "wrong_seat": with_(MATCH, hands=[{"actions": ["0 pass"]}]),
    "next_hand_early": with_(MATCH, hands=[{"actions": ["3 pass"]}, {"actions": []}]),
    # hand 0 is void after four passes; "0 call H" belongs to hand 1, not to hand 0's list
    "runs_past_hand_end": with_(
        MATCH,
        rules={"dealer_may_pass": True},
        hands=[{"actions": ["3 pass", "0 pass", "1 pass", "2 pass", "0 call H"]}],
    ),
    "illegal_play": with_(MATCH, hands=[{"actions": ["3 play 6C"]}]),
    "rules_unknown": with_(MATCH, rules={"jokers": True}),
}


@pytest.mark.parametrize("name", BAD_TEXT)
@pytest.mark.parametrize("kind", ["HandState", "MatchState"])
def test_malformed_json_text(engine: ModuleType, kind: str, name: str) -> None:
    expect_invalid(lambda: getattr(engine, kind).from_json(BAD_TEXT[name]))


@pytest.mark.parametrize("kind", ["HandState", "MatchState"])
def test_from_json_needs_text(engine: ModuleType, kind: str) -> None:
    cls = getattr(engine, kind)
    for bad in (None, 42, {}, json.loads(json.dumps(HAND)), ["{}"], b"\xff\xfe\x00"):
        expect_invalid(lambda bad=bad: cls.from_json(bad))


@pytest.mark.parametrize("name", BAD_HAND)
def test_malformed_hand_state(engine: ModuleType, name: str) -> None:
    expect_invalid(lambda: engine.HandState.from_json(BAD_HAND[name]))


@pytest.mark.parametrize("name", BAD_MATCH)
def test_malformed_match_state(engine: ModuleType, name: str) -> None:
    expect_invalid(lambda: engine.MatchState.from_json(BAD_MATCH[name]))


def test_hand_state_with_actions_after_its_end(engine: ModuleType) -> None:
    actions = played_out_hand_actions(engine)
    assert len(actions) == 37
    assert engine.HandState.from_json(with_(HAND, actions=actions)).is_terminal
    expect_invalid(lambda: engine.HandState.from_json(with_(HAND, actions=[*actions, "0 pass"])))
    last_seat = actions[-1].split()[0]
    extra = f"{last_seat} play {actions[-1].split()[2]}"
    expect_invalid(lambda: engine.HandState.from_json(with_(HAND, actions=[*actions, extra])))


def test_match_state_with_actions_after_a_hand_ended(engine: ModuleType) -> None:
    match = engine.MatchState(seed=5, rules=Rules(target=300), first_dealer=2, scores=(10, 20))
    while match.hand_index == 0:
        match.apply(match.legal_action_ids()[0])
    first = [str(action) for action in match.history[0].actions]
    ok = with_(MATCH, hands=[{"actions": first}, {"actions": []}])
    assert engine.MatchState.from_json(ok) == match
    # The next hand's actions appended to the first hand's list are not accepted.
    next_action = str(match.legal_actions()[0])
    late = with_(MATCH, hands=[{"actions": [*first, next_action]}])
    expect_invalid(lambda: engine.MatchState.from_json(late))
    # Nor a hand after the end of the match.
    while not match.is_terminal:
        match.apply(match.legal_action_ids()[0])
    data = json.loads(match.to_json())
    data["hands"].append({"actions": []})
    expect_invalid(lambda: engine.MatchState.from_json(json.dumps(data)))


# --------------------------------------------------------------------------------------------
# Construction errors
# --------------------------------------------------------------------------------------------

BAD_HAND_ARGS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "dealer_4": ((4,), {"seed": 1}),
    "dealer_negative": ((-1,), {"seed": 1}),
    "dealer_text": (("0",), {"seed": 1}),
    "dealer_true": ((True,), {"seed": 1}),
    "dealer_float": ((1.0,), {"seed": 1}),
    "seed_negative": ((0,), {"seed": -1}),
    "seed_2_64": ((0,), {"seed": 2**64}),
    "seed_text": ((0,), {"seed": "1"}),
    "seed_float": ((0,), {"seed": 1.0}),
    "seed_true": ((0,), {"seed": True}),
    "seed_and_deal": ((0,), {"seed": 1, "deal": DEAL}),
    "neither_seed_nor_deal": ((0,), {}),
    "rules_dict": ((0,), {"seed": 1, "rules": {"target": 300}}),
    "deal_ten_cards": ((0,), {"deal": [DEAL[0] + " JS", DEAL[1], DEAL[2], DEAL[3][:-3]]}),
    "deal_card_twice": ((0,), {"deal": [DEAL[0], DEAL[1], DEAL[2], DEAL[3].replace("JS", "6C")]}),
    "deal_three_seats": ((0,), {"deal": DEAL[:3]}),
    "deal_one_string": ((0,), {"deal": " ".join(DEAL)}),
    "deal_unknown_card": ((0,), {"deal": [DEAL[0].replace("6C", "1C"), *DEAL[1:]]}),
    "deal_ints": ((0,), {"deal": [list(range(9 * s, 9 * s + 9)) for s in range(4)]}),
    "scores_negative": ((0,), {"seed": 1, "scores_before": (-1, 0)}),
    "scores_three": ((0,), {"seed": 1, "scores_before": (1, 2, 3)}),
    "scores_text": ((0,), {"seed": 1, "scores_before": "00"}),
    "scores_float": ((0,), {"seed": 1, "scores_before": (0.5, 0)}),
    "scores_2_30": ((0,), {"seed": 1, "scores_before": (0, 2**30)}),  # docs/DECISIONS.md
}


@pytest.mark.parametrize("name", BAD_HAND_ARGS)
def test_hand_state_construction_errors(engine: ModuleType, name: str) -> None:
    args, kwargs = BAD_HAND_ARGS[name]
    expect_invalid(lambda: engine.HandState(*args, **kwargs))


def test_hand_state_construction_accepts_the_documented_forms(engine: ModuleType) -> None:
    by_text = engine.HandState(3, deal=DEAL)
    by_lists = engine.HandState(3, deal=[cards.split() for cards in DEAL])
    by_cards = engine.HandState(3, deal=[parse_cards(cards) for cards in DEAL])
    assert by_text == by_lists == by_cards
    assert engine.HandState(0, seed=0) == engine.HandState(0, seed=0)
    assert engine.HandState(0, seed=2**64 - 1).deal == engine.deal_cards(2**64 - 1, 0)
    assert engine.HandState(seed=3).dealer == 0  # dealer defaults to 0
    assert engine.HandState(1, seed=3, scores_before=[5, 6]).scores_before == (5, 6)
    top = 2**30 - 1  # the largest score accepted (docs/DECISIONS.md)
    assert engine.HandState(1, seed=3, scores_before=(top, top)).scores_before == (top, top)
    assert engine.MatchState(seed=3, scores=(top, 0)).scores == (top, 0)
    assert engine.HandState.from_json(with_(HAND, scores_before=[top, 0])).scores_before == (
        top,
        0,
    )


BAD_MATCH_ARGS: dict[str, dict[str, Any]] = {
    "seed_negative": {"seed": -1},
    "seed_2_64": {"seed": 2**64},
    "seed_text": {"seed": "1"},
    "first_dealer_4": {"seed": 1, "first_dealer": 4},
    "first_dealer_negative": {"seed": 1, "first_dealer": -1},
    "scores_negative": {"seed": 1, "scores": (-1, 0)},
    "scores_one": {"seed": 1, "scores": (1,)},
    "scores_2_30": {"seed": 1, "scores": (2**30, 0)},
    "rules_dict": {"seed": 1, "rules": {}},
}


@pytest.mark.parametrize("name", BAD_MATCH_ARGS)
def test_match_state_construction_errors(engine: ModuleType, name: str) -> None:
    expect_invalid(lambda: engine.MatchState(**BAD_MATCH_ARGS[name]))


def test_bad_seats_and_actions_are_invalid_input(engine: ModuleType) -> None:
    state = engine.HandState(3, deal=DEAL)
    before = state.to_json()
    for seat in (-1, 4, "0", 1.0, None):
        expect_invalid(lambda seat=seat: state.observation(seat))
        expect_invalid(lambda seat=seat: state.information_state_tensor(seat))
        expect_invalid(lambda seat=seat: state.information_state_string(seat))
    for action in (-1, 46, 2**64, True, 40.0, None, "0 pas", "9 pass", "0 call X", "0 play 5C", ""):
        expect_invalid(lambda action=action: state.apply(action))
    assert state.to_json() == before
    # Table verbs in auto mode with legal play enforced: refused, nothing changes (the rule each
    # names is pinned in tests/test_table_rules.py).
    for action in ("0 announce", "0 bella", "0 misplay", "0 throw", 41):
        with pytest.raises(TarabishError):
            state.apply(action)
    assert state.to_json() == before


# --------------------------------------------------------------------------------------------
# IllegalActionError
# --------------------------------------------------------------------------------------------

WHOLE_SUITS = [  # seat 1 holds eight trumps (diamonds) and the AH
    "6C 7C 8C 9C TC JC QC KC AC",
    "6D 7D 8D 9D TD JD QD KD AH",
    "6H 7H 8H 9H TH JH QH KH AD",
    "6S 7S 8S 9S TS JS QS KS AS",
]

# (deal, dealer, rules, scores_before, actions before, illegal action, its text, rule)
ILLEGAL = [
    (DEAL, 3, Rules(), (0, 0), [], "1 pass", "1 pass", "R3.1"),
    (DEAL, 3, Rules(), (0, 0), [], "0 play 6C", "0 play 6C", "R3.1"),
    (DEAL, 3, Rules(), (0, 0), ["0 pass", "1 pass", "2 pass"], 40, "3 pass", "R3.2"),
    (DEAL, 3, Rules(forced_at=400), (450, 0), ["0 pass", "1 pass"], "2 pass", "2 pass", "R3.4"),
    (DEAL, 3, Rules(), (0, 0), ["0 call H"], "0 call S", "0 call S", "R3.1"),
    (DEAL, 3, Rules(), (0, 0), ["0 call H"], 40, "0 pass", "R3.1"),
    (DEAL, 3, Rules(), (0, 0), ["0 call H"], "0 play JH", "0 play JH", "R5.1"),
    (DEAL, 3, Rules(), (0, 0), ["0 call H"], "1 play JH", "1 play JH", "R5.1"),
    (DEAL, 3, Rules(), (0, 0), ["0 call H", "0 play AS"], "1 play JH", "1 play JH", "R5.1a"),
    (WHOLE_SUITS, 3, Rules(), (0, 0), ["0 call D", "0 play 6C"], "1 play AH", "1 play AH", "R5.1b"),
]


@pytest.mark.parametrize(
    ("deal", "dealer", "rules", "scores", "before", "action", "text", "rule"), ILLEGAL
)
def test_illegal_action_error_attributes(
    engine: ModuleType,
    deal: list[str],
    dealer: int,
    rules: Rules,
    scores: tuple[int, int],
    before: list[str],
    action: Any,
    text: str,
    rule: str,
) -> None:
    state = engine.HandState(dealer, deal=deal, rules=rules, scores_before=scores)
    for earlier in before:
        state.apply(earlier)
    unchanged = state.to_json()
    forms = [action] if not isinstance(action, str) else [action, Action.parse(action)]
    for form in forms:
        with pytest.raises(IllegalActionError) as info:
            state.apply(form)
        error = info.value
        assert isinstance(error, ValueError) and isinstance(error, TarabishError)
        assert error.rule == rule
        assert error.action == text
        assert isinstance(error.state, str) and error.state
        message = str(error)
        assert rule in message
        assert text.split(" ", 1)[1] in message  # the verb and card/suit, e.g. "play JH"
        again = pickle.loads(pickle.dumps(error))
        assert (again.action, again.rule, again.state, str(again)) == (
            error.action,
            error.rule,
            error.state,
            message,
        )
        assert state.to_json() == unchanged


def test_illegal_action_error_after_the_end(engine: ModuleType) -> None:
    state = engine.HandState(3, deal=DEAL)
    for action in played_out_hand_actions(engine):
        state.apply(action)
    for action in ("0 pass", "2 play 6C", 40, 0):
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)
        error = info.value
        assert error.rule == "R5.3"
        assert "R5.3" in str(error)
        assert error.state
        verb = "pass" if action in ("0 pass", 40) else "play 6C"
        assert verb in error.action and verb in str(error)
        if isinstance(action, str):  # the seat given is named (docs/DECISIONS.md)
            assert error.action == action
            assert f"seat {action[0]}" in str(error) or action in str(error)
