"""One language as the renderers and cogs use it: its texts, digits and direction.

:class:`Language` looks a message id up in its catalog (falling back to English), fills the
``{placeholders}``, writes numbers in the language's digits and lays a right-to-left text out
right to left (:meth:`Language.directed`). :class:`Msg` is a text kept for later (a board note,
a refusal): an id and its values, shown in each viewer's language when rendered.

Right to left, by the Unicode bidirectional algorithm (UAX #9): Discord lays each line of a
message or an embed out in a left-to-right paragraph, whatever its text. A right-to-left mark
(U+200F) at a line's ends does not change that paragraph's direction; it only stands as one
more right-to-left letter, so a line that starts with a Latin name or a card code still puts
them on the left. Each line of a Persian text is therefore a right-to-left isolate, RLI
(U+2067) … PDI (U+2069): rule X5a gives its content an odd embedding level whatever the
paragraph's, so its runs are ordered right to left (L1–L2) and its leading name or card sits
at the right, its trailing full stop at the left (N1–N2: neutrals at an isolate's ends take
its direction). Inside a line, every name, card code and number (a str placeholder, an item
of :meth:`Language.join`) is a first-strong isolate, FSI (U+2068) … PDI: to its neighbours it
is one neutral character (N1 counts an isolate as NI), so ``A♥ ۱۰ · K♥ ۵`` reads as two
items right to left instead of one Latin run (W7 would make the digits after ``A`` Latin
and N1 the ``·`` between two Latin runs), and inside it keeps its own order (X5c: a Latin
name or a card code ``10♥`` left to right). A line that Discord's Markdown starts with a
marker (``> ``, ``- ``, ``# ``, ``-# ``, ``1. ``) keeps it at the line start, before the
isolate; an inline code span (``/tripoli rules``) is a left-to-right isolate around its
backticks (inside them the marks would be part of the command); lines of a code block and
its fences stay as they are.
"""

from __future__ import annotations

import copy
import re
import string
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import babel
import babel.numbers
import discord

from bot.i18n import catalogs
from bot.i18n.commands import COMMAND_LANGUAGES, board_locale, command_name, command_text

LEFT_TO_RIGHT_ISOLATE = "\u2066"
RIGHT_TO_LEFT_ISOLATE = "\u2067"
FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"
ISOLATES = LEFT_TO_RIGHT_ISOLATE + RIGHT_TO_LEFT_ISOLATE + FIRST_STRONG_ISOLATE
"""The isolate initiators (each closed by :data:`POP_DIRECTIONAL_ISOLATE`)."""

_LINE_OPENERS = frozenset(" >-#*+0123456789`~")
"""The characters a Markdown marker or a code fence can start with (other lines have none)."""
_MARKDOWN_MARKER = re.compile(r"(?: {0,3}(?:>>>|>|-#|#{1,3}|[-*+]|[0-9]{1,9}\.)[ \t]+)*")
"""What Discord's Markdown reads at a line's start: quote, heading, subtext, list item."""
_FENCE = re.compile(r" {0,3}(?:```|~~~)")
_CODE_SPAN = re.compile("([\u2066-\u2068]?)(`[^`\n]+`)(\u2069?)")
"""An inline code span (a slash command, a preset's id), with the isolate around it."""
_CODE_PLACEHOLDER = re.compile(r"`\{([a-z_0-9]+)\}`")
"""A placeholder that is a whole code span (``{name}`` in backticks): its str value is left
as it is, the span being an isolate already (marks inside it would be copied with it)."""
_ARGUMENT = re.compile(r"[^.\[]*")
"""The argument a format field names (``name`` of ``{name.attr}`` or ``{name[0]}``)."""

DIGITS = {"latn": "0123456789", "arabext": "۰۱۲۳۴۵۶۷۸۹"}
"""The digits of the numbering systems our languages use by default (Babel/CLDR names:
Persian writes ``arabext``)."""

GROUPED_KEPT = 4096
"""The numbers below it a language keeps grouped (chips and points recur; ~0.3 MB at most)."""

LINES_KEPT = 2048
"""Most lines :meth:`Language.directed` keeps laid out (least recently used dropped)."""
LINE_KEPT_LENGTH = 256
"""Longest line kept (with :data:`LINES_KEPT`: at most ~4 MB, ~0.5 MB for usual lines)."""

_FORMATTER = string.Formatter()

def ascii_digits(text: str) -> str:
    """``text`` in its compatibility form (NFKC: full-width ``３`` is ``3``) with every
    Unicode decimal digit as its ASCII one: Persian ``۳``, Arabic-Indic ``٣``, Devanagari
    ``३`` (what a keyboard of any script types for an amount), and without the invisible
    format characters (Unicode category Cf: the direction marks U+200E, U+200F and U+061C
    that Persian and Arabic keyboards put in); other characters unchanged, so ``0x10``,
    ``1e3``, ``-5``, ``+3``, ``3.0`` and ``1_0`` stay what they are."""
    return "".join(str(unicodedata.decimal(char)) if unicodedata.decimal(char, None) is not None
                   else char for char in unicodedata.normalize("NFKC", text)
                   if unicodedata.category(char) != "Cf")


def placeholders(text: str) -> frozenset[str]:
    """The names of the ``{placeholders}`` of ``text``.

    Raises
    ------
    ValueError
        For a text that is not a valid format string (an unpaired brace).
    """
    return frozenset(name for _, name, _, _ in _FORMATTER.parse(text) if name)


def open_isolates(text: str) -> int:
    """How many isolates ``text`` opens and does not close (an unmatched PDI closes none)."""
    depth = 0
    for char in text:
        if char in ISOLATES:
            depth += 1
        elif char == POP_DIRECTIONAL_ISOLATE and depth:
            depth -= 1
    return depth


def isolated(text: str) -> bool:
    """Whether ``text`` is one isolate from end to end (``⁨Alice⁩``, not ``⁨A⁩ · ⁨B⁩``)."""
    if len(text) < 2 or text[0] not in ISOLATES or text[-1] != POP_DIRECTIONAL_ISOLATE:
        return False
    # str methods, not a regex or a loop over the characters: they are fast
    inner = text[1:-1]
    if POP_DIRECTIONAL_ISOLATE not in inner:  # the usual line: nothing closes inside
        return not _opened(inner)
    *closed, last = inner.split(POP_DIRECTIONAL_ISOLATE)  # each piece up to a PDI inside
    depth = 1
    for piece in closed:
        depth += _opened(piece) - 1
        if depth == 0:
            return False  # the first isolate closes before the end
    return depth + _opened(last) == 1  # the last PDI closes the first


def _opened(text: str) -> int:
    """How many isolate initiators ``text`` holds."""
    return (text.count(LEFT_TO_RIGHT_ISOLATE) + text.count(RIGHT_TO_LEFT_ISOLATE)
            + text.count(FIRST_STRONG_ISOLATE))


def truncate(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``…`` when cut; the
    directional isolates the cut leaves open are closed within ``limit`` (a cut Persian
    label still reads right to left and leaves nothing after it in its isolate)."""
    if len(text) <= limit:
        return text
    kept = text[: limit - 1]
    while len(kept) + 1 + open_isolates(kept) > limit:
        kept = kept[:-1]
    return kept + "…" + POP_DIRECTIONAL_ISOLATE * open_isolates(kept)


def _isolated_span(span: re.Match[str]) -> str:
    if span[1] and span[3]:
        return span[0]
    return f"{span[1]}{LEFT_TO_RIGHT_ISOLATE}{span[2]}{POP_DIRECTIONAL_ISOLATE}{span[3]}"


def _isolated_line(line: str, initiator: str) -> str:
    """``line`` as an isolate opened by ``initiator`` unless it is empty or one isolate
    already (a line that holds isolates, a phrase put together from isolated names and
    catalog texts, as a right-to-left one when ``initiator`` is first-strong)."""
    if not line or isolated(line):
        return line
    opened = RIGHT_TO_LEFT_ISOLATE if initiator == FIRST_STRONG_ISOLATE and _opened(
        line) else initiator
    return f"{opened}{line}{POP_DIRECTIONAL_ISOLATE}"


def _each_line(text: str, initiator: str) -> str:
    """Every line of ``text`` through :func:`_isolated_line`."""
    if "\n" not in text:
        return _isolated_line(text, initiator)
    return "\n".join(_isolated_line(line, initiator) for line in text.split("\n"))


def _right_to_left(text: str) -> str:
    """:meth:`Language.directed` of ``text`` in a right-to-left language."""
    lines, code = [], False
    for line in text.split("\n"):
        if line and line[0] in _LINE_OPENERS and _FENCE.match(line):
            code ^= bool((line.count("```") + line.count("~~~")) % 2)  # opens or closes a
            lines.append(line)  # block (both: a block of one line)
        elif code or not line:
            lines.append(line)
        elif len(line) <= LINE_KEPT_LENGTH:
            lines.append(_kept_line(line))
        else:
            lines.append(_directed_line(line))
    return "\n".join(lines)


def _directed_line(line: str) -> str:
    """A line outside code blocks, not a fence, laid out right to left (after its Markdown
    marker: a right-to-left isolate unless it is one isolate already, each code span a
    left-to-right one)."""
    marker = _MARKDOWN_MARKER.match(line).group(0) if line[0] in _LINE_OPENERS else ""
    rest = line[len(marker):]
    if not rest:
        return line
    if "`" in rest:
        rest = _CODE_SPAN.sub(_isolated_span, rest)
    if not isolated(rest):
        rest = f"{RIGHT_TO_LEFT_ISOLATE}{rest}{POP_DIRECTIONAL_ISOLATE}"
    return marker + rest


_kept_line = lru_cache(maxsize=LINES_KEPT)(_directed_line)
""":func:`_directed_line` of the most recent lines (a board's lines recur from one edit to the
next: the names, the log, the catalog texts)."""


@dataclass(frozen=True, slots=True)
class _Template:
    """One catalog text as :meth:`Language.t` of one language fills it in.

    Attributes
    ----------
    text
        The text, a format string.
    fields
        The names of its placeholders (each once, in the order they first appear).
    coded
        Those that are a whole code span (:data:`_CODE_PLACEHOLDER`: a str value is left
        as it is).
    constant
        The finished text (in the language's direction) when it has no placeholder.
    one_line
        Filled with values of one line and no backtick, it is one line that
        :meth:`Language.directed` only makes a right-to-left isolate: it has no newline, no
        backtick and starts with a character of its own that opens no Markdown marker,
        fence or isolate.
    """

    text: str
    fields: tuple[str, ...]
    coded: frozenset[str]
    constant: str | None
    one_line: bool


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
    client
        The Discord client locale whose command names the texts name (:meth:`commands`):
        by default a client in this language (:func:`bot.i18n.commands.board_locale`, as a
        public board names them); a member's own client in a private answer
        (:meth:`for_client`).
    """

    def __init__(self, code: str) -> None:
        self.code = code
        self.client: discord.Locale | None = board_locale(code)
        self._locale = babel.Locale.parse(code)
        self._messages = catalogs.messages(code)
        self._plural = catalogs.plural_ids("en")
        self._digits = str.maketrans(DIGITS["latn"], DIGITS.get(
            self._locale.default_numbering_system, DIGITS["latn"]))
        self._groups: dict[int, str] = {}  # grouped(): the numbers below GROUPED_KEPT
        self._thousands = self._group_by_threes()  # grouped(): the separator, if by threes
        self._separator = self._messages.gettext("list.separator")
        # t(): the catalog's texts compiled once (at most one entry per message id and per
        # plural form, never per value): by id, by plural form's text, and the finished
        # texts of the ids without placeholders
        self._known = catalogs.message_ids(code) | catalogs.message_ids("en")
        self._templates: dict[str, _Template] = {}
        self._forms: dict[str, _Template] = {}
        self._constants: dict[str, str] = {}

    def _group_by_threes(self) -> str | None:
        """The group separator when the language groups every three digits from the first
        thousand, as Babel writes ``1234`` and ``12345678`` (CLDR pattern ``#,##0``:
        en, fa, it, nl); None when it groups otherwise (Indian ``12,34,567``, or not
        below ten thousand)."""
        separator = babel.numbers.get_group_symbol(self._locale, numbering_system="default")
        if all(f"{size:,}".replace(",", separator) == babel.numbers.format_decimal(
                size, locale=self._locale, numbering_system="default")
               for size in (1234, 12_345_678)):
            return separator
        return None

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    def for_client(self, locale: discord.Locale | str | None) -> Language:
        """This language naming the slash commands as a client in ``locale`` lists them (a
        member's ``interaction.locale``: a Dutch reader on an English client reads
        ``/tripoli rules``); itself when that names them alike, or for no locale."""
        if locale is None:
            return self
        if not isinstance(locale, discord.Locale):
            try:
                locale = discord.Locale(str(locale))
            except ValueError:
                return self
        client = locale if locale in COMMAND_LANGUAGES else None
        if client == self.client:
            return self
        variant = copy.copy(self)  # the same catalogs and caches, another client
        variant.client = client
        return variant

    def commands(self, text: str) -> str:
        """``text`` with each slash command in a code span named as :attr:`client` lists
        it (:func:`bot.i18n.commands.command_text`)."""
        return command_text(text, self.client)

    def command(self, command: str) -> str:
        """One slash command (``/chips history page:<n>``) named as :attr:`client` lists
        it (:func:`bot.i18n.commands.command_name`)."""
        return command_name(command, self.client)

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
        if text is None:
            text = self._grouped(size)
            if size < GROUPED_KEPT:
                self._groups[size] = text
        sign = "-" if value < 0 else "+" if signed else ""
        return sign + text

    def _grouped(self, size: int) -> str:
        """``size`` (>= 0) grouped as Babel groups it, by threes when the language does
        (Python's own grouping, ~1 µs), else by Babel's formatting (~50 µs)."""
        if self._thousands is not None:
            text = f"{size:,}".replace(",", self._thousands)
        else:
            text = babel.numbers.format_decimal(size, locale=self._locale,
                                                numbering_system="default")
        return text.translate(self._digits)

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
        """``text`` as a first-strong isolate in a right-to-left language, line by line
        (unchanged in a left-to-right one, and where it is one isolate already): a Latin
        name or a card code keeps its own order inside Persian (module docstring). A line
        that holds isolates (``⁨Alice⁩: ⁨10♥⁩``, put together in a Persian text) becomes a
        right-to-left isolate: a first-strong one would skip its isolates, find no letter
        and lay it out left to right (UAX #9 P2, X5c)."""
        return _each_line(text, FIRST_STRONG_ISOLATE) if self.rtl else text

    def ltr(self, text: str) -> str:
        """``text`` forced left to right in a right-to-left language: a hexadecimal hash,
        which would otherwise take its direction from nothing."""
        return _each_line(text, LEFT_TO_RIGHT_ISOLATE) if self.rtl else text

    def join(self, parts: Iterable[str], separator: str | None = None) -> str:
        """``parts`` as one list in the language's order (``separator``: the language's
        ``list.separator``, ``Alice, Bob``): in a right-to-left language each part is an
        isolate and the list a right-to-left one, so ``Alice، Bob`` and ``A♥ ۱۰ · K♥ ۵``
        read right to left, also inside a placeholder. ``""`` for no parts."""
        if separator is None:
            separator = self._separator
        if not self.rtl:
            return separator.join(parts)
        listed = separator.join(_each_line(part, FIRST_STRONG_ISOLATE) for part in parts)
        return f"{RIGHT_TO_LEFT_ISOLATE}{listed}{POP_DIRECTIONAL_ISOLATE}" if listed else ""

    def directed(self, text: str) -> str:
        """``text`` laid out in the language's direction: in a right-to-left language each
        line a right-to-left isolate after its Markdown marker (``> ``, ``- ``, ``# ``),
        except a code block's lines and fences and a line that is one isolate already, and
        each inline code span (a slash command) a left-to-right one, outside its backticks
        (module docstring); unchanged in a left-to-right language. Renderers pass every
        embed text through it (``bot.render.common.fit``), so a line they put together
        from names, cards and catalog texts reads right to left too."""
        return _right_to_left(text) if self.rtl else text

    def t(self, key: str | Msg, /, **params: Any) -> str:
        """The text of message ``key`` (or of a :class:`Msg`) with its placeholders filled.

        ``count`` chooses the plural form of a plural message. Int values are written in
        this language's digits, grouped (``5,000``, ``5.000``, ``۵٬۰۰۰``); str values are
        inserted as they are (escape Markdown before); Msg values are translated too. Values
        of names the text does not hold are not looked at. Each message is compiled once per
        language (its text, placeholders and code spans; the finished text of one without
        placeholders), so a call costs about one lookup and one ``str.format``.

        Raises
        ------
        KeyError
            When a placeholder of the text has no value.
        """
        if isinstance(key, Msg):
            key, params = key.key, {**key.params, **params} if params else key.params
        elif not params:
            done = self._constants.get(key)
            if done is not None:  # no placeholder: written once
                return done
        if key in self._plural:
            text = self._messages.ngettext(key, key, int(params.get("count", 0)))
            template = self._forms.get(text) or self._form(text)
        else:
            template = self._templates.get(key) or self._template(key)
        if template.constant is not None:
            return template.constant
        rtl, values, one_line = self.rtl, {}, template.one_line
        for name in template.fields:
            value = params[name]
            if type(value) is int and value >= 0:  # the usual quantity, already written
                values[name] = self._groups.get(value) or self.grouped(value)
                continue
            if type(value) is not str:
                value = self._value(value, name in template.coded)
            elif not rtl:
                values[name] = value
                continue
            elif name not in template.coded:  # a code span isolates its value
                value = _each_line(value, FIRST_STRONG_ISOLATE)
            values[name] = value
            one_line = one_line and "\n" not in value and "`" not in value
        text = template.text.format_map(values)  # no copy of values, unlike format(**)
        if not rtl:
            return text
        if one_line:  # directed() would only make it a right-to-left isolate
            return f"{RIGHT_TO_LEFT_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"
        return _right_to_left(text)

    def _value(self, value: Any, coded: bool) -> str:
        """A placeholder's value as :meth:`t` inserts it (``coded``: in a code span)."""
        if isinstance(value, Msg):
            return self.t(value)  # already in this language's direction, line by line
        if isinstance(value, int) and not isinstance(value, bool):  # chips, points, seconds
            return self.grouped(value)
        if coded and isinstance(value, str):  # a code span isolates its value
            return value
        return self.isolate(str(value))

    def _template(self, key: str) -> _Template:
        """Message ``key`` compiled (kept when it is in a catalog: unknown ids are shown
        as they are, and are not kept)."""
        template = self._compile(self._messages.gettext(key))
        if key in self._known:
            self._templates[key] = template
            if template.constant is not None:
                self._constants[key] = template.constant
        return template

    def _form(self, text: str) -> _Template:
        """A plural form's ``text`` compiled and kept (a catalog's form, or its id)."""
        template = self._forms[text] = self._compile(text)
        return template

    def _compile(self, text: str) -> _Template:
        """``text`` compiled for :meth:`t`.

        Raises
        ------
        ValueError
            For a text that is not a valid format string.
        IndexError
            For a text that has a positional placeholder (``{0}``, ``{}``): it gets no value.
        """
        fields = dict.fromkeys(_ARGUMENT.match(name)[0] for _, name, _, _ in
                               _FORMATTER.parse(text) if name is not None)
        names = tuple(name for name in fields if name and not name.isdigit())
        if len(names) != len(fields):
            raise IndexError(f"a positional placeholder in {text!r}")
        constant = self.directed(text.format()) if not names else None
        one_line = (bool(text) and text[0] not in _LINE_OPENERS and text[0] not in "{" + ISOLATES
                    + POP_DIRECTIONAL_ISOLATE and "\n" not in text and "`" not in text)
        return _Template(text, names, frozenset(_CODE_PLACEHOLDER.findall(text)),
                         constant, one_line)


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
