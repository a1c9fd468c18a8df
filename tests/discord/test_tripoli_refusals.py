"""Refusals at a Tripoli table in simcord: each answered once, ephemerally, changing nothing.

Cases C02, C05 (through an old private view), C06, C08 (the bet modal) and C15 of
cases/discord-table-faults.md. :class:`test_tripoli.Session` checks every answer.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_tripoli import Session, labels, open_table

from engine.tripoli.phases import Phase


def frozen(session: Session) -> tuple[str, Any]:
    """The state a refusal must not change: the engine snapshot and the board's embed."""
    return session.game.model_dump_json(), session.board.embeds[0].to_dict()


async def refused(session: Session, member: Any, message: Any, label: str) -> str:
    before = frozen(session)
    result = await session.click(member, message, label=label)
    assert result.response is not None and result.response.ephemeral
    assert frozen(session) == before
    return result.response.content


async def to_select(session: Session) -> None:
    """Start the table and keep the spare hand: every member chooses five cards next."""
    host = session.member(0)
    await session.click(host, session.board, label="Start")
    dealer = session.game.dealer
    await session.click(session.member(dealer), session.board, label="Keep")
    assert session.game.phase is Phase.SELECT


async def test_board_buttons_refuse_outsiders_and_players_out_of_turn(world):
    session = await open_table(world, world.alice, world.bob, world.carol)
    await session.click(world.alice, session.board, label="Start")
    dealer = session.game.dealer
    other = session.member((dealer + 1) % 3)
    text = await refused(session, world.dave, session.board, "Keep")
    assert "not seated" in text
    text = await refused(session, other, session.board, "Exchange")
    assert "Not your turn" in text
    text = await refused(session, world.dave, session.board, "My hand")
    assert "not seated" in text


async def test_second_start_in_the_channel_is_refused(world):
    session = await open_table(world, world.alice, world.bob)
    table = session.table
    result = await session.slash(world.carol, "tripoli start")
    assert result.response.ephemeral and table.id in result.response.content
    assert world.bot.tables.by_channel[world.channel.id] is table
    assert len(world.bot.tables.by_id) == 1
    assert "Seats (2/9)" in session.board.embeds[0].fields[0].name


async def test_only_the_host_or_a_manager_ends_the_table(world):
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    before = frozen(session)
    result = await session.slash(world.bob, "tripoli end")
    assert result.response.ephemeral and "host" in result.response.content
    assert frozen(session) == before and not session.table.ending


async def test_old_private_controls_act_while_pending_and_refuse_after(world):
    session = await open_table(world, world.alice, world.bob, world.carol)
    await to_select(session)
    old = await session.my_hand(world.bob)
    # Discord's clock moves 20 minutes, so the old view's interaction token has expired (C02);
    # the bot's clock stays, so the decision is still pending (no turn timer fires).
    await world.env.advance_time(20 * 60)
    fresh = await session.my_hand(world.bob)
    assert fresh.id != old.id and "Best five" in labels(old)
    result = await session.click(world.bob, old, label="Best five")  # still pending: it acts
    assert session.table.seat_of(world.bob.id) in session.game.selections
    assert result.response.id == old.id  # the old view now shows the chosen five
    latest = await session.my_hand(world.bob)  # that decision is over: no hand offers it
    assert "Best five" not in labels(latest) and "Best five" not in labels(result.response)


@pytest.mark.parametrize("typed, reason", [
    ("abc", "not a whole number"), ("-3", "not a whole number"), ("1e3", "not a whole number"),
    ("10a", "not a whole number"), ("4", "limit"), ("999", "chips"),
])
async def test_bad_bets_typed_in_the_modal_are_refused(world, typed, reason):
    session = await open_table(world, world.alice, world.bob, world.carol, buy_in=15,
                               bet_limit=3)
    await to_select(session)
    await session.play_until(lambda: session.game.phase is Phase.BETTING)
    [seat] = session.game.to_act
    member = session.member(seat)
    shown = await session.click(member, session.board, label="Bet…")
    before = frozen(session)
    escrow = await world.store.table_escrow(session.table.id)
    result = await session.submit(member, shown, typed)
    assert result.response.ephemeral and reason in result.response.content.lower()
    assert frozen(session) == before
    assert await world.store.table_escrow(session.table.id) == escrow
    shown = await session.click(member, session.board, label="Bet…")
    await session.submit(member, shown, "3")  # a good bet still works afterwards
    assert session.game.betting.high == 3


async def test_tables_survive_a_restart_and_old_buttons_keep_working(world):
    """C03: a lobby in one channel, a deal in another; the bot restarts; clicks continue."""
    other = world.guild.create_text_channel("other")
    lobby = await open_table(world, world.alice, world.bob)
    deal = await open_table(world, world.carol, world.dave, channel=other)
    await to_select(deal)
    await deal.click(world.carol, (await deal.my_hand(world.carol)), label="Best five")
    old_hand = await deal.my_hand(world.dave)
    escrow = await world.store.table_escrow(deal.table.id)
    snapshot = deal.game.model_dump_json()

    await world.restart()
    assert world.bot.tables.by_channel[other.id].id == deal.table.id
    assert deal.game.model_dump_json() == snapshot  # the restored game is the same game
    assert await world.store.table_escrow(deal.table.id) == escrow

    await deal.click(world.dave, old_hand, label="Best five")  # a pre-restart private view
    await deal.play_until(lambda: deal.game.phase is Phase.BETWEEN_DEALS)
    await lobby.click(world.carol, lobby.board, label="Join")
    await lobby.click(world.alice, lobby.board, label="Start")
    assert lobby.table.state.value == "playing" and len(lobby.table.seats) == 3
    await deal.slash(world.carol, "tripoli end")
    await deal.play_until(lambda: deal.table.state.value == "over")
    assert await world.store.table_escrow(deal.table.id) == 0
    assert [t for t, *_ in await world.store.load_tables()] == [lobby.table.id]


async def test_the_game_never_stalls_on_a_silent_or_departed_player(world):
    """C11: the dealer stops responding; a member leaves while it is their turn."""
    session = await open_table(world, world.alice, world.bob, world.carol, pace="normal")
    await session.click(world.alice, session.board, label="Start")
    dealer = session.game.dealer
    assert "Time left: <t:" in session.board.embeds[0].description
    world.clock.advance(61)
    await world.env.advance_time(61)
    assert session.game.phase is Phase.SELECT  # the spare hand was kept for the dealer
    assert "ran out of time" in " ".join(f.value for f in session.board.embeds[0].fields)
    leaver = session.member((dealer + 1) % 3)
    seat = session.seat(leaver)
    await session.click(leaver, session.board, label="Leave")
    assert seat in session.game.selections  # the AI chose for the departing member
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    assert session.table.seat_of(leaver.id) is None
    assert session.game.stacks[seat] is None  # stood up at the end of the deal, paid out
    ledger = await world.store.ledger(world.guild.id, leaver.id)
    assert ledger[-1].kind == "settle"
    await session.check_chips()


async def test_after_two_timeouts_and_minutes_of_silence_the_ai_plays_until_i_am_back(world):
    session = await open_table(world, world.alice, world.bob, pace="normal")
    await session.click(world.alice, session.board, label="Start")
    dealer = session.game.dealer
    member, other = session.member(dealer), session.member(1 - dealer)
    world.clock.advance(61)  # the spare decision times out
    await world.env.advance_time(61)
    hand = await session.my_hand(other)  # the other member chooses his five
    await session.click(other, hand, label="Best five")
    world.clock.advance(121)  # her choice of five times out
    await world.env.advance_time(121)
    assert session.table.timeouts == {dealer: 2}
    assert not session.table.seats[dealer].ai  # two timeouts, but only three silent minutes
    for _ in range(10):  # her next decisions time out too, in more silence
        if session.table.seats[dealer].ai:
            break
        world.clock.advance(61)
        await world.env.advance_time(61)
    assert session.table.seats[dealer].ai and "I'm back" in labels(session.board)
    text = await refused(session, other, session.board, "I'm back")
    assert "already" in text
    await session.click(member, session.board, label="I'm back")
    assert not session.table.seats[dealer].ai and "I'm back" not in labels(session.board)
