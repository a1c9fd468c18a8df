"""Every game's lobby, board, hands and rules cards, rendered in every language, stay within
Discord's limits (embed 6000, field 1024, button label 80, select option 100 …): AI sessions of each
registered game with the longest names, rendered in en, fa, it and nl as they go."""

from __future__ import annotations

import random
from types import SimpleNamespace

import discord
import pytest

from bot.games import GAMES
from bot.guides import GUIDES
from bot.i18n import LANGUAGES, Msg
from bot.render import kalooki as kalooki_render
from bot.render import tripoli as tripoli_render
from bot.render.common import limit_problems, lobby, visible
from bot.render.summary import RatingNote, add_deal, ratings
from bot.runtime.spec import Note, SeatInfo, TableInfo
from engine.core import SYSTEM
from engine.kalooki import events as kalooki_events
from engine.tripoli import rules as tripoli_rules

LONG = "Ｗ" * 20 + " a very long display name"
NOTES = tuple(Note(msg) for msg in (
    Msg("note.timed_out_again", name=LONG), Msg("note.left_with", name=LONG, count=99999),
    Msg("note.leaves_after_deal", name=LONG), Msg("note.dms_closed", name=LONG)))


def info(game: str, players: int, code: str) -> TableInfo:
    spec = GAMES[game].spec_for({})
    seats = tuple(SeatInfo(member_id=None if s % 2 else 100 + s,
                           name=f"AI {s}" if s % 2 else f"{LONG} {s}", ai=bool(s % 2),
                           team=spec.team_of(s)) for s in range(players))
    return TableInfo(id="abc123", spec=spec, seats=seats, host_id=100, ranked=True,
                     buy_in=100000, notes=NOTES, deadlines={SYSTEM: 1.8e9, 0: 1.8e9},
                     lang=LANGUAGES[code])


@pytest.mark.parametrize("code", list(LANGUAGES))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_full_lobby_fits_in_every_language(game, code):
    adapter = GAMES[game]
    table = info(game, adapter.spec.seats.stop - 1, code)
    rendered = lobby(table, adapter.describe_options({}))
    assert limit_problems(rendered) == []


@pytest.mark.parametrize("code", list(LANGUAGES))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_boards_and_hands_fit_in_every_language(game, code):
    adapter = GAMES[game]
    rng = random.Random(f"{game}/{code}")
    players = adapter.spec.seats.stop - 1
    table = info(game, players, code)
    played = adapter.new_game({}, players, f"{game} {code}".encode(), 100000)
    declined: set[tuple[int, int]] = set()
    renders = 0
    for step in range(1500):
        if played.is_over or played.deal_number > 2:
            break
        if played.between_deals:
            played.start_deal()
            continue
        if step % 5 == 0:
            assert limit_problems(adapter.board(table, played)) == [], step
            for seat in range(players):
                assert limit_problems(adapter.hand(table, played, seat)) == [], (step, seat)
            renders += 1
        todo = [p for p in played.pending() if p.seat != SYSTEM
                and (p.seat, p.decision) not in declined]
        if not todo:
            played.apply(SYSTEM, played.timeout_action(SYSTEM))
            continue
        pending = todo[0]
        action = adapter.ai_action(played, pending.seat, rng)
        if action is None:
            declined.add((pending.seat, pending.decision))
            continue
        played.apply(pending.seat, action, pending.decision)
    assert renders >= 5, renders


PRESETS = {"tripoli": sorted(tripoli_rules.PRESETS), "troefcall": [None],
           "kalooki": ["jamaican", "trinidad"]}
"""The presets whose rules cards are checked (None: the game's default rules)."""


@pytest.mark.parametrize("code", list(LANGUAGES))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rules_card_fits_in_every_language(game, code):
    adapter, lang = GAMES[game], LANGUAGES[code]
    for preset in PRESETS[game]:
        options = {"preset": preset} if preset else {}
        rendered = adapter.rules_card(options, "Table abc123.", 100000, lang)
        assert limit_problems(rendered) == [], (preset, rendered.embed.to_dict())
        assert rendered.embed.title and len(rendered.embed.fields) >= 2


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_tripoli_rules_card_lists_its_differences_in_the_readers_language(code):
    lang, english = LANGUAGES[code], LANGUAGES["en"]
    for preset in PRESETS["tripoli"]:
        options = {"preset": preset, "bet_limit": 7}  # classic differs in its limit too
        differences = tripoli_rules.describe_differences(
            tripoli_rules.make_rules(preset, bet_limit=7))
        rendered = GAMES["tripoli"].rules_card(options, "Table abc123.", 100000, lang)
        assert limit_problems(rendered) == [], preset
        field = next(f for f in rendered.embed.fields
                     if f.name == lang.t("tripoli.rules.field.differences"))
        lines = field.value.split("\n")
        assert len(lines) == len(differences) >= 1, (preset, field.value)
        assert lang.t("tripoli.difference.bet_limit", limit=7) in field.value
        for line, found in zip(lines, differences, strict=True):
            shown = tripoli_render.difference(lang, found)
            assert line == lang.directed(f"• {visible(shown)}") and "{" not in line
            assert code == "en" or shown != tripoli_render.difference(english, found), line


GROUPED = {"en": "1,250", "fa": "۱٬۲۵۰", "it": "1.250", "nl": "1.250"}
"""1250 as each language groups it."""


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_tripoli_board_amounts_are_grouped_like_every_other_amount(code):
    adapter = GAMES["tripoli"]
    table = info("tripoli", 5, code)
    played = adapter.new_game({"ante": 250, "dealer_ante": 250}, 5, b"grouped", 100000)
    spaces = adapter.board(table, played).embed.fields[0].value
    assert f"**{GROUPED[code]}**" in spaces  # five players' ante of 250 on each space


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_kalooki_totals_and_summary_changes_are_grouped(code):
    table = info("kalooki", 3, code)
    scored = kalooki_events.DealScored(deal_number=4, hands={}, penalties={0: 1250, 1: 0, 2: 5},
                                       totals={0: 1250, 1: 30, 2: 1250})
    deal = kalooki_render.deal_summary(table, SimpleNamespace(log=[scored]))
    assert deal.lines[-1].count(GROUPED[code]) == 2
    embed = discord.Embed(title="board")
    embed.add_field(name="players", value="-")
    add_deal(table, embed, deal)
    assert f"**+{GROUPED[code]}**" in embed.fields[1].value


COMMANDS = {"en": ("/tripoli end", "/tripoli rules", "/stats"),
            "fa": ("/tripoli end", "/tripoli rules", "/stats"),
            "it": ("/tripoli termina", "/tripoli regole", "/statistiche"),
            "nl": ("/tripoli beëindigen", "/tripoli regels", "/statistieken")}
"""Commands as an English, Persian (no Discord locale), Italian and Dutch client lists them."""


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_rules_cards_guides_and_summaries_name_commands_as_the_language_lists_them(code):
    end, rules, stats = COMMANDS[code]
    card = str(GAMES["tripoli"].rules_card({}, "", 100, LANGUAGES[code]).embed.to_dict())
    assert f"`{end}`" in card
    guide = "\n".join(page.text for page in GUIDES["tripoli"].all_pages(LANGUAGES[code]))
    assert f"`{rules}`" in guide and f"`{end} " in guide  # `/tripoli end now:True` too
    assert f"`{stats}`" in ratings(info("tripoli", 3, code), RatingNote(unrated="unknown"))
