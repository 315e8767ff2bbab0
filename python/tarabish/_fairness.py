"""Fair deals, provably: every match seed of ``tarabish serve`` comes from the operating
system's CSPRNG, and the server commits to it before the first card; a record that reveals the
seed (its top-level ``fairness``, docs/RECORDS.md) can be checked by anyone.

At creation a table publishes ``commitment = sha256(f"{seed}:{salt}")`` (hex) in its summary,
where ``salt`` is 32 random hex characters kept secret with the seed; when the match is over its
record carries ``"fairness": {"seed", "salt", "commitment"}`` at the top level. Anyone can then
check that the commitment matches and that every deal of the record is the deal of
``MatchState(seed, rules, first_dealer)`` after the record's actions (``verify``;
``tarabish replay --verify-fairness FILE``). A client-chosen seed (a practice table) is
committed the same way, but its creator knew every card: such a table says ``practice``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

SALT_HEX_CHARS = 32
SEED_BITS = 64


def new_seed() -> int:
    """A match seed from the OS's CSPRNG (``secrets``)."""
    return secrets.randbits(SEED_BITS)


def new_salt() -> str:
    """A fresh secret salt: 32 random hex characters."""
    return secrets.token_hex(SALT_HEX_CHARS // 2)


def commitment(seed: int, salt: str) -> str:
    """``sha256(f"{seed}:{salt}".encode()).hexdigest()``."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def revealed(seed: int, salt: str) -> dict[str, Any]:
    """The record's top-level ``fairness`` once the match is over."""
    return {"seed": seed, "salt": salt, "commitment": commitment(seed, salt)}


def verify(record: dict[str, Any]) -> list[str]:
    """What is wrong with a record's ``fairness`` (an empty list: the commitment matches the
    revealed seed and salt, and every hand's deal and dealer are the seed's). The record must
    be a valid ``tarabish-record/1``; raises what the record reader raises otherwise."""
    from ._cards import format_cards
    from ._engines import engine_module
    from ._replay import play_record
    from ._rules import Rules

    fairness = record.get("fairness")
    if not isinstance(fairness, dict):
        return ["the record has no 'fairness' (seed, salt and commitment)"]
    seed, salt, committed = fairness.get("seed"), fairness.get("salt"), fairness.get("commitment")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << SEED_BITS:
        return [f"'fairness.seed' is a whole number 0..2**64-1, got {seed!r}"]
    if not isinstance(salt, str) or not isinstance(committed, str):
        return ["'fairness.salt' and 'fairness.commitment' are text"]
    problems = []
    if not hmac.compare_digest(commitment(seed, salt), committed):
        problems.append(
            f"the commitment {committed} is not sha256('{seed}:{salt}') = {commitment(seed, salt)}"
        )
    play_record(record)  # every action legal: the record is a real match
    hands = record["hands"]
    match = engine_module("rust").MatchState(
        seed=seed, rules=Rules.from_dict(record["rules"]), first_dealer=hands[0]["dealer"]
    )
    for index, hand in enumerate(hands):
        dealt = match.hand
        if [format_cards(cards) for cards in dealt.deal] != hand["deal"]:
            problems.append(f"hand {index}: the deal is not the one seed {seed} gives")
            break
        for action in hand["actions"]:
            match.apply(action)
    return problems
