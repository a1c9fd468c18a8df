"""Poker hands named in every language (issue 11): the category and the ranks that decide
it, from the ``tripoli.poker.*`` messages, on the showdown lines of the board and in the
poker five of a hand; kickers only where they decide between two hands shown."""

from __future__ import annotations

import random
import re

import pytest
from poker_hands import one_hand_per_value

from bot.games import GAMES
from bot.i18n import ENGLISH, LANGUAGES
from bot.i18n.catalogs import catalog
from bot.render import tripoli as render
from bot.render.common import FIELD_NAME_MAX, FIELD_VALUE_MAX
from bot.runtime.spec import SeatInfo, TableInfo
from engine.cards import Card, parse
from engine.poker import Category, category, describe, description, hand_value, kickers_deciding
from engine.tripoli import events as ev

MARKS = re.compile("[\u200e\u200f\u2066-\u2069]")
"""The direction marks and isolates of a right-to-left text."""


def plain(text: str) -> str:
    return MARKS.sub("", text)


def named(code: str, hand: str, *others: str) -> str:
    return plain(render.poker_hand(LANGUAGES[code], parse(hand), [parse(o) for o in others]))


# Each category, and the words of its ranks in each language (seeds and catalogs: Italian
# re/regina/fante/asso, Dutch koning/koningin/boer/aas, Persian شاه/بی‌بی/سرباز/آس and digits).
EXAMPLES = {
    "A♥ K♥ Q♥ J♥ 10♥": {"en": "Royal flush", "it": "Scala reale", "nl": "Royal flush",
                        "fa": "رویال فلاش"},
    "9♠ 8♠ 7♠ 6♠ 5♠": {"en": "Straight flush, nine high", "it": "Scala a colore al nove",
                       "nl": "Straight flush, negen hoog", "fa": "استریت فلاش تا ۹"},
    "A♣ A♦ A♥ A♠ 3♣": {"en": "Four of a kind, aces", "it": "Poker di assi",
                       "nl": "Carré azen", "fa": "چهارتایی آس"},
    "K♠ K♥ K♣ 4♦ 4♣": {"en": "Full house, kings over fours", "it": "Full di re e quattro",
                       "nl": "Full house, koningen over vieren", "fa": "فول هاوس، سه شاه و دو ۴"},
    "2♦ 6♦ 9♦ J♦ Q♦": {"en": "Flush, queen high", "it": "Colore alla regina",
                       "nl": "Flush, koningin hoog", "fa": "فلاش تا بی‌بی"},
    "A♥ 2♣ 3♦ 4♠ 5♥": {"en": "Straight, five high", "it": "Scala al cinque",
                       "nl": "Straat, vijf hoog", "fa": "استریت تا ۵"},
    "8♣ 8♦ 8♥ A♠ 3♣": {"en": "Three of a kind, eights", "it": "Tris di otto",
                       "nl": "Drie achten", "fa": "سه‌تایی ۸"},
    "J♣ J♥ 10♠ 10♦ 8♣": {"en": "Two pair, jacks and tens", "it": "Doppia coppia di fanti e dieci",
                         "nl": "Twee paar, boeren en tienen", "fa": "دو جفت، سرباز و ۱۰"},
    "A♣ A♦ K♠ 9♥ 3♣": {"en": "Pair of aces", "it": "Coppia di assi", "nl": "Paar azen",
                       "fa": "جفت آس"},
    "A♠ J♣ 9♣ 6♥ 4♦": {"en": "Ace high", "it": "Carta alta: asso", "nl": "Hoge kaart: aas",
                       "fa": "کارت بالا: آس"},
}


def test_the_examples_cover_every_category():
    assert {category(hand_value(parse(hand))) for hand in EXAMPLES} == set(Category)


@pytest.mark.parametrize("code", list(LANGUAGES))
@pytest.mark.parametrize("hand", list(EXAMPLES))
def test_every_category_is_named_with_its_ranks_in_every_language(hand, code):
    assert named(code, hand) == EXAMPLES[hand][code]


def test_english_names_a_hand_as_the_engine_describes_it():
    for cards in one_hand_per_value():
        hand = [Card(c) for c in cards]
        assert render.poker_hand(ENGLISH, hand) == describe(hand_value(hand)), hand


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_hand_names_each_deciding_rank_in_every_language(code):
    """Whatever the hand, its text holds the language's word for each rank that names it
    (its plural where the hand has several of them) and no message id."""
    lang = LANGUAGES[code]
    for cards in one_hand_per_value():
        hand = description(hand_value(cards))
        text = plain(render.poker_hand(lang, [Card(c) for c in cards]))
        assert text and "tripoli." not in text and "{" not in text
        if hand.royal:
            continue
        single = hand.category in (Category.HIGH_CARD, Category.STRAIGHT, Category.FLUSH,
                                   Category.STRAIGHT_FLUSH)
        for rank in hand.ranks:
            form = "rank" if single else "ranks"
            word = plain(lang.t(f"tripoli.poker.{form}.{rank.name.lower()}"))
            assert re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE), (text, word)


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_kickers_are_named_only_where_they_decide(code):
    lang = LANGUAGES[code]
    aces = "A♣ A♦ K♥ 9♠ 4♣"
    king, nine = (plain(lang.t(f"tripoli.poker.rank.{r}")) for r in ("king", "nine"))
    both = named(code, aces, "A♥ A♠ K♣ 8♦ 3♣")
    assert both.startswith(EXAMPLES["A♣ A♦ K♠ 9♥ 3♣"][code])
    assert king in both and nine in both and both.index(king) < both.index(nine)
    one = named(code, aces, "A♥ A♠ Q♣ 8♦ 3♣")
    assert king in one and nine not in one
    assert named(code, aces, "K♣ K♦ A♥ 9♦ 4♦") == EXAMPLES["A♣ A♦ K♠ 9♥ 3♣"][code]


def table_info(code: str, names: list[str]) -> TableInfo:
    spec = GAMES["tripoli"].spec_for({})
    seats = tuple(SeatInfo(member_id=100 + s, name=name, ai=False, team=None)
                  for s, name in enumerate(names))
    return TableInfo(id="abc123", spec=spec, seats=seats, host_id=100, ranked=True,
                     buy_in=100, notes=(), deadlines={}, lang=LANGUAGES[code])


def test_a_persian_showdown_line_has_no_english_word():
    hands = {0: parse("A♣ A♦ K♥ 9♠ 4♣"), 1: parse("A♥ A♠ K♣ 8♦ 3♣"),
             2: parse("K♠ K♥ K♦ 4♦ 4♥"), 3: parse("2♦ 6♦ 9♦ J♦ Q♦")}
    log = [ev.Showdown(hands=hands, descriptions={})]
    text = plain(render.showdown(table_info("fa", ["رضا", "مینا", "سارا", "علی"]), log))
    texts = [text for message in catalog("en") if message.id
             and (message.id[0] if message.pluralizable else message.id).startswith(
                 "tripoli.poker.")
             for text in (message.string if message.pluralizable else [message.string])]
    english = {word.lower() for text in texts for word in re.findall(r"[A-Za-z]{2,}", text)}
    assert {"kicker", "kickers", "high", "pair", "over", "king", "nine"} <= english
    words = {word.lower() for word in re.findall(r"[A-Za-z]{2,}", text)}
    assert words & english == set()
    cards_out = re.sub(r"\*\*[^*]+\*\*", "", text)  # the bold card codes (K♥) stay Latin
    assert re.search(r"[A-Za-z0-9]", cards_out) is None, cards_out
    assert "کیکر" in text and "شاه" in text and "۹" in text


LONGEST_NAME = "Ｗ" * 24

# Nine hands of one 52-card deck whose names are as long as a showdown makes them: high
# cards and pairs that agree up to their last kickers.
NINE = ["A♣ Q♣ 10♦ 7♥ 2♣", "A♦ Q♦ 10♣ 7♠ 3♦", "A♥ Q♥ 10♥ 7♣ 3♥", "K♣ Q♠ 10♠ 8♦ 4♣",
        "K♦ J♣ 9♦ 8♣ 4♦", "K♥ J♦ 9♣ 8♥ 4♥", "K♠ J♥ 9♥ 8♠ 5♠", "6♣ 6♦ 5♣ 3♣ 2♦",
        "6♥ 6♠ 5♦ 4♠ 2♥"]


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_a_nine_hand_showdown_with_the_longest_names_fits_one_field(code):
    """Nine hands that all need kickers, nine names of 24 wide letters: every line whole
    within a field (kickers left out if they would not fit), and a poker five within a field
    name."""
    hands = {seat: parse(hand) for seat, hand in enumerate(NINE)}
    assert len({c for h in hands.values() for c in h}) == 45
    values = [hand_value(h) for h in hands.values()]
    assert all(kickers_deciding(v, [o for o in values if o != v]) for v in values)
    text = render.showdown(table_info(code, [LONGEST_NAME] * 9), [ev.Showdown(hands=hands,
                                                                              descriptions={})])
    assert len(text) <= FIELD_VALUE_MAX
    lines = text.split("\n")
    assert len(lines) == 9 and all(LONGEST_NAME in line for line in lines)
    names = render.named_hands(LANGUAGES[code], hands, kickers=False)
    assert all(plain(names[seat]) in plain(line) for seat, line in enumerate(lines))
    if code == "en":  # kickers left out only where the lines would not fit
        assert "Ace high, kickers queen, ten, seven, two" in text
    for hand in NINE:
        assert len(LANGUAGES[code].t("tripoli.field.poker_five",
                                     hand=render.poker_hand(LANGUAGES[code], parse(hand))
                                     )) <= FIELD_NAME_MAX


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_deal_summary_names_the_hand_that_won_the_pot(code):
    """The Italian preset's automatic showdown: at the end of the deal, its log (cut to its
    last events and the deal's summary events) still holds the showdown, and the summary's
    pot line names the winner's hand as the Showdown field does."""
    adapter = GAMES["tripoli"]
    names = ["Ann", "Ben", "Cy", "Di"]
    game = adapter.new_game({"preset": "italian"}, 4, b"pot line", 100)
    rng = random.Random(3)
    while not game.between_deals:
        seat = min(game.to_act)
        game.apply(seat, adapter.ai_action(game, seat, rng))
    log = game.public_view().log
    assert not any(isinstance(e, ev.AntesPosted) for e in log)  # the log was cut
    shown = next(e for e in log if isinstance(e, ev.Showdown))
    won = [e for e in log if isinstance(e, ev.PotWon)]
    assert won and all(e.seat in shown.hands for e in won)
    lang = LANGUAGES[code]
    summary = adapter.deal_summary(table_info(code, names), game)
    hands = render.named_hands(lang, shown.hands)
    for pot in won:
        line = lang.t("tripoli.log.pot_won_with", name=names[pot.seat],
                      chips=render.chips(lang, pot.chips), hand=hands[pot.seat])
        assert line in summary.lines
    if code == "en":
        values = {seat: hand_value(hand) for seat, hand in shown.hands.items()}
        best = won[0].seat
        kickers = kickers_deciding(values[best], [v for s, v in values.items() if s != best])
        assert f"{names[best]} wins {won[0].chips} chips from the pot: " \
               f"{describe(values[best], kickers)}." in summary.lines


def test_a_pot_won_uncontested_names_no_hand():
    event = ev.PotWon(seat=1, chips=5, uncontested=True)
    log = [ev.Showdown(hands={0: parse("A♣ A♦ K♥ 9♠ 4♣")}, descriptions={}), event]
    assert render._winning_hand(ENGLISH, log, event) == ""
    contested = ev.PotWon(seat=0, chips=5)
    assert render._winning_hand(ENGLISH, [*log[:1], contested], contested) == "Pair of aces"
