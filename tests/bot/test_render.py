"""Rendering within Discord's limits (DESIGN.md §6, case C13) and custom_id round trips.

Random Tripoli sessions (2 to 9 seats, the longest display names Discord allows, with
Markdown and emoji) are played by the AI through a deal and the leftover round; after every
action the board and every seat's private view are rendered and checked.
"""

from __future__ import annotations

import random

import discord
import pytest

from bot.games.base import Rendered
from bot.games.tripoli import TripoliAdapter
from bot.render import common
from bot.table_refs import Ref, template
from bot.table_state import Seat, Table, TableState

ADAPTER = TripoliAdapter()
LONG_NAMES = [
    "𝕷𝖔𝖓𝖌 **bold** _name_ ~~with~~ `code` " * 3,
    "W" * 32,
    "🃏" * 32,
    "a name with > quotes and || spoilers || and @everyone",
]


def table_of(seats: int, rng: random.Random) -> Table:
    table = Table(id="abc123", game_name="tripoli", guild_id=1, channel_id=2, host_id=100,
                  buy_in=rng.choice([30, 100, 1_000_000]),
                  options={"bet_limit": rng.choice([1, 10, 1000]), "ante": rng.choice([1, 2])})
    table.seats = [Seat(100 + i, rng.choice(LONG_NAMES)) for i in range(seats)]
    if rng.random() < 0.5:
        table.seats[-1] = Seat(None, "AI 1", ai=True)
    for i in range(4):
        table.note(f"{rng.choice(LONG_NAMES)} did something {i}")
    return table


def check(rendered: Rendered, table: Table) -> None:
    assert common.limit_problems(rendered) == []
    if rendered.view is None:
        return
    for row in rendered.view.to_components():
        for child in row["components"]:
            custom_id = child["custom_id"]
            prefix = "ps" if child["type"] == 3 else "pl"
            ref = Ref.parse(custom_id, prefix)
            assert ref is not None and ref.table == table.id, custom_id
            assert ref.custom_id(prefix) == custom_id


def render_all(table: Table) -> int:
    check(ADAPTER.board(table), table)
    for seat in range(len(table.seats)):
        if table.game.stacks[seat] is not None:
            check(ADAPTER.hand(table, seat), table)
    return 1


@pytest.mark.parametrize("seats", [2, 3, 5, 9])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_boards_and_hands_fit_discord_through_a_session(seats, seed):
    rng = random.Random(seed * 100 + seats)
    table = table_of(seats, rng)
    stacks = [table.buy_in] * seats
    table.game = ADAPTER.new_game(table.options, stacks, rng.randbytes(32))
    table.seed, table.state = b"s" * 32, TableState.PLAYING
    renders = render_all(table)
    ended = False
    while not table.game.is_over:
        if ADAPTER.between_deals(table.game):
            if table.game.deal_number >= 3:
                ADAPTER.end_session(table.game, abandon=False)
                ended = True
            else:
                ADAPTER.start_deal(table.game)
            renders += render_all(table)
            continue
        seat = min(table.game.to_act)
        table.game.apply(seat, ADAPTER.ai_action(table.game, seat, rng))
        renders += render_all(table)
        if not ended and rng.random() < 0.005:
            ADAPTER.end_session(table.game, abandon=rng.random() < 0.5)
            ended = True
    final = ADAPTER.board(table)
    check(final, table)
    assert final.view is None and table.seed.hex() in (final.embed.footer.text or "")
    assert renders > 3 * seats, renders


def test_lobby_with_nine_long_names_fits():
    table = table_of(9, random.Random(7))
    rendered = common.lobby(table, "Tripoli", ADAPTER.describe_options(table.options), 2, 9)
    check(rendered, table)
    assert "(host)" in rendered.embed.fields[0].value


def test_fit_cuts_an_oversized_embed_to_the_limits():
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for i in range(30):
        embed.add_field(name=f"f{i}" * 200, value="v" * 2000)
    embed.set_footer(text="x" * 3000)
    fitted = common.fit(embed)
    assert common.limit_problems(Rendered(fitted)) == []
    assert fitted.title.endswith("…") and len(fitted) <= 6000


def test_limit_problems_reports_each_broken_limit():
    embed = discord.Embed(title="t" * 300)
    embed.add_field(name="n", value="v" * 1100)
    assert common.limit_problems(Rendered(embed)) == ["title", "field value of 'n'"]


def test_refs_round_trip_and_stay_short():
    for ref in (Ref("zzzzzz", "hand"), Ref("a1b2c3", "next", None, 123456789),
                Ref("a1b2c3", "lead", 8, 999_999_999, "51"), Ref("a1b2c3", "raise", 0, 0)):
        for prefix in ("pl", "ps", "pm"):
            text = ref.custom_id(prefix)
            assert len(text) <= 100 and Ref.parse(text, prefix) == ref
            assert Ref.parse(text, "pl" if prefix != "pl" else "ps") is None
    assert template("pl").startswith("pl:")
    with pytest.raises(ValueError):
        Ref("a1b2c3", "Bad Verb").custom_id()
