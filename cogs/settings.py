"""``/settings dm on|off`` and ``/settings language``: a member's own preferences, and the
language of a channel or server (DESIGN.md §4 "Private hands", issue 11); ``/settings images
on|off``: a server's pictures of boards and hands (issue 14).

DM hand views: with ``on``, every deal the member plays brings one DM holding their hand and
its controls, edited as the hand changes (a deal in progress gets its DM at once); closed
DMs (50007) fall back to "My hand" with a card-free note on the board (case C14). The
answer is ephemeral (after a private deferral when the store is slow, case C04). Member
settings belong to the member, not to a server, so they also work in a DM with the bot.

Languages (:mod:`bot.i18n.choice`): ``for: me`` sets the member's private text (hands, DMs,
refusals, answers); ``for: channel`` (Manage Channels) and ``for: server`` (Manage Server)
set the boards and lobbies. ``automatic`` clears the setting (back to Discord's language).
The answer is written in the language just chosen.

Pictures (:mod:`bot.runtime.pictures`): on by default; ``off`` (Manage Server, checked when
the command runs) leaves the server's boards and hands as text only; each board drops or
regains its picture at once.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.i18n import LANGUAGES, Language
from bot.replies import reply, within_deadline

AUTOMATIC = "auto"
"""The language choice that clears a setting."""


class MemberSettings(commands.GroupCog, group_name="settings",
               group_description="Your own Parlour settings"):
    """The settings commands of one bot."""

    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot

    @app_commands.command(name="dm")
    async def dm(self, interaction: discord.Interaction, state: Literal["on", "off"]) -> None:
        """Get your hand in a DM at every deal (on) or only with My hand (off).

        Parameters
        ----------
        state
            on: one DM per deal with your hand, edited as it changes; off: none.
        """
        on = state == "on"
        lang = await self.bot.languages.for_member(interaction)
        playing = await within_deadline(
            interaction, self.bot.tables.set_dm(interaction.user.id, on)
        )
        text = lang.t("settings.dm_on" if on else "settings.dm_off")
        if on and playing:
            channels = ", ".join(f"<#{table.channel_id}>" for table in playing)
            text += "\n" + lang.t("settings.dm_on_its_way", channels=channels)
        await reply(interaction, content=text, ephemeral=True)

    @app_commands.command(name="images")
    @app_commands.guild_only()
    async def images(self, interaction: discord.Interaction,
                     state: Literal["on", "off"]) -> None:
        """Show boards and hands as pictures beside the text (on) or text only (off).

        Parameters
        ----------
        state
            on: pictures of the cards (the default); off: text only. Manage Server only.
        """
        lang = await self.bot.languages.for_member(interaction)
        permissions = interaction.permissions
        if not (permissions.manage_guild or permissions.administrator):
            await reply(interaction, content=lang.t("settings.images_needs_server"),
                        ephemeral=True)
            return
        assert interaction.guild_id is not None
        on = state == "on"
        await within_deadline(interaction, self.bot.tables.set_images(interaction.guild_id, on))
        await reply(interaction, content=lang.t("settings.images_on" if on else
                                                "settings.images_off"), ephemeral=True)
        self._show_boards(interaction, "server")

    @app_commands.command(name="language")
    @app_commands.rename(where="for")
    @app_commands.choices(
        language=[app_commands.Choice(name=LANGUAGES[code].name, value=code)
                  for code in LANGUAGES]
        + [app_commands.Choice(name="automatic", value=AUTOMATIC)],
    )
    async def language(
        self, interaction: discord.Interaction, language: str,
        where: Literal["me", "channel", "server"] = "me",
    ) -> None:
        """Choose the language Parlour speaks to you, or in this channel or server.

        Parameters
        ----------
        language
            A language, or automatic to follow Discord's language again.
        where
            me: your hands, DMs and answers; channel or server: the boards and lobbies there.
        """
        current = await self.bot.languages.for_member(interaction)
        permissions = interaction.permissions
        if where != "me" and interaction.guild_id is None:
            await reply(interaction, content=current.t("settings.language_not_here"),
                        ephemeral=True)
            return
        if where == "channel" and not (permissions.manage_channels or permissions.administrator):
            await reply(interaction, content=current.t("settings.language_needs_channels"),
                        ephemeral=True)
            return
        if where == "server" and not (permissions.manage_guild or permissions.administrator):
            await reply(interaction, content=current.t("settings.language_needs_server"),
                        ephemeral=True)
            return
        scope = {"me": f"user:{interaction.user.id}",
                 "channel": f"channel:{interaction.channel_id}",
                 "server": f"guild:{interaction.guild_id}"}[where]
        code = None if language == AUTOMATIC else language
        await within_deadline(interaction, self.bot.languages.choose(scope, code))
        await reply(interaction, content=self._chosen_text(interaction, where, code),
                    ephemeral=True)
        self._show_boards(interaction, where)

    def _chosen_text(self, interaction: discord.Interaction, where: str, code: str | None) -> str:
        languages = self.bot.languages
        if where == "me":
            lang: Language = languages.private(interaction.user.id)
        else:
            lang = languages.public(interaction.guild_id, interaction.channel_id)
        key = f"settings.language_{where}" if code else f"settings.language_{where}_auto"
        return lang.t(key, language=lang.name)

    def _show_boards(self, interaction: discord.Interaction, where: str) -> None:
        """Edit the boards a channel or server language changed (with the bot's token)."""
        if where == "me":
            return
        tables = self.bot.tables
        for table in list(tables.by_id.values()):
            if (table.channel_id == interaction.channel_id
                    or (where == "server" and table.guild_id == interaction.guild_id)):
                tables.schedule_board_edit(table)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(MemberSettings(bot))
