"""One fixed palette for every picture, and mapping a drawn piece onto it.

Every picture is a PNG of palette colours. Rather than computing a palette for each
picture (an octree over every pixel, the slowest step of drawing), all pictures share one
:class:`Palette`: the colours the pieces are drawn in, exactly, and the blends the smooth
edges make where two of them meet (ink on paper, a card's edge on the felt, …) at a few
strengths. A piece is mapped onto it once, when first drawn (:meth:`Palette.indices`); a
picture then only copies indices.

Index 0 is the transparent ground around the felt's rounded corners.
"""

from __future__ import annotations

from PIL import Image

Colour = tuple[int, ...]
"""An RGB or RGBA colour (the alpha, if any, is ignored)."""

TRANSPARENT = 0
"""The palette index of the transparent ground."""
_GROUND = (255, 0, 255)
"""The transparent ground's colour: magenta, far from every piece's, so never chosen."""


_RAISED = [min(v + 2, 255) for v in range(256)] * 3
"""Every channel raised by 2: Pillow then looks a colour up at the centre of its cell."""


def _looked_up(colour: Colour) -> list[int]:
    """The point whose nearest palette entry :meth:`Palette.indices` gives ``colour``."""
    return [min(v + 2, 255) & ~3 for v in colour[:3]]


def blend(top: Colour, under: Colour, alpha: float) -> tuple[int, int, int]:
    """``top`` laid over ``under`` at strength ``alpha`` (0-1), as RGB."""
    r, g, b = (round(t * alpha + u * (1 - alpha)) for t, u in zip(top[:3], under[:3],
                                                                   strict=True))
    return r, g, b


class Palette:
    """The palette of the pictures.

    Parameters
    ----------
    exact
        Colours the pieces are drawn in, each kept exactly.
    meetings
        ``(top, under, levels)``: blends of ``top`` over ``under`` at ``levels`` evenly
        spaced strengths, for the smooth edges where the two meet.

    Raises
    ------
    ValueError
        If the colours are more than 256.

    Notes
    -----
    Pillow maps a colour to the palette entry nearest the low corner of its 4-level cell
    (``colour & ~3`` per channel); :meth:`indices` raises every channel by 2 first, so the
    corner is within 2 levels of the colour (:func:`_looked_up`). A blend nearer an exact
    colour's looked-up point than that colour is left out, so an exact colour always maps
    to itself.
    """

    def __init__(self, exact: list[Colour], meetings: list[tuple[Colour, Colour, int]]
                 ) -> None:
        colours: list[tuple[int, ...]] = [_GROUND]
        for colour in exact:
            if tuple(colour[:3]) not in colours:
                colours.append(tuple(colour[:3]))
        corners = []  # each exact colour's cell corner, and its distance from the colour
        for colour in colours[1:]:
            corner = _looked_up(colour)
            corners.append((*corner, sum((v - c) ** 2 for v, c in zip(colour, corner,
                                                                      strict=True))))
        for top, under, levels in meetings:
            for step in range(1, levels + 1):
                r, g, b = rgb = blend(top, under, step / (levels + 1))
                if rgb in colours or any((r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2 <= own
                                         for cr, cg, cb, own in corners):
                    continue
                colours.append(rgb)
        if len(colours) > 256:
            raise ValueError(f"{len(colours)} palette colours, above 256")
        self.colours = colours
        """The RGB colour of each index."""
        self._index = {c: i for i, c in enumerate(colours)}
        flat = [v for c in colours for v in c]
        flat += list(_GROUND) * (256 - len(colours))  # unused entries: never nearest
        self.image = Image.new("P", (1, 1))
        """A 1x1 image holding the palette (what :meth:`Image.quantize` maps onto)."""
        self.image.putpalette(flat)

    def index(self, colour: Colour) -> int:
        """The index of an exact colour.

        Raises
        ------
        KeyError
            If ``colour`` is not one of the exact colours or blends.
        """
        return self._index[tuple(colour[:3])]

    def indices(self, image: Image.Image) -> Image.Image:
        """``image`` (RGB, or RGBA read as opaque) mapped onto the palette: a "P" image,
        each pixel the nearest colour, without dithering."""
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        out = rgb.point(_RAISED).quantize(palette=self.image, dither=Image.Dither.NONE)
        out.info["transparency"] = TRANSPARENT
        return out

    def new(self, size: tuple[int, int], colour: Colour | None) -> Image.Image:
        """A "P" image of ``size`` filled with ``colour`` (None: the transparent ground)."""
        out = Image.new("P", size, TRANSPARENT if colour is None else self.index(colour))
        out.putpalette(self.image.getpalette())
        out.info["transparency"] = TRANSPARENT
        return out
