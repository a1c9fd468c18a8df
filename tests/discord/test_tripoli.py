"""Tripoli sessions in simcord, by slash commands and clicks only (issue 3).

Every interaction goes through :class:`Session`, which asserts that it was answered exactly
once (the ``world`` helpers), that no message showed a member a card they may not see at
that moment (rules/tripoli.md §2.10: public messages are scanned against every hidden card,
each private answer against the cards hidden from its recipient), and that chips are
conserved (balances + escrow == granted; a ranked table's escrow == its stacks + board).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from leak_scan import embed_texts, shown_cards
from simcord import InteractionResult, MemberActor

from bot.render.common import SHORT_HASH, hex_groups
from bot.runtime.table import Table, TableState
from engine.tripoli.game import TripoliGame
from engine.tripoli.phases import Phase


class Session:
    """Drives one table like its members would, checking every answer (see module doc)."""

    def __init__(self, world: Any, opened: InteractionResult, channel: Any = None) -> None:
        self.world = world
        self.opened = opened
        self.channel = channel or world.channel
        self._table: Table = world.bot.tables.by_channel[self.channel.id]
        self.actions = 0
        self.requests = 0
        self.by_kind: dict[str, list[int]] = {}  # kind of action -> REST calls of each
        self.total = 0  # a casual table's chips, fixed at the start

    @property
    def table(self) -> Table:
        """The table as the running bot holds it (a new object after a restart)."""
        live = self.world.bot.tables.by_channel.get(self.channel.id)
        if live is not None and live.id == self._table.id:
            self._table = live
        return self._table

    @property
    def board(self) -> Any:
        """The board message as it is now."""
        return self.opened.response

    @property
    def game(self) -> TripoliGame:
        return self.table.game

    def member(self, seat: int) -> MemberActor:
        member_id = self.table.seats[seat].member_id
        return next(m for m in self.world.members if m.id == member_id)

    def seat(self, member: MemberActor) -> int | None:
        return self.table.seat_of(member.id)

    # ------------------------------------------------------------------ interactions

    async def run(self, member: MemberActor, operation: Awaitable[InteractionResult],
                  kind: str = "other") -> Any:
        before = len(self.world.env.http_requests)
        result = await self.world.answered_once(operation)
        calls = len(self.world.env.http_requests) - before
        self.actions += 1
        self.requests += calls
        self.by_kind.setdefault(kind, []).append(calls)
        self.check_visibility(member, result)
        await self.check_chips()
        return result

    async def click(self, member: MemberActor, message: Any, **which: Any) -> Any:
        where = "board" if message.id == self.board.id else "private view"
        return await self.run(member, member.click(message, **which), f"click on {where}")

    async def select(self, member: MemberActor, message: Any, values: list[str]) -> Any:
        return await self.run(member, member.select(message, values), "select in private view")

    async def submit(self, member: MemberActor, shown: Any, amount: str) -> Any:
        assert shown.modal is not None, "the bot did not show a modal"
        return await self.run(member, member.submit_modal(shown, {"amount": amount}),
                              "amount modal submit")

    async def slash(self, member: MemberActor, name: str, **options: Any) -> Any:
        return await self.run(member, member.slash(self.channel, name, **options), "command")

    def report(self, name: str) -> None:
        """Print the REST calls per player action (the figure issue 3 asks for)."""
        print(f"\n{name}: {self.requests} REST calls for {self.actions} actions "
              f"= {self.requests / self.actions:.2f} per action")
        for kind, calls in sorted(self.by_kind.items()):
            print(f"  {kind}: {len(calls)} actions, {sum(calls) / len(calls):.2f} calls each")

    async def my_hand(self, member: MemberActor) -> Any:
        """Press "My hand"; returns the fresh private message."""
        result = await self.click(member, self.board, label="My hand")
        assert result.response is not None and result.response.ephemeral
        return result.response

    # ------------------------------------------------------------------ invariants

    def hidden(self) -> set[int]:
        """Cards nobody but their holder may see now (hands minus shown hands, spare)."""
        game = self.game
        if game is None:
            return set()
        shown = {int(c) for hand in game.revealed.values() for c in hand}
        held = {int(c) for hand in game.hands for c in hand} | {int(c) for c in game.spare}
        return held - shown

    def check_visibility(self, member: MemberActor, result: Any) -> None:
        hidden = self.hidden()
        for message in self.channel.history():
            if message.flags.ephemeral:
                continue
            rows = [row.to_dict() for row in message.components]
            leaked = shown_cards(message.embeds, rows) & hidden
            assert not leaked, f"public message {message.id} shows hidden cards {leaked}"
        answers = [result.response, *result.followups] if result.response else result.followups
        seat = self.seat(member)
        own = set()
        game = self.game
        if seat is not None and game is not None:
            own = {int(c) for c in game.hands[seat]}
            if seat == game.dealer and game.spare_stage == "after_exchange":
                own |= {int(c) for c in game.spare}  # his old hand, §4 item 13
        for answer in answers:
            if not answer.ephemeral:
                continue
            leaked = shown_cards(answer.embeds, answer.components) & (hidden - own)
            assert not leaked, f"{member.name} was shown someone else's cards {leaked}"

    async def check_chips(self) -> None:
        await self.world.assert_chips_conserved()
        if self.game is None:
            return
        if self.table.ranked:
            escrow = await self.world.store.table_escrow(self.table.id)
            live = self.table.state is TableState.PLAYING
            assert escrow == (self.game.total_chips() if live else 0)
        else:
            assert self.game.total_chips() == self.total

    # ------------------------------------------------------------------ playing

    async def default_move(self, seat: int, member: MemberActor) -> None:
        """A plain legal move by clicks: exchange on odd deals then keep, pass, best five,
        check or call, first lead."""
        kinds = {option.kind for option in self.game.legal_actions(seat)}
        match self.game.phase:
            case Phase.SPARE if "exchange" in kinds and self.game.deal_number % 2:
                await self.click(member, self.board, label="Exchange")
            case Phase.SPARE:
                if self.game.spare_stage == "after_exchange":
                    hand = await self.my_hand(member)  # shows the old hand to the dealer
                    assert "Your old hand" in hand.embeds[0].fields[0].name
                await self.click(member, self.board, label="Keep")
            case Phase.AUCTION:
                await self.click(member, self.board, label="Pass")
            case Phase.SELECT:
                hand = await self.my_hand(member)
                await self.click(member, hand, label="Best five")
            case Phase.BETTING if "check" in kinds:
                await self.click(member, self.board, label="Check")
            case Phase.BETTING:  # "Call N": the board shows what calling costs
                call = next(label for label in labels(self.board) if label.startswith("Call"))
                await self.click(member, self.board, label=call)
            case Phase.MICHIGAN:
                hand = await self.my_hand(member)
                leads = [label for label in labels(hand) if label.startswith("Lead ")]
                if leads:
                    await self.click(member, hand, label=leads[0])
                else:  # many legal leads: a select
                    await self.select(member, hand, [options(hand)[0]])

    async def play_until(
        self,
        done: Callable[[], bool],
        move: Callable[[int, MemberActor], Awaitable[None]] | None = None,
    ) -> None:
        """Make the pending human decisions until ``done()``; AI seats act by themselves."""
        for _ in range(400):
            if done():
                return
            to_act = sorted(self.game.to_act)
            assert to_act, f"nobody to act in {self.game.phase}"
            assert all(not self.table.seats[s].ai for s in to_act), "an AI seat is stuck"
            seat = to_act[0]
            await (move or self.default_move)(seat, self.member(seat))
        raise AssertionError("the deal did not finish")


def labels(message: Any) -> list[str]:
    rows = [row if isinstance(row, dict) else row.to_dict() for row in message.components]
    return [c.get("label") or "" for row in rows for c in row["components"]]


def options(message: Any) -> list[str]:
    return [o["value"] for row in message.components for c in row["components"]
            for o in c.get("options", [])]


async def open_table(world: Any, host: MemberActor, *joiners: MemberActor,
                     channel: Any = None, **options: Any) -> Session:
    opened = await world.slash(host, "tripoli start", where=channel, **options)
    session = Session(world, opened, channel)
    for member in joiners:
        await session.click(member, session.board, label="Join")
    return session


# ---------------------------------------------------------------------- sessions


async def test_ranked_session_three_members(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol, bet_limit=10, buy_in=50)
    before = await world.balances(alice, bob, carol)
    start = await session.click(alice, session.board, label="Start")
    assert start.response.id == session.board.id  # the lobby became the board
    assert await world.balances(alice, bob, carol) == [b - 50 for b in before]
    assert await world.store.table_escrow(session.table.id) == 150
    assert session.game.commitment[:SHORT_HASH] in session.board.embeds[0].footer.text

    async def scripted(seat: int, member: MemberActor) -> None:
        """Deal 1 uses the auction, a bid modal, the poker select and a bet."""
        game = session.game
        kinds = {option.kind for option in game.legal_actions(seat)}
        if game.phase is Phase.SPARE:
            await session.click(member, session.board, label="Auction")
        elif game.phase is Phase.AUCTION and "bid" in kinds and game.auction.high_bid == 0:
            shown = await session.click(member, session.board, label="Bid…")
            await session.submit(member, shown, "2")
        elif game.phase is Phase.SELECT and seat == min(game.to_act) and not game.selections:
            hand = await session.my_hand(member)
            chosen = options(hand)[:5]
            await session.select(member, hand, chosen)
            assert [int(c) for c in game.selections[seat]] == sorted(int(c) for c in chosen)
        elif game.phase is Phase.BETTING and "bet" in kinds:
            shown = await session.click(member, session.board, label="Bet…")
            await session.submit(member, shown, "3")
        else:
            await session.default_move(seat, member)

    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS, scripted)
    assert session.game.deal_number == 1
    board_text = " ".join(embed_texts(session.board.embeds))
    assert "Deal 1 is over:" in board_text
    assert "Next deal" in labels(session.board)

    ended = await session.slash(alice, "tripoli end")
    assert ended.response.ephemeral
    await session.play_until(lambda: session.table.state is TableState.OVER)
    stacks = session.game.result
    assert sum(stacks.values()) == 150
    after = await world.balances(alice, bob, carol)
    assert after == [b - 50 + stacks[session.seat(m)] for b, m in
                     zip(before, (alice, bob, carol), strict=True)]
    assert await world.store.table_escrow(session.table.id) == 0
    final = session.board.embeds[0]
    assert hex_groups(session.table.seed.hex()) in final.footer.text  # revealed at the end
    assert labels(session.board) == ["Rematch", "My record"]
    assert session.table.id not in world.bot.tables.by_id
    assert world.channel.id not in world.bot.tables.by_channel
    session.report("ranked, 3 members")


async def test_casual_session_two_members_two_ai(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob, buy_in=100)
    for _ in range(2):
        await session.click(alice, session.board, label="Add AI")
    assert "Casual" in session.board.embeds[0].description
    balances = await world.balances(alice, bob)
    refused = await session.click(bob, session.board, label="Start")
    assert refused.response.ephemeral and "host" in refused.response.content
    session.total = 400
    await session.click(alice, session.board, label="Start")
    assert not session.table.ranked and len(session.table.seats) == 4
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    assert session.game.deal_number == 1 and session.game.total_chips() == 400
    await session.click(bob, session.board, label="Next deal")
    assert session.game.deal_number == 2
    await session.slash(alice, "tripoli end", now=True)
    await session.play_until(lambda: session.table.state is TableState.OVER)
    assert sum(session.game.result.values()) == 400
    assert await world.balances(alice, bob) == balances  # play chips only
    session.report("casual, 2 members + 2 AI")


async def test_dealer_exchanges_and_alone_sees_the_old_hand(world):
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    dealer = session.game.dealer
    member, other = session.member(dealer), session.member(1 - dealer)
    spare = {int(c) for c in session.game.spare}
    await session.click(member, session.board, label="Exchange")
    assert {int(c) for c in session.game.hands[dealer]} == spare
    assert session.game.spare_stage == "after_exchange"
    assert set(labels(session.board)) >= {"Keep", "Auction"}  # auction the old hand or not
    hand = await session.my_hand(member)
    assert "Your old hand" in hand.embeds[0].fields[0].name
    other_hand = await session.my_hand(other)
    assert "old hand" not in " ".join(embed_texts(other_hand.embeds))
    await session.click(member, session.board, label="Keep")
    assert session.game.phase is Phase.SELECT


async def test_members_join_and_leave_between_deals(world):
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    session = await open_table(world, alice, bob, carol)
    await session.click(alice, session.board, label="Start")
    refused = await session.click(dave, session.board, label="Leave")
    assert refused.response.ephemeral and "not seated" in refused.response.content
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    [dave_before] = await world.balances(dave)
    await session.click(dave, session.board, label="Join")
    assert session.seat(dave) == 3 and await world.balances(dave) == [dave_before - 100]
    [carol_before] = await world.balances(carol)
    carol_stack = session.game.stacks[session.seat(carol)]
    await session.click(carol, session.board, label="Leave")
    assert session.seat(carol) is None
    assert await world.balances(carol) == [carol_before + carol_stack]
    await session.click(dave, session.board, label="Next deal")
    assert session.game.deal_number == 2 and 3 in session.game.players
    assert 2 not in session.game.players
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    await session.slash(bob, "tripoli end", now=False)  # not the host: refused
    assert not session.table.ending
    await session.slash(alice, "tripoli end")
    await session.play_until(lambda: session.table.state is TableState.OVER)
    assert await world.store.table_escrow(session.table.id) == 0


async def test_ending_a_lobby_closes_it(world):
    session = await open_table(world, world.alice, world.bob)
    result = await session.slash(world.alice, "tripoli end")
    assert result.response.ephemeral and session.table.state is TableState.OVER
    assert session.board.components == [] and "cancelled" in session.board.embeds[0].description
    again = await world.slash(world.bob, "tripoli start")  # the channel is free again
    assert not again.response.ephemeral
