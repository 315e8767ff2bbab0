"""Hostile input: every bad input raises a ``tarabish.TarabishError`` subclass with a
short message naming the rule, on both engines where both have the entry point; nothing a
crafted value carries is trusted.
"""

from __future__ import annotations

import copyreg
import pickle
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import tarabish
from tarabish import Action, Card, InvalidInputError, Rank, Rules, Run, Suit
from tarabish._core import MAX_THREADS
from tarabish._core import bot_action as core_bot_action

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


def _deep(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


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
