"""The variant options of RULES.md R9, with their defaults."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from ._errors import InvalidInputError, excerpt

MAX_POINTS_OPTION = 65_535
"""The largest ``target`` or ``forced_at`` (R9)."""


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
        self.check()

    def check(self) -> None:
        """Raise ``InvalidInputError`` unless every option holds a value R9 allows.

        The constructor runs it; an engine runs it again on the rules it is given, so a
        ``Rules`` changed behind the constructor's back (``object.__setattr__``, a crafted
        pickle) is refused, never played."""
        for name in _OPTIONS:
            value = getattr(self, name)
            if name in ("target", "forced_at"):
                if value is None and name == "forced_at":
                    continue
                if type(value) is not int or not 0 < value <= MAX_POINTS_OPTION:
                    raise InvalidInputError(
                        f"Rules.{name} must be a whole number 1..{MAX_POINTS_OPTION}, "
                        f"got {excerpt(value)} (R9)"
                    )
            elif name == "declarations":
                if type(value) is not str or value not in ("auto", "manual"):
                    raise InvalidInputError(
                        f"Rules.declarations must be 'auto' or 'manual', got {excerpt(value)} "
                        "(R4.4)"
                    )
            elif type(value) is not bool:
                raise InvalidInputError(
                    f"Rules.{name} must be True or False, got {excerpt(value)} (R9)"
                )

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its public options and rebuilt through the constructor, which checks them:
        # there is no other form of the rules to trust (rust/py/rules.rs reads these fields).
        return (_from_options, (self.to_dict(),))

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
        """The rules of a mapping of R9 option names to values (defaults for the others)."""
        if not isinstance(options, dict):
            raise InvalidInputError(
                f"rules must be an object of R9 options, got {excerpt(options)}"
            )
        unknown = [name for name in options if not isinstance(name, str) or name not in _OPTIONS]
        if unknown:
            raise InvalidInputError(
                f"unknown rule option {excerpt(unknown[0])} (R9 lists {', '.join(_OPTIONS)})"
            )
        return cls(**options)


def _from_options(options: dict[str, Any]) -> Rules:
    """Unpickling: the rules rebuilt from their options, checked like any others."""
    return Rules.from_dict(options)


_OPTIONS = tuple(f.name for f in fields(Rules))
_DEFAULT = Rules()
