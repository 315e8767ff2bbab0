"""The cost of one rule primitive called from Python: Rust core beside the reference.

Each group holds the ``rust`` and ``reference`` rows of one primitive on the same input, and each
benchmark checks the value it returned against the rules (docs/RULES.md). The project expects a
Rust call well under a microsecond and at least 20 times faster than the reference; the summary
at the end of the run says whether each group meets that (the figures are not asserted: they
depend on the machine and its load).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from tarabish import Rank, Run, Suit, parse_cards

# R5.1a: trump (spades) was led and the trick holds TS; the hand holds trumps, and of them only 9S
# beats TS (trump order J 9 A T K Q 8 7 6), so it must head the trick with 9S.
LEGAL_HAND = "6S 7S 8S 9S AH KD QC JC"
LEGAL_TRICK = "TS JH"
LEGAL_TRUMP = "S"
LEGAL_EXPECTED = parse_cards("9S")

# R5.2: hearts are trump; JH, the only trump, wins although spades were led.
TRICK = "8S 9S TS JH"
TRICK_TRUMP = "H"
TRICK_EXPECTED = 3

# R4.1: 6S-TS is five in a row, one fifty of its top four cards (TS down to 7S); JH QH KH is a
# twenty; AC is alone. Ordered by length, then top.
RUNS_HAND = "6S 7S 8S 9S TS JH QH KH AC"
RUNS_EXPECTED = [Run(Suit.S, Rank.TEN, 4), Run(Suit.H, Rank.KING, 3)]


# One call takes well under a microsecond: each timed round makes many calls (at least 200 µs of
# them) so that the timer's own cost does not count, and the calibration warms up first (without
# it, one slow first call makes pytest-benchmark time a single call a round).
PER_CALL: dict[str, Any] = {"min_time": 2e-4, "warmup": True, "warmup_iterations": 2_000}


def _primitive(benchmark: Any) -> None:
    benchmark.extra_info["primitive"] = True


@pytest.mark.benchmark(group="legal_plays", **PER_CALL)
def test_legal_plays(benchmark: Any, engine: ModuleType) -> None:
    _primitive(benchmark)
    hand, trick = parse_cards(LEGAL_HAND), parse_cards(LEGAL_TRICK)
    legal = benchmark(engine.legal_plays, hand, trick, Suit.parse(LEGAL_TRUMP))
    assert legal == LEGAL_EXPECTED


@pytest.mark.benchmark(group="legal_plays, card text", **PER_CALL)
def test_legal_plays_text(benchmark: Any, engine: ModuleType) -> None:
    """The same call with the cards and the suit given as text (parsed on every call)."""
    _primitive(benchmark)
    legal = benchmark(engine.legal_plays, LEGAL_HAND, LEGAL_TRICK, LEGAL_TRUMP)
    assert legal == LEGAL_EXPECTED


@pytest.mark.benchmark(group="trick_winner", **PER_CALL)
def test_trick_winner(benchmark: Any, engine: ModuleType) -> None:
    _primitive(benchmark)
    winner = benchmark(engine.trick_winner, parse_cards(TRICK), Suit.parse(TRICK_TRUMP))
    assert winner == TRICK_EXPECTED


@pytest.mark.benchmark(group="find_runs", **PER_CALL)
def test_find_runs(benchmark: Any, engine: ModuleType) -> None:
    _primitive(benchmark)
    runs = benchmark(engine.find_runs, parse_cards(RUNS_HAND))
    assert runs == RUNS_EXPECTED
    assert [run.points for run in runs] == [50, 20]
