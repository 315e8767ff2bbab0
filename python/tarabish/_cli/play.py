"""``tarabish play``: a match in the terminal against bots (the session is ``_play.py``, its
screen ``_screen.py``)."""

from __future__ import annotations

import argparse

from .._simulate import BOTS
from . import _options
from ._command import Command


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed", type=_options.seed, default=None, help="match seed (default: random)"
    )
    parser.add_argument(
        "--seat", type=int, default=0, choices=range(4), help="your seat, 0-3 (default 0)"
    )
    parser.add_argument(
        "--bot",
        type=_options.bot,
        default="greedy",
        metavar="NAME",
        help=f"the other seats' bot, one of {', '.join(BOTS)}, with parameters as "
        "name:key=value,... (default greedy)",
    )
    parser.add_argument(
        "--table",
        action="store_true",
        help="table mode (docs/TABLE.md): announce, show and call bella yourself in time "
        "(R4.4, R4.5), any card you hold may be played and a misplay called (R8)",
    )
    _options.add_table_option_flags(parser, "with --table")
    _options.add_rule_flags(parser)


def _run(args: argparse.Namespace) -> int:
    from .._play import play_main

    return play_main(
        seed=args.seed, seat=args.seat, bot=args.bot, rules=_options.rules(args), table=args.table
    )


COMMAND = Command(
    name="play",
    summary="play a match in the terminal against bots",
    description="Play a match against bots at the other three seats, on a screen redrawn "
    "at each of your turns: your hand, the trick and the last trick, trump, the dealer, "
    "your partner, whose turn, the hand's points and the match score by team. Choose an "
    "action by its number or its text (JH, 10h, call H, pass); q quits.",
    add_arguments=_add_arguments,
    run=_run,
)
