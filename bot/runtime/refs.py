"""Table ids, component references and refusals: the small vocabulary of the table runtime.

A component's ``custom_id`` names the table, the decision it answers and the verb
(DESIGN.md §4), so a button keeps working after a restart and a click on a decision that
is over can be recognised::

    pl:<table>:<decision>:<verb>[:<arg>]     buttons
    ps:<table>:<decision>:<verb>[:<arg>]     select menus
    pm:<table>:<decision>:<verb>[:<arg>]     modals (amount entry)

``<decision>`` is ``-`` (no decision: lobby verbs, "My hand"), ``<seat>.<id>`` (the engine's
decision id of that seat, ``game.decision_id(seat)``) or ``t<n>`` (a table-level step, e.g.
the deal number for "Next deal"). Every custom_id is at most 100 characters.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from functools import cache

from bot.i18n import ENGLISH, Language, Msg
from engine.core import IllegalAction, OptionError

TABLE_ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
TABLE_ID_LENGTH = 6

_TABLE = r"(?P<table>[0-9a-z]{4,12})"
_DECISION = r"(?P<decision>-|\d{1,2}\.\d{1,9}|t\d{1,9})"
_VERB = r"(?P<verb>[a-z_]{1,16})"
_ARG = r"(?::(?P<arg>[0-9A-Za-z_]{1,24}))?"


def template(prefix: str) -> str:
    """The DynamicItem pattern of custom_ids with ``prefix`` (``pl``, ``ps`` or ``pm``)."""
    return f"{prefix}:{_TABLE}:{_DECISION}:{_VERB}{_ARG}"


@cache
def _pattern(prefix: str) -> re.Pattern[str]:
    """:func:`template` compiled, once per prefix (every component of a render checks its
    custom_id against it)."""
    return re.compile(template(prefix))


def new_table_id(taken: set[str] | frozenset[str] = frozenset()) -> str:
    """Draw a fresh short table id (6 base-36 characters) not in ``taken``."""
    while True:
        table_id = "".join(secrets.choice(TABLE_ID_ALPHABET) for _ in range(TABLE_ID_LENGTH))
        if table_id not in taken:
            return table_id


class Refusal(Exception):
    """An input the runtime turns down; :meth:`text` is shown to the member (ephemeral).

    Nothing changed when it is raised. ``code`` is stable for tests: ``"not_seated"``,
    ``"not_your_turn"``, ``"stale"``, ``"bad_amount"``, ``"not_host"``, ``"busy"`` (a table
    already exists), ``"no_table"``, ``"chips"``, ``"illegal"`` and the engine's codes.

    Parameters
    ----------
    code
        The stable code.
    message
        What to tell the member: a catalog :class:`~bot.i18n.Msg` (shown in the member's
        language), or a ready sentence (the engine's English, until its codes have
        catalog entries). ``message`` (the attribute) is always the English text.
    """

    def __init__(self, code: str, message: Msg | str) -> None:
        self.msg = message
        self.message = ENGLISH.t(message) if isinstance(message, Msg) else message
        super().__init__(self.message)
        self.code = code

    @classmethod
    def of(cls, error: IllegalAction) -> Refusal:
        """The refusal of an engine's :class:`~engine.core.IllegalAction`: its ``reason``
        as catalog message ``illegal.<reason>`` with its values, else its English message."""
        if error.reason is None:
            return cls(error.code, error.message)
        return cls(error.code, Msg(f"illegal.{error.reason}", **error.values))

    def text(self, lang: Language) -> str:
        """The sentence for a member reading ``lang``."""
        return lang.t(self.msg) if isinstance(self.msg, Msg) else self.msg


class UnplayableRules(ValueError):
    """A table's options that cannot be played, and why as a catalog :class:`~bot.i18n.Msg`
    (``str()`` is the English sentence; the commands show :attr:`msg` in the reader's
    language).

    Parameters
    ----------
    msg
        Why, e.g. ``Msg("kalooki.options.honour_jamaican")``.
    """

    def __init__(self, msg: Msg) -> None:
        super().__init__(ENGLISH.t(msg))
        self.msg = msg


def unplayable_reason(error: ValueError, lang: Language = ENGLISH) -> Msg | str:
    """What to tell a member reading ``lang`` about options refused with ``error``.

    An :class:`UnplayableRules` gives its message; an engine's
    :class:`~engine.core.OptionError` its ``reason`` as the catalog message of that id with
    its values, an ``option`` named as the reader's client lists the command's option
    (``puntata`` in Italian: :meth:`bot.i18n.Language.command`); any other error its
    text (a check that has no catalog message).
    """
    if isinstance(error, UnplayableRules):
        return error.msg
    if isinstance(error, OptionError):
        values: dict[str, int | str] = dict(error.values)
        if isinstance(values.get("option"), str):
            values["option"] = lang.command(str(values["option"]))
        return Msg(error.reason, **values)
    return str(error)


STALE = Msg("refusal.stale")
STALE_MESSAGE = ENGLISH.t(STALE)


@dataclass(frozen=True)
class Ref:
    """What a component refers to: table, decision and verb (see the module docstring).

    Attributes
    ----------
    table
        The table id.
    verb
        What the click does (``"join"``, ``"bet"``, ``"lead"`` …); lower case, ``_`` allowed.
    seat, decision
        For a seat's decision: the seat and its engine decision id. For a table-level step:
        ``seat`` None and ``decision`` the step number. Both None: no decision.
    arg
        Optional argument (a card id for ``lead``), ``[0-9A-Za-z_]``, at most 24 characters.
    """

    table: str
    verb: str
    seat: int | None = None
    decision: int | None = None
    arg: str = ""

    @property
    def decision_token(self) -> str:
        """The custom_id's decision field: ``-`` (none), ``t<step>`` or ``<seat>.<id>``."""
        if self.decision is None:
            return "-"
        if self.seat is None:
            return f"t{self.decision}"
        return f"{self.seat}.{self.decision}"

    def custom_id(self, prefix: str = "pl") -> str:
        """The custom_id with ``prefix``; raises ValueError if it would not parse back."""
        text = f"{prefix}:{self.table}:{self.decision_token}:{self.verb}"
        if self.arg:
            text += f":{self.arg}"
        if len(text) > 100 or _pattern(prefix).fullmatch(text) is None:
            raise ValueError(f"not a valid component reference: {text!r}")
        return text

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Ref:
        """Rebuild a reference from a match of :func:`template`."""
        token = match["decision"]
        seat: int | None = None
        decision: int | None = None
        if token.startswith("t"):
            decision = int(token[1:])
        elif token != "-":
            seat_text, decision_text = token.split(".")
            seat, decision = int(seat_text), int(decision_text)
        return cls(match["table"], match["verb"], seat, decision, match["arg"] or "")

    @classmethod
    def parse(cls, custom_id: str, prefix: str = "pl") -> Ref | None:
        """The reference in ``custom_id``, or None if it is not one of ours."""
        match = _pattern(prefix).fullmatch(custom_id)
        return cls.from_match(match) if match else None
