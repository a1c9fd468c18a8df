"""The table runtime without Discord: lobby, escrow, decisions under the lock, races.

Real SQLite store in ``tmp_path``; the bot is a stand-in with the store and settings (no
board message, so no Discord call is made). Races use ``asyncio.gather`` on the runtime's
own operations (cases C05, C06, C15 and the bet half of C08 in
cases/discord-table-faults.md).
"""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import pytest
from registries import registry_of

from bot.clock import ManualClock
from bot.config import Settings
from bot.games import GAMES
from bot.i18n import ENGLISH
from bot.runtime import pace
from bot.runtime.interactions import parse_amount
from bot.runtime.refs import STALE_MESSAGE, Ref, Refusal
from bot.runtime.registry import TableRegistry
from bot.runtime.table import Table, TableState
from bot.store import SqliteStore, StoreError
from cogs.chips import parse_chips
from engine.tripoli.phases import Phase

GUILD, CHANNEL = 10, 20
ANN, BEN, CAT, DAN = 1, 2, 3, 4
START = 1000


@pytest.fixture
async def store(tmp_path):
    async with SqliteStore(tmp_path / "parlour.db", starting_chips=START) as store:
        yield store


@pytest.fixture
def registry(store, tmp_path) -> TableRegistry:
    return registry_of(store, GAMES, tmp_path)


async def lobby(registry: TableRegistry, *members: int, buy_in: int = 100,
                bet_limit: int = 10, pace: str = "normal") -> Table:
    """A Tripoli lobby of ``members`` (the first is the host), at the ``normal`` pace (the
    game's own seconds per decision) unless told."""
    table = registry.open("tripoli", guild_id=GUILD, channel_id=CHANNEL, host_id=members[0],
                          host_name=f"m{members[0]}",
                          options={"bet_limit": bet_limit, "pace": pace}, buy_in=buy_in)
    for member in members[1:]:
        await registry.join(table, member, f"m{member}")
    return table


async def started(registry: TableRegistry, *members: int, **options: Any) -> Table:
    table = await lobby(registry, *members, **options)
    await registry.start(table, members[0], is_manager=False)
    return table


def member_of(table: Table, seat: int) -> int:
    member = table.seats[seat].member_id
    assert member is not None
    return member


def ref(table: Table, verb: str, seat: int, arg: str = "") -> Ref:
    """The reference a component of ``seat``'s current decision carries."""
    return Ref(table.id, verb, seat, table.game.decision_id(seat), arg)


async def to_betting(registry: TableRegistry, table: Table) -> int:
    """Dealer keeps, everybody takes their best five; returns the seat to bet."""
    dealer = table.game.dealer
    await registry.act(table, member_of(table, dealer), ref(table, "keep", dealer))
    for seat in sorted(table.game.to_act):
        await registry.act(table, member_of(table, seat), ref(table, "best", seat))
    assert table.game.phase is Phase.BETTING
    [seat] = table.game.to_act
    return seat


async def finish_deal(registry: TableRegistry, table: Table) -> None:
    """Answer every decision with the game's timeout default, through the runtime's refs."""
    while table.game.phase is not Phase.BETWEEN_DEALS:
        seat = min(table.game.to_act)
        action = table.game.timeout_action(seat)
        verb = "best" if action.kind == "select" else action.kind
        arg = str(int(action.card)) if action.kind == "lead" else ""
        await registry.act(table, member_of(table, seat), ref(table, verb, seat, arg))


async def balances(store: SqliteStore, *members: int) -> list[int]:
    return [await store.balance(GUILD, member) for member in members]


# ---------------------------------------------------------------------- lobby and chips


async def test_one_table_per_channel(registry):
    table = await lobby(registry, ANN, BEN)
    with pytest.raises(Refusal) as refused:
        registry.open("tripoli", guild_id=GUILD, channel_id=CHANNEL, host_id=CAT,
                      host_name="c", options={}, buy_in=100)
    assert refused.value.code == "busy" and table.id in refused.value.message
    assert registry.by_channel[CHANNEL] is table and len(registry.by_id) == 1


async def test_start_escrows_every_buy_in_and_a_short_member_blocks_it(registry, store):
    table = await lobby(registry, ANN, BEN, CAT, buy_in=600)
    await store.transfer(GUILD, CAT, ANN, 500)  # Cat keeps 500 < 600
    before = await balances(store, ANN, BEN, CAT)
    with pytest.raises(Refusal) as refused:
        await registry.start(table, ANN, is_manager=False)
    assert refused.value.code == "chips" and "m3" in refused.value.message
    assert await balances(store, ANN, BEN, CAT) == before
    assert await store.table_escrow(table.id) == 0 and table.state is TableState.LOBBY
    await store.transfer(GUILD, ANN, CAT, 100)
    await registry.start(table, ANN, is_manager=False)
    assert await balances(store, ANN, BEN, CAT) == [1500 - 100 - 600, 400, 0]
    assert await store.table_escrow(table.id) == 1800 == table.game.total_chips()


async def test_a_member_short_of_the_buy_in_between_deals_is_named(registry, store):
    table = await lobby(registry, ANN, BEN, buy_in=600)
    await registry.start(table, ANN, is_manager=False)
    await finish_deal(registry, table)
    await store.transfer(GUILD, DAN, ANN, 500)  # Dan keeps 500 < 600
    seats, before = list(table.seats), await balances(store, ANN, BEN, DAN)
    with pytest.raises(Refusal) as refused:
        await registry.join(table, DAN, "m4")
    assert refused.value.code == "chips"
    assert refused.value.message.startswith("m4 needs 600 chips for the buy-in and has 500")
    assert table.seats == seats and await balances(store, ANN, BEN, DAN) == before


async def test_only_the_host_or_a_manager_starts_adds_ai_and_cancels(registry):
    table = await lobby(registry, ANN, BEN)
    for operation in (registry.start, registry.add_ai, registry.cancel):
        with pytest.raises(Refusal) as refused:
            await operation(table, BEN, False)
        assert refused.value.code == "not_host"
    assert table.state is TableState.LOBBY and len(table.seats) == 2
    await registry.add_ai(table, BEN, True)  # Manage Channels
    assert not table.ranked and table.seats[2].ai


async def test_racing_start_clicks_start_once_and_escrow_once(registry, store):
    table = await lobby(registry, ANN, BEN)
    results = await asyncio.gather(
        registry.start(table, ANN, False), registry.start(table, BEN, True),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["NoneType", "Refusal"]
    assert [r.code for r in results if isinstance(r, Refusal)] == ["started"]
    assert await store.table_escrow(table.id) == 200
    assert await balances(store, ANN, BEN) == [900, 900]


async def test_casual_table_moves_no_member_chips(registry, store):
    table = await lobby(registry, ANN, BEN)
    await registry.add_ai(table, ANN, False)
    await registry.start(table, ANN, False)
    assert await balances(store, ANN, BEN) == [START, START]
    assert await store.table_escrow(table.id) == 0
    assert table.game.total_chips() == 300
    assert not any(table.seats[s].ai for s in table.game.to_act)  # the AI already acted


async def test_join_and_leave_between_deals_escrow_and_settle(registry, store):
    table = await started(registry, ANN, BEN)
    with pytest.raises(Refusal) as refused:
        await registry.join(table, CAT, "m3")
    assert refused.value.code == "mid_deal"
    await finish_deal(registry, table)
    await registry.join(table, CAT, "m3")
    assert table.seat_of(CAT) == 2 and table.game.stacks[2] == 100
    assert await balances(store, CAT) == [START - 100]
    ben_stack = table.game.stacks[table.seat_of(BEN)]
    await registry.leave(table, BEN)
    assert table.seat_of(BEN) is None and table.game.stacks[1] is None
    assert await balances(store, BEN) == [START - 100 + ben_stack]
    assert await store.table_escrow(table.id) == table.game.total_chips()
    await registry.end(table, ANN, False, abandon=False)
    while table.state is not TableState.OVER:
        seat = min(table.game.to_act)
        verb = table.game.timeout_action(seat).kind
        await registry.act(table, member_of(table, seat), ref(table, verb, seat))
    assert await store.table_escrow(table.id) == 0
    assert sum(await balances(store, ANN, BEN, CAT)) == 3 * START
    assert CHANNEL not in registry.by_channel and table.id not in registry.by_id


async def test_leaving_mid_deal_takes_effect_after_the_deal(registry, store):
    table = await started(registry, ANN, BEN, CAT)
    await registry.leave(table, CAT)
    assert table.seats[2].leaving and table.seat_of(CAT) == 2
    await finish_deal(registry, table)
    assert table.seat_of(CAT) is None and table.seats[2].left
    assert await store.table_escrow(table.id) == table.game.total_chips()


# ---------------------------------------------------------------------- decisions


async def test_double_click_applies_once_and_the_other_is_stale(registry):
    table = await started(registry, ANN, BEN, CAT)
    dealer = table.game.dealer
    member, keep = member_of(table, dealer), ref(table, "keep", dealer)
    log_before = len(table.game.log)
    results = await asyncio.gather(
        registry.act(table, member, keep), registry.act(table, member, keep),
        return_exceptions=True,
    )
    applied = [r for r in results if r == dealer]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(applied) == 1 and [r.code for r in refused] == ["stale"]
    assert refused[0].message == STALE_MESSAGE
    kinds = [e.kind for e in table.game.log[log_before:]]
    assert kinds.count("spare_kept") == 1


async def test_racing_different_answers_to_one_decision_apply_one(registry):
    table = await started(registry, ANN, BEN, CAT)
    dealer = table.game.dealer
    member = member_of(table, dealer)
    results = await asyncio.gather(
        registry.act(table, member, ref(table, "keep", dealer)),
        registry.act(table, member, ref(table, "exchange", dealer)),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Refusal) and r.code == "stale" for r in results) == 1
    kinds = [e.kind for e in table.game.log]
    assert kinds.count("spare_kept") + kinds.count("spare_exchanged") == 1


async def test_two_members_race_for_next_deal(registry):
    table = await started(registry, ANN, BEN, CAT)
    await finish_deal(registry, table)
    deal = table.game.deal_number
    next_deal = Ref(table.id, "next", None, deal)
    results = await asyncio.gather(
        registry.next_deal(table, ANN, next_deal), registry.next_deal(table, BEN, next_deal),
        return_exceptions=True,
    )
    assert [r.code for r in results if isinstance(r, Refusal)] == ["stale"]
    assert table.game.deal_number == deal + 1


async def test_refusals_change_nothing(registry, store):
    table = await started(registry, ANN, BEN, CAT)
    game = table.game
    dealer = game.dealer
    other = next(s for s in range(3) if s != dealer)
    snapshot = game.model_dump_json()
    cases = [
        (DAN, ref(table, "keep", dealer), "not_seated"),  # not seated
        (member_of(table, other), ref(table, "keep", dealer), "not_your_turn"),  # board button
        (member_of(table, other), ref(table, "keep", other), "stale"),  # no decision pending
        (member_of(table, dealer), Ref(table.id, "keep", dealer, game.decision_id(dealer) - 1),
         "stale"),  # an old control
        (member_of(table, dealer), ref(table, "bid", dealer), "illegal"),  # not an option now
        (member_of(table, dealer), ref(table, "shout", dealer), "illegal"),  # unknown verb
    ]
    for member, reference, code in cases:
        with pytest.raises(Refusal) as refused:
            await registry.act(table, member, reference, (), 5)
        assert refused.value.code == code, (reference, refused.value)
        assert game.model_dump_json() == snapshot
    assert await store.table_escrow(table.id) == 300


@pytest.mark.parametrize(
    "text", ["abc", "-3", "1e3", "10a", "2.5", "", " ", "+4", "0x5", "۳.5", "0x10", "1_0",
             "+3", "3.0", "-0", "１e３", "－５", "３．０"]
)
def test_amounts_are_digits_only(text):
    with pytest.raises(Refusal) as refused:
        parse_amount(text)
    assert refused.value.code == "bad_amount"


@pytest.mark.parametrize("text", ["۱۲", "١٢", " 12 ", "۱2", "１２", "１2", "१२", "𝟏𝟐",
                                  "\u200f۱۲", "۱۲\u200e", "\u061c١٢", "\u2067۱۲\u2069"])
def test_every_scripts_decimal_digits_are_amounts(text):
    """Persian, Arabic-Indic, full-width, Devanagari, mathematical digits: all decimal; the
    invisible direction marks a Persian or Arabic keyboard adds are no part of the amount."""
    assert parse_amount(text) == 12
    assert parse_chips(text, ENGLISH) == 12  # /chips reads amounts the same way


@pytest.mark.parametrize("text", ["99999999999", "9" * 20, "1" + "0" * 9, "0" * 5000 + "1" * 10])
def test_too_many_digits_are_over_the_limit_not_garbage(text):
    with pytest.raises(Refusal) as refused:
        parse_amount(text)
    assert refused.value.code == "over_limit"
    assert "limit" in refused.value.message and "whole number" not in refused.value.message


def test_amount_parsing_accepts_plain_digits():
    assert parse_amount(" 7 ") == 7 and parse_amount("10") == 10
    assert parse_amount("0007") == 7 and parse_amount("999999999") == 999_999_999


async def test_bad_bets_are_refused_and_change_nothing(registry, store):
    table = await started(registry, ANN, BEN, CAT, buy_in=15, bet_limit=3)
    seat = await to_betting(registry, table)
    stack = table.game.stacks[seat]
    assert stack is not None and stack >= 6  # 15 minus the antes, plus any pay space
    member = member_of(table, seat)
    snapshot = table.game.model_dump_json()
    escrow = await store.table_escrow(table.id)
    for amount, code in ((0, "illegal"), (4, "over_limit"), (stack + 1, "not_enough_chips")):
        with pytest.raises(Refusal) as refused:
            await registry.act(table, member, ref(table, "bet", seat), amount=amount)
        assert refused.value.code == code, (amount, refused.value.code)
        assert table.game.model_dump_json() == snapshot
    assert await store.table_escrow(table.id) == escrow
    await registry.act(table, member, ref(table, "bet", seat), amount=3)
    assert table.game.stacks[seat] == stack - 3


async def test_a_decision_ref_goes_stale_after_it_is_answered(registry):
    table = await started(registry, ANN, BEN)
    dealer = table.game.dealer
    keep = ref(table, "keep", dealer)
    await registry.act(table, member_of(table, dealer), keep)
    with pytest.raises(Refusal) as refused:
        await registry.act(table, member_of(table, dealer), keep)
    assert refused.value.code == "stale"


class _Board:
    """Stands in for the bot's edits: counts the board edits made with the bot token."""

    def __init__(self) -> None:
        self.edits = 0

    async def edit_message(self, channel_id: int, message_id: int, **message: object) -> None:
        assert "embed" in message
        self.edits += 1


async def test_board_edits_in_a_burst_become_one_and_an_unchanged_board_none(store, tmp_path):
    board = _Board()
    settings = Settings(_env_file=None, database=tmp_path / "unused.db", ai_delay=0,
                        board_edit_interval=0.05)
    registry = TableRegistry(SimpleNamespace(
        store=store, settings=settings, clock=ManualClock(), sleep=asyncio.sleep,
        edit_message=board.edit_message), GAMES)
    table = await lobby(registry, ANN, BEN)
    table.board_message_id = 99
    for _ in range(10):
        registry.schedule_board_edit(table)
    await asyncio.sleep(0.2)
    assert board.edits == 1
    registry.schedule_board_edit(table)  # nothing changed: no edit
    await asyncio.sleep(0.2)
    assert board.edits == 1
    table.note("Something happened.")
    registry.schedule_board_edit(table)
    await asyncio.sleep(0.2)
    assert board.edits == 2
    await registry.close()


# ---------------------------------------------------------------------- timers


async def test_a_silent_member_times_out_then_the_ai_plays_until_they_are_back(registry):
    clock = registry.bot.clock
    table = await started(registry, ANN, BEN, CAT)
    dealer = table.game.dealer
    decision, due = table.deadlines[dealer]
    assert decision == table.game.decision_id(dealer) and set(table.deadlines) == {dealer}
    assert due == clock.now().timestamp() + 60  # the spare decision's time (Tripoli: 60 s)
    clock.advance(59)
    await registry.fire_due()
    assert table.game.phase is Phase.SPARE
    clock.advance(2)
    await registry.fire_due()
    assert [e.kind for e in table.game.log].count("spare_kept") == 1  # the timeout action
    assert table.timeouts == {dealer: 1} and not table.seats[dealer].ai
    assert set(table.deadlines) == {0, 1, 2}  # everybody chooses five now
    other = next(s for s in range(3) if s != dealer)
    await registry.act(table, member_of(table, other), ref(table, "best", other))
    assert other not in table.deadlines
    clock.advance(121)
    await registry.fire_due()
    assert table.timeouts[dealer] == 2 and not table.seats[dealer].ai  # silent 3 min only
    assert table.notes[-1].msg.key == "note.timed_out"
    for _ in range(20):  # nobody clicks: the next decisions time out too
        if table.seats[dealer].ai:
            break
        due = min(when for _decision, when in table.deadlines.values())
        clock.advance(due - clock.now().timestamp() + 1)
        await registry.fire_due()
    silence = clock.now().timestamp() - table.seen[member_of(table, dealer)]
    assert silence >= pace.AWAY_SILENCE and table.timeouts[dealer] >= 2  # then the AI plays
    assert dealer not in table.game.to_act and dealer not in table.deadlines
    with pytest.raises(Refusal) as refused:
        await registry.back(table, member_of(table, other))
    assert refused.value.code == "not_away"
    await registry.back(table, member_of(table, dealer))
    assert not table.seats[dealer].ai and dealer not in table.timeouts


async def test_an_answered_decision_never_times_out(registry):
    clock = registry.bot.clock
    table = await started(registry, ANN, BEN)
    dealer = table.game.dealer
    await registry.act(table, member_of(table, dealer), ref(table, "keep", dealer))
    log = len(table.game.log)
    clock.advance(61)  # the spare decision's old deadline has passed, selection's not
    await registry.fire_due()
    assert len(table.game.log) == log and table.timeouts == {}


async def test_an_idle_lobby_closes_itself(registry):
    clock = registry.bot.clock
    table = await lobby(registry, ANN, BEN)
    clock.advance(500)
    await registry.join(table, CAT, "m3")  # a change restarts the 10 minutes
    clock.advance(500)
    await registry.fire_due()
    assert table.state is TableState.LOBBY
    clock.advance(101)
    await registry.fire_due()
    assert table.state is TableState.OVER and CHANNEL not in registry.by_channel


async def test_snapshots_round_trip_with_deadlines(registry):
    table = await started(registry, ANN, BEN, CAT)
    table.timeouts[1] = 1
    log = (await registry.bot.store.load_table_logs())[table.id]  # the log, saved apart
    restored = Table.from_snapshot(table.snapshot(), registry.games, log)
    assert restored.snapshot() == table.snapshot()
    assert restored.deadlines == table.deadlines and restored.timeouts == {1: 1}
    assert restored.game.model_dump_json() == table.game.model_dump_json()


async def test_a_failed_save_undoes_the_move_and_asks_to_retry(registry, store, monkeypatch):
    table = await started(registry, ANN, BEN)
    dealer = table.game.dealer
    snapshot = table.game.model_dump_json()

    async def broken(*_args: object) -> None:
        raise StoreError("disk full")

    monkeypatch.setattr(store, "commit_table", broken)
    with pytest.raises(Refusal) as refused:
        await registry.act(table, member_of(table, dealer), ref(table, "keep", dealer))
    assert refused.value.code == "store" and "try again" in refused.value.message
    assert table.game.model_dump_json() == snapshot
    monkeypatch.undo()
    await registry.act(table, member_of(table, dealer), ref(table, "keep", dealer))
    assert table.game.phase is Phase.SELECT


async def test_the_host_kicks_in_the_lobby_and_mid_deal(registry, store):
    table = await lobby(registry, ANN, BEN, CAT)
    with pytest.raises(Refusal) as refused:
        await registry.kick(table, BEN, False, CAT)
    assert refused.value.code == "not_host" and table.seat_of(CAT) == 2
    with pytest.raises(Refusal) as refused:
        await registry.kick(table, BEN, True, ANN)
    assert refused.value.code == "host"
    await registry.kick(table, ANN, False, CAT)
    assert table.seat_of(CAT) is None and len(table.seats) == 2
    await registry.join(table, DAN, "m4")
    await registry.start(table, ANN, False)
    await registry.kick(table, ANN, False, DAN)
    seat = 2
    assert table.seats[seat].leaving and table.seats[seat].ai
    assert seat not in table.game.to_act  # the AI answers for the seat at once
    await finish_deal(registry, table)
    assert table.seats[seat].left and await store.table_escrow(table.id) == table.game.total_chips()


async def test_ending_now_during_the_leftover_round_says_it_is_still_played_for(registry):
    table = await started(registry, ANN, BEN, CAT)
    for _deal in range(10):  # until a deal leaves chips on the board
        await finish_deal(registry, table)
        if any(table.game.board.values()):
            break
        deal = table.game.deal_number
        await registry.next_deal(table, ANN, Ref(table.id, "next", None, deal))
    await registry.end(table, ANN, False, abandon=False)
    assert table.game.leftover and table.notes[-1].msg.key == "note.ends_after_deal"
    at_stake = (dict(table.game.board), table.game.total_chips())
    await registry.end(table, ANN, False, abandon=True)
    assert table.notes[-1].msg.key == "note.played_for_first"  # not "the deal was abandoned"
    assert table.game.leftover and table.state is TableState.PLAYING
    assert (dict(table.game.board), table.game.total_chips()) == at_stake  # still played for


async def test_a_table_can_set_its_own_turn_time(registry):
    table = registry.open("tripoli", guild_id=GUILD, channel_id=CHANNEL, host_id=ANN,
                          host_name="a", options={"turn_seconds": 300}, buy_in=100)
    await registry.join(table, BEN, "b")
    await registry.start(table, ANN, False)
    [(_decision, due)] = table.deadlines.values()
    assert due == registry.bot.clock.now().timestamp() + 300


async def broken_save(*_args: object) -> None:
    raise StoreError("disk full")


async def test_a_failed_save_undoes_a_lobby_change_or_next_deal_and_asks_to_retry(
    registry, store, monkeypatch
):
    table = await lobby(registry, ANN, BEN)
    saved = table.snapshot()
    monkeypatch.setattr(store, "commit_table", broken_save)
    for change in (registry.join(table, CAT, "m3"), registry.add_ai(table, ANN, False),
                   registry.leave(table, BEN)):
        with pytest.raises(Refusal) as refused:
            await change
        assert refused.value.code == "store" and "try again" in refused.value.message
        assert table.snapshot() == saved
    monkeypatch.undo()
    await registry.start(table, ANN, False)
    await finish_deal(registry, table)
    deal, saved = table.game.deal_number, (table.snapshot(), table.game.model_dump_json())
    monkeypatch.setattr(store, "commit_table", broken_save)
    with pytest.raises(Refusal) as refused:
        await registry.next_deal(table, ANN, Ref(table.id, "next", None, deal))
    assert refused.value.code == "store"
    assert (table.snapshot(), table.game.model_dump_json()) == saved  # the log too
    monkeypatch.undo()
    await registry.next_deal(table, ANN, Ref(table.id, "next", None, deal))
    assert table.game.deal_number == deal + 1


async def test_a_leave_whose_commit_fails_moves_no_chip_and_keeps_the_seat(
    registry, store, monkeypatch
):
    """The settlement of a leaving stack and the saved seat commit together: when the
    commit fails, neither happens; when it works, both (no crash can pay twice)."""
    table = await started(registry, ANN, BEN, CAT)
    await finish_deal(registry, table)
    stack = table.game.stacks[2]
    balance = await store.balance(GUILD, CAT)
    monkeypatch.setattr(store, "commit_table", broken_save)
    with pytest.raises(Refusal) as refused:
        await registry.leave(table, CAT)
    assert refused.value.code == "store"
    assert table.seat_of(CAT) == 2 and await store.balance(GUILD, CAT) == balance
    assert await store.table_escrow(table.id) == table.game.total_chips()
    monkeypatch.undo()
    await registry.leave(table, CAT)
    assert table.seat_of(CAT) is None and await store.balance(GUILD, CAT) == balance + stack
    [(_id, _guild, _channel, data)] = await store.load_tables()
    assert Table.from_snapshot(data, registry.games).seat_of(CAT) is None
    assert await store.table_escrow(table.id) == table.game.total_chips()


async def test_a_timeout_that_cannot_be_saved_is_undone_and_fires_again(registry, store,
                                                                         monkeypatch):
    clock = registry.bot.clock
    table = await started(registry, ANN, BEN)
    monkeypatch.setattr(store, "commit_table", broken_save)
    clock.advance(61)
    await registry.fire_due()
    assert table.game.phase is Phase.SPARE and table.timeouts == {}
    monkeypatch.undo()
    await registry.fire_due()
    assert table.game.phase is Phase.SELECT and table.timeouts == {table.game.dealer: 1}


async def test_the_rules_are_built_once_per_table_not_per_decision(registry, monkeypatch):
    adapter = registry.games["tripoli"]
    built = []
    spec_for = adapter.spec_for

    def counted(options):
        built.append(dict(options))
        return spec_for(options)

    monkeypatch.setattr(adapter, "spec_for", counted)
    table = await started(registry, ANN, BEN, CAT)
    before = len(built)
    await finish_deal(registry, table)  # a whole deal: dozens of decisions and boards
    registry.render_board(table)
    assert len(built) == before == 1


async def test_a_commit_writes_the_change_not_the_game_so_far(registry, store):
    """The snapshot leaves out the log (each commit appends the change's new events to the
    saved log) and the rules the options make; a restart brings both back as they were."""
    table = await started(registry, ANN, BEN, CAT)
    sizes = []
    for _deal in range(3):
        await finish_deal(registry, table)
        [(_id, _guild, _channel, text)] = await store.load_tables()
        sizes.append(len(text))
        deal = table.game.deal_number
        await registry.next_deal(table, ANN, Ref(table.id, "next", None, deal))
    saved = json.loads(text)
    assert saved["rules"] == "options" and not {"log", "rules"} & set(saved["game"])
    rows = (await store.load_table_logs())[table.id]
    events = [event for row in rows for event in json.loads(row)]
    assert len(events) <= table.game.logged and len(table.game.log) < len(events)
    assert [json.loads(event.model_dump_json()) for event in table.game.log] == events[
        -len(table.game.log):]
    assert max(sizes) - min(sizes) < 600  # three deals on, about as many bytes each commit
    live = table.game.model_dump_json()
    await registry.close()
    again = TableRegistry(registry.bot, GAMES)
    await again.restore()
    restored = again.by_id[table.id]
    assert restored.game.model_dump_json() == live
    assert restored.game.rules == GAMES["tripoli"].rules(table.options)
    await again.close()


async def test_an_undone_change_saves_its_events_with_the_next_commit(registry, store,
                                                                       monkeypatch):
    table = await started(registry, ANN, BEN)
    dealer = table.game.dealer
    commit = store.commit_table
    monkeypatch.setattr(store, "commit_table", broken_save)
    with pytest.raises(Refusal):
        await registry.act(table, member_of(table, dealer), ref(table, "keep", dealer))
    monkeypatch.setattr(store, "commit_table", commit)
    await registry.act(table, member_of(table, dealer), ref(table, "keep", dealer))
    await finish_deal(registry, table)
    live = table.game.model_dump_json()
    again = TableRegistry(registry.bot, GAMES)
    await again.restore()
    assert again.by_id[table.id].game.model_dump_json() == live
    await again.close()
    await registry.close()


async def test_a_member_kicked_in_the_lobby_cannot_sit_down_again(registry):
    table = await lobby(registry, ANN, BEN, CAT)
    await registry.kick(table, ANN, False, CAT)
    assert table.kicked == {CAT} and table.seat_of(CAT) is None
    assert table.notes[-1].msg.key == "note.removed"
    with pytest.raises(Refusal) as refused:
        await registry.join(table, CAT, "m3")
    assert refused.value.code == "kicked" and table.seat_of(CAT) is None
    await registry.leave(table, BEN)
    assert table.notes[-1].msg.key == "note.stood_up"  # a member's own leave is not a kick
    await registry.join(table, BEN, "m2")
    assert table.seat_of(BEN) is not None


async def test_a_member_kicked_mid_game_cannot_join_again(registry, store):
    table = await lobby(registry, ANN, BEN, CAT)
    await registry.start(table, ANN, False)
    await registry.kick(table, ANN, False, CAT)
    await finish_deal(registry, table)
    assert table.game.between_deals and table.kicked == {CAT}
    seats, escrow = list(table.seats), await store.table_escrow(table.id)
    with pytest.raises(Refusal) as refused:
        await registry.join(table, CAT, "m3")
    assert refused.value.code == "kicked"
    assert refused.value.message.startswith("You were removed from this table by its host")
    assert table.seats == seats and table.seat_of(CAT) is None
    assert await store.table_escrow(table.id) == escrow
    restored = Table.from_snapshot(table.snapshot(), registry.games, ())
    assert restored.kicked == {CAT}


def test_a_table_keeps_its_last_four_notes_through_a_snapshot():
    table = Table(id="abc123", game_name="tripoli", guild_id=1, channel_id=2, host_id=3,
                  buy_in=100, options={})
    for seat in range(6):
        table.note("note.sat_down", name=f"P{seat}")
    assert [note.msg.params["name"] for note in table.notes] == ["P2", "P3", "P4", "P5"]
    back = Table.from_snapshot(table.snapshot(), GAMES)
    assert [note.msg.params["name"] for note in back.notes] == ["P2", "P3", "P4", "P5"]
    back.notes.extend(table.notes)
    back.note("note.sat_down", name="P6")
    assert [note.msg.params["name"] for note in back.notes] == ["P3", "P4", "P5", "P6"]
