"""Shared setup of the benchmark suites (pytest-benchmark): the two engines and the summary.

Run with ``python -m pytest benches --benchmark-only`` (benches/README.md). The normal test run
(``pytest``, testpaths = tests/) never collects this folder.

- ``engine`` runs a benchmark once on the Rust core (``tarabish``, id ``rust``) and once on the
  pure-Python reference (``tarabish.reference``, id ``reference``); both rows share the test's
  ``group`` so pytest-benchmark prints them together. The engine is noted in
  ``benchmark.extra_info["engine"]``.
- ``rate(count)`` records ``benchmark.extra_info["hands_per_second"]`` (``count`` hands per
  round, over the median round) once the benchmark has run.
- At the end of the run a summary lists, for each group, the Rust and reference medians and
  their ratio (reference / Rust), the hands per second where recorded, the machine and its load.
"""

from __future__ import annotations

import importlib
import os
import platform
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from engines import ENGINE_MODULES

try:
    import tarabish  # noqa: F401
except ImportError:  # pragma: no cover - running without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

# What the project expects of one rule primitive called from Python.
PRIMITIVE_MAX_RUST_SECONDS = 1e-6
PRIMITIVE_MIN_RATIO = 20.0

_LOAD_AT_START: tuple[float, float, float] | None = None


@pytest.fixture(params=list(ENGINE_MODULES))
def engine(request: pytest.FixtureRequest, benchmark: Any) -> ModuleType:
    """The engine module under test (``tarabish`` or ``tarabish.reference``)."""
    benchmark.extra_info["engine"] = request.param
    return importlib.import_module(ENGINE_MODULES[request.param])


@pytest.fixture
def rate(benchmark: Any) -> Callable[[int], None]:
    """``rate(count, unit="hands")``: note ``count / median round time`` as
    ``hands_per_second`` (the summary prints it with ``unit``)."""

    def record(count: int, unit: str = "hands") -> None:
        metadata = benchmark.stats  # None when benchmarks are disabled
        if metadata and metadata.stats.median > 0:
            benchmark.extra_info["hands_per_second"] = count / metadata.stats.median
            benchmark.extra_info["unit"] = unit

    return record


def pytest_sessionstart(session: pytest.Session) -> None:
    global _LOAD_AT_START
    _LOAD_AT_START = _load()


def _load() -> tuple[float, float, float] | None:
    try:
        return os.getloadavg()
    except OSError:  # pragma: no cover - not on this platform
        return None


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:  # pragma: no cover - not Linux
        pass
    return platform.processor() or platform.machine()


def _time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def _rate(value: float | None, unit: str = "hands") -> str:
    return "" if value is None else f"{value:,.0f} {unit}/s"


def _label(bench: Any) -> str:
    info = bench.extra_info
    return str(info.get("label") or info.get("engine") or bench.param or bench.name)


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """At the end of the session: each group's Rust and reference medians and their ratio."""
    session = getattr(config, "_benchmarksession", None)
    benches = [b for b in getattr(session, "benchmarks", []) if b and not b.has_error]
    if not benches:
        return
    groups: dict[str, list[Any]] = {}
    for bench in benches:
        groups.setdefault(bench.group or bench.name, []).append(bench)
    write = terminalreporter.write_line
    load_end = _load()
    loads = " -> ".join(f"{load[0]:.2f}" for load in (_LOAD_AT_START, load_end) if load is not None)
    terminalreporter.write_sep("-", "tarabish benchmark summary (medians)")
    write(
        f"machine: {_cpu_model()}, {os.cpu_count()} CPUs; 1-minute load average {loads} "
        f"(start -> end); Python {platform.python_version()}"
    )
    width = max(len(name) for name in groups) + 2
    write(f"{'group':<{width}}{'rust':>11}{'reference':>13}{'ratio':>9}   hands/s / note")
    missed = []
    for name, rows in groups.items():
        by_engine = {row.extra_info.get("engine"): row for row in rows}
        rust, ref = by_engine.get("rust"), by_engine.get("reference")
        if rust is not None and ref is not None and len(rows) == 2:
            ratio = ref.stats.median / rust.stats.median
            note = ""
            rust_rate = rust.extra_info.get("hands_per_second")
            ref_rate = ref.extra_info.get("hands_per_second")
            if rust_rate is not None and ref_rate is not None:
                note = f"{rust_rate:,.0f} / {ref_rate:,.0f} hands/s"
            if rust.extra_info.get("primitive"):
                fast = rust.stats.median < PRIMITIVE_MAX_RUST_SECONDS
                enough = ratio >= PRIMITIVE_MIN_RATIO
                note = "meets the target" if fast and enough else "BELOW the target"
                if not (fast and enough):
                    missed.append(name)
            write(
                f"{name:<{width}}{_time(rust.stats.median):>11}{_time(ref.stats.median):>13}"
                f"{ratio:>8.1f}x   {note}"
            )
            continue
        write(f"{name}:")
        for row in rows:
            info = row.extra_info
            rate = _rate(info.get("hands_per_second"), info.get("unit", "hands"))
            note = f"  {info['note']}" if "note" in info else ""
            write(
                f"  {_label(row):<{width - 2}}{_time(row.stats.median):>11}{'':>22}   {rate}{note}"
            )
    if missed:
        write(
            f"primitive target (Rust < {_time(PRIMITIVE_MAX_RUST_SECONDS)} a call and at least "
            f"{PRIMITIVE_MIN_RATIO:g}x the reference) missed by: {', '.join(missed)}"
        )
