"""The command line (DESIGN.md "Command line"): `tarabish simulate` and `tarabish play`, run as
subprocesses the way a user runs them (`tarabish replay` is tested in test_records.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import tarabish as tb


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tarabish", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_simulate_json_is_the_same_batch_as_the_api() -> None:
    done = run("simulate", "--hands", "3000", "--seed", "11", "--json", "--threads", "2")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    expected = tb.simulate(hands=3000, seed=11, threads=1).counts()
    assert {key: summary[key] for key in expected} == expected
    outcomes = summary["outcomes"]
    assert sum(outcomes.values()) == 3000
    # R1.4: every played-out hand has 162 in cards and last.
    assert sum(summary["trick_points_by_seat"]) == 162 * (3000 - outcomes["void"])


def test_simulate_readable_summary_and_progress_bar() -> None:
    done = run("simulate", "--hands", "2000", "--bots", "greedy,random")
    assert done.returncode == 0, done.stderr
    assert "hands/s" in done.stdout and "bait" in done.stdout
    assert "100%" in done.stderr  # the progress bar ends full


def test_simulate_matches_with_rule_flags() -> None:
    done = run("simulate", "--matches", "30", "--forced-at", "400", "--dealer-may-pass", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["matches"] == 30
    assert sum(summary["match_wins"]) == 30  # R7.1: every match ends with a winner
    assert summary["hands"] >= 30


def test_simulate_bad_options_exit_2_with_one_line() -> None:
    done = run("simulate", "--hands", "10", "--bots", "oracle")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "oracle" in done.stderr


def test_play_a_whole_match_from_standard_input() -> None:
    # Always the first legal action: the match must run to its end (R7.1).
    done = run("play", "--seed", "5", stdin="1\n" * 400)
    assert done.returncode == 0, done.stderr
    assert "win the match" in done.stdout
    assert "last hand:" in done.stdout


def test_play_explains_an_illegal_card_and_goes_on() -> None:
    # Seat 0 answers the auction with a card: refused with the rule (R3.1), then it quits.
    done = run("play", "--seed", "5", stdin="JH\nq\n")
    assert done.returncode == 0, done.stderr
    assert "not allowed: R3.1" in done.stdout
    assert "bye" in done.stdout
