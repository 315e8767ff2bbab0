"""Self-play data (docs/RL.md "Self-play data"): every decision of many hands played by Rust
bots, as numpy arrays made in native code on every core with the interpreter released
(rust/self_play.rs). Hand ``i`` is hand ``i`` of ``simulate`` with the same seed (hand seed
``derive(seed, i)``, dealer ``i % 4``), so the arrays do not depend on the thread count."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import MAX_THREADS
from ._errors import InvalidInputError, excerpt
from ._rules import Rules
from ._simulate import BotSpec, bot_spec

ENCODINGS = ("compact", "tensor")
"""The observation encodings: compact rows (``tarabish.vector.unpack``) or float32 tensors."""


@dataclass(frozen=True, slots=True)
class SelfPlay:
    """Every decision of a batch, one row each, hand by hand in order of play.

    ``hand`` is the hand's number, ``seat`` the seat that decided, ``observation`` what it knew
    (compact uint8 rows or float32 tensors, by ``encoding``), ``action_mask`` its legal action ids
    (int8, 1 = legal), ``action`` the id it chose, ``score`` the hand's final score by team (R6).
    """

    hand: npt.NDArray[np.int64]
    seat: npt.NDArray[np.int8]
    observation: npt.NDArray[np.uint8] | npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]
    action: npt.NDArray[np.int8]
    score: npt.NDArray[np.int32]
    encoding: str


def self_play(
    hands: int,
    bots: BotSpec | Sequence[BotSpec],
    *,
    seed: int = 0,
    encoding: str = "compact",
    rules: Rules | None = None,
    threads: int = 0,
) -> SelfPlay:
    """Plays ``hands`` auto-mode hands with ``bots`` (one spec for every seat, or four, seat 0
    first) and returns every decision as arrays (``SelfPlay``). ``threads=0`` uses every core.
    """
    if type(hands) is not int or hands < 0:
        raise InvalidInputError(f"hands must be a whole number, got {excerpt(hands)}")
    specs = [bot_spec(bots)] * 4 if isinstance(bots, str | dict) else [bot_spec(b) for b in bots]
    if len(specs) != 4:
        raise InvalidInputError(f"bots: one spec, or one a seat (four), got {len(specs)}")
    if encoding not in ENCODINGS:
        raise InvalidInputError(f"encoding is 'compact' or 'tensor', got {excerpt(encoding)}")
    if type(threads) is not int or not 0 <= threads <= MAX_THREADS:
        raise InvalidInputError(
            f"threads must be 0 (all cores) to {MAX_THREADS}, got {excerpt(threads)}"
        )
    arrays = _core.self_play(
        hands, specs, seed=seed, encoding=encoding, rules=rules, threads=threads
    )
    return SelfPlay(encoding=encoding, **arrays)
