"""Boards and hands rendered once per change of the table and shared (bot.runtime.renders).

The registry runs without Discord, on a real SQLite store; the Tripoli adapter is wrapped
to count the boards and hands it renders.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest
from registries import registry_of

from bot.games import GAMES
from bot.runtime.refs import Refusal
from bot.runtime.registry import TableRegistry
from bot.runtime.renders import Renders
from bot.runtime.spec import Rendered
from bot.store import SqliteStore
from tests.bot.test_tables import (
    ANN,
    BEN,
    CAT,
    START,
    _Board,
    member_of,
    ref,
    started,
)


class Counting:
    """The Tripoli adapter, counting the boards and hands it renders and the picture
    descriptions made of them."""

    def __init__(self, adapter: Any) -> None:
        self.adapter = adapter
        self.boards = 0
        self.hands = 0
        self.pictures = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.adapter, name)

    def board(self, *args: Any) -> Any:
        self.boards += 1
        return self._described(self.adapter.board(*args))

    def hand(self, *args: Any) -> Any:
        self.hands += 1
        return self._described(self.adapter.hand(*args))

    def _described(self, rendered: Rendered) -> Rendered:
        describe = rendered.describe
        assert describe is not None  # a Tripoli board and hand have a picture

        def counted() -> Any:
            self.pictures += 1
            return describe()

        return dataclasses.replace(rendered, describe=counted)


@pytest.fixture
async def store(tmp_path):
    async with SqliteStore(tmp_path / "parlour.db", starting_chips=START) as store:
        yield store


@pytest.fixture
async def made(store, tmp_path):
    """Makes counted registries (:func:`counted_registry`) and closes them afterwards."""
    registries: list[TableRegistry] = []

    def make(**bot: Any) -> tuple[TableRegistry, Counting]:
        registry, counting = counted_registry(store, tmp_path, **bot)
        registries.append(registry)
        return registry, counting

    yield make
    for registry in registries:
        await registry.close()


def counted_registry(store: SqliteStore, tmp_path: Any, **bot: Any) -> tuple[
        TableRegistry, Counting]:
    counting = Counting(GAMES["tripoli"])
    registry = registry_of(store, {**GAMES, "tripoli": counting}, tmp_path,
                           board_edit_interval=0.05, **bot)
    return registry, counting


async def published(registry: TableRegistry) -> None:
    """Wait until the board edits asked for are sent (their interval is 0.05 s)."""
    await asyncio.sleep(0.1)
    await registry.edits.finished()


def text(rendered: Any) -> str:
    return str(rendered.embed.to_dict())


async def test_a_board_is_rendered_once_per_change_and_again_after_it(made):
    registry, counting = made()
    table = await started(registry, ANN, BEN, CAT)
    first = registry.render_board(table)
    assert registry.render_board(table) is first
    assert counting.boards == 1
    dealer = table.game.dealer
    await registry.act(table, member_of(table, dealer), ref(table, "keep", dealer))
    after = registry.render_board(table)
    assert after is not first and counting.boards == 2
    assert text(after) != text(first)  # the keep shows
    assert registry.render_board(table) is after


async def test_an_undone_change_shows_the_table_as_it_was_without_rendering_it_again(made):
    registry, counting = made()
    table = await started(registry, ANN, BEN, CAT)
    dealer = table.game.dealer
    keep = ref(table, "keep", dealer)
    await registry.act(table, member_of(table, dealer), keep)
    board = registry.render_board(table)
    version = table.renders.version
    with pytest.raises(Refusal):  # the same decision again: stale, undone
        await registry.act(table, member_of(table, dealer), keep)
    assert table.renders.version == version
    assert registry.render_board(table) is board and counting.boards == 1


async def test_a_note_made_outside_a_change_is_shown_at_once(made):
    registry, _counting = made()
    table = await started(registry, ANN, BEN, CAT)
    before = registry.render_board(table)
    table.note("note.dms_closed", name="Zebedee")
    after = registry.render_board(table)
    assert after is not before and "Zebedee" in text(after) and "Zebedee" not in text(before)


async def test_each_seat_s_hand_is_rendered_once_in_its_member_s_language(made):
    registry, counting = made()
    table = await started(registry, ANN, BEN, CAT)
    hands = [registry.render_hand(table, seat) for seat in range(3)]
    assert [registry.render_hand(table, seat) for seat in range(3)] == hands
    assert counting.hands == 3 and len({id(hand) for hand in hands}) == 3
    assert len({text(hand) for hand in hands}) == 3  # three different hands
    await registry.languages.choose(f"user:{member_of(table, 0)}", "it")
    italian = registry.render_hand(table, 0)
    assert italian is not hands[0] and counting.hands == 4
    assert text(italian) != text(hands[0])
    assert registry.render_hand(table, 1) is hands[1]


def test_versions_are_never_used_twice():
    renders = Renders()
    begun = renders.version
    made = renders.changed()
    renders.undone(begun, made)
    assert renders.version == begun
    assert renders.changed() > made  # not the undone change's version again
    begun, made = renders.version, renders.changed()
    later = renders.changed()  # something else changed meanwhile
    renders.undone(begun, made)
    assert renders.version > later


async def test_a_board_edit_asked_again_at_the_same_version_is_neither_rendered_nor_sent(
        made):
    board = _Board()
    registry, counting = made(edit_message=board.edit_message)
    table = await started(registry, ANN, BEN, CAT)
    table.board_message_id = 99
    registry.schedule_board_edit(table)
    await published(registry)
    assert board.edits == 1 and counting.boards == 1
    registry.schedule_board_edit(table)
    await published(registry)
    assert board.edits == 1 and counting.boards == 1  # not even rendered
    await registry.set_images(table.guild_id, False)  # the picture goes: a new look
    registry.schedule_board_edit(table)
    await published(registry)
    assert board.edits == 2 and counting.boards == 2  # published renders are not kept
    dealer = table.game.dealer
    await registry.act(table, member_of(table, dealer), ref(table, "keep", dealer))
    registry.schedule_board_edit(table)
    await published(registry)
    assert board.edits == 3 and counting.boards == 3
    registry.schedule_board_edit(table)
    await published(registry)
    assert board.edits == 3 and counting.boards == 3


async def test_a_render_knows_where_it_was_made_until_the_table_changes(made):
    registry, counting = made()
    table = await started(registry, ANN, BEN, CAT)
    lang = registry.languages.private(member_of(table, 0))
    hand = registry.shown_hand(table, 0)
    assert hand.at == table.renders.at("hand", 0, lang)
    table.renders.drop()  # published: no render kept, the place still compares
    assert hand.at == table.renders.at("hand", 0, lang) and counting.hands == 1
    assert hand.at != table.renders.at("hand", 1, lang)
    dealer = table.game.dealer
    await registry.act(table, member_of(table, dealer), ref(table, "keep", dealer))
    assert hand.at != table.renders.at("hand", 0, lang)


async def test_a_picture_is_described_only_where_pictures_are_shown_and_then_once(made):
    registry, counting = made()
    table = await started(registry, ANN, BEN, CAT)
    await registry.set_images(table.guild_id, False)
    for shown in (registry.shown_board(table), registry.shown_hand(table, 0)):
        await registry.look(table.guild_id, shown)
        assert (await registry.outgoing(table.guild_id, shown.rendered)).name is None
    assert counting.boards == counting.hands == 1 and counting.pictures == 0
    await registry.set_images(table.guild_id, True)
    board = registry.shown_board(table)
    assert board.rendered.picture is not None  # described now, from the render kept
    looked = await registry.look(table.guild_id, board)
    out = await registry.outgoing(table.guild_id, board.rendered)
    assert out.name is not None and looked == await registry.look(table.guild_id, board)
    assert counting.boards == 1 and counting.pictures == 1
