"""Shared test setup: hypothesis profiles and the two engines (docs/ENGINE.md).

Profiles (choose with the ``HYPOTHESIS_PROFILE`` environment variable, default ``dev``):
- ``dev``: 300 examples per property, no deadline;
- ``ci``: 10 000 examples per property, no deadline, ``too_slow`` health check suppressed.

The ``engine`` fixture runs a test once on the Rust core (``tarabish``, id ``rust``) and once on
the pure-Python reference (``tarabish.reference``, id ``reference``). Each engine is imported
inside the fixture, so an engine that is missing or broken fails its own tests only and never
breaks collection. ``engine_pair`` gives ``(rust, reference)`` for differential tests.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

try:
    import tarabish  # noqa: F401
except ModuleNotFoundError as exc:  # pragma: no cover - no PYTHONPATH=python and no install
    if exc.name != "tarabish":
        raise
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

settings.register_profile("dev", max_examples=300, deadline=None)
settings.register_profile(
    "ci",
    max_examples=10_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("probe", max_examples=2_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

ENGINE_MODULES = {"rust": "tarabish", "reference": "tarabish.reference"}
PRIMITIVES = (
    "legal_plays",
    "trick_winner",
    "card_points",
    "find_runs",
    "compare_runs",
    "run_winner",
    "score_hand",
)


def load_engine(name: str) -> ModuleType:
    """Import one engine and check that it provides the rule primitives; fail the test if not."""
    module_name = ENGINE_MODULES[name]
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any import failure is that engine's failure only
        pytest.fail(f"engine {name!r}: cannot import {module_name}: {exc!r}", pytrace=False)
    missing = [attr for attr in PRIMITIVES if not hasattr(module, attr)]
    if missing:
        pytest.fail(
            f"engine {name!r} ({module_name}) lacks {', '.join(missing)}"
            + (" (is the Rust extension built into python/tarabish/?)" if name == "rust" else ""),
            pytrace=False,
        )
    return module


@pytest.fixture(scope="session", params=["rust", "reference"])
def engine(request: pytest.FixtureRequest) -> ModuleType:
    """The engine under test: ``tarabish`` (id ``rust``) or ``tarabish.reference``."""
    return load_engine(request.param)


@pytest.fixture(scope="session")
def engine_pair() -> tuple[ModuleType, ModuleType]:
    """Both engines, ``(rust, reference)``, for differential tests."""
    return load_engine("rust"), load_engine("reference")


def pytest_report_header() -> str:
    """The CPU kernels the run tests (tests/test_kernels.py compares them all)."""
    from tarabish import _core

    kernels = _core.kernels()
    return f"tarabish kernels: {', '.join(kernels['available'])} (running {kernels['running']})"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``long`` (tens of seconds each at the ``ci`` profile) first, the rest
    in their order: xdist's workers then take the long ones early and share out the short ones
    at the end, instead of one worker finishing a long test alone. Every worker collects the
    same order, as xdist requires."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
