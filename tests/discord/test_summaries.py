"""Deal and end-of-game summaries, Rematch and My record in simcord, for every game.

The members' decisions are made as the AI would make them (through the registry, each
committed like a click), so that whole games finish quickly; what is checked is what the
members see: the board's deal summary with each player's exact change (the engine's own
figures), the final board's standings and rating changes against the store, **Rematch**
(the same seats and options in a new lobby; refused, with nothing opened, when a table is
open or a member cannot cover the buy-in or stake, exactly at the boundary) and **My
record** (answered privately, once), both also after a restart.
"""

from __future__ import annotations

from typing import Any

import pytest
from registries import decide
from test_tripoli import labels

from bot.games import GAMES
from bot.i18n import ENGLISH
from bot.ratings import Rating
from bot.render.common import seat_label
from bot.runtime.table import Table, TableState

TABLES = {
    "tripoli": ({"buy_in": 100}, 2),
    "troefcall": ({"deals": 1, "teams": "random"}, 4),
    "kalooki": ({}, 3),
}
"""Game -> the start command's options and the members who sit down."""


async def play_deal(world: Any, table: Table) -> None:
    """Play the current deal to its end (or the game's)."""
    for _ in range(20_000):
        if table.state is TableState.OVER or table.game.between_deals:
            await settle(world, table)
            return
        await decide(world.bot.tables, table)
    raise AssertionError("the deal did not end")


async def end_after_this_deal(world: Any, table: Table) -> None:
    """Alice (the host) ends the Tripoli session with ``/tripoli end``; the deals left
    (this one, then the leftover round) are played until the table is over."""
    await world.slash(world.alice, "tripoli end")
    for _ in range(10):
        if table.state is TableState.OVER:
            break
        await play_deal(world, table)


async def settle(world: Any, table: Table) -> None:
    """Let the board edits the decisions asked for reach simcord (the publishing task was
    started here, outside the bot's own work, so simcord does not wait for it: we do)."""
    world.bot.tables.schedule_board_edit(table)
    await world.env.advance_time(1)
    await world.bot.tables.edits.finished()


async def open_ranked(world: Any, game: str) -> tuple[Any, Table]:
    options, members = TABLES[game]
    opened = await world.slash(world.alice, f"{game} start", **options)
    for member in world.members[1:members]:
        await world.click(member, opened.response, label="Join")
    await world.click(world.alice, opened.response, label="Start")
    table = world.bot.tables.by_channel[world.channel.id]
    assert table.ranked and table.state is TableState.PLAYING
    return opened.response, table


def field(message: Any, name: str) -> str:
    return next(f.value for f in message.embeds[0].fields if f.name == name)


def deal_line(table: Table, unit: str, deltas: list[tuple[str, int]]) -> str:
    changes = " · ".join(f"{who} **{delta:+d}**" for who, delta in deltas)
    return f"{unit} this deal: {changes}"


def expected_deltas(table: Table) -> tuple[str, str, list[tuple[str, int]]]:
    """The engine's own figures for the deal just over: (field name, unit, deltas)."""
    info = table.info(world_spec(table))
    game = table.game
    log = game.public_view().log
    if table.game_name == "tripoli":
        over = next(e for e in reversed(log) if e.kind == "deal_over")
        return (f"Deal {over.deal_number}", "Chips",
                [(seat_label(info, s), d) for s, d in sorted(over.deltas.items())])
    if table.game_name == "kalooki":
        scored = next(e for e in reversed(log) if e.kind == "deal_scored")
        return (f"Deal {scored.deal_number}", "Penalty points",
                [(seat_label(info, s), p) for s, p in sorted(scored.penalties.items())])
    result = game.results[-1]
    return (f"Hand {result.hand_number}", "Points",
            [(f"Team {'AB'[team]} ({seat_label(info, team)} & {seat_label(info, team + 2)})",
              result.points if team == result.team else 0) for team in range(2)])


def void_last(table: Table) -> bool:
    """Whether the last Kalooki deal to end was void (§2.12: nothing scored, no summary)."""
    ends = [e.kind for e in table.game.public_view().log if e.kind in ("deal_scored", "deal_void")]
    return not ends or ends[-1] == "deal_void"


def world_spec(table: Table) -> Any:
    return GAMES[table.game_name].spec_for(table.options)


@pytest.mark.parametrize("game", sorted(TABLES))
async def test_a_ranked_game_shows_deal_summaries_standings_ratings_rematch_and_record(
        world, game):
    board, table = await open_ranked(world, game)
    await play_deal(world, table)
    while game == "kalooki" and void_last(table) and table.state is not TableState.OVER:
        await world.click(world.alice, board, label="Next deal")  # a void deal has no summary
        await play_deal(world, table)
    if table.state is not TableState.OVER:  # between deals: the deal's summary, exactly
        name, unit, deltas = expected_deltas(table)
        assert deal_line(table, unit, deltas) in field(board, name)
    if game == "tripoli":  # the session ends after its next deal (then the leftover round)
        await world.slash(world.alice, "tripoli end")
    for _ in range(40):
        if table.state is TableState.OVER:
            break
        if table.game.between_deals:
            await world.click(world.alice, board, label="Next deal")
        await play_deal(world, table)
    assert table.state is TableState.OVER and table.game.outcome.complete
    await settle(world, table)

    [(result, _id)] = await world.store.results(world.guild.id, game)
    spec = world_spec(table)
    info = table.info(spec)
    standings = field(board, "Final standings")
    by_place: dict[int, list[Any]] = {}
    for seat in result.seats:
        by_place.setdefault(seat.place, []).append(seat)
    for seat in result.seats:  # each seat's place and score, as the store recorded them
        score = ENGLISH.t(f"summary.score.{spec.score_noun}", count=seat.score)
        assert f"{seat.place}. " in standings and f"— {score}" in standings
        assert seat_label(info, seat.seat) in standings
    if game == "tripoli":  # a seat alone in its place shows its chips won or lost
        for seat in result.seats:
            if len(by_place[seat.place]) == 1:
                assert f"**{seat_label(info, seat.seat)}** — {seat.score} chips " \
                       f"({seat.chips:+d})" in standings
    assert "🏆" in standings
    rated = field(board, "Ratings (μ − 3σ)")
    stored = await world.store.ratings(world.guild.id, game)
    for seat in result.seats:
        [(before, after)] = await world.store.rating_history(world.guild.id, game,
                                                             seat.user_id, 1)
        mu, sigma, games = stored[seat.user_id]
        assert games == 1 and before == pytest.approx(0.0)
        assert after == pytest.approx(Rating(mu, sigma).display)
        assert (f"{seat_label(info, seat.seat)}: {before:.1f} → {after:.1f} "
                f"({after - before:+.1f})") in rated
    assert labels(board) == ["Rematch", "My record"]

    record = await world.click(world.bob, board, label="My record")
    assert record.response.ephemeral and record.followups == []
    assert record.response.embeds[0].title == "Stats — Bob"
    assert "1 game" in record.response.embeds[0].fields[0].value

    seats = [seat.member_id for seat in table.seats]
    await world.restart()  # both buttons keep working: their custom_ids hold what they need
    record = await world.click(world.carol if game != "tripoli" else world.bob, board,
                               label="My record")
    assert record.response.ephemeral and "1 game" in str(record.response.embeds[0].fields)
    rematch = await world.click(world.bob, board, label="Rematch")
    assert not rematch.response.ephemeral
    lobby = world.bot.tables.by_channel[world.channel.id]
    assert lobby.state is TableState.LOBBY and lobby.id != table.id
    assert [seat.member_id for seat in lobby.seats] == seats
    assert lobby.options == table.options and lobby.buy_in == table.buy_in
    assert lobby.ranked and lobby.host_id == world.bob.id
    assert lobby.board_message_id == rematch.response.id
    assert "Rematch of table" in str(rematch.response.embeds[0].fields)
    again = await world.click(world.alice, board, label="Rematch")
    assert again.response.ephemeral and "already has" in again.response.content
    assert world.bot.tables.by_channel[world.channel.id] is lobby
    await world.assert_chips_conserved()


async def test_a_casual_table_says_why_it_was_not_rated_and_its_rematch_keeps_the_ai(world):
    opened = await world.slash(world.alice, "tripoli start")
    board = opened.response
    await world.click(world.alice, board, label="Add AI")
    await world.click(world.alice, board, label="Start")
    table = world.bot.tables.by_channel[world.channel.id]
    await play_deal(world, table)
    await end_after_this_deal(world, table)
    await settle(world, table)
    assert field(board, "Ratings (μ − 3σ)") == "Not rated: AI seats played (a casual table)."
    assert await world.store.ratings(world.guild.id, "tripoli") == {}
    await world.click(world.alice, board, label="Rematch")
    lobby = world.bot.tables.by_channel[world.channel.id]
    assert [(s.member_id, s.ai) for s in lobby.seats] == [(world.alice.id, False), (None, True)]
    assert not lobby.ranked


async def test_a_rematch_is_refused_when_a_member_cannot_cover_the_buy_in(world):
    board, table = await open_ranked(world, "tripoli")
    await world.slash(world.alice, "tripoli end", now=True)
    await settle(world, table)
    assert table.state is TableState.OVER
    await world.store.transfer(world.guild.id, world.bob.id, world.carol.id, 950)
    refused = await world.click(world.alice, board, label="Rematch")
    assert refused.response.ephemeral
    assert refused.response.content == ("Bob needs 100 chips for the buy-in and has 50: no "
                                        "rematch was opened.")
    assert world.channel.id not in world.bot.tables.by_channel
    assert await world.balances(world.alice, world.bob) == [1000, 50]
    stranger = await world.click(world.dave, board, label="Rematch")
    assert stranger.response.ephemeral and "Only the players" in stranger.response.content
    await world.assert_chips_conserved()


async def test_the_deal_summary_names_who_took_what_between_deals(world):
    board, table = await open_ranked(world, "tripoli")
    await play_deal(world, table)
    summary = field(board, "Deal 1")
    log = table.game.public_view().log
    start = max(i for i, e in enumerate(log) if e.kind == "deal_started")
    taken = [e for e in log[start:] if e.kind == "pay_taken"]
    info = table.info(world_spec(table))
    for event in taken:  # every space taken this deal, though the deal outgrew the log
        assert f"{seat_label(info, event.seat)} takes the {event.space} space" in summary
    assert taken and len(log) > 40  # more events than the engine's log keeps in full
    line = next(f.value for f in board.embeds[0].fields if f.name == "Log")
    assert "Deal 1 is over: " in line


async def test_a_game_ended_before_its_end_is_not_rated(world):
    board, table = await open_ranked(world, "kalooki")
    await world.slash(world.alice, "kalooki end", now=True)
    await settle(world, table)
    assert table.state is TableState.OVER and not table.game.outcome.complete
    assert field(board, "Ratings (μ − 3σ)") == ("Not rated: the game was ended before its "
                                                "rules' end.")
    assert "nobody won" in field(board, "Final standings")
    assert await world.store.ratings(world.guild.id, "kalooki") == {}


async def test_a_tripoli_game_ended_in_its_first_deal_is_not_rated_and_pays_back(world):
    """``/tripoli end now:True`` in the first deal: every stack is back at its buy-in and
    nobody was ranked by anything played, so the game is incomplete (it was rated as a tie
    of everybody); a game that played a deal is rated."""
    board, table = await open_ranked(world, "tripoli")
    members = world.members[:2]
    await play_deal(world, table)
    await end_after_this_deal(world, table)
    assert table.state is TableState.OVER and table.game.outcome.complete
    rated = await world.store.ratings(world.guild.id, "tripoli")
    assert set(rated) == {member.id for member in members}
    balances = await world.balances(*members)

    rematch = await world.click(world.alice, board, label="Rematch")
    lobby = world.bot.tables.by_channel[world.channel.id]
    board = rematch.response
    await world.click(world.alice, board, label="Start")
    assert lobby.state is TableState.PLAYING and lobby.ranked and lobby.game.deal_number == 1
    assert await world.balances(*members) == [chips - 100 for chips in balances]
    await world.slash(world.alice, "tripoli end", now=True)
    await settle(world, lobby)
    assert lobby.state is TableState.OVER and not lobby.game.outcome.complete
    assert await world.balances(*members) == balances
    assert await world.store.ratings(world.guild.id, "tripoli") == rated
    assert field(board, "Ratings (μ − 3σ)") == ("Not rated: the game was ended before its "
                                                "rules' end.")
    standings = field(board, "Final standings")
    assert "nobody won" in standings and "🏆" not in standings
    results = [result for result, _id in await world.store.results(world.guild.id, "tripoli")]
    assert sorted(result.complete for result in results) == [False, True]
    await world.assert_chips_conserved()


async def test_a_staked_table_pays_its_winners_and_its_rematch_needs_the_stake(world):
    opened = await world.slash(world.alice, "troefcall start", deals=1, teams="random",
                               stake=50)
    board = opened.response
    for member in (world.bob, world.carol, world.dave):
        await world.click(member, board, label="Join")
    await world.click(world.alice, board, label="Start")
    table = world.bot.tables.by_channel[world.channel.id]
    await play_deal(world, table)
    assert table.state is TableState.OVER and table.game.outcome.complete
    winners = {table.seats[s].member_id for s in table.game.outcome.places[0]}
    members = world.members[:4]
    assert await world.balances(*members) == [1050 if m.id in winners else 950
                                              for m in members]
    loser = next(m for m in members if m.id not in winners)
    other = next(m for m in members if m.id != loser.id)
    await world.store.transfer(world.guild.id, loser.id, other.id, 910)
    refused = await world.click(world.alice, board, label="Rematch")
    assert refused.response.ephemeral
    assert refused.response.content == (f"{loser.user.global_name} needs 50 chips for the "
                                        "stake and has 40: no rematch was opened.")
    assert world.channel.id not in world.bot.tables.by_channel
    await world.store.transfer(world.guild.id, other.id, loser.id, 10)
    await world.click(world.alice, board, label="Rematch")
    lobby = world.bot.tables.by_channel[world.channel.id]
    assert lobby.options["stake"] == 50 and lobby.buy_in == 50 and lobby.ranked
    await world.assert_chips_conserved()
