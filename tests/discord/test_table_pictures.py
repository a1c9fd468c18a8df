"""Pictures on the board and on "My hand" in simcord (issue 14): attached beside the text,
re-uploaded only when they change, turned off per server by ``/settings images``.
"""

from __future__ import annotations

import discord
from leak_scan import picture_cards
from simcord import MemberActor
from test_tripoli import open_table

from engine.tripoli.phases import Phase


def picture_of(message) -> str | None:
    """The name of the one picture a message carries, checked against its embed's image."""
    if not message.attachments:
        assert not message.embeds[0].image.url
        return None
    [attachment] = message.attachments  # one attachment, the embed's image
    assert message.embeds[0].image.url == f"attachment://{attachment.filename}"
    assert attachment.size < 100 * 1024
    return attachment.filename


def uploads(world) -> list[str]:
    """Paths of the requests so far that sent a file (their payload lists attachments; an
    interaction callback holds its message under ``data``)."""
    out = []
    for entry in world.env.http_requests:
        payload = entry.json if isinstance(entry.json, dict) else {}
        payload = payload.get("data") if isinstance(payload.get("data"), dict) else payload
        if payload.get("attachments"):
            out.append(entry.path)
    return out


async def wait(world, seconds: float = 1) -> None:
    world.clock.advance(seconds)
    await world.env.advance_time(seconds)


def manager(world) -> MemberActor:
    role = world.guild.create_role("Croupier",
                                   permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("mgr", global_name="Mgr"),
                                  roles=[role])


async def test_the_board_and_my_hand_carry_their_pictures_beside_the_text(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob)
    assert picture_of(session.board) is None  # the lobby has no picture
    await session.click(alice, session.board, label="Start")
    board = picture_of(session.board)
    assert board is not None and board.startswith("tripoli-")
    assert session.board.embeds[0].fields  # the text stays
    hand = await session.my_hand(alice)
    name = picture_of(hand)
    assert name is not None and name.startswith("hand-")
    assert picture_cards(name) == {int(c) for c in session.game.hands[session.seat(alice)]}


async def test_an_edit_that_changes_only_the_log_keeps_the_picture(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob)
    await session.click(alice, session.board, label="Start")
    await wait(world)
    first = session.board.attachments[0]
    sent = len(uploads(world))
    assert sent  # the picture went with the start
    table = session.table
    table.note("A line for the log only.")
    world.bot.tables.schedule_board_edit(table)
    await wait(world)
    await world.bot.tables.edits.finished()  # begun by the test: simcord does not wait
    log = session.board.embeds[0].fields[-1].value
    assert "A line for the log only." in log  # the board was edited
    assert session.board.attachments[0].id == first.id  # the same upload, kept
    assert len(uploads(world)) == sent  # no file went with the edit
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    await wait(world)
    [changed] = session.board.attachments
    assert changed.filename != first.filename  # the spaces' chips moved: a new picture


async def test_the_server_setting_turns_pictures_off_and_on(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob)
    await session.click(alice, session.board, label="Start")
    await wait(world)
    refused = await world.slash(alice, "settings images", state="off")
    assert refused.response.ephemeral and "Manage Server" in refused.response.content
    assert picture_of(session.board) is not None

    off = await world.slash(manager(world), "settings images", state="off")
    assert off.response.ephemeral and "**off**" in off.response.content
    assert await world.store.get_setting(f"guild:{world.guild.id}", "images") == "false"
    await wait(world)
    assert picture_of(session.board) is None  # the board dropped its picture
    assert session.board.embeds[0].fields  # and kept its text
    hand = await session.my_hand(alice)
    assert picture_of(hand) is None and hand.embeds[0].description

    await world.restart()  # the setting is the server's, kept in the store
    hand = await session.my_hand(bob)
    assert picture_of(hand) is None
    await world.slash(manager(world), "settings images", state="on")
    await wait(world)
    assert picture_of(session.board) is not None
    assert picture_of(await session.my_hand(bob)) is not None
