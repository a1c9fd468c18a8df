"""Kalooki boards and hands stay within Discord's limits (case C13: 26-card hands, six
players with long melds and long names) and the hand pages keep every card selectable."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from ai_step import ai_step
from refusals import persian_refusals

from bot.games.kalooki import KalookiAdapter
from bot.i18n import LANGUAGES, Msg
from bot.render import summary
from bot.render.common import SELECT_OPTIONS_MAX, limit_problems
from bot.render.kalooki import Draft, pages
from bot.runtime.refs import UnplayableRules, unplayable_reason
from bot.runtime.spec import Note, SeatInfo, TableInfo
from engine.cards import MAX_JOKERS, Card, parse
from engine.core import SYSTEM, EndReason, OptionError
from engine.kalooki.actions import (
    Allow,
    CallDiscard,
    Challenge,
    Discard,
    Draw,
    EndTurn,
    Group,
    LayDown,
    LayOff,
    Refuse,
)
from engine.kalooki.game import KalookiGame
from engine.kalooki.phases import Phase
from engine.kalooki.rules import JAMAICAN

ADAPTER = KalookiAdapter()
LONG = "Ｗ" * 40 + " the very long display name"


def info(players: int) -> TableInfo:
    seats = tuple(SeatInfo(member_id=None if s % 2 else 100 + s, name=f"{LONG} {s}",
                           ai=bool(s % 2)) for s in range(players))
    return TableInfo(id="k4l00k", spec=ADAPTER.spec, seats=seats, host_id=100, ranked=False,
                     buy_in=0, notes=(Note(Msg("text", text="A note from the runtime " * 5)),) * 3,
                     deadlines={SYSTEM: 1.8e9, 0: 1.8e9})


def assert_fits(table: TableInfo, game: KalookiGame, rng: random.Random) -> None:
    assert limit_problems(summary.board(ADAPTER, table, game, None)) == []
    for seat in range(game.seats):
        hand = sorted(game.hands[seat])
        picked = rng.sample(hand, min(len(hand), rng.randint(0, 5)))
        draft = Draft(picked=tuple(map(int, picked)))
        assert limit_problems(ADAPTER.hand(table, game, seat, draft.dump())) == []


@pytest.mark.parametrize("preset", ["jamaican", "trinidad", "honour"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_render_within_the_limits(preset, players):
    rng = random.Random(f"{preset}/{players}")
    options = ({"preset": "trinidad", "honour_calls": True} if preset == "honour"
               else {"preset": preset})
    game = ADAPTER.new_game(options, players, f"render {players}".encode(), 0)
    table = info(players)
    declined: set[tuple[int, int]] = set()
    for step in range(3000):
        if game.is_over or game.deal_number > 2:
            break
        if game.between_deals:
            assert limit_problems(summary.board(ADAPTER, table, game, None)) == []
            game.start_deal()
            continue
        if step % 7 == 0:
            assert_fits(table, game, rng)
        todo = [p for p in game.pending() if p.seat != SYSTEM
                and (p.seat, p.decision) not in declined]
        if not todo:
            game.apply(SYSTEM, game.timeout_action(SYSTEM))
            continue
        pending = todo[0]
        action = ADAPTER.ai_action(game, pending.seat, rng)
        if action is None:
            declined.add((pending.seat, pending.decision))
            continue
        game.apply(pending.seat, action, pending.decision)
    assert game.deal_number >= 2


def test_a_26_card_hand_and_six_players_with_long_melds_fit():
    """C13: seat 0 holds 26 cards (pages of at most 25, every card on one page); five other
    players each own long threes and fours."""
    ids = list(range(108))
    rng = random.Random(13)
    hand0 = [c for c in ids if Card(c).is_joker or Card(c).suit == 2][:26]  # hearts + jokers
    melds = []
    taken = set(hand0)
    for owner in range(1, 6):
        for rank in range(2, 4):  # threes of two ranks with both copies of three suits
            three = [c for c in ids if c not in taken and not Card(c).is_joker
                     and int(Card(c).rank) == rank + 2 * owner and Card(c).suit != 2][:6]
            taken |= set(three)
            melds.append((owner, "three", three))
    rest = [c for c in ids if c not in taken]
    game = KalookiGame.from_position(JAMAICAN, hands={0: hand0, 1: rest[:3], 2: rest[3:6],
                                                      3: rest[6:9], 4: rest[9:12],
                                                      5: rest[12:15]},
                                     seats=6, turn=0, phase=Phase.PLAY, deal_number=9,
                                     melds=melds, discard=rest[15:20], laid_down=range(6))
    table = info(6)
    book = pages(Draft().free(game.hands[0]))
    assert sum(len(p) for p in book) == 26 and all(len(p) <= SELECT_OPTIONS_MAX for p in book)
    for page in range(len(book)):
        draft = Draft(picked=tuple(int(c) for c in book[page][:3]), page=page,
                      groups=(("four", tuple(int(c) for c in book[-1][-4:])),))
        rendered = ADAPTER.hand(table, game, 0, draft.dump())
        assert limit_problems(rendered) == []
    assert limit_problems(summary.board(ADAPTER, table, game, None)) == []
    assert_fits(table, game, rng)


def test_calls_on_honour_are_a_trinidad_option_the_rules_card_explains():
    assert ADAPTER.rules({"preset": "trinidad", "honour_calls": True}).challenges
    assert not ADAPTER.rules({"preset": "trinidad"}).challenges
    with pytest.raises(ValueError, match="Trinidad rule"):
        ADAPTER.check_options({"preset": "jamaican", "honour_calls": True})
    honour = ADAPTER.rules_card({"preset": "trinidad", "honour_calls": True}, "A table.", 0)
    text = str(honour.embed.to_dict())
    assert "calls on honour" in text and "more than 18 cards" in text
    plain = str(ADAPTER.rules_card({"preset": "trinidad"}, "A table.", 0).embed.to_dict())
    assert "there is no challenge" in plain
    assert "challenge" not in str(ADAPTER.rules_card({}, "A table.", 0).embed.to_dict())
    assert "over-callers may be challenged" in ADAPTER.describe_options(
        {"preset": "trinidad", "honour_calls": True})


def test_a_challenge_on_the_board_and_hands_in_persian_within_the_limits():
    game = ADAPTER.new_game({"preset": "trinidad", "honour_calls": True}, 6, b"fa", 0)
    while game.phase is not Phase.DRAW:
        game.apply(SYSTEM, game.timeout_action(SYSTEM))
    challenger = game.turn
    target = (challenger + 1) % 6
    game.apply(challenger, Challenge(seat=target))  # wrong: 12 cards against 18
    table = replace(info(6), lang=LANGUAGES["fa"])
    board = ADAPTER.board(table, game)
    assert limit_problems(board) == []
    text = str(board.embed.to_dict())
    assert "کنار نشسته" in text and "نادرست" in text  # sits out; the challenge was wrong
    out = ADAPTER.hand(table, game, challenger)
    assert limit_problems(out) == [] and "دوباره بازی" in str(out.embed.to_dict())
    now = ADAPTER.hand(table, game, game.turn)
    assert "متهم کردن" in str(now.view.to_components())  # the Challenge buttons


def test_the_final_board_of_six_players_with_long_names_fits():
    game = ADAPTER.new_game({}, 6, b"final six", 0)
    rng = random.Random(6)
    while not game.between_deals:  # one deal by the AI, so the six totals differ
        todo = [p for p in game.pending() if p.seat != SYSTEM and p.required]
        if todo:
            game.apply(todo[0].seat, ADAPTER.ai_action(game, todo[0].seat, rng))
        else:
            game.apply(SYSTEM, game.timeout_action(SYSTEM))
    game.end_session()
    assert game.is_over and game.outcome is not None and len(game.outcome.places) > 1
    table = info(6)
    note = summary.RatingNote(tuple((seat, -12.345 * seat, 31.25 * seat) for seat in range(6)))
    rendered = summary.board(ADAPTER, table, game, note)
    assert limit_problems(rendered) == []
    fields = {f.name: f.value for f in rendered.embed.fields}
    assert fields["Ratings (μ − 3σ)"].count("→") == 6
    assert fields["Final standings"].count("penalty point") == len(game.outcome.places)
    assert fields["Deal 1"].count("ＷＷＷ") >= 6
    persian = summary.board(ADAPTER, replace(table, lang=LANGUAGES["fa"]), game, note)
    assert limit_problems(persian) == []
    assert persian.embed.fields[0].name == LANGUAGES["fa"].t("summary.final_standings")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("reason", list(EndReason))
def test_a_set_ended_between_deals_says_whether_the_lowest_total_won(lang, reason):
    game = ADAPTER.new_game({}, 3, b"ended early", 0)
    declined: set[tuple[int, int]] = set()
    rng = random.Random(3)
    while not game.between_deals:  # deal 1 of 9, by the AI
        ai_step(ADAPTER, game, declined, rng)
    game.end_session(reason=reason)
    language = LANGUAGES[lang]
    embed = ADAPTER.board(replace(info(3), lang=language), game).embed
    text = " ".join([embed.description or "", *(field.value for field in embed.fields)])
    complete = reason is EndReason.LENGTH
    assert game.outcome.complete is complete
    shown = {key: language.t(key) in text for key in (
        "kalooki.status.over", "kalooki.status.over_early", "kalooki.log.set_ended")}
    assert shown == {"kalooki.status.over": complete, "kalooki.status.over_early": not complete,
                     "kalooki.log.set_ended": not complete}


def test_a_pack_set_is_an_option_the_lobby_and_rules_card_name():
    rules = ADAPTER.rules({"packs": 3, "jokers": 8})
    assert (rules.packs, rules.jokers, rules.cards) == (3, 8, 164)
    assert "3 packs and 8 jokers: 164 cards." in ADAPTER.describe_options({"packs": 3,
                                                                           "jokers": 8})
    assert "packs" not in ADAPTER.describe_options({})  # the 108 cards go unsaid
    card = str(ADAPTER.rules_card({"jokers": 6}, "A table.", 0).embed.to_dict())
    assert "110 cards (2 packs of 52 and 6 jokers)" in card
    with pytest.raises(OptionError) as refused:
        ADAPTER.check_options({"jokers": 3})
    english = LANGUAGES["en"].t(unplayable_reason(refused.value))
    assert english == f"`jokers` is a whole number from 4 to {MAX_JOKERS}"
    assert "cannot be played (`packs` is a whole number from 2 to 8)" in \
        ADAPTER.describe_options({"packs": 9})
    italian = ADAPTER.describe_options({"packs": 9}, LANGUAGES["it"])
    assert "(`mazzi` è un numero intero da 2 a 8)" in italian  # the option as Italian lists it


def test_six_players_with_three_packs_render_within_the_limits():
    rng = random.Random("packs")
    game = ADAPTER.new_game({"packs": 3, "jokers": 8}, 6, b"three packs", 0)
    assert any(c >= 108 for h in game.hands for c in h)  # the third pack is dealt
    table = info(6)
    declined: set[tuple[int, int]] = set()
    for step in range(600):
        if game.between_deals or game.is_over:
            break
        if step % 9 == 0:
            assert_fits(table, game, rng)
        ai_step(ADAPTER, game, declined, rng)
    assert game.between_deals  # the deal ended
    assert limit_problems(summary.board(ADAPTER, table, game, None)) == []


def test_kalooki_refusals_name_their_sentence_and_read_in_persian():
    """Every engine refusal of a deal's first turns has a catalog reason, and its Persian
    sentence holds no English word (only card codes and combination ids stay Latin)."""
    game = ADAPTER.new_game({}, 3, b"refusals in persian", 0)
    if game.between_deals:
        game.start_deal()
    hand = sorted(game.hands[game.turn])
    attempts = [Draw(source="stock"), Draw(source="discard"), CallDiscard(), Allow(), Refuse(),
                Discard(card=hand[0]), EndTurn(), LayOff(meld="m9", card=hand[0]),
                LayDown(groups=(Group(kind="four", cards=tuple(hand[:4])),)),
                LayDown(groups=(Group(kind="three", cards=tuple(hand[:2])),))]
    reasons = persian_refusals(game, attempts)
    assert len(reasons) >= 4, reasons


def test_options_that_cannot_be_played_are_refused_in_the_readers_language():
    with pytest.raises(UnplayableRules) as refused:
        ADAPTER.rules({"preset": "jamaican", "honour_calls": True})
    assert str(refused.value) == "calls on honour (and the challenge) are a Trinidad rule"
    why = unplayable_reason(refused.value)
    assert "ترینیداد" in LANGUAGES["fa"].t(why) and "Trinidad" in LANGUAGES["it"].t(why)
    line = ADAPTER.describe_options({"preset": "jamaican", "honour_calls": True}, LANGUAGES["nl"])
    assert line.startswith("Met deze regels kan niet gespeeld worden (roepen op erewoord")


@pytest.mark.parametrize("preset", ["jamaican", "trinidad"])
def test_a_down_and_out_deal_says_the_others_penalties_were_doubled(preset):
    """§4.8 D1: Alice goes down and out; Bob's 5♣ 5♦ 9♥ (19) scores 38 under the Jamaican
    rules, and the deal's summary says why; the Trinidad rules double nothing (T26) and say
    nothing of it."""
    from engine.kalooki.rules import PRESETS

    def cards(text: str) -> list[int]:
        return [int(c) for c in parse(text)]

    game = KalookiGame.from_position(
        PRESETS[preset], hands={0: [*cards("7S 7H 7D 9C 9D QS QH QD 3C"), 104],
                                1: cards("5C 5D 9H"), 2: cards("TS 2D")},
        dealer=2, turn=0, phase=Phase.PLAY)
    threes = (cards("7S 7H 7D"), [*cards("9C 9D"), 104], cards("QS QH QD"))
    game.apply(0, LayDown(groups=tuple(Group(kind="three", cards=tuple(map(Card, c)))
                                       for c in threes)))  # a contract, or more (K14)
    game.apply(0, Discard(card=Card(cards("3C")[0])))
    doubled = PRESETS[preset].down_and_out == "double"
    assert game.totals[1] == 19 * (2 if doubled else 1)
    table = info(3)
    for code, lang in LANGUAGES.items():
        lines = ADAPTER.deal_summary(replace(table, lang=lang), game).lines
        assert (lang.t("kalooki.summary.doubled") in lines) is doubled, code


def test_the_places_of_a_picked_card_page_within_the_limits_and_start_again_for_another():
    """A joker fitting 30 combinations (Jamaican: each at its top, §2.9 items 47-50): two
    pages of places within the limits in every language; a page the card has not is refused,
    and picking another card shows its places from their first page."""
    from bot.runtime.refs import Refusal

    threes = [[copy + suit * 13 + rank for suit in range(3)]
              for rank in range(12) for copy in (0, 52)]
    fours = [[copy + 39 + low + i for i in range(4)] for copy in (0, 52) for low in (0, 4, 8)]
    melds = [(1 + i % 3, kind, cs) for kind, group in (("three", threes), ("four", fours))
             for i, cs in enumerate(group)]
    game = KalookiGame.from_position(JAMAICAN, hands={0: [104, 105, 12], 1: [25], 2: [38],
                                                      3: [51]},
                                     dealer=3, turn=0, phase=Phase.PLAY, melds=melds,
                                     laid_down=range(4))
    draft = ADAPTER.draft(game, 0, None, "pick", "", ["104"])
    draft = ADAPTER.draft(game, 0, draft, "page", "on_1", ())
    assert Draft.load(draft, set(game.hands[0])).on_page == 1
    for lang in LANGUAGES.values():
        assert limit_problems(ADAPTER.hand(replace(info(4), lang=lang), game, 0, draft)) == []
    with pytest.raises(Refusal) as refused:
        ADAPTER.draft(game, 0, draft, "page", "on_2", ())
    assert refused.value.message == "There is no such page of combinations for this card."
    again = ADAPTER.draft(game, 0, draft, "pick", "", ["104"])  # the same card: same page
    assert Draft.load(again, set(game.hands[0])).on_page == 1
    other = ADAPTER.draft(game, 0, draft, "pick", "", ["105"])  # the other joker
    assert Draft.load(other, set(game.hands[0])).on_page == 0


def test_a_hand_of_only_jokers_shows_its_picker_and_the_end_turn_button():
    """rules/kalooki.md K8: a laid-down player holding only jokers ends the turn without a
    discard. Its "End turn" button shared row 0 with the card picker, which the button row
    cannot hold, so the hand did not render at all."""
    game = KalookiGame.from_position(JAMAICAN, hands={0: [104, 105], 1: [2, 3, 4],
                                                      2: [5, 6, 7]},
                                     dealer=2, turn=0, phase=Phase.PLAY,
                                     melds=[(0, "three", [0, 13, 26])], laid_down=[0])
    rendered = ADAPTER.hand(info(3), game, 0, None)
    assert limit_problems(rendered) == []
    controls = {getattr(item, "label", None) or item.placeholder for item in rendered.view.children}
    assert {"End turn (jokers only)", "Pick cards for a combination"} <= controls


def test_a_hand_of_only_jokers_is_told_to_end_the_turn_not_to_discard():
    """rules/kalooki.md K8: jokers cannot be discarded, so a hand of only jokers ends its
    turn with End turn; its "Now" line said "End with a discard", which no control did."""
    game = KalookiGame.from_position(JAMAICAN, hands={0: [104, 105], 1: [2, 3, 4],
                                                      2: [5, 6, 7]},
                                     dealer=2, turn=0, phase=Phase.PLAY,
                                     melds=[(0, "three", [0, 13, 26])], laid_down=[0])
    now = ADAPTER.hand(info(3), game, 0, None).embed.fields[-1]
    assert now.name == "Now"
    assert "End with a discard" not in now.value
    assert now.value.endswith("press **End turn (jokers only)**.")
