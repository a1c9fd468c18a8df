"""Log lines rendered once per event and kept: a board shows its last lines again after each
decision, and only the newest events have no line yet.

A line is a function of the event (frozen), the table's language and seats (names), and
whatever else a game's line reads (its ``context``: a rule); :class:`LineCache` keeps lines
under exactly those keys. An event that hashes (its fields do) is its own key, so equal
events share a line (a redacted copy made for each view finds the line of the previous
copy); an event that does not (a dict field) is kept by identity, the cache holding it so
that its id cannot name another event while its line is kept. A table's language and seats
are looked up once per board (:meth:`LineCache.readers`), as a token that stands for them
in the keys of its lines.

:func:`board_log` puts a board's log together: the lines of the game's last events and the
table's runtime notes among them, in the order they happened.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from bot.runtime.spec import TableInfo

LINES_MAX = 16384
"""Lines a cache keeps (about 0.4 KB each with their keys; about 10 per busy table). The
oldest go first."""

READERS_MAX = 4096
"""Tokens of (language, seats) a cache keeps; when full it starts again (lines kept under
older tokens are then only found by those)."""


class LineCache:
    """Lines of events, kept under (event, readers, context); at most ``size`` lines."""

    def __init__(self, size: int = LINES_MAX) -> None:
        self.size = size
        self._lines: dict[tuple[Any, ...], tuple[object, str]] = {}
        self._readers: dict[tuple[Any, ...], object] = {}

    def __len__(self) -> int:
        return len(self._lines)

    def readers(self, table: TableInfo) -> object:
        """The token of ``table``'s language and seats (one per distinct pair)."""
        key = (table.lang, table.seats)
        token = self._readers.get(key)
        if token is None:
            if len(self._readers) >= READERS_MAX:
                self._readers.clear()
            token = self._readers[key] = object()
        return token

    def line(self, readers: object, event: object, render: Callable[[], str],
             *context: Hashable) -> str:
        """``event``'s line for the table of ``readers`` (:meth:`readers`): the kept one,
        else ``render()`` (then kept).

        Parameters
        ----------
        readers
            The token of the table's language and seats.
        event
            The frozen event the line tells.
        render
            Makes the line; called only when no line is kept for this key.
        context
            Everything else the line depends on.
        """
        key: tuple[Any, ...] = (event, readers, *context)
        try:
            hit = self._lines.get(key)
        except TypeError:  # the event does not hash: keep it by identity
            key = (id(event), readers, *context)
            hit = self._lines.get(key)
        if hit is not None:
            return hit[1]
        line = render()
        if len(self._lines) >= self.size:
            del self._lines[next(iter(self._lines))]
        self._lines[key] = (event, line)
        return line


LINES = LineCache()
"""The log lines of every game's boards (their events never equal another game's)."""


def board_log(table: TableInfo, events: Sequence[Any], line: Callable[[Any], str],
              limit: int) -> list[str]:
    """The last ``limit`` lines of a board's log, oldest first: the lines of ``events`` and
    the table's notes, each note after the events logged before it was made.

    Parameters
    ----------
    table
        The table: its notes (:attr:`~bot.runtime.spec.Note.at`) and the game's count of
        logged events (:attr:`~bot.runtime.spec.TableInfo.logged`).
    events
        The last events of the game's log, oldest first (its last is the
        ``table.logged``-th event).
    line
        An event's line, ``""`` for an event the log does not show; called newest first,
        and only until ``limit`` lines are found.
    limit
        The lines wanted.

    Returns
    -------
    list[str]
        At most ``limit`` lines. A note made before the first of ``events`` comes first, one
        without a position (saved before notes kept it) after the last; notes at one place
        keep their order.
    """
    count, first = len(events), table.logged - len(events)
    places = sorted(((count if note.at is None else min(max(note.at - first, 0), count), n)
                     for n, note in enumerate(table.notes)), reverse=True)
    t, index = table.lang.t, count
    lines: list[str] = []
    for place, n in (*places, (0, -1)):  # the notes newest first, then the oldest events
        while index > place and len(lines) < limit:
            index -= 1
            text = line(events[index])
            if text:
                lines.append(text)
        if len(lines) >= limit:
            break
        if n >= 0:
            lines.append(t(table.notes[n].msg))
    return lines[::-1]
