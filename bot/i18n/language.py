"""One language as the renderers and cogs use it: its texts, digits and direction.

:class:`Language` looks a message id up in its catalog (falling back to English), fills the
``{placeholders}``, writes numbers in the language's digits and, for a right-to-left
language, wraps each str placeholder in a Unicode first-strong isolate (U+2068 … U+2069) so
that a Latin name or a card code (``10♥``) keeps its own order inside Persian text (numbers
in Persian digits need none: ``۳/۹`` stays one number; a nested :class:`Msg` is already in
the language); each
line of a right-to-left text also starts and ends with a right-to-left mark (U+200F), so
its ends stay right even where a client lays the line out left to right.
:class:`Msg` is a text kept for later (a board note, a refusal): an id and its values, shown
in each viewer's language when rendered.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import babel
import babel.numbers

from bot.i18n import catalogs

FIRST_STRONG_ISOLATE = "\u2068"
LEFT_TO_RIGHT_ISOLATE = "\u2066"
POP_DIRECTIONAL_ISOLATE = "\u2069"
RIGHT_TO_LEFT_MARK = "\u200f"

DIGITS = {"latn": "0123456789", "arabext": "۰۱۲۳۴۵۶۷۸۹"}
"""The digits of the numbering systems our languages use by default (Babel/CLDR names:
Persian writes ``arabext``)."""

GROUPED_KEPT = 4096
"""Most grouped numbers a language keeps written (chips and points recur; ~0.5 MB at most)."""

_FORMATTER = string.Formatter()

def ascii_digits(text: str) -> str:
    """``text`` in its compatibility form (NFKC: full-width ``３`` is ``3``) with every
    Unicode decimal digit as its ASCII one: Persian ``۳``, Arabic-Indic ``٣``, Devanagari
    ``३`` (what a keyboard of any script types for an amount); other characters unchanged,
    so ``0x10``, ``1e3``, ``-5``, ``+3``, ``3.0`` and ``1_0`` stay what they are."""
    return "".join(str(unicodedata.decimal(char)) if unicodedata.decimal(char, None) is not None
                   else char for char in unicodedata.normalize("NFKC", text))


def placeholders(text: str) -> frozenset[str]:
    """The names of the ``{placeholders}`` of ``text``.

    Raises
    ------
    ValueError
        For a text that is not a valid format string (an unpaired brace).
    """
    return frozenset(name for _, name, _, _ in _FORMATTER.parse(text) if name)


@dataclass(frozen=True)
class Msg:
    """A text kept for later: a message id and its values (str, int or nested Msg).

    JSON form (saved with a table's notes): :meth:`dump` / :meth:`load`.
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, key: str, /, **params: Any) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", params)

    def dump(self) -> dict[str, Any]:
        """``{"key": …, "params": {…}}`` (nested Msg values dumped the same way)."""
        return {"key": self.key, "params": {
            name: value.dump() if isinstance(value, Msg) else value
            for name, value in self.params.items()}}

    @classmethod
    def load(cls, data: Any) -> Msg:
        """A Msg from :meth:`dump`'s form; a plain string (a note saved before the
        catalogs) becomes the message ``text`` that shows it as it is."""
        if isinstance(data, str):
            return cls("text", text=data)
        params = {name: cls.load(value) if isinstance(value, dict) else value
                  for name, value in data["params"].items()}
        return cls(data["key"], **params)


class Language:
    """One language of the bot (see the module docstring).

    Attributes
    ----------
    code
        ``"en"``, ``"fa"``, ``"it"`` or ``"nl"`` (the catalog folder's name).
    """

    def __init__(self, code: str) -> None:
        self.code = code
        self._locale = babel.Locale.parse(code)
        self._messages = catalogs.translations(code)
        if code != "en":
            self._messages.add_fallback(catalogs.translations("en"))
        self._plural = catalogs.plural_ids("en")
        self._digits = str.maketrans(DIGITS["latn"], DIGITS.get(
            self._locale.default_numbering_system, DIGITS["latn"]))
        self._groups: dict[int, str] = {}  # grouped(): the digits of each size written

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    @cached_property
    def name(self) -> str:
        """The language's own name, as its speakers write it (``"فارسی"``, ``"italiano"``)."""
        return self._locale.get_display_name(self._locale)

    @cached_property
    def rtl(self) -> bool:
        """Written right to left (Persian)."""
        return self._locale.character_order == "right-to-left"

    def number(self, value: int) -> str:
        """An integer in this language's digits, without grouping: ``1234`` / ``۱۲۳۴``."""
        return str(value).translate(self._digits)

    def grouped(self, value: int, *, signed: bool = False) -> str:
        """An integer with the language's group separator and digits: ``1,234`` /
        ``1.234`` / ``۱٬۲۳۴`` (``signed``: ``+100``, ``-5``). Pass it as a str placeholder."""
        size = abs(value)
        text = self._groups.get(size)
        if text is None:  # babel's formatting costs ~100 µs; a board writes dozens
            text = babel.numbers.format_decimal(size, locale=self._locale,
                                                numbering_system="default")
            text = text.translate(self._digits)
            if len(self._groups) < GROUPED_KEPT:
                self._groups[size] = text
        sign = "-" if value < 0 else "+" if signed else ""
        return sign + text

    def decimal(self, value: float, *, signed: bool = False) -> str:
        """A number with one decimal, in the language's digits and decimal sign: ``12.3`` /
        ``12,3`` / ``۱۲٫۳`` (``signed``: ``+0.4``). Pass it as a str placeholder."""
        pattern = "+0.0;-0.0" if signed else "0.0"
        text = babel.numbers.format_decimal(value, format=pattern, locale=self._locale,
                                            numbering_system="default")
        return text.translate(self._digits)

    def ordinal(self, place: int) -> str:
        """A place in a ranking: ``1st`` / ``1º`` / ``1e`` / ``۱م`` (message
        ``ordinal.<form>``, the form from the language's CLDR ordinal rules)."""
        return self.t(f"ordinal.{self._locale.ordinal_form(place)}", place=place)

    def isolate(self, text: str) -> str:
        """``text`` as a directional isolate in a right-to-left language (unchanged in a
        left-to-right one): a Latin name keeps its order inside Persian."""
        if not (self.rtl and text):
            return text
        return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"

    def ltr(self, text: str) -> str:
        """``text`` forced left to right in a right-to-left language: a run of card codes
        (``10♥ 9♥``), which has no strong letter to take its direction from."""
        if not (self.rtl and text):
            return text
        return f"{LEFT_TO_RIGHT_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"

    def t(self, key: str | Msg, /, **params: Any) -> str:
        """The text of message ``key`` (or of a :class:`Msg`) with its placeholders filled.

        ``count`` chooses the plural form of a plural message. Int values are written in
        this language's digits, grouped (``5,000``, ``5.000``, ``۵٬۰۰۰``); str values are
        inserted as they are (escape Markdown before); Msg values are translated too.

        Raises
        ------
        KeyError
            When a placeholder of the text has no value.
        """
        if isinstance(key, Msg):
            key, params = key.key, {**key.params, **params}
        if key in self._plural:
            text = self._messages.ngettext(key, key, int(params.get("count", 0)))
        else:
            text = self._messages.gettext(key)
        text = text.format(**{name: self._value(value) for name, value in params.items()})
        return self._directed(text)

    def _directed(self, text: str) -> str:
        """A right-to-left text with a right-to-left mark at both ends of each line, so a
        client that lays every line out left to right (Discord's embeds) still keeps a line's
        leading number and trailing punctuation at the Persian ends."""
        if not self.rtl:
            return text
        line_break = f"{RIGHT_TO_LEFT_MARK}\n{RIGHT_TO_LEFT_MARK}"
        return f"{RIGHT_TO_LEFT_MARK}{text.replace(chr(10), line_break)}{RIGHT_TO_LEFT_MARK}"

    def _value(self, value: Any) -> str:
        if isinstance(value, Msg):
            return self.t(value)  # already in this language's direction
        if isinstance(value, bool):
            value = str(value)
        elif isinstance(value, int):  # a quantity: chips, points, seconds
            return self.grouped(value)
        return self.isolate(str(value))


CODES = ("en", "fa", "it", "nl")
"""The languages the bot speaks (one catalog folder each): add a fifth here."""

LANGUAGES: dict[str, Language] = {code: Language(code) for code in CODES}
ENGLISH = LANGUAGES["en"]


def language(code: str | None) -> Language:
    """The language of ``code`` (``"fa"``, or a Discord locale like ``"en-US"``, ``"it"``,
    ``"nl"``); English for None or a language the bot does not speak."""
    if not code:
        return ENGLISH
    return LANGUAGES.get(code) or LANGUAGES.get(str(code).split("-")[0].lower(), ENGLISH)
