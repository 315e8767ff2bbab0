"""JSON form of the Rust-backed states (docs/ENGINE.md "Serialized states"): a state is its
rules, deal and actions, and loading replays them with every check, so a loaded state is always
consistent (36 distinct cards, nine a seat, turn order, every action legal)."""

from __future__ import annotations

import json
from typing import Any

from ._errors import InvalidInputError, TarabishError, excerpt
from ._json import loads as strict_json
from ._rules import Rules

FORMAT = "tarabish-state/1"


_KEYS = {
    "hand": {"format", "kind", "rules", "dealer", "scores_before", "deal", "actions"},
    "match": {"format", "kind", "rules", "seed", "first_dealer", "scores", "hands"},
}


def _load(text: Any, kind: str) -> dict[str, Any]:
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise InvalidInputError(f"a serialized state is JSON text, got {type(text).__name__}")
    data = strict_json(text, InvalidInputError, "state")
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("kind") != kind:
        raise InvalidInputError(f"not a {FORMAT} {kind} state")
    if set(data) != _KEYS[kind]:
        raise InvalidInputError(
            f"a {kind} state has exactly the keys {sorted(_KEYS[kind])}, got {sorted(data)}"
        )
    return data


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise InvalidInputError(
            f"state field {excerpt(name)} is missing or malformed: {excerpt(value)}"
        )
    return value


def _replay(state: Any, actions: Any, where: str, hand_index: int | None = None) -> None:
    """Applies action texts; with `hand_index`, all of them must belong to that hand of a match."""
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise InvalidInputError(f"{where}: actions must be a list of action texts")
    for index, action in enumerate(actions):
        if hand_index is not None and (state.hand_index != hand_index or state.is_terminal):
            raise InvalidInputError(f"{where} has actions after it ended (action {index})")
        try:
            state.apply(action)
        except TarabishError as error:
            raise InvalidInputError(
                f"{where}, action {index} ({excerpt(action)}): {error}"
            ) from None


def hand_to_json(state: Any, deal: list[str], actions: list[str]) -> str:
    """``state``'s JSON text; its deal (each seat's cards as ``format_cards`` writes them) and
    its actions as record text come from the core, which writes them faster."""
    return json.dumps(
        {
            "format": FORMAT,
            "kind": "hand",
            "rules": state.rules.to_dict(),
            "dealer": state.dealer,
            "scores_before": list(state.scores_before),
            "deal": deal,
            "actions": actions,
        }
    )


def hand_from_json(text: Any) -> Any:
    from ._core import HandState

    data = _load(text, "hand")
    deal = _field(data, "deal", list)
    if not all(isinstance(cards, str) for cards in deal):
        raise InvalidInputError("state field 'deal' is four strings of nine cards")
    state = HandState(
        _field(data, "dealer", int),
        deal=deal,
        rules=Rules.from_dict(data["rules"]),
        scores_before=_field(data, "scores_before", list),
    )
    _replay(state, data.get("actions"), "hand")
    return state


def match_to_json(state: Any, hands: list[list[str]]) -> str:
    """``state``'s JSON text; the actions of each hand played or in play, as record text, come
    from the core."""
    return json.dumps(
        {
            "format": FORMAT,
            "kind": "match",
            "rules": state.rules.to_dict(),
            "seed": state.seed,
            "first_dealer": state.first_dealer,
            "scores": list(state.start_scores),
            "hands": [{"actions": actions} for actions in hands],
        }
    )


def match_from_json(text: Any) -> Any:
    from ._core import MatchState

    data = _load(text, "match")
    state = MatchState(
        seed=_field(data, "seed", int),
        rules=Rules.from_dict(data["rules"]),
        first_dealer=_field(data, "first_dealer", int),
        scores=_field(data, "scores", list),
    )
    hands = _field(data, "hands", list)
    for number, hand in enumerate(hands):
        if not isinstance(hand, dict) or set(hand) != {"actions"}:
            raise InvalidInputError(f"hand {number} of the state is not {{'actions': [...]}}")
        if number != state.hand_index:
            raise InvalidInputError(f"hand {number} of the state follows the end of a hand early")
        _replay(state, hand.get("actions"), f"hand {number}", number)
    return state
