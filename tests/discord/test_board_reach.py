"""The board stays reachable (issue 10 item 4), in simcord.

When the channel has moved on by more than a screen (more than ``BOARD_SCREEN`` messages
after the board), the board's next update posts it again at the bottom and the old board
becomes one line with a jump link to the new one, without buttons. With the ``thread``
option the table opens a thread of its own: the channel gets one line pointing to it, and
the lobby, the game and its commands live in the thread (every game).
"""

from __future__ import annotations

import random

import discord
import pytest
from test_every_game_table import answer, controls, wait
from test_tripoli import open_table
from test_tripoli_refusals import to_select

from bot.games import GAMES
from bot.runtime.publisher import BOARD_SCREEN
from bot.runtime.table import TableState
from engine.tripoli.phases import Phase


async def chat(world, count: int) -> None:
    for number in range(count):
        await world.dave.send(world.channel, f"chatting {number}")


async def test_the_board_moves_to_the_bottom_after_a_screen_of_chat(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol)
    await to_select(session)
    table = session.table
    board = table.board_message_id
    await chat(world, 10)
    await session.click(bob, await session.my_hand(bob), label="Best five")
    assert table.board_message_id == board  # ten messages: still within a screen
    await chat(world, 30 - 10)
    assert table.after_board == 30 > BOARD_SCREEN
    hand = await session.my_hand(carol)
    await session.click(carol, hand, label="Best five")  # the next update moves it
    moved = table.board_message_id
    assert moved != board and table.after_board == 0
    history = world.channel.history()
    assert history[-1].id == moved and history[-1].embeds  # the board, at the bottom
    old = next(message for message in history if message.id == board)
    assert not old.embeds and not old.components
    assert f"/channels/{world.guild.id}/{world.channel.id}/{moved}" in old.content
    shown = await session.run(alice, alice.click(history[-1], label="My hand"))
    await session.click(alice, shown.response, label="Best five")  # the new board works
    assert table.board_message_id == moved  # nothing more was said: it stays


async def test_a_board_moved_again_leaves_one_line_and_it_links_to_the_live_board(world):
    """Tryout #4: each move left a line linking to the next line (six hops in one game);
    the line of an earlier move is deleted, so the one left links to the live board."""
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol)
    await to_select(session)
    table = session.table
    boards = [table.board_message_id]
    for member in (bob, carol):
        await chat(world, BOARD_SCREEN + 5)
        board = world.channel.history()[-1 - BOARD_SCREEN - 5]  # the live board
        assert board.id == boards[-1]
        shown = await session.run(member, member.click(board, label="My hand"))
        assert table.board_message_id not in boards  # the click moved it to the bottom
        await session.run(member, member.click(shown.response, label="Best five"))
        boards.append(table.board_message_id)
    history = world.channel.history()
    lines = [message for message in history if message.content and "moved" in message.content]
    assert [line.id for line in lines] == [boards[1]]  # the first board's line is gone
    assert lines[0].content.endswith(f"/channels/{world.guild.id}/{world.channel.id}/{boards[2]}")
    assert history[-1].id == boards[2] and history[-1].embeds
    assert boards[0] not in {message.id for message in history}


async def test_a_click_on_a_scrolled_away_board_brings_it_to_the_bottom(world):
    """Tryout #5: Next deal pressed on a board a flood had scrolled away edited it in place,
    out of everyone's sight; the click's answer now moves the board to the bottom."""
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob)
    await session.click(alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    table = session.table
    old = table.board_message_id
    await chat(world, BOARD_SCREEN + 10)
    clicked = await session.click(bob, session.board, label="Next deal")
    assert clicked.response is None or not clicked.response.ephemeral  # acknowledged, once
    await wait(world, 1)
    assert session.game.deal_number == 2
    history = world.channel.history()
    assert table.board_message_id != old and history[-1].id == table.board_message_id
    assert history[-1].embeds and "deal 2" in history[-1].embeds[0].title
    moved = next(message for message in history if message.id == old)
    assert not moved.components and str(table.board_message_id) in moved.content


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_thread_table_plays_in_its_thread(world, game):
    alice = world.alice
    opened = await world.slash(alice, f"{game} start", thread=True)
    [thread] = world.channel.threads
    assert thread.mention in opened.response.content and not opened.response.components
    table = world.bot.tables.by_channel[thread.id]
    assert world.channel.id not in world.bot.tables.by_channel
    [lobby] = thread.history()
    assert lobby.id == table.board_message_id
    while len(table.seats) < world.bot.tables.spec(table).seats.start:
        await world.click(alice, lobby, label="Add AI")
    await world.click(alice, lobby, label="Start")
    assert table.state is TableState.PLAYING
    board = thread.history()[0]
    hand = (await world.click(alice, board, label="My hand")).response
    assert hand.flags.ephemeral and hand.id in [m.id for m in thread.history(viewer=alice)]
    if table.seat_of(alice.id) in table.game.to_act and controls(hand):
        await answer(world, alice, hand, random.Random(game))
    await world.slash(alice, f"{game} end", where=thread, now=True)
    assert table.state is TableState.OVER
    said = [m.id for m in world.channel.history()
            if m.type is not discord.MessageType.thread_created]  # Discord's own notice
    assert said == [opened.response.id]  # the channel saw one line of the whole game


async def test_a_thread_discord_refuses_is_told_privately_and_opens_nothing(world):
    world.env.inject_error("POST", "/channels/*/messages/*/threads", status=403, code=50013,
                           message="Missing Permissions")
    result = await world.slash(world.alice, "tripoli start", thread=True)
    assert not world.bot.tables.by_id and not world.channel.threads
    said = [m for m in world.channel.history() if not m.flags.ephemeral]
    assert said == []  # the line was taken back
    [refusal] = [m for m in world.channel.history(viewer=world.alice) if m.flags.ephemeral]
    assert "Create Public Threads" in refusal.content and result.acknowledged
