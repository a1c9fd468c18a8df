"""Shard processes: which shards a process hosts, from ``--shards 0-3 --of 8`` or the
environment, and the bot discord.py runs for them (issue 15, item 3)."""

from __future__ import annotations

import os

import pytest
from discord.ext import commands

import bot.__main__ as entry
from bot.app import ParlourBot, ShardedParlourBot, create_bot
from bot.clock import ManualClock
from bot.config import ConfigError, Settings, load_settings
from bot.shards import Shards, parse_ids, shard_of


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch, tmp_path):
    for name in list(os.environ):
        if name.startswith("PARLOUR_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def test_a_guild_is_on_discords_shard():
    assert shard_of(0, 8) == 0
    assert shard_of(5 << 22, 8) == 5
    assert shard_of((13 << 22) + 12345, 8) == 5
    assert Shards((4, 5), 8).hosts(5 << 22) and not Shards((4, 5), 8).hosts(3 << 22)


@pytest.mark.parametrize(("text", "ids"), [
    ("0-3", (0, 1, 2, 3)), ("5", (5,)), ("0-1,4,6-7", (0, 1, 4, 6, 7)), (" 2 , 0 ", (0, 2)),
])
def test_shard_ids_are_read_as_ranges(text, ids):
    assert parse_ids(text) == ids


@pytest.mark.parametrize("text", ["", "a", "3-1", "0-", "1,1", "0-2,2"])
def test_bad_shard_ids_are_refused(text):
    with pytest.raises(ValueError):
        parse_ids(text)


@pytest.mark.parametrize(("ids", "count"), [((), 2), ((2,), 2), ((1, 0), 2), ((0,), 0)])
def test_shards_outside_the_count_are_refused(ids, count):
    with pytest.raises(ValueError):
        Shards(ids, count)


def test_the_environment_names_the_shards(monkeypatch):
    monkeypatch.setenv("PARLOUR_SHARDS", "4-7")
    monkeypatch.setenv("PARLOUR_SHARD_COUNT", "8")
    assert load_settings().hosted_shards == Shards((4, 5, 6, 7), 8)


def test_a_count_alone_hosts_every_shard_and_nothing_means_no_sharding(monkeypatch):
    assert load_settings().hosted_shards is None
    monkeypatch.setenv("PARLOUR_SHARD_COUNT", "3")
    assert load_settings().hosted_shards == Shards((0, 1, 2), 3)


@pytest.mark.parametrize(("variables", "budget"), [
    ({}, 45),
    ({"PARLOUR_SHARD_COUNT": "8"}, 45),
    ({"PARLOUR_SHARDS": "0-1", "PARLOUR_SHARD_COUNT": "8"}, 11),
    ({"PARLOUR_SHARDS": "3", "PARLOUR_SHARD_COUNT": "4", "PARLOUR_BOARD_EDIT_BUDGET": "50"}, 12),
    ({"PARLOUR_SHARDS": "7", "PARLOUR_SHARD_COUNT": "100", "PARLOUR_BOARD_EDIT_BUDGET": "10"}, 1),
])
def test_a_shard_process_takes_its_shards_share_of_the_edit_budget(monkeypatch, variables,
                                                                    budget):
    """The budget is the bot token's, so the processes of one bot together keep within it."""
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert load_settings().process_edit_budget == budget


@pytest.mark.parametrize(("variables", "words"), [
    ({"PARLOUR_SHARDS": "0-3"}, "PARLOUR_SHARD_COUNT"),
    ({"PARLOUR_SHARDS": "6-9", "PARLOUR_SHARD_COUNT": "8"}, "0..7"),
    ({"PARLOUR_SHARD_COUNT": "0"}, "greater than or equal to 1"),
])
def test_bad_shard_settings_name_the_variable(monkeypatch, variables, words):
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as refused:
        load_settings()
    assert words in str(refused.value)
    assert str(refused.value).startswith(("PARLOUR_SHARDS:", "PARLOUR_SHARD_COUNT:"))


def test_the_command_line_runs_one_shard_process(monkeypatch):
    ran: list[Settings] = []
    monkeypatch.setattr(entry, "run", lambda settings: ran.append(settings) or 0)
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    assert entry.main(["--shards", "0-3", "--of", "8"]) == 0
    [settings] = ran
    assert settings.hosted_shards == Shards((0, 1, 2, 3), 8)


def test_a_bad_command_line_shard_is_refused_before_anything_starts(monkeypatch, capsys):
    monkeypatch.setattr(entry, "run", lambda settings: pytest.fail("the bot started"))
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    assert entry.main(["--shards", "8", "--of", "8"]) == 1
    assert "PARLOUR_SHARDS: " in capsys.readouterr().err


def test_a_sharded_bot_connects_only_its_shards():
    sharded = create_bot(Settings(_env_file=None, shards="2-3", shard_count=4),
                         clock=ManualClock())
    assert isinstance(sharded, ShardedParlourBot)
    assert isinstance(sharded, commands.AutoShardedBot)
    assert (sharded.shard_ids, sharded.shard_count) == ([2, 3], 4)
    plain = create_bot(Settings(_env_file=None), clock=ManualClock())
    assert type(plain) is ParlourBot
    assert not isinstance(plain, commands.AutoShardedBot)
