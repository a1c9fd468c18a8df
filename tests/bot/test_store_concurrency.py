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

from table_round import table_round

from bot.store import InsufficientChips, StoreError, make_store

GUILDS = (10, 11)
MEMBERS = tuple(range(1, 9))
START = 1000


async def test_200_interleaved_operations_keep_every_ledger_and_the_audit(database_url):
    rng = random.Random(2026)
    day = datetime(2026, 1, 1, tzinfo=UTC)
    async with make_store(database_url, starting_chips=START) as store:

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
                    return table_round(store, rng, f"g{guild}t{number}", guild, MEMBERS)

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
