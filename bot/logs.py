"""Logging for ``python -m bot`` and the playground: no secret in any log, at any level.

A table's snapshot holds its session seed, every hand and the spare (DESIGN.md §3–§4), and
libraries print what they handle at DEBUG: ``aiosqlite`` logs each statement with its
parameters (the snapshot), ``discord.http`` logs request payloads (private hands in ephemeral
follow-ups and DMs), ``discord.gateway`` and ``websockets``/``aiohttp`` log frames. Parlour's
own loggers (``parlour.*``) never name a hidden card, so they alone may go below INFO.

The rule, applied by :func:`configure_logging`:

- ``parlour.*`` logs at ``PARLOUR_LOG_LEVEL``;
- every other logger logs at INFO or above (or at ``PARLOUR_LOG_LEVEL`` when that is
  higher): the root logger and the known talkers (:data:`CAPPED`) get that level, so their
  DEBUG records are not even made;
- the root handler carries :class:`ProjectOnly`, which drops any record below INFO that does
  not come from ``parlour.*``, so a library that lowers its own logger's level, or one added
  later, cannot leak either. Tests that capture logs attach the same filter to their handler.

It also carries :class:`NotApplicable`, which drops the few discord.py start-up warnings that
never apply to Parlour (:data:`NOT_APPLICABLE`): it joins no voice channel, so the voice
libraries PyNaCl and davey are not needed, and the bot always has the Guilds intent (the
warning comes from the compatibility probe client the playground's simulator builds on
import). Every other warning, from any logger, is written.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

import discord

PROJECT = "parlour"
"""The logger namespace of Parlour's own code (``logging.getLogger("parlour.tables")`` …)."""

FLOOR = logging.INFO
"""The lowest level any logger outside :data:`PROJECT` is written at."""

CAPPED = ("aiosqlite", "asyncpg", "asyncio", "discord", "websockets", "aiohttp")
"""Third-party loggers known to print statement parameters, payloads or frames below INFO;
:func:`configure_logging` sets them to :data:`FLOOR` explicitly (their children, e.g.
``discord.http`` and ``discord.gateway``, follow)."""


NOT_APPLICABLE = frozenset({
    ("discord.client", "PyNaCl is not installed, voice will NOT be supported"),
    ("discord.client", "davey is not installed, voice will NOT be supported"),
    ("discord.state", "Guilds intent seems to be disabled. This may cause state related issues."),
})
"""``(logger, message)`` of the discord.py warnings :class:`NotApplicable` drops."""


def is_project(name: str) -> bool:
    """True for the logger :data:`PROJECT` and its children (not ``parlourish``)."""
    return name == PROJECT or name.startswith(PROJECT + ".")


class ProjectOnly(logging.Filter):
    """A handler filter: records below :data:`FLOOR` pass only from ``parlour.*`` loggers.

    Records at INFO and above pass from every logger (library warnings and errors stay
    visible); a dropped record is never formatted, so its arguments are never rendered.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= FLOOR or is_project(record.name)


class NotApplicable(logging.Filter):
    """A handler filter: drops exactly the records of :data:`NOT_APPLICABLE` (same logger,
    same message, no arguments); everything else passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        return bool(record.args) or (record.name, record.msg) not in NOT_APPLICABLE


def level_number(level: str | int) -> int:
    """The numeric level of ``"DEBUG"`` … ``"CRITICAL"`` (any case) or of an int.

    Raises
    ------
    ValueError
        For a name :mod:`logging` does not know.
    """
    if isinstance(level, int):
        return level
    number = logging.getLevelName(level.upper())
    if not isinstance(number, int):
        raise ValueError(f"unknown log level {level!r}")
    return number


def configure_logging(level: str | int, *, stream: TextIO | None = None) -> logging.Handler:
    """Log to ``stream`` (default stderr) with the rule of this module.

    Calling it again replaces the handler it installed before (the playground and tests may
    configure twice); handlers installed by others stay.

    Parameters
    ----------
    level
        ``PARLOUR_LOG_LEVEL``: the level of ``parlour.*`` (name or number).
    stream
        Where log lines go; coloured when it is a terminal that supports colour.

    Returns
    -------
    logging.Handler
        The root handler now installed (it carries :class:`ProjectOnly` and
        :class:`NotApplicable`).

    Raises
    ------
    ValueError
        For an unknown level name.
    """
    number = level_number(level)
    others = max(FLOOR, number)
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "_parlour", False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler._parlour = True  # type: ignore[attr-defined]  # marks the handler as ours
    handler.addFilter(ProjectOnly())
    handler.addFilter(NotApplicable())
    discord.utils.setup_logging(handler=handler, level=others, root=True)  # discord's format
    for name in CAPPED:
        logging.getLogger(name).setLevel(others)
    logging.getLogger(PROJECT).setLevel(number)
    return handler
