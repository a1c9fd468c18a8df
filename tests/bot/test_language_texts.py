"""What :meth:`Language.t` writes, from the texts it compiles once per message: the
catalog's text with each value written as the module docstring says (ints grouped in the
language's digits, nested messages translated, str values isolated in Persian unless they
are a whole code span), laid out by :meth:`Language.directed`; and its kept texts stay
bounded by the catalogs, however many values pass through."""

from __future__ import annotations

import random

import babel.numbers
import pytest

from bot.i18n import LANGUAGES, Msg, catalogs
from bot.i18n.language import (
    _CODE_PLACEHOLDER,
    ISOLATES,
    LINES_KEPT,
    POP_DIRECTIONAL_ISOLATE,
    Language,
    _kept_line,
    isolated,
    placeholders,
)

VALUES = ["Alice", "علی", "> quoted", "- listed", "1. first", "two\nlines", "`code`",
          "```", "\u2068Bob\u2069", "\u2067a\u2069 · \u2067b\u2069", "", 0, 7, 1234, 5_000_000,
          -3, True, 1.5, Msg("game.tripoli"), Msg("seat.ai", number=2)]
PLURAL = catalogs.plural_ids("en")


def expected(code: str, key: str, values: dict) -> str:
    """The text as the module docstring defines it, from the catalog itself."""
    lang, messages = LANGUAGES[code], catalogs.messages(code)
    text = (messages.ngettext(key, key, int(values.get("count", 0)))
            if key in PLURAL else messages.gettext(key))
    coded = set(_CODE_PLACEHOLDER.findall(text))

    def written(name, value):
        if isinstance(value, Msg):
            return lang.t(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return lang.grouped(value)
        if name in coded and isinstance(value, str):
            return value
        return lang.isolate(str(value))

    return lang.directed(text.format(**{name: written(name, value)
                                        for name, value in values.items()}))


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_message_is_its_text_filled_and_laid_out(code):
    rng = random.Random(code)
    english = catalogs.translations("en")
    for key in sorted(catalogs.message_ids("en")):
        plural = key in PLURAL
        names = set().union(*(placeholders(english.ngettext(key, key, n) if plural
                                           else english.gettext(key)) for n in (1, 2)))
        for _ in range(3):
            values = {name: rng.choice(VALUES) for name in names}
            if plural:
                values["count"] = rng.choice([0, 1, 2, 5, 21, 1000])
            assert LANGUAGES[code].t(key, **values) == expected(code, key, values), key
            assert LANGUAGES[code].t(Msg(key, **values)) == expected(code, key, values), key


def test_a_missing_value_is_a_key_error():
    with pytest.raises(KeyError):
        LANGUAGES["fa"].t("seat.ai")
    with pytest.raises(KeyError):
        LANGUAGES["en"].t(Msg("table.title", game=Msg("seat.ai")), table="x")


def nesting(text: str) -> bool:
    """:func:`isolated` by walking ``text``: its first isolate closes at its last character."""
    if not text or text[0] not in ISOLATES:
        return False
    depth = 0
    for index, char in enumerate(text):
        depth += (char in ISOLATES) - (char == POP_DIRECTIONAL_ISOLATE)
        if depth == 0:
            return index == len(text) - 1
    return False


def test_isolated_agrees_with_the_nesting_of_the_marks():
    rng = random.Random(15)
    for _ in range(20_000):
        text = "".join(rng.choice("\u2066\u2067\u2068\u2069\u2069a ") for _ in range(
            rng.randint(0, 9)))
        assert isolated(text) == nesting(text), repr(text)


def test_kept_texts_grow_with_the_catalog_not_with_the_values():
    lang = LANGUAGES["fa"]
    keys = ["seat.ai", "board.time_left", "lobby.ranked_buy_in", "button.hand"]
    for key in keys:
        lang.t(key, number=1, when="x", count=1)
    lang.t(Msg.load("note"))  # the catalog's "text", kept once whichever test ran before
    templates, forms, constants = len(lang._templates), len(lang._forms), len(lang._constants)
    for number in range(1000):
        lang.t("seat.ai", number=number)
        lang.t("board.time_left", when=f"<t:{number}:R>\n`{number}`")
        lang.t("lobby.ranked_buy_in", count=number)
        lang.t(Msg.load(f"note {number}"))  # a note saved before the catalogs: shown as is
        lang.t(f"no.such.message.{number}")
        lang.directed(f"line {number}\n> quote {number}")
    assert (len(lang._templates), len(lang._constants)) == (templates, constants)
    assert len(lang._forms) <= forms + len(catalogs.catalog("fa")["lobby.ranked_buy_in"].string)
    assert _kept_line.cache_info().currsize <= LINES_KEPT


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_another_language_object_leaves_the_fallbacks_as_they_were(code):
    again = Language(code)
    for lang in (again, LANGUAGES[code], LANGUAGES["en"]):
        assert lang.t("no.such.message") == lang.directed("no.such.message")  # as it is
    assert again.t("seat.ai", number=3) == LANGUAGES[code].t("seat.ai", number=3)


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_grouped_numbers_are_written_as_babel_writes_them(code):
    lang, rng = LANGUAGES[code], random.Random(code)
    for value in [*range(-20, 20), *(rng.randint(-10**15, 10**15) for _ in range(3000)),
                  *(10**k for k in range(20)), *(rng.randint(0, 5000) for _ in range(500))]:
        digits = babel.numbers.format_decimal(abs(value), locale=code, numbering_system="default")
        written = ("-" if value < 0 else "") + digits.translate(lang._digits)
        assert lang.grouped(value) == written, value
        assert lang.grouped(value, signed=True) == (written if value < 0 else "+" + written)
