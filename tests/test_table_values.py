"""The shared table-mode values both engines build (docs/TABLE.md): the action ids 41-45 and
their text (R8.5, RULES.md R0), the results of a hand ended by a call (R8.2, R8.3) and the
table view's JSON form (R8.4)."""

from __future__ import annotations

import pytest
from tarabish import (
    Action,
    ActionKind,
    CallResult,
    Card,
    HandResult,
    InvalidInputError,
    Misplay,
    Outcome,
    Phase,
    Suit,
    TableView,
    TrickResult,
)
from tarabish._actions import NUM_ACTIONS

TABLE_IDS = {41: "announce", 42: "show", 43: "bella", 44: "misplay", 45: "throw"}


def test_every_id_round_trips_through_text_and_action() -> None:
    assert NUM_ACTIONS == 46
    for seat in range(4):
        for action_id in range(NUM_ACTIONS):
            action = Action.from_id(action_id, seat)
            assert action.id == action_id and action.seat == seat
            assert Action.parse(str(action)) == action


@pytest.mark.parametrize(("action_id", "verb"), sorted(TABLE_IDS.items()))
def test_table_verbs(action_id: int, verb: str) -> None:
    action = Action.parse(f"2 {verb}")
    assert action.kind is ActionKind(verb) and action.id == action_id
    assert str(action) == f"2 {verb}"
    assert action.card is None and action.suit is None
    assert Action.table(2, verb) == action == Action.table(2, ActionKind(verb))


@pytest.mark.parametrize(
    "text", ["2 announce 50", "1 throw in", "0 bella QH", "3 showing", "4 misplay"]
)
def test_malformed_table_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidInputError):
        Action.parse(text)


@pytest.mark.parametrize("verb", ["play", "pass", "dance", ActionKind.CALL])
def test_table_builds_only_table_verbs(verb: str | ActionKind) -> None:
    with pytest.raises(InvalidInputError):
        Action.table(0, verb)


def test_ids_beyond_the_table_verbs_are_refused() -> None:
    for bad in (-1, NUM_ACTIONS, 100):
        with pytest.raises(InvalidInputError):
            Action.from_id(bad, 0)


def _result(call: CallResult | None, outcome: Outcome) -> HandResult:
    return HandResult(outcome, Suit.H, 2, (40, 31), (0, 182), None, 1, (), call)


def test_result_record_form_has_call_only_when_set() -> None:
    made = _result(None, Outcome.MADE).to_dict()
    assert "call" not in made and made["outcome"] == "made"
    misplay = CallResult("misplay", 2, True, 0, 182, (Misplay(1, Card.parse("7H"), 3),))
    record = _result(misplay, Outcome.MISPLAY).to_dict()
    assert record["outcome"] == "misplay"
    assert record["call"] == {
        "verb": "misplay",
        "seat": 2,
        "correct": True,
        "team": 0,
        "count": 182,
        "misplays": [{"seat": 1, "card": "7H", "trick": 3}],
    }
    thrown = _result(CallResult("throw", 1, None, 0, 162, ()), Outcome.THROW_IN).to_dict()
    assert thrown["outcome"] == "throw_in"
    assert thrown["call"] == {
        "verb": "throw",
        "seat": 1,
        "correct": None,
        "team": 0,
        "count": 162,
        "misplays": [],
    }


def test_table_view_json_is_the_documented_form() -> None:
    cards = Card.parse
    view = TableView(
        seat=2,
        dealer=0,
        phase=Phase.PLAY,
        to_move=3,
        scores=(120, 80),
        hand=(cards("6C"), cards("JH")),
        unseen_kitty=0,
        auction=(Action.pass_(1), Action.call(2, "H")),
        trump=Suit.H,
        caller=2,
        trick_leader=1,
        trick=(cards("AS"), cards("7S")),
        last_trick=TrickResult(0, tuple(map(cards, ("6D", "7D", "8D", "9D"))), 3, 0),
        tricks_won=(2, 1),
        announced=(None, 20, 50, None),
        shown=((), tuple(map(cards, ("TC", "JC", "QC"))), (), ()),
        bella=None,
        bella_forfeited=None,
        points=(31, 20),
        hand_sizes=(7, 6, 7, 7),
        allowed=(44, 45),
        legal=(44, 45),
    )
    assert view.to_dict() == {
        "seat": 2,
        "dealer": 0,
        "phase": "play",
        "to_move": 3,
        "scores": [120, 80],
        "hand": ["6C", "JH"],
        "unseen_kitty": 0,
        "auction": ["1 pass", "2 call H"],
        "trump": "H",
        "caller": 2,
        "trick_leader": 1,
        "trick": ["AS", "7S"],
        "last_trick": {"leader": 0, "cards": ["6D", "7D", "8D", "9D"], "winner": 3, "points": 0},
        "tricks_won": [2, 1],
        "announced": [None, 20, 50, None],
        "shown": [[], ["TC", "JC", "QC"], [], []],
        "bella": None,
        "bella_forfeited": None,
        "points": [31, 20],
        "hand_sizes": [7, 6, 7, 7],
        "allowed": [44, 45],
        "legal": [44, 45],
    }
