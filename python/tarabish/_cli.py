"""The ``tarabish`` command: ``simulate`` (bots at full speed), ``replay`` (check and play a
``tarabish-record/1`` file) and ``play`` (a match in the terminal against bots)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from . import __version__
from ._errors import TarabishError
from ._rules import Rules
from ._simulate import BOTS, Summary, simulate


def _add_rule_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rules (RULES.md R9)")
    group.add_argument("--target", type=int, default=500, help="points that end a match (R7.1)")
    group.add_argument("--forced-at", type=int, default=None, help="R3.4 (commonly 400)")
    for flag, rule in [
        ("dealer-may-pass", "R3.3"),
        ("team-runs", "R4.3"),
        ("head-plain", "R5.1a"),
        ("undertrump-optional", "R5.1b"),
        ("partner-exempt", "R5.1"),
        ("half-bait-is-bait", "R6.4"),
    ]:
        group.add_argument(f"--{flag}", action="store_true", help=rule)


def _rules(args: argparse.Namespace) -> Rules:
    return Rules(
        target=args.target,
        forced_at=args.forced_at,
        dealer_may_pass=args.dealer_may_pass,
        team_runs=args.team_runs,
        head_plain=args.head_plain,
        undertrump_optional=args.undertrump_optional,
        partner_exempt=args.partner_exempt,
        half_bait_is_bait=args.half_bait_is_bait,
    )


class _ProgressBar:
    """A one-line progress bar on a stream, redrawn in place."""

    def __init__(self, stream: TextIO, label: str) -> None:
        self.stream = stream
        self.label = label

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = width if total == 0 else width * done // total
        percent = 100 if total == 0 else 100 * done // total
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {percent:3d}% {done:,}/{total:,}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


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
        f"void {_percent(summary.void, summary.hands)}",
        "calls     "
        + "  ".join(f"seat {s} {_percent(n, played)}" for s, n in enumerate(summary.calls_by_seat)),
        "tricks    "
        + "  ".join(
            f"seat {s} {n / played if played else 0:5.1f}"
            for s, n in enumerate(summary.trick_points_by_seat)
        )
        + "  (card points + last taken, a hand)",
        "points    "
        + "  ".join(
            f"team {t} {p / played if played else 0:5.1f}"
            for t, p in enumerate(summary.points_by_team)
        )
        + "  (R6.1, a hand)",
        "score     "
        + "  ".join(
            f"team {t} {p / played if played else 0:5.1f}"
            for t, p in enumerate(summary.score_by_team)
        )
        + "  (R6.2-R6.4, a hand)",
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


def _simulate(args: argparse.Namespace) -> int:
    bots = args.bots.split(",")
    games = {"matches": args.matches} if args.matches is not None else {"hands": args.hands}
    label = "matches" if args.matches is not None else "hands"
    show = not args.no_progress
    progress = _ProgressBar(sys.stderr, f"simulating {label}") if show else None
    summary = simulate(
        **games,
        seed=args.seed,
        bots=bots,
        rules=_rules(args),
        threads=args.threads,
        progress=progress,
    )
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        print(format_summary(summary))
    return 0


def _replay(args: argparse.Namespace) -> int:
    from ._record import replay_main

    if not args.check and len(args.files) > 1:
        args.parser.error("one FILE at a time (several only with --check)")
    # --check: every file, the worst status (2 unreadable or illegal, 1 a result differs).
    return max(replay_main(path, engine=args.engine, check=args.check) for path in args.files)


def _play(args: argparse.Namespace) -> int:
    from ._play import play_main

    return play_main(seed=args.seed, seat=args.seat, bot=args.bot, rules=_rules(args))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tarabish", description="A fast, exact rules engine for Tarabish."
    )
    parser.add_argument("--version", action="version", version=f"tarabish {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    sim = commands.add_parser("simulate", help="bots play many hands or matches at full speed")
    games = sim.add_mutually_exclusive_group()
    games.add_argument("--hands", type=int, default=1_000_000, help="hands to play (default 1M)")
    games.add_argument("--matches", type=int, default=None, help="matches to play instead")
    sim.add_argument("--seed", type=int, default=0, help="batch seed (default 0)")
    sim.add_argument("--threads", type=int, default=0, help="threads (default 0: all cores)")
    sim.add_argument(
        "--bots",
        default="random",
        help=f"bots from {', '.join(BOTS)}: one for all, two by team or four by seat, "
        "comma-separated (default random)",
    )
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_rule_flags(sim)
    sim.set_defaults(run=_simulate)

    replay = commands.add_parser("replay", help="check and play a tarabish-record/1 file")
    replay.add_argument(
        "files", nargs="+", metavar="FILE", help="the record (JSON), - for standard input"
    )
    replay.add_argument(
        "--check",
        action="store_true",
        help="compare the results stored in each FILE with the replay: exit 1 naming the hand "
        "and the field of each difference",
    )
    replay.add_argument("--engine", choices=("rust", "reference"), default="rust")
    replay.set_defaults(run=_replay, parser=replay)

    play = commands.add_parser("play", help="play a match in the terminal against bots")
    play.add_argument("--seed", type=int, default=None, help="match seed (default: random)")
    play.add_argument("--seat", type=int, default=0, choices=range(4), help="your seat")
    play.add_argument("--bot", default="greedy", choices=BOTS, help="the other seats' bot")
    _add_rule_flags(play)
    play.set_defaults(run=_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except TarabishError as error:
        print(f"tarabish {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
