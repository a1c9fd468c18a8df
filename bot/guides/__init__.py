"""How-to-play guides: a few short pages per game, and a glossary of its terms.

Each game's module (:mod:`bot.guides.tripoli`, :mod:`bot.guides.troefcall`,
:mod:`bot.guides.kalooki`) holds its :class:`Guide` as plain data; :data:`GUIDES` lists them
by game name (the name of the game's slash-command group). :mod:`bot.guides.paging` renders a
page and its Previous/Next buttons.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    """One page of a guide: a short title and its text (Discord Markdown)."""

    title: str
    text: str


@dataclass(frozen=True)
class Guide:
    """A game's guide.

    Attributes
    ----------
    title
        The game's name as players know it.
    pages
        The guide in reading order (the glossary page follows them).
    glossary
        ``(term, meaning)`` pairs, in the order they are listed.
    """

    title: str
    pages: tuple[Page, ...]
    glossary: tuple[tuple[str, str], ...]

    @property
    def all_pages(self) -> tuple[Page, ...]:
        """The pages, then the glossary as the last page."""
        terms = "\n".join(f"**{term}** — {meaning}" for term, meaning in self.glossary)
        return (*self.pages, Page("Glossary", terms))


def _guides() -> dict[str, Guide]:
    from bot.guides import kalooki, tripoli, troefcall

    return {"tripoli": tripoli.GUIDE, "troefcall": troefcall.GUIDE, "kalooki": kalooki.GUIDE}


GUIDES: dict[str, Guide] = _guides()
"""Every game's guide, by the game's name (``/<name> how-to-play``)."""
