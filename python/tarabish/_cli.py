"""The ``tarabish`` command: ``simulate`` (bots at full speed), ``replay`` (check and play a
``tarabish-record/1`` file, or ``--check`` its stored results), ``play`` (a match in the
terminal against bots) and ``serve`` (the game server, optional extra ``server``). Arguments
are checked where they are read, each refusal one line under its subcommand's usage."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from . import __version__
from ._errors import TarabishError
from ._progress import ProgressCallback, progress_bar
from ._rules import Rules
from ._simulate import BOTS, Summary, bot_spec, simulate
from ._tournament import TournamentResult, tournament

_SEED_MAX = 2**64 - 1
_POINTS_MAX = 65535
_PORT_MAX = 65535

# The on/off rule options of R9, each explained in words with its rule id.
_SWITCHES = (
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


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None


def _count(text: str) -> int:
    """A number of games or threads: 0 or more."""
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def _seed(text: str) -> int:
    value = _whole(text)
    if not 0 <= value <= _SEED_MAX:
        raise argparse.ArgumentTypeError(f"must be 0 to 2**64-1, got {value}")
    return value


def _points(text: str) -> int:
    value = _whole(text)
    if not 1 <= value <= _POINTS_MAX:
        raise argparse.ArgumentTypeError(f"must be 1 to {_POINTS_MAX} points, got {value}")
    return value


def _bot_spec(text: str) -> str:
    """A bot spec (``name`` or ``name:key=value,...``), checked by the core."""
    try:
        return bot_spec(text)
    except TarabishError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _bot_list(text: str) -> list[str]:
    """One bot for every seat, two (team 0, team 1) or four (by seat), comma-separated; a
    ``key=value`` item belongs to the spec before it (``ismcts:iterations=50,c=0.7,greedy``)."""
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if specs and "=" in item and ":" not in item:
            specs[-1] += "," + item
        else:
            specs.append(item)
    names = [_bot_spec(spec) for spec in specs]
    if len(names) not in (1, 2, 4):
        raise argparse.ArgumentTypeError(
            f"give one bot, two (by team) or four (by seat), comma-separated; got {len(names)}"
        )
    return names


def _add_rule_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "rules", "variants of RULES.md R9; without a flag, the default rules"
    )
    group.add_argument(
        "--target",
        type=_points,
        default=500,
        metavar="POINTS",
        help="the match ends once a team has this many points after a hand, the higher total "
        "winning (R7.1; default 500)",
    )
    group.add_argument(
        "--forced-at",
        type=_points,
        default=None,
        metavar="POINTS",
        help="a team with at least this many points must call trump: its last player to speak "
        "may not pass (R3.4; commonly 400; default off)",
    )
    for name, meaning in _SWITCHES:
        group.add_argument(f"--{name.replace('_', '-')}", action="store_true", help=meaning)


def _add_table_option_flags(parser: argparse.ArgumentParser, condition: str) -> None:
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


def _add_table_flags(parser: argparse.ArgumentParser) -> None:
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
    _add_table_option_flags(parser, "with manual declarations")


def _add_threads_flag(parser: argparse.ArgumentParser) -> None:
    """``--threads``: how many threads a command that plays or solves in parallel uses."""
    parser.add_argument(
        "--threads", type=_count, default=0, metavar="T", help="threads (default 0: all cores)"
    )


def _add_engine_flag(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--engine``: the Rust core (default) or the pure-Python reference."""
    parser.add_argument("--engine", choices=("rust", "reference"), default="rust", help=help_text)


def _add_batch_flags(parser: argparse.ArgumentParser, what: str) -> None:
    """The flags of a batch command (simulate, tournament): seed, threads, JSON, Ray, progress."""
    parser.add_argument("--seed", type=_seed, default=0, help="the batch's seed (default 0)")
    _add_threads_flag(parser)
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


def _rules(args: argparse.Namespace) -> Rules:
    switches = {name: getattr(args, name) for name, _ in _SWITCHES}
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


def _simulate(args: argparse.Namespace) -> int:
    games = {"matches": args.matches} if args.matches is not None else {"hands": args.hands}
    unit = "matches" if args.matches is not None else "hands"
    with progress_bar(unit) as progress:
        summary = simulate(**games, bots=args.bots, **_batch_options(args, progress))
    print(json.dumps(summary.to_dict(), indent=2) if args.json else format_summary(summary))
    return 0


def _batch_options(args: argparse.Namespace, progress: ProgressCallback | None) -> dict[str, Any]:
    """The keyword arguments that ``simulate`` and ``tournament`` share, from the flags that
    ``_add_batch_flags`` adds."""
    return {
        "seed": args.seed,
        "rules": _rules(args),
        "threads": args.threads,
        "progress": None if args.no_progress else progress,
        "ray_address": args.ray,
    }


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


def _tournament(args: argparse.Namespace) -> int:
    with progress_bar("deals") as progress:
        result = tournament(args.a, args.b, args.deals, **_batch_options(args, progress))
    print(json.dumps(result.to_dict(), indent=2) if args.json else format_tournament(result))
    return 0


def _replay(args: argparse.Namespace) -> int:
    from ._record import replay_main

    if not args.check and len(args.files) > 1:
        args.parser.error("one FILE at a time (several only with --check)")
    # --check: every file, the worst status (2 unreadable or illegal, 1 a result differs).
    return max(replay_main(path, engine=args.engine, check=args.check) for path in args.files)


def _analyze(args: argparse.Namespace) -> int:
    from ._analyze import analyze_main

    return analyze_main(args.file, as_json=args.json, worst=args.worst, threads=args.threads)


def _play(args: argparse.Namespace) -> int:
    from ._play import play_main

    return play_main(
        seed=args.seed, seat=args.seat, bot=args.bot, rules=_rules(args), table=args.table
    )


def _serve(args: argparse.Namespace) -> int:
    try:
        from .server import main as serve_main
    except ImportError as error:
        print(
            f"tarabish serve needs the server extra (pip install 'tarabish[server]'): {error}",
            file=sys.stderr,
        )
        return 2
    return serve_main(args.host, args.port, args.db, args.engine, args.server_id)


def _port(text: str) -> int:
    value = _whole(text)
    if not 0 <= value <= _PORT_MAX:
        raise argparse.ArgumentTypeError(f"must be a port 0 to {_PORT_MAX}, got {value}")
    return value


_RECORD_FILE_HELP = "the record (JSON), - for standard input"

_ENGINE_HELP = (
    "the engine that plays the records: rust (the Rust core, default) or reference (the "
    "independent pure-Python implementation); both give the same output byte for byte"
)


if TYPE_CHECKING:
    _Commands = argparse._SubParsersAction[argparse.ArgumentParser]


def _command(
    commands: _Commands,
    name: str,
    run: Callable[[argparse.Namespace], int],
    *,
    summary: str,
    description: str,
) -> argparse.ArgumentParser:
    """A subcommand: ``summary`` in the top-level help, ``description`` in its own; ``run``
    does it, and errors in its arguments are reported under its own usage (``main``)."""
    parser = commands.add_parser(name, help=summary, description=description)
    parser.set_defaults(run=run, parser=parser)
    return parser


def _simulate_parser(commands: _Commands) -> None:
    sim = _command(
        commands,
        "simulate",
        _simulate,
        summary="bots play many hands or matches at full speed",
        description="Bots play many hands (or whole matches) on every core, then a summary: "
        "speed, outcomes, calls, points by seat and team, runs, bella. Table-mode rules "
        "(--table) are played too: random bots then declare and call at random. Each game's "
        "deal and bot choices are derived from the seed and the game's number, so a run gives "
        "the same summary on any number of threads.",
    )
    games = sim.add_mutually_exclusive_group()
    games.add_argument(
        "--hands", type=_count, default=1_000_000, metavar="N", help="hands to play (default 1M)"
    )
    games.add_argument(
        "--matches", type=_count, default=None, metavar="N", help="whole matches to play instead"
    )
    sim.add_argument(
        "--bots",
        type=_bot_list,
        default=["random"],
        metavar="NAMES",
        help=f"bots from {', '.join(BOTS)}, each with parameters as name:key=value,... "
        "(docs/SEARCH.md): one for every seat, two (team 0, team 1) or four "
        "(by seat), comma-separated (default random)",
    )
    _add_batch_flags(sim, "summary")
    _add_rule_flags(sim)
    _add_table_flags(sim)


def _tournament_parser(commands: _Commands) -> None:
    parser = _command(
        commands,
        "tournament",
        _tournament,
        summary="duplicate-deal matches between two bots, with confidence intervals",
        description="Bot A against bot B in matches to the target: every deal is played twice, "
        "A on seats 0 and 2 and then on 1 and 3, so both get the same cards. Prints the win "
        "rate with its 95% Wilson interval and the points a hand with a 95% interval over the "
        "duplicate pairs. The same seed gives the same result on any threads or cluster.",
    )
    parser.add_argument(
        "a",
        type=_bot_spec,
        metavar="A",
        help="bot A: a bot spec, a name (random, greedy, heuristic, ismcts) with any parameters "
        "as name:key=value,... (ismcts:iterations=1000; docs/SEARCH.md)",
    )
    parser.add_argument("b", type=_bot_spec, metavar="B", help="bot B, the same way")
    parser.add_argument(
        "--deals",
        type=_count,
        default=1000,
        metavar="N",
        help="deals, each played twice (default 1000: 2000 matches)",
    )
    _add_batch_flags(parser, "result")
    _add_rule_flags(parser)


def _replay_parser(commands: _Commands) -> None:
    replay = _command(
        commands,
        "replay",
        _replay,
        summary="check and play a tarabish-record/1 file",
        description="Check every action of a tarabish-record/1 file (docs/RECORDS.md), play it "
        "and print it back as JSON with a result for every hand, the totals and the winner. A "
        "malformed or illegal record exits 2 with one line naming the hand, the action and the "
        "rule. With --check, compare the results stored in each file instead, and exit 1 "
        "naming the hand and the field of every difference.",
    )
    replay.add_argument("files", nargs="+", metavar="FILE", help=_RECORD_FILE_HELP)
    replay.add_argument(
        "--check",
        action="store_true",
        help="compare the results stored in each FILE with the replay: exit 1 naming the hand "
        "and the field of each difference",
    )
    _add_engine_flag(replay, _ENGINE_HELP)


def _analyze_parser(commands: _Commands) -> None:
    analyze = _command(
        commands,
        "analyze",
        _analyze,
        summary="the double-dummy loss of every card played in a record",
        description="For every card played in a tarabish-record/1 file (docs/RECORDS.md), the "
        "points the playing seat's team lost against the double-dummy best at that moment "
        "(every card known, best play by all four; docs/SOLVER.md): summed per seat and per "
        "hand, with the worst plays listed. A malformed or illegal record exits 2 with one "
        "line naming the hand, the action and the rule.",
    )
    analyze.add_argument("file", metavar="FILE", help=_RECORD_FILE_HELP)
    analyze.add_argument("--json", action="store_true", help="print the analysis as JSON")
    analyze.add_argument(
        "--worst",
        type=_count,
        default=10,
        metavar="N",
        help="how many of the worst plays to list (default 10)",
    )
    _add_threads_flag(analyze)


def _play_parser(commands: _Commands) -> None:
    play = _command(
        commands,
        "play",
        _play,
        summary="play a match in the terminal against bots",
        description="Play a match against bots at the other three seats, on a screen redrawn "
        "at each of your turns: your hand, the trick and the last trick, trump, the dealer, "
        "your partner, whose turn, the hand's points and the match score by team. Choose an "
        "action by its number or its text (JH, 10h, call H, pass); q quits.",
    )
    play.add_argument("--seed", type=_seed, default=None, help="match seed (default: random)")
    play.add_argument(
        "--seat", type=int, default=0, choices=range(4), help="your seat, 0-3 (default 0)"
    )
    play.add_argument(
        "--bot",
        type=_bot_spec,
        default="greedy",
        metavar="NAME",
        help=f"the other seats' bot, one of {', '.join(BOTS)}, with parameters as "
        "name:key=value,... (default greedy)",
    )
    play.add_argument(
        "--table",
        action="store_true",
        help="table mode (docs/TABLE.md): announce, show and call bella yourself in time "
        "(R4.4, R4.5), any card you hold may be played and a misplay called (R8)",
    )
    _add_table_option_flags(play, "with --table")
    _add_rule_flags(play)


def _serve_parser(commands: _Commands) -> None:
    serve = _command(
        commands,
        "serve",
        _serve,
        summary="the game server and its page (table mode over WebSockets)",
        description="Host tables that people (in the browser, at the printed address) and bots "
        "play over WebSockets (docs/PROTOCOL.md). Every accepted action is committed to the "
        "database before it is broadcast; a restart resumes every unfinished table. GET "
        "/healthz answers 200 once ready; SIGINT or SIGTERM shut down gracefully.",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default %(default)s)"
    )
    serve.add_argument(
        "--port", type=_port, default=8000, help="port (default %(default)s; 0: any free port)"
    )
    serve.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="sqlite:///PATH (WAL mode; default sqlite:///tarabish-server.sqlite3) or "
        "postgresql://... (several server processes share it)",
    )
    _add_engine_flag(serve, "the engine that plays the tables: rust (default) or reference")
    serve.add_argument(
        "--server-id",
        default=None,
        help="this process's name in a shared database (default HOST:PORT); a restart with "
        "the same id resumes its tables",
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tarabish",
        description="A fast, exact rules engine for Tarabish (Cape Breton Belote).",
    )
    parser.add_argument("--version", action="version", version=f"tarabish {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _simulate_parser(commands)
    _tournament_parser(commands)
    _replay_parser(commands)
    _analyze_parser(commands)
    _play_parser(commands)
    _serve_parser(commands)
    return parser


EXIT_BROKEN_PIPE = 141
"""The status of a command whose reader closed the pipe: 128 + SIGPIPE, as a shell reports a
process that SIGPIPE ended."""


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


if __name__ == "__main__":
    sys.exit(main())
