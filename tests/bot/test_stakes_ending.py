"""How a session's end pays its stakes (:class:`engine.core.EndReason`, the ``"stake"``
policy of :mod:`bot.runtime.stakes`), with Kalooki and Troefcall played for a stake through
the registry: a set or game ended by its agreed length pays its winners the pot; one the
host ends, or the runtime for lack of players (every member away), before its rules' end
has no winner and returns every stake. Chips are never created or lost.
"""

from __future__ import annotations

import pytest
from registries import decide, registry_of

from bot.games.kalooki import KalookiAdapter
from bot.games.troefcall import TroefcallAdapter
from bot.runtime import pace
from bot.runtime.registry import TableRegistry
from bot.runtime.table import Table, TableState
from bot.store import SqliteStore

GUILD, CHANNEL = 10, 20
START, STAKE = 1000, 30  # 3 stakes of 30: a pot of 90 splits evenly among 1, 2 or 3 winners
KALOOKI, TROEFCALL = (1, 2, 3), (1, 2, 3, 4)


@pytest.fixture
async def store(tmp_path):
    async with SqliteStore(tmp_path / "parlour.db", starting_chips=START) as store:
        yield store


@pytest.fixture
def registry(store, tmp_path) -> TableRegistry:
    return registry_of(store, {"kalooki": KalookiAdapter(), "troefcall": TroefcallAdapter()},
                       tmp_path)


async def started(registry: TableRegistry, game: str, members: tuple[int, ...], *,
                  away: bool = False, **options: object) -> Table:
    """A ranked table of ``members`` playing ``game`` for :data:`STAKE` each, started;
    ``away``: every member is away from the start (the AI plays their seats)."""
    table = registry.open(game, guild_id=GUILD, channel_id=CHANNEL, host_id=members[0],
                          host_name=f"m{members[0]}", options={**options, "stake": STAKE},
                          buy_in=STAKE)
    for member in members[1:]:
        await registry.join(table, member, f"m{member}")
    for seat in table.seats:
        seat.ai = away
    await registry.start(table, members[0], is_manager=False)
    return table


async def play_deal(registry: TableRegistry, table: Table) -> None:
    """The deal played to its end, each decision committed: a member's required one as the
    AI would make it, else a rule's timer, else an optional one (taken or let lapse)."""
    game = table.game
    for _ in range(20_000):
        if game.between_deals or table.state is TableState.OVER:
            return
        await decide(registry, table)
    raise AssertionError("the deal did not end")


async def balances(store, members: tuple[int, ...]) -> dict[int, int]:
    return {member: await store.balance(GUILD, member) for member in members}


async def closed(store, table: Table, members: tuple[int, ...]) -> None:
    """Nothing is left in escrow and every chip is accounted for."""
    assert table.state is TableState.OVER
    assert await store.table_escrow(table.id) == 0
    held, escrow, granted = await store.audit(GUILD)
    assert held + escrow == granted
    for member in members:
        assert sum(e.delta for e in await store.ledger(GUILD, member)) == \
            await store.balance(GUILD, member)


async def test_a_set_whose_members_all_went_away_returns_every_stake(registry, store):
    """A try-out's staked set nobody attended: the AI plays deal 1 of 9, then the runtime
    ends it (no member present): no winner, each member gets their 30 chips back."""
    table = await started(registry, "kalooki", KALOOKI, away=True)
    registry.bot.clock.advance(pace.ACTIVE_WINDOW)  # nobody interacted since
    await play_deal(registry, table)
    assert table.state is TableState.OVER and table.game.deal_number == 1
    assert "note.too_few" in [note.msg.key for note in table.notes]
    assert not table.game.outcome.complete and table.game.outcome.winners == ()
    assert await balances(store, KALOOKI) == dict.fromkeys(KALOOKI, START)
    [(result, _id)] = await store.results(GUILD)
    assert not result.complete
    await closed(store, table, KALOOKI)


async def test_a_set_played_to_its_agreed_deals_pays_the_lowest_total(registry, store):
    """One deal agreed, members away or not: the set is whole and the lowest total takes the
    pot of 90 (shared evenly on a tie)."""
    table = await started(registry, "kalooki", KALOOKI, away=True, deals=1)
    registry.bot.clock.advance(pace.ACTIVE_WINDOW)  # nobody present either
    await play_deal(registry, table)
    assert table.state is TableState.OVER and table.game.deal_number == 1
    outcome = table.game.outcome
    assert outcome.complete and outcome.winners == outcome.places[0]
    winners = {table.seats[seat].member_id for seat in outcome.winners}
    share = len(KALOOKI) * STAKE // len(winners)
    assert await balances(store, KALOOKI) == {
        member: START - STAKE + (share if member in winners else 0) for member in KALOOKI}
    await closed(store, table, KALOOKI)


@pytest.mark.parametrize("abandon", [False, True])
async def test_a_set_the_host_ends_before_its_last_deal_returns_every_stake(
        registry, store, abandon):
    table = await started(registry, "kalooki", KALOOKI)
    if not abandon:  # between deals, after deal 1 of 9
        await play_deal(registry, table)
        assert table.game.between_deals and table.game.totals != [0, 0, 0]
    await registry.end(table, 1, is_manager=False, abandon=abandon)
    assert not table.game.outcome.complete and table.game.outcome.winners == ()
    assert await balances(store, KALOOKI) == dict.fromkeys(KALOOKI, START)
    await closed(store, table, KALOOKI)


async def test_a_game_played_to_its_agreed_minutes_pays_the_higher_score(registry, store):
    """The minute passes during hand 1: the game ends at the hand's end, short of its target
    (15), and the team that scored takes the pot: 30 more chips for each of its members."""
    table = await started(registry, "troefcall", TROEFCALL, teams="random", minutes=1)
    registry.bot.clock.advance(61)
    await play_deal(registry, table)
    outcome = table.game.outcome
    assert table.state is TableState.OVER and "note.agreed_minutes" in [
        note.msg.key for note in table.notes]
    assert outcome.complete and max(table.game.scores) < 15
    winners = {table.seats[seat].member_id for seat in outcome.winners}
    assert len(winners) == 2
    assert await balances(store, TROEFCALL) == {
        member: START + STAKE if member in winners else START - STAKE for member in TROEFCALL}
    await closed(store, table, TROEFCALL)


async def test_the_host_ending_the_last_agreed_deal_pays_as_the_length_would(registry, store):
    """One deal agreed; the host asks to end after it while it is played: that deal is the
    set's last anyway, so the set is whole and the lowest total takes the pot of 90."""
    table = await started(registry, "kalooki", KALOOKI, deals=1)
    await registry.end(table, 1, is_manager=False, abandon=False)
    await play_deal(registry, table)
    outcome = table.game.outcome
    assert table.state is TableState.OVER and outcome.complete
    winners = {table.seats[seat].member_id for seat in outcome.winners}
    share = len(KALOOKI) * STAKE // len(winners)
    assert await balances(store, KALOOKI) == {
        member: START - STAKE + (share if member in winners else 0) for member in KALOOKI}
    await closed(store, table, KALOOKI)


async def test_the_host_ending_after_the_agreed_minutes_pays_the_higher_score(registry, store):
    """The agreed minute is up during hand 1 and the host asks to end after it: the game is
    won by the team that scores that hand, as without the host's click."""
    table = await started(registry, "troefcall", TROEFCALL, teams="random", minutes=1)
    registry.bot.clock.advance(61)
    await registry.end(table, 1, is_manager=False, abandon=False)
    await play_deal(registry, table)
    outcome = table.game.outcome
    assert table.state is TableState.OVER and outcome.complete
    winners = {table.seats[seat].member_id for seat in outcome.winners}
    assert await balances(store, TROEFCALL) == {
        member: START + STAKE if member in winners else START - STAKE for member in TROEFCALL}
    await closed(store, table, TROEFCALL)


async def test_a_game_the_host_ends_short_of_its_target_returns_every_stake(registry, store):
    table = await started(registry, "troefcall", TROEFCALL, teams="random")
    await play_deal(registry, table)
    assert table.game.between_deals and max(table.game.scores) > 0
    await registry.end(table, 1, is_manager=False, abandon=False)
    assert not table.game.outcome.complete
    assert await balances(store, TROEFCALL) == dict.fromkeys(TROEFCALL, START)
    await closed(store, table, TROEFCALL)
