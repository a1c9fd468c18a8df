"""How-to-play guides: a few short pages per game, and a glossary of its terms, in every
language of :mod:`bot.i18n`.

Each game's module (:mod:`bot.guides.tripoli`, :mod:`bot.guides.troefcall`,
:mod:`bot.guides.kalooki`) names its :class:`Guide`'s pages and terms; their texts are
catalog messages (``guide.<game>.<page>.title`` and ``guide.<game>.<page>``, glossary
``guide.<game>.term.<term>`` and ``guide.<game>.means.<term>``), written from the game's
``rules/<game>.md``. :data:`GUIDES` lists them by game name (the name of the game's
slash-command group). :mod:`bot.guides.paging` renders a page and its Previous/Next buttons.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.i18n import Language, Msg


@dataclass(frozen=True)
class Page:
    """One page of a guide as a reader sees it: a short title and its text (Discord
    Markdown), both in the reader's language."""

    title: str
    text: str


def _no_values(lang: Language) -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class Guide:
    """A game's guide.

    Attributes
    ----------
    game
        The game's name (``tripoli``): its catalog ids start ``guide.<game>.``, its title
        is message ``game.<game>``.
    pages
        The pages' names in reading order (the glossary page follows them).
    glossary
        The terms' names, in the order they are listed.
    values
        The placeholders of the pages' texts in a language (numbers and lines the guide
        reads from the engine, such as Kalooki's contracts).
    """

    game: str
    pages: tuple[str, ...]
    glossary: tuple[str, ...]
    values: Callable[[Language], Mapping[str, Any]] = _no_values

    def title(self, lang: Language) -> str:
        """The game's name as players know it, in ``lang``."""
        return lang.t(f"game.{self.game}")

    def terms(self, lang: Language) -> list[tuple[str, str]]:
        """``(term, meaning)`` pairs of the glossary in ``lang``."""
        return [(lang.t(f"guide.{self.game}.term.{name}"),
                 lang.t(f"guide.{self.game}.means.{name}")) for name in self.glossary]

    def all_pages(self, lang: Language) -> tuple[Page, ...]:
        """The pages in ``lang`` (slash commands named as the reader's client lists them:
        :meth:`bot.i18n.Language.commands`), then the glossary as the last page."""
        values = self.values(lang)
        pages = [Page(lang.t(f"guide.{self.game}.{name}.title"),
                      lang.commands(lang.t(f"guide.{self.game}.{name}", **values)))
                 for name in self.pages]
        terms = "\n".join(
            lang.t("guide.glossary_line", term=Msg(f"guide.{self.game}.term.{name}"),
                   meaning=Msg(f"guide.{self.game}.means.{name}"))
            for name in self.glossary)
        return (*pages, Page(lang.t("guide.glossary"), terms))


def _guides() -> dict[str, Guide]:
    from bot.guides import kalooki, tripoli, troefcall

    return {"tripoli": tripoli.GUIDE, "troefcall": troefcall.GUIDE, "kalooki": kalooki.GUIDE}


GUIDES: dict[str, Guide] = _guides()
"""Every game's guide, by the game's name (``/<name> how-to-play``)."""
