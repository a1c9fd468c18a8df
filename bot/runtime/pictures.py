"""Attaching a rendered message's picture: the board's and "My hand"'s PNG (issue 14).

The picture is an attachment (``discord.File``) shown as the embed's ``image``
(``attachment://<name>``); the text stays as it is beside it. The attachment's name holds
the key of what the picture shows (:func:`bot.images.picture.filename`), so an edit whose
picture did not change sends none (Discord keeps the message's attachment, and the embed
still points at it); a changed picture replaces it (one attachment per edit); a picture
turned off removes it. A server's images are turned off by ``/settings images off``
(setting ``guild:<id>`` / :data:`IMAGES_SETTING`, JSON ``false``; on by default).

:class:`Pictures` is mixed into :class:`bot.runtime.registry.TableRegistry`.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

import discord

from bot.images.cache import PICTURES
from bot.images.picture import filename
from bot.runtime.renders import Shown
from bot.runtime.spec import Rendered

IMAGES_SETTING = "images"
"""Key of a server's pictures setting (scope ``guild:<id>``, JSON ``true``/``false``)."""


@dataclass(frozen=True)
class Outgoing:
    """A rendered message ready to send or edit: its embed (pointing at the picture, if
    any), its components, and the picture's attachment name and PNG."""

    embed: discord.Embed
    view: discord.ui.View | None
    name: str | None = None
    data: bytes = b""

    def _file(self) -> discord.File:
        assert self.name is not None
        return discord.File(io.BytesIO(self.data), filename=self.name)

    def send(self) -> dict[str, Any]:
        """Keyword arguments of a new message (``send``, ``send_message``, a follow-up)."""
        parts: dict[str, Any] = {"embed": self.embed, "view": self.view}
        if self.name is not None:
            parts["file"] = self._file()
        return parts

    def edit(self, shown: str | None) -> dict[str, Any]:
        """Keyword arguments of an edit of a message whose attachment is ``shown`` (None:
        none): the new picture only when it differs, no attachment when there is none."""
        parts: dict[str, Any] = {"embed": self.embed, "view": self.view}
        if self.name != shown:
            parts["attachments"] = [] if self.name is None else [self._file()]
        return parts

    def record(self, pictures: dict[int, str], message_id: int) -> None:
        """Note in ``pictures`` (message id -> attachment name) what message ``message_id``
        carries once sent or edited."""
        if self.name is None:
            pictures.pop(message_id, None)
        else:
            pictures[message_id] = self.name


def attached(message: discord.Message | None) -> str | None:
    """The name of the picture ``message`` carries, if any."""
    if message is None or not message.attachments:
        return None
    return message.attachments[0].filename


class Pictures:
    """The pictures setting per server and the attaching of pictures (module docstring)."""

    bot: Any
    _images: dict[int, bool]

    async def images_on(self, guild_id: int) -> bool:
        """Whether the server shows pictures (read from the store once, then kept)."""
        if guild_id not in self._images:
            text = await self.bot.store.get_setting(f"guild:{guild_id}", IMAGES_SETTING)
            self._images[guild_id] = text is None or json.loads(text) is not False
        return self._images[guild_id]

    async def set_images(self, guild_id: int, on: bool) -> None:
        """Turn the server's pictures on or off; boards show it at their next edit.

        Raises
        ------
        StoreError
            When the setting cannot be saved; nothing changed then.
        """
        await self.bot.store.set_setting(f"guild:{guild_id}", IMAGES_SETTING, json.dumps(on))
        self._images[guild_id] = on

    async def look(self, guild_id: int, shown: Shown) -> int:
        """A hash of what a message showing ``shown`` looks like: its text and components
        (:meth:`bot.runtime.renders.Shown.digest`) and the name of its picture (a board
        whose picture was turned off or on does not look the same). The picture's
        description is made only when the server shows pictures."""
        picture = None
        if shown.rendered.describe is not None and await self.images_on(guild_id):
            picture = filename(shown.rendered.picture)
        return hash((shown.digest(), picture))

    async def outgoing(self, guild_id: int, rendered: Rendered) -> Outgoing:
        """``rendered`` with its picture drawn (cached, off the event loop) and its embed
        pointing at it; without a picture when it has none or the server turned them off
        (then its description is not made)."""
        picture = None
        if rendered.describe is not None and await self.images_on(guild_id):
            picture = rendered.picture
        if picture is None:
            return Outgoing(rendered.embed, rendered.view)
        name, data = await PICTURES.png(picture)
        embed = rendered.embed.copy()
        embed.set_image(url=f"attachment://{name}")
        return Outgoing(embed, rendered.view, name, data)
