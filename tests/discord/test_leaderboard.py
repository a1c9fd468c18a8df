"""/leaderboard and /stats in simcord: finished games (committed through the store the way the
runtime records them) appear on the boards in order, per server; ties share a rank; pages
turn with buttons that still work after a restart; the rank of the member who asked shows, by
name, under any page whoever turns it; members are named, never mentioned, members who left
by their last known name.
"""

from __future__ import annotations

import re

import discord
import pytest

from bot.store import GameResult, SeatResult, TableWrite
from cogs.leaderboard import PageButton

STARTING = 1000
MENTION = re.compile(r"<@!?\d+>")


async def finish(world, game: str, placed: list[tuple[object, int]], *, guild=None,
                 team_of=None, chips=None, ranked: bool = True) -> None:
    """Record a finished ranked game: ``placed`` is (member, place) per seat."""
    guild = guild or world.guild
    seats = tuple(
        SeatResult(seat, member.id, member.user.global_name or member.user.name,
                   team_of(seat) if team_of else None, place, 0,
                   chips[seat] if chips else None)
        for seat, (member, place) in enumerate(placed)
    )
    number = len(await world.store.results(guild.id))
    await world.store.commit_table(TableWrite(
        f"r{number}", guild.id, world.channel.id, None,
        result=GameResult(game, ranked, True, "{}", "{}", seats)))


def lines(result) -> list[str]:
    return result.response.embeds[0].description.splitlines()


def no_mentions(result) -> None:
    embed = result.response.embeds[0]
    texts = [embed.description or "", *(field.value for field in embed.fields)]
    assert not any(MENTION.search(text) for text in texts)


async def test_chips_board_ranks_balances_with_names_and_shared_ranks(world):
    await world.slash(world.alice, "chips give", member=world.bob, amount=300)
    await world.slash(world.carol, "chips give", member=world.dave, amount=300)
    result = await world.slash(world.dave, "leaderboard")
    assert not result.response.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "Leaderboard — Parlour Test"
    assert lines(result) == [
        "**1.** Bob — 1,300 chips", "**1.** Dave — 1,300 chips",
        "**3.** Alice — 700 chips", "**3.** Carol — 700 chips",
    ]
    assert embed.fields[0].value == "1 of 4 (1,300 chips)"
    no_mentions(result)


async def test_game_boards_follow_the_results_and_each_server_has_its_own(world):
    w = world
    for _ in range(2):
        await finish(w, "tripoli", [(w.alice, 1), (w.bob, 2), (w.carol, 3)],
                     chips={0: 150, 1: -50, 2: -100})
    await finish(w, "troefcall", [(w.dave, 1), (w.alice, 2), (w.bob, 1), (w.carol, 2)],
                 team_of=lambda seat: seat % 2)
    rating = await w.slash(w.carol, "leaderboard", game="tripoli")
    assert [line.split(" — ")[0] for line in lines(rating)] == [
        "**1.** Alice", "**2.** Bob", "**3.** Carol"]
    assert rating.response.embeds[0].fields[0].value.startswith("3 of 3 (")
    wins = await w.slash(w.carol, "leaderboard", metric="wins")
    assert lines(wins)[:3] == ["**1.** Alice — 2 wins", "**2.** Bob — 1 win",
                               "**2.** Dave — 1 win"]
    games = await w.slash(w.dave, "leaderboard", game="troefcall", metric="games")
    assert [line.split(" — ")[1] for line in lines(games)] == ["1 game"] * 4
    assert all(line.startswith("**1.**") for line in lines(games))

    other = w.env.create_guild("Second Server")
    lounge = other.create_text_channel("lounge")
    erin = other.add_member(w.env.create_user("erin", global_name="Erin"))
    result = await w.slash(erin, "leaderboard", game="tripoli", where=lounge)
    assert result.response.embeds[0].description == "Nobody is on this board yet."
    assert result.response.embeds[0].fields[0].value == "Not on this board yet."


async def test_pages_turn_and_keep_working_after_a_restart(world):
    w = world
    players = [w.add_member(f"player{n:02d}") for n in range(23)]
    for index, member in enumerate(players):  # player00 gets 23 chips, player22 gets 1
        await w.slash(w.alice, "chips give", member=member, amount=23 - index)
    await w.balances(w.bob)  # bob's account: 1,000 chips, below every player
    first = await w.slash(w.bob, "leaderboard")
    assert len(lines(first)) == 10
    assert first.response.embeds[0].footer.text == "Page 1 of 3"
    assert lines(first)[0] == "**1.** Player00 — 1,023 chips"
    buttons = {c["label"]: c for row in first.response.components for c in row["components"]}
    assert buttons["Previous"]["disabled"] and not buttons["Next"]["disabled"]

    second = await w.click(w.bob, first.response, label="Next")
    page = second.response.embeds[0]
    assert page.footer.text == "Page 2 of 3"
    assert page.description.splitlines()[0].startswith("**11.** ")
    assert page.fields[0].value == "24 of 25 (1,000 chips)"  # bob, off the page

    await w.restart()
    third = await w.click(w.dave, second.response, label="Next")
    page = third.response.embeds[0]
    assert page.footer.text == "Page 3 of 3"
    assert page.description.splitlines()[-1] == "**25.** Alice — 724 chips"
    back = await w.click(w.dave, third.response, label="Previous")
    assert back.response.embeds[0].footer.text == "Page 2 of 3"


async def test_the_public_board_keeps_its_authors_rank_whoever_turns_the_page(world):
    w = world
    for index in range(12):  # twelve members above Alice and Bob: her rank is off page 1
        await w.slash(w.add_member(f"player{index:02d}"), "chips daily")
    await w.slash(w.alice, "chips give", member=w.carol, amount=500)  # Alice: 500, last
    await w.balances(w.bob)  # Bob: 1,000 chips
    asked = await w.slash(w.alice, "leaderboard")
    rank = asked.response.embeds[0].fields[0]
    assert (rank.name, rank.value) == ("Alice's rank", "15 of 15 (500 chips)")

    turned = await w.click(w.bob, asked.response, label="Next")
    page = turned.response.embeds[0]
    assert page.footer.text == "Page 2 of 2"
    assert (page.fields[0].name, page.fields[0].value) == ("Alice's rank", "15 of 15 (500 chips)")
    await w.restart()
    back = await w.click(w.dave, turned.response, label="Previous")
    page = back.response.embeds[0]
    assert page.footer.text == "Page 1 of 2"
    assert (page.fields[0].name, page.fields[0].value) == ("Alice's rank", "15 of 15 (500 chips)")


async def test_a_page_button_posted_before_authors_were_kept_names_the_clicker(world):
    await world.balances(world.alice, world.bob)
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton("chips", None, 0, None, label="Next"))
    assert view.children[0].custom_id == "lb:chips::0"  # the form such buttons have
    await world.bot.get_channel(world.channel.id).send(view=view)
    turned = await world.click(world.bob, world.channel.history()[-1], label="Next")
    rank = turned.response.embeds[0].fields[0]
    assert (rank.name, rank.value) == ("Bob's rank", "1 of 2 (1,000 chips)")


async def test_members_who_left_keep_their_last_known_name(world):
    w = world
    leaver = w.add_member("zed")
    await finish(w, "kalooki", [(leaver, 1), (w.alice, 2)])
    w.guild.remove_member(leaver)
    result = await w.slash(w.alice, "leaderboard", game="kalooki")
    assert lines(result)[0].startswith("**1.** Zed — ")
    no_mentions(result)


@pytest.mark.parametrize(
    "options, reason",
    [({"game": "tripoli", "metric": "chips"}, "Chips are per server"),
     ({"metric": "rating"}, "Ratings are per game")],
)
async def test_boards_that_do_not_exist_are_refused_privately(world, options, reason):
    result = await world.slash(world.alice, "leaderboard", **options)
    assert result.response.ephemeral and reason in result.response.content


async def test_stats_show_games_wins_rating_streak_and_best_finish(world):
    w = world
    for place in (1, 1, 2, 1, 1, 1):
        other = 2 if place == 1 else 1
        await finish(w, "tripoli", [(w.alice, place), (w.bob, other)],
                     chips={0: 20 if place == 1 else -20, 1: -20 if place == 1 else 20})
    result = await w.slash(w.carol, "stats", member=w.alice)
    assert not result.response.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "Stats — Alice"
    fields = {field.name: field.value for field in embed.fields}
    tripoli = fields["Tripoli"]
    assert "6 games · 5 won (83%)" in tripoli
    assert "Longest win streak: 3" in tripoli and "Best finish: 1st" in tripoli
    assert "Net chips: +80" in tripoli
    assert re.search(r"Rating: \*\*\d+\.\d\*\* \(\+\d+\.\d over the last 6 rated\)", tripoli)
    assert "Every game" in fields
    nothing = await w.slash(w.dave, "stats", game="kalooki")
    assert "no ranked games of Caribbean Kalooki" in nothing.response.embeds[0].description
    bot = await w.slash(w.dave, "stats", member=w.robot)
    assert bot.response.ephemeral and "bots don't play" in bot.response.content
