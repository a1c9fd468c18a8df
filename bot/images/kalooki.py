"""Caribbean Kalooki's pictures: the stock, the discard top and every player's combinations,
and a hand with its draft (``rules/kalooki.md`` §2).

The board's top row holds the stock (a back and its size) and the discard pile's top card;
below, one row per player who has laid down: the seat's numbered mark (the seat's line in
the board's text; ringed on its turn), then its combinations in table order. Jokers are
drawn as stars (the text says which rank a run's joker stands for).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from PIL import Image

from bot.images import cards as draw
from bot.images.picture import GAP, MARGIN, HandPicture
from engine.kalooki.views import KalookiSeatView, KalookiTableView

CARD = (56, 80)
STEP = 26
"""Pixels between the cards of one combination."""
PILE = (70, 100)
MARK = 40


@dataclass(frozen=True)
class KalookiBoardPicture:
    """The piles and the combinations on the table.

    Attributes
    ----------
    melds
        Per seat that laid down: (seat, its combinations' card ids in table order).
    discard_top
        The discard pile's top card, None when it is empty.
    stock
        Cards in the stock.
    turn
        The current player, None between deals.
    """

    kind: ClassVar[str] = "kalooki"

    melds: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]
    discard_top: int | None
    stock: int
    turn: int | None

    def cards(self) -> frozenset[int]:
        shown = {c for _, groups in self.melds for group in groups for c in group}
        return frozenset(shown | ({self.discard_top} if self.discard_top is not None else set()))

    def draw(self) -> Image.Image:
        lines = [(seat, _lines(groups)) for seat, groups in self.melds]
        row_h = CARD[1] + GAP
        height = MARGIN * 2 + PILE[1] + sum(len(rows) for _, rows in lines) * row_h
        if lines:
            height += GAP
        canvas = draw.canvas(draw.WIDTH, height)
        w, h = PILE
        x = draw.WIDTH // 2 - w - 20
        draw.place(canvas, _stock(self.stock), (x - STOCK_COUNT, MARGIN))
        x = draw.WIDTH // 2 + 20
        draw.place(canvas, _empty_pile() if self.discard_top is None
                   else draw.card_sprite(self.discard_top, w, h), (x, MARGIN))
        y = MARGIN + h + GAP * 2
        for seat, rows in lines:
            draw.place(canvas, _mark(seat, seat == self.turn),
                       (MARGIN, y + (CARD[1] - MARK) // 2))
            for row in rows:
                left = MARGIN + MARK + GAP
                for group in row:
                    placed = tuple((card, i * STEP, 0, False) for i, card in enumerate(group))
                    draw.place(canvas, draw.fan(placed, *CARD), (left, y))
                    left += _width(group) + GAP
                y += row_h
        return canvas


STOCK_COUNT = 110
"""Pixels left of the stock's back holding its count."""


@lru_cache(maxsize=128)
def _stock(cards: int) -> draw.Sprite:
    """The stock: its count beside a back."""
    w, h = PILE
    patch = draw.tile(STOCK_COUNT + w, h)
    patch.alpha_composite(draw.back(w, h), (STOCK_COUNT, 0))
    draw.number_text(patch, str(cards), (STOCK_COUNT - 50, h // 2), 34)
    return draw.sprite(patch)


@lru_cache(maxsize=1)
def _empty_pile() -> draw.Sprite:
    """The discard pile's place when it is empty."""
    w, h = PILE
    patch = draw.tile(w, h)
    draw.slot(patch, (0, 0, w - 1, h - 1))
    return draw.sprite(patch)


@lru_cache(maxsize=32)
def _mark(seat: int, turn: bool) -> draw.Sprite:
    """A seat's numbered mark, ringed on its turn."""
    patch = draw.tile(MARK, MARK)
    patch.alpha_composite(draw.seat_mark(seat + 1, draw.SEAT_COLOURS[seat % len(draw.SEAT_COLOURS)],
                                         MARK, ring=turn), (0, 0))
    return draw.sprite(patch)


def _width(group: tuple[int, ...]) -> int:
    return CARD[0] + STEP * (len(group) - 1)


def _lines(groups: tuple[tuple[int, ...], ...]) -> list[list[tuple[int, ...]]]:
    """A seat's combinations in rows that fit beside its mark."""
    room = draw.WIDTH - 2 * MARGIN - MARK - GAP
    rows: list[list[tuple[int, ...]]] = [[]]
    used = 0
    for group in groups:
        width = _width(group) + GAP
        if rows[-1] and used + width > room:
            rows.append([])
            used = 0
        rows[-1].append(group)
        used += width
    return rows


def board_picture(view: KalookiTableView) -> KalookiBoardPicture:
    """The board's picture from the public view."""
    by_seat: dict[int, list[tuple[int, ...]]] = {}
    for meld in view.melds:
        by_seat.setdefault(meld.owner, []).append(tuple(int(c) for c in meld.cards))
    return KalookiBoardPicture(
        melds=tuple((seat, tuple(groups)) for seat, groups in sorted(by_seat.items())),
        discard_top=None if view.discard_top is None else int(view.discard_top),
        stock=view.stock_size,
        turn=view.turn,
    )


def hand_picture(view: KalookiSeatView, free: tuple[int, ...], picked: tuple[int, ...],
                 staged: tuple[tuple[int, ...], ...]) -> HandPicture:
    """A seat's hand from its own view and draft: the cards not staged in the text's order
    (``free``), the picked ones raised, the staged combinations below. Every card may be
    picked, so none is framed or veiled."""
    held = set(int(c) for c in view.hand)
    return HandPicture(
        held=tuple(c for c in free if c in held),
        raised=tuple(c for c in picked if c in held),
        staged=tuple(tuple(c for c in group if c in held) for group in staged),
    )
