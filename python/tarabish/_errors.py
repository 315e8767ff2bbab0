"""The error classes of the public API (docs/ARCHITECTURE.md, principle 5).

Every error is a ``ValueError`` so callers that validate input can catch one class.
"""

from __future__ import annotations

EXCERPT_CHARS = 60
"""How much of a bad input an error message quotes (a short excerpt, whatever its size)."""


def excerpt(value: object) -> str:
    """The ``repr`` of a bad input for an error message, cut to ``EXCERPT_CHARS`` characters.

    Long text is cut before ``repr`` so a megabyte string costs no more than a short one; the
    ``repr`` escapes what cannot be printed (lone surrogates, control characters)."""
    if isinstance(value, str) and len(value) > EXCERPT_CHARS:
        return f"{value[:EXCERPT_CHARS]!r}... ({len(value)} characters)"
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails is still described by its type
        text = f"<{type(value).__name__}>"
    if len(text) > EXCERPT_CHARS:
        return f"{text[:EXCERPT_CHARS]}... ({type(value).__name__})"
    return text


def one_line(text: str) -> str:
    """``text`` with every run of white space (line breaks included) one space: an error
    message as one line."""
    return " ".join(text.split())


class TarabishError(ValueError):
    """Base class of every error this package raises on bad input or an illegal action."""


class InvalidInputError(TarabishError):
    """Malformed input: an unknown card, a card twice, a hand of 10, a bad record or state."""


class IllegalActionError(TarabishError):
    """An action the rules forbid in this state; the state is left exactly as it was.

    ``action`` is the rejected action (as text), ``rule`` the rule id it breaks (``"R5.1b"``)
    and ``state`` a one-line description of the state it was tried in.
    """

    def __init__(self, message: str, *, action: str, rule: str, state: str) -> None:
        super().__init__(message)
        self.action = action
        self.rule = rule
        self.state = state

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_illegal, (str(self), self.action, self.rule, self.state))


def _rebuild_illegal(message: str, action: str, rule: str, state: str) -> IllegalActionError:
    return IllegalActionError(message, action=action, rule=rule, state=state)
