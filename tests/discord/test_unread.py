"""What discord.py parses for the bot is kept to what the bot reads (:mod:`bot.unread`).

The first test fails when a discord.py release changes one of the private surfaces the
module relies on; the others show, inside simcord, that the lean parsing changes nothing the
bot or discord.py's dispatch reads.
"""

from __future__ import annotations

import inspect
import io
import types
from typing import Any

import discord
import pytest
from discord import interactions
from discord.http import HTTPClient, handle_message_parameters
from discord.state import ConnectionState

from bot import unread
from bot.runtime.refs import Ref

BUTTON, SELECT, CONTAINER = 2, 3, 17


def test_the_discord_py_internals_relied_on_are_there():
    """The surfaces :mod:`bot.unread` names, as discord.py 2.7 has them."""
    state = discord.Client(intents=discord.Intents.none())._connection
    assert state.parsers["INTERACTION_CREATE"].__func__ is ConnectionState.parse_interaction_create
    assert "MESSAGE_UPDATE" in state.parsers
    # every answer builds its callback from the module global the bot replaces
    for method in ("send_message", "edit_message", "defer", "send_modal"):
        code = getattr(interactions.InteractionResponse, method).__code__
        assert "InteractionCallbackResponse" in code.co_names, method
    original = unread.LazyCallbackResponse.__mro__[1]
    assert original.__name__ == "InteractionCallbackResponse"
    assert isinstance(unread._RESOURCE, types.MemberDescriptorType)
    assert "_update" in original.__init__.__code__.co_names
    assert list(inspect.signature(original._update).parameters) == ["self", "data"]
    assert {"resource", "InteractionMessage"} <= set(original._update.__code__.co_names)
    # edit_message repeats PartialMessage.edit's recipe: the same parameters, the same calls
    edit = discord.PartialMessage.edit
    assert set(inspect.signature(edit).parameters) == {
        "self", "content", "embed", "embeds", "attachments", "delete_after",
        "allowed_mentions", "view"}
    assert {"handle_message_parameters", "edit_message", "prevent_view_updates_for",
            "is_dispatchable", "store_view", "allowed_mentions"} <= set(edit.__code__.co_names)
    assert list(inspect.signature(HTTPClient.edit_message).parameters) == [
        "self", "channel_id", "message_id", "params"]
    assert {"content", "embed", "attachments", "view", "previous_allowed_mentions"} <= set(
        inspect.signature(handle_message_parameters).parameters)
    for name in ("prevent_view_updates_for", "store_view"):
        assert callable(getattr(ConnectionState, name))


def _click(message: dict[str, Any], custom_id: str, kind: int = BUTTON) -> dict[str, Any]:
    return {"type": 3, "data": {"custom_id": custom_id, "component_type": kind},
            "message": message}


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def test_a_click_keeps_the_clicked_component_in_its_row_only():
    select = {"type": SELECT, "custom_id": "ps:t:1:play", "min_values": 1, "max_values": 2,
              "options": [{"label": "A♠", "value": "51"}, {"label": "2♣", "value": "0"}]}
    button = {"type": BUTTON, "custom_id": "pl:t:1:fold", "label": "Fold", "style": 2}
    message = {"id": "7", "type": 0, "content": "", "channel_id": "5", "flags": 64,
               "attachments": [{"id": "9", "filename": "hand-x.png"}],
               "embeds": [{"title": "Your hand"}], "mentions": [], "pinned": False,
               "components": [_row(select), _row(button, {**button, "custom_id": "pl:t:1:x"})]}
    payload = _click(message, "ps:t:1:play", SELECT)
    lean = unread.lean_interaction(payload)
    assert lean["message"] == {
        "id": "7", "type": 0, "content": "", "channel_id": "5", "flags": 64,
        "attachments": [{"id": "9", "filename": "hand-x.png"}], "components": [_row(select)]}
    assert lean["data"] is payload["data"]
    assert payload["message"] is message and len(message["components"]) == 2  # unchanged
    assert unread.lean_interaction(_click(message, "pl:t:1:fold"))["message"]["components"] == [
        _row(button)]
    # a component of another type with that id, or none: the rows are kept whole
    assert unread.lean_interaction(_click(message, "pl:t:1:fold", SELECT))["message"][
        "components"] == message["components"]


def test_other_layouts_modals_and_commands():
    layout = [{"type": CONTAINER, "components": [_row({"type": BUTTON, "custom_id": "pl:a"})]}]
    message = {"id": "7", "type": 0, "content": "", "components": layout}
    assert unread.lean_interaction(_click(message, "pl:a"))["message"]["components"] == layout
    submit = {"type": 5, "data": {"custom_id": "pm:t:1:bet", "components": []},
              "message": {**message, "embeds": [{"title": "x"}]}}
    assert unread.lean_interaction(submit)["message"] == {
        "id": "7", "type": 0, "content": "", "components": []}
    command = {"type": 2, "data": {"name": "tripoli"}}
    assert unread.lean_interaction(command) is command


async def _lobby(world: Any) -> Any:
    opened = await world.slash(world.alice, "tripoli start")
    return opened.response


async def test_a_click_reaches_its_dynamic_item_with_the_message_it_reads(world, monkeypatch):
    """Join, clicked on the lobby: routed through the DynamicItem, with the board's id read
    from the lean message, which holds the Join button alone and no embed."""
    board = await _lobby(world)
    seen: list[tuple[discord.Interaction, Ref]] = []
    on_component = world.bot.tables.on_component

    async def recording(interaction: discord.Interaction, ref: Ref, values: Any) -> None:
        seen.append((interaction, ref))
        await on_component(interaction, ref, values)

    monkeypatch.setattr(world.bot.tables, "on_component", recording)
    joined = await world.click(world.bob, board, label="Join")
    [(interaction, ref)] = seen
    table = world.bot.tables.by_channel[world.channel.id]
    assert ref.verb == "join" and table.seat_of(world.bob.id) is not None
    assert interaction.message is not None and interaction.message.id == board.id
    assert joined.response.id == board.id and "Bob" in str(joined.response.embeds[0].fields)
    [row] = interaction.message.components
    assert [item.custom_id for item in row.children] == [ref.custom_id("pl")]
    assert interaction.message.embeds == [] and board.embeds


async def test_an_answer_parses_the_message_it_returns_when_read(world, monkeypatch):
    board = await _lobby(world)
    answers = []
    edit_message = discord.InteractionResponse.edit_message

    async def recording(self: Any, **fields: Any) -> Any:
        answers.append(await edit_message(self, **fields))
        return answers[-1]

    monkeypatch.setattr(discord.InteractionResponse, "edit_message", recording)
    joined = await world.click(world.bob, board, label="Join")
    [answer] = answers
    assert isinstance(answer, unread.LazyCallbackResponse)
    assert answer._unparsed is not None  # not parsed yet
    message = answer.resource
    assert isinstance(message, discord.InteractionMessage) and answer._unparsed is None
    assert message.id == board.id
    assert [embed.to_dict() for embed in message.embeds] == [
        embed.to_dict() for embed in joined.response.embeds]
    assert answer.resource is message


async def test_a_bot_token_edit_sends_what_message_edit_sends(world):
    """The same request as ``PartialMessage.edit``: an embed and the board's components, a
    line without them, a new picture; and nothing is returned."""
    board = await _lobby(world)
    table = world.bot.tables.by_channel[world.channel.id]
    view = world.bot.tables.shown_board(table).rendered.view
    embed = discord.Embed(title="Board", description="Alice to act")
    png = b"\x89PNG\r\n\x1a\n" + bytes(16)
    cases = (
        lambda: {"embed": embed, "view": view},
        lambda: {"content": "moved", "embed": None, "view": None, "attachments": []},
        lambda: {"embed": embed, "attachments": [discord.File(io.BytesIO(png), "b.png")]},
    )
    partial = world.bot.get_partial_messageable(world.channel.id).get_partial_message(board.id)
    for fields in cases:
        await partial.edit(**fields())
        by_discord_py = world.env.http_requests[-1]
        assert await world.bot.edit_message(world.channel.id, board.id, **fields()) is None
        ours = world.env.http_requests[-1]
        assert ours is not by_discord_py and ours.method == "PATCH"
        assert (ours.path, ours.json) == (by_discord_py.path, by_discord_py.json)


async def test_a_bot_token_edit_raises_what_message_edit_raises(world):
    board = await _lobby(world)
    world.env.inject_error("PATCH", f"/channels/*/messages/{board.id}", status=404, code=10008)
    with pytest.raises(discord.NotFound) as gone:
        await world.bot.edit_message(world.channel.id, board.id, content="x")
    assert gone.value.code == 10008
    world.env.inject_error("PATCH", f"/channels/*/messages/{board.id}", status=403, code=50013)
    with pytest.raises(discord.Forbidden) as forbidden:
        await world.bot.edit_message(world.channel.id, board.id, content="x")
    assert forbidden.value.code == 50013
