"""Members leaving a started Tripoli table in simcord: the board's chips are always played
for and paid out, the host's powers pass to a seated member, a second Leave or kick changes
nothing, and a table nobody plays any more ends by itself (fairly, then settled)."""

from __future__ import annotations

from typing import Any

import pytest
from test_tripoli import Session, labels, open_table

from bot.i18n import ENGLISH
from bot.runtime.refs import Refusal
from bot.runtime.table import TableState
from engine.tripoli.phases import Phase


def frozen(session: Session) -> tuple[Any, ...]:
    """Everything a refused click must leave as it was: game, seats, host, log, board."""
    game = session.game.model_dump_json() if session.game is not None else None
    seats = [(s.member_id, s.ai, s.leaving, s.left) for s in session.table.seats]
    table = session.table
    notes = [ENGLISH.t(n.msg) for n in table.notes]
    return game, seats, table.host_id, notes, session.board.embeds[0].to_dict()


async def settled_fairly(session: Session, before: list[int], *members) -> None:
    """The table is closed, its escrow is 0 and each member got their final stack back."""
    world = session.world
    assert session.table.state is TableState.OVER
    assert world.channel.id not in world.bot.tables.by_channel
    assert await world.store.table_escrow(session.table.id) == 0
    await world.assert_chips_conserved()
    stacks = session.game.stacks
    after = await world.balances(*members)
    for member, was, now in zip(members, before, after, strict=True):
        seat = next(i for i, s in enumerate(session.table.seats) if s.member_id == member.id)
        assert now - was == stacks[seat] - session.table.buy_in, member.name
    assert sum(after) == sum(before)


UNPLAYED = "Not rated: no deal was played out with two members at the table."


async def unrated(session: Session) -> None:
    """The finished session changed no rating, and its board says why (nobody played)."""
    world = session.world
    assert await world.store.ratings(world.guild.id, "tripoli") == {}
    ratings = next(f.value for f in session.board.embeds[0].fields
                   if f.name == "Ratings (μ − 3σ)")
    assert ratings == UNPLAYED


async def test_everyone_leaving_mid_deal_plays_the_leftover_and_settles_every_stack(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol, buy_in=60)
    before = await world.balances(alice, bob, carol)
    await session.click(alice, session.board, label="Start")
    for member in (bob, carol, alice):
        await session.click(member, session.board, label="Leave")
    for _ in range(3):
        await world.env.advance_time(1)
    assert session.game.phase is Phase.OVER
    assert sum(session.game.stacks) == 3 * 60  # the board went to a player
    await settled_fairly(session, before, alice, bob, carol)
    await unrated(session)  # the AI played deal 1 for members who had all left
    players = next(f.value for f in session.board.embeds[0].fields if f.name == "Players")
    assert players.count("\n") == 2  # one line a seat; "leaving" is said only mid-game
    assert not any(line.endswith("· leaving") for line in players.splitlines()), players


async def test_two_of_three_leaving_mid_deal_ends_the_session_fairly(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol, buy_in=60)
    before = await world.balances(alice, bob, carol)
    await session.click(alice, session.board, label="Start")
    for member in (bob, carol):
        await session.click(member, session.board, label="Leave")
    await session.play_until(lambda: session.table.state is TableState.OVER)
    assert sum(session.game.stacks) == 3 * 60
    await settled_fairly(session, before, alice, bob, carol)
    await unrated(session)  # one member played deal 1 out: no contest among members


async def test_members_who_play_a_deal_out_and_then_leave_are_rated(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol, buy_in=60)
    await session.click(alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    for member in (bob, carol):
        await session.click(member, session.board, label="Leave")
    await session.play_until(lambda: session.table.state is TableState.OVER)
    rated = await world.store.ratings(world.guild.id, "tripoli")
    assert set(rated) == {alice.id, bob.id, carol.id}
    ratings = next(f.value for f in session.board.embeds[0].fields
                   if f.name == "Ratings (μ − 3σ)")
    assert ratings != UNPLAYED and "Not rated" not in ratings


async def test_a_second_leave_or_kick_mid_deal_is_refused_and_changes_nothing(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol)
    await session.click(alice, session.board, label="Start")
    await session.click(bob, session.board, label="Leave")
    assert session.table.seats[session.seat(bob)].leaving
    before = frozen(session)
    again = await session.click(bob, session.board, label="Leave")
    assert again.response.ephemeral
    assert again.response.content == "You already leave after this deal."
    assert frozen(session) == before
    kicked = await world.slash(alice, "tripoli kick", member=bob)
    assert kicked.response.ephemeral
    assert kicked.response.content == "Bob already leaves after this deal."
    assert frozen(session) == before
    notes = [ENGLISH.t(n.msg) for n in session.table.notes]
    assert sum("leaves after this deal" in note for note in notes) == 1


async def test_the_host_leaving_the_lobby_passes_the_host_on(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol)
    await session.click(alice, session.board, label="Leave")
    assert session.seat(alice) is None and session.table.host_id == bob.id
    assert "Bob is the host now." in [ENGLISH.t(n.msg) for n in session.table.notes]
    assert "Bob (host)" in str(session.board.embeds[0].to_dict())
    refused = await session.click(carol, session.board, label="Start")
    assert refused.response.ephemeral and "host" in refused.response.content
    await session.click(bob, session.board, label="Start")
    assert session.table.state is TableState.PLAYING


async def test_the_last_member_of_a_lobby_closes_it_with_cancel(world):
    session = await open_table(world, world.alice)
    await session.click(world.alice, session.board, label="Add AI")
    before = frozen(session)
    refused = await session.click(world.alice, session.board, label="Leave")
    assert refused.response.ephemeral and "Cancel" in refused.response.content
    assert frozen(session) == before


async def test_the_host_leaving_mid_deal_passes_the_host_clockwise(world):
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    session = await open_table(world, alice, bob, carol, dave)
    await session.click(alice, session.board, label="Start")
    await session.click(bob, session.board, label="Leave")
    await session.click(alice, session.board, label="Leave")
    assert session.table.host_id == carol.id  # seat 1 (Bob) leaves too: seat 2 takes over
    assert "Carol is the host now." in [ENGLISH.t(n.msg) for n in session.table.notes]
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    assert session.seat(alice) is None and session.seat(bob) is None
    before = frozen(session)
    for command, options in (("tripoli kick", {"member": dave}), ("tripoli end", {})):
        refused = await world.slash(alice, command, **options)
        assert refused.response.ephemeral and "host" in refused.response.content
        assert frozen(session) == before
    await world.slash(carol, "tripoli end")
    assert session.table.state is TableState.OVER or session.table.ending


async def wait(world, seconds: float, steps: int = 1) -> None:
    """Let ``seconds`` pass on the bot's clock and simcord's, in ``steps`` equal steps."""
    for _ in range(steps):
        world.clock.advance(seconds / steps)
        await world.env.advance_time(seconds / steps)


async def test_a_table_nobody_deals_again_on_ends_its_session_fairly(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol, buy_in=60)
    before = await world.balances(alice, bob, carol)
    await session.click(alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    await wait(world, 9 * 60)
    assert session.table.state is TableState.PLAYING and not session.table.ending
    await wait(world, 2 * 60)
    assert session.table.ending
    notes = " ".join(ENGLISH.t(n.msg) for n in session.table.notes)
    assert "Nobody dealt again for 10 minutes" in notes
    for _ in range(60):  # the leftover round: every member's decisions time out
        if session.table.state is TableState.OVER:
            break
        await wait(world, 120)
    assert sum(session.game.stacks) == 3 * 60
    await settled_fairly(session, before, alice, bob, carol)
    opened = await world.slash(world.dave, "tripoli start")  # the channel is free again
    assert not opened.response.ephemeral


async def test_pressing_next_deal_in_time_keeps_the_table(world):
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    await wait(world, 9 * 60)
    await session.click(world.bob, session.board, label="Next deal")
    assert session.game.deal_number == 2 and session.table.idle_deadline is None
    await wait(world, 60, steps=2)
    assert session.table.state is TableState.PLAYING and not session.table.ending


async def test_a_table_whose_members_are_all_away_ends_at_the_deals_end(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob, buy_in=60)
    before = await world.balances(alice, bob)
    await session.click(alice, session.board, label="Start")
    for _ in range(60):  # nobody clicks: two timeouts each, then the AI plays every seat
        if session.table.state is TableState.OVER:
            break
        await wait(world, 120)
    assert all(seat.ai for seat in session.table.seats)
    notes = " ".join([ENGLISH.t(n.msg) for n in session.table.notes])
    assert "every member is away" in notes and "Nobody dealt again" not in notes
    assert sum(session.game.stacks) == 2 * 60
    await settled_fairly(session, before, alice, bob)
    await unrated(session)  # the AI played every deal: the members were away throughout


async def test_the_idle_time_between_deals_survives_a_restart(world):
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    await wait(world, 5 * 60)
    await world.restart()
    assert session.table.state is TableState.PLAYING and not session.table.ending
    await wait(world, 6 * 60)
    assert session.table.ending or session.table.state is TableState.OVER


async def test_im_back_of_a_kicked_member_says_the_member_leaves_after_this_deal(world):
    session = await open_table(world, world.alice, world.bob, world.carol)
    await session.click(world.alice, session.board, label="Start")
    await world.slash(world.alice, "tripoli kick", member=world.bob)
    before = frozen(session)
    with pytest.raises(Refusal) as refused:
        await world.bot.tables.back(session.table, world.bob.id)
    assert refused.value.code == "leaving" and "leave after this deal" in refused.value.message
    assert frozen(session)[:4] == before[:4]


async def test_a_kick_answers_what_happened_to_the_member(world):
    """Tryout #10: the kick's answer said "is no longer seated (or leaves after this deal)",
    read as a refusal; it now says which of the two happened."""
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    session = await open_table(world, alice, bob, carol, dave)
    kicked = await world.slash(alice, "tripoli kick", member=dave)
    assert kicked.response.ephemeral
    assert kicked.response.content == "Done: Dave is no longer seated."
    assert session.seat(dave) is None
    await session.click(alice, session.board, label="Start")
    kicked = await world.slash(alice, "tripoli kick", member=carol)
    assert kicked.response.content == (
        "Done: Carol leaves after this deal; the AI plays their cards until then.")
    assert session.table.seats[session.seat(carol)].leaving


async def test_end_now_says_the_chips_left_on_the_board_are_played_for_first(world):
    """Tryout #7: ``end now:True`` answered "the game ends (see the board)" while the board
    went on with the leftover round (rules/tripoli.md §2.9)."""
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol)
    await session.click(alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    await session.click(alice, session.board, label="Next deal")
    ended = await world.slash(alice, "tripoli end", now=True)
    assert session.game.leftover and session.table.state is TableState.PLAYING
    assert ended.response.ephemeral and ended.response.content == (
        "The game ends once the chips still at stake on the board are played for "
        "(see the board).")


async def test_im_back_takes_back_a_leave_but_not_a_kick(world):
    """Tryout #6: a Leave pressed mid-deal (a mis-click) had no undo; "I'm back" takes it
    back (the member plays on and stays after the deal), while a member the host stood up
    is refused."""
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol)
    await session.click(alice, session.board, label="Start")
    await session.click(bob, session.board, label="Leave")
    assert "I'm back" in labels(session.board)
    await world.slash(alice, "tripoli kick", member=carol)
    back = await session.click(bob, session.board, label="I'm back")
    assert not back.response or not back.response.ephemeral  # answered with the board
    entry = session.table.seats[session.seat(bob)]
    assert not entry.leaving and not entry.ai
    assert "Bob stays at the table after all." in [ENGLISH.t(n.msg) for n in session.table.notes]
    assert "I'm back" not in labels(session.board)  # only the kicked seat is played by the AI
    with pytest.raises(Refusal) as refused:
        await world.bot.tables.back(session.table, carol.id)
    assert refused.value.code == "leaving"
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    assert session.seat(bob) is not None and session.seat(carol) is None


@pytest.mark.parametrize("game", ["tripoli", "kalooki"])
async def test_the_host_cannot_kick_himself_in_the_lobby_or_mid_game(world, game):
    """Tryout: the host's kick of himself was accepted mid-game and marked him kicked, so
    "I'm back" could not take it back; it is refused everywhere, pointing to Leave."""
    alice, bob, carol = world.alice, world.bob, world.carol
    opened = await world.slash(alice, f"{game} start")
    board = opened.response
    for member in (bob, carol):
        await world.click(member, board, label="Join")
    table = world.bot.tables.by_channel[world.channel.id]
    for started in (False, True):
        if started:
            await world.click(alice, board, label="Start")
        seats = [(s.member_id, s.ai, s.leaving, s.left, s.kicked) for s in table.seats]
        kicked = await world.slash(alice, f"{game} kick", member=alice)
        assert kicked.response.ephemeral
        assert kicked.response.content == (
            "You cannot kick yourself: press Leave to leave the table.")
        assert [(s.member_id, s.ai, s.leaving, s.left, s.kicked) for s in table.seats] == seats
        assert table.host_id == alice.id
