"""Leaving and kicks at tables played for chips, in simcord: a kicked member did not choose to
leave and gets the stake back at the kick (a staked Kalooki or Troefcall table) or the stack
paid out (a Tripoli buy-in table); chips are exact at every step."""

from __future__ import annotations

import pytest

from bot.runtime.table import TableState

START, STAKE = 1000, 100


async def staked_table(world, game: str):
    """A started ranked table of ``game`` for a stake of :data:`STAKE`: its board and people
    (Alice the host, Bob and Carol; Dave too at Troefcall)."""
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    board = (await world.slash(alice, f"{game} start", stake=STAKE)).response
    if game == "troefcall":
        joins = ((bob, "Join Team B"), (carol, "Join Team A"), (dave, "Join Team B"))
    else:
        joins = ((bob, "Join"), (carol, "Join"))
    for member, label in joins:
        await world.click(member, board, label=label)
    await world.click(alice, board, label="Start")
    people = (alice, bob, carol) + ((dave,) if game == "troefcall" else ())
    table = world.bot.tables.by_channel[world.channel.id]
    assert table.state is TableState.PLAYING and table.ranked
    return board, table, people


def labels_of(message) -> list[str]:
    """The labels of ``message``'s buttons."""
    return [child.label for row in message.components for child in row.children]


async def end_now(world, table) -> None:
    """``/<game> end now:True`` by the host, then time until the table is closed."""
    await world.slash(world.alice, f"{table.game_name} end", now=True)
    for _ in range(50):
        if world.channel.id not in world.bot.tables.by_channel:
            break
        world.clock.advance(600)
        await world.env.advance_time(600)
    assert table.state is TableState.OVER


@pytest.mark.parametrize("game", ["kalooki", "troefcall"])
async def test_a_kicked_member_gets_the_stake_back_at_the_kick(world, game):
    """Tryout: a kick took the member's stake, shared at the end among those who stayed."""
    _board, table, people = await staked_table(world, game)
    bob = world.bob
    assert await world.balances(*people) == [START - STAKE] * len(people)
    kicked = await world.slash(world.alice, f"{game} kick", member=bob)
    assert kicked.response.ephemeral and kicked.response.content.startswith("Done: Bob")
    assert table.seat_of(bob.id) is None
    others = [member for member in people if member is not bob]
    assert await world.balances(bob) == [START]  # in full, at once
    assert await world.balances(*others) == [START - STAKE] * len(others)
    assert await world.store.table_escrow(table.id) == STAKE * len(others) == table.staked
    refunds = [entry for entry in await world.store.ledger(world.guild.id, bob.id)
               if entry.reason == "refund"]
    assert [entry.delta for entry in refunds] == [STAKE]
    await world.assert_chips_conserved()
    shown = next(m for m in world.channel.history() if m.id == table.board_message_id)
    board_text = str(shown.embeds[0].to_dict())
    assert "Bob was removed from the table and got their stake of 100 chips back." in board_text
    await end_now(world, table)  # no winner: every stake still in goes back
    assert await world.balances(*people) == [START] * len(people)
    assert await world.store.table_escrow(table.id) == 0
    assert await world.assert_chips_conserved()


async def test_a_leaver_still_forfeits_the_stake(world):
    """Leaving is the member's choice: the stake stays in the pot (shared when nobody wins)."""
    _board, table, people = await staked_table(world, "kalooki")
    alice, bob, carol = people
    await world.bot.tables.leave(table, bob.id)
    assert await world.balances(bob) == [START - STAKE]
    assert await world.store.table_escrow(table.id) == 3 * STAKE
    await end_now(world, table)
    assert await world.balances(bob) == [START - STAKE]
    assert sorted(await world.balances(alice, carol)) == [START + STAKE // 2] * 2
    assert await world.store.table_escrow(table.id) == 0
    await world.assert_chips_conserved()


async def test_a_kicked_tripoli_member_is_paid_their_stack(world):
    """A buy-in table pays the kicked member's stack out at the deal's end, as before."""
    alice, bob, carol = world.alice, world.bob, world.carol
    board = (await world.slash(alice, "tripoli start", buy_in=60)).response
    for member in (bob, carol):
        await world.click(member, board, label="Join")
    await world.click(alice, board, label="Start")
    table = world.bot.tables.by_channel[world.channel.id]
    assert table.ranked and await world.balances(bob) == [START - 60]
    kicked = await world.slash(alice, "tripoli kick", member=bob)
    assert kicked.response.content.startswith("Done: Bob leaves after this deal")
    seat = next(i for i, s in enumerate(table.seats) if s.member_id == bob.id)
    for _ in range(400):  # nobody plays on: Bob's seat leaves, or the session ends
        if table.seats[seat].left or table.state is TableState.OVER:
            break
        world.clock.advance(60)
        await world.env.advance_time(60)
    stack = table.game.stacks[seat] if not table.seats[seat].left else None
    await end_now(world, table)
    paid = [entry.delta for entry in await world.store.ledger(world.guild.id, bob.id)
            if entry.reason in ("leave", "payout")]
    assert len(paid) == 1 and await world.balances(bob) == [START - 60 + paid[0]]
    assert stack is None or paid == [stack]
    assert sum(await world.balances(alice, bob, carol)) == 3 * START
    assert await world.store.table_escrow(table.id) == 0
    await world.assert_chips_conserved()


@pytest.mark.parametrize("game", ["kalooki", "troefcall"])
async def test_the_board_says_not_rated_once_an_ai_takes_a_seat(world, game):
    """Tryout: "Ranked" stayed on the board after a member left and the AI took the seat,
    though the game is then not rated; the board now says so."""
    _board, table, _people = await staked_table(world, game)

    def status() -> str:
        shown = next(m for m in world.channel.history() if m.id == table.board_message_id)
        return str(shown.embeds[0].to_dict())

    assert "Ranked" in status() and "Not rated" not in status()
    await world.slash(world.alice, f"{game} kick", member=world.bob)
    assert table.substituted
    assert "Not rated: an AI took a seat" in status() and "Ranked" not in status()


async def test_leave_at_a_staked_table_asks_first_and_forfeits_only_on_confirm(world):
    """Tryout: one click on Leave mid-game took the stake with no word to the leaver."""
    board, table, people = await staked_table(world, "kalooki")
    _alice, bob, carol = people
    asked = await world.click(bob, board, label="Leave")
    assert asked.response.ephemeral
    assert asked.response.content == (
        "Leave this game? You forfeit your stake of 100 chips to the pot.")
    assert table.seat_of(bob.id) is not None and not table.substituted
    assert await world.balances(*people) == [START - STAKE] * 3
    stayed = await world.click(bob, asked.response, label="Stay")
    assert stayed.response.content == "You stay at the table; nothing changed."
    assert table.seat_of(bob.id) is not None and not table.substituted
    asked = await world.click(bob, board, label="Leave")
    left = await world.click(bob, asked.response, label="Leave and forfeit")
    assert left.response.content == "You left the game; your stake of 100 chips stays in the pot."
    assert table.seat_of(bob.id) is None and table.substituted
    assert await world.balances(bob) == [START - STAKE]
    assert await world.store.table_escrow(table.id) == 3 * STAKE
    assert "Leave" not in labels_of(left.response)  # the question's buttons are gone
    late = await world.click(carol, board, label="Leave")  # asked, never answered
    await end_now(world, table)
    before = await world.balances(*people)
    stale = await world.click(carol, late.response, label="Leave and forfeit")
    assert stale.response.ephemeral and stale.response.content == "This table is closed."
    assert await world.balances(*people) == before
    assert await world.store.table_escrow(table.id) == 0
    await world.assert_chips_conserved()


async def test_leave_costing_nothing_is_one_click(world):
    """The lobby of a staked table (nothing taken yet) and a Tripoli buy-in table mid-deal
    (the stack is paid out) leave at the first click, as before."""
    alice, bob, carol = world.alice, world.bob, world.carol
    board = (await world.slash(alice, "kalooki start", stake=STAKE)).response
    await world.click(bob, board, label="Join")
    left = await world.click(bob, board, label="Leave")
    table = world.bot.tables.by_channel[world.channel.id]
    assert not left.response.ephemeral and table.seat_of(bob.id) is None
    await world.click(alice, board, label="Cancel")
    board = (await world.slash(alice, "tripoli start", buy_in=60)).response
    for member in (bob, carol):
        await world.click(member, board, label="Join")
    await world.click(alice, board, label="Start")
    table = world.bot.tables.by_channel[world.channel.id]
    left = await world.click(bob, board, label="Leave")
    assert not left.response.ephemeral
    assert table.seats[next(i for i, s in enumerate(table.seats)
                            if s.member_id == bob.id)].leaving


async def keep_present_until(world, table, people, done, steps=800) -> None:
    """Time passes, the seated ``people`` showing their hands (so none is marked away),
    until ``done()`` or the table is over."""
    for _ in range(steps):
        if done() or table.state is TableState.OVER:
            return
        shown = next(m for m in world.channel.history() if m.id == table.board_message_id)
        for member in people:
            if table.seat_of(member.id) is not None:
                await world.click(member, shown, label="My hand")
        world.clock.advance(30)
        await world.env.advance_time(30)


async def test_a_kicked_member_cannot_take_a_seat_again_even_after_a_restart(world):
    """Tryout: a kick lasted one hand: between hands the kicked member's "Join" took back
    the AI seat (and the stake). The refusal holds after a restart and changes nothing.
    (Troefcall's hands are short; Kalooki takes the AI seat the same way.)"""
    game = "troefcall"
    _board, table, people = await staked_table(world, game)
    bob = world.bob
    await world.slash(world.alice, f"{game} kick", member=bob)
    others = [member for member in people if member is not bob]
    await keep_present_until(world, table, others, lambda: table.game.between_deals)
    assert table.state is TableState.PLAYING and table.game.between_deals
    await world.restart()
    table = world.bot.tables.by_channel[world.channel.id]
    assert bob.id in table.kicked and table.game.between_deals
    shown = next(m for m in world.channel.history() if m.id == table.board_message_id)
    join = next(label for label in labels_of(shown) if label.startswith("Join"))
    seats, staked = [(s.member_id, s.ai) for s in table.seats], table.staked
    balances = await world.balances(*people)
    refused = await world.click(bob, shown, label=join)
    assert refused.response.ephemeral
    assert refused.response.content == (
        "You were removed from this table by its host: you cannot take a seat at it again.")
    assert table.seat_of(bob.id) is None
    assert [(s.member_id, s.ai) for s in table.seats] == seats and table.staked == staked
    assert await world.balances(*people) == balances
    assert await world.store.table_escrow(table.id) == staked
    await end_now(world, table)
    assert await world.store.table_escrow(table.id) == 0
    await world.assert_chips_conserved()
