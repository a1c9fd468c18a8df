"""The players' languages: English, Persian, Italian and Dutch (issue 11).

Every text the bot sends comes from a message catalog, one gettext ``.po`` file per language
under ``locales/<code>/messages.po`` (shipped as package data), read at start-up with Babel
(:mod:`bot.i18n.catalogs`). Why Babel and ``.po``: Babel is the long-kept Python i18n library
(CLDR locale data: plural rules, text direction, numbering systems, native language names)
and reads ``.po`` files straight into gettext translations, so there is no compile step and
no ``.mo`` file to keep in step; ``.po`` is the format every translation tool (Poedit,
Weblate, Transifex) edits, with translator comments, fuzzy marks and plural forms. Fluent
(``fluent.runtime``) would have given richer grammar selectors but has not been released
for years and few translators' tools speak it.

Usage, for renderers and cogs::

    lang = info.lang                                   # a Language (TableInfo.lang)
    lang.t("lobby.join")                               # "Join" / "Partecipa" / …
    lang.t("lobby.seats", count=3, high=7)            # plural forms from the catalog
    lang.t(Msg("note.joined", name="Alice"))           # a text kept for later (notes, refusals)

Converting a text (renderers, adapters, cogs): put the English sentence in
``locales/en/messages.po`` under an id of its area (``tripoli.board.pot``), the same id in
fa/it/nl (``tests/bot/test_catalogs.py`` fails on a missing one or a different placeholder),
and write ``info.lang.t(id, …)``. Pass numbers as ints (digits and grouping per language,
also in a :class:`Msg` kept for later), one-decimal values with :meth:`Language.decimal`,
places with :meth:`Language.ordinal`, nested catalog texts as :class:`Msg` (not
pre-translated strs), Discord timestamps as strs (``bot.render.common.relative_time``).
A text kept for later (a board note, a refusal) is a :class:`Msg`: ``Refusal(code,
Msg(id, …))``; an engine refusal names its sentence with ``IllegalAction(code, message,
reason=…, **values)`` (catalog id ``illegal.<reason>``), and rules options it cannot play
with ``OptionError(reason, **values)`` (catalog id ``<reason>`` itself, shown by
:func:`bot.runtime.refs.unplayable_reason`). A game counts as converted when
it leaves ``UNCONVERTED`` in ``tests/discord/test_languages.py`` (its Persian board and
hands then hold no English catalog word).

Message ids are symbolic (``area.what``); the English catalog holds the source text. Names
and numbers are ``{placeholders}``: ints are written in the language's digits, grouped
(:meth:`Language.grouped`: ``5,000``, ``5.000``, ``۵٬۰۰۰``), and in a right-to-left language
every placeholder is a Unicode directional isolate, so a Latin name or a card code keeps its
order inside Persian, and every line a right-to-left isolate. A renderer puts a list or a
line of names, cards and amounts together with :meth:`Language.join` (not ``" · ".join``:
the parts must be isolates to read right to left) and passes its embed through
``bot.render.common.fit(embed, lang)``, which lays each line out (:meth:`Language.directed`).

Who sees which language (:mod:`bot.i18n.choice`): a member's private views, DMs and refusals
follow their ``/settings language`` or else their Discord client's locale; a table's board
and lobby follow the channel's setting, else the server's, else the server's Discord locale;
English is the fallback. Slash commands are localized where Discord has the locale (it, nl)
by :class:`bot.i18n.commands.CommandTranslator` from ``locales/<code>/commands.po``.
"""

from bot.i18n.language import ENGLISH, LANGUAGES, Language, Msg, language

__all__ = ["ENGLISH", "LANGUAGES", "Language", "Msg", "language"]
