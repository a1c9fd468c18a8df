"""Persian reads right to left where Discord lays every line out left to right: each line of
a Persian text is a right-to-left isolate (its Markdown marker before it), and the names,
card codes and numbers put together in a line are isolates of their own, so a line that
starts with a card code or a Latin name still has it on the right. The display order is
computed by a Unicode bidirectional algorithm (python-bidi) for a left-to-right paragraph,
as Discord shows a message or an embed field."""

from __future__ import annotations

import random
import re

from bidi import get_display

from bot.games import GAMES
from bot.i18n import ENGLISH, LANGUAGES
from bot.i18n.language import isolated, open_isolates, truncate
from bot.render.common import limit_problems, lobby
from bot.render.kalooki import meld_text
from bot.runtime.spec import SeatInfo, TableInfo
from engine.cards import parse
from engine.core import SYSTEM
from engine.kalooki.melds import Meld

PERSIAN = LANGUAGES["fa"]
RLI, PDI = "\u2067", "\u2069"


def shown(line: str) -> str:
    """``line`` as a left-to-right paragraph displays it, left to right, without the
    invisible direction characters."""
    return re.sub("[\u2066-\u2069]", "", get_display(line, base_dir="L"))


def right_to_left(line: str, *words: str) -> bool:
    """Whether ``words`` (in the line's reading order) are displayed right to left."""
    places = [shown(line).index(word) for word in words]
    return places == sorted(places, reverse=True)


def persian_table(game: str, players: int) -> TableInfo:
    spec = GAMES[game].spec_for({})
    seats = tuple(SeatInfo(member_id=100 + s, name=f"Player{s}", ai=False, team=spec.team_of(s))
                  for s in range(players))
    return TableInfo(id="abc123", spec=spec, seats=seats, host_id=100, ranked=True,
                     buy_in=200, lang=PERSIAN)


def field(rendered, name_key: str, **values) -> str:
    name = PERSIAN.t(name_key, **values)
    return next(f.value for f in rendered.embed.fields if f.name == name)


def test_each_line_is_a_right_to_left_isolate_after_its_markdown_marker():
    text = "> **Alice** نوشت\n- A♥ ۲\n-# ریز\n\n```\nc0ffee\n```\nپایان"
    directed = PERSIAN.directed(text)
    assert directed.split("\n") == [
        f"> {RLI}**Alice** نوشت{PDI}", f"- {RLI}A♥ ۲{PDI}", f"-# {RLI}ریز{PDI}", "",
        "```", "c0ffee", "```", f"{RLI}پایان{PDI}"]  # the code block as it was
    assert PERSIAN.directed(directed) == directed  # a directed text is left as it is
    assert ENGLISH.directed(text) == text


def test_a_slash_command_in_a_persian_line_reads_left_to_right():
    adapter = GAMES["tripoli"]
    table = persian_table("tripoli", 2)
    rendered = lobby(table, adapter.describe_options({}, PERSIAN))
    line = next(line for line in rendered.embed.description.split("\n") if "rules`" in line)
    assert "`/tripoli rules`" in shown(line) and "\u2066`/tripoli rules`\u2069" in line


def test_a_value_in_a_code_span_is_isolated_around_its_backticks_not_inside():
    line = PERSIAN.t("tripoli.options.dial_sequence", preset="cosmo")
    assert "\u2066`cosmo`\u2069" in line and "`\u2066" not in line
    assert not re.search("[\u2066-\u2069]", ENGLISH.t("tripoli.options.dial_sequence",
                                                        preset="cosmo"))


def test_a_right_to_left_mark_does_not_turn_a_line_that_starts_with_a_card_but_an_isolate_does():
    line = PERSIAN.join(["A♥ **۰**", "K♥ **۰**"], " · ")
    assert right_to_left(PERSIAN.directed(line), "A♥", "K♥")
    marked = "\u200fA♥ **۰** · K♥ **۰**\u200f"  # the marks at both ends of the line
    assert not right_to_left(marked, "A♥", "K♥")


def test_a_persian_tripoli_board_reads_right_to_left_from_its_card_codes_and_names():
    adapter = GAMES["tripoli"]
    table = persian_table("tripoli", 4)
    board = adapter.board(table, adapter.new_game({}, 4, b"rtl", 200))
    spaces = field(board, "tripoli.board.spaces").split("\n")
    assert spaces[0].startswith(RLI) and isolated(spaces[0])
    assert right_to_left(spaces[0], "A♥", "K♥", "Q♥", "J♥", "10♥")
    assert right_to_left(spaces[1], "KQ♥", "Q♥+K♥")  # the space, then what it pays
    players = field(board, "tripoli.field.players").split("\n")
    for seat, line in enumerate(players):
        chips = PERSIAN.t("tripoli.chips", count=board_stack(adapter, seat))
        assert right_to_left(line, f"Player{seat}", shown(chips)), line
    assert not limit_problems(board)


def board_stack(adapter, seat: int) -> int:
    """A seat's stack after the antes of the board rendered above (the same seed)."""
    return adapter.new_game({}, 4, b"rtl", 200).public_view().stacks[seat]


def test_a_persian_troefcall_trick_lists_its_plays_right_to_left():
    adapter = GAMES["troefcall"]
    table = persian_table("troefcall", 4)
    game = adapter.new_game({}, 4, b"rtl", 200)
    rng = random.Random(1)
    for _ in range(400):
        trick = game.public_view().trick
        if trick is not None and len(trick.plays) >= 2:
            break
        todo = [p for p in game.pending() if p.seat != SYSTEM]
        if not todo:
            game.apply(SYSTEM, game.timeout_action(SYSTEM))
            continue
        game.apply(todo[0].seat, adapter.ai_action(game, todo[0].seat, rng), todo[0].decision)
    first, second = (f"Player{play.seat}" for play in trick.plays[:2])
    plays = field(adapter.board(table, game), "troefcall.field.trick", trick=trick.number)
    assert right_to_left(plays, first, second)


def test_a_persian_kalooki_meld_reads_from_its_name():
    three = Meld(id="m1", owner=0, kind="three", cards=tuple(parse("7C 7H 7S")), low=7)
    line = PERSIAN.directed(PERSIAN.t("kalooki.log.laid_more", name="Player0",
                                      melds=meld_text(three, PERSIAN)))
    assert right_to_left(line, "Player0", "m1", "7♣", "7♥", "7♠")
    assert meld_text(three, ENGLISH) == "`m1` **7♣\ufe0e** **7♥** **7♠\ufe0e**"


def test_a_cut_label_keeps_its_isolates_closed_within_the_limit():
    label = PERSIAN.t("kalooki.meld.four", name="Ｗ" * 90, low="9♦", high="K♦")
    cut = truncate(label, 80)
    assert len(label) > 80 >= len(cut) and open_isolates(cut) == 0 and cut.endswith("…" + PDI * 2)
    assert truncate("short", 80) == "short" and truncate("x" * 81, 80) == "x" * 79 + "…"
