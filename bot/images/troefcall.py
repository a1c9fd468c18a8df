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
        canvas = draw.felt(draw.WIDTH, HEIGHT)
        for seat in range(SEATS):
            _seat(canvas, seat, self.hand_sizes[seat] if seat < len(self.hand_sizes) else 0,
                  seat == self.turn)
        w, h = CARD
        for seat, card in self.plays:
            cx, cy = _CARD_AT[seat % SEATS]
            trump = self.trump is not None and Card(card).suit == Suit(self.trump)
            draw.paste_card(canvas, card, cx - w // 2, cy - h // 2, w, h, trump=trump,
                            legal=seat == self.winner)
        draw.slot(canvas, (16, 16, 96, 96))
        if self.trump is not None:
            canvas.alpha_composite(draw.suit_glyph(Suit(self.trump), 56), (28, 28))
            canvas.alpha_composite(draw.star(24, draw.TRUMP), (70, 18))
        for team, won in enumerate(self.tricks_won):
            y = 22 + team * 44
            canvas.alpha_composite(draw.back(*SMALL), (draw.WIDTH - 124, y))
            canvas.alpha_composite(draw.chip(20, draw.TEAM_COLOURS[team]),
                                   (draw.WIDTH - 90, y + 9))
            draw.number_text(canvas, str(won), (draw.WIDTH - 44, y + 19), 30)
        return canvas


def _seat(canvas: Image.Image, seat: int, held: int, turn: bool) -> None:
    x, y = _SEAT_AT[seat]
    mark = draw.seat_mark(seat + 1, draw.TEAM_COLOURS[seat % 2], MARK, ring=turn)
    canvas.alpha_composite(mark, (x - MARK // 2, y - MARK // 2))
    if not held:
        return
    w, h = SMALL
    step = 8
    width = w + step * (held - 1)
    if seat in (0, 2):  # beside the mark
        left, top = x + MARK // 2 + 10, y - h // 2
    else:  # under the mark
        left, top = x - width // 2, y + MARK // 2 + 8
    for i in range(held):
        canvas.alpha_composite(draw.back(w, h), (left + i * step, top))


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
