"""The one strict JSON reader of states and records (docs/ENGINE.md "Serialized states",
docs/RECORDS.md): a key twice in an object, ``NaN``/``Infinity``, a number of more digits than
any field can hold, or nesting deeper than the interpreter allows are malformed JSON, raised as
the caller's ``TarabishError`` class, never a bare ``ValueError`` or ``RecursionError``."""

from __future__ import annotations

import json
from typing import Any

from ._errors import TarabishError, excerpt

MAX_NUMBER_DIGITS = 20
"""The most digits of a JSON number: a seed is at most 2**64 - 1 (20 digits). Longer numbers are
refused before they are converted (Python refuses ints of more than 4300 digits anyway)."""


def loads(text: str, error: type[TarabishError], what: str) -> Any:
    """``text`` parsed as strict JSON; anything malformed raises ``error`` naming ``what``."""

    def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise error(f"malformed {what} JSON: the key {excerpt(key)} appears twice")
            result[key] = value
        return result

    def no_constant(name: str) -> Any:
        raise error(f"malformed {what} JSON: {name} is not a number")

    def number(kind: type[int] | type[float]) -> Any:
        def parse(digits: str) -> int | float:
            if len(digits) > MAX_NUMBER_DIGITS:
                raise error(
                    f"malformed {what} JSON: the number {excerpt(digits)} has more than "
                    f"{MAX_NUMBER_DIGITS} digits"
                )
            return kind(digits)

        return parse

    try:
        return json.loads(
            text,
            object_pairs_hook=unique_keys,
            parse_constant=no_constant,
            parse_int=number(int),
            parse_float=number(float),
        )
    except json.JSONDecodeError as problem:
        raise error(f"malformed {what} JSON: {problem}") from None
    except RecursionError:
        raise error(f"malformed {what} JSON: nested too deeply") from None
