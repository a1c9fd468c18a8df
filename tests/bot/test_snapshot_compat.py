"""Tables saved by earlier releases (snapshot versions 1, 2 and 3) restore and play on.

The ``tripoli_v1_*`` snapshots in ``tests/bot/snapshots/`` were written by the 0.1 runtime: a
casual italian lobby, and a ranked classic table of three members in the poker selection (the
dealer kept; 300 chips in escrow). The ``*_v3_playing`` ones were written by the runtime of
version 3 (the game's rules and log inside every snapshot): a casual trinidad Kalooki table
of a member and two AI seats in a discard's call window, and a Troefcall table of four
members in the tricks. Restored by today's registry, they keep their seats, stakes and
decisions; the next change saves them as the current version.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from registries import registry_of

from bot.games import GAMES
from bot.runtime.refs import Ref
from bot.runtime.registry import TableRegistry
from bot.runtime.table import SNAPSHOT_VERSION, TableState
from bot.store import ChipMove, SqliteStore, TableWrite
from engine.tripoli.phases import Phase

SNAPSHOTS = Path(__file__).with_name("snapshots")
GUILD = 10
START = 1000


@pytest.fixture
async def store(tmp_path):
    async with SqliteStore(tmp_path / "parlour.db", starting_chips=START) as store:
        yield store


async def saved_by_the_previous_release(store: SqliteStore, name: str, moves=()) -> dict:
    text = (SNAPSHOTS / name).read_text()
    data = json.loads(text)
    assert data["version"] == 1
    await store.commit_table(TableWrite(data["id"], data["guild_id"], data["channel_id"], text,
                                        tuple(moves)))
    return data


class Board:
    """Stands in for the bot's edits: the restored boards are edited with the bot token."""

    async def edit_message(self, channel_id: int, message_id: int, **message: object) -> None:
        assert "embed" in message


def registry_on(store: SqliteStore, tmp_path) -> TableRegistry:
    board = Board()
    return registry_of(store, GAMES, tmp_path,
                       edit_message=board.edit_message)


async def test_a_ranked_table_mid_deal_restores_and_plays_on(store, tmp_path):
    buy_ins = [ChipMove("escrow", member, 100, "buy_in") for member in (1, 2, 3)]
    data = await saved_by_the_previous_release(store, "tripoli_v1_playing.json", buy_ins)
    registry = registry_on(store, tmp_path)
    await registry.restore()
    table = registry.by_id[data["id"]]
    assert table.state is TableState.PLAYING and table.ranked
    assert [seat.member_id for seat in table.seats] == [1, 2, 3]
    assert table.game.phase is Phase.SELECT and table.board_message_id == 555
    assert await store.table_escrow(table.id) == table.game.total_chips() == 300
    for seat in sorted(table.game.to_act):
        member = table.seats[seat].member_id
        await registry.act(table, member, Ref(table.id, "best", seat, table.game.decision_id(seat)))
    assert table.game.phase is not Phase.SELECT
    [(_id, _guild, _channel, text)] = await store.load_tables()
    saved = json.loads(text)
    assert saved["version"] == SNAPSHOT_VERSION and saved["game"]["phase"] != "select"
    await registry.end(table, 1, False, abandon=True)
    while table.state is TableState.PLAYING:  # the leftover round, by timeouts
        registry.bot.clock.advance(130)
        await registry.fire_due()
    balances = [await store.balance(GUILD, member) for member in (1, 2, 3)]
    assert sum(balances) == 3 * START and await store.table_escrow(table.id) == 0
    [(result, _id)] = await store.results(GUILD, "tripoli")
    assert result.ranked and [seat.user_id for seat in result.seats] == [1, 2, 3]
    await registry.close()


async def test_a_lobby_restores_with_its_ai_seat_and_options(store, tmp_path):
    data = await saved_by_the_previous_release(store, "tripoli_v1_lobby.json")
    registry = registry_on(store, tmp_path)
    await registry.restore()
    table = registry.by_id[data["id"]]
    assert table.state is TableState.LOBBY and not table.ranked
    assert table.options["preset"] == "italian" and table.buy_in == 50
    assert [seat.ai for seat in table.seats] == [False, True]
    await registry.add_ai(table, 4, is_manager=False)  # italian is played by 3 or more
    await registry.start(table, 4, is_manager=False)
    assert table.game.rules.name == "italian" and await store.table_escrow(table.id) == 0
    await registry.close()


async def test_a_version_2_snapshot_with_the_game_as_a_string_restores(store, tmp_path):
    data = await saved_by_the_previous_release(store, "tripoli_v1_playing.json")
    registry = registry_on(store, tmp_path)
    await registry.restore()
    table = registry.by_id[data["id"]]
    game = table.game.model_dump_json()
    version_2 = json.loads(table.snapshot())
    version_2.update(version=2, game=game)  # as the previous runtime wrote it
    del version_2["rules"]
    await registry.close()
    await store.commit_table(TableWrite(data["id"], data["guild_id"], data["channel_id"],
                                        json.dumps(version_2), ()))
    registry = registry_on(store, tmp_path)
    await registry.restore()
    restored = registry.by_id[data["id"]]
    assert restored.game.model_dump_json() == game
    saved = json.loads(restored.snapshot(registry.rules(restored)))
    assert saved["rules"] == "options"  # built again from the options at load
    assert saved["game"] == {key: value for key, value in json.loads(game).items()
                             if key not in ("log", "rules")}
    await registry.close()


async def saved_as_version_3(store: SqliteStore, name: str) -> dict:
    text = (SNAPSHOTS / name).read_text()
    data = json.loads(text)
    assert data["version"] == 3 and data["game"]["rules"] and data["game"]["log"]
    await store.commit_table(TableWrite(data["id"], data["guild_id"], data["channel_id"], text))
    return data


@pytest.mark.parametrize("name", ["kalooki_v3_playing.json", "troefcall_v3_playing.json"])
async def test_a_version_3_table_restores_plays_on_and_restores_again(store, tmp_path, name):
    data = await saved_as_version_3(store, name)
    registry = registry_on(store, tmp_path)
    await registry.restore()
    table = registry.by_id[data["id"]]
    assert table.state is TableState.PLAYING and table.board_message_id == data[
        "board_message_id"]
    assert table.game.rules.model_dump(mode="json") == data["game"]["rules"]
    assert [event.model_dump(mode="json") for event in table.game.log] == data["game"]["log"]
    decisions = {seat: table.game.decision_id(seat) for seat in range(table.game.seats)}
    for _ in range(6):  # the members' decisions time out: the table plays on
        registry.bot.clock.advance(200)
        await registry.fire_due()
    assert decisions != {seat: table.game.decision_id(seat) for seat in range(table.game.seats)}
    [(_id, _guild, _channel, text)] = await store.load_tables()
    assert json.loads(text)["version"] == SNAPSHOT_VERSION
    live = table.game.model_dump_json()
    await registry.close()
    again = registry_on(store, tmp_path)
    await again.restore()
    assert again.by_id[data["id"]].game.model_dump_json() == live
    await again.close()
