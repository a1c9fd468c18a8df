"""Log lines are rendered once per event and kept (bot/render/lines.py): every board of an
AI session of each game, in each language, is the board rendered with nothing kept; a line
is made again for other names or another language; the cache keeps no more than its size."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from ai_step import ai_step

from bot.games import GAMES
from bot.i18n import ENGLISH, LANGUAGES, Msg
from bot.render import kalooki, summary, tripoli, troefcall
from bot.render.lines import LineCache, board_log
from bot.runtime.spec import Note, SeatInfo, TableInfo
from engine.tripoli import events as ev

RENDERERS = {"tripoli": tripoli, "troefcall": troefcall, "kalooki": kalooki}


def info(game: str, players: int, code: str, name: str = "Alice") -> TableInfo:
    spec = GAMES[game].spec_for({})
    seats = tuple(SeatInfo(member_id=None if s % 2 else 100 + s,
                           name=f"AI {s}" if s % 2 else f"{name} {s}", ai=bool(s % 2),
                           team=spec.team_of(s)) for s in range(players))
    return TableInfo(id="l1n3s0", spec=spec, seats=seats, host_id=100, ranked=False,
                     buy_in=1000, lang=LANGUAGES[code])


def fields(rendered) -> list[tuple[str, str]]:
    return [(f.name, f.value) for f in rendered.embed.fields]


@pytest.mark.parametrize("code", sorted(LANGUAGES))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_boards_with_kept_lines_are_the_boards_rendered_afresh(game, code, monkeypatch):
    adapter = GAMES[game]
    players = min(4, adapter.spec.seats.stop - 1)
    table = info(game, players, code)
    renamed = info(game, players, code, name="Bob")
    played = adapter.new_game({}, players, f"lines {game} {code}".encode(), 1000)
    rng, declined = random.Random(code), set()
    kept = LineCache()
    monkeypatch.setattr(RENDERERS[game], "LINES", kept)
    for _ in range(200):
        if played.is_over:
            break
        if played.between_deals:
            played.start_deal()
        else:
            ai_step(adapter, played, declined, rng)
        boards = [summary.board(adapter, t, played, None) for t in (table, renamed)]
        with monkeypatch.context() as fresh:
            fresh.setattr(RENDERERS[game], "LINES", LineCache())
            afresh = [summary.board(adapter, t, played, None) for t in (table, renamed)]
        for board, other in zip(boards, afresh, strict=True):
            assert board.embed.to_dict() == other.embed.to_dict()
        log = [value for name, value in fields(boards[1]) if "Alice" in value]
        assert log == [], log  # the other names' lines are their own
    assert len(kept) > 0


def test_a_line_is_rendered_once_per_event_and_readers():
    cache = LineCache()
    table = info("tripoli", 3, "en")
    made: list[str] = []

    def render(text: str):
        return lambda: made.append(text) or text

    folded = ev.Folded(seat=1)
    readers = cache.readers(table)
    assert cache.line(readers, folded, render("a")) == "a"
    assert cache.line(readers, ev.Folded(seat=1), render("b")) == "a"  # an equal event
    assert cache.line(cache.readers(replace(table)), folded, render("c")) == "a"
    assert cache.line(readers, folded, render("d"), "rule") == "d"  # another context
    persian = cache.readers(replace(table, lang=LANGUAGES["fa"]))
    renamed = cache.readers(replace(table, seats=(replace(table.seats[0], name="Bob"),
                                                  *table.seats[1:])))
    assert persian is not readers and renamed is not readers
    assert cache.line(persian, folded, render("e")) == "e"
    assert cache.line(renamed, folded, render("f")) == "f"
    assert made == ["a", "d", "e", "f"]
    assert table.lang is ENGLISH


def test_an_event_that_does_not_hash_is_kept_by_identity():
    cache = LineCache()
    readers = cache.readers(info("tripoli", 3, "en"))
    antes = ev.AntesPosted(paid={0: 1, 1: 1}, board={"POT": 2})
    with pytest.raises(TypeError):
        hash(antes)
    assert cache.line(readers, antes, lambda: "antes") == "antes"
    assert cache.line(readers, antes, lambda: "again") == "antes"
    twin = ev.AntesPosted(paid={0: 1, 1: 1}, board={"POT": 2})
    assert cache.line(readers, twin, lambda: "twin") == "twin"


def test_the_cache_keeps_at_most_its_size_the_oldest_going_first():
    cache = LineCache(size=3)
    readers = cache.readers(info("tripoli", 3, "en"))
    for seat in range(5):
        cache.line(readers, ev.Folded(seat=seat), lambda seat=seat: f"line {seat}")
    assert len(cache) == 3
    assert cache.line(readers, ev.Folded(seat=4), lambda: "new") == "line 4"
    assert cache.line(readers, ev.Folded(seat=0), lambda: "new") == "new"


def test_a_board_log_puts_each_note_after_the_events_logged_before_it():
    def note(text: str, at: int | None) -> Note:
        return Note(Msg("text", text=text), at)

    events = ["e7", "e8", "", "e10", "e11"]  # the 7th to 11th events logged; the 9th no line
    table = replace(info("tripoli", 3, "en"), logged=11, notes=(
        note("before them", 3), note("after e8", 8), note("after e10", 10),
        note("saved without its place", None), note("after e11", 11)))
    asked: list[str] = []

    def line(event: str) -> str:
        asked.append(event)
        return event

    assert board_log(table, events, line, 20) == [
        "before them", "e7", "e8", "after e8", "e10", "after e10", "e11",
        "saved without its place", "after e11"]  # after the events, in the notes' order
    asked.clear()
    assert board_log(table, events, line, 5) == ["e10", "after e10", "e11",
                                                 "saved without its place", "after e11"]
    assert asked == ["e11", "e10"]  # lines are made newest first, only as far as needed
    assert board_log(replace(table, notes=()), events, line, 3) == ["e8", "e10", "e11"]
    assert Note.load(Msg("text", text="old").dump()) == note("old", None)
    assert Note.load(note("new", 5).dump()) == note("new", 5)
