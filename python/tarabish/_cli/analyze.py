"""``tarabish analyze``: the double-dummy loss of every card played in a record
(docs/SOLVER.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from .._analyze import WORST_PLAYS, Analysis, analyze
from .._errors import TarabishError, one_line
from . import _options
from ._command import Command


def format_analysis(analysis: Analysis, worst: int = WORST_PLAYS) -> str:
    """The readable report: each hand's losses by seat and team, the record's by seat, and the
    worst plays."""
    lines = []
    for hand in analysis.hands:
        by_seat = hand.loss_by_seat
        stops = "" if hand.stopped is None else f" (stopped at action {hand.stopped}: a misplay)"
        if hand.start_values is None:
            lines.append(f"hand {hand.hand}: no card played{stops}")
            continue
        lines.append(
            f"hand {hand.hand}: double-dummy values when trump was named "
            f"{hand.start_values[0]} / {hand.start_values[1]}; points lost by seat "
            + " ".join(f"{seat}:{loss}" for seat, loss in enumerate(by_seat))
            + f"; by team {by_seat[0] + by_seat[2]} / {by_seat[1] + by_seat[3]}"
            + stops
        )
    total = analysis.loss_by_seat
    lines.append("record: points lost by seat " + " ".join(f"{s}:{v}" for s, v in enumerate(total)))
    plays = analysis.worst(worst)
    lines.append(
        "worst plays:" if plays else "worst plays: none (every card was double-dummy best)"
    )
    for play in plays:
        lines.append(
            f"  hand {play.hand} trick {play.trick + 1}: seat {play.seat} played {play.card}, "
            f"lost {play.loss} ({play.played_value} instead of {play.value}; best "
            + " ".join(str(card) for card in play.best)
            + ")"
        )
    return "\n".join(lines) + "\n"


def analyze_file(
    path: str,
    *,
    as_json: bool = False,
    worst: int = WORST_PLAYS,
    threads: int = 0,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """``tarabish analyze FILE``: print the report (JSON with ``as_json``) and return 0; on a bad
    record or an unreadable file print one line to ``err`` and return 2."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    try:
        analysis = analyze(_options.read_input(path), threads)
    except OSError as error:
        print(f"tarabish analyze: cannot read {path}: {error.strerror or error}", file=err)
        return 2
    except TarabishError as error:
        print(f"tarabish analyze: {one_line(str(error))}", file=err)
        return 2
    if as_json:
        out.write(json.dumps(analysis.to_dict(worst), indent=2) + "\n")
    else:
        out.write(format_analysis(analysis, worst))
    return 0


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help=_options.RECORD_FILE_HELP)
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    parser.add_argument(
        "--worst",
        type=_options.count,
        default=WORST_PLAYS,
        metavar="N",
        help=f"how many of the worst plays to list (default {WORST_PLAYS})",
    )
    _options.add_threads_flag(parser)


def _run(args: argparse.Namespace) -> int:
    return analyze_file(args.file, as_json=args.json, worst=args.worst, threads=args.threads)


COMMAND = Command(
    name="analyze",
    summary="the double-dummy loss of every card played in a record",
    description="For every card played in a tarabish-record/1 file (docs/RECORDS.md), the "
    "points the playing seat's team lost against the double-dummy best at that moment "
    "(every card known, best play by all four; docs/SOLVER.md): summed per seat and per "
    "hand, with the worst plays listed. A malformed or illegal record exits 2 with one "
    "line naming the hand, the action and the rule.",
    add_arguments=_add_arguments,
    run=_run,
)
