"""Clicks per decision: a scripted deal of every game, played by clicks through simcord.

``python -m bench.clicks_bench [deals]`` opens, for each game of :data:`bot.games.GAMES`, an
untimed table of one member (alice) and AI seats and plays ``deals`` deals (default 2) the
way a member does (issue 10 item 3: every decision in at most two clicks from the hand or
the board). For each of her decisions she looks where she is: a control of that decision
on the board or on her latest private hand message (still current if the bot kept it so)
is one click; otherwise she presses **My hand** (one click) and clicks in the fresh view.
She prefers a control that ends the decision (not a draft step such as picking a card of a
meld); a select counts one, an amount form two (the button and its submit). Prints, per
game and kind of decision (the game's phase), the number of decisions and the mean and
the most clicks each took.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import simcord

from bot.app import create_bot
from bot.clock import ManualClock
from bot.config import Settings
from bot.games import GAMES
from bot.runtime.table import TableState

TABLE_BUTTONS = {"My hand", "Leave", "I'm back", "Join", "Next deal", "Verify"}
CLICKS_MAX = 40
"""Most clicks spent on one decision before the scripted player gives up."""


def _controls(message: Any) -> list[dict[str, Any]]:
    rows = [row if isinstance(row, dict) else row.to_dict() for row in message.components]
    return [child for row in rows for child in row.get("components", [])
            if not child.get("disabled") and child.get("label") not in TABLE_BUTTONS]


def _decision_of(control: dict[str, Any]) -> tuple[int, int] | None:
    """``(seat, decision id)`` a control's custom_id names (``pl:<table>:<seat>.<id>:…``)."""
    parts = control.get("custom_id", "").split(":")
    if len(parts) < 4 or "." not in parts[2]:
        return None
    seat, decision = parts[2].split(".", 1)
    return (int(seat), int(decision)) if seat.isdigit() and decision.isdigit() else None


class Player:
    """Alice at one table: her clicks per decision, by kind."""

    def __init__(self, env: Any, clock: ManualClock, channel: Any, alice: Any, game: str,
                 rng: random.Random):
        self.env, self.clock, self.channel, self.alice, self.game = env, clock, channel, alice, game
        self.rng = rng
        self.board: Any = None
        self.hand: Any = None
        self.clicks: dict[str, list[int]] = defaultdict(list)

    @property
    def table(self) -> Any:
        return self.env.bot.tables.by_channel.get(self.channel.id)

    def _mine(self, message: Any, seat: int, decision: int) -> list[dict[str, Any]]:
        if message is None:
            return []
        return [c for c in _controls(message) if _decision_of(c) == (seat, decision)]

    def _prefer(self, controls: list[dict[str, Any]]) -> dict[str, Any]:
        drafts = self.env.bot.tables.games[self.game].draft_verbs
        final = [c for c in controls if c["custom_id"].split(":")[3] not in drafts]
        return self.rng.choice(final or controls)

    async def _use(self, message: Any, control: dict[str, Any]) -> int:
        """Click (or choose in) ``control``; returns the clicks it cost."""
        if control.get("options"):
            count = max(control.get("min_values", 1) or 1, 1)
            values = [o["value"] for o in control["options"][:count]]
            await self.alice.select(message, values, custom_id=control["custom_id"])
            return 1
        result = await self.alice.click(message, custom_id=control["custom_id"])
        if result.modal is None:
            return 1
        label = str(result.modal)
        low = next((word.strip("(") for word in label.split() if word.strip("(").isdigit()),
                   "1")
        await self.alice.submit_modal(result, {"amount": low.split("-")[0]})
        return 2

    async def decide(self, seat: int) -> None:
        """Make alice's pending decision by clicks, counting them."""
        table = self.table
        kind = f"{getattr(table.game.phase, 'value', table.game.phase)}"
        decision = table.game.decision_id(seat)
        clicks = 0
        while clicks < CLICKS_MAX:
            table = self.table
            if (table is None or table.state is not TableState.PLAYING
                    or seat not in table.game.to_act
                    or table.game.decision_id(seat) != decision):
                break
            where = next((m for m in (self.board, self.hand)
                          if self._mine(m, seat, decision)), None)
            if where is None:
                result = await self.alice.click(self.board, label="My hand")
                self.hand = result.response
                clicks += 1
                where = self.hand
                if not self._mine(where, seat, decision):
                    break  # nothing to click for it (it lapses)
            clicks += await self._use(where, self._prefer(self._mine(where, seat, decision)))
        self.clicks[kind].append(clicks)

    async def play(self, deals: int) -> None:
        opened = await self.alice.slash(self.channel, f"{self.game} start", pace="untimed")
        self.board = opened.response
        table = self.table
        spec = self.env.bot.tables.spec(table)
        while len(table.seats) < spec.seats.start:
            await self.alice.click(self.board, label="Add AI")
        await self.alice.click(self.board, label="Start")
        for _ in range(2000):
            table = self.table
            if table is None or table.state is not TableState.PLAYING:
                return
            game = table.game
            if game.between_deals:
                if game.deal_number >= deals:
                    return
                await self.alice.click(self.board, label="Next deal")
                continue
            seat = table.seat_of(self.alice.id)
            if seat in game.to_act:
                await self.decide(seat)
            else:
                self.clock.advance(10)  # rule timers (a Kalooki call window): both clocks
                await self.env.advance_time(10)


async def measure(deals: int) -> dict[str, dict[str, list[int]]]:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(_env_file=None, discord_token=None,
                            database=Path(folder) / "bench.db", sync="global", ai_delay=0,
                            board_edit_interval=0, log_level="WARNING")
        clock = ManualClock()
        bot = create_bot(settings, clock=clock)
        figures: dict[str, dict[str, list[int]]] = {}
        try:
            async with simcord.run(bot) as env:
                guild = env.create_guild("Bench")
                alice = guild.add_member(env.create_user("alice", global_name="Alice"))
                for name in sorted(GAMES):
                    player = Player(env, clock, guild.create_text_channel(name), alice, name,
                                    random.Random(name))
                    await player.play(deals)
                    figures[name] = dict(player.clicks)
        finally:
            await bot.close()
    return figures


def main(deals: int = 2) -> None:
    figures = asyncio.run(measure(deals))
    print(f"clicks per decision, {deals} deal(s) per game (member + AI seats, untimed)")
    worst = 0
    for game, kinds in figures.items():
        print(f"  {game}:")
        for kind, clicks in sorted(kinds.items()):
            worst = max(worst, max(clicks))
            print(f"    {kind:<14} {len(clicks):3d} decisions  mean {sum(clicks) / len(clicks):.2f}"
                  f"  max {max(clicks)}")
    print(f"  most clicks for any decision: {worst}")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:2]))
