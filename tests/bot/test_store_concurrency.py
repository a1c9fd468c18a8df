"""200 interleaved chip operations on one store, two servers (case C10 widened): gifts,
dailies, grants, takes (burns), buy-ins and settlements run at once; refusals (not enough
chips) change nothing. Afterwards every balance equals its ledger sum and, per server,
balances + escrow == grants - burns. On both back ends (PostgreSQL: ten pooled connections
running the operations truly at once).
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

from bot.store import ChipMove, InsufficientChips, StoreError, TableWrite, make_store

GUILDS = (10, 11)
MEMBERS = tuple(range(1, 9))
START = 1000


async def test_200_interleaved_operations_keep_every_ledger_and_the_audit(database_url):
    rng = random.Random(2026)
    day = datetime(2026, 1, 1, tzinfo=UTC)
    async with make_store(database_url, starting_chips=START) as store:

        async def table_round(guild: int, number: int) -> None:
            table, players = f"g{guild}t{number}", rng.sample(MEMBERS, 3)
            stake = rng.randint(1, 400)
            await store.commit_table(TableWrite(table, guild, 1, "{}", tuple(
                ChipMove("escrow", member, stake, "buy_in") for member in players)))
            await asyncio.sleep(0)
            pot, shares = 3 * stake, []
            for _ in players[:-1]:
                shares.append(rng.randint(0, pot - sum(shares)))
            shares.append(pot - sum(shares))
            await store.commit_table(TableWrite(table, guild, 1, None, tuple(
                ChipMove("settle", member, share, "payout")
                for member, share in zip(players, shares, strict=True))))

        def operation(number: int):
            guild, a, b = rng.choice(GUILDS), *rng.sample(MEMBERS, 2)
            amount = rng.randint(1, 700)
            match number % 6:
                case 0:
                    return store.transfer(guild, a, b, amount)
                case 1:
                    return store.claim_daily(guild, a, 100, day + timedelta(hours=number), 10, 60)
                case 2:
                    return store.grant(guild, a, amount, "admin_grant")
                case 3:
                    return store.burn(guild, a, amount, "admin_take")
                case _:
                    return table_round(guild, number)

        outcomes = await asyncio.gather(*(operation(n) for n in range(200)),
                                        return_exceptions=True)
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        assert all(isinstance(o, InsufficientChips) for o in refused), refused
        assert not any(isinstance(o, StoreError) and not isinstance(o, InsufficientChips)
                       for o in refused)
        for guild in GUILDS:
            held, escrow, net = await store.audit(guild)
            assert held + escrow == net, guild
            assert escrow == 0  # every table settled (a refused buy-in moved nothing)
            for member in MEMBERS:
                ledger = await store.ledger(guild, member)
                assert sum(entry.delta for entry in ledger) == await store.balance(guild, member)
                assert all(entry.balance_after >= 0 for entry in ledger)
