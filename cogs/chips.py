"""Server chips: ``/chips balance``, ``/chips daily``, ``/chips give`` and ``/leaderboard``.

Chips are per server (DESIGN.md §5); an account is created with the starting grant on first use.
Private answers (your balance, your daily claim, every refusal) are ephemeral; a gift and the
leaderboard are public. Refusals change nothing (cases C08, C09).
"""

from __future__ import annotations

from datetime import timedelta

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.store import InsufficientChips, Store

CHIPS_COLOUR = discord.Colour.gold()
DAILY_PERIOD = timedelta(hours=24)
LEADERBOARD_SIZE = 10


def chips_text(amount: int) -> str:
    """``1234`` -> ``"1,234 chips"`` (``"1 chip"`` for one)."""
    return f"{amount:,} chip{'' if amount == 1 else 's'}"


class Chips(commands.Cog):
    """The chip commands of one bot."""

    chips = app_commands.Group(
        name="chips", description="Your chips on this server", guild_only=True
    )

    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot

    @property
    def store(self) -> Store:
        """The bot's chip bank."""
        return self.bot.store

    @chips.command(name="balance")
    async def balance(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        """Show how many chips you (or another member) hold on this server.

        Parameters
        ----------
        member
            Whose balance to show; yourself when left out.
        """
        member = member or interaction.user
        if member.bot:
            await refuse(interaction, f"{member.mention} is a bot; bots don't hold chips.")
            return
        guild_id = interaction.guild_id
        balance = await self.store.balance(guild_id, member.id)
        rank, accounts = await self.store.rank(guild_id, member.id)
        whose = "You hold" if member.id == interaction.user.id else f"{member.mention} holds"
        embed = discord.Embed(
            title="Chips", description=f"{whose} **{chips_text(balance)}**.", colour=CHIPS_COLOUR
        )
        embed.add_field(name="Rank on this server", value=f"{rank} of {accounts}")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @chips.command(name="daily")
    async def daily(self, interaction: discord.Interaction) -> None:
        """Collect your free daily chips (once every 24 hours)."""
        guild_id, user_id = interaction.guild_id, interaction.user.id
        amount = self.bot.settings.daily_chips
        now = self.bot.clock.now()
        balance = await self.store.claim_daily(guild_id, user_id, amount, now)
        if balance is None:
            ledger = await self.store.ledger(guild_id, user_id)
            claims = [entry.at for entry in ledger if entry.reason == "daily"]
            when = discord.utils.format_dt(max(claims) + DAILY_PERIOD, "R") if claims else "soon"
            await refuse(interaction, f"You already collected your daily chips; come back {when}.")
            return
        embed = discord.Embed(
            title="Daily chips",
            description=f"You collected **{chips_text(amount)}**. "
            f"You now hold **{chips_text(balance)}**.",
            colour=CHIPS_COLOUR,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @chips.command(name="give")
    async def give(
        self, interaction: discord.Interaction, member: discord.Member, amount: int
    ) -> None:
        """Give some of your chips to another member of this server.

        Parameters
        ----------
        member
            Who receives the chips.
        amount
            How many chips to give (a whole number, at least 1).
        """
        giver = interaction.user
        if member.bot:
            await refuse(interaction, f"{member.mention} is a bot; bots don't hold chips.")
            return
        if member.id == giver.id:
            await refuse(interaction, "You can't give chips to yourself.")
            return
        if amount < 1:
            await refuse(interaction, f"You can only give 1 chip or more, not {amount:,}.")
            return
        guild_id = interaction.guild_id
        balance = await self.store.balance(guild_id, giver.id)
        if amount > balance:
            await refuse(interaction, f"You hold only {chips_text(balance)}.")
            return
        try:
            balance, _ = await self.store.transfer(guild_id, giver.id, member.id, amount)
        except InsufficientChips as short:  # another change landed since the check above
            await refuse(interaction, f"You hold only {chips_text(short.balance)}.")
            return
        embed = discord.Embed(
            title="Chips given",
            description=f"{giver.mention} gave {member.mention} **{chips_text(amount)}**.",
            colour=CHIPS_COLOUR,
        )
        embed.set_footer(text=f"{giver.display_name} now holds {chips_text(balance)}.")
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="leaderboard")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        """Show the richest members of this server and your rank."""
        guild_id, user_id = interaction.guild_id, interaction.user.id
        balance = await self.store.balance(guild_id, user_id)
        top = await self.store.leaderboard(guild_id, limit=LEADERBOARD_SIZE)
        rank, accounts = await self.store.rank(guild_id, user_id)
        lines = [
            f"**{place}.** <@{member_id}> — {chips_text(chips)}"
            for place, (member_id, chips) in enumerate(top, start=1)
        ]
        embed = discord.Embed(
            title=f"Leaderboard — {interaction.guild.name}" if interaction.guild else "Leaderboard",
            description="\n".join(lines),
            colour=CHIPS_COLOUR,
        )
        embed.add_field(
            name="Your rank", value=f"{rank} of {accounts} ({chips_text(balance)})", inline=False
        )
        await interaction.response.send_message(embed=embed)


async def refuse(interaction: discord.Interaction, reason: str) -> None:
    """Answer with an ephemeral refusal; nothing else happens."""
    await interaction.response.send_message(reason, ephemeral=True)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(Chips(bot))
