"""Settings: defaults, environment and .env parsing, and clear errors (DESIGN.md §5)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, env_name, load_settings


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch, tmp_path):
    """No PARLOUR_* or DISCORD_TOKEN from the machine, and no .env in the working folder."""
    for name in list(os.environ):
        if name.startswith("PARLOUR_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def test_defaults_follow_the_design():
    settings = load_settings()
    assert settings.discord_token is None
    assert settings.database == "data/parlour.db"
    assert settings.sync == "global"
    assert settings.sync_guild_id is None
    assert (settings.starting_chips, settings.daily_chips, settings.buy_in) == (1000, 100, 100)
    assert settings.board_edit_interval == 1.0
    assert settings.log_level == "INFO"
    assert settings.database_pool == 10


def test_environment_variables_are_read(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", " secret-token ")
    monkeypatch.setenv("PARLOUR_DATABASE_URL", "postgresql://parlour@db/parlour")
    monkeypatch.setenv("PARLOUR_SYNC", "123456789012345678")
    monkeypatch.setenv("PARLOUR_STARTING_CHIPS", "500")
    monkeypatch.setenv("PARLOUR_DAILY_CHIPS", "25")
    monkeypatch.setenv("PARLOUR_BUY_IN", "40")
    monkeypatch.setenv("PARLOUR_AI_DELAY", "0.5")
    monkeypatch.setenv("PARLOUR_BOARD_EDIT_INTERVAL", "0")
    monkeypatch.setenv("PARLOUR_LOG_LEVEL", "debug")
    monkeypatch.setenv("PARLOUR_DATABASE_POOL", "25")
    settings = load_settings()
    assert settings.discord_token.get_secret_value() == "secret-token"
    assert "secret-token" not in repr(settings)
    assert settings.database == "postgresql://parlour@db/parlour"
    assert settings.sync == 123456789012345678
    assert settings.sync_guild_id == 123456789012345678
    assert (settings.starting_chips, settings.daily_chips, settings.buy_in) == (500, 25, 40)
    assert (settings.ai_delay, settings.board_edit_interval) == (0.5, 0.0)
    assert settings.log_level == "DEBUG"
    assert settings.database_pool == 25


@pytest.mark.parametrize("text, expected", [("global", "global"), (" OFF ", "off"), ("42", 42)])
def test_sync_accepts_global_off_or_a_guild_id(monkeypatch, text, expected):
    monkeypatch.setenv("PARLOUR_SYNC", text)
    assert load_settings().sync == expected


def test_dotenv_file_is_read_and_the_environment_wins(monkeypatch, tmp_path):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nPARLOUR_BUY_IN=70\nOTHER=ignored\n")
    monkeypatch.setenv("PARLOUR_BUY_IN", "80")
    settings = load_settings()
    assert settings.discord_token.get_secret_value() == "from-file"
    assert settings.buy_in == 80


def test_blank_token_counts_as_missing(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "   ")
    assert load_settings().discord_token is None


def test_keyword_arguments_override_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("PARLOUR_SYNC", "off")
    settings = Settings(database=tmp_path / "t.db", sync="global", ai_delay=0)
    assert (settings.database, settings.sync, settings.ai_delay) == (
        str(tmp_path / "t.db"), "global", 0)


def test_the_older_database_variable_is_still_read(monkeypatch):
    monkeypatch.setenv("PARLOUR_DATABASE", "/srv/parlour/chips.db")
    assert load_settings().database == "/srv/parlour/chips.db"


@pytest.mark.parametrize(
    "name, value, words",
    [
        ("PARLOUR_SYNC", "gloabl", "'global', 'off' or a guild id"),
        ("PARLOUR_SYNC", "-5", "'global', 'off' or a guild id"),
        ("PARLOUR_SYNC", "0", "a guild id is a positive number"),
        ("PARLOUR_STARTING_CHIPS", "1e3", "valid integer"),
        ("PARLOUR_STARTING_CHIPS", "-1", "greater than or equal to 0"),
        ("PARLOUR_DAILY_CHIPS", "0", "greater than or equal to 1"),
        ("PARLOUR_DATABASE_POOL", "0", "greater than or equal to 1"),
        ("PARLOUR_BUY_IN", "abc", "valid integer"),
        ("PARLOUR_AI_DELAY", "-0.5", "greater than or equal to 0"),
        ("PARLOUR_AI_DELAY", "nan", "finite"),
        ("PARLOUR_BOARD_EDIT_INTERVAL", "3600", "less than or equal to 60"),
        ("PARLOUR_LOG_LEVEL", "verbose", "'DEBUG', 'INFO'"),
    ],
)
def test_bad_values_are_refused_naming_the_variable(monkeypatch, name, value, words):
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as refused:
        load_settings()
    message = str(refused.value)
    assert message.startswith(f"{name}: ")
    assert words in message
    assert value.strip().upper() in message.upper()


def test_every_bad_variable_is_reported_at_once(monkeypatch):
    monkeypatch.setenv("PARLOUR_BUY_IN", "0")
    monkeypatch.setenv("PARLOUR_LOG_LEVEL", "loud")
    with pytest.raises(ConfigError) as refused:
        load_settings()
    lines = str(refused.value).splitlines()
    assert sorted(line.split(":")[0] for line in lines) == ["PARLOUR_BUY_IN", "PARLOUR_LOG_LEVEL"]


def test_dotenv_example_documents_every_setting():
    example = (Path(__file__).parents[2] / ".env.example").read_text()
    for field in Settings.model_fields:
        assert f"\n{env_name(field)}=" in example, field


def test_dotenv_example_values_are_valid(tmp_path):
    example = Path(__file__).parents[2] / ".env.example"
    (tmp_path / ".env").write_text(example.read_text())
    settings = load_settings()
    assert settings.discord_token is None
    assert settings == Settings(_env_file=None)


@pytest.mark.parametrize("cores, workers", [({0}, 0), ({0, 1}, 1), (set(range(8)), 1)])
def test_pictures_get_one_worker_process_when_the_machine_has_more_cores(
        monkeypatch, cores, workers):
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: cores)
    assert load_settings().picture_workers == workers
    monkeypatch.setenv("PARLOUR_PICTURE_WORKERS", " ")  # blank, as .env.example has it
    assert load_settings().picture_workers == workers


def test_picture_workers_are_read_and_never_negative(monkeypatch):
    monkeypatch.setenv("PARLOUR_PICTURE_WORKERS", "3")
    assert load_settings().picture_workers == 3
    monkeypatch.setenv("PARLOUR_PICTURE_WORKERS", "0")
    assert load_settings().picture_workers == 0
    monkeypatch.setenv("PARLOUR_PICTURE_WORKERS", "-1")
    with pytest.raises(ConfigError, match=r"^PARLOUR_PICTURE_WORKERS: .*greater than or equal"):
        load_settings()
