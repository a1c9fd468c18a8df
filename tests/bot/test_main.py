"""``python -m bot``: without a token or with bad settings a friendly explanation, status 1;
logging that never writes discord.py's request payloads."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import configure_logging, parse

ROOT = Path(__file__).parents[2]


def run_bot(tmp_path, *arguments, **variables):
    """Run ``python -m bot *arguments`` in an empty folder (no .env) with ``variables`` set."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("PARLOUR_") and name != "DISCORD_TOKEN"
    }
    environment.update(variables, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "bot", *arguments],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_token_it_explains_how_to_get_one(tmp_path):
    finished = run_bot(tmp_path)
    assert finished.returncode == 1
    text = finished.stderr
    assert "DISCORD_TOKEN" in text
    assert "https://discord.com/developers/applications" in text
    assert "scope=bot+applications.commands" in text
    # View Channel 1<<10, Send Messages 1<<11, Embed Links 1<<14, Attach Files 1<<15 (the
    # board's picture), Read Message History 1<<16, Create Public Threads 1<<35 and Send
    # Messages in Threads 1<<38 (thread:True); no Manage Messages 1<<13
    wanted = sum(1 << bit for bit in (10, 11, 14, 15, 16, 35, 38))
    assert f"permissions={wanted}" in text
    assert "python -m bot playground" in text
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize(
    "variable, value", [("PARLOUR_SYNC", "everywhere"), ("PARLOUR_BUY_IN", "-3")]
)
def test_bad_settings_are_named_before_anything_starts(tmp_path, variable, value):
    finished = run_bot(tmp_path, DISCORD_TOKEN="not-used", **{variable: value})
    assert finished.returncode == 1
    assert f"{variable}: " in finished.stderr
    assert ".env.example" in finished.stderr


def test_playground_refuses_bad_member_names(tmp_path):
    finished = run_bot(tmp_path, "playground", "--members", "alice,alice", "--no-browser")
    assert finished.returncode == 2
    assert "--members: member names must differ" in finished.stderr
    assert not (tmp_path / "data").exists()


def test_help_names_the_playground(tmp_path):
    finished = run_bot(tmp_path, "--help")
    assert finished.returncode == 0
    assert "playground" in finished.stdout


def test_debug_logging_never_reaches_discord_http_payloads():
    """At DEBUG, discord.http would log request bodies (private hands); it stays at INFO."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        configure_logging("DEBUG")
        assert logging.getLogger("parlour.tables").isEnabledFor(logging.DEBUG)
        assert not logging.getLogger("discord.http").isEnabledFor(logging.DEBUG)
        assert logging.getLogger("discord.http").isEnabledFor(logging.INFO)
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        logging.getLogger("discord").setLevel(logging.NOTSET)


def test_the_playground_takes_the_language_it_is_started_for(capsys):
    assert parse(["playground", "--language", "fa"]).language == "fa"
    assert parse(["playground"]).language is None
    with pytest.raises(SystemExit):
        parse(["playground", "--language", "xx"])
    assert "invalid choice: 'xx'" in capsys.readouterr().err
