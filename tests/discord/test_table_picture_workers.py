"""The bot's pictures with a worker process (``PARLOUR_PICTURE_WORKERS=1``) in simcord: the
board and "My hand" carry the PNG of what they show, the hand drawn outside the bot's process."""

from __future__ import annotations

import os

import pytest
from test_table_pictures import picture_of
from test_tripoli import open_table

from bot.images.cache import PICTURES
from bot.images.picture import HandPicture, png
from tests.bot.test_picture_workers import worker_up


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"picture_workers": 1})


def uploaded(world, message) -> bytes:
    """The bytes of the one picture ``message`` carries, as simcord's CDN keeps them."""
    data = world.env.backend.cdn.get(message.attachments[0].url)
    assert data is not None
    return data


async def test_with_a_worker_the_board_and_my_hand_carry_the_png_of_what_they_show(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob)
    await session.click(alice, session.board, label="Start")
    assert PICTURES.workers == 1
    await PICTURES.png(HandPicture(held=tuple(range(60, 73))))  # new: the worker starts
    assert await worker_up(PICTURES) != os.getpid()
    hand = await session.my_hand(alice)  # a new deal's hand: drawn now, by the worker
    for message in (session.board, hand):
        name = picture_of(message)
        assert name is not None
        assert uploaded(world, message) == png(PICTURES.shown(name))
