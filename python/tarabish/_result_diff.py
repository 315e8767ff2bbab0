"""Checking the results a record stores (the output form of ``tarabish replay``,
docs/RECORDS.md) against a new replay: every field that differs, with its hand and its path."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ._record import OUTPUT_RECORD_KEYS, load_document
from ._replay import play_record

__all__ = ["MISSING", "ResultDifference", "check_results"]


@dataclass(frozen=True, slots=True)
class ResultDifference:
    """A stored result that the replay does not give: in ``hand`` (None for the record's
    ``totals`` and ``winner``), the ``field`` (a path such as ``result.tricks[3].points``),
    what the record stores and what the replay gives (``MISSING`` where a side has none)."""

    hand: int | None
    field: str
    stored: Any
    replayed: Any

    def __str__(self) -> str:
        where = "record" if self.hand is None else f"hand {self.hand}"
        return (
            f"{where}: {self.field} is {_shown(self.stored)} in the record, "
            f"the replay gives {_shown(self.replayed)}"
        )


MISSING = object()
"""Stands for a field that one side of a ``ResultDifference`` does not have."""


def _shown(value: Any) -> str:
    return "missing" if value is MISSING else json.dumps(value, ensure_ascii=False)


def _differences(path: str, stored: Any, replayed: Any) -> Iterable[tuple[str, Any, Any]]:
    """Every leaf where ``stored`` and ``replayed`` (JSON values) differ, with its path."""
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in [*replayed, *(k for k in stored if k not in replayed)]:
            yield from _differences(
                f"{path}.{key}", stored.get(key, MISSING), replayed.get(key, MISSING)
            )
    elif isinstance(stored, list) and isinstance(replayed, list) and len(stored) == len(replayed):
        for index, (one, other) in enumerate(zip(stored, replayed, strict=True)):
            yield from _differences(f"{path}[{index}]", one, other)
    elif type(stored) is not type(replayed) or stored != replayed:
        yield path, stored, replayed


def check_results(
    source: str | bytes | dict[str, Any], engine: ModuleType | str | None = None
) -> list[ResultDifference]:
    """Replay a record that stores its results (the output form of ``tarabish replay``) and
    compare every stored field with the recomputed one: each hand's ``result`` and the
    record's ``totals`` and ``winner``. A field the record lacks counts as a difference (an
    audit must not pass on what was never stored). Raises ``RecordError`` for a record that is
    malformed or breaks a rule, like ``play_record``."""
    data = load_document(source)
    played = play_record(data, engine)  # checks the form, so data is a record
    # One hand's result as a dict at a time: the whole output document would cost kilobytes a
    # hand.
    differences = [
        ResultDifference(index, field, stored, computed)
        for index, (hand, replayed) in enumerate(zip(data["hands"], played.hands, strict=True))
        for field, stored, computed in _differences(
            "result", hand.get("result", MISSING), replayed.result.to_dict()
        )
    ]
    record_fields = {"totals": list(played.totals), "winner": played.winner}
    for key in OUTPUT_RECORD_KEYS:
        differences += [
            ResultDifference(None, field, stored, computed)
            for field, stored, computed in _differences(
                key, data.get(key, MISSING), record_fields[key]
            )
        ]
    return differences
