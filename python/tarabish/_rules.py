"""The variant options of RULES.md R9, with their defaults."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from ._errors import InvalidInputError


@dataclass(frozen=True)
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
        for name in _OPTIONS:
            value = getattr(self, name)
            if name in ("target", "forced_at"):
                if value is None and name == "forced_at":
                    continue
                if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 65536:
                    raise InvalidInputError(
                        f"Rules.{name} must be a whole number 1..65535, got {value!r} (R9)"
                    )
            elif name == "declarations":
                if value not in ("auto", "manual"):
                    raise InvalidInputError(
                        f"Rules.declarations must be 'auto' or 'manual', got {value!r} (R4.4)"
                    )
            elif not isinstance(value, bool):
                raise InvalidInputError(f"Rules.{name} must be True or False, got {value!r}")
        flags = (
            self.dealer_may_pass,
            self.team_runs,
            self.head_plain,
            self.undertrump_optional,
            self.partner_exempt,
            self.half_bait_is_bait,
            self.declarations == "manual",
            self.first_bell_ok,
            self.late_twenty,
            not self.enforce_legal_play,
        )
        packed = self.target | ((self.forced_at or 0) << 16)
        for bit, flag in enumerate(flags):
            packed |= int(flag) << (32 + bit)
        # The options packed in one int for the Rust core (rust/py/convert.rs), computed once;
        # an instance attribute, not a field, so the fields are exactly R9's options.
        object.__setattr__(self, "_packed", packed)

    @property
    def is_table_mode(self) -> bool:
        """Manual declarations or accepted misplays (R8), which the engines do not play yet."""
        return self.declarations == "manual" or not self.enforce_legal_play

    def to_dict(self) -> dict[str, Any]:
        """Only the options that differ from the defaults (the record format's ``rules``)."""
        return {
            name: getattr(self, name)
            for name in _OPTIONS
            if getattr(self, name) != getattr(_DEFAULT, name)
        }

    @classmethod
    def from_dict(cls, options: Any) -> Rules:
        if not isinstance(options, dict):
            raise InvalidInputError(f"rules must be an object of R9 options, got {options!r}")
        known = set(_OPTIONS)
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidInputError(f"unknown rule option(s) {unknown} (R9 lists {sorted(known)})")
        return cls(**options)


_OPTIONS = tuple(f.name for f in fields(Rules))
_DEFAULT = Rules()
