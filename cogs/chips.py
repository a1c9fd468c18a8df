"""Server chips: ``/chips balance``, ``/chips daily``, ``/chips give`` (``/leaderboard`` is
:mod:`cogs.leaderboard`).

Chips are per server (DESIGN.md §5); an account is created with the starting grant on first
use. Private answers (your balance, your daily claim, every refusal) are ephemeral; a gift is
public. Refusals change nothing (cases C08, C09). The store may be slow: each command defers
when its store work takes longer than :data:`bot.replies.ACK_BUDGET` (case C04), privately or
publicly as its success would show (see :mod:`bot.replies`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.replies import reply, within_deadline
from bot.store import InsufficientChips, LedgerEntry, Store

CHIPS_COLOUR = discord.Colour.gold()
DAILY_PERIOD = timedelta(hours=24)


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
        balance, (rank, accounts) = await within_deadline(
            interaction, self._balance_and_rank(interaction.guild_id, member.id,
                                                seen(interaction.user, member))
        )
        whose = "You hold" if member.id == interaction.user.id else f"{member.mention} holds"
        embed = discord.Embed(
            title="Chips", description=f"{whose} **{chips_text(balance)}**.", colour=CHIPS_COLOUR
        )
        embed.add_field(name="Rank on this server", value=f"{rank} of {accounts}")
        await reply(interaction, embed=embed, ephemeral=True)

    async def _balance_and_rank(
        self, guild_id: int, member_id: int, names: dict[int, str]
    ) -> tuple[int, tuple[int, int]]:
        """A member's balance (chips) and (rank, number of accounts) on a server, after
        keeping the ``names`` seen (for the boards)."""
        await self.store.remember_names(guild_id, names)
        return (await self.store.balance(guild_id, member_id),
                await self.store.rank(guild_id, member_id))

    @chips.command(name="daily")
    async def daily(self, interaction: discord.Interaction) -> None:
        """Collect your free daily chips (once every 24 hours)."""
        guild_id, user_id = interaction.guild_id, interaction.user.id
        amount = self.bot.settings.daily_chips
        now = self.bot.clock.now()
        balance, ledger = await within_deadline(
            interaction, self._claim_daily(guild_id, user_id, amount, now)
        )
        if balance is None:
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
        await reply(interaction, embed=embed, ephemeral=True)

    async def _claim_daily(
        self, guild_id: int, user_id: int, amount: int, now: datetime
    ) -> tuple[int | None, list[LedgerEntry]]:
        """Claim the daily chips: (the new balance, ``[]``), or (None, the member's ledger)
        when they were already claimed in the last 24 hours."""
        balance = await self.store.claim_daily(guild_id, user_id, amount, now)
        if balance is not None:
            return balance, []
        return None, await self.store.ledger(guild_id, user_id)

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
        try:
            balance = await within_deadline(
                interaction, self._transfer(interaction.guild_id, giver.id, member.id, amount,
                                            seen(giver, member)),
                ephemeral=False,
            )
        except InsufficientChips as short:
            await refuse(interaction, f"You hold only {chips_text(short.balance)}.")
            return
        embed = discord.Embed(
            title="Chips given",
            description=f"{giver.mention} gave {member.mention} **{chips_text(amount)}**.",
            colour=CHIPS_COLOUR,
        )
        embed.set_footer(text=f"{giver.display_name} now holds {chips_text(balance)}.")
        await reply(interaction, embed=embed)

    async def _transfer(
        self, guild_id: int, giver_id: int, member_id: int, amount: int, names: dict[int, str]
    ) -> int:
        """Move ``amount`` chips from the giver to the member (keeping the ``names`` seen);
        the giver's new balance.

        Raises
        ------
        InsufficientChips
            When the giver holds fewer than ``amount`` chips; nothing moved.
        """
        await self.store.remember_names(guild_id, names)
        balance = await self.store.balance(guild_id, giver_id)
        if amount > balance:
            raise InsufficientChips(balance, amount)
        balance, _ = await self.store.transfer(guild_id, giver_id, member_id, amount)
        return balance


def seen(*members: discord.abc.User) -> dict[int, str]:
    """Member id -> display name, kept by the store so the boards can name members who left."""
    return {member.id: member.display_name for member in members}


async def refuse(interaction: discord.Interaction, reason: str) -> None:
    """Answer with an ephemeral refusal (privately even after a public deferral); nothing
    else happens."""
    await reply(interaction, content=reason, ephemeral=True)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(Chips(bot))
