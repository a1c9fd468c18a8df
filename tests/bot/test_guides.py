"""The how-to-play guides: every page of every game fits Discord in every language, and each
guide covers its game's decisions and terms."""

from __future__ import annotations

import pytest

from bot.games import GAMES
from bot.guides import GUIDES
from bot.guides.paging import page_message
from bot.i18n import ENGLISH, LANGUAGES
from bot.render import common
from engine.cards import Card


def test_every_hosted_game_has_a_guide():
    assert set(GAMES) <= set(GUIDES)


@pytest.mark.parametrize("code", list(LANGUAGES))
@pytest.mark.parametrize("game", list(GUIDES))
def test_every_page_fits_discord_in_every_language_and_names_no_rule_file(game, code):
    lang = LANGUAGES[code]
    pages = GUIDES[game].all_pages(lang)
    assert len(pages) >= 3
    for index in range(len(pages)):
        rendered = page_message(game, index, lang)
        assert common.limit_problems(rendered) == [], (game, code, index)
        text = rendered.embed.description or ""
        assert rendered.embed.description == common.visible(pages[index].text)  # nothing cut
        assert rendered.embed.footer.text == lang.t("guide.footer", page=index + 1,
                                                    pages=len(pages))
        assert pages[index].title in rendered.embed.title
        assert "§" not in text and ".md" not in text and "DESIGN" not in text


@pytest.mark.parametrize("code", [code for code in LANGUAGES if code != "en"])
@pytest.mark.parametrize("game", list(GUIDES))
def test_a_translated_guide_has_no_english_page_or_term(game, code):
    english = GUIDES[game].all_pages(ENGLISH)
    translated = GUIDES[game].all_pages(LANGUAGES[code])
    for mine, theirs in zip(translated, english, strict=True):
        assert mine.title != theirs.title and mine.text != theirs.text, mine.title
    labels = [b["label"] for row in page_message(game, 1, LANGUAGES[code]).view.to_components()
              for b in row["components"]]
    assert labels == [LANGUAGES[code].t("guide.previous"), LANGUAGES[code].t("guide.next")]
    assert "Next" not in " ".join(labels)


@pytest.mark.parametrize("game", list(GUIDES))
def test_previous_and_next_open_the_neighbouring_pages(game):
    last = len(GUIDES[game].all_pages(ENGLISH)) - 1

    def buttons(index):
        return {b["label"]: b for row in page_message(game, index).view.to_components()
                for b in row["components"]}

    first = buttons(0)
    assert first["◀ Previous"]["disabled"] and not first["Next ▶"]["disabled"]
    assert first["Next ▶"]["custom_id"] == f"guide:{game}:1"
    end = buttons(last)
    assert end["Next ▶"]["disabled"]
    assert end["◀ Previous"]["custom_id"] == f"guide:{game}:{last - 1}"
    assert page_message(game, last + 5).embed.title == page_message(game, last).embed.title


@pytest.mark.parametrize(("game", "words"), [
    ("tripoli", ["Keep", "Exchange", "Auction", "lowest card you hold", "stop", "(not ♦)",
                 "KITTY", "POT", "SEQ", "ante", "spare hand", "goes out", "left"]),
    ("troefcall", ["trump caller", "Kap partij", "**5**", "**2**", "baunie", "**15**",
                   "passes to the left", "follow", "Show hand and redeal"]),
    ("kalooki", ["contract", "three", "four", "joker", "**Allow**", "**Refuse**", "lay off",
                 "go out", "Down and out", "50", "stock", "discard pile"]),
])
def test_a_guide_explains_its_games_decisions(game, words):
    text = "\n".join(page.text for page in GUIDES[game].all_pages(ENGLISH)[:-1]).lower()
    for word in words:
        assert word.lower() in text, word


@pytest.mark.parametrize(("game", "terms"), [
    ("tripoli", ["kitty", "pot", "spare hand", "stop", "ante"]),
    ("troefcall", ["trump caller", "trick", "kap partij", "baunie"]),
    ("kalooki", ["contract", "three (set)", "four (run)", "meld / lay down", "lay off", "call",
                 "stock", "discard pile"]),
])
def test_the_glossary_defines_the_games_terms(game, terms):
    defined = {term.lower() for term, _meaning in GUIDES[game].terms(ENGLISH)}
    assert set(terms) <= defined
    assert GUIDES[game].all_pages(ENGLISH)[-1].title == "Glossary"


def test_the_kalooki_guide_lists_the_contracts_the_engine_plays():
    from engine.kalooki.rules import JAMAICAN

    text = GUIDES["kalooki"].all_pages(ENGLISH)[2].text
    for number, contract in enumerate(JAMAICAN.contracts, start=1):
        assert f"{number}. {contract.cards} cards — {contract.words()}" in text


def test_the_kalooki_guide_tells_the_trinidad_draw_and_joker_exchange_as_the_engine_plays():
    """A Trinidad player who laid down may still take the discard (T17), and takes a
    joker into hand only from his own four; from another's it moves to an end (T10, T11)."""
    from engine.kalooki import melds as m
    from engine.kalooki.rules import TRINIDAD

    run = m.build("m1", 1, "four", [Card(c) for c in (2, 104, 4, 5)], TRINIDAD)  # 4♣ Jkr 6♣ 7♣
    five = Card(3)  # 5♣
    assert m.exchange(run, five, "hand", TRINIDAD, own=True)[2] == "hand"
    with pytest.raises(m.MeldError):
        m.exchange(run, five, "hand", TRINIDAD, own=False)
    assert m.exchange(run, five, None, TRINIDAD, own=False)[2] in ("top", "bottom")
    assert TRINIDAD.melded_may_take_discard
    text = GUIDES["kalooki"].all_pages(ENGLISH)[3].text
    assert "once you have laid down; Trinidad: still allowed" in text
    assert ("Trinidad: you may take it into your hand when the four is yours; from another "
            "player's four it moves to one of its ends") in text
