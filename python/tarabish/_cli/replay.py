"""``tarabish replay``: check and play a ``tarabish-record/1`` file (docs/RECORDS.md), or
``--check`` the results it stores."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from .._errors import TarabishError, one_line
from .._replay import play_record
from .._result_diff import check_results
from . import _options
from ._command import Command

_ENGINE_HELP = (
    "the engine that plays the records: rust (the Rust core, default) or reference (the "
    "independent pure-Python implementation); both give the same output byte for byte"
)


def replay_file(
    path: str,
    *,
    engine: str = "rust",
    check: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """``tarabish replay FILE``: read the record (``-`` is standard input), play it with every
    check, print the output document (JSON, indent 2) and return 0; on a bad record or an
    unreadable file print one line ``tarabish replay: <message>`` to ``err`` and return 2.

    With ``check``: compare the results stored in the record with the replayed ones
    (``check_results``); print one line ``FILE: ...`` to ``out`` and return 0 when every stored
    result matches, else one line a difference to ``err`` (naming the hand and the field) and
    return 1."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    try:
        source = _options.read_input(path)
        if check:
            differences = check_results(source, engine)
        else:
            played = play_record(source, engine)
    except OSError as error:
        detail = error.strerror or str(error)
        print(f"tarabish replay: cannot read {path}: {one_line(detail)}", file=err)
        return 2
    except (TarabishError, RecursionError) as error:
        print(f"tarabish replay: {one_line(str(error))}", file=err)
        return 2
    if not check:
        played.write(out)
        return 0
    success = f"every stored result matches the replay ({engine})"
    return _report(path, differences, success, out, err)


def _report(path: str, problems: Sequence[object], success: str, out: TextIO, err: TextIO) -> int:
    """A check's verdict on ``path``: one line a problem to ``err`` and 1, or ``success`` on
    one line to ``out`` and 0."""
    for problem in problems:
        print(f"tarabish replay: {path}: {problem}", file=err)
    if problems:
        return 1
    print(f"{path}: {success}", file=out)
    return 0


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help=_options.RECORD_FILE_HELP)
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare the results stored in each FILE with the replay: exit 1 naming the hand "
        "and the field of each difference",
    )
    parser.add_argument(
        "--verify-fairness",
        action="store_true",
        help="check each FILE's revealed seed (a tarabish serve record's 'fairness'): its "
        "commitment is sha256('SEED:SALT') and every deal is the seed's; exit 1 naming what "
        "is wrong",
    )
    _options.add_engine_flag(parser, _ENGINE_HELP)


def verify_fairness_file(path: str, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``tarabish replay --verify-fairness FILE``: 0 when the record's ``fairness`` holds (one
    line to ``out``), 1 naming each problem, 2 for a file that is unreadable or not a record."""
    from .._fairness import verify

    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    try:
        problems = verify(json.loads(_options.read_input(path)))
    except OSError as error:
        print(
            f"tarabish replay: cannot read {path}: {one_line(error.strerror or str(error))}",
            file=err,
        )
        return 2
    except (ValueError, TarabishError, RecursionError) as error:
        print(f"tarabish replay: {path}: {one_line(str(error))}", file=err)
        return 2
    return _report(path, problems, "the deals are the committed seed's", out, err)


def _run(args: argparse.Namespace) -> int:
    if args.verify_fairness:
        return max(verify_fairness_file(path) for path in args.files)
    if not args.check and len(args.files) > 1:
        args.parser.error("one FILE at a time (several only with --check)")
    # --check: every file, the worst status (2 unreadable or illegal, 1 a result differs).
    return max(replay_file(path, engine=args.engine, check=args.check) for path in args.files)


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
