"""One ranked table's chips, start to end, as the store sees them: the buy-ins of three
members committed with the table, then the pot shared out at random as the table is deleted.

The concurrency tests run many of these at once with other chip operations, in one process
(``bot/test_store_concurrency.py``) and in several (``process/chips_child.py``, which finds
this module on the ``PYTHONPATH`` its parent gives it).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

from bot.store import ChipMove, Store, TableWrite


async def table_round(store: Store, rng: random.Random, table_id: str, guild: int,
                      members: Sequence[int]) -> None:
    """Seat three of ``members`` (drawn by ``rng``) at table ``table_id`` of ``guild``, each
    buying in for the same random stake (1 to 400 chips), and pay the pot (three stakes)
    back to them in random shares that add up to it.

    Raises
    ------
    InsufficientChips
        When a member cannot cover the stake: the buy-ins commit nothing (nor the payout,
        which is not attempted).
    """
    players = rng.sample(members, 3)
    stake = rng.randint(1, 400)
    await store.commit_table(TableWrite(table_id, guild, 1, "{}", tuple(
        ChipMove("escrow", member, stake, "buy_in") for member in players)))
    await asyncio.sleep(0)  # let the other operations run between buy-in and payout
    pot, shares = 3 * stake, []
    for _ in players[:-1]:
        shares.append(rng.randint(0, pot - sum(shares)))
    shares.append(pot - sum(shares))
    await store.commit_table(TableWrite(table_id, guild, 1, None, tuple(
        ChipMove("settle", member, share, "payout")
        for member, share in zip(players, shares, strict=True))))
