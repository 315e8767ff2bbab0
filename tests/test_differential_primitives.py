"""Differential property tests of the rule primitives: the Rust core and ``tarabish.reference``
must agree on every input (docs/ENGINE.md), valid or not.

Positions are reachable (strategies.play_situations): four disjoint hands of equal size, and
every card already in the trick was legal for the hand it came from. Every combination of the
variants is drawn. Bad input must raise ``tarabish.InvalidInputError`` from both engines, and
garbage must never crash either one (only a result or ``InvalidInputError``).

The ``*_match_the_spec_model`` properties also check each engine on its own against the small
spec model of strategies.py (written from RULES.md), so they run without the Rust core too.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from types import ModuleType
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import (
    ALL_RUNS,
    MAX_POINTS,
    SEEDS,
    PlaySituation,
    SeatRuns,
    card_forms,
    cards,
    distinct_tricks,
    hands,
    model_find_runs,
    model_legal_plays,
    model_trick_winner,
    play_situations,
    points_pairs,
    primitive,
    reachable_tricks,
    rules_variants,
    runs,
    seat_runs,
    secondary,
    suits,
    trumps,
)
from tarabish import DECK, Card, InvalidInputError, Outcome, Rules, Run, Suit

Engines = tuple[ModuleType, ModuleType]


def outcome_of(call: Callable[[], Any]) -> tuple[str, Any]:
    """``("ok", value)`` or ``("invalid", message-free marker)``; any other exception (or a
    Rust panic, a ``BaseException``) propagates and fails the test."""
    try:
        return ("ok", call())
    except InvalidInputError as exc:
        assert type(exc) is InvalidInputError, f"{type(exc)} is not tarabish.InvalidInputError"
        assert str(exc), "an InvalidInputError needs a message"
        return ("invalid", None)


def agree(engines: Engines, name: str, *args: Any) -> tuple[str, Any]:
    rust, reference = engines
    got_rust = outcome_of(lambda: getattr(rust, name)(*args))
    got_reference = outcome_of(lambda: getattr(reference, name)(*args))
    assert got_rust == got_reference, (
        f"{name}{args!r}: rust {got_rust!r} != reference {got_reference!r}"
    )
    return got_rust


def both_raise(engines: Engines, name: str, *args: Any) -> None:
    for engine, label in zip(engines, ("rust", "reference"), strict=True):
        got = outcome_of(lambda engine=engine: getattr(engine, name)(*args))
        assert got[0] == "invalid", f"{label} {name}{args!r} returned {got[1]!r}"


# --------------------------------------------------------------------------------------------
# Independent models of R4.3 and R6 (R5.1, R5.2, R4.1 are in strategies.py)
# --------------------------------------------------------------------------------------------


def run_key(run: Run, trump: Suit) -> tuple[int, int, bool]:
    return (run.length, int(run.top), run.suit == trump)


def model_compare(a: Run, b: Run, trump: Suit) -> int:
    key_a, key_b = run_key(a, trump), run_key(b, trump)
    return (key_a > key_b) - (key_a < key_b)


def model_run_winner(runs_by_seat: list[list[Run]], trump: Suit) -> int | None:
    best = {
        seat: max(run_key(run, trump) for run in seat_list)
        for seat, seat_list in enumerate(runs_by_seat)
        if seat_list
    }
    if not best:
        return None
    top = max(best.values())
    holders = [seat for seat, key in best.items() if key == top]
    return holders[0] if len(holders) == 1 else None


def model_score(points: tuple[int, int], caller: int, rules: Rules) -> tuple[Outcome, list[int]]:
    count = sum(points)
    mine, theirs = points[caller], points[1 - caller]
    score = [0, 0]
    if mine > theirs:
        return Outcome.MADE, list(points)
    if mine < theirs:
        score[1 - caller] = count
        return Outcome.BAIT, score
    score[1 - caller] = count if rules.half_bait_is_bait else theirs
    return Outcome.HALF_BAIT, score


# --------------------------------------------------------------------------------------------
# legal_plays
# --------------------------------------------------------------------------------------------


@primitive()
@given(situation=play_situations(), data=st.data())
def test_legal_plays_agree(
    engine_pair: Engines, situation: PlaySituation, data: st.DataObject
) -> None:
    hand = data.draw(card_forms(situation.hand))
    trick = data.draw(card_forms(situation.trick))
    trump = data.draw(st.sampled_from([situation.trump, str(situation.trump)]))
    kind, result = agree(engine_pair, "legal_plays", hand, trick, trump, situation.rules)
    assert kind == "ok"
    assert result, "a player always has a legal card"
    assert set(result) <= set(situation.hand)
    assert [card.index for card in result] == sorted({card.index for card in result})
    kind, reversed_result = agree(
        engine_pair, "legal_plays", situation.hand[::-1], situation.trick, trump, situation.rules
    )
    assert reversed_result == result, "the order of the hand must not matter"


@secondary()
@given(situation=play_situations())
def test_legal_plays_match_the_spec_model(engine: ModuleType, situation: PlaySituation) -> None:
    expected = model_legal_plays(situation.hand, situation.trick, situation.trump, situation.rules)
    got = engine.legal_plays(situation.hand, situation.trick, situation.trump, situation.rules)
    assert got == expected, situation


@primitive()
@given(situation=play_situations(rules=st.just(Rules()), min_trick=1))
def test_legal_plays_default_rules_argument(engine_pair: Engines, situation: PlaySituation) -> None:
    for engine in engine_pair:
        assert engine.legal_plays(situation.hand, situation.trick, situation.trump) == (
            engine.legal_plays(situation.hand, situation.trick, situation.trump, Rules())
        )


# --------------------------------------------------------------------------------------------
# trick_winner, card_points
# --------------------------------------------------------------------------------------------


@primitive()
@given(trick_and_trump=st.one_of(reachable_tricks(), distinct_tricks()), data=st.data())
def test_trick_winner_agree(
    engine_pair: Engines, trick_and_trump: tuple[list[Card], Suit], data: st.DataObject
) -> None:
    trick, trump = trick_and_trump
    form = data.draw(card_forms(trick))
    kind, winner = agree(engine_pair, "trick_winner", form, trump)
    assert kind == "ok"
    assert winner == model_trick_winner(trick, trump)
    # R5.2: the winner is a trump, or of the suit led when no trump was played
    trumps_played = [card for card in trick if card.suit == trump]
    assert trick[winner].suit == (trump if trumps_played else trick[0].suit)


@secondary()
@given(trick_and_trump=st.one_of(reachable_tricks(), distinct_tricks()))
def test_trick_winner_match_the_spec_model(
    engine: ModuleType, trick_and_trump: tuple[list[Card], Suit]
) -> None:
    trick, trump = trick_and_trump
    assert engine.trick_winner(trick, trump) == model_trick_winner(trick, trump)


@primitive()
@given(card=cards, trump=trumps(), as_text=st.booleans())
def test_card_points_agree(
    engine_pair: Engines, card: Card, trump: Suit | str, as_text: bool
) -> None:
    kind, points = agree(engine_pair, "card_points", str(card) if as_text else card, trump)
    assert kind == "ok"
    assert points in (0, 2, 3, 4, 10, 11, 14, 20)


# --------------------------------------------------------------------------------------------
# find_runs, compare_runs, run_winner
# --------------------------------------------------------------------------------------------


@primitive()
@given(hand=hands(0, 9), data=st.data())
def test_find_runs_agree(engine_pair: Engines, hand: list[Card], data: st.DataObject) -> None:
    kind, found = agree(engine_pair, "find_runs", data.draw(card_forms(hand)))
    assert kind == "ok"
    assert found == model_find_runs(hand)
    held = [card for run in found for card in run.cards]
    assert len(held) == len(set(held)) and set(held) <= set(hand)


@primitive()
@given(seats=seat_runs(declare_all=True))
def test_find_runs_on_run_rich_hands(engine_pair: Engines, seats: SeatRuns) -> None:
    for hand in seats.hands:
        kind, found = agree(engine_pair, "find_runs", list(hand))
        assert kind == "ok"
        assert found == model_find_runs(hand)


@secondary()
@given(hand=hands(0, 9))
def test_find_runs_match_the_spec_model(engine: ModuleType, hand: list[Card]) -> None:
    assert engine.find_runs(hand) == model_find_runs(hand)


@primitive()
@given(a=runs, b=runs, c=runs, trump=trumps())
def test_compare_runs_agree_antisymmetric_transitive(
    engine_pair: Engines, a: Run, b: Run, c: Run, trump: Suit | str
) -> None:
    trump_suit = trump if isinstance(trump, Suit) else Suit.parse(trump)
    for engine in engine_pair:
        ab = engine.compare_runs(a, b, trump)
        ba = engine.compare_runs(b, a, trump)
        bc = engine.compare_runs(b, c, trump)
        ac = engine.compare_runs(a, c, trump)
        assert ab in (-1, 0, 1) and ab == -ba, (engine.__name__, a, b)
        assert engine.compare_runs(a, a, trump) == 0
        if ab >= 0 and bc >= 0:
            assert ac >= 0, (engine.__name__, a, b, c)
            if ab > 0 or bc > 0:
                assert ac > 0, (engine.__name__, a, b, c)
        if ab == 0 and bc == 0:
            assert ac == 0, (engine.__name__, a, b, c)
        assert ab == model_compare(a, b, trump_suit)
    for x, y in ((a, b), (b, c), (a, c)):
        agree(engine_pair, "compare_runs", x, y, trump)


@primitive()
@given(seats=seat_runs(), trump=st.none() | trumps())
def test_run_winner_agree(engine_pair: Engines, seats: SeatRuns, trump: Suit | str | None) -> None:
    trump_arg = seats.trump if trump is None else trump
    trump_suit = Suit.parse(str(trump_arg))
    kind, winner = agree(engine_pair, "run_winner", seats.runs, trump_arg)
    assert kind == "ok"
    assert winner == model_run_winner(seats.runs, trump_suit)


@secondary()
@given(seats=seat_runs())
def test_run_winner_match_the_spec_model(engine: ModuleType, seats: SeatRuns) -> None:
    assert engine.run_winner(seats.runs, seats.trump) == model_run_winner(seats.runs, seats.trump)


# --------------------------------------------------------------------------------------------
# score_hand
# --------------------------------------------------------------------------------------------


@primitive()
@given(points=points_pairs(), caller=st.integers(0, 1), rules=rules_variants())
def test_score_hand_agree(
    engine_pair: Engines, points: tuple[int, int], caller: int, rules: Rules
) -> None:
    kind, result = agree(engine_pair, "score_hand", points, caller, rules)
    assert kind == "ok"
    outcome, score = result
    expected_outcome, expected_score = model_score(points, caller, rules)
    assert tuple(score) == tuple(expected_score)
    if expected_outcome is Outcome.HALF_BAIT and rules.half_bait_is_bait:
        assert outcome in (Outcome.HALF_BAIT, Outcome.BAIT)
    else:
        assert outcome is expected_outcome


@secondary()
@given(points=points_pairs(), caller=st.integers(0, 1), rules=rules_variants())
def test_score_hand_match_the_spec_model(
    engine: ModuleType, points: tuple[int, int], caller: int, rules: Rules
) -> None:
    outcome, score = engine.score_hand(points, caller, rules)
    expected_outcome, expected_score = model_score(points, caller, rules)
    assert score == tuple(expected_score)
    assert sum(score) in (sum(points), points[1 - caller])  # R6.3/R6.4: nothing is invented
    if not (expected_outcome is Outcome.HALF_BAIT and rules.half_bait_is_bait):
        assert outcome is expected_outcome


# --------------------------------------------------------------------------------------------
# Bad input: InvalidInputError from both engines
# --------------------------------------------------------------------------------------------

ASCII_GARBAGE = st.text(
    alphabet=string.ascii_letters + string.digits + string.punctuation, min_size=1, max_size=4
)


def parses(text: str) -> bool:
    try:
        Card.parse(text)
    except InvalidInputError:
        return False
    return True


unknown_card_texts = ASCII_GARBAGE.filter(lambda text: "," not in text and not parses(text))
#: Texts that are not cards, for the seeded bad-input tests (hypothesis explores the whole
#: space of such texts in ``test_unknown_card_texts_rejected_by_both``).
UNKNOWN_CARD_TEXTS = (
    "",
    " ",
    "X",
    "1H",
    "11H",
    "JX",
    "JHH",
    "ZZ",
    "0S",
    "5C",
    "JH JH",
    "J",
    "H",
    "10",
    "TT",
    "\u017fH",
    "J\u017f",
    "6\x1cH",
    "KH\x00",
    "AS,",
    "Ace",
    "jokers",
)


@primitive()
@given(text=unknown_card_texts, position=st.integers(0, 2))
def test_unknown_card_texts_rejected_by_both(
    engine_pair: Engines, text: str, position: int
) -> None:
    hand: list[Any] = ["6H", "AS"]
    hand.insert(position, text)
    both_raise(engine_pair, "legal_plays", hand, [], "H")
    both_raise(engine_pair, "card_points", text, "H")
    both_raise(engine_pair, "find_runs", hand)


@primitive()
@given(situation=play_situations(), seed=SEEDS)
def test_legal_plays_bad_input_raises_from_both(
    engine_pair: Engines, situation: PlaySituation, seed: int
) -> None:
    rng = random.Random(seed)
    hand: list[Any] = list(situation.hand)
    trick: list[Any] = list(situation.trick)
    kind = rng.choice(
        ["hand_dup", "trick_dup", "hand_10", "hand_0", "trick_4", "unknown", "overlap"]
    )
    free = [card for card in DECK if card not in hand and card not in trick]
    if kind == "hand_dup":
        hand.insert(rng.randint(0, len(hand)), rng.choice(hand))
    elif kind == "trick_dup":
        assume(trick)
        trick.insert(rng.randint(0, len(trick)), rng.choice(trick))
    elif kind == "hand_10":
        hand = (hand + rng.sample(free, len(free)))[:10]
    elif kind == "hand_0":
        hand = []
    elif kind == "trick_4":
        trick = (trick + rng.sample(free, len(free)))[:4]
    elif kind == "unknown":
        target = rng.choice([hand, trick] if trick else [hand])
        target.insert(rng.randint(0, len(target)), rng.choice(UNKNOWN_CARD_TEXTS))
    else:  # overlap: one card in both the hand and the trick
        if len(trick) < 3 and rng.random() < 0.5:
            trick.append(rng.choice(hand))
        else:
            assume(trick)
            hand.append(rng.choice(trick))
            assume(len(hand) <= 9)
    if rng.random() < 0.5:
        hand = [str(card) for card in hand]
        trick = [str(card) for card in trick]
    both_raise(engine_pair, "legal_plays", hand, trick, situation.trump, situation.rules)


@primitive()
@given(trick=hands(1, 4), trump=suits, seed=SEEDS)
def test_trick_winner_bad_input_raises_from_both(
    engine_pair: Engines, trick: list[Card], trump: Suit, seed: int
) -> None:
    rng = random.Random(seed)
    bad: list[Any] = list(trick)
    kind = rng.choice(["dup", "five", "empty", "unknown"])
    if kind == "dup":
        bad.insert(rng.randint(0, len(bad)), rng.choice(trick))
    elif kind == "five":
        free = [card for card in DECK if card not in trick]
        bad = (bad + rng.sample(free, len(free)))[:5]
    elif kind == "empty":
        bad = []
    else:
        bad.insert(rng.randint(0, len(bad)), rng.choice(UNKNOWN_CARD_TEXTS))
    both_raise(engine_pair, "trick_winner", bad, trump)


@primitive()
@given(hand=hands(0, 9), seed=SEEDS)
def test_find_runs_bad_input_raises_from_both(
    engine_pair: Engines, hand: list[Card], seed: int
) -> None:
    rng = random.Random(seed)
    bad: list[Any] = list(hand)
    kind = rng.choice(["dup", "ten", "unknown"])
    if kind == "dup":
        assume(hand)
        bad.insert(rng.randint(0, len(bad)), rng.choice(hand))
    elif kind == "ten":
        free = [card for card in DECK if card not in hand]
        bad = (bad + rng.sample(free, len(free)))[:10]
        rng.shuffle(bad)
    else:
        bad.insert(rng.randint(0, len(bad)), rng.choice(UNKNOWN_CARD_TEXTS))
    both_raise(engine_pair, "find_runs", bad)


@primitive()
@given(seats=seat_runs(), seed=SEEDS)
def test_run_winner_bad_input_raises_from_both(
    engine_pair: Engines, seats: SeatRuns, seed: int
) -> None:
    rng = random.Random(seed)
    bad = [list(seat_list) for seat_list in seats.runs]
    kind = rng.choice(["three", "five", "shared_card"])
    if kind == "three":
        del bad[rng.randint(0, 3)]
    elif kind == "five":
        bad.insert(rng.randint(0, 4), [])
    else:
        source = rng.choice(ALL_RUNS)
        overlapping = [run for run in ALL_RUNS if set(run.cards) & set(source.cards)]
        bad[rng.randrange(4)].append(source)
        bad[rng.randrange(4)].append(rng.choice(overlapping))
    both_raise(engine_pair, "run_winner", bad, seats.trump)


POINT_VALUES = st.one_of(
    st.integers(-500, 500), st.integers(MAX_POINTS - 3, MAX_POINTS + 3), st.integers(2**30, 2**70)
)


@primitive()
@given(
    points=st.tuples(POINT_VALUES, POINT_VALUES), caller=st.integers(-3, 4), rules=rules_variants()
)
def test_score_hand_bad_input_raises_from_both(
    engine_pair: Engines, points: tuple[int, int], caller: int, rules: Rules
) -> None:
    assume(min(points) < 0 or max(points) > MAX_POINTS or caller not in (0, 1))
    both_raise(engine_pair, "score_hand", points, caller, rules)


# --------------------------------------------------------------------------------------------
# Garbage never crashes (and both engines see it the same way)
# --------------------------------------------------------------------------------------------

garbage_items = st.one_of(
    st.text(max_size=6),
    st.integers(),
    st.integers(-5, 40),
    st.none(),
    st.floats(allow_nan=True),
    st.binary(max_size=4),
    st.booleans(),
    cards,
    cards.map(str),
)
garbage_suits = st.one_of(
    st.text(max_size=3), st.integers(-5, 10), st.none(), st.floats(), suits, suits.map(str)
)


def answers_or_rejects(call: Callable[[], Any]) -> None:
    """Only a result or an InvalidInputError; anything else (TypeError, a Rust panic, …) fails."""
    outcome_of(call)


@secondary()
@given(
    hand=st.lists(garbage_items, max_size=10),
    trick=st.lists(garbage_items, max_size=5),
    trump=garbage_suits,
    rules=st.one_of(rules_variants(), garbage_items),
)
def test_garbage_cards_never_crash(
    engine: ModuleType, hand: list[Any], trick: list[Any], trump: Any, rules: Rules
) -> None:
    answers_or_rejects(lambda: engine.legal_plays(hand, trick, trump, rules))
    answers_or_rejects(lambda: engine.trick_winner(trick, trump))
    answers_or_rejects(lambda: engine.find_runs(hand))
    for item in hand[:3]:
        answers_or_rejects(lambda item=item: engine.card_points(item, trump))
    answers_or_rejects(lambda: engine.score_hand((81, 80), 0, rules))
    answers_or_rejects(lambda: engine.run_winner([hand[:1], [], [], []], trump))


@primitive()
@given(
    hand=st.lists(st.one_of(ASCII_GARBAGE, cards.map(str), st.integers(-2, 40)), max_size=10),
    trick=st.lists(st.one_of(ASCII_GARBAGE, cards.map(str)), max_size=5),
    trump=st.one_of(st.text(alphabet=string.ascii_letters, max_size=2), suits),
    rules=rules_variants(),
)
def test_garbage_cards_same_answer_from_both(
    engine_pair: Engines, hand: list[Any], trick: list[Any], trump: Any, rules: Rules
) -> None:
    agree(engine_pair, "legal_plays", hand, trick, trump, rules)
    agree(engine_pair, "trick_winner", trick, trump)
    agree(engine_pair, "find_runs", hand)
    agree(engine_pair, "legal_plays", " ".join(map(str, hand)), " ".join(trick), trump, rules)
    for item in hand[:3]:
        agree(engine_pair, "card_points", item, trump)


# --------------------------------------------------------------------------------------------
# Argument forms at the edge of the interface: both engines must answer alike
# --------------------------------------------------------------------------------------------

TRICKY_CARD_TEXTS = [
    "jh",
    " 10h ",
    "JH\n",
    "\tJH",
    "JH\u00a0",  # no-break space
    "\u2003JH",  # em space
    "JH\x1c",  # ASCII file separator: whitespace to Python's str.strip only
    "\x1fJH",
    "6\u017f",  # long s (U+017F): its upper() is "S" in Python
    "\uff2a\uff28",  # fullwidth J H
    "J\uff28",
    "1O H",
    "10",
    "T",
    "JH 9H",
]


def agree_fresh(engines: Engines, name: str, make_args: Callable[[], tuple[Any, ...]]) -> None:
    """Like ``agree`` with fresh arguments for each engine (iterators are consumed)."""
    rust, reference = engines
    got_rust = outcome_of(lambda: getattr(rust, name)(*make_args()))
    got_reference = outcome_of(lambda: getattr(reference, name)(*make_args()))
    assert got_rust == got_reference, (
        f"{name}{make_args()!r}: rust {got_rust!r} != reference {got_reference!r}"
    )


def test_tricky_card_texts_agree(engine_pair: Engines) -> None:
    failures = []
    for text in TRICKY_CARD_TEXTS:
        for name, args in (
            ("card_points", (text, "H")),
            ("legal_plays", ([text], [], "H")),
            ("legal_plays", (f"{text} 6C", "", "H")),
            ("find_runs", ([text, "QH", "KH"],)),
            ("trick_winner", ([text], "S")),
            ("card_points", ("JH", text[-1])),
        ):
            try:
                agree(engine_pair, name, *args)
            except AssertionError as exc:
                failures.append(str(exc).splitlines()[0])
    assert not failures, "\n".join(failures)


def test_rules_argument_forms_agree(engine_pair: Engines) -> None:
    failures = []
    for rules in (Rules(), Rules(head_plain=True), None, "head_plain", {}, 1):
        for name, args in (
            ("legal_plays", (["6H", "AH"], ["KH"], "S", rules)),
            ("score_hand", ((81, 81), 0, rules)),
        ):
            try:
                agree(engine_pair, name, *args)
            except AssertionError as exc:
                failures.append(str(exc).splitlines()[0])
    assert not failures, "\n".join(failures)


def test_iterable_hands_agree(engine_pair: Engines) -> None:
    hand = ["6S", "9S", "KS", "7C"]
    agree_fresh(engine_pair, "legal_plays", lambda: (tuple(hand), ("AH", "8S"), "S"))
    agree_fresh(engine_pair, "legal_plays", lambda: (iter(hand), iter(["AH", "8S"]), "S"))
    agree_fresh(engine_pair, "trick_winner", lambda: ((c for c in ["AH", "8S"]), "S"))
    agree_fresh(engine_pair, "find_runs", lambda: ((c for c in ["6S", "7S", "8S"]),))
