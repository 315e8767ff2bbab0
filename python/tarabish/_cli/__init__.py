"""The ``tarabish`` command (also ``python -m tarabish``): one subcommand a module of this
package, each declared as a ``Command`` (``_command.py``) and listed in ``COMMANDS``; the flags
several share are ``_options.py``. Arguments are checked where they are read, each refusal one
line under its subcommand's usage."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import _core
from .._errors import TarabishError
from . import analyze, ladder, play, replay, serve, simulate, tournament
from ._command import Command

COMMANDS: tuple[Command, ...] = (
    simulate.COMMAND,
    tournament.COMMAND,
    ladder.COMMAND,
    replay.COMMAND,
    analyze.COMMAND,
    play.COMMAND,
    serve.COMMAND,
)
"""The subcommands, in the order the top-level help lists them."""

EXIT_BROKEN_PIPE = 141
"""The status of a command whose reader closed the pipe: 128 + SIGPIPE, as a shell reports a
process that SIGPIPE ended."""


def _version() -> str:
    """What ``--version`` prints: the version and the CPU kernels (rust/cpu.rs)."""
    kernels = _core.kernels()
    available = ", ".join(kernels["available"])
    return f"tarabish {_core.__version__} (kernels {available}; running {kernels['running']})"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tarabish",
        description="A fast, exact rules engine for Tarabish (Cape Breton Belote).",
    )
    parser.add_argument("--version", action="version", version=_version())
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_to(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The ``tarabish`` command; returns the exit status."""
    args, unknown = _parser().parse_known_args(argv)
    if unknown:  # reported under the subcommand's usage, not the top level's
        args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        code: int = args.run(args)
    except TarabishError as error:
        print(f"tarabish {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader left (`tarabish ... --json | head`): stop quietly, as a pipeline expects.
        # Python would still flush stdout at exit and fail again, so stdout goes to the null
        # device first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return code
