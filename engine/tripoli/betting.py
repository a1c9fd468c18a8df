"""One poker betting round and its pots (``rules/tripoli.md`` §2.6 items 30-42).

:class:`Betting` holds the round's state: each seat's total ``c_i`` this round
(``contrib``), the highest total ``B`` (``high``), folds, all-ins and who has acted since the
last bet or raise. The game adds every chip put in to the ``POT`` space at once; :meth:`pots`
splits the ``POT`` space into the main pot and side pots at the showdown (item 41).

With ``all_in`` off (§3.1, §4 item 7: "a player who cannot call in full must fold") nobody
is ever all-in, so there are no side pots: a call is offered only to a player who can pay
it in full, and a player whose stack is 0 (from the start, or after betting or calling his
last chip) may still check while nobody bets but must fold facing a bet or raise. Bets and
raises are bounded by the stack as always; a bettor nobody matches wins uncontested.
"""

from __future__ import annotations

from pydantic import BaseModel

from engine.core import Option
from engine.tripoli.rules import TripoliRules


class Betting(BaseModel):
    """State of one betting round; seats in ``order`` (clockwise from the opener, item 31)."""

    order: list[int]
    contrib: dict[int, int]
    high: int = 0
    folded: list[int] = []
    all_in: list[int] = []
    acted: list[int] = []
    turn: int | None = None
    pot_start: int = 0  # P0: chips on POT before the betting (item 41)
    table_stakes: bool = True  # rules ``all_in`` (§3.1): short calls all-in, side pots

    @classmethod
    def start(
        cls, order: list[int], stacks: list[int | None], pot_start: int, table_stakes: bool
    ) -> Betting:
        """A fresh round; with ``table_stakes`` seats with 0 chips are all-in for 0 from the
        start (item 41), without it they are not (module docstring)."""
        b = cls(
            order=list(order),
            contrib={s: 0 for s in order},
            all_in=[s for s in order if table_stakes and not stacks[s]],
            pot_start=pot_start,
            table_stakes=table_stakes,
        )
        b.turn = b.next_to_act(None)
        return b

    @property
    def live(self) -> list[int]:
        """Seats not folded (they reach the showdown)."""
        return [s for s in self.order if s not in self.folded]

    def can_act(self, seat: int) -> bool:
        return seat not in self.folded and seat not in self.all_in

    def needs_action(self, seat: int) -> bool:
        """Item 40: a seat acts while it is below B, or has not acted and faces an opponent.

        A lone seat that is neither folded nor all-in faces no action except calling or
        folding the last bet (item 41).
        """
        if not self.can_act(seat):
            return False
        if self.contrib[seat] < self.high:
            return True
        others = [s for s in self.order if s != seat and self.can_act(s)]
        return seat not in self.acted and bool(others)

    def next_to_act(self, after: int | None) -> int | None:
        """The next seat clockwise after ``after`` (from the opener if None) that must act."""
        if len(self.live) <= 1:
            return None
        n = len(self.order)
        start = 0 if after is None else self.order.index(after) + 1
        for k in range(n):
            seat = self.order[(start + k) % n]
            if self.needs_action(seat):
                return seat
        return None

    def opponents_can_act(self, seat: int) -> bool:
        return any(s != seat and self.can_act(s) for s in self.live)

    def options(self, seat: int, stack: int, rules: TripoliRules) -> list[Option]:
        """The legal poker actions of ``seat`` holding ``stack`` chips (items 32-34, 39-41)."""
        to_call = self.high - self.contrib[seat]
        if self.high == 0:
            cap = rules.bet_limit
            out = [Option.built(kind="check")]
            if stack >= 1:
                out.append(Option.built(kind="bet", min=1, max=min(cap, stack)))
            return out
        out = [Option.built(kind="fold")]
        if stack >= to_call or self.table_stakes:
            out.append(Option.built(kind="call"))
        cap = rules.bet_limit - self.high if rules.bet_limit_mode == "total" else rules.bet_limit
        room = min(cap, stack - to_call)
        if room >= 1 and self.opponents_can_act(seat):
            out.append(Option.built(kind="raise", min=1, max=room))
        return out

    def put_in(self, seat: int, chips: int, stack_after: int) -> None:
        """Record ``chips`` put in by ``seat``; all-in when its stack is now 0 (only with
        ``table_stakes``)."""
        self.contrib[seat] += chips
        self.high = max(self.high, self.contrib[seat])
        if self.table_stakes and stack_after == 0 and seat not in self.all_in:
            self.all_in.append(seat)

    def unmatched(self) -> tuple[int | None, int]:
        """The seat whose excess nobody matched and that excess (item 41), or (None, 0)."""
        totals = sorted(self.contrib.values(), reverse=True)
        if len(totals) < 2 or totals[0] == totals[1]:
            return None, 0
        top = next(s for s in self.order if self.contrib[s] == totals[0])
        return top, totals[0] - totals[1]

    def pots(self) -> list[tuple[int, list[int]]]:
        """Main pot and side pots as (chips, eligible seats), after any refund (item 41).

        Pot k receives min(c_i, a_k) - min(c_i, a_{k-1}) from every seat, where a_1 < a_2 …
        are the all-in totals; the main pot also receives P0; a last pot takes everything
        above the largest all-in total. Eligible: non-folded seats reaching the pot's level.
        """
        levels = sorted({self.contrib[s] for s in self.all_in})
        live = self.live
        out: list[tuple[int, list[int]]] = []
        prev = 0
        for k, level in enumerate(levels):
            chips = sum(min(c, level) - min(c, prev) for c in self.contrib.values())
            chips += self.pot_start if k == 0 else 0
            out.append((chips, [s for s in live if self.contrib[s] >= level]))
            prev = level
        rest = sum(c - min(c, prev) for c in self.contrib.values())
        if not levels:
            out.append((rest + self.pot_start, live))
        elif rest:
            out.append((rest, [s for s in live if self.contrib[s] > prev]))
        return out
