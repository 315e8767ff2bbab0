"""What ``import tarabish`` costs a program (README "Speed"): a fresh interpreter importing the
package against a fresh interpreter doing nothing, in pairs, one after the other in each round
so that both see the same load; the figure is the difference of the medians (the bar: under
20 ms). Compiled bytecode is used, as an installed package has it (``PYTHONDONTWRITEBYTECODE``
is dropped and a warm-up run writes it). Each run's result is checked: the import succeeds and
loads neither the Rust core nor ``dataclasses`` (both are loaded on first use).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from typing import Any

import pytest

ROUNDS = 40
BARE = "pass"
IMPORT = (
    "import sys, tarabish\n"
    "assert 'tarabish._core' not in sys.modules and 'dataclasses' not in sys.modules"
)


def seconds(code: str, env: dict[str, str]) -> float:
    """One fresh interpreter running ``code``, checked to succeed."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    assert done.returncode == 0 and not done.stderr, done.stderr
    return elapsed


@pytest.mark.benchmark(group="import tarabish in a fresh interpreter, beside bare Python")
def test_import_time(benchmark: Any) -> None:
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    seconds(IMPORT, env)  # writes the bytecode
    times: dict[str, list[float]] = {BARE: [], IMPORT: []}

    def pair() -> None:
        for code in times:
            times[code].append(seconds(code, env))

    benchmark.pedantic(pair, rounds=ROUNDS, iterations=1)
    bare, imported = (statistics.median(times[code]) * 1e3 for code in (BARE, IMPORT))
    benchmark.extra_info.update(bare_ms=bare, import_ms=imported, added_ms=imported - bare)
    print(
        f"\nimport tarabish: {imported:.1f} ms, bare Python {bare:.1f} ms "
        f"(medians of {ROUNDS}): {imported - bare:+.1f} ms (bar +20 ms)"
    )
