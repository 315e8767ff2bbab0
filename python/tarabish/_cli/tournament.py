"""``tarabish tournament``: duplicate-deal matches between two bots, with confidence
intervals."""

from __future__ import annotations

import argparse
import json

from .._progress import progress_bar
from .._tournament import TournamentResult, tournament
from . import _options
from ._command import Command


def format_tournament(result: TournamentResult) -> str:
    """The readable summary printed by ``tarabish tournament``."""
    a, b = result.bots
    low, high = result.win_rate_interval
    margin_low, margin_high = result.margin_interval
    per_hand = result.points_per_hand
    won_both, split, lost_both = result.pairs_won
    return "\n".join(
        [
            f"{a} (A) against {b} (B): {result.deals:,} deals, each played twice with the teams "
            f"swapped: {result.matches:,} matches, {result.hands:,} hands",
            f"A won {result.wins[0]:,} matches, B {result.wins[1]:,}: A's win rate "
            f"{100 * result.win_rate:.1f}% (95% interval {100 * low:.1f}% to {100 * high:.1f}%, "
            "Wilson)",
            f"duplicate pairs: A won both {won_both:,}, one each {split:,}, B won both "
            f"{lost_both:,}",
            f"points a hand: A {per_hand[0]:.1f}, B {per_hand[1]:.1f}; A's margin "
            f"{result.margin_per_hand:+.1f} (95% interval {margin_low:+.1f} to "
            f"{margin_high:+.1f}, pairs as units)",
            f"seed {result.seed}, {result.seconds:.2f} s on {result.threads or 'all'} threads, "
            f"{result.matches_per_second:,.0f} matches/s",
        ]
    )


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "a",
        type=_options.bot,
        metavar="A",
        help="bot A: a bot spec, a name (random, greedy, heuristic, ismcts) with any parameters "
        "as name:key=value,... (ismcts:iterations=1000; docs/SEARCH.md)",
    )
    parser.add_argument("b", type=_options.bot, metavar="B", help="bot B, the same way")
    parser.add_argument(
        "--deals",
        type=_options.count,
        default=1000,
        metavar="N",
        help="deals, each played twice (default 1000: 2000 matches)",
    )
    _options.add_batch_flags(parser, "result")
    _options.add_rule_flags(parser)


def _run(args: argparse.Namespace) -> int:
    with progress_bar("deals") as progress:
        result = tournament(args.a, args.b, args.deals, **_options.batch_options(args, progress))
    print(json.dumps(result.to_dict(), indent=2) if args.json else format_tournament(result))
    return 0


COMMAND = Command(
    name="tournament",
    summary="duplicate-deal matches between two bots, with confidence intervals",
    description="Bot A against bot B in matches to the target: every deal is played twice, "
    "A on seats 0 and 2 and then on 1 and 3, so both get the same cards. Prints the win "
    "rate with its 95% Wilson interval and the points a hand with a 95% interval over the "
    "duplicate pairs. The same seed gives the same result on any threads or cluster.",
    add_arguments=_add_arguments,
    run=_run,
)
