"""A board's log reads in the order things happened: the runtime's notes (timeouts, leaves,
the ending) stand among the game's events where they were made, in every game, and a note
saved before notes kept their place goes last. The final board of a Tripoli session marks
no dealer (no deal comes).

Tables run through the registry without Discord (real SQLite store in ``tmp_path``).
"""

from __future__ import annotations

import json

import pytest
from registries import decide, registry_of

from bot.games import GAMES
from bot.i18n import ENGLISH
from bot.render import kalooki, tripoli, troefcall
from bot.runtime.registry import TableRegistry
from bot.runtime.table import Table, TableState
from bot.store import SqliteStore

GUILD = 10
LOG_LINES = {"tripoli": tripoli.LOG_LINES, "troefcall": troefcall.LOG_LINES,
             "kalooki": kalooki.LOG_LINES}
OPTIONS = {"tripoli": {"bet_limit": 10}, "troefcall": {"stake": 30}, "kalooki": {"stake": 30}}


@pytest.fixture
async def store(tmp_path):
    async with SqliteStore(tmp_path / "parlour.db", starting_chips=1000) as store:
        yield store


@pytest.fixture
def registry(store, tmp_path) -> TableRegistry:
    return registry_of(store, GAMES, tmp_path)


async def started(registry: TableRegistry, game: str, *members: int) -> Table:
    """A ranked table of ``members`` (the first hosts), started."""
    table = registry.open(game, guild_id=GUILD, channel_id=20 + len(registry.by_id),
                          host_id=members[0], host_name=f"m{members[0]}",
                          options={**OPTIONS[game], "pace": "normal"}, buy_in=30)
    for member in members[1:]:
        await registry.join(table, member, f"m{member}")
    await registry.start(table, members[0], is_manager=False)
    return table


def field(registry: TableRegistry, table: Table, name: str) -> list[str]:
    """The lines of the board's field ``name`` (the log is "Log" in every game)."""
    embed = registry.render_board(table).embed
    return next((f.value.splitlines() for f in embed.fields if f.name == name), [])


def noted(table: Table, index: int = -1) -> str:
    return ENGLISH.t(table.notes[index].msg)


def idle_guest(table: Table) -> int:
    """A member who does not host and has no required decision now (the AI does not act at
    once for them when they leave)."""
    deciding = {pending.seat for pending in table.game.pending() if pending.required}
    return next(seat.member_id for index, seat in enumerate(table.seats)
                if seat.member_id not in (None, table.host_id) and index not in deciding)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_leave_stays_before_the_events_that_follow_it(registry, game):
    table = await started(registry, game, 1, 2, 3, 4)
    guest = idle_guest(table)
    await registry.leave(table, guest)
    leave = noted(table, next(n for n, note in enumerate(table.notes)
                              if note.msg.params.get("name") == f"m{guest}"))
    before = field(registry, table, "Log")
    at = before.index(leave)
    for _ in range(200):  # decisions until the board shows an event logged after the leave
        after = field(registry, table, "Log")
        if leave not in after or after.index(leave) < len(after) - 1:
            break
        await decide(registry, table)
    else:
        raise AssertionError("no event was shown after the leave")
    if leave not in after:  # one decision logged more lines than the board shows
        assert len(after) == LOG_LINES[game]
        return
    shown = after[:after.index(leave)]  # the events before it are the ones it followed
    assert shown == before[at - len(shown):at]


async def test_a_timeout_reads_before_the_default_move_it_caused(registry):
    table = await started(registry, "tripoli", 1, 2, 3)
    dealer = table.game.dealer
    logged = table.game.logged
    registry.bot.clock.advance(61)  # the spare hand decision's 60 s
    await registry.fire_due()
    assert table.notes[-1].msg.key == "note.timed_out" and table.game.logged > logged
    log = field(registry, table, "Log")
    assert table.game.log[logged].kind == "spare_kept"  # the move the timeout made
    timed_out = log.index(noted(table))
    assert log[timed_out + 1].startswith(f"m{table.seats[dealer].member_id} keeps")


async def test_the_ending_reads_after_the_leaves_that_caused_it(registry):
    table = await started(registry, "troefcall", 1, 2, 3, 4)
    for member in (1, 2, 3, 4):
        await registry.leave(table, member)
    assert table.state is TableState.OVER
    log = field(registry, table, "Log")
    ended = log.index("The game ended without a winner.")
    assert log[ended - 1] == ENGLISH.t("note.too_few")
    assert log.index("m4 left; AI 4 plays their seat.") < ended


async def test_end_now_reads_before_the_abandoned_deal(registry):
    table = await started(registry, "tripoli", 1, 2, 3)
    guest = idle_guest(table)
    await registry.kick(table, 1, False, guest)
    await registry.end(table, 1, False, abandon=True)
    assert table.state is TableState.OVER
    log = field(registry, table, "Log")
    leaves = log.index(f"m{guest} leaves after this deal; the AI plays their cards.")
    end = log.index("The deal was abandoned; the game ends.")
    assert leaves < end < log.index("Deal 1 abandoned: every chip went back.") \
        < log.index("The session is over.")


async def test_a_note_saved_without_its_place_goes_after_the_events(registry):
    table = await started(registry, "tripoli", 1, 2, 3)
    await registry.leave(table, idle_guest(table))
    for _ in range(3):
        await decide(registry, table)
    leave = noted(table)
    assert field(registry, table, "Log")[-1] != leave
    saved = json.loads(table.snapshot())
    assert [note["at"] for note in saved["notes"]] == [note.at for note in table.notes]
    for note in saved["notes"]:
        del note["at"]  # as an earlier release saved it
    game = table.game
    old = Table.from_snapshot(json.dumps(saved), GAMES, [json.dumps(
        [json.loads(event.model_dump_json()) for event in game.log])])
    assert [note.at for note in old.notes] == [None]
    registry.by_id[old.id] = old
    assert field(registry, old, "Log")[-1] == leave


async def test_the_final_board_of_a_session_marks_no_dealer(registry):
    table = await started(registry, "tripoli", 1, 2, 3)
    assert sum("dealer" in line for line in field(registry, table, "Players")) == 1
    await registry.end(table, 1, False, abandon=True)
    assert table.state is TableState.OVER
    players = field(registry, table, "Players")
    assert len(players) == 3 and not any("dealer" in line for line in players)
