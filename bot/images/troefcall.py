"""Troefcall's pictures: the trick in the middle of the four seats, trumps marked, and a hand
(``rules/troefcall.md`` §2).

Seat 0 sits at the bottom, then clockwise: seat 1 on the left, seat 2 at the top, seat 3 on
the right; each seat is a numbered mark in its team's colour (ringed on its turn) with its
cards face down. The trick's cards lie before their players; trumps carry a star and an
orange border, the winner of a finished trick a gold one. The trump suit is drawn in the top
left corner, the tricks each team won in the top right.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from PIL import Image

from bot.images import cards as draw
from bot.images.picture import HandPicture
from engine.cards import Card, Suit
from engine.troefcall.phases import Phase
from engine.troefcall.views import TroefcallSeatView, TroefcallTableView

HEIGHT = 560
CARD = (84, 120)
SMALL = (26, 38)
MARK = 44
SEATS = 4

_SEAT_AT = ((400, 520), (56, 280), (400, 40), (744, 280))
"""Where each seat's mark is (bottom, left, top, right: clockwise from seat 0)."""
_CARD_AT = ((400, 378), (282, 280), (400, 182), (518, 280))
"""The centre of each seat's card in the trick."""


@dataclass(frozen=True)
class TroefcallBoardPicture:
    """The trick on the table and what surrounds it.

    Attributes
    ----------
    trump
        The trump suit's value, None until named.
    plays
        The trick shown: (seat, card id) in play order.
    winner
        The seat that won the trick shown, None while it is played.
    turn
        The seat to play or name trumps, None between hands.
    hand_sizes
        Cards in each seat's hand (drawn face down).
    tricks_won
        Tricks of this hand won by team 0 and team 1.
    """

    kind: ClassVar[str] = "troefcall"

    trump: int | None
    plays: tuple[tuple[int, int], ...]
    winner: int | None
    turn: int | None
    hand_sizes: tuple[int, ...]
    tricks_won: tuple[int, int]

    def cards(self) -> frozenset[int]:
        return frozenset(card for _, card in self.plays)

    def draw(self) -> Image.Image:
        canvas = draw.canvas(draw.WIDTH, HEIGHT)
        for seat in range(SEATS):
            piece, at = _seat(seat, self.hand_sizes[seat] if seat < len(self.hand_sizes) else 0,
                              seat == self.turn)
            draw.place(canvas, piece, at)
        w, h = CARD
        for seat, card in self.plays:
            cx, cy = _CARD_AT[seat % SEATS]
            trump = self.trump is not None and Card(card).suit == Suit(self.trump)
            draw.place(canvas, draw.card_sprite(card, w, h, trump=trump, legal=seat == self.winner),
                       (cx - w // 2, cy - h // 2))
        draw.place(canvas, _trump_corner(self.trump), (16, 16))
        for team, won in enumerate(self.tricks_won):
            draw.place(canvas, _won(team, won), (draw.WIDTH - 124, 22 + team * 44))
        return canvas


@lru_cache(maxsize=128)
def _seat(seat: int, held: int, turn: bool) -> tuple[draw.Sprite, tuple[int, int]]:
    """A seat's mark with its ``held`` cards face down, and where the sprite goes."""
    x, y = _SEAT_AT[seat]
    w, h = SMALL
    step = 8
    width = w + step * (held - 1)
    if seat in (0, 2):  # beside the mark
        left, top = x + MARK // 2 + 10, y - h // 2
    else:  # under the mark
        left, top = x - width // 2, y + MARK // 2 + 8
    mark_at = (x - MARK // 2, y - MARK // 2)
    boxes = [(*mark_at, MARK, MARK)] + ([(left, top, width, h)] if held else [])
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    patch = draw.tile(max(b[0] + b[2] for b in boxes) - x0, max(b[1] + b[3] for b in boxes) - y0)
    mark = draw.seat_mark(seat + 1, draw.TEAM_COLOURS[seat % 2], MARK, ring=turn)
    patch.alpha_composite(mark, (mark_at[0] - x0, mark_at[1] - y0))
    for i in range(held):
        patch.alpha_composite(draw.back(w, h), (left - x0 + i * step, top - y0))
    return draw.sprite(patch), (x0, y0)


@lru_cache(maxsize=8)
def _trump_corner(trump: int | None) -> draw.Sprite:
    """The top left corner: a space holding the trump suit with a star, once named."""
    patch = draw.tile(81, 81)
    draw.slot(patch, (0, 0, 80, 80))
    if trump is not None:
        patch.alpha_composite(draw.suit_glyph(Suit(trump), 56), (12, 12))
        patch.alpha_composite(draw.star(24, draw.TRUMP), (54, 2))
    return draw.sprite(patch)


@lru_cache(maxsize=64)
def _won(team: int, won: int) -> draw.Sprite:
    """A team's tricks of the hand: a card back, the team's chip and the count."""
    patch = draw.tile(116, 40)
    patch.alpha_composite(draw.back(*SMALL), (0, 0))
    patch.alpha_composite(draw.chip(20, draw.TEAM_COLOURS[team]), (34, 9))
    draw.number_text(patch, str(won), (80, 19), 30)
    return draw.sprite(patch)


def board_picture(view: TroefcallTableView) -> TroefcallBoardPicture:
    """The board's picture from the public view: the trick being played, else (during a
    hand) the last finished trick with its winner."""
    trick = view.trick
    if trick is None and view.tricks and view.phase is Phase.PLAY:
        trick = view.tricks[-1]
    plays = tuple((p.seat, int(p.card)) for p in trick.plays) if trick is not None else ()
    return TroefcallBoardPicture(
        trump=None if view.trump is None else int(view.trump),
        plays=plays,
        winner=trick.winner if trick is not None else None,
        turn=view.turn,
        hand_sizes=tuple(view.hand_sizes.get(seat, 0) for seat in range(SEATS)),
        tricks_won=view.tricks_won,
    )


def hand_picture(view: TroefcallSeatView, held: tuple[int, ...]) -> HandPicture:
    """A seat's hand from its own view, in ``held``'s order (the text's): the cards it may
    play framed, trumps starred."""
    trump = view.table.trump
    legal = [int(c) for option in view.options if option.kind == "play" for c in option.cards]
    return HandPicture(
        held=held,
        legal=tuple(sorted(legal)) if legal else None,
        trumps=tuple(c for c in held if trump is not None and Card(c).suit == trump),
    )
