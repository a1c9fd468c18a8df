"""Drawing cards and table pieces with Pillow: faces, backs, suits, chips, seat marks.

Suits are shapes drawn by this module (supersampled, then reduced, so edges are smooth);
ranks and numbers use the font Pillow itself brings (``ImageFont.load_default(size=…)``,
FreeType), so a host without system fonts draws the same pictures. Nothing here writes a
word: ranks (``10``, ``Q``) and numbers (chips, counts, seat numbers) only.

Sizes are in pixels of the picture, which is drawn at twice the width Discord shows it at
(~400 px on a phone): :data:`WIDTH` = 800. Every piece is cached (``functools.lru_cache``)
and returned as an RGBA image that callers paste, never change.

A picture itself is a "P" image in the one :data:`PALETTE` (:func:`canvas`) made of
:class:`Sprite` s: pieces drawn once, in RGBA, on a patch of felt (:func:`tile`), mapped
onto the palette (:func:`sprite`) and then only copied into place (:func:`place`). Pieces
that overlap (a fan of cards, a pile) are drawn together as one sprite, so every smooth
edge is blended with what really lies under it; sprites placed on one picture never
overlap but for bare felt.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from bot.images.palette import Palette, blend
from engine.cards import RANK_LABELS, Card, Suit

WIDTH = 800
"""Width of every picture in pixels (shown at ~400 px, so sharp on phone screens)."""

SUPERSAMPLE = 4
"""Suit shapes and round pieces are drawn this many times larger, then reduced."""

FELT = (35, 94, 62, 255)
"""The table's felt: a mid green that reads on Discord's dark and light themes alike."""
FELT_LIGHT = (52, 122, 84, 255)
"""A space or slot on the felt."""
PAPER = (250, 250, 246, 255)
INK_RED = (204, 32, 40, 255)
INK_BLACK = (28, 28, 30, 255)
INK_GREY = (110, 110, 110, 255)
INK_JOKER = (120, 60, 170, 255)
EDGE = (60, 60, 60, 255)
BACK = (38, 70, 150, 255)
BACK_LINE = (120, 150, 220, 255)
LEGAL = (255, 200, 40, 255)
"""The border of a card that may be played now."""
TRUMP = (255, 140, 0, 255)
"""The mark of a trump card (Troefcall)."""
SHADE = (0, 0, 0, 120)
"""Laid over a card that may not be played now."""
WHITE = (255, 255, 255, 255)
TEAM_COLOURS = ((236, 184, 52, 255), (84, 196, 226, 255))
"""Seat marks of Troefcall's team 0 and team 1."""
SEAT_COLOURS = (
    (236, 184, 52, 255), (84, 196, 226, 255), (236, 110, 110, 255),
    (170, 130, 230, 255), (140, 210, 120, 255), (240, 150, 70, 255),
    (230, 120, 200, 255), (120, 200, 190, 255), (200, 200, 200, 255),
)
"""Seat marks of games without teams, by seat."""
CHIP = (200, 40, 40, 255)
"""A chip of the pot."""
CHIP_GREY = EDGE
"""The chip beside a board space's count (Tripoli)."""


def _veiled(colour: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (*blend(SHADE, colour, SHADE[3] / 255), 255)


_INKS = (INK_RED, INK_BLACK, INK_GREY, INK_JOKER)
PALETTE = Palette(
    exact=[FELT, FELT_LIGHT, PAPER, *_INKS, EDGE, BACK, BACK_LINE, LEGAL, TRUMP, WHITE,
           *TEAM_COLOURS, *SEAT_COLOURS, CHIP,
           *(_veiled(c) for c in (PAPER, *_INKS, EDGE, TRUMP))],
    meetings=[
        *((c, PAPER, 5) for c in _INKS),
        *((_veiled(c), _veiled(PAPER), 3) for c in _INKS),
        (EDGE, FELT, 5), (EDGE, PAPER, 3), (EDGE, FELT_LIGHT, 5), (PAPER, FELT, 3),
        (EDGE, BACK, 3), (BACK_LINE, BACK, 5), (BACK, FELT, 3),
        (LEGAL, FELT, 5), (LEGAL, EDGE, 3), (LEGAL, PAPER, 15),
        (TRUMP, FELT, 3), (TRUMP, EDGE, 3), (TRUMP, PAPER, 5), (TRUMP, FELT_LIGHT, 3),
        (_veiled(EDGE), FELT, 5), (_veiled(EDGE), _veiled(PAPER), 3),
        (_veiled(TRUMP), _veiled(PAPER), 3), (_veiled(TRUMP), FELT, 3),
        (_veiled(TRUMP), _veiled(EDGE), 3),
        (WHITE, FELT, 7), (WHITE, FELT_LIGHT, 5), (WHITE, CHIP, 3), (WHITE, EDGE, 3),
        (INK_BLACK, CHIP, 3), (INK_BLACK, FELT, 5), (INK_BLACK, FELT_LIGHT, 5),
        (INK_BLACK, EDGE, 3), (CHIP, FELT_LIGHT, 3), (EDGE, INK_BLACK, 1),
        (INK_RED, FELT_LIGHT, 3), (INK_JOKER, TRUMP, 1),
        *((c, FELT, 3) for c in SEAT_COLOURS), *((INK_BLACK, c, 3) for c in SEAT_COLOURS),
        *((WHITE, c, 2) for c in SEAT_COLOURS),
    ])
"""The palette of every picture: the colours above exactly, with their veiled versions, and
the blends of their smooth edges where they meet."""


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels (no system font needed)."""
    return ImageFont.load_default(size=size)


def ink(suit: Suit | None) -> tuple[int, int, int, int]:
    """The colour of a suit's cards (grey for a suitless label, e.g. "K and Q of any suit")."""
    if suit is None:
        return INK_GREY
    return INK_RED if suit.is_red else INK_BLACK


def _suit_polygons(draw: ImageDraw.ImageDraw, suit: Suit, s: float) -> None:
    """Draw ``suit`` in white on a mask ``s`` pixels square."""
    fill = 255
    if suit is Suit.DIAMONDS:
        draw.polygon([(0.5 * s, 0.02 * s), (0.9 * s, 0.5 * s), (0.5 * s, 0.98 * s),
                      (0.1 * s, 0.5 * s)], fill=fill)
        return
    if suit is Suit.HEARTS:
        r = 0.26 * s
        for cx in (0.28 * s, 0.72 * s):
            draw.ellipse([cx - r, 0.32 * s - r, cx + r, 0.32 * s + r], fill=fill)
        draw.polygon([(0.04 * s, 0.40 * s), (0.96 * s, 0.40 * s), (0.5 * s, 0.95 * s)],
                     fill=fill)
        return
    if suit is Suit.SPADES:
        r = 0.24 * s
        for cx in (0.28 * s, 0.72 * s):
            draw.ellipse([cx - r, 0.56 * s - r, cx + r, 0.56 * s + r], fill=fill)
        draw.polygon([(0.04 * s, 0.50 * s), (0.96 * s, 0.50 * s), (0.5 * s, 0.03 * s)],
                     fill=fill)
    else:  # clubs
        r = 0.21 * s
        for cx, cy in ((0.5 * s, 0.26 * s), (0.26 * s, 0.58 * s), (0.74 * s, 0.58 * s)):
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill)
        draw.rectangle([0.4 * s, 0.3 * s, 0.6 * s, 0.62 * s], fill=fill)
    draw.polygon([(0.5 * s, 0.55 * s), (0.3 * s, 0.98 * s), (0.7 * s, 0.98 * s)], fill=fill)


@lru_cache(maxsize=64)
def suit_glyph(suit: Suit, size: int, colour: tuple[int, int, int, int] | None = None
               ) -> Image.Image:
    """``suit`` as a smooth shape ``size`` pixels square, in its ink (or ``colour``)."""
    big = size * SUPERSAMPLE
    mask = Image.new("L", (big, big), 0)
    _suit_polygons(ImageDraw.Draw(mask), suit, big)
    glyph = Image.new("RGBA", (size, size), colour or ink(suit))
    glyph.putalpha(mask.resize((size, size), Image.Resampling.LANCZOS))
    return glyph


@lru_cache(maxsize=16)
def star(size: int, colour: tuple[int, int, int, int]) -> Image.Image:
    """A five-pointed star ``size`` pixels square (the joker's mark, the trump mark)."""
    big = size * SUPERSAMPLE
    mask = Image.new("L", (big, big), 0)
    points = []
    for i in range(10):
        radius = big * (0.5 if i % 2 == 0 else 0.21)
        angle = math.pi / 2 + i * math.pi / 5
        points.append((big / 2 + radius * math.cos(angle), big * 0.53 - radius * math.sin(angle)))
    ImageDraw.Draw(mask).polygon(points, fill=255)
    shape = Image.new("RGBA", (size, size), colour)
    shape.putalpha(mask.resize((size, size), Image.Resampling.LANCZOS))
    return shape


def _blank(w: int, h: int, fill: tuple[int, int, int, int],
           outline: tuple[int, int, int, int] = EDGE) -> Image.Image:
    """A rounded card shape, supersampled so its corners are smooth."""
    big = Image.new("RGBA", (w * 2, h * 2), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle([0, 0, w * 2 - 1, h * 2 - 1], radius=w // 5,
                                          fill=fill, outline=outline, width=3)
    return big.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=512)
def face(rank: int, suit: Suit | None, w: int, h: int) -> Image.Image:
    """The face of the card of ``rank`` (2-14) and ``suit`` (None: any suit, grey), ``w`` by
    ``h`` pixels: its index (rank over suit) in the top left corner, a large suit in the
    middle (the index is what an overlapped card still shows)."""
    card = _blank(w, h, PAPER)
    draw = ImageDraw.Draw(card)
    label = RANK_LABELS[rank]
    size = int(w * 0.36)
    pad = max(3, w // 14)
    text_font = font(size)
    left, top, right, _ = draw.textbbox((0, 0), label, font=text_font)
    squeeze = min(1.0, (w * 0.4) / max(1, right - left))
    if squeeze < 1.0:  # "10" on a narrow card
        text_font = font(int(size * squeeze))
        left, top, right, _ = draw.textbbox((0, 0), label, font=text_font)
    draw.text((pad - left, pad - top), label, font=text_font, fill=ink(suit))
    if suit is not None:
        small = int(w * 0.28)
        card.alpha_composite(suit_glyph(suit, small), (pad, pad + size + 2))
        big = int(w * 0.44)
        card.alpha_composite(suit_glyph(suit, big), (w - big - pad, h - big - pad))
    return card


@lru_cache(maxsize=16)
def joker(w: int, h: int) -> Image.Image:
    """A joker's face: a star in the corner and a large one in the middle."""
    card = _blank(w, h, PAPER)
    pad = max(3, w // 14)
    card.alpha_composite(star(int(w * 0.36), INK_JOKER), (pad, pad))
    big = int(w * 0.6)
    card.alpha_composite(star(big, INK_JOKER), ((w - big) // 2, (h - big) // 2 + h // 10))
    return card


@lru_cache(maxsize=16)
def back(w: int, h: int) -> Image.Image:
    """A card's back (the stock, a hand's cards seen from the table)."""
    card = _blank(w, h, BACK)
    draw = ImageDraw.Draw(card)
    inset = max(4, w // 9)
    draw.rounded_rectangle([inset, inset, w - inset - 1, h - inset - 1], radius=w // 10,
                           outline=BACK_LINE, width=2)
    for x in range(-h, w, max(6, w // 7)):
        draw.line([(x + inset, h - inset), (x + h - inset, inset)], fill=BACK_LINE, width=1)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle([inset + 2, inset + 2, w - inset - 3, h - inset - 3],
                                           radius=w // 12, fill=255)
    plain = _blank(w, h, BACK)
    plain.paste(card, (0, 0), mask)
    ImageDraw.Draw(plain).rounded_rectangle([inset, inset, w - inset - 1, h - inset - 1],
                                            radius=w // 10, outline=BACK_LINE, width=2)
    return plain


def card_image(card_id: int, w: int, h: int) -> Image.Image:
    """The face of card ``card_id`` (a joker's face for the jokers of 108 cards)."""
    card = Card(card_id)
    if card.is_joker:
        return joker(w, h)
    return face(int(card.rank), card.suit, w, h)


@lru_cache(maxsize=64)
def frame(w: int, h: int, colour: tuple[int, int, int, int], width: int) -> Image.Image:
    """A rounded border around a ``w`` by ``h`` card (legal, trump)."""
    big = Image.new("RGBA", (w * 2, h * 2), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle([0, 0, w * 2 - 1, h * 2 - 1], radius=w // 5,
                                          outline=colour, width=width * 2)
    return big.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def shade(w: int, h: int) -> Image.Image:
    """A dark veil over a ``w`` by ``h`` card that may not be played now."""
    mask = _blank(w, h, WHITE).getchannel("A")
    veil = Image.new("RGBA", (w, h), SHADE)
    veil.putalpha(mask.point(lambda a: a * SHADE[3] // 255))
    return veil


def paste_card(canvas: Image.Image, card_id: int | None, x: int, y: int, w: int, h: int, *,
               legal: bool = False, dim: bool = False, trump: bool = False) -> None:
    """Paste a face (or, for None, a back) at ``(x, y)``, with its marks: a legal card's
    border, a veil over a card that may not be played, a trump's star and border."""
    canvas.alpha_composite(back(w, h) if card_id is None else card_image(card_id, w, h),
                           (x, y))
    if trump:
        canvas.alpha_composite(frame(w, h, TRUMP, max(2, w // 22)), (x, y))
        size = int(w * 0.26)
        canvas.alpha_composite(star(size, TRUMP), (x + w - size - 3, y + 3))
    if legal:
        canvas.alpha_composite(frame(w, h, LEGAL, max(3, w // 16)), (x, y))
    if dim:
        canvas.alpha_composite(shade(w, h), (x, y))


@lru_cache(maxsize=16)
def chip(size: int, colour: tuple[int, int, int, int] = CHIP) -> Image.Image:
    """A round chip with a striped rim, ``size`` pixels across."""
    big = size * SUPERSAMPLE
    disc = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(disc)
    draw.ellipse([0, 0, big - 1, big - 1], fill=colour, outline=INK_BLACK,
                 width=SUPERSAMPLE * 2)
    for i in range(6):
        start = i * 60
        draw.arc([big * 0.06, big * 0.06, big * 0.94, big * 0.94], start, start + 25,
                 fill=WHITE, width=int(big * 0.1))
    inner = big * 0.28
    draw.ellipse([inner, inner, big - inner, big - inner], fill=colour, outline=WHITE,
                 width=SUPERSAMPLE * 2)
    return disc.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def seat_mark(number: int, colour: tuple[int, int, int, int], size: int,
              ring: bool = False) -> Image.Image:
    """A round seat mark holding ``number`` (the seat's line in the board's text), ringed
    in white when it is that seat's turn."""
    big = size * SUPERSAMPLE
    disc = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(disc)
    if ring:
        draw.ellipse([0, 0, big - 1, big - 1], fill=WHITE)
    inset = big * 0.1 if ring else 0
    draw.ellipse([inset, inset, big - 1 - inset, big - 1 - inset], fill=colour)
    mark = disc.resize((size, size), Image.Resampling.LANCZOS)
    number_text(mark, str(number), (size // 2, size // 2), int(size * 0.55), INK_BLACK)
    return mark


def number_text(canvas: Image.Image, text: str, centre: tuple[int, int], size: int,
                colour: tuple[int, int, int, int] = WHITE) -> None:
    """Digits ``text`` centred on ``centre``."""
    draw = ImageDraw.Draw(canvas)
    draw.text(centre, text, font=font(size), fill=colour, anchor="mm")


class Sprite(NamedTuple):
    """A piece mapped onto :data:`PALETTE`, ready to copy into a picture."""

    image: Image.Image
    """The piece on its felt, "P"."""
    mask: Image.Image
    """Where the piece is ("1": every pixel but bare felt)."""


def tile(w: int, h: int) -> Image.Image:
    """A patch of felt ``w`` by ``h`` pixels (RGBA, opaque) to draw a piece on, as it would
    be drawn on the picture itself."""
    return Image.new("RGBA", (w, h), FELT)


def sprite(patch: Image.Image) -> Sprite:
    """A piece drawn on a :func:`tile`, mapped onto the palette."""
    image = PALETTE.indices(patch)
    bare = PALETTE.index(FELT)
    return Sprite(image, image.point([0 if i == bare else 255 for i in range(256)], "1"))


@lru_cache(maxsize=1024)
def card_sprite(card_id: int | None, w: int, h: int, *, legal: bool = False, dim: bool = False,
                trump: bool = False) -> Sprite:
    """A card as :func:`paste_card` draws it (None: its back), as a sprite."""
    patch = tile(w, h)
    paste_card(patch, card_id, 0, 0, w, h, legal=legal, dim=dim, trump=trump)
    return sprite(patch)


Placed = tuple[int | None, int, int, bool]
"""A card in a fan: (card id or None for a back, x, y, legal) from the fan's top left."""


@lru_cache(maxsize=512)
def fan(cards: tuple[Placed, ...], w: int, h: int) -> Sprite:
    """Overlapping ``w`` by ``h`` cards, each laid over the ones before it, as one sprite
    (a combination, a pile of backs)."""
    patch = tile(max(x for _, x, _, _ in cards) + w, max(y for _, _, y, _ in cards) + h)
    for card_id, x, y, legal in cards:
        paste_card(patch, card_id, x, y, w, h, legal=legal)
    return sprite(patch)


def place(canvas: Image.Image, piece: Sprite, xy: tuple[int, int]) -> None:
    """Copy ``piece`` onto ``canvas`` (a :func:`canvas`) with its top left at ``xy``."""
    canvas.paste(piece.image, xy, piece.mask)


BLOCKS_KEPT = 16
"""Memory blocks Pillow keeps for new images once their images are freed (its default is
none): a picture's canvas and rows then reuse memory instead of asking the system for fresh
pages each time, which cost as much as drawing the picture."""
Image.core.set_blocks_max(max(BLOCKS_KEPT, Image.core.get_blocks_max()))


def canvas(w: int, h: int) -> Image.Image:
    """A rounded felt panel on a transparent ground (reads on dark and light themes), "P" in
    :data:`PALETTE`: a new picture to place sprites on."""
    return _felt(w, h).copy()


@lru_cache(maxsize=64)
def _felt(w: int, h: int) -> Image.Image:
    panel = PALETTE.new((w, h), None)
    ImageDraw.Draw(panel).rounded_rectangle([0, 0, w - 1, h - 1], radius=24,
                                            fill=PALETTE.index(FELT))
    return panel


def slot(canvas: Image.Image, box: tuple[int, int, int, int]) -> None:
    """A lighter rounded area of the felt (a board space, an empty pile)."""
    ImageDraw.Draw(canvas).rounded_rectangle(box, radius=12, fill=FELT_LIGHT)
