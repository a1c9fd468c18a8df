"""Shared simcord fixtures: the real bot from ``create_bot`` inside a simulated Discord.

Fixtures
--------
clock
    A :class:`bot.clock.ManualClock` (2026-01-01 12:00 UTC) the bot reads; move it by hand.
settings
    Hermetic :class:`bot.config.Settings`: SQLite file in ``tmp_path``, commands synced
    globally, AI delay 0, board edit interval 0, default chips (1000 start, 100 daily,
    100 buy-in). Override it in a test module to change them.
make_bot
    A function building ``create_bot(settings, clock=clock)``; every bot it built is closed
    (store and tables) after the test. simcord detaches a bot without closing it.
simcord_bot
    The first bot, from ``make_bot`` (simcord's ``simcord_env`` fixture runs it).
world
    A :class:`World`: the running env and bot, a guild with a ``#tables`` channel, members
    alice, bob, carol and dave, a second bot account ``robot``, and helpers that assert every
    interaction was answered exactly once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
import simcord
from simcord import ChannelHandle, GuildHandle, InteractionResult, MemberActor

from bot.app import ParlourBot, create_bot
from bot.clock import ManualClock
from bot.config import Settings

MEMBER_NAMES = ("alice", "bob", "carol", "dave")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(
        _env_file=None,
        discord_token=None,
        database=tmp_path / "parlour.db",
        sync="global",
        starting_chips=1000,
        daily_chips=100,
        buy_in=100,
        ai_delay=0,
        board_edit_interval=0,
        log_level="DEBUG",
    )


@pytest.fixture
async def make_bot(settings, clock):
    built: list[ParlourBot] = []

    def make() -> ParlourBot:
        built.append(create_bot(settings, clock=clock))
        return built[-1]

    yield make
    for bot in built:
        await bot.close()


@pytest.fixture
def simcord_bot(make_bot) -> ParlourBot:
    return make_bot()


@dataclass
class World:
    """One simulated server around the bot, with helpers for driving it like members do.

    The interaction helpers (``slash``, ``click``, ``select``, ``submit_modal``) fail the test
    unless the bot answered the interaction exactly once, in time (simcord enforces Discord's
    3 s and 15 min limits), and raised nothing (C06).
    """

    env: simcord.Env
    make_bot: Callable[[], ParlourBot]
    clock: ManualClock
    guild: GuildHandle
    channel: ChannelHandle
    alice: MemberActor
    bob: MemberActor
    carol: MemberActor
    dave: MemberActor
    robot: MemberActor
    extra: list[MemberActor] = field(default_factory=list)

    @property
    def bot(self) -> ParlourBot:
        """The bot now running (a new object after :meth:`restart`)."""
        return self.env.bot

    @property
    def store(self) -> Any:
        return self.bot.store

    @property
    def members(self) -> tuple[MemberActor, ...]:
        """alice, bob, carol, dave, then any added with :meth:`add_member`."""
        return (self.alice, self.bob, self.carol, self.dave, *self.extra)

    def add_member(self, name: str) -> MemberActor:
        """Another human member of the guild (for tables of more than four)."""
        member = self.guild.add_member(self.env.create_user(name, global_name=name.title()))
        self.extra.append(member)
        return member

    async def restart(self) -> ParlourBot:
        """Restart: a new bot (same settings and clock) replaces the old, which is then closed.

        The simulated Discord persists; the new bot restores its tables from the store.
        """
        old = self.bot
        await self.env.restart_bot(self.make_bot())
        await old.close()
        return self.bot

    # ---------------------------------------------------------------- interactions

    async def slash(
        self, member: MemberActor, name: str, /, *, where: ChannelHandle | None = None, **options
    ) -> InteractionResult:
        """``member`` runs ``/name`` (e.g. ``"chips give"``) in ``where`` (default #tables)."""
        return await self.answered_once(member.slash(where or self.channel, name, **options))

    async def click(self, member: MemberActor, message: Any, **which: Any) -> InteractionResult:
        """``member`` clicks a button (``label=`` or ``custom_id=``) the message shows now."""
        return await self.answered_once(member.click(message, **which))

    async def select(
        self, member: MemberActor, message: Any, values: Any, **which: Any
    ) -> InteractionResult:
        """``member`` chooses ``values`` in a select menu of the message."""
        return await self.answered_once(member.select(message, values, **which))

    async def submit_modal(
        self, member: MemberActor, shown: InteractionResult, values: dict[str, Any]
    ) -> InteractionResult:
        """``member`` fills and submits the modal the bot showed in ``shown``."""
        return await self.answered_once(member.submit_modal(shown, values))

    async def answered_once(self, operation: Any) -> InteractionResult:
        """Await one simulated interaction and assert it was answered exactly once, cleanly.

        Counts the bot's interaction-callback requests while the operation ran: exactly one,
        and it succeeded (``acknowledged``); no exception was captured from the bot.
        """
        errors_before = self.env.error_cursor
        requests_before = len(self.env.http_requests)
        result = await operation
        callbacks = [
            request
            for request in self.env.http_requests[requests_before:]
            if request.method == "POST" and request.path.endswith("/callback")
        ]
        errors = self.env.errors_since(errors_before)
        assert not errors, f"the bot raised while answering: {errors!r}"
        assert len(callbacks) == 1, f"expected one interaction callback, got {len(callbacks)}"
        assert result.acknowledged, "the interaction was never acknowledged"
        return result

    # ---------------------------------------------------------------- chips

    async def balances(self, *members: MemberActor) -> list[int]:
        """Server balances of ``members`` (creating accounts on first use, like the bot)."""
        return [await self.store.balance(self.guild.id, member.id) for member in members]

    async def assert_chips_conserved(self) -> tuple[int, int, int]:
        """Assert balances + escrow == granted - burned, and each balance == its ledger sum.

        Returns
        -------
        tuple[int, int, int]
            ``(sum of balances, escrow of this guild's tables, granted - burned)``.
        """
        balances, escrow, granted = totals = await self.store.audit(self.guild.id)
        assert balances + escrow == granted, totals
        accounts = await self.store.leaderboard(self.guild.id, limit=10_000)
        assert sum(balance for _user, balance in accounts) == balances
        for user_id, balance in accounts:
            ledger = await self.store.ledger(self.guild.id, user_id)
            assert sum(entry.delta for entry in ledger) == balance, user_id
            assert not ledger or ledger[-1].balance_after == balance, user_id
        return totals


@pytest.fixture
async def world(simcord_env, make_bot, clock) -> World:
    guild = simcord_env.create_guild("Parlour Test")
    channel = guild.create_text_channel("tables")
    humans = {
        name: guild.add_member(simcord_env.create_user(name, global_name=name.title()))
        for name in MEMBER_NAMES
    }
    robot = guild.add_member(simcord_env.create_user("robot", bot=True))
    return World(simcord_env, make_bot, clock, guild, channel, robot=robot, **humans)
