"""``tarabish analyze``: the double-dummy loss of every card played in a record
(docs/SOLVER.md)."""

from __future__ import annotations

import argparse

from . import _options
from ._command import Command


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help=_options.RECORD_FILE_HELP)
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    parser.add_argument(
        "--worst",
        type=_options.count,
        default=10,
        metavar="N",
        help="how many of the worst plays to list (default 10)",
    )
    _options.add_threads_flag(parser)


def _run(args: argparse.Namespace) -> int:
    from .._analyze import analyze_main

    return analyze_main(args.file, as_json=args.json, worst=args.worst, threads=args.threads)


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
