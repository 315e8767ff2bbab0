"""What several ``tarabish`` subcommands read alike: argument types that check a value where it
is read (each refusal a plain message under the subcommand's usage), the rule flags of R9
(R3.3, R3.4, R4.3-R4.5, R5.1, R6.4, R7.1), the table-mode flags, the batch flags, and a record
file read from a path or standard input."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._errors import TarabishError
from .._progress import ProgressCallback
from .._rules import Rules
from .._simulate import bot_spec

SEED_MAX = 2**64 - 1
POINTS_MAX = 65535

# The on/off rule options of R9, each explained in words with its rule id.
SWITCHES = (
    ("dealer_may_pass", "the dealer may pass too; a hand nobody calls is void (R3.3)"),
    ("team_runs", "the partner of the player who wins the runs scores its runs too (R4.3)"),
    (
        "head_plain",
        "following a plain suit led with no trump in the trick, beat its highest card if you "
        "can (R5.1a)",
    ),
    (
        "undertrump_optional",
        "void in the suit led and unable to beat the trick's highest trump: play any card "
        "instead of a lower trump (R5.1b)",
    ),
    (
        "partner_exempt",
        "void in the suit led while your partner is winning the trick: play any card (R5.1)",
    ),
    (
        "half_bait_is_bait",
        "on equal points the other team scores the whole count, not only its own points (R6.4)",
    ),
)

RECORD_FILE_HELP = "the record (JSON), - for standard input"


def read_input(path: str) -> bytes:
    """The bytes of the file at ``path``, or of standard input for ``-``."""
    if path == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        return data.encode("utf-8") if isinstance(data, str) else data
    with open(path, "rb") as file:
        return file.read()


def whole(text: str) -> int:
    """A whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None


def count(text: str) -> int:
    """A number of games or threads: 0 or more."""
    value = whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def seed(text: str) -> int:
    """A seed, 0 to 2**64-1."""
    value = whole(text)
    if not 0 <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"must be 0 to 2**64-1, got {value}")
    return value


def points(text: str) -> int:
    """A number of match points, 1 to ``POINTS_MAX``."""
    value = whole(text)
    if not 1 <= value <= POINTS_MAX:
        raise argparse.ArgumentTypeError(f"must be 1 to {POINTS_MAX} points, got {value}")
    return value


def bot(text: str) -> str:
    """A bot spec (``name`` or ``name:key=value,...``), checked by the core."""
    try:
        return bot_spec(text)
    except TarabishError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def bot_list(text: str) -> list[str]:
    """One bot for every seat, two (team 0, team 1) or four (by seat), comma-separated; a
    ``key=value`` item belongs to the spec before it (``ismcts:iterations=50,c=0.7,greedy``)."""
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if specs and "=" in item and ":" not in item:
            specs[-1] += "," + item
        else:
            specs.append(item)
    names = [bot(spec) for spec in specs]
    if len(names) not in (1, 2, 4):
        raise argparse.ArgumentTypeError(
            f"give one bot, two (by team) or four (by seat), comma-separated; got {len(names)}"
        )
    return names


def add_rule_flags(parser: argparse.ArgumentParser) -> None:
    """The rule options of R9 as flags; ``rules`` reads them back."""
    group = parser.add_argument_group(
        "rules", "variants of RULES.md R9; without a flag, the default rules"
    )
    group.add_argument(
        "--target",
        type=points,
        default=500,
        metavar="POINTS",
        help="the match ends once a team has this many points after a hand, the higher total "
        "winning (R7.1; default 500)",
    )
    group.add_argument(
        "--forced-at",
        type=points,
        default=None,
        metavar="POINTS",
        help="a team with at least this many points must call trump: its last player to speak "
        "may not pass (R3.4; commonly 400; default off)",
    )
    for name, meaning in SWITCHES:
        group.add_argument(f"--{name.replace('_', '-')}", action="store_true", help=meaning)


def add_table_option_flags(parser: argparse.ArgumentParser, condition: str) -> None:
    """The table-mode options of R9 (R4.4, R4.5) that matter only with manual declarations."""
    parser.add_argument(
        "--first-bell-ok",
        action="store_true",
        help=f"{condition}: a bella called on the first of the trump K and Q counts (R4.5)",
    )
    parser.add_argument(
        "--late-twenty",
        action="store_true",
        help=f"{condition}: a fifty not shown in trick two may be shown as a twenty in trick "
        "three (R4.4)",
    )


def add_table_flags(parser: argparse.ArgumentParser) -> None:
    """Table-mode rules for a batch (docs/TABLE.md): manual declarations, misplays, calls."""
    parser.add_argument(
        "--table",
        action="store_true",
        help="table mode: the same as --declarations manual --no-enforce-legal-play",
    )
    parser.add_argument(
        "--declarations",
        choices=("auto", "manual"),
        default="auto",
        help="auto: runs and bella credited by themselves; manual: announced, shown and called "
        "in time or lost (R4.4, R4.5; default auto)",
    )
    parser.add_argument(
        "--no-enforce-legal-play",
        action="store_true",
        help="any held card may be played; a play breaking R5.1 is a misplay, and any seat may "
        "call misplay or throw the hand in (R8)",
    )
    add_table_option_flags(parser, "with manual declarations")


def add_threads_flag(parser: argparse.ArgumentParser) -> None:
    """``--threads``: how many threads a command that plays or solves in parallel uses."""
    parser.add_argument(
        "--threads", type=count, default=0, metavar="T", help="threads (default 0: all cores)"
    )


def add_engine_flag(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--engine``: the Rust core (default) or the pure-Python reference."""
    parser.add_argument("--engine", choices=("rust", "reference"), default="rust", help=help_text)


def add_batch_flags(parser: argparse.ArgumentParser, what: str) -> None:
    """The flags of a batch command (simulate, tournament): seed, threads, JSON, Ray, progress;
    ``batch_options`` reads them back."""
    parser.add_argument("--seed", type=seed, default=0, help="the batch's seed (default 0)")
    add_threads_flag(parser)
    parser.add_argument("--json", action="store_true", help=f"print the {what} as JSON")
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="play on the Ray cluster at ADDRESS (host:port of its head, auto, or local for a "
        "new instance on this machine; needs pip install 'tarabish[ray]'): the same results as "
        "a local run",
    )
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it is drawn only when standard error is a terminal)",
    )


def rules(args: argparse.Namespace) -> Rules:
    """The ``Rules`` of the flags that ``add_rule_flags`` and the table flags added."""
    switches = {name: getattr(args, name) for name, _ in SWITCHES}
    table_options: dict[str, Any] = {
        name: getattr(args, name)
        for name in ("first_bell_ok", "late_twenty")
        if getattr(args, name, False)
    }
    # `play --table` sets table mode in play_main; a batch's --table is these two options.
    batch_table = getattr(args, "table", False) and hasattr(args, "declarations")
    if batch_table or getattr(args, "declarations", "auto") == "manual":
        table_options["declarations"] = "manual"
    if batch_table or getattr(args, "no_enforce_legal_play", False):
        table_options["enforce_legal_play"] = False
    return Rules(target=args.target, forced_at=args.forced_at, **switches, **table_options)


def batch_options(args: argparse.Namespace, progress: ProgressCallback | None) -> dict[str, Any]:
    """The keyword arguments that ``simulate`` and ``tournament`` share, from the flags that
    ``add_batch_flags`` adds."""
    return {
        "seed": args.seed,
        "rules": rules(args),
        "threads": args.threads,
        "progress": None if args.no_progress else progress,
        "ray_address": args.ray,
    }
