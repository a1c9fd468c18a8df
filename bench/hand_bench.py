"""Hand messages kept current: what a member's decisions cost in clicks, messages and requests.

``python -m bench.hand_bench [decisions]`` plays each registered game in simcord (the real bot,
no network): Alice and Bob sit down with AI seats up to the game's minimum, each presses
**My hand** once, and from then on they decide only by clicks on that one message (a random
enabled control; a modal gets the lowest amount its label names, a select its first
options) until Alice has made ``decisions`` decisions (default 12). Printed per game, per
decision of Alice: her My hand presses (before hands were kept current: one per decision),
the hand messages posted to her, the edits of the hand messages made through interaction
tokens (not the bot's rate limits) and the requests made with the bot token (board edits).
"""

from __future__ import annotations

import asyncio
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import simcord

from bot.app import create_bot
from bot.clock import ManualClock
from bot.config import Settings
from bot.games import GAMES

SKIP = {"My hand", "Leave", "I'm back", "Join", "Next deal"}


def _controls(message: Any, skip: frozenset[str] | set[str] = SKIP) -> list[dict[str, Any]]:
    """The enabled components of ``message`` whose label is not in ``skip``."""
    rows = [row if isinstance(row, dict) else row.to_dict() for row in message.components]
    return [child for row in rows for child in row.get("components", [])
            if not child.get("disabled") and child.get("label") not in skip]


async def _click(member: Any, message: Any, rng: random.Random) -> None:
    """One random enabled control of ``message`` (a decision, a draft step or a refusal)."""
    chosen = rng.choice(_controls(message))
    if chosen.get("options"):
        count = max(chosen.get("min_values", 1) or 1, 1)
        await member.select(message, [o["value"] for o in chosen["options"][:count]],
                            custom_id=chosen["custom_id"])
        return
    result = await member.click(message, custom_id=chosen["custom_id"])
    if result.modal is not None:
        low = re.search(r"\((\d+)", str(result.modal))
        await member.submit_modal(result, {"amount": low.group(1) if low else "1"})


async def play(game: str, decisions: int, folder: Path) -> dict[str, int]:
    """Alice's figures over ``decisions`` decisions of one table of ``game``."""
    clock = ManualClock()
    settings = Settings(_env_file=None, discord_token=None, database=folder / f"{game}.db",
                        sync="global", ai_delay=0, board_edit_interval=0)
    bot = create_bot(settings, clock=clock)
    rng = random.Random(game)
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("tables")
            alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
            board = (await alice.slash(channel, f"{game} start")).response
            join = next(c for c in _controls(board, set()) if c["label"].startswith("Join"))
            await bob.click(board, custom_id=join["custom_id"])
            table = bot.tables.by_channel[channel.id]
            while len(table.seats) < bot.tables.spec(table).seats.start:
                await alice.click(board, label="Add AI")
            await alice.click(board, label="Start")
            hands = {m.id: (await m.click(board, label="My hand")).response for m in (alice, bob)}
            mark = len(env.http_requests)
            made = 0
            for _ in range(50 * decisions):
                if made >= decisions or table.state.value == "over":
                    break
                state = table.game
                if state.between_deals:
                    await alice.click(board, label="Next deal")
                    continue
                member = next((m for m in (alice, bob) if table.seat_of(m.id) in state.to_act
                               and not table.seats[table.seat_of(m.id)].ai), None)
                if member is None:
                    away = next((m for m in (alice, bob)
                                 if table.seats[table.seat_of(m.id)].ai), None)
                    if away is not None:
                        await away.click(board, label="I'm back")
                    clock.advance(10)
                    await env.advance_time(10)
                    continue
                seat = table.seat_of(member.id)
                decision = state.decision_id(seat)
                await _click(member, hands[member.id], rng)
                if seat in table.game.to_act and table.game.decision_id(seat) == decision:
                    clock.advance(200)  # a draft step or a refusal: the time runs out
                    await env.advance_time(200)
                elif member is alice:
                    made += 1
            later = env.http_requests[mark:]
            posted = [m for m in channel.history(viewer=alice) if m.flags.ephemeral and m.embeds]
            return {
                "decisions": made,
                "my_hand": 1,
                "hands_posted": len(posted),
                "token_edits": sum(r.method == "PATCH" and r.path.startswith("/webhooks/")
                                   for r in later),
                "bot_token": sum(not r.path.startswith(("/webhooks/", "/interactions/"))
                                 for r in later),
            }
    finally:
        await bot.close()


async def run(decisions: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for game in sorted(GAMES):
            figures = await play(game, decisions, Path(folder))
            made = max(figures["decisions"], 1)
            print(f"{game:<10} Alice decided {figures['decisions']} times: My hand pressed "
                  f"{figures['my_hand']} ({figures['my_hand'] / made:.2f} per decision, "
                  f"1.00 before), {figures['hands_posted']} hand message(s) posted; for the "
                  f"table: {figures['token_edits'] / made:.2f} hand edits by interaction "
                  f"token and {figures['bot_token'] / made:.2f} bot-token requests per "
                  "decision of Alice")


def main() -> None:
    decisions = int(sys.argv[1]) if __name__ == "__main__" and len(sys.argv) > 1 else 12
    asyncio.run(run(decisions))


if __name__ == "__main__":
    main()
