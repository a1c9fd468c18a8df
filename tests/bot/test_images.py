"""The pictures of boards and hands (issue 14): what each shows, built from the views the text
is rendered from, their size, their keys, and the marks on legal and raised cards.

Built positions with exact results: a Troefcall trick with a trump in it, a Tripoli board
after the antes, Kalooki combinations of two players; then the hand's marks read back from
the pixels, and the keys compared across processes.
"""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys

from PIL import Image, ImageChops

from bot.games.kalooki import KalookiAdapter
from bot.games.tripoli import TripoliAdapter
from bot.games.troefcall import TroefcallAdapter
from bot.images import cards as draw
from bot.images import tripoli, troefcall
from bot.images.cache import PictureCache
from bot.images.palette import Palette
from bot.images.picture import HAND_CARD, MARGIN, RAISE, HandPicture, key, png
from bot.runtime.table import Seat, Table
from engine.cards import Card, Rank, Suit, parse_card
from engine.kalooki.game import KalookiGame
from engine.kalooki.phases import Phase as KalookiPhase
from engine.tripoli.game import TripoliGame
from engine.tripoli.rules import make_rules
from engine.troefcall.game import TroefcallGame

PNG_MAX = 100 * 1024
"""Bytes an image may have (issue 14: under 100 KB)."""


def ids(*names: str) -> list[int]:
    return [int(parse_card(name)) for name in names]


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGBA")


def near(pixel: tuple[int, ...], colour: tuple[int, ...]) -> bool:
    """The same colour but for the smoothing of edges (a few levels per channel)."""
    return all(abs(a - b) <= 8 for a, b in zip(pixel[:3], colour[:3], strict=True))


def table_of(game_name: str, game, players: int) -> Table:
    table = Table(id="im1234", game_name=game_name, guild_id=1, channel_id=2, host_id=100,
                  buy_in=100, options={})
    table.seats = [Seat(100 + i, f"Player {i}") for i in range(players)]
    table.game = game
    return table


def trick_position() -> TroefcallGame:
    """Seat 1 (the caller, spades trumps) led 9♥, seat 2 trumped with 2♠; seat 3 to play."""
    hands = {
        0: ids("A♥", "3♣", "4♦"),
        1: ids("5♣", "6♦"),
        2: ids("7♣", "8♦"),
        3: ids("K♥", "3♠", "9♣"),
    }
    return TroefcallGame.from_position(caller=1, trump=Suit.SPADES, hands=hands,
                                       history=[1] * 10, trick=ids("9♥", "2♠"))


def test_the_troefcall_trick_sits_before_its_players_with_the_trump_marked():
    game = trick_position()
    adapter = TroefcallAdapter()
    table = table_of("troefcall", game, 4)
    board = adapter.board(table.info(adapter.spec), game).picture
    assert board == troefcall.TroefcallBoardPicture(
        trump=int(Suit.SPADES), plays=((1, ids("9♥")[0]), (2, ids("2♠")[0])), winner=None,
        turn=3, hand_sizes=(3, 2, 2, 3), tricks_won=(0, 10))
    assert board.cards() == set(ids("9♥", "2♠"))
    hand = adapter.hand(table.info(adapter.spec), game, 3).picture
    assert hand.held == tuple(sorted(ids("K♥", "3♠", "9♣")))
    assert hand.legal == tuple(ids("K♥"))  # must follow hearts
    assert hand.trumps == tuple(ids("3♠"))
    image = decoded(png(board))
    assert image.width == draw.WIDTH


def test_the_tripoli_board_shows_each_space_with_its_chips():
    rules = make_rules("classic")
    game = TripoliGame.new(rules, 4, b"pictures", stacks=[50] * 4)
    adapter = TripoliAdapter()
    view = game.public_view()
    picture = adapter.board(table_of("tripoli", game, 4).info(adapter.spec), game).picture
    assert [space.chips for space in picture.spaces] == list(view.board.values())
    assert len(picture.spaces) == len(rules.spaces) == 9
    ace, kq, seq, kitty, pot = (picture.spaces[0], picture.spaces[5], picture.spaces[6],
                                picture.spaces[7], picture.spaces[8])
    assert ace.faces == ((int(Rank.ACE), int(Suit.HEARTS)),)
    assert kq.faces == ((int(Rank.KING), int(Suit.HEARTS)), (int(Rank.QUEEN), int(Suit.HEARTS)))
    assert seq.faces == ((8, None), (9, None), (10, None))
    assert (kitty.pile, pot.pile) == ("kitty", "pot")
    assert picture.cards() == frozenset()  # the spaces' faces are labels, no card of the deal
    assert picture.run == ()


def test_a_tripoli_pay_suit_still_to_name_shows_ranks_only():
    rules = make_rules("auction-pay-suit")
    game = TripoliGame.new(rules, 3, b"pictures", stacks=[50] * 3)
    picture = tripoli.board_picture(game.public_view(), suit_known=False)
    assert picture.spaces[0].faces == ((int(Rank.ACE), None),)


def test_kalooki_melds_are_drawn_per_player_with_the_discard_top():
    hands = {0: ids("2♣", "3♣"), 1: ids("4♦"), 2: ids("5♦")}
    game = KalookiGame.from_position(
        hands=hands, turn=0, phase=KalookiPhase.DRAW,
        melds=[(2, "three", ids("7♣", "7♦", "7♥")), (1, "three", ids("9♣", "9♦", "9♥")),
               (2, "three", ids("K♣", "K♦", "K♥"))],
        discard=ids("Q♠", "J♠"))
    adapter = KalookiAdapter()
    picture = adapter.board(table_of("kalooki", game, 3).info(adapter.spec), game).picture
    assert picture.melds == ((1, (tuple(ids("9♣", "9♦", "9♥")),)),
                             (2, (tuple(ids("7♣", "7♦", "7♥")), tuple(ids("K♣", "K♦", "K♥")))))
    assert picture.discard_top == ids("J♠")[0]
    assert ids("Q♠")[0] not in picture.cards()  # under the top: not shown
    hand = adapter.hand(table_of("kalooki", game, 3).info(adapter.spec), game, 0,
                        {"picked": ids("3♣"), "groups": [], "page": 0}).picture
    assert hand.held == tuple(ids("2♣", "3♣")) and hand.raised == tuple(ids("3♣"))
    assert hand.legal is None


def test_a_sixteen_card_hand_is_two_rows_within_the_limits():
    picture = HandPicture(held=tuple(range(0, 32, 2)))
    data = png(picture)
    image = decoded(data)
    card_h = HAND_CARD[1]
    assert image.width == draw.WIDTH
    assert image.height == 2 * MARGIN + 2 * (card_h + RAISE + 14) - 14
    assert len(data) < PNG_MAX


def test_legal_cards_are_framed_the_others_veiled_and_raised_cards_stand_up():
    picture = HandPicture(held=(0, 1, 2), legal=(1,), raised=(2,))
    image = picture.draw().convert("RGBA")
    w, h = HAND_CARD
    step = w + 8
    left = (draw.WIDTH - (w + 2 * step)) // 2
    top = MARGIN + RAISE
    blank = (w * 3 // 4, h // 4)  # the paper right of the index
    legal_paper = image.getpixel((left + step + blank[0], top + blank[1]))
    veiled_paper = image.getpixel((left + blank[0], top + blank[1]))
    assert legal_paper == draw.PAPER
    assert sum(veiled_paper[:3]) < sum(draw.PAPER[:3]) - 150
    assert near(image.getpixel((left + step + 2, top + h // 2)), draw.LEGAL)
    raised = left + 2 * step + blank[0]
    assert image.getpixel((raised, top + h - 6)) == draw.FELT  # lifted off its row
    assert image.getpixel((raised, top - RAISE + blank[1]))[:3] != draw.FELT[:3]


def test_no_decision_frames_nothing():
    image = HandPicture(held=(0, 1)).draw().convert("RGBA")
    w, h = HAND_CARD
    left = (draw.WIDTH - (2 * w + 8)) // 2
    assert image.getpixel((left + w * 3 // 4, MARGIN + RAISE + h // 4)) == draw.PAPER


def test_keys_are_the_same_in_every_process_and_follow_what_is_shown():
    picture = HandPicture(held=(3, 5, 8), legal=(5,))
    script = ("from bot.images.picture import HandPicture, key; "
              "print(key(HandPicture(held=(3, 5, 8), legal=(5,))))")
    for seed in ("1", "2"):
        other = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                               check=True, env={"PYTHONHASHSEED": seed, "PATH": ""}, cwd=".")
        assert other.stdout.strip() == key(picture)
    assert key(HandPicture(held=(3, 5, 8), legal=(8,))) != key(picture)
    assert key(HandPicture(held=(3, 5, 8))) != key(picture)


async def test_the_cache_draws_each_picture_once():
    cache = PictureCache(capacity=2)
    first = HandPicture(held=(1, 2))
    name, data = await cache.png(first)
    assert (await cache.png(HandPicture(held=(1, 2)))) == (name, data) and cache.drawn == 1
    assert cache.shown(name) == first
    await cache.png(HandPicture(held=(3,)))
    await cache.png(HandPicture(held=(4,)))
    assert cache.shown(name) is None and cache.drawn == 3  # the oldest was dropped


async def test_concurrent_requests_for_a_picture_share_one_drawing():
    cache = PictureCache()
    picture = HandPicture(held=(7, 8, 9))
    results = await asyncio.gather(*(cache.png(picture) for _ in range(5)))
    assert len(set(results)) == 1 and cache.drawn == 1
    assert results[0][1] == png(picture)


def test_every_joker_and_both_copies_draw():
    picture = HandPicture(held=(int(Card.of(Rank.ACE, Suit.SPADES, copy=1)), 104, 107))
    assert decoded(png(picture)).width == draw.WIDTH


def test_the_palette_keeps_every_colour_the_pieces_are_drawn_in():
    named = [draw.FELT, draw.FELT_LIGHT, draw.PAPER, draw.INK_RED, draw.INK_BLACK,
             draw.INK_GREY, draw.INK_JOKER, draw.EDGE, draw.BACK, draw.BACK_LINE, draw.LEGAL,
             draw.TRUMP, draw.WHITE, draw.CHIP, *draw.TEAM_COLOURS, *draw.SEAT_COLOURS]
    strip = Image.new("RGB", (len(named), 1))
    for x, colour in enumerate(named):
        strip.putpixel((x, 0), colour[:3])
    mapped = draw.PALETTE.indices(strip).convert("RGB")
    assert [mapped.getpixel((x, 0)) for x in range(len(named))] == [c[:3] for c in named]


def test_a_palette_of_more_than_256_colours_is_refused():
    greys = [(v, v, v) for v in range(256)]
    try:
        Palette(exact=greys, meetings=[])
    except ValueError as error:
        assert "257" in str(error)  # the 256 greys and the transparent ground
    else:
        raise AssertionError("a palette of 257 colours was built")


def test_a_hand_looks_as_its_cards_laid_on_the_felt_one_by_one():
    picture = HandPicture(held=(0, 13, 40), legal=(13, 40), raised=(40,), trumps=(13,))
    image = decoded(png(picture))
    w, h = HAND_CARD
    step = w + 8
    left = (draw.WIDTH - (w + 2 * step)) // 2
    reference = Image.new("RGBA", image.size, draw.FELT)
    for i, card in enumerate(picture.held):
        draw.paste_card(reference, card, left + i * step, MARGIN + (0 if card == 40 else RAISE),
                        w, h, legal=card != 0, dim=card == 0, trump=card == 13)
    inside = (MARGIN, MARGIN, draw.WIDTH - MARGIN, image.height - MARGIN)
    worst = ImageChops.difference(image.crop(inside).convert("RGB"),
                                  reference.crop(inside).convert("RGB"))
    channels = worst.split()
    largest = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    histogram = largest.histogram()
    assert sum(histogram[33:]) == 0  # a smooth edge's shade, at most
    assert sum(histogram[9:]) < 0.01 * sum(histogram)


def test_the_felt_is_opaque_and_its_rounded_corners_transparent():
    image = decoded(png(HandPicture(held=(5,))))
    assert image.getpixel((0, 0))[3] == 0
    assert image.getpixel((draw.WIDTH - 1, image.height - 1))[3] == 0
    assert image.getpixel((draw.WIDTH // 2, 2)) == draw.FELT


def test_the_png_is_read_back_as_the_picture_drawn():
    picture = HandPicture(held=(0, 13, 26, 39, 104), legal=(13, 104), raised=(26,))
    image = picture.draw()
    data = png(picture)
    read = Image.open(io.BytesIO(data))
    read.load()  # decodes every row (zlib checks the data's checksum)
    assert (read.mode, read.size) == ("P", image.size)
    assert read.tobytes() == image.tobytes()
    assert read.convert("RGBA").tobytes() == image.convert("RGBA").tobytes()
