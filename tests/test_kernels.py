"""The CPU kernels (rust/cpu.rs): which ones this machine runs, forcing one with
``TARABISH_KERNEL``, refusing one the CPU lacks or an unknown name at import, and the same
results on every kernel (tests/crossprobe.py's hashes of simulate summaries, bot decisions,
solver values and sampled worlds, and the golden records' replay)."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest
import tarabish as tb

PROBE = Path(__file__).resolve().parent / "crossprobe.py"
# /proc/cpuinfo's names of the AVX-512 kernel's extensions (rust/cpu.rs AVX512_FEATURES).
AVX512_FLAGS = {
    "avx512f",
    "avx512bw",
    "avx512dq",
    "avx512vl",
    "avx512cd",
    "avx512_vpopcntdq",
    "avx512_bitalg",
    "avx512vbmi",
    "avx512ifma",
}
AVAILABLE = tb.kernels()["available"]


def run(code: list[str], kernel: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TARABISH_KERNEL"}
    if kernel is not None:
        env["TARABISH_KERNEL"] = kernel
    return subprocess.run(
        [sys.executable, *code], capture_output=True, text=True, env=env, timeout=300
    )


def probe(kernel: str | None) -> dict[str, object]:
    done = run([str(PROBE)], kernel)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_fastest_kernel_runs_by_default_and_the_portable_one_always() -> None:
    kernels = tb.kernels()
    assert kernels["available"][0] == "portable"
    assert kernels["running"] == kernels["available"][-1]
    assert set(kernels["available"]) <= {"portable", "bmi2", "avx512"}


def test_the_kernels_are_those_the_cpu_flags_allow() -> None:
    # Linux's list of the CPU's flags; off x86-64 the portable kernel is the only one.
    flags: set[str] = set()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            break
    bmi2 = platform.machine() == "x86_64" and {"bmi1", "bmi2", "popcnt"} <= flags
    expected = ["portable"] + ["bmi2"] * bmi2 + ["avx512"] * (bmi2 and AVX512_FLAGS <= flags)
    assert AVAILABLE == expected


@pytest.mark.parametrize("kernel", AVAILABLE)
def test_every_kernel_gives_the_same_results(kernel: str) -> None:
    forced = probe(kernel)
    default = probe(None)
    assert forced.pop("kernels") == {"running": kernel, "available": AVAILABLE}
    default.pop("kernels")
    assert forced == default
    assert forced["goldens_replay"] is True and forced["goldens"] == 30


@pytest.mark.parametrize(
    ("kernel", "message"),
    [
        ("avx2", 'TARABISH_KERNEL="avx2" names no kernel: expected one of portable, bmi2, avx512'),
        *[
            (name, f"TARABISH_KERNEL={name}: this CPU lacks ")
            for name in ("bmi2", "avx512")
            if name not in AVAILABLE
        ],
    ],
)
def test_a_kernel_the_cpu_cannot_run_refuses_the_import(kernel: str, message: str) -> None:
    done = run(["-c", "import tarabish; tarabish.HandState"], kernel)
    assert done.returncode == 1
    assert f"ImportError: {message}" in done.stderr


def test_version_says_which_kernels_run() -> None:
    done = run(["-m", "tarabish", "--version"], "portable")
    assert done.returncode == 0, done.stderr
    available = ", ".join(AVAILABLE)
    assert done.stdout == f"tarabish {tb.__version__} (kernels {available}; running portable)\n"
