"""What discord.py would parse for the bot that the bot never reads (issue 15).

discord.py turns every payload into objects: each click's clicked message, the message
every interaction response returns, the message every bot-token edit returns. The bot reads
little of them, and parses no more than it reads:

- :data:`UNREAD_EVENTS`: gateway events dropped unparsed (:func:`lean_parsers`).
- The clicked message of a component click or a modal submit (``Interaction.message``) is
  parsed from the parts :data:`MESSAGE_READ` names only, and of a click's components only the
  action row of the clicked component, holding that component alone (a layout other than
  action rows is kept whole): the bot reads its id and attachments, discord.py its flags and
  the clicked component (:meth:`discord.ui.DynamicItem.from_custom_id` gets it from
  ``View.from_message``). Its embeds, mentions, reactions … are not parsed, so such a message
  shows none.
- The message an interaction response returns (``InteractionCallbackResponse.resource``) is
  parsed when it is first read (:class:`LazyCallbackResponse`), which the bot never does.
- A bot-token edit (:func:`edit_message`) sends what :meth:`discord.PartialMessage.edit`
  sends and returns nothing, not the edited message.

Private discord.py surfaces relied on (``tests/discord/test_unread.py`` fails when one changes):
``ConnectionState.parsers`` (event name -> parser) and its ``INTERACTION_CREATE`` parser;
the module global ``discord.interactions.InteractionCallbackResponse``, which
``InteractionResponse.send_message``/``edit_message``/``defer``/``send_modal`` construct,
and its ``_update(data)``; ``HTTPClient.edit_message(channel_id, message_id, params=…)``,
``discord.http.handle_message_parameters`` and ``ConnectionState.prevent_view_updates_for``
/ ``store_view``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import interactions
from discord.http import handle_message_parameters
from discord.utils import MISSING

UNREAD_EVENTS = ("MESSAGE_UPDATE",)
"""Gateway events the bot never reads, which discord.py would otherwise parse into objects
nobody looks at: the Guild Messages intent sends a ``MESSAGE_UPDATE`` for every edit of a
board (the bot's own edits), and the bot keeps no message cache nor any view to update."""

MESSAGE_READ = ("id", "type", "content", "channel_id", "guild_id", "author", "webhook_id",
                "flags", "attachments", "components")
"""The parts of an interaction's clicked message that are parsed: what ``discord.Message``
requires (id, type, content), where it is (channel, server), who wrote it and whether
through a webhook (discord.py caches the author only if not), its flags (discord.py's
dispatch reads whether it has a components v2 layout), its attachments (the runtime reads
the name of the picture it carries, :func:`bot.runtime.pictures.attached`) and its
components (the clicked one, for discord.py's DynamicItem dispatch)."""

ACTION_ROW = 1
"""Discord's component type of an action row."""


def lean_parsers(client: discord.Client) -> None:
    """Make ``client``'s gateway parsing skip what the bot never reads: drop the events of
    :data:`UNREAD_EVENTS`, and parse an ``INTERACTION_CREATE``'s clicked message lean
    (:func:`lean_interaction`)."""
    parsers = client._connection.parsers
    for event in UNREAD_EVENTS:
        parsers[event] = _unread
    parse = parsers["INTERACTION_CREATE"]

    def parse_interaction_create(data: Any) -> None:
        parse(lean_interaction(data))

    parsers["INTERACTION_CREATE"] = parse_interaction_create


def _unread(data: Any) -> None:
    """The parser of an event of :data:`UNREAD_EVENTS`: nothing to do."""


def lean_interaction(data: dict[str, Any]) -> dict[str, Any]:
    """The ``INTERACTION_CREATE`` payload ``data`` with a lean clicked message.

    Parameters
    ----------
    data
        The gateway event's payload (an interaction); not changed.

    Returns
    -------
    dict
        ``data`` with its message holding only the parts :data:`MESSAGE_READ` names: of a
        component click's components, the action row of the clicked component with that
        component alone (all of them for a layout other than action rows); of a modal
        submit's, none. ``data`` itself when it has no message (a command).
    """
    message = data.get("message")
    if message is None:
        return data
    lean = {key: message[key] for key in MESSAGE_READ if key in message}
    inner = data.get("data") or {}
    if data.get("type") == discord.InteractionType.component.value and "components" in lean:
        lean["components"] = _clicked(lean["components"], inner.get("custom_id"),
                                      inner.get("component_type"))
    elif data.get("type") == discord.InteractionType.modal_submit.value:
        lean["components"] = []  # a modal's submit is routed by its own custom_id
    return {**data, "message": lean}


def _clicked(rows: list[dict[str, Any]], custom_id: Any, kind: Any) -> list[dict[str, Any]]:
    """The action row holding the component ``custom_id`` of type ``kind``, with that
    component only; all of ``rows`` when they are not all action rows or it is not found."""
    for row in rows:
        if row.get("type") != ACTION_ROW:
            return rows
        for component in row.get("components", ()):
            if component.get("custom_id") == custom_id and component.get("type") == kind:
                return [{**row, "components": [component]}]
    return rows


_RESOURCE = interactions.InteractionCallbackResponse.resource
"""The slot of ``InteractionCallbackResponse.resource``, under :class:`LazyCallbackResponse`'s
property of that name."""


class LazyCallbackResponse(interactions.InteractionCallbackResponse):  # type: ignore[type-arg]
    """An interaction response's callback whose message (``resource``) is parsed when first
    read, not when the response arrives; installed by :func:`lazy_callback_responses`."""

    __slots__ = ("_unparsed",)

    def _update(self, data: Any) -> None:
        resource = data.get("resource") or {}
        if resource.get("message") is None:
            self._unparsed = None
            super()._update(data)
            return
        self._unparsed = data
        super()._update({**data, "resource": {**resource, "message": None}})

    @property  # type: ignore[override]
    def resource(self) -> Any:
        """The message the response created or edited (an ``InteractionMessage``), parsed
        now if it was not yet; an activity instance; or None."""
        if self._unparsed is not None:
            data, self._unparsed = self._unparsed, None
            super()._update(data)
        return _RESOURCE.__get__(self)

    @resource.setter
    def resource(self, value: Any) -> None:
        _RESOURCE.__set__(self, value)


def lazy_callback_responses() -> None:
    """Make every interaction response parse its returned message lazily
    (:class:`LazyCallbackResponse`; idempotent, for the whole process: nothing else changes
    for discord.py's users)."""
    interactions.InteractionCallbackResponse = LazyCallbackResponse  # type: ignore[misc]


async def edit_message(client: discord.Client, channel_id: int, message_id: int, *,
                       view: Any = MISSING, **fields: Any) -> None:
    """Edit a message with the bot's token, as :meth:`discord.PartialMessage.edit` does,
    without building a :class:`discord.Message` of Discord's answer.

    Parameters
    ----------
    client
        The bot.
    channel_id, message_id
        The message.
    view, **fields
        As for :meth:`discord.PartialMessage.edit` (``content``, ``embed``, ``attachments``
        …, but ``delete_after``): the same request, the same bookkeeping of the view.

    Raises
    ------
    discord.NotFound, discord.Forbidden, discord.HTTPException
        As :meth:`discord.PartialMessage.edit` (rate limits are waited out by discord.py's
        HTTP client, as for any call).
    """
    state = client._connection
    previous = state.allowed_mentions if "content" in fields else None
    if view is not MISSING:
        state.prevent_view_updates_for(message_id)
    with handle_message_parameters(view=view, previous_allowed_mentions=previous,
                                   **fields) as params:
        await client.http.edit_message(channel_id, message_id, params=params)
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)
