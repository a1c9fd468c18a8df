"""``/settings dm on|off``: a member's own preferences (DESIGN.md §4 "Private hands").

DM hand views: with ``on``, every deal the member plays brings one DM holding their hand and
its controls, edited as the hand changes (a deal in progress gets its DM at once); closed
DMs (50007) fall back to "My hand" with a card-free note on the board (case C14). The
answer is ephemeral (after a private deferral when the store is slow, case C04). Settings
belong to the member, not to a server, so the command also works in a DM with the bot.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.replies import reply, within_deadline

DM_ON = (
    "DM hand views are **on**: for every deal you play I send you one DM with your hand and "
    "its controls, kept up to date. If your DMs are closed, use **My hand** on the board."
)
DM_OFF = "DM hand views are **off**: use **My hand** on the board to see your cards."


class MemberSettings(commands.GroupCog, group_name="settings",
               group_description="Your own Parlour settings"):
    """The member settings commands of one bot."""

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
        playing = await within_deadline(
            interaction, self.bot.tables.set_dm(interaction.user.id, on)
        )
        text = DM_ON if on else DM_OFF
        if on and playing:
            channels = ", ".join(f"<#{table.channel_id}>" for table in playing)
            text += f"\nYour hand at the table in {channels} is on its way."
        await reply(interaction, content=text, ephemeral=True)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(MemberSettings(bot))
