"""The ``"stake"`` policy at the runtime level, with Troefcall played for a stake: a
ranked table escrows each member's stake at Start, the winners share the pot, a table ended
without a winner refunds, a leaver forfeits; every move commits with the table.
"""

from __future__ import annotations

import pytest
from registries import registry_of

from bot.games.troefcall import TroefcallAdapter
from bot.runtime.refs import Refusal
from bot.runtime.registry import TableRegistry
from bot.runtime.table import Table, TableState
from bot.store import SqliteStore

GUILD, CHANNEL = 10, 20
START, STAKE = 1000, 25
MEMBERS = (1, 2, 3, 4)


@pytest.fixture
async def store(tmp_path):
    async with SqliteStore(tmp_path / "parlour.db", starting_chips=START) as store:
        yield store


@pytest.fixture
def registry(store, tmp_path) -> TableRegistry:
    return registry_of(store, {"troefcall": TroefcallAdapter()}, tmp_path)


async def started(registry: TableRegistry, *, away: bool = False, deals: int = 1) -> Table:
    table = registry.open("troefcall", guild_id=GUILD, channel_id=CHANNEL, host_id=1,
                          host_name="m1",
                          options={"teams": "random", "deals": deals, "stake": STAKE},
                          buy_in=STAKE)
    for member in MEMBERS[1:]:
        await registry.join(table, member, f"m{member}")
    for seat in table.seats:
        seat.ai = away  # members away: the AI plays their seats, the table stays ranked
    await registry.start(table, 1, is_manager=False)
    return table


async def balances(store) -> list[int]:
    return [await store.balance(GUILD, member) for member in MEMBERS]


async def audit_holds(store) -> None:
    held, escrow, granted = await store.audit(GUILD)
    assert held + escrow == granted
    for member in MEMBERS:
        assert sum(e.delta for e in await store.ledger(GUILD, member)) == \
            await store.balance(GUILD, member)


async def test_start_escrows_each_members_stake(registry, store):
    table = await started(registry)
    assert table.state is TableState.PLAYING
    assert await balances(store) == [START - STAKE] * 4
    assert await store.table_escrow(table.id) == 4 * STAKE
    await audit_holds(store)


async def test_the_winning_team_shares_the_pot(registry, store):
    table = await started(registry, away=True)
    assert table.state is TableState.OVER, "the AI played the one hand to the end"
    [(result, _id)] = await store.results(GUILD)
    winners = {s.user_id for s in result.seats if s.place == 1}
    final = dict(zip(MEMBERS, await balances(store), strict=True))
    assert len(winners) == 2
    for member, balance in final.items():
        assert balance == (START + STAKE if member in winners else START - STAKE)
    assert await store.table_escrow(table.id) == 0
    await audit_holds(store)


async def test_a_table_ended_without_a_winner_refunds_everyone(registry, store):
    table = await started(registry)
    await registry.end(table, 1, is_manager=False, abandon=True)
    assert table.state is TableState.OVER
    assert await balances(store) == [START] * 4
    assert await store.table_escrow(table.id) == 0
    await audit_holds(store)


async def test_a_leaver_forfeits_and_the_others_share_it_when_nobody_wins(registry, store):
    table = await started(registry)
    await registry.leave(table, 4)  # the AI takes the seat; the stake stays in the pot
    await registry.end(table, 1, is_manager=False, abandon=True)
    final = await balances(store)
    assert final[3] == START - STAKE
    assert sum(final[:3]) == 3 * START + STAKE  # 3 refunds and the forfeit, shared
    assert sorted(final[:3]) == [START + 8, START + 8, START + 9]
    assert await store.table_escrow(table.id) == 0
    assert await store.return_orphan_escrow(set()) == {}
    await audit_holds(store)


async def test_a_game_every_member_left_gives_each_leaver_the_stake_back(registry, store):
    table = await started(registry)
    for member in reversed(MEMBERS):
        await registry.leave(table, member)
    assert table.state is TableState.OVER, "the last member gone, the table closes"
    assert all(seat.member_id is None for seat in table.seats)
    assert table.forfeits == dict.fromkeys(MEMBERS, STAKE)
    assert await balances(store) == [START] * 4
    assert await store.table_escrow(table.id) == 0
    await audit_holds(store)


async def test_the_odd_chip_goes_to_the_first_seat_clockwise_from_the_first_dealer(registry,
                                                                                  store):
    table = await started(registry)
    first = table.game.first_dealer
    assert first == table.game.jack_search.dealer  # the jack search chose him (§2.2)
    leaver = table.seats[(first + 1) % 4].member_id  # leaves: 25 forfeited chips to share
    await registry.leave(table, leaver)
    staying = [(seat, entry.member_id) for seat, entry in enumerate(table.seats)
               if entry.member_id is not None]
    await registry.end(table, table.host_id, is_manager=True, abandon=True)
    nearest = min(staying, key=lambda pair: (pair[0] - first) % 4)[1]
    for _seat, member in staying:  # 25 = 8 + 8 + 9: the odd chip to the nearest clockwise
        expected = START + 8 + (member == nearest)
        assert await store.balance(GUILD, member) == expected, member


async def play_hand(registry: TableRegistry, table: Table) -> None:
    """Every seat's decisions as the AI would make them, each committed, to the hand's end."""
    game = table.game
    while not game.between_deals and not game.is_over:
        async with registry._changing(table):
            pending = sorted(game.pending(), key=lambda p: not p.required)
            registry._apply_ai(table, pending[0].seat)
            await registry._progress(table)


async def test_a_member_who_takes_an_ai_seat_stakes_too_and_shares_exactly(registry, store):
    """Taking a leaver's AI seat between hands escrows the stake in the commit that seats the
    member (refused, and nothing moves, when they cannot cover it); the refunds and the
    forfeit's shares then count every stake put in."""
    table = await started(registry, deals=2)
    await registry.leave(table, 4)
    await play_hand(registry, table)
    assert table.game.between_deals
    board = registry.render_board(table).view
    assert board is not None and "Join (25 chips at stake)" in [
        child["label"] for row in board.to_components() for child in row["components"]]
    await store.burn(GUILD, 6, START - STAKE + 1, "test")  # member 6 keeps 24 of 25
    with pytest.raises(Refusal) as refused:
        await registry.join(table, 6, "m6")
    assert refused.value.code == "chips" and "for the stake" in refused.value.message
    assert table.seat_of(6) is None and await store.balance(GUILD, 6) == STAKE - 1
    await registry.join(table, 5, "m5")
    assert table.seat_of(5) is not None and table.staked == 5 * STAKE
    assert await store.balance(GUILD, 5) == START - STAKE
    assert await store.table_escrow(table.id) == 5 * STAKE
    await registry.end(table, 1, is_manager=False, abandon=True)
    seated = [1, 2, 3, 5]
    shares = {member: await store.balance(GUILD, member) - (START - STAKE) for member in seated}
    assert sorted(shares.values()) == [STAKE + 6, STAKE + 6, STAKE + 6, STAKE + 7]  # 25 = 6*3+7
    assert await store.balance(GUILD, 4) == START - STAKE
    assert await store.table_escrow(table.id) == 0
    await audit_holds(store)
