"""``tarabish simulate``: bots play many hands or matches at full speed, then a summary."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from .._progress import progress_bar
from .._simulate import BOTS, Summary, simulate
from . import _options
from ._command import Command


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def _per_hand(who: str, totals: Sequence[int], played: int) -> str:
    """Each seat's or team's total (``who``: "seat" or "team") over ``played`` hands, a hand."""
    return "  ".join(
        f"{who} {i} {total / played if played else 0:5.1f}" for i, total in enumerate(totals)
    )


def format_summary(summary: Summary) -> str:
    """The readable summary printed by ``tarabish simulate``."""
    played = summary.played
    lines = [
        f"games     {summary.hands:,} hands"
        + (f" in {summary.matches:,} matches" if summary.matches else "")
        + f", bots {'/'.join(summary.bots)} (seats 0-3), seed {summary.seed}",
        f"speed     {summary.hands_per_second:,.0f} hands/s ({summary.seconds:.2f} s, "
        f"{'all cores' if summary.threads == 0 else f'{summary.threads} thread(s)'})",
        f"outcomes  made {_percent(summary.made, summary.hands)}  "
        f"bait {_percent(summary.bait, summary.hands)}  "
        f"half bait {_percent(summary.half_bait, summary.hands)}  "
        f"void {_percent(summary.void, summary.hands)}"
        + (
            f"  misplay call {_percent(summary.misplay, summary.hands)}  "
            f"throw-in {_percent(summary.throw_in, summary.hands)}"
            if summary.misplay or summary.throw_in
            else ""
        ),
        "calls     "
        + "  ".join(f"seat {s} {_percent(n, played)}" for s, n in enumerate(summary.calls_by_seat)),
        f"tricks    {_per_hand('seat', summary.trick_points_by_seat, played)}"
        "  (card points + last taken, a hand)",
        f"points    {_per_hand('team', summary.points_by_team, played)}  (R6.1, a hand)",
        f"score     {_per_hand('team', summary.score_by_team, played)}  (R6.2-R6.4, a hand)",
        f"runs      scored in {_percent(summary.hands_with_runs, played)} of hands, "
        f"{summary.run_points / summary.hands_with_runs if summary.hands_with_runs else 0:.1f} "
        "points when scored",
        f"bella     {_percent(summary.hands_with_bella, played)} of hands",
    ]
    if summary.matches:
        wins = summary.match_wins
        lines.append(
            f"matches   team 0 won {_percent(wins[0], summary.matches)}, "
            f"team 1 won {_percent(wins[1], summary.matches)}, "
            f"{summary.hands / summary.matches:.1f} hands a match"
        )
    return "\n".join(lines)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    games = parser.add_mutually_exclusive_group()
    games.add_argument(
        "--hands",
        type=_options.count,
        default=1_000_000,
        metavar="N",
        help="hands to play (default 1M)",
    )
    games.add_argument(
        "--matches",
        type=_options.count,
        default=None,
        metavar="N",
        help="whole matches to play instead",
    )
    parser.add_argument(
        "--bots",
        type=_options.bot_list,
        default=["random"],
        metavar="NAMES",
        help=f"bots from {', '.join(BOTS)}, each with parameters as name:key=value,... "
        "(docs/SEARCH.md): one for every seat, two (team 0, team 1) or four "
        "(by seat), comma-separated (default random)",
    )
    _options.add_batch_flags(parser, "summary")
    _options.add_rule_flags(parser)
    _options.add_table_flags(parser)


def _run(args: argparse.Namespace) -> int:
    games = {"matches": args.matches} if args.matches is not None else {"hands": args.hands}
    unit = "matches" if args.matches is not None else "hands"
    with progress_bar(unit) as progress:
        summary = simulate(**games, bots=args.bots, **_options.batch_options(args, progress))
    print(json.dumps(summary.to_dict(), indent=2) if args.json else format_summary(summary))
    return 0


COMMAND = Command(
    name="simulate",
    summary="bots play many hands or matches at full speed",
    description="Bots play many hands (or whole matches) on every core, then a summary: "
    "speed, outcomes, calls, points by seat and team, runs, bella. Table-mode rules "
    "(--table) are played too: random bots then declare and call at random. Each game's "
    "deal and bot choices are derived from the seed and the game's number, so a run gives "
    "the same summary on any number of threads.",
    add_arguments=_add_arguments,
    run=_run,
)
