"""The variant options of RULES.md R9, with their defaults."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from ._errors import InvalidInputError


@dataclass(frozen=True, slots=True)
class Rules:
    """Which variant of each rule is in force. Field names and defaults exactly as R9."""

    target: int = 500
    dealer_may_pass: bool = False
    forced_at: int | None = None
    team_runs: bool = False
    declarations: Literal["auto", "manual"] = "auto"
    first_bell_ok: bool = False
    late_twenty: bool = False
    head_plain: bool = False
    undertrump_optional: bool = False
    partner_exempt: bool = False
    half_bait_is_bait: bool = False
    enforce_legal_play: bool = True

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if field.name in ("target", "forced_at"):
                if value is None and field.name == "forced_at":
                    continue
                if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 65536:
                    raise InvalidInputError(
                        f"Rules.{field.name} must be a whole number 1..65535, got {value!r} (R9)"
                    )
            elif field.name == "declarations":
                if value not in ("auto", "manual"):
                    raise InvalidInputError(
                        f"Rules.declarations must be 'auto' or 'manual', got {value!r} (R4.4)"
                    )
            elif not isinstance(value, bool):
                raise InvalidInputError(f"Rules.{field.name} must be True or False, got {value!r}")

    def to_dict(self) -> dict[str, Any]:
        """Only the options that differ from the defaults (the record format's ``rules``)."""
        default = _DEFAULT
        return {k: v for k, v in asdict(self).items() if getattr(default, k) != v}

    @classmethod
    def from_dict(cls, options: Any) -> Rules:
        if not isinstance(options, dict):
            raise InvalidInputError(f"rules must be an object of R9 options, got {options!r}")
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidInputError(f"unknown rule option(s) {unknown} (R9 lists {sorted(known)})")
        return cls(**options)


_DEFAULT = Rules()
