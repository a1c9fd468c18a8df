"""Server chips: ``/chips balance``, ``daily``, ``give``, ``history``, ``grant`` and ``take``
(``/leaderboard`` is :mod:`cogs.leaderboard`).

``grant`` and ``take`` need Manage Server, checked when they run; ``take`` burns the chips
(the audit is balances + escrow == grants - burns). Their amounts are typed text read
strictly (ASCII digits only), so ``1e3`` or ``１２`` is refused with a reason.

Chips are per server (DESIGN.md §5); an account is created with the starting grant on first
use. Private answers (your balance, your daily claim, every refusal) are ephemeral; a gift is
public. Refusals change nothing (cases C08, C09). The store may be slow: each command defers
when its store work takes longer than :data:`bot.replies.ACK_BUDGET` (case C04), privately or
publicly as its success would show (see :mod:`bot.replies`).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.replies import reply, within_deadline
from bot.store import InsufficientChips, LedgerEntry, Store
from bot.store.checks import MAX_CHIPS
from bot.store.sql import daily_amount

CHIPS_COLOUR = discord.Colour.gold()
DAILY_PERIOD = timedelta(hours=24)
HISTORY_PAGE = 10
_DIGITS = re.compile(r"[0-9]{1,20}")
REASONS = {
    "starting_grant": "starting grant", "daily": "daily", "gift": "gift", "buy_in": "buy-in",
    "stake": "stake", "escrow": "buy-in", "payout": "settlement", "leave": "settlement",
    "refund": "settlement", "settle": "settlement", "forfeit": "settlement",
    "orphan_return": "settlement (table closed)", "admin_grant": "grant",
    "admin_take": "taken by an admin",
}
"""How ``/chips history`` names each ledger reason."""


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
        """Collect your free daily chips (once every 24 hours; come back daily for a bonus)."""
        guild_id, user = interaction.guild_id, interaction.user
        now = self.bot.clock.now()
        balance, (streak, last) = await within_deadline(
            interaction, self._claim_daily(guild_id, user, now)
        )
        next_claim = discord.utils.format_dt(last + DAILY_PERIOD, "R") if last else "soon"
        if balance is None:
            await refuse(interaction, f"You already collected your daily chips; come back "
                         f"{next_claim}.")
            return
        settings = self.bot.settings
        amount = daily_amount(settings.daily_chips, settings.daily_streak_bonus,
                              settings.daily_streak_cap, streak)
        bonus = amount - settings.daily_chips
        embed = discord.Embed(
            title="Daily chips",
            description=f"You collected **{chips_text(amount)}**"
            + (f" (streak bonus {chips_text(bonus)})" if bonus else "")
            + f". You now hold **{chips_text(balance)}**.",
            colour=CHIPS_COLOUR,
        )
        embed.add_field(name="Streak", value=f"{streak} day{'' if streak == 1 else 's'}")
        embed.add_field(name="Next claim", value=next_claim)
        await reply(interaction, embed=embed, ephemeral=True)

    async def _claim_daily(
        self, guild_id: int, user: discord.abc.User, now: datetime
    ) -> tuple[int | None, tuple[int, datetime | None]]:
        """Claim the daily chips: (the new balance, or None when already claimed in the
        last 24 hours; the member's (streak, last claim) after it)."""
        settings = self.bot.settings
        await self.store.remember_names(guild_id, seen(user))
        balance = await self.store.claim_daily(
            guild_id, user.id, settings.daily_chips, now, settings.daily_streak_bonus,
            settings.daily_streak_cap,
        )
        return balance, await self.store.daily_streak(guild_id, user.id)

    @chips.command(name="history")
    async def history(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 100_000] = 1
    ) -> None:
        """Show your recent chip movements on this server, newest first (privately).

        Parameters
        ----------
        page
            Which page of 10 (1 is the newest).
        """
        ledger = await within_deadline(
            interaction, self.store.ledger(interaction.guild_id, interaction.user.id)
        )
        pages = max(1, -(-len(ledger) // HISTORY_PAGE))
        page = min(page, pages)
        newest = ledger[::-1][(page - 1) * HISTORY_PAGE:page * HISTORY_PAGE]
        embed = discord.Embed(
            title="Your chips history",
            description="\n".join(history_line(entry) for entry in newest)
            or "Nothing has moved yet.",
            colour=CHIPS_COLOUR,
        )
        embed.set_footer(text=f"Page {page} of {pages} · /chips history page:<n> for more")
        await reply(interaction, embed=embed, ephemeral=True)

    @chips.command(name="grant")
    async def grant(
        self, interaction: discord.Interaction, member: discord.Member, amount: str
    ) -> None:
        """Give a member new chips (Manage Server only).

        Parameters
        ----------
        member
            Who receives the chips.
        amount
            How many new chips (digits only, at least 1).
        """
        await self._admin_move(interaction, member, amount, take=False)

    @chips.command(name="take")
    async def take(
        self, interaction: discord.Interaction, member: discord.Member, amount: str
    ) -> None:
        """Take chips away from a member; they are destroyed (Manage Server only).

        Parameters
        ----------
        member
            Whose chips to take.
        amount
            How many chips (digits only, at least 1, at most their balance).
        """
        await self._admin_move(interaction, member, amount, take=True)

    async def _admin_move(
        self, interaction: discord.Interaction, member: discord.Member, text: str, *, take: bool
    ) -> None:
        """``/chips grant`` and ``/chips take``: checks, then one store operation."""
        permissions = interaction.permissions
        if not (permissions.manage_guild or permissions.administrator):
            await refuse(interaction, "You need the Manage Server permission to "
                         f"{'take' if take else 'grant'} chips.")
            return
        if member.bot:
            await refuse(interaction, f"{member.display_name} is a bot; bots don't hold chips.")
            return
        amount = parse_chips(text)
        if isinstance(amount, str):
            await refuse(interaction, amount)
            return
        guild_id = interaction.guild_id
        try:
            balance = await within_deadline(
                interaction, self._grant_or_burn(guild_id, interaction.user, member, amount,
                                                 take),
                ephemeral=False,
            )
        except InsufficientChips as short:
            await refuse(interaction, f"{member.display_name} holds only "
                         f"{chips_text(short.balance)}; nothing was taken.")
            return
        verb = "took" if take else "granted"
        preposition = "from" if take else "to"
        embed = discord.Embed(
            title="Chips taken" if take else "Chips granted",
            description=f"{discord.utils.escape_markdown(interaction.user.display_name)} {verb}"
            f" **{chips_text(amount)}** {preposition} "
            f"{discord.utils.escape_markdown(member.display_name)}.",
            colour=CHIPS_COLOUR,
        )
        embed.set_footer(text=f"{member.display_name} now holds {chips_text(balance)}.")
        await reply(interaction, embed=embed)

    async def _grant_or_burn(
        self, guild_id: int, admin: discord.abc.User, member: discord.abc.User, amount: int,
        take: bool,
    ) -> int:
        """Grant or burn ``amount`` chips of ``member``; their new balance.

        Raises
        ------
        InsufficientChips
            When taking more than the balance; nothing moved.
        """
        await self.store.remember_names(guild_id, seen(admin, member))
        if take:
            return await self.store.burn(guild_id, member.id, amount, "admin_take")
        return await self.store.grant(guild_id, member.id, amount, "admin_grant")

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


def parse_chips(text: str) -> int | str:
    """A typed amount of chips (ASCII digits only), or the sentence saying why it is not one
    (``-5``, ``0``, ``1e3``, ``１２`` and ``2**63`` are refused)."""
    cleaned = text.strip()
    shown = discord.utils.escape_markdown(cleaned[:20]) or "(nothing)"
    if not _DIGITS.fullmatch(cleaned):
        return f"“{shown}” is not a whole number of chips: type digits only, like 50."
    amount = int(cleaned)
    if amount < 1:
        return "The amount must be at least 1 chip."
    if amount > MAX_CHIPS:
        return f"The amount can be at most {MAX_CHIPS:,} chips."
    return amount


def history_line(entry: LedgerEntry) -> str:
    """``<t:…:R> · +100 · daily → 1,100 chips``: when, the change, its reason, the balance."""
    label = REASONS.get(entry.reason, entry.reason.replace("_", " "))
    if entry.kind == "grant" and entry.reason not in REASONS:
        label = "grant"
    return (f"{discord.utils.format_dt(entry.at, 'R')} · **{entry.delta:+,}** · {label} "
            f"→ {chips_text(entry.balance_after)}")


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
