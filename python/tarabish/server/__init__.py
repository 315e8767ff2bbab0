"""``tarabish serve``: a reference game server for table mode (optional extra ``server``).

Starlette on uvicorn: tables over one WebSocket per client with the JSON messages of
docs/PROTOCOL.md, built only from the engine's per-seat ``events()`` and ``table_view()``
(docs/EVENTS.md, docs/TABLE.md); every accepted action is committed to SQLite (WAL) or
PostgreSQL before it is broadcast; a page to play in the browser at ``/``; safe in the open
(docs/SECURITY.md: every limit in ``limits``).

The names below load the server (uvicorn, Starlette) when first used, so that ``limits`` and
``fairness`` can be imported without it.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["DEFAULT_DB", "GC_THRESHOLDS", "GameServer", "create_app", "main", "serve"]

_WHERE = {
    "DEFAULT_DB": "process",
    "GC_THRESHOLDS": "process",
    "GameServer": "app",
    "create_app": "app",
    "main": "process",
    "serve": "process",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
