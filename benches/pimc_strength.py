"""Playing strength of the PIMC bot (docs/SOLVER.md "Strength of the PIMC bot"): duplicate
tournaments (``tb.tournament``, each deal played twice with the teams swapped) of
``pimc:worlds=N`` against the heuristic, against ISMCTS at its default budget and against
ISMCTS given about PIMC's CPU time a hand (``--equal-cpu-iterations``), with 95% intervals, and
PIMC's decision time at that budget, printed as the Markdown tables docs/SOLVER.md shows.

    nice -n 15 python benches/pimc_strength.py [--worlds 10] [--deals 150] [--target 1]

A decision is ``N`` exact solves, so whole matches to 500 (about eleven hands a deal) are dear;
by default every match is one hand (``--target 1``: the first hand decides it, R7.1), so a
deal is one hand played from both sides, the duplicate comparison of hands. The deals run in
blocks of ``--block`` (block ``k`` seeded ``seed + k``), and the running standing is printed
after each block, so a run cut short still reports every finished block; the counts of a
block, hence the whole table, are the same on any number of threads.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

import tarabish as tb

HEURISTIC = "heuristic"
ISMCTS = "ismcts"  # the default budget: 4,000 iterations, greedy playouts
CARDS_A_TRICK = 4
TIMING_SEED = 7_000
"""Seed of the deals whose PIMC decisions are timed (not those of the tournaments)."""


def combine(results: list[tb.TournamentResult]) -> tb.TournamentResult:
    """The tournament of every block's deals: the counts and sums add up (pairs are the units
    of every interval), the seconds too."""

    def total(field: str) -> int:
        return sum(getattr(r, field) for r in results)

    def at(field: str, i: int) -> int:
        return sum(getattr(r, field)[i] for r in results)

    return replace(
        results[0],
        deals=total("deals"),
        hands=total("hands"),
        wins=(at("wins", 0), at("wins", 1)),
        points=(at("points", 0), at("points", 1)),
        pairs_won=(at("pairs_won", 0), at("pairs_won", 1), at("pairs_won", 2)),
        margin_squares=total("margin_squares"),
        hands_squares=total("hands_squares"),
        margin_hands=total("margin_hands"),
        seconds=sum(r.seconds for r in results),
    )


def row(result: tb.TournamentResult) -> str:
    """One table line: A's match wins and margin a hand with their 95% intervals."""
    a, b = result.bots
    low, high = result.win_rate_interval
    m_low, m_high = result.margin_interval
    pa, pb = result.points_per_hand
    return (
        f"| `{a}` | `{b}` | {result.deals} | {result.matches} | {result.hands} "
        f"| {result.win_rate:.1%} ({low:.1%} - {high:.1%}) | {pa:.1f} - {pb:.1f} "
        f"| {result.margin_per_hand:+.1f} ({m_low:+.1f} .. {m_high:+.1f}) "
        f"| {result.seconds:.0f} s |"
    )


def matchup(pimc: str, other: str, deals: int, args: argparse.Namespace) -> tb.TournamentResult:
    """PIMC against ``other`` over ``deals`` deals in blocks, printing the standing."""
    rules = tb.Rules(target=args.target)
    blocks = []
    for k, start in enumerate(range(0, deals, args.block)):
        if k < args.first_block:
            continue
        size = min(args.block, deals - start)
        blocks.append(
            tb.tournament(pimc, other, size, seed=args.seed + k, rules=rules, threads=args.threads)
        )
        print(f"  after {start + size} deals: {row(combine(blocks))}", flush=True)
    print(f"  counts: {combine(blocks).counts()}", flush=True)
    return combine(blocks)


def decision_times(pimc: str, deals: int) -> str:
    """PIMC's decision time in CPU time (one thread, so the machine's load inflates it less
    than the wall clock) over hands played by PIMC on all seats after the heuristic's auction:
    the four cards of trick one (all cards out, the dearest decisions), every card decision
    (forced single cards included) and a whole hand; beside it ISMCTS at its default budget on
    the same trick-one states."""
    trick_one: list[float] = []
    ismcts: list[float] = []
    every: list[float] = []
    for d in range(deals):
        state = tb.HandState(d % 4, seed=TIMING_SEED + d)
        while state.phase is tb.Phase.AUCTION:
            state.apply(tb.bot_action(state, HEURISTIC, d))
        k = 0
        while not state.is_terminal:
            seed = TIMING_SEED + 100 * d + k
            start = time.process_time()
            action = tb.bot_action(state, pimc, seed)
            every.append(time.process_time() - start)
            assert action in state.legal_action_ids()
            if k < CARDS_A_TRICK:
                trick_one.append(every[-1])
                start = time.process_time()
                tb.bot_action(state, ISMCTS, seed)
                ismcts.append(time.process_time() - start)
            state.apply(action)
            k += 1

    def ms(seconds: float) -> str:
        return f"{1e3 * seconds:.{1 if seconds > 0.01 else 3}f} ms"

    p90 = sorted(trick_one)[int(0.9 * len(trick_one))]
    return (
        f"| `{pimc}` | {deals} | {ms(statistics.median(trick_one))} | {ms(p90)} "
        f"| {ms(statistics.median(every))} | {ms(statistics.mean(every))} "
        f"| {sum(every) / deals:.2f} s | {ms(statistics.median(ismcts))} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--worlds", type=int, default=10)
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--block", type=int, default=10)
    parser.add_argument("--target", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--timing-deals", type=int, default=20)
    parser.add_argument(
        "--first-block",
        type=int,
        default=0,
        help="skip the blocks before this one (to split a run; the counts add up)",
    )
    parser.add_argument(
        "--equal-cpu-iterations",
        type=int,
        default=160_000,
        help="ISMCTS iterations whose hand costs about the CPU time of PIMC's at 10 worlds",
    )
    parser.add_argument("--deals-ismcts", type=int, default=250)
    parser.add_argument("--deals-equal-cpu", type=int, default=100)
    parser.add_argument(
        "--only",
        choices=("heuristic", "ismcts", "ismcts-equal-cpu", "timing"),
        help="run one part alone",
    )
    args = parser.parse_args()
    pimc = f"pimc:worlds={args.worlds}"
    equal_cpu = f"ismcts:iterations={args.equal_cpu_iterations}"
    rows = []
    for other, part, deals in (
        (HEURISTIC, "heuristic", args.deals),
        (ISMCTS, "ismcts", args.deals_ismcts),
        (equal_cpu, "ismcts-equal-cpu", args.deals_equal_cpu),
    ):
        if args.only in (None, part):
            rows.append(row(matchup(pimc, other, deals, args)))
    if rows:
        print(f"\nseed {args.seed}, target {args.target}, threads {args.threads}")
        print(
            "| bot A | bot B | deals | matches | hands | A wins (95%) | points a hand A - B "
            "| A's margin a hand (95%) | time |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        for line in rows:
            print(line)
    if args.only in (None, "timing"):
        print(
            "\n| bot | hands timed | trick one, median | trick one, p90 "
            "| every card, median | every card, mean | a hand (36 cards) "
            "| `ismcts`, trick one, median |"
        )
        print("|---|---|---|---|---|---|---|---|")
        print(decision_times(pimc, args.timing_deals), flush=True)


if __name__ == "__main__":
    main()
