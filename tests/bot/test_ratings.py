"""Ratings: the pure Plackett-Luce update (bot.ratings) and the store that applies it in the
commit recording each result, so a result never exists without its rating update.

The central check recomputes every rating from the ``results`` table, oldest first, and
finds the stored values exactly (same floats, same games counts).
"""

from __future__ import annotations

import random
import sqlite3

import pytest

from bot import ratings
from bot.ratings import Rating
from bot.store import (
    GameResult,
    InsufficientChips,
    SeatResult,
    SqliteStore,
    SqlStore,
    TableWrite,
    make_store,
)
from bot.store.schema import load_migrations

GUILD, OTHER, CHANNEL = 10, 11, 20
START = 1000


def seat(index: int, user: int | None, place: int, team: int | None = None,
         chips: int | None = None) -> SeatResult:
    return SeatResult(index, user, f"m{user}", team, place, 0, chips)


def result(game: str, *seats: SeatResult, ranked: bool = True,
           complete: bool = True) -> GameResult:
    return GameResult(game, ranked, complete, "{}", "{}", seats)


def free_for_all(game: str, *users: int, places: tuple[int, ...] | None = None) -> GameResult:
    places = places or tuple(range(1, len(users) + 1))
    return result(game, *(seat(i, u, p) for i, (u, p) in enumerate(zip(users, places,
                                                                        strict=True))))


def teams(a: tuple[int, int], b: tuple[int, int], winner: int) -> GameResult:
    """Troefcall: team 0 at seats 0 and 2, team 1 at seats 1 and 3."""
    place = (1, 2) if winner == 0 else (2, 1)
    return result("troefcall", seat(0, a[0], place[0], 0), seat(1, b[0], place[1], 1),
                  seat(2, a[1], place[0], 0), seat(3, b[1], place[1], 1))


@pytest.fixture
async def store(database_url):
    async with make_store(database_url, starting_chips=START) as store:
        yield store


async def record(store: SqlStore, game: GameResult, guild: int = GUILD,
                 table: str = "t") -> None:
    await store.commit_table(TableWrite(table, guild, CHANNEL, None, result=game))


def recompute(history: list[tuple[GameResult, int]]) -> dict[str, dict[int, tuple]]:
    """Every rating of a guild, from its results alone."""
    state: dict[str, dict[int, Rating]] = {}
    counts: dict[str, dict[int, int]] = {}
    for game, _result_id in history:
        if not ratings.rated(game.ranked, game.complete, game.seats):
            continue
        current = state.setdefault(game.game, {})
        current.update(ratings.update(game.seats, current))
        for s in game.seats:
            counts.setdefault(game.game, {})[s.user_id] = (
                counts.get(game.game, {}).get(s.user_id, 0) + 1)
    return {name: {user: (r.mu, r.sigma, counts[name][user]) for user, r in by.items()}
            for name, by in state.items()}


# ---------------------------------------------------------------- the pure model


def test_a_newcomer_shows_zero_and_the_winner_gains():
    assert Rating().display == pytest.approx(0.0, abs=1e-12)
    after = ratings.update(free_for_all("tripoli", 1, 2, 3).seats, {})
    assert after[1].mu > ratings.MU > after[3].mu
    assert after[1].display > after[2].display > after[3].display
    assert all(r.sigma < ratings.SIGMA + ratings.TAU for r in after.values())


def test_ties_are_ties():
    after = ratings.update(free_for_all("kalooki", 1, 2, 3, places=(1, 1, 3)).seats, {})
    assert (after[1].mu, after[1].sigma) == (after[2].mu, after[2].sigma)
    assert after[3].mu < after[1].mu


def test_teams_move_together_and_sides_follow_places():
    after = ratings.update(teams((1, 3), (2, 4), winner=1).seats, {})
    assert after[2] == after[4] and after[1] == after[3]
    assert after[2].mu > after[1].mu
    assert ratings.sides(teams((1, 3), (2, 4), winner=1).seats) == [(1, [2, 4]), (2, [1, 3])]


@pytest.mark.parametrize(
    "game, expected",
    [
        (result("tripoli", seat(0, 1, 1), seat(1, None, 2)), False),  # an AI seat
        (result("tripoli", seat(0, 1, 1), seat(1, 2, 2), ranked=False), False),
        (result("tripoli", seat(0, 1, 1), seat(1, 2, 2), complete=False), False),
        (result("tripoli", seat(0, 1, 1)), False),  # one side
        (result("tripoli", seat(0, 1, 1), seat(1, 2, 2)), True),
    ],
)
def test_only_ranked_complete_member_results_are_rated(game, expected):
    assert ratings.rated(game.ranked, game.complete, game.seats) is expected


def test_update_refuses_what_cannot_be_rated():
    with pytest.raises(ValueError, match="AI seat"):
        ratings.update(result("tripoli", seat(0, 1, 1), seat(1, None, 2)).seats, {})
    with pytest.raises(ValueError, match="two sides"):
        ratings.update(result("troefcall", seat(0, 1, 1, 0), seat(1, 2, 1, 0)).seats, {})


# ---------------------------------------------------------------- in the store


async def test_a_rated_result_updates_ratings_in_its_commit(store):
    await record(store, free_for_all("tripoli", 1, 2, 3))
    stored = await store.ratings(GUILD, "tripoli")
    expected = ratings.update(free_for_all("tripoli", 1, 2, 3).seats, {})
    assert stored == {user: (r.mu, r.sigma, 1) for user, r in expected.items()}
    assert await store.ratings(OTHER, "tripoli") == {}
    assert await store.ratings(GUILD, "kalooki") == {}


async def test_unrated_results_change_no_rating(store):
    await record(store, result("tripoli", seat(0, 1, 1), seat(1, None, 2), ranked=False))
    await record(store, result("tripoli", seat(0, 1, 1), seat(1, 2, 2), complete=False))
    assert await store.ratings(GUILD, "tripoli") == {}
    assert len(await store.results(GUILD)) == 2


async def test_a_refused_commit_records_neither_result_nor_rating(store):
    from bot.store import ChipMove

    write = TableWrite("t", GUILD, CHANNEL, None, (ChipMove("escrow", 1, START + 1, "stake"),),
                       free_for_all("tripoli", 1, 2))
    with pytest.raises(InsufficientChips):
        await store.commit_table(write)
    assert await store.results(GUILD) == []
    assert await store.ratings(GUILD, "tripoli") == {}


async def test_every_rating_recomputed_from_the_results_is_exactly_the_stored_one(store):
    rng = random.Random(7)
    members = list(range(1, 13))
    for number in range(120):
        guild = rng.choice((GUILD, OTHER))
        kind = rng.choice(("tripoli", "kalooki", "troefcall", "casual", "early"))
        if kind == "troefcall":
            a, b, c, d = rng.sample(members, 4)
            game = teams((a, c), (b, d), winner=rng.randrange(2))
        else:
            users = rng.sample(members, rng.randint(2, 6))
            places = tuple(sorted(rng.randint(1, len(users)) for _ in users))
            game = free_for_all("kalooki" if kind == "kalooki" else "tripoli", *users,
                                places=places)
            if kind == "casual":
                game = result(game.game, *game.seats[:-1], seat(len(users), None, 9),
                              ranked=False)
            elif kind == "early":
                game = result(game.game, *game.seats, complete=False)
        await record(store, game, guild, table=f"t{number}")
    for guild in (GUILD, OTHER):
        expected = recompute(await store.results(guild))
        assert expected, "some results are rated"
        for name in ("tripoli", "kalooki", "troefcall"):
            assert await store.ratings(guild, name) == expected.get(name, {}), (guild, name)


async def test_history_and_the_rating_board(store):
    for _ in range(3):
        await record(store, free_for_all("kalooki", 1, 2))
    history = await store.rating_history(GUILD, "kalooki", 1)
    assert len(history) == 3
    assert history[0][0] == pytest.approx(0.0, abs=1e-12)
    assert all(after > before for before, after in history)
    assert [b for b, _ in history[1:]] == [a for _, a in history[:-1]]
    rows, total = await store.board(GUILD, "rating", "kalooki", 0, 10)
    assert [(row.rank, row.user_id, row.name) for row in rows] == [(1, 1, "m1"), (2, 2, "m2")]
    assert total == 2
    assert rows[0].value == pytest.approx(Rating(*(await store.ratings(GUILD, "kalooki"))[1][:2])
                                          .display)


async def test_an_older_database_gets_ratings_and_stats_from_its_results(tmp_path):
    path = tmp_path / "old.db"
    older = load_migrations()[:2]
    async with SqliteStore(path, starting_chips=START, migrations=older) as store:
        await record(store, free_for_all("tripoli", 1, 2, 3))
        await record(store, teams((1, 3), (2, 4), winner=0))
    with sqlite3.connect(path) as db:
        assert "ratings" not in {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    async with SqliteStore(path, starting_chips=START) as store:
        expected = recompute(await store.results(GUILD))
        assert await store.ratings(GUILD, "tripoli") == expected["tripoli"]
        assert await store.ratings(GUILD, "troefcall") == expected["troefcall"]
        stats = {s.game: s for s in await store.member_stats(GUILD, 1)}
        assert (stats[""].games, stats[""].wins, stats[""].best_streak) == (2, 2, 2)
