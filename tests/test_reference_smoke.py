"""Smoke tests of tarabish.reference alone: the worked examples of RULES.md R10, input
checking, random playouts with their invariants, states (JSON, pickle, clone) and matches."""

from __future__ import annotations

import ast
import json
import pickle
from pathlib import Path

import numpy as np
import pytest
import tarabish.reference
from tarabish import (
    DECK,
    Action,
    ActionKind,
    Card,
    IllegalActionError,
    InvalidInputError,
    Outcome,
    Phase,
    Rank,
    Rules,
    Run,
    Suit,
)
from tarabish.reference import (
    TENSOR_SIZE,
    HandState,
    MatchState,
    card_points,
    compare_runs,
    deal_cards,
    find_runs,
    legal_plays,
    play_random_hand,
    run_winner,
    score_hand,
    trick_winner,
)


def texts(cards: list[Card]) -> str:
    return " ".join(str(card) for card in cards)


def test_imports_only_shared_value_modules() -> None:
    # The reference is written from RULES.md alone: it may use the shared value modules,
    # the standard library and numpy, never tarabish._core or other tarabish modules. ``_json``
    # is the shared strict JSON reader (no rules in it), so both engines refuse the same input.
    allowed = {"_cards", "_rules", "_runs", "_actions", "_views", "_errors", "_json"}
    package = Path(tarabish.reference.__file__).parent
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level == 2:  # from .._x import ...
                    assert node.module in allowed, (path.name, node.module)
                elif node.level == 0:
                    assert not (node.module or "").startswith("tarabish"), (path.name, node.module)
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("tarabish") for a in node.names), path.name


def test_r10_1_card_points() -> None:
    assert sum(card_points(card, "S") for card in DECK) + 10 == 162
    assert sum(card_points(card, Suit.S) for card in DECK if card.suit is Suit.S) == 62
    assert card_points("JH", "H") == 20 and card_points("9H", "H") == 14
    assert card_points("JH", "C") == 2 and card_points("10H", "C") == 10


def test_r10_2_and_3_legal_plays() -> None:
    assert texts(legal_plays("6S 7S 8S 9S", "TS", "S")) == "9S"
    assert texts(legal_plays("6D AS KC", "7H", "D")) == "6D"
    assert texts(legal_plays(["AS", Card.parse("6S")], [], "H")) == "6S AS"


def test_r5_1_variants() -> None:
    assert texts(legal_plays("6S 7S AC", "8H TS", "S")) == "6S 7S"
    assert texts(legal_plays("6S 7S AC", "8H TS", "S", Rules(undertrump_optional=True))) == (
        "AC 6S 7S"
    )
    assert texts(legal_plays("6H KH 7S", "QH", "S")) == "6H KH"
    assert texts(legal_plays("6H KH 7S", "QH", "S", Rules(head_plain=True))) == "KH"
    assert texts(legal_plays("6S 9S AC", "8H 6H", "S")) == "6S 9S"
    assert texts(legal_plays("6S 9S AC", "8H 6H", "S", Rules(partner_exempt=True))) == "AC 6S 9S"


def test_r10_4_trick_winner() -> None:
    assert trick_winner("8S 8D 9D JD", "D") == 3
    assert trick_winner("8S 9S 6H 6C", "D") == 1


def test_r10_5_find_runs() -> None:
    assert [(r.top, r.length) for r in find_runs("AS QS JS TS 8S 7S 6S")] == [
        (Rank.QUEEN, 3),
        (Rank.EIGHT, 3),
    ]
    assert [r.points for r in find_runs("AH KH QH JH 9H 8H 7H 6H")] == [50, 50]
    assert find_runs("AC KC JC TC 8C 7C") == []
    assert [str(r) for r in find_runs("6C 7C 8C 9C TC 6D 7D 8D")] == [
        "fifty T-9-8-7C",
        "twenty 8-7-6D",
    ]


def test_r10_6_and_7_compare_runs() -> None:
    t9876 = Run(Suit.S, Rank.TEN, 4)
    n9876 = Run(Suit.S, Rank.NINE, 4)
    akq = Run(Suit.H, Rank.ACE, 3)
    assert compare_runs(t9876, n9876, "C") == 1
    assert compare_runs(n9876, akq, "C") == 1
    assert compare_runs(akq, n9876, "C") == -1
    assert compare_runs(Run(Suit.C, Rank.TEN, 4), Run(Suit.H, Rank.TEN, 4), "C") == 1
    assert compare_runs(Run(Suit.D, Rank.TEN, 4), Run(Suit.H, Rank.TEN, 4), "C") == 0
    assert compare_runs(Run(Suit.H, Rank.KING, 4), Run(Suit.C, Rank.ACE, 3), "C") == 1


def test_run_winner() -> None:
    twenty_h, twenty_s = Run(Suit.H, Rank.EIGHT, 3), Run(Suit.S, Rank.EIGHT, 3)
    assert run_winner([[], [], [], []], "C") is None
    assert run_winner([[twenty_h], [twenty_s], [], []], "C") is None  # equal plain runs tie
    assert run_winner([[twenty_h], [twenty_s], [], []], "S") == 1
    assert run_winner([[twenty_h], [twenty_s], [Run(Suit.C, Rank.TEN, 4)], []], "D") == 2
    with pytest.raises(InvalidInputError):
        run_winner([[twenty_h], [twenty_h], [], []], "C")
    with pytest.raises(InvalidInputError):
        run_winner([[], [], []], "C")


def test_r10_8_score_hand() -> None:
    assert score_hand((110, 92), 0) == (Outcome.MADE, (110, 92))
    assert score_hand((95, 107), 0) == (Outcome.BAIT, (0, 202))
    assert score_hand((101, 101), 1) == (Outcome.HALF_BAIT, (101, 0))
    assert score_hand((101, 101), 0, Rules(half_bait_is_bait=True)) == (
        Outcome.HALF_BAIT,
        (0, 202),
    )


@pytest.mark.parametrize(
    ("call", "args"),
    [
        (legal_plays, ("", "", "H")),
        (legal_plays, ("6C 6C", "", "H")),
        (legal_plays, ("6C", "6C", "H")),
        (legal_plays, ("6C", "7C 8C 9C TC", "H")),
        (legal_plays, ("6C", "", "X")),
        (trick_winner, ("", "H")),
        (trick_winner, ("ZZ", "H")),
        (find_runs, ("6C 7C 8C 9C TC JC QC KC AC 6D",)),
        (score_hand, ((-1, 5), 0)),
        (score_hand, ((1, 5), 2)),
        (deal_cards, (2**64, 0)),
        (deal_cards, (1, 4)),
        (deal_cards, (True, 0)),
    ],
)
def test_invalid_input(call: object, args: tuple[object, ...]) -> None:
    with pytest.raises(InvalidInputError):
        call(*args)  # type: ignore[operator]


def test_deal_is_seeded() -> None:
    deal = deal_cards(12345, 2)
    assert deal == deal_cards(12345, 2)
    assert sorted(card.index for hand in deal for card in hand) == list(range(36))
    assert all(len(hand) == 9 for hand in deal)
    assert HandState(2, seed=12345).deal == deal


def test_hand_errors() -> None:
    with pytest.raises(InvalidInputError):
        HandState(0)
    state = HandState(0, seed=1)
    for bad in (46, -1, True, 1.5, "nonsense"):
        with pytest.raises(InvalidInputError):
            state.apply(bad)  # type: ignore[arg-type]
    before = state.to_json()
    refusals = [(0, "R3.1"), ("2 pass", "R3.1"), (Action.pass_(3), "R3.1")]
    # docs/TABLE.md "Refusals": the table verbs do not exist in auto mode with legal play
    # enforced, whoever takes them.
    refusals += [(41, "R4.4"), ("3 show", "R4.4"), ("1 bella", "R4.5")]
    refusals += [("2 misplay", "R8.2"), (45, "R8.3")]
    for action, rule in refusals:
        with pytest.raises(IllegalActionError) as caught:
            state.apply(action)
        assert caught.value.rule == rule
        assert state.to_json() == before
    for _ in range(3):
        state.apply(40)
    assert state.legal_action_ids() == [36, 37, 38, 39]
    with pytest.raises(IllegalActionError) as caught:
        state.apply(40)
    assert caught.value.rule == "R3.2" and "R3.2" in str(caught.value)
    state.apply("0 call H")
    assert state.phase is Phase.PLAY and state.to_move == 1 and state.trump is Suit.H


def test_forced_and_void() -> None:
    forced = HandState(0, seed=1, rules=Rules(forced_at=400), scores_before=(0, 450))
    forced.apply(40)
    forced.apply(40)
    assert 40 not in forced.legal_action_ids()  # seat 3, of the forced team, may not pass
    with pytest.raises(IllegalActionError) as caught:
        forced.apply(40)
    assert caught.value.rule == "R3.4"
    void = HandState(0, seed=1, rules=Rules(dealer_may_pass=True))
    for _ in range(4):
        void.apply(40)
    assert void.is_terminal and void.result is not None
    assert void.result.outcome is Outcome.VOID and void.result.score == (0, 0)


def test_random_playouts() -> None:
    variants = [Rules(), Rules(team_runs=True, head_plain=True), Rules(partner_exempt=True)]
    for seed in range(300):
        rules = variants[seed % len(variants)]
        state = play_random_hand(seed, seed % 4, rules)
        result = state.result
        assert state.is_terminal and result is not None and state.legal_action_ids() == []
        assert len(result.tricks) == 9
        assert sum(trick.points for trick in result.tricks) == 162
        extra = (20 if result.bella is not None else 0) + (result.runs.points if result.runs else 0)
        assert sum(result.points) == 162 + extra
        assert result.caller is not None
        assert score_hand(result.points, result.caller % 2, rules) == (result.outcome, result.score)
        if seed % 25 == 0:
            replay = HandState(state.dealer, deal=state.deal, rules=rules)
            for action in state.actions:
                assert action.id in replay.legal_action_ids()
                for seat in range(4):
                    tensor = replay.information_state_tensor(seat)
                    assert tensor.shape == (TENSOR_SIZE,) and tensor.dtype == np.float32
                    assert len(replay.information_state_string(seat).split("\n")) == 12
                replay.apply(action)
            assert replay == state and replay.result == result


def test_state_round_trips() -> None:
    state = play_random_hand(99)
    partial = HandState(state.dealer, deal=state.deal)
    for action in state.actions[:13]:
        partial.apply(action)
    for hand in (state, partial):
        assert HandState.from_json(hand.to_json()) == hand
        assert pickle.loads(pickle.dumps(hand)) == hand
        assert hand.clone() == hand
    copy = partial.clone()
    copy.apply(copy.legal_action_ids()[0])
    assert copy != partial
    data = json.loads(partial.to_json())
    assert data["format"] == "tarabish-state/1" and data["kind"] == "hand"
    for key, value in (("kind", "match"), ("format", "x"), ("actions", ["0 play 6C"])):
        with pytest.raises(InvalidInputError):
            HandState.from_json(json.dumps({**data, key: value}))
    with pytest.raises(InvalidInputError):
        HandState.from_json("{not json")


def test_observation_hides_the_kitty() -> None:
    state = HandState(0, seed=7)
    obs = state.observation(1)
    assert obs.unseen_kitty == 3 and len(obs.hand) == 6
    assert set(obs.hand) == set(state.deal[1][:6])
    assert state.information_state_tensor(1)[47] == 1
    state.apply("1 call C")
    obs = state.observation(1)
    assert obs.unseen_kitty == 0 and len(obs.hand) == 9
    assert obs.trick_leader == 1 and obs.auction[0].kind is ActionKind.CALL


def test_match() -> None:
    match = MatchState(seed=3, rules=Rules(target=300), first_dealer=2)
    moves = 0
    while not match.is_terminal:
        ids = match.legal_action_ids()
        match.apply(ids[moves % len(ids)])
        moves += 1
    history = match.history
    assert match.winner is not None and max(match.scores) >= 300
    assert [hand.dealer for hand in history] == [(2 + i) % 4 for i in range(len(history))]
    assert sum(hand.result.score[0] for hand in history if hand.result) == match.scores[0]
    assert MatchState.from_json(match.to_json()) == match
    assert pickle.loads(pickle.dumps(match)) == match
    record = match.to_record()
    assert record["format"] == "tarabish-record/1" and record["rules"] == {"target": 300}
    assert len(record["hands"]) == len(history)
