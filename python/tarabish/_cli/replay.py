"""``tarabish replay``: check and play a ``tarabish-record/1`` file (docs/RECORDS.md), or
``--check`` the results it stores."""

from __future__ import annotations

import argparse

from . import _options
from ._command import Command

_ENGINE_HELP = (
    "the engine that plays the records: rust (the Rust core, default) or reference (the "
    "independent pure-Python implementation); both give the same output byte for byte"
)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help=_options.RECORD_FILE_HELP)
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare the results stored in each FILE with the replay: exit 1 naming the hand "
        "and the field of each difference",
    )
    _options.add_engine_flag(parser, _ENGINE_HELP)


def _run(args: argparse.Namespace) -> int:
    from .._record import replay_main

    if not args.check and len(args.files) > 1:
        args.parser.error("one FILE at a time (several only with --check)")
    # --check: every file, the worst status (2 unreadable or illegal, 1 a result differs).
    return max(replay_main(path, engine=args.engine, check=args.check) for path in args.files)


COMMAND = Command(
    name="replay",
    summary="check and play a tarabish-record/1 file",
    description="Check every action of a tarabish-record/1 file (docs/RECORDS.md), play it "
    "and print it back as JSON with a result for every hand, the totals and the winner. A "
    "malformed or illegal record exits 2 with one line naming the hand, the action and the "
    "rule. With --check, compare the results stored in each file instead, and exit 1 "
    "naming the hand and the field of every difference.",
    add_arguments=_add_arguments,
    run=_run,
)
