"""The command line (docs/ARCHITECTURE.md "Command line"): `tarabish simulate` and `tarabish
play`, run as subprocesses the way a user runs them, their help and their messages for bad
arguments, and the progress bar (drawn on a terminal only). `tarabish replay` is tested in
test_records.py, the screen of `tarabish play` in test_play_screen.py."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import pytest
import tarabish as tb
import tarabish._cli as cli
from tarabish import Rules
from tarabish._cli import main
from terminal import ANSI, TARABISH, run_in_terminal
from terminal import run_tarabish as run


def run_in_process(
    capsys: pytest.CaptureFixture[str], *args: str
) -> subprocess.CompletedProcess[str]:
    """``tarabish ARGS`` for the argument checks and help, which end before any work: the same
    ``main`` as the command, without starting an interpreter per case."""
    capsys.readouterr()
    try:
        code = main(list(args))
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["tarabish", *args], code, out, err)


def test_simulate_takes_every_bot_of_the_core_with_parameters() -> None:
    # A key=value item belongs to the spec before it; two specs: one a team (by team).
    done = run(
        "simulate", "--hands", "8", "--bots", "ismcts:iterations=8,c=0.5,heuristic", "--json"
    )
    assert done.returncode == 0, done.stderr
    bots = json.loads(done.stdout)["bots"]
    assert bots[1] == bots[3] == "heuristic" and bots[0] == bots[2]
    assert bots[0].startswith("ismcts:iterations=8,c=0.5,")


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


def test_simulate_readable_summary_and_no_progress_bar_in_a_log() -> None:
    done = run("simulate", "--hands", "2000", "--bots", "greedy,random")
    assert done.returncode == 0, done.stderr
    assert "hands/s" in done.stdout and "bait" in done.stdout
    assert "bots greedy/random/greedy/random (seats 0-3)" in done.stdout  # two bots: by team
    # Standard error is a pipe here, as in a log: no bar, no redraws.
    assert done.stderr == ""
    assert "\r" not in done.stdout


def test_simulate_draws_a_progress_bar_with_rate_and_time_left_on_a_terminal() -> None:
    screen = ANSI.sub("", run_in_terminal(["simulate", "--hands", "300000", "--threads", "1"]))
    bar = [line for line in screen.replace("\r", "\n").splitlines() if "hands/s" in line]
    assert any("100%" in line and "300,000/300,000" in line for line in bar), bar
    assert all(line.rstrip().endswith("left") for line in bar if "/300,000" in line)
    assert "games     300,000 hands" in screen  # then the summary


def test_simulate_matches_with_rule_flags() -> None:
    done = run("simulate", "--matches", "30", "--forced-at", "400", "--dealer-may-pass", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["matches"] == 30
    assert sum(summary["match_wins"]) == 30  # R7.1: every match ends with a winner
    assert summary["hands"] >= 30


@pytest.mark.parametrize(
    ("flags", "rules"),
    [
        (
            ("--table", "--late-twenty"),
            Rules(declarations="manual", enforce_legal_play=False, late_twenty=True),
        ),
        (
            ("--declarations", "manual", "--first-bell-ok"),
            Rules(declarations="manual", first_bell_ok=True),
        ),
        (("--no-enforce-legal-play",), Rules(enforce_legal_play=False)),
    ],
)
def test_simulate_table_mode_flags(flags: tuple[str, ...], rules: Rules) -> None:
    """The table-mode flags give the API's batch under those rules (docs/TABLE.md)."""
    done = run("simulate", "--hands", "400", "--seed", "3", "--json", *flags)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    expected = tb.simulate(hands=400, seed=3, rules=rules).counts()
    assert {key: summary[key] for key in expected} == expected
    assert expected != tb.simulate(hands=400, seed=3).counts()  # the flags changed the game
    readable = run("simulate", "--hands", "400", "--seed", "3", *flags).stdout
    called = expected["outcomes"]["misplay"] + expected["outcomes"]["throw_in"]
    assert ("misplay call" in readable) == (called > 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("simulate", "--hands", "-5"), "argument --hands: must be 0 or more, got -5"),
        (("simulate", "--matches", "x"), "argument --matches: must be a whole number, got 'x'"),
        (("simulate", "--threads", "-1"), "argument --threads: must be 0 or more, got -1"),
        (
            ("simulate", "--bots", "foo"),
            f'argument --bots: unknown bot "foo": one of {", ".join(tb._simulate.BOTS)}',
        ),
        (
            ("simulate", "--bots", "random,random,greedy"),
            "argument --bots: give one bot, two (by team) or four (by seat), comma-separated; "
            "got 3",
        ),
        (("simulate", "--seed", "-1"), "argument --seed: must be 0 to 2**64-1, got -1"),
        (("simulate", "--target", "0"), "argument --target: must be 1 to 65535 points, got 0"),
        (("simulate", "--hnads", "5"), "unrecognized arguments: --hnads 5"),
        (("play", "--bot", "oracle"), 'argument --bot: unknown bot "oracle": one of random, '),
        (("play", "--sead", "1"), "unrecognized arguments: --sead 1"),
        (("replay", "--chek", "x.json"), "unrecognized arguments: --chek"),
        (("replay", "a.json", "b.json"), "one FILE at a time (several only with --check)"),
    ],
)
def test_bad_arguments_are_refused_under_their_subcommand_s_usage(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    done = run_in_process(capsys, *args)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[0].startswith(f"usage: tarabish {args[0]} ")  # the subcommand's usage
    assert lines[-1].startswith(f"tarabish {args[0]}: error: {message}"), lines[-1]
    assert "[" not in lines[-1] and "Traceback" not in done.stderr  # no Python reprs of lists


def test_every_command_module_is_a_listed_command(capsys: pytest.CaptureFixture[str]) -> None:
    # One module a subcommand (docs/ARCHITECTURE.md "Command line"): a module of tarabish._cli
    # that is not in COMMANDS would be a command nobody can run.
    modules = {
        found.name for found in pkgutil.iter_modules(cli.__path__) if not found.name.startswith("_")
    }
    assert {command.name for command in cli.COMMANDS} == modules
    top = run_in_process(capsys, "--help").stdout
    assert all(f"    {name}" in top for name in modules)


def test_the_command_line_loads_each_command_s_heavy_modules_only_for_it() -> None:
    # Every subcommand's module is imported to build the parser; what only one command needs
    # (numpy for ladder, the server's web stack) is imported when that command runs, so
    # `tarabish --help` and the other commands do not pay for it.
    heavy = {"numpy", "starlette", "uvicorn"}
    code = f"import sys, tarabish._cli; print(sorted({heavy!r} & set(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_help_describes_each_subcommand_and_rule_flag(capsys: pytest.CaptureFixture[str]) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_in_process(capsys, *args)

    top = run("--help").stdout
    listed = top.split("  COMMAND\n", 1)[1].split("\n\n")[0]  # "    name  summary" lines
    # A name is indented by four spaces; a summary wrapped under a long name, by more.
    commands = [
        line.split()[0]
        for line in listed.splitlines()
        if line.startswith("    ") and not line.startswith("     ")
    ]
    assert {"simulate", "replay", "play"} <= set(commands)
    for command in commands:  # every subcommand, those added later too
        text = " ".join(run(command, "--help").stdout.split())  # unwrapped
        assert f"usage: tarabish {command}" in text
        described = text.split("options:")[0]
        assert len(described.split()) > 40  # a description of what the command does
    simulate = " ".join(run("simulate", "--help").stdout.split())
    assert "--dealer-may-pass the dealer may pass too; a hand nobody calls is void (R3.3)" in (
        simulate
    )
    for flag, rule in [
        ("--team-runs", "R4.3"),
        ("--head-plain", "R5.1a"),
        ("--undertrump-optional", "R5.1b"),
        ("--partner-exempt", "R5.1)"),
        ("--half-bait-is-bait", "R6.4"),
        ("--forced-at POINTS", "R3.4"),
        ("--target POINTS", "R7.1"),
    ]:
        words = simulate.split("rules:", 1)[1].split(flag, 1)[1].split("--", 1)[0]
        assert rule in words and len(words.split()) >= 8, (flag, words)
    replay = " ".join(run("replay", "--help").stdout.split())
    assert "--engine {rust,reference} the engine that plays the records: rust" in replay
    assert "--check compare the results stored in each FILE" in replay


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


@pytest.mark.long
def test_play_survives_its_input() -> None:
    """Thousands of bad lines (no recursion), non-ASCII and huge numbers, then the end of input:
    each refused with a message, and the game ends cleanly."""
    bad = [
        "\u00b2",
        "\u0661",
        "\U0001d7cf",
        "9" * 5_000,
        "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
        "x",
    ]
    # 3,000 lines: the old recursive loop failed after about 3,000.
    done = run("play", "--seed", "5", stdin="\n".join(bad * 500) + "\n")
    assert done.returncode == 0, done.stderr[-2_000:]
    assert "Traceback" not in done.stderr
    assert done.stdout.count("is not an action") >= 2_500
    assert "bye" in done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("tournament", "greedy", "random", "--deals", "4", "--json"),
        ("replay", "tests/golden/bait_caller_runs_bella.json"),
    ],
    ids=["tournament", "replay"],
)
def test_a_reader_that_leaves_ends_the_command_quietly(args: tuple[str, ...]) -> None:
    # `tarabish ... --json | head`: the reader closes the pipe before the output is written.
    process = subprocess.Popen(
        [*TARABISH, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    process.stdout.close()
    _, errors = process.communicate(timeout=60)
    assert errors == ""
    assert process.returncode == 141  # 128 + SIGPIPE, as a shell reports it
