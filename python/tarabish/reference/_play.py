"""Playing a card to a trick: legal plays (RULES.md R5.1, with the variants ``head_plain``,
``undertrump_optional`` and ``partner_exempt`` of R9) and the trick winner (R5.2).

The core functions work on card indices (R0); ``legal_plays`` and ``trick_winner`` are the
public primitives of docs/ENGINE.md and check their input first.
"""

from __future__ import annotations

from typing import Any

from .._cards import Card
from .._errors import InvalidInputError
from .._rules import Rules
from ._input import card_indices, check_distinct, rules_value, suit_value
from ._order import (
    SUIT_NAMES,
    name,
    plain_strength,
    suit_of,
    trick_strength,
    trump_strength,
)


def winning_position(trick: list[int], trump: int) -> int:
    """R5.2: the position in ``trick`` (play order) of the winning card.

    The highest trump wins; with no trump, the highest card of the suit led.
    """
    led = suit_of(trick[0])
    best = 0
    for position in range(1, len(trick)):
        if trick_strength(trick[position], led, trump) > trick_strength(trick[best], led, trump):
            best = position
    return best


def legal_indices(hand: list[int], trick: list[int], trump: int, rules: Rules) -> list[int]:
    """R5.1: the cards of ``hand`` that may be played to ``trick``, sorted by index."""
    return sorted(_legal(hand, trick, trump, rules)[0])


def illegal_reason(
    hand: list[int], trick: list[int], trump: int, rules: Rules, card: int
) -> tuple[str, str] | None:
    """Why ``card`` (held in ``hand``) may not be played: ``(rule id, explanation)``, or None
    when it is legal. The rule is ``R5.1a`` when the player holds the suit led, ``R5.1b`` when
    void in it (docs/ENGINE.md, illegal actions)."""
    legal, rule, reason = _legal(hand, trick, trump, rules)
    if card in legal:
        return None
    return rule, reason


def _legal(
    hand: list[int], trick: list[int], trump: int, rules: Rules
) -> tuple[list[int], str, str]:
    """The legal cards, with the rule that restricts them and a sentence saying how."""
    # R5.1: the leader may lead any card.
    if not trick:
        return list(hand), "R5.1", "the leader may lead any card"
    led = suit_of(trick[0])
    led_name = SUIT_NAMES[led]
    following = [card for card in hand if suit_of(card) == led]
    trumps = [card for card in hand if suit_of(card) == trump]
    trick_trumps = [card for card in trick if suit_of(card) == trump]

    # R5.1a: holding the suit led, follow suit.
    if following:
        if led == trump:
            # Trump led: head the trick (beat every trump in it) if you can, else any trump.
            top = max(trick_trumps, key=trump_strength)
            heading = [card for card in following if trump_strength(card) > trump_strength(top)]
            if heading:
                return heading, "R5.1a", f"trump was led: a player must head the {name(top)}"
            return following, "R5.1a", f"a player holding {led_name} must follow suit"
        if rules.head_plain and not trick_trumps:
            # Variant head_plain: beat the highest card of the led suit if you can.
            led_cards = [card for card in trick if suit_of(card) == led]
            top = max(led_cards, key=plain_strength)
            heading = [card for card in following if plain_strength(card) > plain_strength(top)]
            if heading:
                return heading, "R5.1a", f"head_plain: a player must beat the {name(top)}"
        return following, "R5.1a", f"a player holding {led_name} must follow suit"

    # Void in the suit led.
    # Variant partner_exempt: a void player whose partner is winning may play any card.
    # The partner played two places before this player in the trick.
    if rules.partner_exempt and len(trick) >= 2:
        if winning_position(trick, trump) == len(trick) - 2:
            return list(hand), "R5.1", "partner_exempt: the partner is winning the trick"

    # R5.1b: void in the suit led but holding trump, play a trump ...
    if trumps:
        if trick_trumps:
            # ... that beats the highest trump in the trick if you can ("play to beat") ...
            top = max(trick_trumps, key=trump_strength)
            beating = [card for card in trumps if trump_strength(card) > trump_strength(top)]
            if beating:
                return (
                    beating,
                    "R5.1b",
                    f"a player void in {led_name} must trump and beat the {name(top)}",
                )
            # ... else still a lower trump (variant undertrump_optional: then any card).
            if rules.undertrump_optional:
                return (
                    list(hand),
                    "R5.1b",
                    f"undertrump_optional: one who cannot beat the {name(top)} may play any card",
                )
            return (
                trumps,
                "R5.1b",
                f"a player void in {led_name} who cannot beat the {name(top)} must still trump",
            )
        return trumps, "R5.1b", f"a player void in {led_name} must trump"

    # R5.1c: holding neither, play any card.
    return list(hand), "R5.1c", f"a player void in {led_name} and in trump may play any card"


def legal_plays(hand: Any, trick: Any, trump: Any, rules: Rules = Rules()) -> list[Card]:  # noqa: B008
    """R5.1: the cards of ``hand`` that may be played to ``trick`` (in play order), by index.

    Examples (R10.2, R10.3): spades trump, the trick holds TS and the hand 6S 7S 8S 9S: only 9S.
    Diamonds trump, hearts led, a hand with no hearts and the 6D: only 6D.
    """
    rules = rules_value(rules)
    hand_cards = card_indices(hand, "hand")
    trick_cards = card_indices(trick, "trick")
    trump_suit = suit_value(trump)
    if not 1 <= len(hand_cards) <= 9:
        raise InvalidInputError(f"a hand holds 1 to 9 cards (R2.4), got {len(hand_cards)}")
    if len(trick_cards) > 3:
        raise InvalidInputError(
            f"a trick to play to holds 0 to 3 cards (R5.1), got {len(trick_cards)}"
        )
    check_distinct(hand_cards, "the hand")
    check_distinct(trick_cards, "the trick")
    check_distinct(hand_cards + trick_cards, "the hand and trick together")
    return [
        Card.from_index(card) for card in legal_indices(hand_cards, trick_cards, trump_suit, rules)
    ]


def trick_winner(trick: Any, trump: Any) -> int:
    """R5.2: the position (0-3) in ``trick`` of the winning card.

    Example (R10.4): diamonds trump, S8 8D 9D JD: the JD (3) wins; S8 S9 6H 6C: the S9 (1) wins.
    """
    trick_cards = card_indices(trick, "trick")
    trump_suit = suit_value(trump)
    if not 1 <= len(trick_cards) <= 4:
        raise InvalidInputError(f"a trick holds 1 to 4 cards (R5.3), got {len(trick_cards)}")
    check_distinct(trick_cards, "the trick")
    return winning_position(trick_cards, trump_suit)
