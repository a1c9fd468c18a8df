"""Stakes policies: what a table's seats put at stake and get back (DESIGN.md §4, §7).

The table never mentions chips: it asks its game's policy (``GameSpec.stakes``) for the chip
movements of a change, queues them on the table (``table.moves``) and the registry commits
them with the table's snapshot in one transaction (``store.commit_table``), so a crash can
never leave the balances and the table disagreeing.

- ``"none"``: nothing moves (Troefcall, Kalooki without a stake; every casual table).
- ``"stake"``: points games played for a pot (:class:`Stake`).
- ``"buy_in"``: each seat's starting stack. On a ranked table Start escrows the buy-in of
  every member, a member joining between deals escrows theirs, and a stack leaving the
  table (a leave between deals, the end of the session) is settled back to its member. A
  casual table (any AI seat) plays chips from its own bank: nothing moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.runtime.table import Table, TableState
from bot.store import ChipMove


class StakesPolicy(Protocol):
    """The chip movements of a table's life; each returns the moves to commit."""

    def on_start(self, table: Table) -> list[ChipMove]:
        """Start: the seats' stakes go into the table."""
        ...

    def on_join(self, table: Table, member_id: int) -> list[ChipMove]:
        """A member sits down between deals."""
        ...

    def on_leave(
        self, table: Table, member_id: int, stack: int, kicked: bool = False
    ) -> list[ChipMove]:
        """A member's seat leaves the table with ``stack`` chips (chip games); ``kicked``
        when the host or a moderator stood them up (they did not choose to leave)."""
        ...

    def on_finish(self, table: Table, stacks: Sequence[int | None]) -> list[ChipMove]:
        """The game is over: what each seat still holds goes back."""
        ...

    def forfeit(self, table: Table, member_id: int) -> int:
        """Chips ``member_id`` would lose to the table by leaving it now (0: leaving costs
        nothing, their stack or stake comes back), which Leave asks them to confirm."""
        ...


class NoStakes:
    """Nothing is at stake."""

    def on_start(self, table: Table) -> list[ChipMove]:
        return []

    def on_join(self, table: Table, member_id: int) -> list[ChipMove]:
        return []

    def on_leave(
        self, table: Table, member_id: int, stack: int, kicked: bool = False
    ) -> list[ChipMove]:
        return []

    def on_finish(self, table: Table, stacks: Sequence[int | None]) -> list[ChipMove]:
        return []

    def forfeit(self, table: Table, member_id: int) -> int:
        return 0


class BuyIn:
    """Each seat's stack is its member's chips on a ranked table (see the module doc)."""

    def on_start(self, table: Table) -> list[ChipMove]:
        if not table.ranked:
            return []
        return [ChipMove("escrow", seat.member_id, table.buy_in, "buy_in")
                for seat in table.seats if seat.member_id is not None]

    def on_join(self, table: Table, member_id: int) -> list[ChipMove]:
        return [ChipMove("escrow", member_id, table.buy_in, "buy_in")] if table.ranked else []

    def on_leave(
        self, table: Table, member_id: int, stack: int, kicked: bool = False
    ) -> list[ChipMove]:
        return [ChipMove("settle", member_id, stack, "leave")] if table.ranked else []

    def on_finish(self, table: Table, stacks: Sequence[int | None]) -> list[ChipMove]:
        if not table.ranked:
            return []
        return [ChipMove("settle", seat.member_id, stacks[index] or 0, "payout")
                for index, seat in enumerate(table.seats)
                if not seat.left and seat.member_id is not None]

    def forfeit(self, table: Table, member_id: int) -> int:
        return 0  # the stack leaves with its member


class Stake:
    """A points game played for a pot, on a ranked table: each member's seat escrows the
    table's stake (``table.buy_in``) at Start, and so does a member who takes an AI seat
    between deals; a member who leaves mid-game forfeits it to the pot (their claim is
    closed with 0), while a member the host (or a moderator) kicks gets it back in full at
    the kick (their claim settled with the stake, which leaves the pot). The pot is
    ``table.staked``: every stake put in and still in.

    At the end the winners share the pot: the seats of the best place that a member still
    holds (a team shares its place). The pot is split evenly; its odd chips go one each to
    the winners nearest clockwise from the first dealer (``game.first_dealer``, seat 0 when
    the game does not say). A game that ends with no winner (``complete`` False) refunds
    each member still seated their stake, and shares what leavers forfeited the same way.
    A game that ends with no member seated at all gives every leaver back what they
    forfeited (:attr:`Table.forfeits`): a pot nobody can win goes back to who put it in.
    """

    def on_start(self, table: Table) -> list[ChipMove]:
        if not table.ranked:
            return []
        moves = [ChipMove("escrow", seat.member_id, table.buy_in, "stake")
                 for seat in table.seats if seat.member_id is not None]
        table.staked = table.buy_in * len(moves)
        return moves

    def on_join(self, table: Table, member_id: int) -> list[ChipMove]:
        if not table.ranked:
            return []
        table.staked += table.buy_in
        return [ChipMove("escrow", member_id, table.buy_in, "stake")]

    def on_leave(
        self, table: Table, member_id: int, stack: int, kicked: bool = False
    ) -> list[ChipMove]:
        if not table.ranked:
            return []
        if kicked:
            table.staked -= table.buy_in
            return [ChipMove("settle", member_id, table.buy_in, "refund")]
        table.forfeits[member_id] = table.forfeits.get(member_id, 0) + table.buy_in
        return [ChipMove("settle", member_id, 0, "forfeit")]

    def forfeit(self, table: Table, member_id: int) -> int:
        playing = table.state is TableState.PLAYING and table.seat_of(member_id) is not None
        return table.buy_in if table.ranked and playing else 0

    def on_finish(self, table: Table, stacks: Sequence[int | None]) -> list[ChipMove]:
        if not table.ranked:
            return []
        seated = [index for index, seat in enumerate(table.seats)
                  if seat.member_id is not None and not seat.left]
        if not seated:
            return [ChipMove("settle", member_id, chips, "refund")
                    for member_id, chips in sorted(table.forfeits.items())]
        pot = table.staked
        outcome = table.game.outcome
        shares = dict.fromkeys(seated, 0)
        if outcome is None or not outcome.complete:
            for index in seated:
                shares[index] = table.buy_in
            winners, pot = seated, pot - table.buy_in * len(seated)
        else:
            winners = next((sorted(set(group) & set(seated)) for group in outcome.places
                            if set(group) & set(seated)), seated)
        first = getattr(table.game, "first_dealer", 0)
        winners = sorted(winners, key=lambda index: (index - first) % len(table.seats))
        for order, index in enumerate(winners):
            shares[index] += pot // len(winners) + (order < pot % len(winners))
        return [ChipMove("settle", table.seats[index].member_id, shares[index],  # type: ignore[arg-type]
                         "payout") for index in seated]


POLICIES: dict[str, StakesPolicy] = {"none": NoStakes(), "buy_in": BuyIn(), "stake": Stake()}
"""The policy of each ``GameSpec.stakes`` value."""
