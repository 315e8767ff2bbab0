"""Playing strength of the search bots (docs/SEARCH.md "Strength"): duplicate tournaments
(``tb.tournament``: each deal played twice with the teams swapped, matches to 500) with 95%
confidence intervals, printed as the Markdown table docs/SEARCH.md shows.

    python benches/strength.py [--deals-fast 1000] [--deals-search 200] [--threads 0]

Checks the project's bars: the heuristic wins at least 95% of its matches against random, and
ISMCTS at its default budget beats the heuristic with the lower end of the 95% interval of its
match win rate above 55%.
"""

from __future__ import annotations

import argparse
import time

import tarabish as tb


def row(a: str, b: str, deals: int, seed: int, threads: int) -> tuple[str, tb.TournamentResult]:
    start = time.perf_counter()
    result = tb.tournament(a, b, deals=deals, seed=seed, threads=threads)
    low, high = result.win_rate_interval
    m_low, m_high = result.margin_interval
    line = (
        f"| `{a}` | `{b}` | {result.matches} | {result.win_rate:.1%} | {low:.1%} - {high:.1%} "
        f"| {result.margin_per_hand:+.1f} ({m_low:+.1f} .. {m_high:+.1f}) "
        f"| {time.perf_counter() - start:.0f} s |"
    )
    return line, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals-fast", type=int, default=1000)
    parser.add_argument("--deals-search", type=int, default=200)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print("| bot A | bot B | matches | A wins | 95% interval | A's margin a hand (95%) | time |")
    print("|---|---|---|---|---|---|---|")
    line, _ = row("heuristic", "greedy", args.deals_fast, args.seed, args.threads)
    print(line, flush=True)
    line, random = row("heuristic", "random", args.deals_fast, args.seed, args.threads)
    print(line, flush=True)
    line, search = row("ismcts", "heuristic", args.deals_search, args.seed, args.threads)
    print(line, flush=True)
    rate = random.win_rate
    assert rate >= 0.95, f"heuristic beats random in {rate:.1%} of matches (bar: 95%)"
    low = search.win_rate_interval[0]
    assert low > 0.55, f"ISMCTS vs heuristic: lower 95% bound {low:.1%} (bar: 55%)"


if __name__ == "__main__":
    main()
