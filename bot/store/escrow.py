"""Giving back the escrow of a table that no longer exists (DESIGN.md §5, start-up).

A table's escrow is one pool of chips. For each member the store records what they escrowed
in total and what is still *outstanding*: escrowed since their last settlement (a settlement
means their stack left the table, so it closes their claim, even when it was 0 chips).

Every chip movement of a table commits together with the table's saved state
(:meth:`bot.store.sql.SqlStore.commit_table`), and a table is forgotten only in the
transaction that settles it, so a pool without a table can only be the buy-ins of a table
that never got going (a database written by an older release). Reconciliation never
guesses: each member gets back exactly their outstanding chips, and only when the pool holds
exactly those; a pool that does not add up is left alone for an admin to look at.
"""

from __future__ import annotations

from collections.abc import Iterable


def exact_claims(pool: int, claims: Iterable[tuple[int, int]]) -> dict[int, int]:
    """The chips each member gets back from an orphaned pool: their outstanding claim.

    Parameters
    ----------
    pool
        Chips the table's escrow holds (>= 0).
    claims
        ``(user_id, outstanding)`` per member, in chips: what they escrowed since their last
        settlement (their own ledger rows put it there).

    Returns
    -------
    dict[int, int]
        Chips per user_id, only members receiving > 0; the values sum to exactly ``pool``.

    Raises
    ------
    ValueError
        If a claim is negative or the claims do not add up to ``pool`` (chips moved between
        members at the table: who owns what cannot be known without the table).
    """
    claims = sorted(claims)
    if pool < 0 or any(outstanding < 0 for _, outstanding in claims):
        raise ValueError(f"an escrow pool and its claims cannot be negative: {pool}, {claims}")
    owed = sum(outstanding for _, outstanding in claims)
    if owed != pool:
        raise ValueError(f"the pool holds {pool} chips but its members' claims add up to {owed}")
    return {user: outstanding for user, outstanding in claims if outstanding > 0}
