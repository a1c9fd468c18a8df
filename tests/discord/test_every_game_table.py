"""The Discord half of the conformance suite: every registered game, one whole table.

For each game of :data:`bot.games.GAMES` (a game joins by being registered), a member opens
a table with ``/<game> start``, fills it with AI seats, starts it and plays it through
simcord by clicks only: whenever she has a decision she opens **My hand** and clicks one of
its enabled controls (a modal gets the lowest amount its label names; a select its first
options), and when a click does not end her decision (a draft step, a refusal) her time runs
out instead; between deals she presses **Next deal** (Troefcall's **Next hand**); after two
deals the host ends the game. Checked all along: every interaction is answered exactly once
(the ``world`` helpers) and every board and hand fits Discord's limits; at the end the table
is gone from the registry and the store holds its result. (What each viewer may see is
checked per game on the engine's views, ``tests/engine/test_conformance.py``, and on the
messages in each game's own simcord tests.) The final board shows the standings, says why
the casual table was not rated, and offers Rematch and My record, which answers privately.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.games import GAMES
from bot.render.common import EMBED_TOTAL_MAX, FIELD_VALUE_MAX
from bot.runtime.table import TableState

MAX_STEPS = 400
DEALS = 2
NEXT = ("Next deal", "Next hand")
"""The board's button that deals again, in the game's word for a deal (``GameSpec.deal_noun``)."""
SKIP = {"My hand", "Leave", "I'm back", "Join", *NEXT}


def rows(message: Any) -> list[dict[str, Any]]:
    return [row if isinstance(row, dict) else row.to_dict() for row in message.components]


def fits(message: Any) -> None:
    for embed in message.embeds:
        data = embed if isinstance(embed, dict) else embed.to_dict()
        total = len(data.get("title", "")) + len(data.get("description", ""))
        total += sum(len(f["name"]) + len(f["value"]) for f in data.get("fields", []))
        total += len(data.get("footer", {}).get("text", ""))
        assert total <= EMBED_TOTAL_MAX, total
        assert all(len(f["value"]) <= FIELD_VALUE_MAX for f in data.get("fields", []))
    assert len(message.components) <= 5


def next_label(board: Any) -> str:
    """The label of ``board``'s button that deals again."""
    [label] = [c["label"] for c in controls(board) if c.get("label") in NEXT]
    return label


def controls(message: Any) -> list[dict[str, Any]]:
    return [child for row in rows(message) for child in row.get("components", [])
            if not child.get("disabled")]


async def answer(world: Any, member: Any, hand: Any, rng: random.Random) -> bool:
    """Click one enabled control of ``hand`` (the private view); False if there is none."""
    choices = [c for c in controls(hand) if c.get("label") not in SKIP]
    if not choices:
        return False
    chosen = rng.choice(choices)
    if chosen.get("options"):  # a select menu
        count = max(chosen.get("min_values", 1) or 1, 1)
        values = [option["value"] for option in chosen["options"][:count]]
        await world.select(member, hand, values, custom_id=chosen["custom_id"])
        return True
    result = await world.click(member, hand, custom_id=chosen["custom_id"])
    if result.modal is not None:
        label = str(result.modal)
        low = re.search(r"\((\d+)", label)
        await world.submit_modal(member, result, {"amount": low.group(1) if low else "1"})
    return True


async def wait(world: Any, seconds: float) -> None:
    """Let ``seconds`` pass on the bot's clock (deadlines) and simcord's (its sleeps)."""
    world.clock.advance(seconds)
    await world.env.advance_time(seconds)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_table_plays_through_discord(world, game):
    rng = random.Random(game)
    alice = world.alice
    opened = await world.slash(alice, f"{game} start")
    board = opened.response
    table = world.bot.tables.by_channel[world.channel.id]
    spec = world.bot.tables.spec(table)
    while len(table.seats) < spec.seats.start:
        await world.click(alice, board, label="Add AI")
    await world.click(alice, board, label="Start")
    assert table.state is TableState.PLAYING
    ended = False
    for _ in range(MAX_STEPS):
        table = world.bot.tables.by_id.get(table.id, table)
        if table.state is TableState.OVER:
            break
        fits(board)
        seat = table.seat_of(alice.id)
        game_state = table.game
        # the AI's declines are kept only while those decisions are open
        assert table.declined <= {(p.seat, p.decision) for p in game_state.pending()}
        if game_state.between_deals and not ended:
            if game_state.deal_number >= DEALS:
                await world.slash(alice, f"{game} end")
                ended = True
            else:
                await world.click(alice, board, label=next_label(board))
            continue
        if seat in game_state.to_act and not table.seats[seat].ai:
            decision = game_state.decision_id(seat)
            hand = (await world.click(alice, board, label="My hand")).response
            fits(hand)
            await answer(world, alice, hand, rng)
            if seat in table.game.to_act and table.game.decision_id(seat) == decision:
                await wait(world, 200)  # a draft step or a refusal: her time runs out
            continue
        if table.seats[seat].ai and not table.seats[seat].leaving:
            await world.click(alice, board, label="I'm back")
            continue
        await wait(world, 10)  # AI moves, rule timers
        if game_state.deal_number > DEALS + 1 and not table.game.between_deals:
            await world.slash(alice, f"{game} end", now=True)
    assert table.state is TableState.OVER, "the table never ended"
    assert world.channel.id not in world.bot.tables.by_channel
    results = await world.store.results(world.guild.id, game)
    assert len(results) == 1 and results[0][0].game == game
    assert {seat.user_id for seat in results[0][0].seats} >= {alice.id}
    fits(board)
    fields = {f.name: f.value for f in board.embeds[0].fields}
    assert "Alice" in fields["Final standings"]
    assert fields["Ratings (μ − 3σ)"] == "Not rated: AI seats played (a casual table)."
    assert [c.get("label") for c in controls(board)] == ["Rematch", "My record"]
    record = await world.click(alice, board, label="My record")
    assert record.response.ephemeral and "no ranked games" in record.response.embeds[0].description


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_one_my_hand_serves_many_decisions(world, game):
    """Alice and Bob press My hand once each; their hand messages are edited as the game
    moves, so whenever Alice's turn comes, the message she already has shows her current
    decision's controls; she decides three times from it and no other hand is posted."""
    rng = random.Random(game)
    alice, bob = world.alice, world.bob
    board = (await world.slash(alice, f"{game} start")).response
    join = next(c for c in controls(board) if c["label"].startswith("Join"))
    await world.click(bob, board, custom_id=join["custom_id"])
    table = world.bot.tables.by_channel[world.channel.id]
    while len(table.seats) < world.bot.tables.spec(table).seats.start:
        await world.click(alice, board, label="Add AI")
    await world.click(alice, board, label="Start")
    hands = {member.id: (await world.click(member, board, label="My hand")).response
             for member in (alice, bob)}
    decided = 0
    for _ in range(MAX_STEPS):
        if decided >= 3:
            break
        game_state = table.game
        if game_state.between_deals:
            await world.click(alice, board, label=next_label(board))
            continue
        member = next((m for m in (alice, bob) if table.seat_of(m.id) in game_state.to_act
                       and not table.seats[table.seat_of(m.id)].ai), None)
        if member is None:
            away = next((m for m in (alice, bob) if table.seats[table.seat_of(m.id)].ai), None)
            if away is not None:
                await world.click(away, board, label="I'm back")
            else:
                await wait(world, 10)  # rule timers
            continue
        seat = table.seat_of(member.id)
        decision = game_state.decision_id(seat)
        hand = hands[member.id]
        assert f":{seat}.{decision}:" in str(rows(hand)), "the hand is not current"
        assert await answer(world, member, hand, rng)
        if seat in table.game.to_act and table.game.decision_id(seat) == decision:
            await wait(world, 200)  # a draft step or a refusal: the time runs out
        elif member is alice:
            decided += 1
    assert decided >= 3
    posted = [m for m in world.channel.history(viewer=alice) if m.flags.ephemeral and m.embeds]
    assert [m.id for m in posted] == [hands[alice.id].id], "a second hand was posted"
