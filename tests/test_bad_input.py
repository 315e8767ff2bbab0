"""Bad input, on both engines wherever both have the entry point (docs/ENGINE.md, "Bad input
raises InvalidInputError"; docs/DECISIONS.md): a ``tarabish.TarabishError`` subclass with a
short message, never a ``TypeError``, ``IndexError``, ``OverflowError``, ``RecursionError``, a
Rust panic or a result, and nothing changed. Three parts:

- The rule primitives, case by case: exactly ``InvalidInputError`` (a ``ValueError``), whose
  message names the offending card, count, suit or value (a case-insensitive pattern); the
  limits themselves are accepted.
- Hostile values: tampered pickles of ``Rules`` (R9), action text outside R0's grammar, lone
  surrogates, megabyte inputs, forged runs and actions, strict JSON for states and records, and
  the arguments of ``simulate`` and the bots: nothing a crafted value carries is trusted.
- Arbitrary values (hypothesis) to every public entry point: huge integers (beyond 64 bits and
  beyond Python's 4,300-digit ``int``/``str`` limit), lone surrogates, NaN, deep nesting (2,000
  levels) and the engines' own values; each state method gets a valid state to work on. Cost: a
  130th of the profile's examples a property, at least 60 (dev: 60, the ``ci`` profile: 153),
  five properties of seconds each.
"""

from __future__ import annotations

import copyreg
import pickle
import re
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import tarabish
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tarabish import (
    Action,
    Card,
    InvalidInputError,
    Outcome,
    Rank,
    Rules,
    Run,
    Suit,
    TarabishError,
)
from tarabish._core import MAX_THREADS
from tarabish._core import bot_action as core_bot_action
from tarabish._engines import engine_module


def _deep(depth: int) -> list[Any]:
    """A list nested ``depth`` levels deep."""
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


# ==== the rule primitives, case by case ======================================================

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


# ==== hostile values =========================================================================

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


# ---- one ASCII grammar for action text (R0), parsed by each engine itself ----------------

NOT_ACTIONS = [
    "\u00b2 pass",  # superscript two
    "\u0661 pass",  # Arabic-Indic one
    "\U0001d7cf pass",  # mathematical bold one
    "1\u00a0pass",  # no-break space
    "1 pass\u2003",  # em space
    "01 pass",
    "4 pass",
    "-1 pass",
    "1" * 5_000 + " pass",
    "1 pass now",
    "1 play J H",
    "1 call \u0397",  # Greek capital eta
    "1 \u0440ass",  # Cyrillic er
    "1 play \ud800",
    "\ud800 pass",
    "1 PASS " + " " * 100,
    "",
]


@pytest.mark.parametrize("text", NOT_ACTIONS, ids=range(len(NOT_ACTIONS)))
def test_action_text_outside_r0_is_refused_by_both_parsers(engine: ModuleType, text: str) -> None:
    state = engine.HandState(0, seed=5)
    before = state.to_json()
    with pytest.raises(InvalidInputError) as caught:
        state.apply(text)
    assert len(str(caught.value)) < 400
    assert state.to_json() == before
    with pytest.raises(InvalidInputError):
        Action.parse(text)


ACTIONS = ["1 pass", " 1\tPASS ", "1 Call h", "1 call H", "1 play 10s", "1 play ts", "2 pass"]


def test_the_two_parsers_read_the_same_actions(engine_pair: tuple[ModuleType, ModuleType]) -> None:
    rust, reference = engine_pair
    for text in ACTIONS:
        outcomes = []
        for engine in (rust, reference):
            state = engine.HandState(0, seed=5)
            try:
                state.apply(text)
                outcomes.append(("applied", state.to_json()))
            except tarabish.TarabishError as error:
                outcomes.append((type(error).__name__, ""))
        assert outcomes[0] == outcomes[1], text
    assert str(Action.parse(" 1\tPASS ")) == "1 pass"


def test_a_forged_action_is_refused(engine: ModuleType) -> None:
    action = Action.pass_(1)
    object.__setattr__(action, "seat", 10**40)
    state = engine.HandState(0, seed=5)
    with pytest.raises(InvalidInputError):
        state.apply(action)


# ---- one card grammar (R0) everywhere ------------------------------------------------------

SURROGATE = "\ud800"


def test_a_blank_inside_card_text_is_no_card(engine: ModuleType) -> None:
    """R0: card text is rank then suit. ``"J H"`` is two words; as one list item it is no card
    (``parse_cards`` agreed with neither engine's ``find_runs`` before)."""
    with pytest.raises(InvalidInputError, match="J H"):
        tarabish.parse_cards(["J H"])
    with pytest.raises(InvalidInputError, match="J H"):
        engine.find_runs(["J H"])
    with pytest.raises(InvalidInputError):
        Card.parse("1 0H")
    with pytest.raises(InvalidInputError):
        tarabish.parse_cards("J H")  # a string splits into "J" and "H", neither a card
    assert tarabish.parse_cards([" jh\t"]) == [Card.parse("JH")]


@pytest.mark.parametrize(
    "call",
    [
        lambda e: e.legal_plays(SURROGATE, "", "S"),
        lambda e: e.legal_plays(["JH"], [], SURROGATE),
        lambda e: e.legal_plays([SURROGATE], [], "S"),
        lambda e: e.trick_winner([SURROGATE], "S"),
        lambda e: e.trick_winner("JH", "\udfff"),
        lambda e: e.find_runs([SURROGATE]),
        lambda e: e.find_runs("6H 7H " + SURROGATE),
        lambda e: e.card_points(SURROGATE, "H"),
        lambda e: e.HandState(0, deal=[SURROGATE] * 4),
        lambda e: e.HandState(0, deal=[[SURROGATE] * 9] * 4),
        lambda e: e.compare_runs(Run(Suit.H, Rank.ACE, 3), Run(Suit.S, Rank.ACE, 3), SURROGATE),
    ],
    ids=range(11),
)
def test_lone_surrogates_are_bad_cards(engine: ModuleType, call: Any) -> None:
    with pytest.raises(InvalidInputError):
        call(engine)


def test_parse_cards_bad_arguments() -> None:
    for bad in (None, 5, b"JH", {"JH": 1}, [None], [5], [SURROGATE]):
        with pytest.raises(InvalidInputError):
            tarabish.parse_cards(bad)  # type: ignore[arg-type]


# ---- bounded cost: short messages, long inputs refused early -------------------------------

MEGABYTE = 1_000_000


@pytest.mark.parametrize(
    "call",
    [
        lambda e: e.legal_plays("X" * MEGABYTE, "", "S"),
        lambda e: e.legal_plays(["JH"], [], "S" * MEGABYTE),
        lambda e: e.find_runs(["Q" * MEGABYTE]),
        lambda e: e.HandState(0, seed=1).apply("1 " + "p" * MEGABYTE),
        lambda e: e.HandState(0, deal=["JH " * MEGABYTE] * 4),
        lambda e: e.HandState(0, deal=[["JH"] * MEGABYTE] * 4),
        lambda e: e.find_runs(iter(["6H"] * MEGABYTE)),
        lambda e: e.legal_plays(" ".join(["6C"] * MEGABYTE), "", "S"),
    ],
    ids=range(8),
)
def test_huge_inputs_make_short_messages(engine: ModuleType, call: Any) -> None:
    with pytest.raises(InvalidInputError) as caught:
        call(engine)
    assert len(str(caught.value)) < 400


def test_far_too_many_cards_are_refused_as_such(engine: ModuleType) -> None:
    """A list longer than the deck is refused as soon as its 37th card is seen (R1.1): the rest
    of it, even text that is no card, is never read."""
    deck = " ".join(str(card) for card in tarabish.DECK)
    for cards in (f"{deck} 6C {'?' * 100}", [*deck.split(), "6C", None]):
        with pytest.raises(InvalidInputError, match="more than 36"):
            engine.find_runs(cards)
        with pytest.raises(InvalidInputError, match="more than 36"):
            tarabish.parse_cards(cards)  # type: ignore[arg-type]


# ---- forged and ill-typed values -----------------------------------------------------------


@pytest.mark.parametrize("length", [3.0, [3], np.int64(3), True, "3"])
def test_run_length_must_be_a_whole_number(length: Any) -> None:
    with pytest.raises(InvalidInputError, match=r"R4\.1"):
        Run(Suit.H, Rank.ACE, length)


def test_a_forged_run_is_refused(engine: ModuleType) -> None:
    good = Run(Suit.S, Rank.ACE, 3)
    for name, value in (("top", 100), ("top", Rank.SEVEN), ("length", 9), ("points", 70)):
        forged = Run(Suit.H, Rank.ACE, 3)
        object.__setattr__(forged, name, value)
        with pytest.raises(InvalidInputError):
            engine.compare_runs(forged, good, "C")
        with pytest.raises(InvalidInputError):
            engine.run_winner([[forged], [], [], []], "C")


# ---- strict JSON: states and records ---------------------------------------------------------


def _with_duplicate_key(text: str) -> str:
    return text[:-1] + ', "dealer": 0}'


def test_state_json_refuses_duplicate_keys(engine: ModuleType) -> None:
    text = engine.HandState(1, seed=3).to_json()
    with pytest.raises(InvalidInputError, match="twice"):
        engine.HandState.from_json(_with_duplicate_key(text))
    match_text = engine.MatchState(seed=3).to_json()
    with pytest.raises(InvalidInputError, match="twice"):
        engine.MatchState.from_json(match_text[:-1] + ', "seed": 4}')


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "tarabish-state/1", "dealer": ' + "1" * 5_000 + "}",
        '{"format": "tarabish-state/1", "dealer": 1e' + "9" * 5_000 + "}",
        "[" * 100_000 + "]" * 100_000,
        '{"dealer": NaN}',
    ],
    ids=["huge int", "huge float", "deep", "NaN"],
)
def test_state_json_numbers_and_nesting(engine: ModuleType, text: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        engine.HandState.from_json(text)
    assert len(str(caught.value)) < 400


@pytest.mark.parametrize(
    "source",
    [
        _deep(2_000),
        "[" * 100_000 + "]" * 100_000,
        '{"format": "tarabish-record/1", "hands": [], "x": ' + "9" * 5_000 + "}",
        '{"format": "tarabish-record/1", "format": "tarabish-record/1", "hands": []}',
    ],
    ids=["deep list", "deep text", "huge int", "duplicate key"],
)
def test_records_refuse_hostile_json(source: Any) -> None:
    with pytest.raises(tarabish.RecordError):
        tarabish.replay(source)


def test_to_record_takes_states_only(engine: ModuleType) -> None:
    for bad in ([1, 2], 5, [engine.HandState(0, seed=1), None], {"deal": 1, "actions": 2}):
        with pytest.raises(InvalidInputError):
            tarabish.to_record(bad)


# ---- simulate and the bots -------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"hands": 1, "bots": None},
        {"hands": 1, "bots": 5},
        {"hands": 1, "bots": SURROGATE},
        {"hands": 10**5000},
        {"hands": 2**64},
        {"hands": 1, "seed": -1},
        {"hands": 1, "seed": 10**30},
        {"hands": 1, "threads": MAX_THREADS + 1},
        {"hands": 1, "threads": -1},
        {"hands": np.int64(5)},
    ],
    ids=range(10),
)
def test_simulate_bad_arguments(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidInputError):
        tarabish.simulate(**kwargs)


def test_simulate_parts_and_threads_change_nothing() -> None:
    """With a progress callback the batch is played in about 50 chunks (the core keeps its pool
    between them), without one in a single call; neither changes the counts, nor do threads."""
    seen: list[tuple[int, int]] = []
    parted = tarabish.simulate(hands=1_000, seed=9, threads=2, progress=lambda *p: seen.append(p))
    whole = tarabish.simulate(hands=1_000, seed=9, threads=1)
    most = tarabish.simulate(hands=1_000, seed=9, threads=MAX_THREADS)
    assert parted.counts() == whole.counts() == most.counts()
    assert 40 <= len(seen) <= 50 and seen[-1] == (1_000, 1_000)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_bot_action_bad_arguments() -> None:
    state = tarabish.HandState(0, seed=1)
    for args in ((state, "random", -1), (state, "random", 2**64), ("state", "random"), (state, 5)):
        with pytest.raises(InvalidInputError):
            core_bot_action(*args)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        tarabish.bot_action(state, "random", -1)


# ==== arbitrary values to every entry point ==================================================

EXAMPLES = max(60, settings.default.max_examples // 130)

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
    engine = engine_module(engine_name)
    only_tarabish_errors(lambda: ENGINE_CALLS[entry](engine, a, b, c))


@pytest.mark.parametrize("engine_name", ["rust", "reference"])
@settings(max_examples=EXAMPLES)
@given(entry=st.sampled_from(list(STATE_CALLS)), a=VALUES, actions=st.integers(0, 20))
def test_state_methods(engine_name: str, entry: str, a: Any, actions: int) -> None:
    engine = engine_module(engine_name)
    state = engine.HandState(actions % 4, seed=actions)
    for _ in range(actions):
        state.apply(state.legal_action_ids()[0])
    before = state.to_json()
    only_tarabish_errors(lambda: STATE_CALLS[entry](state, a))
    if entry != "apply":
        assert state.to_json() == before


@settings(max_examples=EXAMPLES)
@given(entry=st.sampled_from(list(MODULE_CALLS)), a=VALUES, b=VALUES)
# An int too long for str() once failed in the message that named it (a ValueError).
@example(entry="Action.from_id", a=10**5000, b=None)
def test_module_entry_points(entry: str, a: Any, b: Any) -> None:
    only_tarabish_errors(lambda: MODULE_CALLS[entry](a, b))
