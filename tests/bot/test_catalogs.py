"""The message catalogs (bot/i18n/locales): every language has every English message with the
same placeholders and its plural forms; the Language object's digits, isolates and fallback."""

from __future__ import annotations

import pytest

from bot.i18n import ENGLISH, LANGUAGES, Msg, language
from bot.i18n.catalogs import catalog
from bot.i18n.language import isolated, placeholders

OTHERS = [code for code in LANGUAGES if code != "en"]


def messages(code: str, domain: str = "messages") -> dict[str, tuple[str, ...]]:
    """Message id -> its text(s) (one per plural form)."""
    found = {}
    for message in catalog(code, domain):
        if not message.id:
            continue
        key = message.id[0] if message.pluralizable else message.id
        texts = message.string if message.pluralizable else (message.string,)
        found[key] = tuple(texts)
    return found


def test_english_is_complete_and_well_formed():
    english = messages("en")
    assert len(english) > 50
    for key, texts in english.items():
        assert all(texts), f"{key}: empty English text"
        for text in texts:
            placeholders(text)  # raises on an unpaired brace


@pytest.mark.parametrize("code", OTHERS)
def test_every_language_has_every_message_and_no_other(code):
    english, translated = messages("en"), messages(code)
    assert sorted(set(english) - set(translated)) == [], "missing"
    assert sorted(set(translated) - set(english)) == [], "extra (not in English)"
    empty = [key for key, texts in translated.items() if not all(texts)]
    assert empty == [], "untranslated"


@pytest.mark.parametrize("code", OTHERS)
def test_placeholders_are_the_same_as_in_english(code):
    english, translated = messages("en"), messages(code)
    wrong = {}
    for key, texts in translated.items():
        wanted = set().union(*(placeholders(text) for text in english[key]))
        for text in texts:
            # a plural form may leave out {count} (Persian writes one form for all)
            got = placeholders(text)
            if got - wanted or wanted - got - {"count"}:
                wrong[key] = (sorted(wanted), sorted(got))
    assert wrong == {}


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_plural_messages_have_every_plural_form(code):
    cat = catalog(code)
    forms = {key: texts for key, texts in messages(code).items()
             if cat.get(key) is not None and cat.get(key).pluralizable}
    assert forms, "no plural message"
    assert {key: len(texts) for key, texts in forms.items() if len(texts) != cat.num_plurals} == {}
    plural_in_english = {key for key in messages("en") if catalog("en").get(key).pluralizable}
    assert set(forms) == plural_in_english


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_message_renders_with_values(code):
    lang = LANGUAGES[code]
    for key, texts in messages("en").items():
        values = {name: 3 for text in texts for name in placeholders(text)}
        assert lang.t(key, **values)


def test_plural_forms_follow_the_count():
    assert ENGLISH.t("note.left_with", name="Ann", count=1) == "Ann left with 1 chip."
    assert ENGLISH.t("note.left_with", name="Ann", count=7) == "Ann left with 7 chips."
    assert LANGUAGES["it"].t("note.left_with", name="Ann", count=1) == "Ann è uscito con 1 fiche."
    assert LANGUAGES["nl"].t("note.left_with", name="Ann", count=2).endswith("2 fiches.")


def test_persian_numbers_are_persian_digits_and_placeholders_are_isolated():
    persian = LANGUAGES["fa"]
    assert persian.rtl and not ENGLISH.rtl
    assert persian.number(1203) == "۱۲۰۳" and ENGLISH.number(1203) == "1203"
    text = persian.t("note.left_with", name="Ann", count=25)
    assert "\u2068Ann\u2069" in text and " ۲۵ " in text and "25" not in text
    assert text.startswith("\u2067") and isolated(text)  # the line, right to left
    lines = persian.t("help.commands").split("\n")
    assert len(lines) > 1 and all(line.startswith("\u2067") and isolated(line) for line in lines)
    assert persian.ltr("c0ffee") == "\u2066c0ffee\u2069" and ENGLISH.ltr("c0ffee") == "c0ffee"
    assert ENGLISH.t("note.left_with", name="Ann", count=25) == "Ann left with 25 chips."


def test_a_kept_message_is_shown_in_each_language_and_survives_json():
    note = Msg("note.sat_down_team", name="Bo", team=Msg("game.troefcall.team.1"))
    assert Msg.load(note.dump()) == note
    assert ENGLISH.t(note) == "Bo sat down in Team B."
    assert LANGUAGES["it"].t(note) == "Bo si è seduto in Squadra B."
    assert ENGLISH.t(Msg.load("An old note.")) == "An old note."


def test_languages_by_code_and_discord_locale():
    assert language("fa") is LANGUAGES["fa"]
    assert language("it") is LANGUAGES["it"] and language("nl") is LANGUAGES["nl"]
    assert language("en-GB") is ENGLISH and language("pt-BR") is ENGLISH
    assert language(None) is ENGLISH
    assert [LANGUAGES[c].name for c in ("fa", "it", "nl")] == ["فارسی", "italiano", "Nederlands"]


def test_an_ai_seat_in_a_note_is_named_in_each_readers_language():
    from bot.render.common import note_name

    note = Msg("note.timed_out", name=note_name(None, "AI 2"))
    assert ENGLISH.t(note) == "AI 2 ran out of time."
    assert LANGUAGES["it"].t(Msg.load(note.dump())) == "IA 2 ha esaurito il tempo."
    assert note_name(7, "AI 1") == "AI 1"  # a member who calls himself so stays himself


def test_an_engine_refusal_with_a_reason_is_shown_in_the_readers_language():
    from bot.runtime.refs import Refusal
    from engine.core import IllegalAction

    refusal = Refusal.of(IllegalAction("stale", "That decision is over.", reason="stale"))
    assert refusal.code == "stale" and refusal.message == "That decision is over."
    assert refusal.text(LANGUAGES["nl"]) == "Die beslissing is voorbij."
    plain = Refusal.of(IllegalAction("illegal", "Bet 1-10 chips."))  # no reason yet: English
    assert plain.text(LANGUAGES["it"]) == "Bet 1-10 chips."


@pytest.mark.parametrize("code, needs, has", [
    ("en", "5,000", "1,000"), ("it", "5.000", "1.000"), ("nl", "5.000", "1.000"),
    ("fa", "۵٬۰۰۰", "۱٬۰۰۰")])
def test_numbers_are_grouped_as_the_language_groups_them(code, needs, has):
    """Tryout #9: the buy-in's refusal and lobby wrote "5000" (every chip amount elsewhere
    "5,000"); an int placeholder is written grouped, also in a Msg kept for later."""
    lang = LANGUAGES[code]
    refusal = lang.t(Msg("refusal.short_of_chips", name="Ann", count=5000, balance=1000))
    assert needs in refusal and has in refusal
    assert needs in lang.t("lobby.ranked_buy_in", count=5000)


@pytest.mark.parametrize("code, plain", [
    ("en", "1,250"), ("it", "1.250"), ("nl", "1.250"), ("fa", "۱٬۲۵۰")])
def test_a_number_written_again_is_written_the_same_whatever_its_sign(code, plain):
    """grouped() keeps the digits of each size it wrote; the sign is added each time."""
    lang = LANGUAGES[code]
    seen = [lang.grouped(1250), lang.grouped(-1250), lang.grouped(1250, signed=True),
            lang.grouped(-1250, signed=True), lang.grouped(1250)]
    assert seen == [plain, f"-{plain}", f"+{plain}", f"-{plain}", plain]
    assert lang.grouped(0, signed=True) == f"+{lang.number(0)}"
