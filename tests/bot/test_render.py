"""Rendering within Discord's limits (DESIGN.md §6, case C13) and custom_id round trips.

Random Tripoli sessions (2 to 9 seats, every preset of rules/tripoli.md §3.2, the longest
display names Discord allows, with Markdown and emoji) are played by the AI through a deal and
the leftover round; after every action the board and every seat's private view are rendered
and checked. Then what the board says under the presets: its spaces and their meaning, the
dial and the named pay suit, every auction item, the suit buttons, and the rules card.
"""

from __future__ import annotations

import random
import re

import discord
import pytest
from refusals import persian_refusals

from bot.games.tripoli import TripoliAdapter
from bot.i18n import ENGLISH, LANGUAGES
from bot.render import common, summary
from bot.render import tripoli as render
from bot.runtime.refs import Ref, Refusal, template
from bot.runtime.spec import Rendered
from bot.runtime.table import Seat, Table, TableState
from engine.cards import Card, Suit, parse_card
from engine.tripoli import actions as act
from engine.tripoli.phases import Phase
from engine.tripoli.rules import PRESETS, describe_differences, make_rules

ADAPTER = TripoliAdapter()


def board_of(table: Table) -> Rendered:
    """The board as the runtime renders it: from the table's frozen info and the game."""
    return summary.board(ADAPTER, table.info(ADAPTER.spec_for(table.options)), table.game, None)


def hand_of(table: Table, seat: int) -> Rendered:
    return ADAPTER.hand(table.info(ADAPTER.spec_for(table.options)), table.game, seat)
LONG_NAMES = [
    "𝕷𝖔𝖓𝖌 **bold** _name_ ~~with~~ `code` " * 3,
    "W" * 32,
    "🃏" * 32,
    "a name with > quotes and || spoilers || and @everyone",
]


def table_of(seats: int, rng: random.Random, preset: str = "classic") -> Table:
    table = Table(id="abc123", game_name="tripoli", guild_id=1, channel_id=2, host_id=100,
                  buy_in=rng.choice([30, 100, 1_000_000]),
                  options={"preset": preset, "bet_limit": rng.choice([1, 10, 1000]),
                           "ante": rng.choice([1, 2])})
    table.seats = [Seat(100 + i, rng.choice(LONG_NAMES)) for i in range(seats)]
    if rng.random() < 0.5:
        table.seats[-1] = Seat(None, "AI 1", ai=True)
    for i in range(4):
        table.note(f"{rng.choice(LONG_NAMES)} did something {i}")
    return table


def check(rendered: Rendered, table: Table) -> None:
    assert common.limit_problems(rendered) == []
    if rendered.view is None:
        return
    for row in rendered.view.to_components():
        for child in row["components"]:
            custom_id = child["custom_id"]
            if re.fullmatch(summary.RECORD_TEMPLATE, custom_id):
                continue  # "My record" names the game, not the table
            prefix = "ps" if child["type"] == 3 else "pl"
            ref = Ref.parse(custom_id, prefix)
            assert ref is not None and ref.table == table.id, custom_id
            assert ref.custom_id(prefix) == custom_id


def render_all(table: Table) -> int:
    check(board_of(table), table)
    for seat in range(len(table.seats)):
        if table.game.stacks[seat] is not None:
            check(hand_of(table, seat), table)
    return 1


def play_to_the_end(table: Table, rng: random.Random, seats: int) -> None:
    """The AI plays ``table`` through three deals and the leftover round, rendering after
    every action; a few sessions are ended early (abandoning the deal or not)."""
    table.game = ADAPTER.new_game(table.options, seats, rng.randbytes(32), table.buy_in)
    table.seed, table.state = b"s" * 32, TableState.PLAYING
    renders = render_all(table)
    ended = False
    while not table.game.is_over:
        if table.game.between_deals:
            if table.game.deal_number >= 3:
                table.game.end_session(abandon=False)
                ended = True
            else:
                table.game.start_deal()
            renders += render_all(table)
            continue
        seat = min(table.game.to_act)
        table.game.apply(seat, ADAPTER.ai_action(table.game, seat, rng))
        renders += render_all(table)
        if not ended and rng.random() < 0.005:
            table.game.end_session(abandon=rng.random() < 0.5)
            ended = True
    final = board_of(table)
    check(final, table)
    assert [c["label"] for row in final.view.to_components() for c in row["components"]] == [
        "Rematch", "My record"]
    assert common.hex_groups(table.seed.hex()) in final.embed.footer.text
    assert renders > 3, renders  # the first deal, its actions, the next deals


@pytest.mark.parametrize("seats", [2, 3, 5, 9])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_boards_and_hands_fit_discord_through_a_session(seats, seed):
    rng = random.Random(seed * 100 + seats)
    play_to_the_end(table_of(seats, rng), rng, seats)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_preset_fits_discord_through_a_session(preset, seed):
    rng = random.Random(f"{preset}{seed}")
    rules = PRESETS[preset]
    seats = rng.choice([rules.min_players, rules.max_players,
                        rng.randint(*rules.recommended_players)])
    play_to_the_end(table_of(seats, rng, preset), rng, seats)


def test_lobby_with_nine_long_names_fits():
    table = table_of(9, random.Random(7))
    rendered = common.lobby(table.info(ADAPTER.spec_for(table.options)),
                            ADAPTER.describe_options(table.options))
    check(rendered, table)
    assert "(host)" in rendered.embed.fields[0].value


@pytest.mark.parametrize("code", ["en", "fa"])
def test_fit_cuts_an_oversized_embed_to_the_limits(code):
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for i in range(30):
        embed.add_field(name=f"f{i}" * 200, value="v" * 2000)
    embed.set_footer(text="x" * 3000)
    fitted = common.fit(embed, LANGUAGES[code])
    assert common.limit_problems(Rendered(fitted)) == []
    assert len(fitted) <= 6000
    assert fitted.title.endswith("…" if code == "en" else "…\u2069")  # a Persian line closed


def test_limit_problems_reports_each_broken_limit():
    embed = discord.Embed(title="t" * 300)
    embed.add_field(name="n", value="v" * 1100)
    assert common.limit_problems(Rendered(embed)) == ["title", "field value of 'n'"]


def test_refs_round_trip_and_stay_short():
    for ref in (Ref("zzzzzz", "hand"), Ref("a1b2c3", "next", None, 123456789),
                Ref("a1b2c3", "lead", 8, 999_999_999, "51"), Ref("a1b2c3", "raise", 0, 0)):
        for prefix in ("pl", "ps", "pm"):
            text = ref.custom_id(prefix)
            assert len(text) <= 100 and Ref.parse(text, prefix) == ref
            assert Ref.parse(text, "pl" if prefix != "pl" else "ps") is None
    assert template("pl").startswith("pl:")
    with pytest.raises(ValueError):
        Ref("a1b2c3", "Bad Verb").custom_id()


# ---------------------------------------------------------------------- what the board says


def started(preset: str, seats: int = 3, seed: bytes = b"render") -> Table:
    """A table of ``seats`` short-named members playing ``preset``, its first deal dealt."""
    table = Table(id="abc123", game_name="tripoli", guild_id=1, channel_id=2, host_id=100,
                  buy_in=100, options={"preset": preset})
    table.seats = [Seat(100 + i, name) for i, name in enumerate(["Ann", "Ben", "Cy", "Di"][:seats])]
    table.game = ADAPTER.new_game(table.options, seats, seed, 100)
    table.seed, table.state = b"s" * 32, TableState.PLAYING
    return table


def field(rendered: Rendered, prefix: str) -> discord.EmbedField:
    return next(f for f in rendered.embed.fields if (f.name or "").startswith(prefix))


def button_ids(rendered: Rendered) -> list[str]:
    if rendered.view is None:
        return []
    return [c["custom_id"] for row in rendered.view.to_components() for c in row["components"]]


def play_until(table: Table, done, rng: random.Random | None = None) -> None:
    rng = rng or random.Random(5)
    for _ in range(2000):
        if done(table.game):
            return
        seat = min(table.game.to_act)
        table.game.apply(seat, ADAPTER.ai_action(table.game, seat, rng))
    raise AssertionError("never reached")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_board_shows_the_tables_own_spaces_with_what_they_pay_for(preset):
    rules = PRESETS[preset]
    table = started(preset, seats=max(3, rules.min_players) if preset != "dutch" else 4)
    board = field(board_of(table), "Board").value.replace("\ufe0e", "")
    view = table.game.public_view()
    assert list(view.space_labels) == list(rules.spaces)
    for space, label in view.space_labels.items():
        if space in rules.single_spaces:
            name = space if label == space else f"{space}→{label}"
            assert f"{name} **{view.board[space]}**" in board
        else:
            assert f"{space} **{view.board[space]}** — {label}" in board
    for space in ("KITTY", "MONTE", "POT", "SEQ"):
        assert (space in board) == (space in rules.spaces), space


def test_cosmo_board_shows_the_dial_and_the_spaces_pay_for_its_suit():
    table = started("cosmo")
    game = table.game
    rendered = board_of(table)
    title = field(rendered, "Board").name.replace("\ufe0e", "")
    seq = "-".join(str(r) for r in range(game.seq_start, game.seq_start + 3))
    seq = seq.replace("11", "J").replace("12", "Q").replace("13", "K").replace("14", "A")
    assert f"dial: pay suit {game.pay_suit.symbol}, sequence {seq}" in title
    log = field(rendered, "Log").value.replace("\ufe0e", "")
    assert f"The dial turns: pay suit {game.pay_suit.symbol}, sequence {seq}." in log
    if game.pay_suit is not Suit.HEARTS:
        assert f"A♥→A{game.pay_suit.symbol}" in field(rendered, "Board").value.replace("\ufe0e", "")


def test_pay_suit_auction_suit_buttons_and_the_named_suit():
    table = started("auction-pay-suit")
    game = table.game
    game.apply(game.dealer, act.Keep())
    assert game.phase is Phase.AUCTION and game.auction.item == "pay_suit"
    status = board_of(table).embed.description
    assert "Auction of the right to name the pay suit; the winning bid goes onto KITTY" in status
    first = min(game.to_act)
    game.apply(first, act.Bid(amount=2))
    while game.phase is Phase.AUCTION:
        game.apply(min(game.to_act), act.Pass())
    assert game.phase is Phase.NAME_SUIT and game.namer == first
    board = board_of(table)
    assert "won the auction and names the pay suit" in board.embed.description
    hand = hand_of(table, first)
    suits = [i for i in button_ids(hand) if ":name_suit:" in i]
    assert sorted(i.rsplit(":", 1)[1] for i in suits) == ["c", "d", "h", "s"]
    assert "name the pay suit" in field(hand, "Now").value
    check(hand, table)
    other = (first + 1) % 3
    assert not [i for i in button_ids(hand_of(table, other)) if ":name_suit:" in i]
    action = ADAPTER.action(game, first, "name_suit", "s", (), None)
    game.apply(first, action)
    assert game.pay_suit is Suit.SPADES
    board = board_of(table)
    assert field(board, "Board").name == "Board · pay suit ♠\ufe0e"
    assert "A♥→A♠\ufe0e" in field(board, "Board").value
    log = field(board, "Log").value
    assert f"{table.seats[first].name} wins the pay suit for 2 chips, paid onto KITTY." in log
    assert f"{table.seats[first].name} names ♠\ufe0e as the pay suit." in log


def test_an_unknown_suit_letter_is_refused():
    table = started("auction-pay-suit")
    with pytest.raises(Refusal):
        ADAPTER.action(table.game, 0, "name_suit", "x", (), None)


def test_ghost_auction_wording():
    table = started("italian-ghost-auction", seats=3)
    game = table.game
    assert game.phase is Phase.AUCTION and game.auction.item == "ghost"
    board = board_of(table)
    assert "Auction of the ghost hand; the winning bid goes onto MONTE" in board.embed.description
    assert "Bidding for the ghost hand (bids go onto MONTE)." in field(board, "Log").value
    bidder = min(game.to_act)
    assert "Bid for the ghost hand" in field(hand_of(table, bidder), "Now").value
    game.apply(bidder, act.Bid(amount=1))
    while game.phase is Phase.AUCTION:
        game.apply(min(game.to_act), act.Pass())
    log = field(board_of(table), "Log").value
    assert f"{table.seats[bidder].name} wins the ghost hand for 1 chip, paid onto MONTE." in log


def test_italian_automatic_poker_shows_the_showdown_without_betting_controls():
    table = started("italian", seats=3)
    game = table.game
    assert game.phase is Phase.MICHIGAN  # antes, pay cards and poker need no decision
    board = board_of(table)
    assert "Showdown" in [f.name for f in board.embed.fields]
    labels = [c.get("label") for row in board.view.to_components() for c in row["components"]]
    assert not {"Check", "Bet…", "Call", "Fold", "Best five"} & set(labels)
    assert " bet " not in field(board, "Players").value


def test_no_bets_or_plural_slips_after_the_showdown():
    table = started("classic", seats=3)
    rng = random.Random(11)
    play_until(table, lambda g: g.phase is Phase.MICHIGAN, rng)
    assert "bet " not in field(board_of(table), "Players").value
    play_until(table, lambda g: g.phase is Phase.BETWEEN_DEALS, rng)
    players = field(board_of(table), "Players").value
    assert "bet " not in players and "1 cards" not in players


def test_cards_are_bold_and_black_suits_show_as_text():
    assert render.card(parse_card("10♣")) == "**10♣\ufe0e**"
    assert render.card(parse_card("Q♥")) == "**Q♥**"
    assert render.visible("K♠ and K♠\ufe0e") == "K♠\ufe0e and K♠\ufe0e"
    assert render.card(Card(51)) == "**A♠\ufe0e**"


@pytest.mark.parametrize("preset", ["classic", "italian", "cosmo", "italian-boodle"])
def test_rules_card_words_the_preset(preset):
    rules = make_rules(preset, ante=2)
    rendered = render.rules_card(rules, "Table x.", 50)
    assert common.limit_problems(rendered) == []
    assert render.preset_note(ENGLISH, preset) in rendered.embed.description
    differences = field(rendered, "Differences").value.replace("\ufe0e", "")
    for found in describe_differences(rules):
        assert render.difference(ENGLISH, found).replace("\ufe0e", "") in differences
    if preset == "classic":
        assert differences.startswith("• Ante 2")
    assert "buy-in 50 chips" in field(rendered, "Table").value


def test_adapter_builds_rules_only_through_make_rules():
    with pytest.raises(ValueError, match="ante"):
        ADAPTER.rules({"ante": 0})
    with pytest.raises(ValueError, match="no_preset"):
        ADAPTER.rules({"preset": "poker"})
    with pytest.raises(ValueError, match="dial"):
        ADAPTER.rules({"preset": "cosmo", "seq_start": 6})
    with pytest.raises(Refusal, match="4-7 players"):
        ADAPTER.new_game({"preset": "dutch"}, 3, b"x", 100)
    rules = ADAPTER.rules({"preset": "italian", "ante": 3, "seq_start": 6, "turn_seconds": 30})
    assert (rules.ante, rules.dealer_ante, rules.seq_ranks) == (3, 2, 6)
    assert ADAPTER.rules({"ante": 1, "bet_limit": 10, "turn_seconds": None}) == PRESETS["classic"]


def test_a_lobby_saved_with_unplayable_options_still_renders():
    line = ADAPTER.describe_options({"ante": 0, "bet_limit": 10})
    assert "cannot be played" in line and "ante" in line
    with pytest.raises(Refusal, match="cannot be played"):
        ADAPTER.new_game({"ante": 0}, 2, b"x", 100)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_table_adapter_has_the_seat_range_of_its_preset(preset):
    rules = PRESETS[preset]
    narrowed = ADAPTER.spec_for({"preset": preset, "ante": 2})
    assert narrowed.seats == range(rules.min_players, rules.max_players + 1)
    assert ADAPTER.spec.seats == range(2, 10)  # the game's own range is kept
    table = table_of(1, random.Random(preset), preset)
    lobby = common.lobby(table.info(narrowed), ADAPTER.describe_options(table.options))
    assert f"({rules.min_players}–{rules.max_players} seats)" in lobby.embed.description
    assert lobby.embed.fields[0].name == f"Seats (1/{rules.max_players})"


def test_dutch_is_narrowed_and_unplayable_options_keep_the_games_range():
    assert ADAPTER.spec_for({"preset": "dutch"}).seats == range(4, 8)
    assert "4-7 players" in ADAPTER.describe_options({"preset": "dutch"})
    assert ADAPTER.spec_for({"preset": "whist"}).seats == range(2, 10)


@pytest.mark.parametrize("name", ["🤖 AI 1", "🤖\ufe0f AI 1", "AI 1", "🤖AI 1", " 🤖  AI   1 "])
def test_no_member_name_looks_like_an_ai_seat(name):
    table = table_of(1, random.Random(1))
    table.seats = [Seat(None, "AI 1", ai=True), Seat(200, name)]
    info = table.info(ADAPTER.spec)
    ai, member = common.seat_label(info, 0), common.seat_label(info, 1)
    assert ai == f"{common.AI_MARK} AI 1"
    assert common.AI_MARK not in member and member != ai
    lobby = common.lobby(info, "Rules.").embed.fields[0].value
    assert lobby.count(common.AI_MARK) == 1


def test_member_names_cannot_show_as_mentions_or_markdown():
    assert common.short_name("<@123> *x*") == "\\<@123> \\*x\\*"
    assert common.short_name("🤖") == "?"


def test_player_facing_text_names_no_rule_file():
    texts = [render.preset_note(ENGLISH, preset) for preset in PRESETS]
    for preset in PRESETS:
        rendered = render.rules_card(make_rules(preset), "Table x.", 50)
        texts += [rendered.embed.description or ""] + [f.value or "" for f in rendered.embed.fields]
        texts.append(ADAPTER.describe_options({"preset": preset}))
    table = started("classic")
    table.game.end_session(True)
    play_until(table, lambda game: game.is_over)
    footer = board_of(table).embed.footer.text or ""
    assert common.hex_groups(table.seed.hex()) in footer
    for text in [*texts, footer]:
        assert "§" not in text and ".md" not in text and "DESIGN" not in text, text


# ---------------------------------------------------------------------- texts a stranger reads


def michigan_lead_after_a_stop(preset: str) -> Table:
    """A table of ``preset`` in Michigan, someone due to lead after a stop."""
    table = started(preset, seats=4 if preset == "dutch" else 3)
    play_until(table, lambda g: g.phase is Phase.MICHIGAN
               and not g.public_view().michigan.first_lead)
    return table


def test_the_board_bars_the_suit_just_played_only_when_the_rules_do():
    classic = michigan_lead_after_a_stop("classic")
    barred = classic.game.public_view().michigan.barred_suit
    assert f"(not {render.suit(barred)})" in board_of(classic).embed.description
    italian = michigan_lead_after_a_stop("italian")
    assert italian.game.public_view().michigan.barred_suit is not None  # the view still says
    assert "(not " not in board_of(italian).embed.description  # but any suit may be led


def test_the_first_lead_says_what_the_rules_require():
    table = started("first-lead-lowest-card")
    play_until(table, lambda g: g.phase is Phase.MICHIGAN)
    assert "to lead (lowest card)" in board_of(table).embed.description
    table = started("classic")
    play_until(table, lambda g: g.phase is Phase.MICHIGAN)
    assert "to lead:" in board_of(table).embed.description


def test_after_an_exchange_the_dealer_is_not_offered_the_exchange_again():
    table = started("classic")
    dealer = table.game.dealer
    first = field(hand_of(table, dealer), "Now").value
    assert "keep it dead, exchange your hand for it, or auction it" in first
    table.game.apply(dealer, act.Exchange())
    kinds = {option.kind for option in table.game.legal_actions(dealer)}
    assert kinds == {"keep", "auction"}
    now = field(hand_of(table, dealer), "Now").value
    assert "exchange" not in now.lower() and "auction it to the others" in now
    assert "took the spare hand and may auction the old one" in board_of(table).embed.description


def test_after_an_unsold_auction_the_dealer_may_keep_or_exchange():
    table = started("classic")
    dealer = table.game.dealer
    table.game.apply(dealer, act.Auction())
    while table.game.phase is Phase.AUCTION:
        seat = min(table.game.to_act)
        table.game.apply(seat, act.Pass())
    now = field(hand_of(table, dealer), "Now").value
    assert now == "Nobody bought the spare hand: keep it dead or exchange your hand for it."


@pytest.mark.parametrize("ranked", [True, False])
def test_the_end_board_says_chips_were_paid_back_only_on_a_ranked_table(ranked):
    table = started("classic")
    if not ranked:
        table.seats[-1] = Seat(None, "AI 1", ai=True)
        table.ranked = False
    table.game.end_session(True)
    play_until(table, lambda game: game.is_over)
    status = board_of(table).embed.description
    assert ("paid back" in status) is ranked
    assert ("no server chips moved" in status) is not ranked


def test_chip_counts_are_plural_only_above_one():
    texts = []
    for preset, ante in (("classic", 1), ("classic", 2), ("italian", 1)):
        rendered = render.rules_card(make_rules(preset, ante=ante), "Table x.", 1)
        texts.append("\n".join(f.value for f in rendered.embed.fields))
    assert all("(s)" not in text for text in texts)
    assert "Ante 1 chip per space" in texts[0] and "1 chip on every space" in texts[0]
    assert "Ante 2 chips per space." in texts[1]
    assert "The dealer antes 2 chips per space." in texts[2]
    assert render.chips(ENGLISH, 1) == "1 chip" and render.chips(ENGLISH, 2) == "2 chips"


def test_the_fairness_line_is_a_short_hash_that_fits_a_phone():
    table = started("classic")
    footer = board_of(table).embed.footer.text
    commitment = table.game.public_view().commitment
    assert f"{commitment[:common.SHORT_HASH]}…" in footer and commitment not in footer
    assert max(len(word) for word in footer.split()) <= 20
    assert common.hex_groups(commitment).replace(" ", "") == commitment
    table.game.end_session(True)
    play_until(table, lambda game: game.is_over)
    footer = board_of(table).embed.footer.text
    assert max(len(word) for word in footer.split()) <= 20
    assert common.hex_groups(table.seed.hex()) in footer


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_rules_card_describes_the_whole_game(preset):
    rules = PRESETS[preset]
    rendered = render.rules_card(rules, "Table x.", 100)
    names = [f.name for f in rendered.embed.fields]
    assert names == ["Board and antes", "Spare hand", "Poker", "Michigan", "End of the session",
                     "Differences from classic", "Table"]
    board = field(rendered, "Board").value.replace("\ufe0e", "")
    for space in rules.spaces:
        assert f"**{space}" in board or f" {space}" in board, space
    assert f"{render.chips(ENGLISH, rules.ante)} on every space" in board
    michigan = field(rendered, "Michigan").value
    assert "stop" in michigan and rules.going_out_space in michigan
    poker = field(rendered, "Poker").value
    if rules.poker == "betting":
        assert f"at most {render.chips(ENGLISH, rules.bet_limit)}" in poker
    assert "/tripoli end" in field(rendered, "End").value
    if rules.pay_suit != "dial":
        assert render.sequence(rules.seq_ranks) in board


def test_tripoli_refusals_name_their_sentence_and_read_in_persian():
    """Every engine refusal met in a deal's first decisions has a catalog reason, and its
    Persian sentence holds no English word; amounts keep their value."""
    game = TripoliAdapter().new_game({}, 4, b"tripoli refusals in persian", 100)
    if game.between_deals:
        game.start_deal()
    attempts = [act.Keep(), act.Exchange(), act.Auction(), act.Bid(amount=0),
                act.Bid(amount=10**6), act.Pass(), act.Check(), act.Bet(amount=1), act.Call(),
                act.Fold(), act.Lead(card=sorted(game.hands[0])[0]),
                act.Select(cards=tuple(sorted(game.hands[0])[:2]))]
    reasons = persian_refusals(game, attempts)
    assert len(reasons) >= 4, reasons
    assert "tripoli.cannot.lead" in reasons and "not_your_turn" in reasons
