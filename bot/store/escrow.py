"""Sharing out the escrow of a table that no longer exists (DESIGN.md §5, start-up).

A table's escrow is one pool of chips. For each member the store records what they escrowed
in total and what is still *outstanding*: escrowed since their last settlement (a settlement
means their stack left the table, so it closes their claim, even when it was 0 chips).

When a table vanishes (a crash between escrow and settlement), the pool goes back to the
members: each gets their outstanding chips, scaled pro rata to the pool, because the deals
played since may have moved chips between them and settled members may have lost theirs to
the pool. The remainder of the integer division goes to the largest claim, so exactly the
pool is returned: nothing created, nothing lost.
"""

from __future__ import annotations

from collections.abc import Iterable


def split_pool(pool: int, claims: Iterable[tuple[int, int, int]]) -> dict[int, int]:
    """Share ``pool`` chips among the members of a table.

    Parameters
    ----------
    pool
        Chips the table's escrow holds (>= 0).
    claims
        ``(user_id, outstanding, escrowed)`` per member, in chips: what they escrowed and
        have not had settled, and everything they ever escrowed at this table. Weights are the
        outstanding chips; when nobody has any left (every member settled), the total
        escrowed chips.

    Returns
    -------
    dict[int, int]
        Chips per user_id, only members receiving > 0; the values sum to exactly ``pool``.
        The remainder of the pro rata division goes to the largest weight (the lowest
        user_id among equals).

    Raises
    ------
    ValueError
        If ``pool`` > 0 and no member has a positive weight (nobody to give the chips to),
        or if ``pool`` or a weight is negative.
    """
    if pool < 0:
        raise ValueError(f"an escrow pool cannot be negative, got {pool}")
    claims = sorted(claims)
    if any(outstanding < 0 or escrowed < 0 for _, outstanding, escrowed in claims):
        raise ValueError(f"escrow claims cannot be negative: {claims}")
    if pool == 0:
        return {}
    weights = {user: outstanding for user, outstanding, _ in claims if outstanding > 0}
    if not weights:
        weights = {user: escrowed for user, _, escrowed in claims if escrowed > 0}
    if not weights:
        raise ValueError(f"{pool} chips in escrow but no member escrowed anything")
    total = sum(weights.values())
    shares = {user: pool * weight // total for user, weight in weights.items()}
    largest = min(weights, key=lambda user: (-weights[user], user))
    shares[largest] += pool - sum(shares.values())
    return {user: share for user, share in shares.items() if share > 0}
