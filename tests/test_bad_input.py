"""Bad input to the rule primitives, on both engines (docs/ENGINE.md, "Bad input raises
InvalidInputError").

Every case must raise exactly ``tarabish.InvalidInputError`` (a ``ValueError``), never a
``TypeError``, ``IndexError``, a Rust panic or a result, and the message must name the problem:
the offending card, count, suit or value (checked by a case-insensitive pattern).
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

import pytest
from tarabish import Card, InvalidInputError, Outcome, Rank, Rules, Run, Suit

JH = Card(Suit.H, Rank.JACK)
TEN_CARDS = ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "6D"]


def r(suit: Suit, top: Rank, length: int) -> Run:
    return Run(suit, top, length)


# (id, primitive, args, pattern the message must match)
CASES: list[tuple[str, str, tuple[Any, ...], str]] = [
    # ---- legal_plays(hand, trick, trump, rules)
    ("legal_plays-hand-card-twice", "legal_plays", (["JH", "9H", "JH"], [], "H"), r"JH"),
    (
        "legal_plays-hand-card-twice-objects",
        "legal_plays",
        ([JH, Card.parse("9H"), JH], [], "H"),
        r"JH",
    ),
    ("legal_plays-hand-card-twice-10-and-T", "legal_plays", (["TH", "10H"], [], "S"), r"TH|10H"),
    ("legal_plays-trick-card-twice", "legal_plays", (["6H"], ["AS", "AS"], "H"), r"AS"),
    ("legal_plays-hand-of-10", "legal_plays", (TEN_CARDS, [], "H"), r"\b10\b"),
    ("legal_plays-hand-of-10-string", "legal_plays", (" ".join(TEN_CARDS), "", "H"), r"\b10\b"),
    ("legal_plays-hand-of-0", "legal_plays", ([], ["AS"], "H"), r"\b0\b|empty|no card"),
    ("legal_plays-hand-of-0-string", "legal_plays", ("", "AS", "H"), r"\b0\b|empty|no card"),
    ("legal_plays-trick-of-4", "legal_plays", (["6H"], ["AS", "KS", "QS", "JS"], "H"), r"\b4\b"),
    (
        "legal_plays-trick-of-5",
        "legal_plays",
        (["6H"], ["AS", "KS", "QS", "JS", "TS"], "H"),
        r"\b5\b",
    ),
    ("legal_plays-unknown-card-in-hand", "legal_plays", (["JH", "ZZ"], [], "H"), r"ZZ"),
    ("legal_plays-unknown-card-in-trick", "legal_plays", (["JH"], ["1H"], "H"), r"1H"),
    ("legal_plays-unknown-card-in-hand-string", "legal_plays", ("JH QX", "", "H"), r"QX"),
    ("legal_plays-unknown-card-11H", "legal_plays", (["11H"], [], "H"), r"11H"),
    ("legal_plays-empty-card-text", "legal_plays", (["JH", ""], [], "H"), r"card|''"),
    ("legal_plays-unknown-card-long-s", "legal_plays", (["6\u017f"], [], "H"), "6\u017f"),
    ("legal_plays-card-in-hand-and-trick", "legal_plays", (["JH", "9H"], ["AS", "JH"], "H"), r"JH"),
    ("legal_plays-card-in-hand-and-trick-mixed-forms", "legal_plays", ([JH], ["jh"], "H"), r"JH"),
    ("legal_plays-unknown-trump", "legal_plays", (["JH"], [], "X"), r"\bX\b"),
    ("legal_plays-trump-two-letters", "legal_plays", (["JH"], [], "HH"), r"HH"),
    ("legal_plays-trump-empty", "legal_plays", (["JH"], [], ""), r"suit|trump|''"),
    ("legal_plays-trump-none", "legal_plays", (["JH"], [], None), r"suit|trump|None"),
    ("legal_plays-trump-int-7", "legal_plays", (["JH"], [], 7), r"suit|trump|\b7\b"),
    ("legal_plays-card-int", "legal_plays", ([5], [], "H"), r"card|\b5\b"),
    ("legal_plays-card-none", "legal_plays", ([None], [], "H"), r"card|None"),
    ("legal_plays-card-float", "legal_plays", (["JH", 3.5], [], "H"), r"card|3\.5"),
    ("legal_plays-card-bytes", "legal_plays", ([b"JH"], [], "H"), r"card|JH"),
    ("legal_plays-card-suit-enum", "legal_plays", ([Suit.H], [], "H"), r"card|\bH\b"),
    ("legal_plays-hand-none", "legal_plays", (None, [], "H"), r"hand|card|None"),
    ("legal_plays-hand-int", "legal_plays", (7, [], "H"), r"hand|card|\b7\b"),
    ("legal_plays-trick-none", "legal_plays", (["JH"], None, "H"), r"trick|card|None"),
    # ---- trick_winner(trick, trump)
    ("trick_winner-trick-of-5", "trick_winner", (["6H", "7H", "8H", "9H", "TH"], "S"), r"\b5\b"),
    ("trick_winner-trick-of-0", "trick_winner", ([], "S"), r"\b0\b|empty|no card"),
    ("trick_winner-trick-of-0-string", "trick_winner", ("", "S"), r"\b0\b|empty|no card"),
    ("trick_winner-card-twice", "trick_winner", (["AS", "KS", "AS"], "H"), r"AS"),
    ("trick_winner-unknown-card", "trick_winner", (["AS", "XS"], "H"), r"XS"),
    ("trick_winner-unknown-trump", "trick_winner", (["AS", "KS"], "Z"), r"\bZ\b"),
    ("trick_winner-trump-none", "trick_winner", (["AS", "KS"], None), r"suit|trump|None"),
    ("trick_winner-card-int", "trick_winner", ([1, 2], "H"), r"card|\b1\b"),
    ("trick_winner-trick-none", "trick_winner", (None, "H"), r"trick|card|None"),
    # ---- card_points(card, trump)
    ("card_points-unknown-card", "card_points", ("1H", "H"), r"1H"),
    ("card_points-unknown-card-long", "card_points", ("JHH", "H"), r"JHH"),
    ("card_points-empty-card", "card_points", ("", "H"), r"card|''"),
    ("card_points-unknown-suit-letter", "card_points", ("JX", "H"), r"JX"),
    ("card_points-two-cards", "card_points", ("JH 9H", "H"), r"JH 9H|card"),
    ("card_points-unknown-suit-long-s", "card_points", ("J\u017f", "H"), "J\u017f"),
    ("card_points-trump-long-s", "card_points", ("JH", "\u017f"), "\u017f|suit|trump"),
    ("card_points-card-int", "card_points", (5, "H"), r"card|\b5\b"),
    ("card_points-card-none", "card_points", (None, "H"), r"card|None"),
    ("card_points-unknown-trump", "card_points", ("JH", "Q"), r"\bQ\b"),
    ("card_points-trump-none", "card_points", ("JH", None), r"suit|trump|None"),
    # ---- find_runs(hand)
    ("find_runs-hand-of-10", "find_runs", (TEN_CARDS,), r"\b10\b"),
    ("find_runs-card-twice", "find_runs", (["9H", "TH", "JH", "9H"],), r"9H"),
    ("find_runs-unknown-card", "find_runs", (["9H", "PQ"],), r"PQ"),
    ("find_runs-unknown-card-string", "find_runs", ("9H TH 0H",), r"0H"),
    ("find_runs-card-none", "find_runs", ([None],), r"card|None"),
    ("find_runs-hand-none", "find_runs", (None,), r"hand|card|None"),
    # ---- compare_runs(a, b, trump)
    (
        "compare_runs-unknown-trump",
        "compare_runs",
        (r(Suit.H, Rank.ACE, 3), r(Suit.C, Rank.ACE, 3), "X"),
        r"\bX\b",
    ),
    (
        "compare_runs-trump-none",
        "compare_runs",
        (r(Suit.H, Rank.ACE, 3), r(Suit.C, Rank.ACE, 3), None),
        r"suit|trump|None",
    ),
    ("compare_runs-not-a-run", "compare_runs", ("AH KH QH", r(Suit.C, Rank.ACE, 3), "H"), r"run"),
    ("compare_runs-none", "compare_runs", (r(Suit.H, Rank.ACE, 3), None, "H"), r"run|None"),
    # ---- run_winner(runs_by_seat, trump)
    (
        "run_winner-three-seats",
        "run_winner",
        ([[], [], [r(Suit.H, Rank.ACE, 3)]], "H"),
        r"\b3\b|\b4\b|four",
    ),
    ("run_winner-five-seats", "run_winner", ([[], [], [], [], []], "H"), r"\b5\b|\b4\b|four"),
    ("run_winner-no-seats", "run_winner", ([], "H"), r"\b0\b|\b4\b|four"),
    (
        "run_winner-two-seats-holding-QH",
        "run_winner",
        ([[r(Suit.H, Rank.QUEEN, 3)], [], [r(Suit.H, Rank.KING, 3)], []], "S"),
        r"QH|JH",
    ),
    (
        "run_winner-one-seat-card-in-two-runs",
        "run_winner",
        ([[r(Suit.H, Rank.KING, 4), r(Suit.H, Rank.TEN, 3)], [], [], []], "S"),
        r"TH",
    ),
    (
        "run_winner-same-run-for-two-seats",
        "run_winner",
        ([[], [r(Suit.C, Rank.NINE, 4)], [], [r(Suit.C, Rank.NINE, 4)]], "S"),
        r"9C|8C|7C|6C",
    ),
    ("run_winner-unknown-trump", "run_winner", ([[], [], [], []], "W"), r"\bW\b"),
    ("run_winner-not-a-run", "run_winner", ([["AH"], [], [], []], "S"), r"run"),
    ("run_winner-none", "run_winner", (None, "S"), r"run|seat|None"),
    # ---- score_hand(points, caller_team, rules)
    ("score_hand-negative-first", "score_hand", ((-1, 163), 0), r"-1|negative"),
    ("score_hand-negative-second", "score_hand", ((81, -81), 1), r"-81|negative"),
    ("score_hand-caller-2", "score_hand", ((81, 81), 2), r"caller|\b2\b"),
    ("score_hand-caller-minus-1", "score_hand", ((81, 81), -1), r"caller|-1"),
    ("score_hand-caller-none", "score_hand", ((81, 81), None), r"caller|None"),
    ("score_hand-caller-text", "score_hand", ((81, 81), "0"), r"caller|'0'"),
    ("score_hand-points-text", "score_hand", (("80", 82), 0), r"point|'80'"),
    ("score_hand-three-points", "score_hand", ((80, 82, 0), 0), r"point|\b2\b|\b3\b|two"),
    ("score_hand-points-2**30", "score_hand", ((2**30, 0), 0), r"1073741824|1073741823|point"),
    ("score_hand-points-2**64", "score_hand", ((5, 2**64), 1), r"18446744073709551616|point"),
    ("score_hand-points-none", "score_hand", (None, 0), r"point|None"),
]


@pytest.mark.parametrize(
    ("primitive", "args", "pattern"),
    [pytest.param(name, args, pattern, id=case_id) for case_id, name, args, pattern in CASES],
)
def test_bad_input_raises_invalid_input_error(
    engine: ModuleType, primitive: str, args: tuple[Any, ...], pattern: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        getattr(engine, primitive)(*args)
    error = caught.value
    assert type(error) is InvalidInputError
    assert isinstance(error, ValueError)
    message = str(error)
    assert re.search(pattern, message, re.IGNORECASE), f"message {message!r} !~ {pattern!r}"


@pytest.mark.parametrize("rules", [Rules(), Rules(head_plain=True, partner_exempt=True)])
def test_bad_input_raises_with_every_rules(engine: ModuleType, rules: Rules) -> None:
    for hand, trick in (
        (["JH", "JH"], []),
        (TEN_CARDS, []),
        (["6H"], ["AS", "KS", "QS", "JS"]),
        (["6H", "AS"], ["AS"]),
        ([], ["AS"]),
    ):
        with pytest.raises(InvalidInputError):
            engine.legal_plays(hand, trick, "H", rules)


def test_bad_input_valid_edges_are_accepted(engine: ModuleType) -> None:
    """The limits themselves are fine: a hand of 9, a trick of 3 before the 4th card, a trick
    of 4 for trick_winner, 9 cards and 0 cards for find_runs, 0 and 2**30-1 points (the range of
    docs/DECISIONS.md), caller team 1."""
    nine = TEN_CARDS[:9]
    assert engine.legal_plays(nine, ["AS", "KS", "QS"], "H") == [Card.parse(c) for c in nine]
    assert engine.trick_winner(["6H", "7H", "8H", "9H"], "S") == 3
    assert engine.find_runs([]) == []
    assert len(engine.find_runs(nine)) == 2
    assert engine.run_winner([[], [], [], []], "H") is None
    assert engine.score_hand((0, 0), 1) == (Outcome.HALF_BAIT, (0, 0))
    # docs/DECISIONS.md: points are whole numbers 0..2**30-1
    assert engine.score_hand((2**30 - 1, 0), 0) == (Outcome.MADE, (2**30 - 1, 0))
