"""An auction (``rules/tripoli.md`` §2.4 item 17, §4 items 11-12, §3.6, §3.3 item 18).

Items: the unseen ``spare`` or the dealer's ``old_hand`` (bidders: the players except the
dealer, from the dealer's left; the dealer is paid), the ``pay_suit`` (everyone, from the
dealer; the bid goes onto a space), the ``ghost`` hand (everyone, from the dealer's left;
the bid goes onto a space). On his turn a bidder bids more than the high bid (at most his
stack) or passes; a pass is final. The auction closes when everyone but the high bidder
has passed. A bidder whose stack cannot beat the high bid passes automatically (an engine
decision: he has no bid to make).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

AuctionItem = Literal["spare", "old_hand", "pay_suit", "ghost"]


class AuctionState(BaseModel):
    """The state of one auction; ``turn`` None once it is closed."""

    item: AuctionItem
    order: list[int]
    space: str | None = None  # where the winning bid goes; None: to the dealer (seller)
    passed: list[int] = []
    high_bid: int = 0
    high_bidder: int | None = None
    turn: int | None = None

    def bid(self, seat: int, amount: int) -> None:
        self.high_bid, self.high_bidder = amount, seat

    def pass_(self, seat: int) -> None:
        self.passed.append(seat)

    def advance(self, after: int | None, stacks: list[int | None]) -> list[int]:
        """Give the turn to the next bidder clockwise after ``after`` (the first if None).

        Returns
        -------
        list of int
            Bidders who passed automatically because their stack (chips) cannot beat the
            high bid. ``turn`` is None afterwards when the auction is closed.
        """
        forced: list[int] = []
        start = 0 if after is None else self.order.index(after) + 1
        self.turn = None
        for k in range(len(self.order)):
            seat = self.order[(start + k) % len(self.order)]
            if seat in self.passed or seat == self.high_bidder:
                continue
            if (stacks[seat] or 0) <= self.high_bid:
                self.passed.append(seat)
                forced.append(seat)
                continue
            self.turn = seat
            break
        return forced
