"""The compact encoding's expansion (docs/ENGINE.md "Compact encoding"): ``unpack`` turns
compact rows (``COMPACT_SIZE`` bytes each, as the vectorized environment and ``self_play``
write them) into the float32 information-state tensors they stand for, exactly, with numpy
operations over all rows at once. The layout is the core's table (rust/compact.rs), read once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._errors import InvalidInputError

COMPACT_SIZE: int = _core.COMPACT_SIZE
"""The bytes of one compact row."""

_CARD_BYTES = 5
_DECK = 36


def unpack(rows: Any) -> npt.NDArray[np.float32]:
    """The float32 tensors of compact ``rows`` (uint8, shape ``(..., COMPACT_SIZE)``): shape
    ``(..., TENSOR_SIZE)``, equal to ``information_state_tensor`` of the states they encode."""
    array = np.asarray(rows)
    if array.dtype != np.uint8 or array.ndim == 0 or array.shape[-1] != COMPACT_SIZE:
        raise InvalidInputError(
            f"compact rows are uint8 of shape (..., {COMPACT_SIZE}), got {array.dtype} "
            f"{array.shape}"
        )
    flat = array.reshape(-1, COMPACT_SIZE)
    count = flat.shape[0]
    out = np.zeros((count, _core.TENSOR_SIZE), dtype=np.float32)
    everyone = np.arange(count)[:, None]
    for _name, kind, byte, slots, entry, stride, n in _core.COMPACT_LAYOUT:
        if kind == "onehot":
            values = flat[:, byte : byte + slots].astype(np.intp)
            row, slot = np.nonzero(values)
            out[row, entry + slot * stride + values[row, slot] - 1] = 1
        elif kind == "flags":
            bits = np.unpackbits(flat[:, byte : byte + 1], axis=1, bitorder="little")
            out[:, entry : entry + n] = bits[:, :n]
        elif kind == "cards":
            packed = flat[:, byte : byte + _CARD_BYTES * slots].reshape(count, slots, _CARD_BYTES)
            bits = np.unpackbits(packed, axis=2, bitorder="little")[:, :, :_DECK]
            columns = entry + stride * np.arange(slots)[:, None] + np.arange(_DECK)
            out[everyone, columns.reshape(-1)] = bits.reshape(count, slots * _DECK)
        else:  # "count": little-endian 16-bit, over its maximum in float32
            pairs = flat[:, byte : byte + 2 * slots].reshape(count, slots, 2).astype(np.uint32)
            values = np.minimum(pairs[:, :, 0] | (pairs[:, :, 1] << 8), n)
            out[:, entry : entry + slots] = values.astype(np.float32) / np.float32(n)
    return out.reshape(*array.shape[:-1], _core.TENSOR_SIZE)
