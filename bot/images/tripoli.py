"""Tripoli's pictures: the board's spaces with their chips and the Michigan run, and a hand
(``rules/tripoli.md`` §2.1, §2.5, §2.7).

The spaces are drawn in board order, as the board's text lists them: a pay space as the
card it pays for, the K-Q space as a king and a queen, the sequence as its three ranks
(grey: of any one suit), the kitty as a pile of backs and the pot as a pile of chips, each
over its number of chips. The faces on the spaces are labels, not cards of the deal, so
:meth:`TripoliBoardPicture.cards` lists only the run's cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, Literal

from PIL import Image

from bot.images import cards as draw
from bot.images.picture import MARGIN, HandPicture, sorted_ids
from engine.cards import Rank, Suit
from engine.tripoli.pay_cards import kq_suits, pay_card_spaces
from engine.tripoli.phases import Phase
from engine.tripoli.rules import POT
from engine.tripoli.views import TripoliSeatView, TripoliTableView

Face = tuple[int, int | None]
"""A label face: (rank 2-14, suit value or None for "of any one suit")."""


@dataclass(frozen=True)
class Space:
    """One board space: what it pays for (faces, or a pile) and its chips."""

    faces: tuple[Face, ...]
    pile: Literal["", "kitty", "pot"]
    chips: int


TILE_GAP = 8
TILE_CARD = (46, 66)
RUN_CARD = (70, 100)


@dataclass(frozen=True)
class TripoliBoardPicture:
    """The board: its spaces in board order and the Michigan run (card ids in play order)."""

    kind: ClassVar[str] = "tripoli"

    spaces: tuple[Space, ...]
    run: tuple[int, ...] = ()

    def cards(self) -> frozenset[int]:
        return frozenset(self.run)

    def draw(self) -> Image.Image:
        count = max(1, len(self.spaces))
        tile_w = (draw.WIDTH - 2 * MARGIN - (count - 1) * TILE_GAP) // count
        tile_h = 130
        run_h = RUN_CARD[1] + 2 * MARGIN if self.run else 0
        canvas = draw.canvas(draw.WIDTH, tile_h + 2 * MARGIN + run_h)
        for index, space in enumerate(self.spaces):
            x = MARGIN + index * (tile_w + TILE_GAP)
            draw.place(canvas, _space(space, tile_w, tile_h), (x, MARGIN))
        if self.run:
            w, h = RUN_CARD
            step = min(w + 6, (draw.WIDTH - 2 * MARGIN - w) // max(1, len(self.run) - 1))
            x = (draw.WIDTH - (w + step * (len(self.run) - 1))) // 2
            run = tuple((card, i * step, 0, card == self.run[-1])
                        for i, card in enumerate(self.run))
            draw.place(canvas, draw.fan(run, w, h), (x, tile_h + 3 * MARGIN))
        return canvas


@lru_cache(maxsize=256)
def _space(space: Space, w: int, h: int) -> draw.Sprite:
    """A board space ``w`` by ``h`` pixels: its faces or pile over its chips."""
    patch = draw.tile(w, h)
    draw.slot(patch, (0, 0, w - 1, h - 1))
    cw, ch = TILE_CARD
    top = 8
    if space.pile:
        for i in range(3):
            left = (w - cw) // 2 - 6 + i * 6
            if space.pile == "kitty":
                patch.alpha_composite(draw.back(cw, ch), (left, top + 4 - i * 2))
            else:
                size = cw
                patch.alpha_composite(draw.chip(size), ((w - size) // 2, top + 30 - i * 12))
    else:
        step = min(16, (w - cw - 4) // max(1, len(space.faces) - 1)) if len(space.faces) > 1 else 0
        left = (w - (cw + step * (len(space.faces) - 1))) // 2
        for rank, suit in space.faces:
            patch.alpha_composite(draw.face(rank, None if suit is None else Suit(suit), cw, ch),
                                  (left, top))
            left += step
    chip = 26
    row = h - chip - 8
    text = str(space.chips)
    patch.alpha_composite(draw.chip(chip, draw.CHIP_GREY), (6, row))
    draw.number_text(patch, text, (6 + chip + (w - 12 - chip) // 2, row + chip // 2),
                     26 if len(text) < 4 else 20)
    return draw.sprite(patch)


def spaces(view: TripoliTableView, suit_known: bool) -> tuple[Space, ...]:
    """The board's spaces as the picture shows them (``suit_known``: the deal's pay suit is
    named; until then the pay spaces show their ranks only, §3.6)."""
    rules = view.rules
    pay_suit = int(view.pay_suit) if suit_known else None
    faces: dict[str, tuple[Face, ...]] = {}
    for name, card in pay_card_spaces(rules, view.pay_suit):
        boodle = rules.pay_cards == "boodle"
        faces[name] = ((int(card.rank), int(card.suit) if boodle else pay_suit),)
    suits = kq_suits(rules, view.pay_suit)
    kq_suit = int(suits[0]) if len(suits) == 1 and suit_known else None
    faces[rules.kq_space] = ((int(Rank.KING), kq_suit), (int(Rank.QUEEN), kq_suit))
    faces[rules.seq_space] = tuple((view.seq_start + i, None) for i in range(3))
    out = []
    for name, chips in view.board.items():
        if name in faces:
            out.append(Space(faces[name], "", chips))
        else:
            out.append(Space((), "pot" if name == POT else "kitty", chips))
    return tuple(out)


def board_picture(view: TripoliTableView, suit_known: bool) -> TripoliBoardPicture:
    """The board's picture from the public view (the spaces; in Michigan, the last run)."""
    run = view.michigan.last_run if view.michigan is not None else ()
    return TripoliBoardPicture(spaces(view, suit_known), tuple(int(c) for c in run))


def hand_picture(view: TripoliSeatView) -> HandPicture:
    """A seat's hand from its own view: the cards its options may play or select framed,
    its locked poker five raised."""
    legal = {int(c) for option in view.options for c in option.cards}
    selection = view.selection if view.table.phase in (Phase.SELECT, Phase.BETTING) else None
    return HandPicture(
        held=sorted_ids(view.hand),
        legal=sorted_ids(legal) if legal else None,
        raised=sorted_ids(selection or ()),
    )
