"""The two engines of docs/ENGINE.md by name: ``rust`` (the Rust core, the ``tarabish``
package) and ``reference`` (the pure-Python ``tarabish.reference``)."""

from __future__ import annotations

import importlib
from types import ModuleType

from ._errors import InvalidInputError, excerpt

ENGINES = {"rust": "tarabish", "reference": "tarabish.reference"}


def engine_module(engine: ModuleType | str | None) -> ModuleType:
    """The engine module for a name of ``ENGINES`` (None: ``rust``) or a module given as is;
    ``InvalidInputError`` for another name."""
    if engine is None:
        engine = "rust"
    if isinstance(engine, ModuleType):
        return engine
    if not isinstance(engine, str) or engine not in ENGINES:
        raise InvalidInputError(
            f"unknown engine {excerpt(engine)}: expected one of {sorted(ENGINES)}"
        )
    return importlib.import_module(ENGINES[engine])
