"""The two engines the benchmarks measure side by side, and one state built on each, so that a
benchmark checks its result against the other engine's (benches/README.md)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

ENGINE_MODULES = {"rust": "tarabish", "reference": "tarabish.reference"}
"""Each engine's module, by the name the benchmarks report it under."""


def on_each_engine(build: Callable[[ModuleType], Any]) -> dict[str, Any]:
    """``build(engine)`` on each engine, by the engine's name."""
    return {name: build(importlib.import_module(module)) for name, module in ENGINE_MODULES.items()}


def on_the_other(engine: ModuleType, states: dict[str, Any]) -> Any:
    """The same state on the other engine (the differential check of each result)."""
    return states["reference" if engine.__name__ == ENGINE_MODULES["rust"] else "rust"]
