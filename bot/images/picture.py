"""What a picture shows, and the private hand's picture (every game).

A picture is described by a frozen dataclass of plain values (card ids, counts, seat
numbers) built from the same view as the message's text, so it can show nothing that text
would not (:meth:`Picture.cards` lists the card ids it shows, for the leak checks). Its
:func:`key` is a digest of that description: equal descriptions give the same key in every
process, and the key names the attachment (``hand-<key>.png``).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, Protocol

from PIL import Image

from bot.images import cards as draw
from engine.cards import Card

KEY_LENGTH = 16
"""Hexadecimal digits of a picture's key (64 bits of SHA-256)."""


class Picture(Protocol):
    """A picture's description (a frozen dataclass): it knows the cards it shows and how to
    draw itself."""

    kind: ClassVar[str]

    def cards(self) -> frozenset[int]:
        """The card ids the picture shows face up."""
        ...

    def draw(self) -> Image.Image:
        """The picture, "P" in :data:`bot.images.cards.PALETTE` (index 0 transparent),
        :data:`bot.images.cards.WIDTH` pixels wide."""
        ...


def key(picture: Picture) -> str:
    """A digest of what ``picture`` shows, the same in every process (its dataclass ``repr``
    holds only tuples, ints, bools and strings).

    Computed once per description object, which keeps it in its ``__dict__`` (as
    :func:`functools.cached_property` would: the fields, equality, hash and ``repr`` of a
    dataclass ignore it), since a board's ``repr`` takes tens of microseconds.
    """
    memo = vars(picture)
    found = memo.get(_KEY)
    if found is None:
        text = f"{picture.kind}:{picture!r}"
        found = memo[_KEY] = hashlib.sha256(text.encode()).hexdigest()[:KEY_LENGTH]
    return found


_KEY = "_key"
"""Where a description keeps its :func:`key`."""


def filename(picture: Picture) -> str:
    """The attachment's name: ``<kind>-<key>.png``."""
    return f"{picture.kind}-{key(picture)}.png"


def png(picture: Picture) -> bytes:
    """Draw ``picture`` and encode it as a PNG of the pictures' one palette (flat colours,
    so small without visible loss), at zlib's fastest level."""
    out = io.BytesIO()
    picture.draw().save(out, "PNG", compress_level=1)
    return out.getvalue()


HAND_CARD = (84, 120)
"""A card of a hand in pixels (width, height)."""
HAND_ROW_MAX = 9
"""Most cards in one row of a hand; more make more rows, as even as may be."""
RAISE = 22
"""Pixels a picked or selected card stands above its row."""
MARGIN = 20
GAP = 14


@dataclass(frozen=True)
class HandPicture:
    """A private hand in rows, legal cards framed and the rest veiled, picked cards raised.

    Attributes
    ----------
    held
        The hand's card ids in the order the text lists them.
    legal
        The cards that may be played now, or None when no decision takes a card (then no
        card is framed or veiled).
    raised
        Cards picked or selected (the poker five, a Kalooki pick).
    trumps
        Cards marked as trumps (Troefcall).
    staged
        Combinations staged by a Kalooki draft, drawn apart below the hand (their cards
        are not in ``held``).
    """

    kind: ClassVar[str] = "hand"

    held: tuple[int, ...]
    legal: tuple[int, ...] | None = None
    raised: tuple[int, ...] = ()
    trumps: tuple[int, ...] = ()
    staged: tuple[tuple[int, ...], ...] = ()

    def cards(self) -> frozenset[int]:
        return frozenset(self.held) | {c for group in self.staged for c in group}

    def draw(self) -> Image.Image:
        w, h = HAND_CARD
        rows = [self.held[i:i + n] for i, n in _row_slices(len(self.held))]
        row_h = h + RAISE + GAP
        small = (64, 92)
        staged_h = (small[1] + GAP) if self.staged else 0
        height = MARGIN * 2 + max(1, len(rows)) * row_h - GAP + staged_h
        canvas = draw.canvas(draw.WIDTH, height)
        legal = None if self.legal is None else set(self.legal)
        y = MARGIN
        for row in rows:
            step = _step(len(row), w, draw.WIDTH - 2 * MARGIN)
            x = (draw.WIDTH - (w + step * (len(row) - 1))) // 2
            for card in row:
                lift = 0 if card in self.raised else RAISE
                piece = draw.card_sprite(card, w, h, legal=legal is not None and card in legal,
                                         dim=legal is not None and card not in legal,
                                         trump=card in self.trumps)
                draw.place(canvas, piece, (x, y + lift))
                x += step
            y += row_h
        if self.staged:
            _groups(canvas, self.staged, y, small)
        return canvas


def _row_slices(count: int) -> list[tuple[int, int]]:
    """(start, length) of each row of ``count`` cards, at most :data:`HAND_ROW_MAX` a row,
    the rows as even as may be."""
    if count == 0:
        return []
    rows = -(-count // HAND_ROW_MAX)
    base, extra = divmod(count, rows)
    out, start = [], 0
    for row in range(rows):
        length = base + (row < extra)
        out.append((start, length))
        start += length
    return out


def _step(count: int, w: int, room: int) -> int:
    """Pixels between the left edges of ``count`` cards of width ``w`` in ``room``: a small
    gap when they fit, else overlapping evenly."""
    if count <= 1:
        return w
    return min(w + 8, (room - w) // (count - 1))


def _groups(canvas: Image.Image, groups: tuple[tuple[int, ...], ...], y: int,
            size: tuple[int, int]) -> None:
    """Groups of small overlapping cards side by side, centred, from ``y``."""
    w, h = size
    overlap = w // 2
    widths = [w + overlap * (len(g) - 1) for g in groups]
    total = sum(widths) + GAP * 2 * (len(groups) - 1)
    scale = min(1.0, (draw.WIDTH - 2 * MARGIN) / max(1, total))
    step = max(12, int(overlap * scale))
    x = max(MARGIN, (draw.WIDTH - total) // 2)
    for group in groups:
        if group:
            draw.place(canvas, draw.fan(tuple((card, i * step, 0, False)
                                              for i, card in enumerate(group)), w, h), (x, y))
        x += step * len(group) + w - step + int(GAP * 2 * scale)


def sorted_ids(ids: Iterable[int]) -> tuple[int, ...]:
    """Card ids as a sorted tuple of ints (a stable description of a set of cards)."""
    return tuple(sorted(int(Card(c)) for c in ids))
