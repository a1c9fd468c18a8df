"""Slash commands while the store takes 3.5 s to answer (case C04), in simcord.

Each command is acknowledged within Discord's 3 s by deferring (on simcord's virtual clock:
the slow store sleeps with ``asyncio.sleep``, which only ``advance_time`` moves past), is
applied exactly once, and shows its answer with the right visibility: private answers defer
privately; a public success (``/chips give``, ``/leaderboard``, ``/tripoli start``) defers
publicly, and a refusal found after that deferral replaces it with a private answer.
"""

from __future__ import annotations

import json
from typing import Any

from slow_store import slow_store
from test_tripoli_preset_tables import manager


def callbacks_since(world: Any, mark: int) -> list[dict[str, Any]]:
    """The bodies of the interaction callbacks the bot sent since request ``mark``."""
    return [request.json for request in world.env.http_requests[mark:]
            if request.method == "POST" and request.path.endswith("/callback")]


def deferred_privately(callback: dict[str, Any]) -> bool:
    return callback["type"] == 5 and callback.get("data", {}).get("flags", 0) & 64 == 64


def deferred_publicly(callback: dict[str, Any]) -> bool:
    return callback["type"] == 5 and not (callback.get("data") or {}).get("flags", 0) & 64


def answers(result: Any) -> list[Any]:
    """Every message still showing the interaction's answer (response and follow-ups)."""
    return [message for message in [result.response, *result.followups] if message is not None]


async def test_a_slow_gift_defers_publicly_and_moves_the_chips_once(world):
    before = await world.balances(world.alice, world.bob)
    mark, errors = len(world.env.http_requests), world.env.error_cursor
    async with slow_store(world, "transfer"):
        result = await world.slash(world.alice, "chips give", member=world.bob, amount=250)
        assert result.acknowledged  # within the 3 s (world.slash checks it too)
    assert not world.env.errors_since(errors)
    [callback] = callbacks_since(world, mark)
    assert deferred_publicly(callback)
    [answer] = answers(result)
    assert not answer.ephemeral
    assert "Alice gave Bob **250 chips**" in answer.embeds[0].description  # names, not mentions
    assert await world.balances(world.alice, world.bob) == [before[0] - 250, before[1] + 250]
    ledger = await world.store.ledger(world.guild.id, world.bob.id)
    assert [entry.delta for entry in ledger if entry.reason != "starting_grant"] == [250]
    await world.assert_chips_conserved()


async def test_a_slow_gift_refused_after_deferring_publicly_is_answered_privately(world):
    before = await world.balances(world.alice, world.bob)
    mark, errors = len(world.env.http_requests), world.env.error_cursor
    async with slow_store(world, "balance"):
        result = await world.slash(world.alice, "chips give", member=world.bob,
                                   amount=before[0] + 1)
    assert not world.env.errors_since(errors)
    [callback] = callbacks_since(world, mark)
    assert deferred_publicly(callback)
    [answer] = answers(result)  # the public "thinking…" message is gone
    assert answer.ephemeral and f"You hold only {before[0]:,} chips" in answer.content
    assert await world.balances(world.alice, world.bob) == before


async def test_a_slow_balance_defers_privately(world):
    await world.slash(world.alice, "chips give", member=world.bob, amount=30)
    mark, errors = len(world.env.http_requests), world.env.error_cursor
    async with slow_store(world, "rank"):
        result = await world.slash(world.carol, "chips balance", member=world.bob)
    assert not world.env.errors_since(errors)
    [callback] = callbacks_since(world, mark)
    assert deferred_privately(callback)
    [answer] = answers(result)
    assert answer.ephemeral
    assert "Bob holds **1,030 chips**" in answer.embeds[0].description


async def test_a_slow_daily_claim_defers_privately_and_pays_once(world):
    [before] = await world.balances(world.alice)
    mark, errors = len(world.env.http_requests), world.env.error_cursor
    async with slow_store(world, "claim_daily"):
        result = await world.slash(world.alice, "chips daily")
    assert not world.env.errors_since(errors)
    [callback] = callbacks_since(world, mark)
    assert deferred_privately(callback)
    [answer] = answers(result)
    assert answer.ephemeral and "You collected **100 chips**" in answer.embeds[0].description
    ledger = await world.store.ledger(world.guild.id, world.alice.id)
    assert [entry.reason for entry in ledger].count("daily") == 1
    assert await world.balances(world.alice) == [before + 100]


async def test_a_slow_leaderboard_defers_publicly(world):
    await world.slash(world.alice, "chips give", member=world.bob, amount=30)
    mark, errors = len(world.env.http_requests), world.env.error_cursor
    async with slow_store(world, "board"):
        result = await world.slash(world.carol, "leaderboard")
    assert not world.env.errors_since(errors)
    [callback] = callbacks_since(world, mark)
    assert deferred_publicly(callback)
    [answer] = answers(result)
    assert not answer.ephemeral
    assert "**1.** Bob — 1,030 chips" in answer.embeds[0].description


async def test_a_slow_start_defers_publicly_and_opens_one_table_whose_board_is_the_answer(
    world,
):
    mark, errors = len(world.env.http_requests), world.env.error_cursor
    async with slow_store(world, "get_setting"):
        result = await world.slash(world.alice, "tripoli start", buy_in=40)
    assert not world.env.errors_since(errors)
    [callback] = callbacks_since(world, mark)
    assert deferred_publicly(callback)
    [board] = answers(result)
    assert not board.ephemeral
    tables = world.bot.tables
    [table] = [t for t in tables.by_id.values() if t.channel_id == world.channel.id]
    assert table.buy_in == 40 and table.board_message_id == board.id
    joined = await world.slash(world.bob, "chips balance")  # the table is usable afterwards
    assert joined.response.ephemeral
    assert await world.bob.click(board, label="Join")
    assert len(table.seats) == 2


async def test_a_slow_start_refused_after_deferring_is_answered_privately(world):
    opened = await world.slash(world.alice, "tripoli start")
    mark, errors = len(world.env.http_requests), world.env.error_cursor
    async with slow_store(world, "get_setting"):
        result = await world.slash(world.bob, "tripoli start")
    assert not world.env.errors_since(errors)
    [callback] = callbacks_since(world, mark)
    assert deferred_publicly(callback)
    [answer] = answers(result)
    assert answer.ephemeral
    [table] = world.bot.tables.by_id.values()
    assert table.board_message_id == opened.response.id and table.host_id == world.alice.id


async def test_slow_rules_and_house_rules_defer_privately(world):
    mona = await manager(world)
    mark, errors = len(world.env.http_requests), world.env.error_cursor
    async with slow_store(world, "get_setting"):
        shown = await world.slash(world.alice, "tripoli rules")
    async with slow_store(world, "set_setting"):
        saved = await world.slash(mona, "tripoli house-rules", preset="dutch")
    assert not world.env.errors_since(errors)
    assert all(deferred_privately(callback) for callback in callbacks_since(world, mark))
    assert [answer.ephemeral for answer in answers(shown) + answers(saved)] == [True, True]
    stored = await world.store.get_setting(f"channel:{world.channel.id}", "tripoli_rules")
    assert json.loads(stored) == {"preset": "dutch"}


async def test_a_slow_dm_setting_defers_privately_and_is_saved(world):
    mark, errors = len(world.env.http_requests), world.env.error_cursor
    async with slow_store(world, "set_setting"):
        result = await world.slash(world.alice, "settings dm", state="on")
    assert not world.env.errors_since(errors)
    [callback] = callbacks_since(world, mark)
    assert deferred_privately(callback)
    [answer] = answers(result)
    assert answer.ephemeral and "**on**" in answer.content
    assert json.loads(await world.store.get_setting(f"user:{world.alice.id}", "dm")) is True
