"""The logging rule of :mod:`bot.logs`: below INFO only ``parlour.*`` is written."""

from __future__ import annotations

import io
import logging

import pytest

from bot.logs import CAPPED, PROJECT, configure_logging, is_project, level_number

SNAPSHOT = '{"seed": "00ff", "game": "{\\"hands\\":[[1,2,3]]}"}'


@pytest.fixture
def restored():
    """Put the root logger and the capped loggers back as they were."""
    root = logging.getLogger()
    names = [PROJECT, *CAPPED, "newlib", "parlourish"]
    handlers, level = list(root.handlers), root.level
    levels = [logging.getLogger(name).level for name in names]
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, old in zip(names, levels, strict=True):
        logging.getLogger(name).setLevel(old)


def test_below_info_only_parlour_is_written_even_when_a_library_lowers_its_level(restored):
    out = io.StringIO()
    configure_logging("DEBUG", stream=out)
    assert logging.getLogger("parlour.tables").isEnabledFor(logging.DEBUG)
    for name in ("aiosqlite", "discord.http", "discord.gateway", "asyncio", "websockets"):
        assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), name
    logging.getLogger("parlour.tables").debug("table %s saved", "abc123")
    logging.getLogger("aiosqlite").setLevel(logging.DEBUG)  # a library asks for DEBUG itself
    logging.getLogger("aiosqlite").debug("executing %s", SNAPSHOT)
    logging.getLogger("newlib").setLevel(logging.DEBUG)  # one nobody listed
    logging.getLogger("newlib").debug("payload %s", SNAPSHOT)
    logging.getLogger("parlourish").setLevel(logging.DEBUG)
    logging.getLogger("parlourish").debug("not ours %s", SNAPSHOT)
    logging.getLogger("aiosqlite").warning("exception occurred while closing connection")
    text = out.getvalue()
    assert "table abc123 saved" in text and "closing connection" in text
    assert "hands" not in text and "00ff" not in text


def test_configuring_again_replaces_the_handler_and_higher_levels_cap_everyone(restored):
    root = logging.getLogger()
    first = configure_logging("DEBUG", stream=io.StringIO())
    second = configure_logging("warning", stream=io.StringIO())
    assert second in root.handlers and first not in root.handlers
    assert not logging.getLogger("parlour.tables").isEnabledFor(logging.INFO)
    assert not logging.getLogger("discord").isEnabledFor(logging.INFO)
    assert root.level == logging.WARNING


def test_names_and_levels():
    assert is_project("parlour") and is_project("parlour.tables")
    assert not is_project("parlourish") and not is_project("discord")
    assert level_number("debug") == logging.DEBUG and level_number(30) == 30
    with pytest.raises(ValueError, match="loud"):
        level_number("loud")
