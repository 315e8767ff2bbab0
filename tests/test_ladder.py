"""The strength ladder (python/tarabish/_ladder.py, docs/STRENGTH.md): each pair's matches are
exactly the duplicate tournament of the same seed; the ratings and intervals are the same on any
threads; the Bradley-Terry fit solves its likelihood equations and recovers known ratings; the
anchor; Python bots entered; bad input; `tarabish ladder` (JSON, table, messages)."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
import tarabish as tb
from tarabish._ladder import ELO_SCALE, PRIOR_WINS, fit_bradley_terry, rate
from terminal import run_tarabish
from test_cli import run_in_process

BOTS = ("random", "greedy", "heuristic")


class FirstLegal:
    """A Python bot: always the smallest legal id."""

    name = "first-legal"

    def act(self, observation: tb.Observation, legal_ids: list[int]) -> int:
        del observation
        return legal_ids[0]


def test_each_pair_plays_the_duplicate_tournament_of_the_same_seed() -> None:
    result = tb.ladder([*BOTS, FirstLegal()], 6, seed=3)
    entered = [*BOTS, FirstLegal()]
    for i in range(4):
        for j in range(i + 1, 4):
            pair = tb.tournament(entered[i], entered[j], 6, seed=3)
            assert (result.wins[i][j], result.wins[j][i]) == pair.wins
    assert result.bots == (*BOTS, "first-legal")


def test_ratings_and_intervals_are_the_same_on_one_thread_or_two() -> None:
    bots = (*BOTS, "ismcts:iterations=20")
    one = tb.ladder(bots, 4, seed=11, threads=1)
    two = tb.ladder(bots, 4, seed=11, threads=2)
    assert (one.wins, one.ratings, one.intervals) == (two.wins, two.ratings, two.intervals)
    assert one.ratings != tb.ladder(bots, 4, seed=12, threads=2).ratings


def test_random_is_the_anchor_and_else_the_first_bot() -> None:
    with_random = tb.ladder(("greedy", "random", "heuristic"), 8, seed=1)
    assert with_random.anchor == "random"
    assert with_random.ratings[1] == 0 and with_random.intervals[1] == (0, 0)
    # The heuristic beats random in nearly every match: far above it, with a clear interval.
    low, high = with_random.intervals[2]
    assert 0 < low <= with_random.ratings[2] <= high
    without = tb.ladder(("greedy", "heuristic"), 8, seed=1)
    assert without.anchor == "greedy" and without.ratings[0] == 0


def _score_equations(won: np.ndarray, matches: int, first: np.ndarray, second: np.ndarray) -> None:
    """The fit's ratings make each bot's expected wins equal its wins (both with the prior)."""
    fitted = fit_bradley_terry(won[None, :], matches, first, second, 3, 0)[0] / ELO_SCALE
    p = 1 / (1 + np.exp(fitted[second] - fitted[first]))
    expected, observed = np.zeros(3), np.zeros(3)
    for k, (i, j) in enumerate(zip(first, second, strict=True)):
        observed[i] += won[k] + PRIOR_WINS
        observed[j] += matches - won[k] + PRIOR_WINS
        expected[i] += (matches + 2 * PRIOR_WINS) * p[k]
        expected[j] += (matches + 2 * PRIOR_WINS) * (1 - p[k])
    assert observed == pytest.approx(expected, abs=1e-8)


def test_the_fit_solves_the_bradley_terry_equations() -> None:
    first, second = np.array([0, 0, 1]), np.array([1, 2, 2])
    for won in ([3.0, 9.0, 14.0], [0.0, 0.0, 0.0], [20.0, 20.0, 20.0], [10.0, 2.0, 19.0]):
        _score_equations(np.array(won), 20, first, second)


def test_the_fit_recovers_known_ratings() -> None:
    truth = np.array([0.0, 300.0, 650.0])  # Elo scale
    first, second = np.array([0, 0, 1]), np.array([1, 2, 2])
    matches = 10**9  # the prior's half wins vanish beside them
    p = 1 / (1 + np.exp((truth[second] - truth[first]) / ELO_SCALE))
    fitted = fit_bradley_terry((matches * p)[None, :], matches, first, second, 3, 0)[0]
    assert fitted == pytest.approx(truth, abs=1e-3)
    # A 400-point gap is ten to one odds.
    two = fit_bradley_terry(np.array([[10.0 / 11 * matches]]), matches, [0], [1], 2, 1)[0]
    assert two[0] == pytest.approx(400, abs=1e-3)


def test_the_intervals_resample_whole_deals() -> None:
    # Every deal won the same way by every pair: each resample is the data itself.
    constant = {(0, 1): np.full(30, 2), (0, 2): np.full(30, 1), (1, 2): np.full(30, 0)}
    ratings, intervals = rate(constant, 3, 0, seed=4)
    assert intervals[:, 0] == pytest.approx(ratings) and intervals[:, 1] == pytest.approx(ratings)
    # Deals that differ give an interval around the rating, the same for a seed.
    varied = {pair: np.arange(30) % 3 for pair in constant}
    ratings, intervals = rate(varied, 3, 0, seed=4)
    assert np.all(intervals[:, 0] <= ratings) and np.all(ratings <= intervals[:, 1])
    assert intervals[1, 0] < intervals[1, 1]
    assert np.array_equal(rate(varied, 3, 0, seed=4)[1], intervals)


def test_each_bot_is_timed_on_the_same_positions() -> None:
    result = tb.ladder(("random", "ismcts:iterations=400", FirstLegal()), 2, seed=5)
    cpu = dict(zip(result.bots, result.cpu_ms_per_decision, strict=True))
    assert all(math.isfinite(ms) and ms >= 0 for ms in cpu.values())
    assert cpu["ismcts:iterations=400,c=0.7,threads=1,seed=0,playout=1,bid=1"] > cpu["random"]


@pytest.mark.parametrize(
    ("bots", "options", "message"),
    [
        (("greedy",), {}, "a ladder needs two bots or more, got 1"),
        (("greedy", "greedy"), {}, "each bot once in a ladder: 'greedy' is entered twice"),
        (("greedy", "oracle"), {}, 'unknown bot "oracle"'),
        (BOTS, {"deals": 0}, "deals must be a whole number 1 or more, got 0"),
        (BOTS, {"threads": 999}, "threads must be 0 (all cores) to 256"),
        (BOTS, {"seed": -1}, "seed must be a whole number"),
        (BOTS, {"rules": tb.Rules(declarations="manual")}, "tournaments play auto-mode hands"),
    ],
)
def test_bad_input_is_refused_before_any_deal(
    bots: tuple[str, ...], options: dict[str, object], message: str
) -> None:
    with pytest.raises(tb.InvalidInputError, match="^" + re.escape(message)):
        tb.ladder(bots, **options)


def test_the_command_prints_the_api_s_ladder() -> None:
    done = run_tarabish("ladder", *BOTS, "--deals", "5", "--seed", "2", "--json")
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    expected = tb.ladder(BOTS, 5, seed=2).to_dict()
    for key in ("bots", "anchor", "deals", "matches_a_pair", "wins", "seed"):
        assert printed[key] == expected[key]
    assert [row["bot"] for row in printed["ladder"]] == [row["bot"] for row in expected["ladder"]]
    assert [row["rating"] for row in printed["ladder"]] == [
        row["rating"] for row in expected["ladder"]
    ]
    table = run_tarabish("ladder", *BOTS, "--deals", "5", "--seed", "2", "--target", "300")
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].startswith("3 bots, every pair on the same 5 deals")
    assert "random = 0" in lines[1] and lines[2].split()[:3] == ["rank", "bot", "rating"]
    assert [line.split()[1] for line in lines[3:6]][-1] == "random"


def test_the_command_explains_its_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    done = run_in_process(capsys, "ladder", "greedy")
    assert done.returncode == 2
    assert done.stderr.strip() == "tarabish ladder: a ladder needs two bots or more, got 1"
    bad = run_in_process(capsys, "ladder", "greedy", "oracle")
    assert bad.returncode == 2 and "argument BOT: unknown bot" in bad.stderr
