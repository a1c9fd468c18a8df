"""No leaks, no privilege (issue 5 item 5): whole Tripoli sessions in simcord, with every
message and log line scanned for a card its viewer may not see (rules/tripoli.md §2.10).

After every interaction and every jump of time, :class:`Watch` looks at each message that is
new or changed since its last look and checks it against what its viewer may see *at that
moment*:

- public messages (boards, gifts, re-posted boards): no hidden card;
- the ephemeral messages of each member (My hand, refusals, error replies, every follow-up)
  and their DMs (hand views): no hidden card but the ones the member has held during this
  deal (their hand as it changed; the dealer's old hand after an exchange, §4 item 13);
- every log line of the bot's loggers (``parlour.*``, captured at DEBUG): no hidden card by
  name or by id in a custom_id.

Faults on the way: DMs on for one member and closed (50007) for another, a board edit that
fails with 10008 (re-posted), a store write that fails, a restart mid-deal, refusals.

No privilege: every command is audited; host controls need the host or Manage Channels;
only seated members act.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from leak_scan import message_cards, named_cards
from simcord import MemberActor
from test_tripoli import Session

from bot.runtime.table import TableState
from bot.store import StoreError
from engine.tripoli.phases import Phase


def fingerprint(message: Any) -> tuple[Any, ...]:
    return (
        message.content,
        [embed.to_dict() for embed in message.embeds],
        [row.to_dict() for row in message.components],
    )


class Watch:
    """Scans what each viewer sees, once per new or changed message (module docstring)."""

    def __init__(self, world: Any, session: Session, caplog: pytest.LogCaptureFixture) -> None:
        self.world = world
        self.session = session
        self.caplog = caplog
        self.seen: dict[int, tuple[Any, ...]] = {}
        self.held: dict[tuple[int, int], set[int]] = {}  # (member, deal) -> cards held
        self.logged = 0
        self.private_cards = 0  # private messages that showed cards (the scan sees cards)
        self.log_lines = 0

    def allowed(self, member: MemberActor) -> set[int]:
        """Hidden cards ``member`` may see now: those held in this deal (§2.10, §4 item 13)."""
        game = self.session.game
        if game is None:
            return set()
        return self.held.get((member.id, game.deal_number), set())

    def learn(self) -> None:
        game = self.session.game
        if game is None or self.session.table.state is not TableState.PLAYING:
            return
        for member in self.world.members:
            seat = self.session.seat(member)
            if seat is None:
                continue
            cards = {int(c) for c in game.hands[seat]}
            if seat == game.dealer and game.spare_stage == "after_exchange":
                cards |= {int(c) for c in game.spare}
            self.held.setdefault((member.id, game.deal_number), set()).update(cards)

    def changed(self, message: Any) -> bool:
        mark = fingerprint(message)
        if self.seen.get(message.id) == mark:
            return False
        self.seen[message.id] = mark
        return True

    def scan(self) -> None:
        self.learn()
        hidden = self.session.hidden()
        channel = self.session.channel
        public = {m.id for m in channel.history() if not m.flags.ephemeral}
        for message in channel.history():
            if message.id in public and self.changed(message):
                leaked = message_cards(message) & hidden
                assert not leaked, f"public message {message.id} shows hidden cards {leaked}"
        for member in self.world.members:
            private = [m for m in channel.history(viewer=member) if m.id not in public]
            if member.user.dm_channel is not None:
                private += member.user.dm_channel.history()
            for message in private:
                if not self.changed(message):
                    continue
                shown = message_cards(message)
                self.private_cards += bool(shown)
                leaked = shown & (hidden - self.allowed(member))
                assert not leaked, f"{member.name} was shown someone else's cards {leaked}"
        records = [r for r in self.caplog.records if r.name.startswith("parlour")]
        for record in records[self.logged:]:
            text = record.getMessage() + "\n" + (record.exc_text or "")
            leaked = named_cards(text) & hidden
            assert not leaked, f"log line {text!r} names hidden cards {leaked}"
        self.log_lines += len(records) - self.logged
        self.logged = len(records)


class WatchedSession(Session):
    """A :class:`Session` whose every answer is followed by a :class:`Watch` scan, and whose
    board follows the table when it is re-posted."""

    watch: Watch

    @property
    def board(self) -> Any:
        board_id = self.table.board_message_id
        for message in self.channel.history():
            if message.id == board_id:
                return message
        return self.opened.response

    def check_visibility(self, member: MemberActor, result: Any) -> None:
        super().check_visibility(member, result)
        self.watch.scan()

    async def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass on the bot's clock and simcord's, then scan."""
        self.world.clock.advance(seconds)
        await self.world.env.advance_time(seconds)
        self.watch.scan()


async def watched(world: Any, caplog: Any, host: MemberActor, *joiners: MemberActor,
                  **options: Any) -> WatchedSession:
    opened = await world.slash(host, "tripoli start", **options)
    session = WatchedSession(world, opened)
    session.watch = Watch(world, session, caplog)
    for member in joiners:
        await session.click(member, session.board, label="Join")
    return session


@pytest.fixture
def caplog(caplog):
    caplog.set_level(logging.DEBUG, logger="parlour")
    return caplog


async def play_deal(session: WatchedSession) -> None:
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    session.watch.scan()


async def test_a_ranked_session_with_faults_leaks_no_card(world, caplog):
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    await world.slash(alice, "settings dm", state="on")
    await world.slash(bob, "settings dm", state="on")
    bob_dm = await world.bot.create_dm(bob.user)
    world.env.inject_error("POST", f"/channels/{bob_dm.id}/messages", status=403, code=50007,
                           times=None)  # bob's DMs are closed (C14)
    session = await watched(world, caplog, alice, bob, carol, buy_in=60)
    await session.click(alice, session.board, label="Start")
    await session.wait(1)
    assert "Bob's DMs are closed" in " ".join(f.value for f in session.board.embeds[0].fields)
    [alice_dm] = alice.user.dm_channel.history()

    # refusals and error replies are scanned too
    await session.click(dave, session.board, label="My hand")  # not seated
    dealer = session.game.dealer
    other = session.member((dealer + 1) % 3)
    await session.click(other, session.board, label="Keep")  # not their decision
    save = world.store.commit_table

    async def broken(*_args: Any) -> None:
        raise StoreError("disk full")

    world.store.commit_table = broken
    failed = await session.click(session.member(dealer), session.board, label="Exchange")
    assert "try again" in failed.response.content
    world.store.commit_table = save
    await session.click(session.member(dealer), session.board, label="Exchange")
    await session.my_hand(session.member(dealer))  # the old hand, for the dealer only
    await session.click(session.member(dealer), session.board, label="Keep")

    # the board is deleted (10008) while a member plays from a private view
    old_board = session.board.id
    world.env.inject_error("PATCH", f"/channels/*/messages/{old_board}", status=404, code=10008)
    member = session.member(min(session.game.to_act))
    await session.click(member, await session.my_hand(member), label="Best five")
    await session.wait(1)
    assert session.board.id != old_board

    # restart mid-deal: old board buttons, old private views and the DM keep working
    chips = await world.assert_chips_conserved()
    await world.restart()
    assert await world.assert_chips_conserved() == chips
    await session.wait(1)
    await play_deal(session)
    assert len(alice.user.dm_channel.history()) == 1 and alice_dm.id == (
        alice.user.dm_channel.history()[0].id)
    await session.click(bob, session.board, label="Next deal")
    await session.wait(1)
    assert len(alice.user.dm_channel.history()) == 2  # one DM per deal
    await play_deal(session)
    await session.slash(alice, "tripoli end")
    await session.play_until(lambda: session.table.state is TableState.OVER)
    await session.wait(1)
    assert await world.store.table_escrow(session.table.id) == 0
    assert session.watch.private_cards >= 6  # the scan saw the hands it checks
    assert session.watch.log_lines > 0  # and the bot's log lines


async def test_a_casual_session_with_timeouts_leaks_no_card(world, caplog):
    alice, bob = world.alice, world.bob
    await world.slash(bob, "settings dm", state="on")
    session = await watched(world, caplog, alice, bob, buy_in=100)
    for _ in range(2):
        await session.click(alice, session.board, label="Add AI")
    session.total = 400
    await session.click(alice, session.board, label="Start")
    await session.wait(1)
    taken_over = 0
    for _ in range(2):  # bob stays silent: the timeout actions, then the AI plays his seat
        for _ in range(20):
            if session.table.seats[session.seat(bob)].ai or not session.game.to_act:
                break
            seat = min(session.game.to_act)
            if session.member(seat) is alice:
                await session.default_move(seat, alice)
            else:
                await session.wait(130)
        if session.table.seats[session.seat(bob)].ai:
            taken_over += 1
            await session.click(bob, session.board, label="I'm back")
        await play_deal(session)
        assert "Next deal" in [getattr(c, "label", None) for row in session.board.components
                               for c in row.children]
        await session.click(alice, session.board, label="Next deal")
    await session.slash(alice, "tripoli end", now=True)
    await session.play_until(lambda: session.table.state is TableState.OVER)
    await session.wait(1)
    assert sum(session.game.result.values()) == 400
    assert taken_over and session.watch.private_cards >= 3


# ---------------------------------------------------------------------- no privilege

GAME_COMMANDS = "every member starts; kick and end: the host or Manage Channels, at run time"

PRIVILEGES = {
    "chips": "every member (balance, daily, give, history: their own chips only); grant and "
             "take: Manage Server, at run time",
    "help": "every member",
    "kalooki": GAME_COMMANDS,
    "leaderboard": "every member",
    "settings": "every member (dm: their own setting); images: Manage Server, at run time",
    "stats": "every member",
    "tripoli": GAME_COMMANDS,
    "troefcall": GAME_COMMANDS,
}
"""The audit of every top-level command. None is for admins only, so none sets default
permissions (Discord ignores them on subcommands: /<game> kick and end and /chips grant and
take check at run time)."""


async def test_every_command_is_audited_and_none_hides_behind_default_permissions(world):
    commands = {command.name: command for command in world.bot.tree.get_commands()}
    assert set(commands) == set(PRIVILEGES)
    for command in commands.values():
        assert command.default_permissions is None, command.name


@pytest.fixture
def moderator(world) -> MemberActor:
    """A member with Manage Channels (through a role), seated nowhere."""
    role = world.guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    return world.guild.add_member(world.env.create_user("mod", global_name="Mod"), roles=[role])


async def test_host_controls_need_the_host_or_manage_channels(world, caplog, moderator):
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    session = await watched(world, caplog, alice, bob, carol)
    for label in ("Add AI", "Start", "Cancel"):
        result = await session.click(dave, session.board, label=label)
        assert "Only the host or a member with Manage Channels" in result.response.content
    kicked = await world.slash(dave, "tripoli kick", member=carol)
    assert kicked.response.ephemeral and session.seat(carol) == 2
    await world.slash(moderator, "tripoli kick", member=carol)
    assert session.seat(carol) is None
    await session.click(moderator, session.board, label="Start")
    assert session.table.state is TableState.PLAYING and session.seat(moderator) is None
    ended = await world.slash(bob, "tripoli end", now=True)
    assert "Only the host" in ended.response.content and not session.table.ending
    await world.slash(moderator, "tripoli end", now=True)
    assert session.table.ending


async def test_only_seated_members_act(world, caplog):
    alice, bob, dave = world.alice, world.bob, world.dave
    session = await watched(world, caplog, alice, bob)
    await session.click(alice, session.board, label="Start")
    dealer = session.member(session.game.dealer)
    before = session.game.model_dump_json()
    for label in ("My hand", "Keep", "Leave"):
        result = await session.click(dave, session.board, label=label)
        assert "not seated" in result.response.content
    other = bob if dealer is alice else alice
    result = await session.click(other, session.board, label="Keep")  # the dealer's decision
    assert "Not your turn" in result.response.content
    assert session.game.model_dump_json() == before
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    result = await session.click(dave, session.board, label="Next deal")
    assert "not seated" in result.response.content and session.game.deal_number == 1
