"""The provably-fair shuffle (DESIGN.md §3).

For deal ``n`` (1, 2, …) of a session with secret ``session_seed``:

1. ``deal_seed = SHA-256(session_seed ‖ n as 4-byte big-endian)``;
2. a stream of 64-bit integers from blocks ``SHA-256(deal_seed ‖ i as 8-byte big-endian)``,
   i = 0, 1, …, each block read as four big-endian unsigned 64-bit integers;
3. Fisher–Yates from the top of the canonical deck, with rejection sampling (no modulo bias);
4. the board shows ``commitment = SHA-256(deal_seed)`` (hex) before the deal; revealing
   ``session_seed`` at the end lets anyone recompute every deal with :func:`shuffled_deck`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from engine.cards import Card

_TWO_64 = 1 << 64


def deal_seed(session_seed: bytes, deal_number: int) -> bytes:
    """The 32-byte seed of deal ``deal_number`` (1-based).

    Raises
    ------
    ValueError
        If ``deal_number`` does not fit 4 unsigned bytes or is below 1.
    """
    if not 1 <= deal_number < 1 << 32:
        raise ValueError(f"deal number {deal_number} is outside 1..2^32-1")
    return hashlib.sha256(session_seed + deal_number.to_bytes(4, "big")).digest()


def commitment(session_seed: bytes, deal_number: int) -> str:
    """Hex SHA-256 of the deal seed: shown on the board before the deal."""
    return hashlib.sha256(deal_seed(session_seed, deal_number)).hexdigest()


def random_stream(seed: bytes) -> Iterator[int]:
    """Endless stream of unsigned 64-bit integers derived from ``seed``."""
    i = 0
    while True:
        block = hashlib.sha256(seed + i.to_bytes(8, "big")).digest()
        for k in range(0, 32, 8):
            yield int.from_bytes(block[k : k + 8], "big")
        i += 1


def uniform_below(stream: Iterator[int], bound: int) -> int:
    """An unbiased integer in ``[0, bound)`` drawn from ``stream`` by rejection."""
    limit = (_TWO_64 // bound) * bound
    while True:
        u = next(stream)
        if u < limit:
            return u % bound


def shuffle(items: list, seed: bytes) -> list:
    """A new list: ``items`` shuffled by Fisher–Yates driven by ``seed`` (§3 step 3)."""
    out = list(items)
    stream = random_stream(seed)
    for k in range(len(out) - 1, 0, -1):
        j = uniform_below(stream, k + 1)
        out[k], out[j] = out[j], out[k]
    return out


def shuffled_deck(session_seed: bytes, deal_number: int, size: int = 52) -> list[Card]:
    """The card order of deal ``deal_number``: the canonical deck of ``size`` cards shuffled."""
    return shuffle([Card(i) for i in range(size)], deal_seed(session_seed, deal_number))
