"""Reading the ``.po`` catalogs of :mod:`bot.i18n` with Babel, without a compile step.

A catalog is ``locales/<code>/<domain>.po`` beside this file (domains: ``messages``, the
bot's texts; ``commands``, the slash commands' names and descriptions). :func:`read` parses
it with :func:`babel.messages.pofile.read_po` and builds gettext translations from it in
memory (:func:`babel.messages.mofile.write_mo` into a buffer), so the ``Plural-Forms``
header of each file decides its plural forms.
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALES = resources.files(__package__) / "locales"
"""The folder holding one folder of catalogs per language code."""


@cache
def catalog(code: str, domain: str = "messages") -> Catalog:
    """The parsed catalog ``locales/<code>/<domain>.po`` (an empty one if there is none).

    Raises
    ------
    babel.messages.pofile.PoFileError
        For a file that is not valid ``.po``.
    """
    source = LOCALES / code / f"{domain}.po"
    if not source.is_file():
        return Catalog(locale=code, domain=domain)
    with source.open("rb") as stream:
        return read_po(stream, locale=code, domain=domain, abort_invalid=True)


@cache
def translations(code: str, domain: str = "messages") -> Translations:
    """Gettext translations of one catalog (untranslated and fuzzy entries left out, so a
    lookup of them falls through to the caller's fallback)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog(code, domain))
    buffer.seek(0)
    return Translations(buffer, domain=domain)


@cache
def messages(code: str) -> Translations:
    """The bot's texts in ``code`` (:func:`translations` of its ``messages`` catalog) falling
    back to English for an id it leaves out; English falls back to nothing, so an unknown
    id reads as itself. One object per code: the fallback is added once, however many
    :class:`bot.i18n.Language` are made."""
    found = translations(code)
    if code != "en":
        found.add_fallback(translations("en"))
    return found


def plural_ids(code: str = "en") -> frozenset[str]:
    """The message ids of a catalog that have plural forms (their text depends on
    ``count``)."""
    return frozenset(m.id[0] for m in catalog(code) if m.id and m.pluralizable)


def message_ids(code: str) -> frozenset[str]:
    """The message ids of a catalog (of a plural message, its singular id)."""
    return frozenset(m.id[0] if m.pluralizable else m.id for m in catalog(code) if m.id)
