"""Troefcall's board and hands within Discord's limits, and what each of them shows.

Random games (AI and random-legal play, the longest display names Discord allows, targets
and numbers of hands) are rendered after every action: the board and every seat's private
view fit Discord's limits and their custom_ids round-trip. Then built positions: the caller's
five cards and suit buttons before trumps, legal cards only enabled, the redeal claim, the kap
partij buttons of the two seats that may stop, the result announcement and the winner.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from bot.games.troefcall import TroefcallAdapter
from bot.i18n import ENGLISH, LANGUAGES, Msg
from bot.render import common, summary
from bot.render import troefcall as render
from bot.runtime.refs import Ref, Refusal
from bot.runtime.spec import Rendered
from bot.runtime.table import Seat, Table
from engine.cards import Card, Rank, Suit
from engine.core import EndReason
from engine.troefcall.ai import choose, random_legal
from engine.troefcall.game import TroefcallGame
from engine.troefcall.phases import Phase
from engine.troefcall.rules import TroefcallRules

ADAPTER = TroefcallAdapter()
LONG_NAMES = [
    "𝕷𝖔𝖓𝖌 **bold** _name_ ~~with~~ `code` " * 3,
    "W" * 32,
    "🃏" * 32,
    "a name with > quotes and || spoilers || and @everyone",
]


def table_of(game: TroefcallGame, rng: random.Random, options: dict | None = None) -> Table:
    table = Table(id="tc1234", game_name="troefcall", guild_id=1, channel_id=2, host_id=100,
                  buy_in=100, options=options or {})
    table.seats = [Seat(100 + i, rng.choice(LONG_NAMES), team=i % 2) for i in range(4)]
    if rng.random() < 0.5:
        table.seats[3] = Seat(None, "AI 1", ai=True, team=1)
    for i in range(4):
        table.note(f"{rng.choice(LONG_NAMES)} did something {i}")
    table.game = game
    table.seed = b"seed" * 8
    return table


def board_of(table: Table) -> Rendered:
    return summary.board(ADAPTER, table.info(ADAPTER.spec), table.game, None)


def hand_of(table: Table, seat: int) -> Rendered:
    return ADAPTER.hand(table.info(ADAPTER.spec), table.game, seat)


def check(rendered: Rendered, table: Table) -> None:
    assert common.limit_problems(rendered) == []
    if rendered.view is None:
        return
    for row in rendered.view.to_components():
        for child in row["components"]:
            if re.fullmatch(summary.RECORD_TEMPLATE, child["custom_id"]):
                continue  # "My record" names the game, not the table
            ref = Ref.parse(child["custom_id"], "pl")
            assert ref is not None and ref.table == table.id
            assert ref.custom_id("pl") == child["custom_id"]


def labels(rendered: Rendered) -> list[str]:
    if rendered.view is None:
        return []
    return [child.get("label") or "" for row in rendered.view.to_components()
            for child in row["components"]]


def enabled(rendered: Rendered) -> list[str]:
    assert rendered.view is not None
    return [child["label"] for row in rendered.view.to_components()
            for child in row["components"] if not child.get("disabled")]


def text(rendered: Rendered) -> str:
    embed = rendered.embed
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    return "\n".join(parts + [f"{f.name}\n{f.value}" for f in embed.fields])


@pytest.mark.parametrize("seed", range(6))
def test_boards_and_hands_fit_discord_through_random_games(seed):
    rng = random.Random(seed)
    options = rng.choice([{}, {"target": 5}, {"deals": 3}, {"target": 50}])
    game = ADAPTER.new_game(options, 4, bytes([seed]) * 32, 100)
    table = table_of(game, rng, options)
    steps = 0
    while not game.is_over:
        for seat in range(4):
            check(hand_of(table, seat), table)
        check(board_of(table), table)
        if game.between_deals:
            game.start_deal()
            continue
        pending = [p for p in game.pending() if p.required]
        seat = pending[0].seat
        options_now = game.legal_actions(seat)
        smart = seat % 2 == 0 or seed % 2
        action = choose(game.view(seat), options_now, rng) if smart else \
            random_legal(options_now, rng)
        game.apply(seat, action or random_legal(options_now, rng))
        steps += 1
    final = board_of(table)
    check(final, table)
    assert labels(final) == ["Rematch", "My record"]
    assert common.hex_groups(table.seed.hex()) in (final.embed.footer.text or "")
    assert f"{('Team A', 'Team B')[game.winner]} wins" in text(final)
    assert steps > 20


def test_before_trumps_the_caller_sees_five_cards_and_four_suits_the_others_nothing():
    game = TroefcallGame.new(TroefcallRules(), 4, b"render-naming")
    table = table_of(game, random.Random(1))
    caller = hand_of(table, game.caller)
    assert sorted(labels(caller)) == sorted(f"Trumps: {render.suit_name(ENGLISH, s)}" for s in Suit)
    for c in game.hands[game.caller]:
        assert common.card(c) in caller.embed.description
    assert caller.embed.description.count("**") == 2 * 5
    for seat in set(range(4)) - {game.caller}:
        other = hand_of(table, seat)
        assert other.view is None and other.embed.description == "No cards yet."
    board = text(board_of(table))
    assert "Naming trumps" in board and "Jack search" in board
    assert "not named yet" in board


def test_only_legal_cards_are_enabled_and_the_hand_shows_every_card():
    rng = random.Random(2)
    game = TroefcallGame.new(TroefcallRules(), 4, b"render-play")
    game.apply(game.caller, game.timeout_action(game.caller))
    for _ in range(2):  # two cards of trick 1
        seat = game.turn
        game.apply(seat, game.timeout_action(seat))
    table = table_of(game, rng)
    seat = game.turn
    rendered = hand_of(table, seat)
    legal = {common.card_label(c) for c in game.legal_actions(seat)[0].cards}
    assert set(enabled(rendered)) == legal
    assert len(labels(rendered)) == 13
    assert "Trick 1" in text(rendered) and "follow" in text(rendered)
    waiting = hand_of(table, (seat + 1) % 4)
    assert waiting.view is None and "waiting for" in text(waiting)


def court_less_position() -> TroefcallGame:
    """The caller (seat 1) holds no K, Q or J before his opening lead (§2.5)."""
    plain = [c for c in range(52) if Card(c).rank not in (Rank.KING, Rank.QUEEN, Rank.JACK)]
    courts = [c for c in range(52) if c not in plain]
    rest = plain[13:] + courts
    hands = {1: plain[:13], 0: rest[:13], 2: rest[13:26], 3: rest[26:39]}
    return TroefcallGame.from_position(caller=1, trump=Suit.SPADES, hands=hands)


def test_the_redeal_claim_is_only_the_court_less_callers():
    game = court_less_position()
    table = table_of(game, random.Random(3))
    caller = hand_of(table, 1)
    assert "Show hand and redeal (no K, Q or J)" in labels(caller)
    assert "claim a redeal" in text(caller)
    for seat in (0, 2, 3):
        assert not any("redeal" in label for label in labels(hand_of(table, seat)))
    game.apply(1, ADAPTER.action(game, 1, "redeal", "", (), None))
    assert game.phase is Phase.NAMING and game.deal_number == 2
    assert "claims a redeal" in text(board_of(table))


def kap_position() -> TroefcallGame:
    deck = list(range(52))
    random.Random(4).shuffle(deck)
    hands = {seat: deck[seat * 6:(seat + 1) * 6] for seat in range(4)}
    return TroefcallGame.from_position(caller=1, trump=Suit.HEARTS, hands=hands,
                                       history=[0, 2, 0, 0, 2, 2, 2], scores=(3, 1))


def test_kap_partij_buttons_for_the_trick_7_winner_and_his_partner_only():
    game = kap_position()
    table = table_of(game, random.Random(5))
    winner, partner = hand_of(table, 2), hand_of(table, 0)
    assert "Kap partij (stop: 5 points)" in labels(winner) and len(enabled(winner)) == 7
    assert labels(partner) == ["Kap partij (stop: 2 points)"]
    for seat in (1, 3):
        assert hand_of(table, seat).view is None
    board = text(board_of(table))
    assert "Kap partij?" in board and "Team A won the first seven tricks." in board
    game.apply(2, ADAPTER.action(game, 2, "kap", "", (), None))
    announced = text(board_of(table))
    assert "Team A scores 5 points" in announced and "winner of trick 7" in announced
    assert "the deal passes left" in announced  # the dealer's team (A) scored


def test_the_board_shows_the_trick_the_sequence_and_a_failed_baunie():
    game = kap_position()
    table = table_of(game, random.Random(6))
    lead = game.legal_actions(2)[0].cards[0]
    game.apply(2, ADAPTER.action(game, 2, "play", str(int(lead)), (), None))
    board = text(board_of(table))
    assert "Trick 8" in board and common.card(lead) in board
    assert "Winners by trick: A A A A A A A" in board and "won the first seven" in board
    assert "plays for all thirteen tricks (baunie)" in board
    while game.phase is Phase.PLAY:
        seat = game.turn
        game.apply(seat, random_legal(game.legal_actions(seat), random.Random(seat)))
    result = game.results[-1]
    if result.reason == "failed_baunie":
        assert "Team B scores 2 points" in text(board_of(table))
        assert "played on for all thirteen and lost trick" in text(board_of(table))
    else:
        assert "all thirteen tricks (baunie)" in text(board_of(table))


def test_unknown_controls_and_cards_are_refused():
    game = kap_position()
    for verb, arg in (("trump", "x"), ("play", "99"), ("play", "ab"), ("bet", "")):
        with pytest.raises(Refusal):
            ADAPTER.action(game, 2, verb, arg, (), None)


def test_options_are_checked_and_described():
    for bad in ({"target": 10, "deals": 3}, {"teams": "mixed"}, {"deals": 0}):
        with pytest.raises(ValueError):
            ADAPTER.check_options(bad)
        assert "cannot be played" in ADAPTER.describe_options(bad)
    assert ADAPTER.rules({}).target == 15
    assert ADAPTER.rules({"deals": 4, "turn_seconds": 30}) == TroefcallRules(deals=4)
    assert "first team to 20 points" in ADAPTER.describe_options({"target": 20}).lower()
    assert "drawn at Start" in ADAPTER.describe_options({"teams": "random"})
    assert ADAPTER.arrange([], {"teams": "choose"}, b"x") is None
    drawn = ADAPTER.arrange([], {"teams": "random"}, b"x")
    assert sorted(drawn) == [0, 1, 2, 3]
    card = ADAPTER.rules_card({"deals": 5}, "Table x.", 100)
    assert common.limit_problems(card) == []
    assert "5 hands" in card.embed.description
    for field in card.embed.fields:
        assert "§" not in field.value and ".md" not in field.value


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_a_tie_at_the_agreed_length_tells_the_board_one_more_hand_decides(code):
    rng = random.Random(7)
    game = ADAPTER.new_game({"minutes": 30}, 4, bytes(32), 100)
    table = table_of(game, rng, {"minutes": 30})
    while not game.between_deals:
        seat = next(p.seat for p in game.pending() if p.required)
        game.apply(seat, choose(game.view(seat), game.legal_actions(seat), rng))
    game.scores = [max(game.scores)] * 2  # the hand left the teams level
    game.end_session(reason=EndReason.LENGTH)
    lang = LANGUAGES[code]
    info = replace(table.info(ADAPTER.spec), lang=lang)
    board = summary.board(ADAPTER, info, game, None)
    line = lang.t("troefcall.log.tie_break",
                  points=Msg("troefcall.points", count=game.scores[0]))
    assert not game.is_over and line in text(board)
    assert common.limit_problems(board) == []
