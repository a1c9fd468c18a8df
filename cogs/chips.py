"""Server chips: ``/chips balance``, ``daily``, ``give``, ``history``, ``grant`` and ``take``
(``/leaderboard`` is :mod:`cogs.leaderboard`).

``grant`` and ``take`` need Manage Server, checked when they run; ``take`` burns the chips
(the audit is balances + escrow == grants - burns). Their amounts are typed text read
strictly (decimal digits of any script only, full-width ``１２`` too), so ``1e3`` or ``-5`` is
refused with a reason.

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
from bot.i18n import Language
from bot.i18n.language import ascii_digits
from bot.render.common import short_name
from bot.replies import reply, within_deadline
from bot.store import InsufficientChips, LedgerEntry, Store
from bot.store.checks import MAX_CHIPS
from bot.store.sql import daily_amount

CHIPS_COLOUR = discord.Colour.gold()
DAILY_PERIOD = timedelta(hours=24)
HISTORY_PAGE = 10
_DIGITS = re.compile(r"[0-9]+")
REASONS = {
    "starting_grant": "starting_grant", "daily": "daily", "gift": "gift", "buy_in": "buy_in",
    "stake": "stake", "escrow": "buy_in", "payout": "settlement", "leave": "settlement",
    "refund": "settlement", "settle": "settlement", "forfeit": "settlement",
    "orphan_return": "orphan_return", "admin_grant": "grant", "admin_take": "admin_take",
}
"""How ``/chips history`` names each ledger reason (message ``chips.reason.<name>``)."""


def chips_text(lang: Language, amount: int) -> str:
    """``1234`` -> ``"1,234 chips"`` (``"1 chip"`` for one) in ``lang``."""
    return lang.t("chips.amount", count=amount, amount=lang.grouped(amount))


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
        lang = await self.bot.languages.for_member(interaction)
        if member.bot:
            await refuse(interaction, lang.t("chips.bot", name=short_name(member.display_name)))
            return
        balance, (rank, accounts) = await within_deadline(
            interaction, self._balance_and_rank(interaction.guild_id, member.id,
                                                seen(interaction.user, member))
        )
        chips = chips_text(lang, balance)
        text = (lang.t("chips.you_hold", chips=chips) if member.id == interaction.user.id
                else lang.t("chips.holds", name=short_name(member.display_name), chips=chips))
        embed = discord.Embed(title=lang.t("chips.title"), description=text, colour=CHIPS_COLOUR)
        embed.add_field(name=lang.t("chips.rank"),
                        value=lang.t("chips.rank_of", rank=rank, accounts=accounts))
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
        lang = await self.bot.languages.for_member(interaction)
        now = self.bot.clock.now()
        balance, (streak, last) = await within_deadline(
            interaction, self._claim_daily(guild_id, user, now)
        )
        next_claim = (discord.utils.format_dt(last + DAILY_PERIOD, "R") if last
                      else lang.t("chips.soon"))
        if balance is None:
            await refuse(interaction, lang.t("chips.daily_again", when=next_claim))
            return
        settings = self.bot.settings
        amount = daily_amount(settings.daily_chips, settings.daily_streak_bonus,
                              settings.daily_streak_cap, streak)
        bonus = amount - settings.daily_chips
        key = "chips.daily_bonus" if bonus else "chips.daily_collected"
        embed = discord.Embed(
            title=lang.t("chips.daily_title"),
            description=lang.t(key, chips=chips_text(lang, amount),
                               bonus=chips_text(lang, bonus), balance=chips_text(lang, balance)),
            colour=CHIPS_COLOUR,
        )
        embed.add_field(name=lang.t("chips.streak"), value=lang.t("chips.days", count=streak))
        embed.add_field(name=lang.t("chips.next_claim"), value=next_claim)
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
        lang = await self.bot.languages.for_member(interaction)
        ledger = await within_deadline(
            interaction, self.store.ledger(interaction.guild_id, interaction.user.id)
        )
        pages = max(1, -(-len(ledger) // HISTORY_PAGE))
        page = min(page, pages)
        newest = ledger[::-1][(page - 1) * HISTORY_PAGE:page * HISTORY_PAGE]
        embed = discord.Embed(
            title=lang.t("chips.history_title"),
            description="\n".join(history_line(lang, entry) for entry in newest)
            or lang.t("chips.history_empty"),
            colour=CHIPS_COLOUR,
        )
        command = lang.command("/chips history page:<n>")
        embed.set_footer(text=lang.t("chips.history_footer", page=page, pages=pages,
                                     command=command))
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
        lang = await self.bot.languages.for_member(interaction)
        if not (permissions.manage_guild or permissions.administrator):
            await refuse(interaction, lang.t("chips.needs_server_take" if take
                                             else "chips.needs_server_grant"))
            return
        if member.bot:
            await refuse(interaction, lang.t("chips.bot", name=short_name(member.display_name)))
            return
        amount = parse_chips(text, lang)
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
            await refuse(interaction, lang.t("chips.holds_only_taken",
                                             name=short_name(member.display_name),
                                             chips=chips_text(lang, short.balance)))
            return
        public = await self.bot.languages.for_channel(interaction)
        embed = discord.Embed(
            title=public.t("chips.taken_title" if take else "chips.granted_title"),
            description=public.t(
                "chips.taken" if take else "chips.granted",
                admin=discord.utils.escape_markdown(interaction.user.display_name),
                chips=chips_text(public, amount),
                name=discord.utils.escape_markdown(member.display_name)),
            colour=CHIPS_COLOUR,
        )
        embed.set_footer(text=public.t("chips.now_holds", name=short_name(member.display_name),
                                       chips=chips_text(public, balance)))
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
        lang = await self.bot.languages.for_member(interaction)
        if member.bot:
            await refuse(interaction, lang.t("chips.bot", name=short_name(member.display_name)))
            return
        if member.id == giver.id:
            await refuse(interaction, lang.t("chips.give_self"))
            return
        if amount < 1:
            await refuse(interaction, lang.t("chips.give_at_least",
                                             amount=lang.grouped(amount)))
            return
        try:
            balance = await within_deadline(
                interaction, self._transfer(interaction.guild_id, giver.id, member.id, amount,
                                            seen(giver, member)),
                ephemeral=False,
            )
        except InsufficientChips as short:
            await refuse(interaction, lang.t("chips.you_hold_only",
                                             chips=chips_text(lang, short.balance)))
            return
        public = await self.bot.languages.for_channel(interaction)
        embed = discord.Embed(
            title=public.t("chips.given_title"),
            description=public.t("chips.given", giver=short_name(giver.display_name),
                                 name=short_name(member.display_name),
                                 chips=chips_text(public, amount)),
            colour=CHIPS_COLOUR,
        )
        embed.set_footer(text=public.t("chips.now_holds", name=giver.display_name,
                                       chips=chips_text(public, balance)))
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


def parse_chips(text: str, lang: Language) -> int | str:
    """A typed amount of chips (decimal digits of any script, as :func:`parse_amount` of the
    tables reads them), or the sentence in ``lang`` saying why it is not one (``-5``, ``0``,
    ``1e3``, ``+3``, ``1_0`` and ``2**63`` are refused; a
    number of more digits than :data:`MAX_CHIPS` is over the limit, not "not a number")."""
    cleaned = ascii_digits(text.strip())
    shown = discord.utils.escape_markdown(cleaned[:20]) or lang.t("refusal.nothing")
    if not _DIGITS.fullmatch(cleaned):
        return lang.t("chips.not_a_number", typed=shown)
    digits = cleaned.lstrip("0") or "0"
    if len(digits) > len(str(MAX_CHIPS)):  # also spares int() thousands of digits
        return lang.t("chips.at_most", count=MAX_CHIPS, amount=lang.grouped(MAX_CHIPS))
    amount = int(digits)
    if amount < 1:
        return lang.t("chips.at_least_one")
    if amount > MAX_CHIPS:
        return lang.t("chips.at_most", count=MAX_CHIPS, amount=lang.grouped(MAX_CHIPS))
    return amount


def history_line(lang: Language, entry: LedgerEntry) -> str:
    """``<t:…:R> · +100 · daily → 1,100 chips``: when, the change, its reason, the balance."""
    reason = REASONS.get(entry.reason)
    if reason is None:
        label = lang.t("chips.reason.grant") if entry.kind == "grant" else (
            entry.reason.replace("_", " "))
    else:
        label = lang.t(f"chips.reason.{reason}")
    return lang.t("chips.history_line", when=discord.utils.format_dt(entry.at, "R"),
                  delta=lang.grouped(entry.delta, signed=True), reason=label,
                  balance=chips_text(lang, entry.balance_after))


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
