"""``tarabish ladder``: a round robin of duplicate tournaments between bots, with Bradley-Terry
ratings and 95% bootstrap intervals (docs/STRENGTH.md)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from .._progress import progress_bar
from . import _options
from ._command import Command

if TYPE_CHECKING:
    from .._ladder import LadderResult


def format_ladder(result: LadderResult) -> str:
    """The readable table printed by ``tarabish ladder``, strongest first."""
    width = max(len(bot) for bot in result.bots)
    lines = [
        f"{len(result.bots)} bots, every pair on the same {result.deals:,} deals, each played "
        f"twice with the teams swapped ({2 * result.deals:,} matches a pair)",
        f"Bradley-Terry ratings on the Elo scale, {result.anchor} = 0, 95% intervals from a "
        "bootstrap over the deals",
        f"{'rank':>4}  {'bot':<{width}}  {'rating':>7}  {'95% interval':>17}  "
        f"{'matches won':>11}  {'CPU ms/decision':>15}",
    ]
    for rank, i in enumerate(result.order, 1):
        low, high = result.intervals[i]
        won = sum(result.wins[i])
        played = 2 * result.deals * (len(result.bots) - 1)
        lines.append(
            f"{rank:>4}  {result.bots[i]:<{width}}  {result.ratings[i]:>+7.0f}  "
            f"{low:>+7.0f} .. {high:>+7.0f}  {100 * won / played:>10.1f}%  "
            f"{result.cpu_ms_per_decision[i]:>15.4f}"
        )
    lines.append(f"seed {result.seed}, {result.seconds:.2f} s on {result.threads or 'all'} threads")
    return "\n".join(lines)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "bots",
        type=_options.bot,
        nargs="+",
        metavar="BOT",
        help="two bots or more, each a bot spec: a name (random, greedy, heuristic, ismcts, "
        "pimc) with any parameters as name:key=value,... (ismcts:iterations=1000; "
        "docs/SEARCH.md)",
    )
    parser.add_argument(
        "--deals",
        type=_options.count,
        default=100,
        metavar="N",
        help="deals a pair, each played twice (default 100: 200 matches a pair)",
    )
    parser.add_argument("--seed", type=_options.seed, default=0, help="the seed (default 0)")
    _options.add_threads_flag(parser)
    parser.add_argument("--json", action="store_true", help="print the ladder as JSON")
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it is drawn only when standard error is a terminal)",
    )
    _options.add_rule_flags(parser)


def _run(args: argparse.Namespace) -> int:
    from .._ladder import ladder  # numpy: loaded for this command only, not for every command

    with progress_bar("deals") as progress:
        result = ladder(
            args.bots,
            args.deals,
            seed=args.seed,
            rules=_options.rules(args),
            threads=args.threads,
            progress=None if args.no_progress else progress,
        )
    print(json.dumps(result.to_dict(), indent=2) if args.json else format_ladder(result))
    return 0


COMMAND = Command(
    name="ladder",
    summary="a round robin of duplicate tournaments, with Bradley-Terry ratings",
    description="Every pair of bots plays a duplicate tournament on the same deals (each deal "
    "twice, the teams swapped, matches to the target). Prints each bot's Bradley-Terry rating "
    "on the Elo scale with random at 0 (the first bot if random is not entered), a 95% "
    "interval from a bootstrap over the deals, its share of matches won and its CPU time a "
    "decision. The same seed gives the same ratings on any threads.",
    add_arguments=_add_arguments,
    run=_run,
)
