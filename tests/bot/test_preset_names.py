"""Preset names (issue 11): every preset of every game has a name in every catalog, and boards,
lobbies, rules cards and the preset autocomplete show that name in the reader's language where
the preset's id (the option value typed in commands) was shown before."""

from __future__ import annotations

import re

import pytest
from test_catalogs import messages

from bot.games import GAMES
from bot.i18n import LANGUAGES
from bot.render import kalooki as kalooki_render
from bot.render import tripoli as tripoli_render
from bot.render.common import limit_problems, lobby
from bot.runtime.spec import SeatInfo, TableInfo
from cogs.tripoli import preset_key
from engine.kalooki.rules import PRESETS as KALOOKI_PRESETS
from engine.tripoli.rules import PRESETS as TRIPOLI_PRESETS

PRESET_IDS = {"tripoli": sorted(TRIPOLI_PRESETS), "kalooki": sorted(KALOOKI_PRESETS)}
"""Each game's presets (Troefcall has none: one set of rules with numbers)."""

NAMERS = {"tripoli": tripoli_render.preset_name, "kalooki": kalooki_render.preset_name}

ISOLATES = "[\u2066-\u2069]"


def table(game: str, code: str) -> TableInfo:
    spec = GAMES[game].spec_for({})
    seats = tuple(SeatInfo(member_id=100 + s, name=f"Player{s}", ai=False, team=spec.team_of(s))
                  for s in range(4))
    return TableInfo(id="abc123", spec=spec, seats=seats, host_id=100, ranked=True,
                     buy_in=200, lang=LANGUAGES[code])


def plain(text: str) -> str:
    return re.sub(ISOLATES, "", text)


@pytest.mark.parametrize("code", list(LANGUAGES))
@pytest.mark.parametrize("game", sorted(PRESET_IDS))
def test_every_preset_has_a_name_in_every_catalog(game, code):
    catalog = messages(code)
    missing = [p for p in PRESET_IDS[game] if not any(catalog.get(f"{game}.preset_name.{p}", ()))]
    assert missing == []


@pytest.mark.parametrize("code", ["it", "nl", "fa"])
@pytest.mark.parametrize("game", sorted(PRESET_IDS))
def test_presets_are_named_in_the_readers_own_words(game, code):
    english, lang = LANGUAGES["en"], LANGUAGES[code]
    names = [plain(NAMERS[game](lang, p)) for p in PRESET_IDS[game]]
    assert len(set(names)) == len(names)  # no two presets share a name
    if code == "fa":  # Persian names are written in Persian letters, never as the id
        assert all(re.search("[\u0600-\u06ff]", name) for name in names), names
    differ = [p for p in PRESET_IDS[game] if plain(NAMERS[game](lang, p)) != english.t(
        f"{game}.preset_name.{p}")]
    assert len(differ) >= len(PRESET_IDS[game]) // 2, differ  # a proper noun may be shared


def test_the_texts_own_names_for_their_variants():
    """rules/tripoli.md §3.2: the Italian text's "Tripoli senza Poker", "Monte all'asta",
    "Boodle"; the Persian text's رامولی and کازموس."""
    italian, persian = LANGUAGES["it"], LANGUAGES["fa"]
    assert tripoli_render.preset_name(italian, "italian-no-poker") == "Tripoli senza Poker"
    assert tripoli_render.preset_name(italian, "italian-ghost-auction") == "Monte all'asta"
    assert tripoli_render.preset_name(italian, "italian-boodle") == "Boodle"
    assert plain(tripoli_render.preset_name(persian, "rummoli")) == "رامولی"
    assert plain(tripoli_render.preset_name(persian, "cosmo")) == "کازموس"


@pytest.mark.parametrize("code", ["it", "nl", "fa"])
@pytest.mark.parametrize("preset", ["classic", "auction-pay-suit", "italian-no-poker", "dutch"])
def test_a_tripoli_board_status_line_names_the_rules_not_their_id(code, preset):
    adapter, lang = GAMES["tripoli"], LANGUAGES[code]
    players = 4
    board = adapter.board(table("tripoli", code),
                          adapter.new_game({"preset": preset}, players, b"names", 200))
    last = plain(board.embed.description.split("\n")[-1])
    name = plain(tripoli_render.preset_name(lang, preset))
    assert last.endswith(name), last
    assert re.search(rf"\b{preset}\b", last) is None, last  # the id as a word
    assert limit_problems(board) == []
    assert len(board.embed.footer.text or "") <= 2048 and len(board.embed) <= 6000


@pytest.mark.parametrize("code", ["it", "nl", "fa"])
@pytest.mark.parametrize("preset", sorted(KALOOKI_PRESETS))
def test_a_kalooki_board_status_line_names_the_rules_not_their_id(code, preset):
    adapter, lang = GAMES["kalooki"], LANGUAGES[code]
    board = adapter.board(table("kalooki", code),
                          adapter.new_game({"preset": preset}, 4, b"names", 200))
    status = plain(board.embed.description)
    assert plain(kalooki_render.preset_name(lang, preset)) in status
    assert re.search(rf"\b{preset}\b", status) is None, status  # the id as a word
    assert limit_problems(board) == []


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_tripoli_lobby_and_rules_card_name_every_preset(code):
    adapter, lang = GAMES["tripoli"], LANGUAGES[code]
    for preset in TRIPOLI_PRESETS:
        name = plain(tripoli_render.preset_name(lang, preset))
        rendered = lobby(table("tripoli", code), adapter.describe_options({"preset": preset}, lang))
        assert name in plain(rendered.embed.description), preset
        assert limit_problems(rendered) == [], preset
        card = adapter.rules_card({"preset": preset, "ante": 3}, "Table abc123.", 200, lang)
        assert name in plain(card.embed.title or ""), preset
        assert plain(card.embed.description or "").startswith(f"**{name}**"), preset
        assert f"`{preset}`" not in (card.embed.title or "") + (card.embed.description or "")
        assert limit_problems(card) == [], preset


@pytest.mark.parametrize("code", sorted(LANGUAGES))
@pytest.mark.parametrize("key", PRESET_IDS["tripoli"])
def test_a_tripoli_preset_typed_by_its_name_in_any_language_is_that_preset(code, key):
    """``/tripoli start preset:Classica``: a member types the name the board showed them."""
    name = tripoli_render.preset_name(LANGUAGES[code], key)
    plain = re.sub(ISOLATES, "", name)
    assert preset_key(plain) == key
    assert preset_key(f"  {plain.upper()} ") == key
    assert preset_key(name) == key  # pasted with its direction isolates


def test_no_two_tripoli_presets_share_a_name_or_an_id():
    """A typed name names one preset only (in whatever language it is that preset's)."""
    owners: dict[str, set[str]] = {}
    for lang in LANGUAGES.values():
        for key in PRESET_IDS["tripoli"]:
            name = re.sub(ISOLATES, "", tripoli_render.preset_name(lang, key)).casefold()
            owners.setdefault(name, set()).add(key)
    for key in PRESET_IDS["tripoli"]:
        owners.setdefault(key, set()).add(key)
    assert {name: keys for name, keys in owners.items() if len(keys) > 1} == {}


def test_a_typed_preset_that_is_no_name_is_kept_for_the_refusal():
    assert preset_key(" Nope ") == "nope" and preset_key("   ") is None
