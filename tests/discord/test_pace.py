"""A forgiving pace, by slash commands and clicks (issue 10 item 5, :mod:`bot.runtime.pace`):
the ``pace`` option and its default, the away rule (two timeouts in a row *and* minutes of
silence), no idle end while a member interacts, the agreed session length, and Verify.

Both clocks move together (:func:`wait`): the bot's deadlines and simcord's sleeps.
"""

from __future__ import annotations

from typing import Any

from test_tripoli import Session, labels, open_table

from bot.i18n import ENGLISH
from bot.render.common import SHORT_HASH
from bot.runtime import pace
from bot.runtime.table import TableState
from engine import fairness
from engine.tripoli.phases import Phase


async def wait(world: Any, seconds: float, steps: int = 1) -> None:
    """Let ``seconds`` pass on the bot's clock and simcord's, in ``steps`` equal steps."""
    for _ in range(steps):
        world.clock.advance(seconds / steps)
        await world.env.advance_time(seconds / steps)


def now(world: Any) -> float:
    return world.clock.now().timestamp()


def notes(session: Session) -> str:
    """The board's runtime notes, in English."""
    return " ".join(ENGLISH.t(note.msg) for note in session.table.notes)


def footer(session: Session) -> str:
    return session.board.embeds[0].footer.text or ""


async def test_tables_are_relaxed_by_default_and_say_so(world):
    session = await open_table(world, world.alice, world.bob)
    assert "Relaxed pace" in session.board.embeds[0].description  # the lobby
    await session.click(world.alice, session.board, label="Start")
    dealer = session.game.dealer
    assert session.table.deadlines[dealer][1] == now(world) + 3 * 60  # Tripoli's 60 s, x3
    assert "Relaxed pace" in footer(session)
    fast = await open_table(world, world.carol, channel=world.guild.create_text_channel("f"),
                            pace="fast", deals=3)
    assert "Fast pace" in fast.board.embeds[0].description
    assert "ends after 3 deals" in fast.board.embeds[0].description


async def test_a_relaxed_table_survives_a_member_thinking_for_five_minutes(world):
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    dealer = session.game.dealer
    member = session.member(dealer)
    await session.my_hand(member)  # she reads her hand and thinks
    await wait(world, 5 * 60, steps=10)
    assert session.table.state is TableState.PLAYING and not session.table.ending
    assert not session.table.seats[dealer].ai  # one timeout (the spare kept), not away
    assert session.table.timeouts == {dealer: 1}
    assert session.game.phase is Phase.SELECT and dealer in session.game.to_act
    hand = await session.my_hand(member)
    await session.click(member, hand, label="Best five")  # her own choice still counts
    assert dealer in session.game.selections and session.table.timeouts == {}


async def test_away_only_after_two_timeouts_and_minutes_of_silence(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob, pace="normal")
    await session.click(alice, session.board, label="Start")
    joined = now(world)
    alice_seat, bob_seat = session.seat(alice), session.seat(bob)
    for _ in range(40):  # bob looks at his hand every 50 s but never decides; alice is silent
        if session.table.seats[alice_seat].ai:
            break
        await wait(world, 50)
        await session.my_hand(bob)
        assert not session.table.seats[bob_seat].ai
    assert session.table.seats[alice_seat].ai
    assert now(world) - joined >= pace.AWAY_SILENCE
    assert session.table.timeouts.get(bob_seat, 0) >= 2  # bob timed out too, but interacts
    assert "I'm back" in labels(session.board)
    await session.my_hand(alice)  # any click brings her back, and the board says so
    assert not session.table.seats[alice_seat].ai
    await wait(world, 5)  # the board's edit interval
    assert "I'm back" not in labels(session.board)
    back = f"{session.table.seats[alice_seat].name} is back."
    assert session.board.embeds[0].fields[-1].value.endswith(back)


async def test_a_session_with_one_active_member_never_ends_by_idleness(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob, pace="normal")
    await session.click(alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    for _ in range(4):  # nobody deals again for 36 minutes, but alice keeps looking
        await wait(world, 9 * 60, steps=3)
        await session.my_hand(alice)
        assert session.table.state is TableState.PLAYING and not session.table.ending
    await wait(world, 11 * 60, steps=4)  # then everybody is silent for 11 minutes
    assert session.table.ending
    assert "Nobody dealt again" in notes(session)


async def test_the_agreed_number_of_deals_ends_the_session_cleanly(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob, pace="normal", deals=1)
    before = await world.balances(alice, bob)
    await session.click(alice, session.board, label="Start")
    await session.play_until(lambda: session.table.ending or session.game.between_deals)
    assert session.table.ending  # at the end of deal 1: the leftover round follows
    assert "1 deal played, as agreed" in notes(session)
    await session.play_until(lambda: session.table.state is TableState.OVER)
    assert sum(await world.balances(alice, bob)) == sum(before)  # every chip went back
    assert session.game.deal_number >= 1 and session.game.is_over


async def test_the_agreed_minutes_end_the_session_at_the_end_of_a_deal(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob, pace="normal", minutes=1)
    await session.click(alice, session.board, label="Start")
    await wait(world, 61)  # the minute passes during deal 1: it is played to its end
    assert session.game.deal_number == 1 and not session.table.ending
    await session.play_until(lambda: session.game.between_deals or session.table.ending)
    assert session.table.ending and "1 minute played, as agreed" in notes(session)
    await session.play_until(lambda: session.table.state is TableState.OVER)


async def test_untimed_is_only_for_one_member_with_ai_seats(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, pace="untimed")
    result = await session.click(bob, session.board, label="Join")
    assert result.response.ephemeral and "untimed" in result.response.content.lower()
    assert session.table.seat_of(bob.id) is None and session.table.state is TableState.LOBBY
    result = await session.click(alice, session.board, label="Start")
    assert result.response.ephemeral and "1 seated" in result.response.content  # alone
    await session.click(alice, session.board, label="Add AI")
    session.total = 2 * world.bot.settings.buy_in  # casual: the table's own play chips
    await session.click(alice, session.board, label="Start")
    assert session.table.state is TableState.PLAYING and session.table.deadlines == {}
    await wait(world, 3600, steps=4)
    assert session.table.timeouts == {} and not session.table.seats[0].ai


async def test_a_length_in_deals_and_minutes_is_refused_in_the_members_language(world):
    english = await world.slash(world.alice, "tripoli start", deals=3, minutes=30)
    assert english.response.ephemeral
    assert english.response.content == ENGLISH.t(
        "house.unplayable_opened", reason="agree on a number of deals or on minutes, not both")
    await world.slash(world.bob, "settings language", language="nl")
    dutch = await world.slash(world.bob, "troefcall start", deals=3, minutes=30)
    assert dutch.response.ephemeral
    assert "niet allebei" in dutch.response.content and "both" not in dutch.response.content
    assert world.bot.tables.by_id == {}


async def test_verify_answers_once_with_the_whole_commitment_and_no_seed(world):
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    commitment = session.game.commitment
    assert commitment[:SHORT_HASH] in footer(session) and commitment not in footer(session)
    answer = (await session.click(world.bob, session.board, label="Verify")).response
    assert answer.ephemeral
    text = " ".join([answer.embeds[0].description or "",
                     *(f.value for f in answer.embeds[0].fields)])
    assert commitment in text and "fairness.shuffled_deck" in text
    seed = session.table.seed
    secrets = [seed.hex(), *(fairness.deal_seed(seed, n).hex() for n in range(1, 20))]
    assert not any(secret in text for secret in secrets)  # no seed before the session ends
