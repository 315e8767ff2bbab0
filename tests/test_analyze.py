"""``tarabish analyze`` (docs/SOLVER.md): on every golden record, each play's loss is the
solver's value of the position minus the solver's value of the card played (checked by
solving the position again, and by the reference's plain minimax in the last three tricks),
losses are never negative, and each finished hand balances: a team's card points taken equal
its double-dummy value when trump was named, minus its own losses, plus the other team's.
Table-mode records (R8) are solved as legal play from the same cards, declarations passed over,
each hand up to its first misplay or call. The command line's JSON and readable reports, and
its refusals."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import tarabish as tb
import tarabish.reference as ref
from tarabish import ActionKind, HandResult, Phase
from tarabish._analyze import CALLS, DECLARATIONS, analyze, legal_play_rules
from tarabish._record import parse_record
from tarabish._replay import play_record
from terminal import run_tarabish

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))
ENDGAME_CARDS = 12  # positions of at most three tricks also go to the reference minimax


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_golden_record_losses_match_the_solver_and_balance(path: Path) -> None:
    source = path.read_bytes()
    record = parse_record(source)
    rules = legal_play_rules(record.rules)
    analysis = analyze(source, threads=1)
    played = play_record(record)
    assert len(analysis.hands) == len(record.hands)
    for hand, hand_record, result in zip(analysis.hands, record.hands, played.hands, strict=True):
        rust = tb.HandState(
            hand_record.dealer,
            deal=[list(c) for c in hand_record.deal],
            rules=rules,
            scores_before=hand_record.scores_before,
        )
        mirror = ref.HandState(
            hand_record.dealer,
            deal=[list(c) for c in hand_record.deal],
            rules=rules,
            scores_before=hand_record.scores_before,
        )
        plays = iter(hand.plays)
        stopped = None
        for number, action in enumerate(hand_record.actions):
            if action.kind in DECLARATIONS:
                continue
            if action.kind in CALLS:
                break
            if action.kind is ActionKind.PLAY and rust.phase is Phase.PLAY:
                assert action.card is not None
                if action.card.index not in rust.legal_action_ids():  # R8.1: a misplay
                    stopped = number
                    break
                play = next(plays)
                assert (play.action, play.seat, play.card) == (number, action.seat, action.card)
                solution = tb.solve(rust)
                assert play.value == solution.value
                assert play.played_value == solution.values[play.card.index]
                assert {c.index: v for c, v in play.values} == solution.values
                assert play.loss >= 0
                assert [c.index for c in play.best] == solution.best
                if sum(len(cards) for cards in rust.hands) <= ENDGAME_CARDS:
                    assert ref.solve(mirror) == solution
            rust.apply(str(action))
            mirror.apply(str(action))
        assert hand.stopped == stopped
        assert next(plays, None) is None
        ended_by_call = isinstance(result.result, HandResult) and result.result.call is not None
        if (
            isinstance(result.result, HandResult)
            and hand.start_values is not None
            and not ended_by_call
            and stopped is None
        ):
            by_seat = hand.loss_by_seat
            losses = (by_seat[0] + by_seat[2], by_seat[1] + by_seat[3])
            for team in (0, 1):
                taken = sum(t.points for t in result.result.tricks if t.winner % 2 == team)
                expected = hand.start_values[team] - losses[team] + losses[1 - team]
                assert taken == expected, (path.stem, hand.hand, team)


def test_some_golden_play_loses_points() -> None:
    """The golden records hold random play, so the analysis has something to report."""
    worst = analyze((Path(__file__).parent / "golden" / "made_plain.json").read_bytes()).worst()
    assert worst and worst[0].loss > 0
    assert [p.loss for p in worst] == sorted((p.loss for p in worst), reverse=True)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_tarabish("analyze", *args, timeout=300)


def test_cli_json_is_the_analysis() -> None:
    path = Path(__file__).parent / "golden" / "made_plain.json"
    done = run(str(path), "--json", "--worst", "3")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document == analyze(path.read_bytes()).to_dict(worst=3)
    assert document["format"] == "tarabish-analysis/1"
    assert len(document["worst"]) <= 3


def test_cli_readable_report_names_the_worst_play() -> None:
    path = Path(__file__).parent / "golden" / "made_plain.json"
    done = run(str(path))
    assert done.returncode == 0, done.stderr
    worst = analyze(path.read_bytes()).worst(1)[0]
    assert f"seat {worst.seat} played {worst.card}, lost {worst.loss}" in done.stdout
    assert "points lost by seat" in done.stdout


def test_cli_refuses_bad_records(tmp_path: Path) -> None:
    missing = run(str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    record = json.loads((Path(__file__).parent / "golden" / "made_plain.json").read_text())
    actions = record["hands"][0]["actions"]
    first_play = next(i for i, a in enumerate(actions) if " play " in a)
    seat = actions[first_play].split()[0]
    actions[first_play] = f"{seat} play {'6C' if '6C' not in actions[first_play] else '7C'}"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    illegal = run(str(bad))
    assert illegal.returncode == 2
    assert illegal.stderr.startswith("tarabish analyze: ") and "R5.1" in illegal.stderr
