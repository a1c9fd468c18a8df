"""Tripoli presets in simcord (issue 4): tables of non-classic rules played by clicks,
``/tripoli rules``, ``/tripoli house-rules`` and the refusals of unplayable rules.

Every interaction goes through :class:`test_tripoli.Session` (answered once, no leaked card,
chips conserved) or the ``world`` helpers (answered once).
"""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest
from leak_scan import shown_cards
from simcord import MemberActor, OptionError
from test_help import client_locales
from test_tripoli import Session, labels, open_table

from bot.i18n import ENGLISH, LANGUAGES, Msg
from bot.render import tripoli as render
from bot.runtime.table import TableState
from engine.cards import Suit, parse_card
from engine.tripoli import events as ev
from engine.tripoli.game import LOG_SIZE, SUMMARY_KINDS
from engine.tripoli.phases import Phase
from engine.tripoli.rules import PRESETS, describe_differences

HOUSE = "tripoli_rules"


def deal_events(session: Session) -> list[Any]:
    """The events of the current deal the game's (bounded) log still holds."""
    log = list(session.game.log)
    starts = [i for i, e in enumerate(log) if isinstance(e, ev.DealStarted)]
    return log[starts[-1] if starts else 0:]


def text_of(message: Any) -> str:
    embed = message.embeds[0]
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts).replace("\ufe0e", "")


async def manager(world: Any) -> MemberActor:
    """A member whose role has Manage Channels."""
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_channels=True))
    return world.guild.add_member(world.env.create_user("mona", global_name="Mona"), roles=[role])


def test_the_leak_scanner_reads_the_cards_the_renderer_writes():
    ids = [parse_card(c) for c in ("10♣", "A♠", "Q♥", "2♦")]
    for lang in (ENGLISH, LANGUAGES["fa"]):  # Persian: each card an isolate
        embed = discord.Embed(description=lang.directed(
            f"Hand: {render.cards(ids, lang)} · board A♥ **3** · KQ♥ **1**"))
        assert shown_cards([embed], []) == {int(c) for c in ids}


# ---------------------------------------------------------------------- tables by clicks


async def test_rummoli_deal_played_to_the_end_by_clicks(world):
    session = await open_table(world, world.alice, world.bob, world.carol, preset="rummoli")
    note = ENGLISH.t("tripoli.preset.rummoli")
    assert f"**Rummoli** — {note}" in session.board.embeds[0].description
    await session.click(world.alice, session.board, label="Start")
    assert session.game.rules == PRESETS["rummoli"]
    await session.play_until(lambda: session.game.phase is Phase.MICHIGAN)
    assert not [e for e in deal_events(session) if isinstance(e, ev.PayTaken)]  # no phase 1
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    events = deal_events(session)
    for i, event in enumerate(events):  # a space is taken right as its card is played
        if isinstance(event, ev.PayTaken):
            before = [e for e in events[:i] if e.kind not in SUMMARY_KINDS]
            if before:  # (the bounded log keeps only SUMMARY_KINDS before its last events)
                assert isinstance(before[-1], ev.Led | ev.Played)
                assert before[-1].seat == event.seat
    board = text_of(session.board)
    assert "Deal 1 is over:" in board and "bet " not in board
    assert "Next deal" in labels(session.board)


async def test_italian_with_ai_seats_has_no_poker_controls(world):
    session = await open_table(world, world.alice, preset="italian")
    for _ in range(2):
        await session.click(world.alice, session.board, label="Add AI")
    session.total = 300
    await session.click(world.alice, session.board, label="Start")
    seen: set[str] = set(labels(session.board))
    # automatic poker, no spare hand: Alice's first decision is a lead (unless the AI seats
    # end the deal before she ever holds the lead)
    assert session.game.phase in (Phase.MICHIGAN, Phase.BETWEEN_DEALS)
    kinds = {type(e) for e in deal_events(session)}
    if len(session.game.log) < LOG_SIZE:  # the bounded log still holds the whole deal
        assert ev.Showdown in kinds and "Showdown" in text_of(session.board)
    assert not kinds & {ev.Selected, ev.Checked, ev.BetMade, ev.Called, ev.Folded}

    async def move(seat: int, member: MemberActor) -> None:
        assert session.game.phase is Phase.MICHIGAN
        seen.update(labels(session.board))
        await session.default_move(seat, member)

    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS, move)
    assert not seen & {"Best five", "Check", "Call", "Fold", "Keep", "Exchange"}
    board = text_of(session.board)
    assert "MONTE" in board and "KITTY" not in board
    assert session.game.total_chips() == 300


async def test_pay_suit_auction_named_by_the_winner_with_suit_buttons(world):
    session = await open_table(world, world.alice, world.bob, world.carol,
                               preset="auction-pay-suit")
    await session.click(world.alice, session.board, label="Start")
    winner: list[int] = []

    async def move(seat: int, member: MemberActor) -> None:
        game = session.game
        if game.phase is Phase.AUCTION and game.auction.item == "pay_suit":
            if not winner:
                winner.append(seat)
                shown = await session.click(member, session.board, label="Bid…")
                await session.submit(member, shown, "3")
            else:
                await session.click(member, session.board, label="Pass")
        elif game.phase is Phase.NAME_SUIT:
            assert "names the pay suit" in text_of(session.board)
            hand = await session.my_hand(member)
            assert {"♥", "♠\ufe0e", "♦", "♣\ufe0e"} <= set(labels(hand))
            await session.click(member, hand, label="♠\ufe0e")
        else:
            await session.default_move(seat, member)

    await session.play_until(lambda: session.game.phase in (Phase.SELECT, Phase.BETWEEN_DEALS),
                             move)
    assert session.game.pay_suit is Suit.SPADES
    named = [e for e in deal_events(session) if isinstance(e, ev.PaySuitNamed)]
    assert named == [ev.PaySuitNamed(seat=winner[0], suit=Suit.SPADES)]
    board = text_of(session.board)
    assert "Board · pay suit ♠" in board and "A♥→A♠ **" in board
    assert "wins the pay suit for 3 chips, paid onto KITTY." in board
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS, move)
    assert "Deal 1 is over:" in text_of(session.board)


# ---------------------------------------------------------------------- rules commands


async def test_rules_command_words_the_live_table_and_the_default(world):
    default = await world.slash(world.alice, "tripoli rules")
    assert default.response.ephemeral
    assert "default rules" in default.response.embeds[0].description
    assert render.preset_name(ENGLISH, "classic") in default.response.embeds[0].title
    await world.slash(world.alice, "tripoli start", preset="italian", ante=2)
    shown = await world.slash(world.bob, "tripoli rules")
    text = text_of(shown.response)
    assert shown.response.ephemeral
    assert render.preset_name(ENGLISH, "italian") in shown.response.embeds[0].title
    assert ENGLISH.t("tripoli.preset.italian") in text
    table = world.bot.tables.by_channel[world.channel.id]
    rules = world.bot.tables.games["tripoli"].rules(table.options)
    assert rules.ante == 2 and rules.dealer_ante == 2
    for found in describe_differences(rules):
        assert render.difference(ENGLISH, found).replace("\ufe0e", "") in text


async def test_house_rules_need_manage_channels_and_become_the_default(world):
    scope = f"channel:{world.channel.id}"
    refused = await world.slash(world.bob, "tripoli house-rules", preset="italian")
    assert refused.response.ephemeral and "Manage Channels" in refused.response.content
    assert await world.store.get_setting(scope, HOUSE) is None
    mona = await manager(world)
    saved = await world.slash(mona, "tripoli house-rules", preset="dutch", ante=2, buy_in=40)
    assert saved.response.ephemeral
    assert render.preset_name(ENGLISH, "dutch") in saved.response.embeds[0].title
    stored = json.loads(await world.store.get_setting(scope, HOUSE))
    assert stored == {"preset": "dutch", "ante": 2, "buy_in": 40}
    rules_now = await world.slash(world.carol, "tripoli rules")
    assert "house rules" in rules_now.response.embeds[0].description
    opened = await world.slash(world.alice, "tripoli start", bet_limit=5)
    assert not opened.response.ephemeral
    table = world.bot.tables.by_channel[world.channel.id]
    assert table.buy_in == 40
    rules = world.bot.tables.games["tripoli"].rules(table.options)
    assert (rules.name, rules.ante, rules.bet_limit) == ("dutch", 2, 5)
    await world.slash(world.alice, "tripoli end")
    cleared = await world.slash(mona, "tripoli house-rules", clear=True)
    assert cleared.response.ephemeral and await world.store.get_setting(scope, HOUSE) is None


async def test_house_rules_refuse_an_unplayable_combination(world):
    mona = await manager(world)
    refused = await world.slash(mona, "tripoli house-rules", preset="cosmo", sequence_start=6)
    assert refused.response.ephemeral and "dial" in refused.response.content
    assert await world.store.get_setting(f"channel:{world.channel.id}", HOUSE) is None


async def test_a_buy_in_too_small_for_one_deals_antes_opens_nothing(world):
    refused = await world.slash(world.alice, "tripoli start", buy_in=5, ante=10)
    reason = Msg("tripoli.options.buy_in_short", buy_in=5, due=90)  # 9 spaces of 10
    assert refused.response.ephemeral
    assert refused.response.content == ENGLISH.t("house.unplayable_opened", reason=reason)
    assert world.bot.tables.by_id == {}
    mona = await manager(world)
    saved = await world.slash(mona, "tripoli house-rules", ante=10, buy_in=89)
    reason = Msg("tripoli.options.buy_in_short", buy_in=89, due=90)
    assert saved.response.content == ENGLISH.t("house.unplayable_saved", reason=reason)
    assert await world.store.get_setting(f"channel:{world.channel.id}", HOUSE) is None
    opened = await world.slash(world.alice, "tripoli start", buy_in=90, ante=10)
    assert not opened.response.ephemeral
    assert world.bot.tables.by_channel[world.channel.id].buy_in == 90


async def test_preset_autocomplete_lists_every_preset_with_its_note(world):
    everything = await world.alice.autocomplete(world.channel, "tripoli start", "preset", "")
    assert [c["value"] for c in everything] == list(PRESETS)
    assert everything[0]["name"] == f"Classic — {ENGLISH.t('tripoli.preset.classic')}"
    italian = await world.alice.autocomplete(world.channel, "tripoli start", "preset", "ital")
    assert {c["value"] for c in italian} == {p for p in PRESETS if p.startswith("italian")}
    assert all(len(c["name"]) <= 100 for c in everything)
    await world.slash(world.bob, "settings language", language="it")
    notes = await world.bob.autocomplete(world.channel, "tripoli start", "preset", "")
    assert notes[0]["name"] == f"Classica — {LANGUAGES['it'].t('tripoli.preset.classic')}"
    assert [c["value"] for c in notes] == list(PRESETS)  # the ids stay the values
    senza = await world.bob.autocomplete(world.channel, "tripoli start", "preset", "tripoli senza")
    assert [c["value"] for c in senza] == ["italian-no-poker"]  # found by its Italian name
    assert all(len(c["name"]) <= 100 for c in notes)


# ---------------------------------------------------------------------- refusals at start


async def test_unplayable_rules_are_refused_at_start_and_nothing_is_created(world):
    for options in ({"preset": "cosmo", "sequence_start": 6}, {"preset": "whist"}):
        result = await world.slash(world.alice, "tripoli start", **options)
        assert result.response.ephemeral
        assert "cannot be played" in result.response.content
        assert world.channel.id not in world.bot.tables.by_channel
        assert world.bot.tables.by_id == {}
        assert await world.store.load_tables() == []


READERS = {"fa": "پیش‌تنظیمی", "it": "nessuna variante", "nl": "geen variant"}
"""Each language's words for "there is no preset"."""


async def test_a_bad_preset_is_refused_in_each_members_language(world):
    presets = ", ".join(PRESETS)
    for member, (code, words) in zip((world.alice, world.bob, world.carol), READERS.items(),
                                     strict=True):
        await world.slash(member, "settings language", language=code)
        refused = await world.slash(member, "tripoli start", preset="whist")
        lang = LANGUAGES[code]
        reason = Msg("tripoli.option.no_preset", preset="whist", presets=presets)
        assert refused.response.ephemeral
        assert refused.response.content == lang.t("house.unplayable_opened", reason=reason)
        assert words in refused.response.content and "preset whist" not in \
            refused.response.content
        assert world.bot.tables.by_id == {}


async def test_a_saved_value_out_of_range_is_named_as_the_readers_client_lists_the_option(
        world, monkeypatch):
    client_locales(monkeypatch, {world.bob.id: "it", world.carol.id: "nl"})
    await world.store.set_setting(f"channel:{world.channel.id}", HOUSE,
                                  json.dumps({"preset": "classic", "ante": 0}))
    await world.slash(world.bob, "settings language", language="it")
    italian = await world.slash(world.bob, "tripoli rules")
    assert italian.response.ephemeral
    assert "`puntata` è un numero intero di almeno 1" in italian.response.content
    await world.slash(world.dave, "settings language", language="it")  # an English client
    italian = await world.slash(world.dave, "tripoli rules")
    assert "`ante` è un numero intero di almeno 1" in italian.response.content
    await world.slash(world.carol, "settings language", language="nl")
    dutch = await world.slash(world.carol, "tripoli rules")
    assert "`inzet` is een geheel getal van minstens 1" in dutch.response.content
    english = await world.slash(world.alice, "tripoli rules")
    assert "`ante` is a whole number of at least 1" in english.response.content
    refused = await world.slash(world.alice, "tripoli start")  # the house ante applies
    assert "`ante` is a whole number of at least 1" in refused.response.content
    assert world.bot.tables.by_id == {}


async def test_ante_below_one_never_reaches_the_bot(world):
    with pytest.raises(OptionError):
        await world.alice.slash(world.channel, "tripoli start", ante=0)
    assert world.bot.tables.by_id == {}


async def test_player_count_of_the_preset_is_refused_at_start(world):
    session = await open_table(world, world.alice, world.bob, world.carol, preset="dutch")
    before = await world.balances(world.alice, world.bob, world.carol)
    refused = await session.click(world.alice, session.board, label="Start")
    refusal = refused.response.content
    assert refused.response.ephemeral
    assert "needs 4–7 players; 3 seated" in refusal
    assert session.table.state is TableState.LOBBY and session.table.game is None
    assert await world.balances(world.alice, world.bob, world.carol) == before
    await session.click(world.dave, session.board, label="Join")
    await session.click(world.alice, session.board, label="Start")
    assert session.table.state is TableState.PLAYING
    assert session.game.rules.name == "dutch"


async def test_a_preset_table_with_overrides_survives_a_restart(world):
    session = await open_table(world, world.alice, world.bob, world.carol,
                               preset="auction-pay-suit", ante=2, bet_limit=4)
    await session.click(world.alice, session.board, label="Start")
    rules = session.game.rules
    assert (rules.name, rules.ante, rules.bet_limit) == ("auction-pay-suit", 2, 4)
    await session.play_until(lambda: session.game.phase is Phase.AUCTION)
    before = session.game.model_dump_json()
    await world.restart()
    assert session.game.model_dump_json() == before
    await session.play_until(lambda: session.game.phase is Phase.SELECT)  # everyone passes
    assert "Nobody bid: the pay suit is ♥." in text_of(session.board)
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    assert "Deal 1 is over:" in text_of(session.board)


# ---------------------------------------------------------------------- issue: new-user report


async def test_house_buy_in_holds_under_a_named_preset_but_not_the_house_overrides(world):
    mona = await manager(world)
    await world.slash(mona, "tripoli house-rules", preset="classic", buy_in=500, ante=2)
    opened = await world.slash(world.alice, "tripoli start", preset="italian")
    assert not opened.response.ephemeral
    table = world.bot.tables.by_channel[world.channel.id]
    assert table.buy_in == 500
    rules = world.bot.tables.games["tripoli"].rules(table.options)
    assert (rules.name, rules.ante) == ("italian", PRESETS["italian"].ante)
    assert "500" in opened.response.embeds[0].description
    await world.slash(world.alice, "tripoli end")
    await world.slash(world.alice, "tripoli start", preset="classic")  # the house preset itself
    table = world.bot.tables.by_channel[world.channel.id]
    assert (table.buy_in, world.bot.tables.games["tripoli"].rules(table.options).ante) == (500, 2)
    await world.slash(world.alice, "tripoli end")
    await world.slash(world.alice, "tripoli start", preset="italian", buy_in=70)
    assert world.bot.tables.by_channel[world.channel.id].buy_in == 70  # the starter's wins


@pytest.mark.parametrize("typed", ["CLASSIC", " classic", "Italian ", "  DUTCH  "])
async def test_preset_names_ignore_capitals_and_spaces(world, typed):
    opened = await world.slash(world.alice, "tripoli start", preset=typed)
    assert not opened.response.ephemeral, opened.response.content
    table = world.bot.tables.by_channel[world.channel.id]
    rules = world.bot.tables.games["tripoli"].rules(table.options)
    assert rules.name == typed.strip().lower()
    mona = await manager(world)
    await world.slash(mona, "tripoli house-rules", preset=typed)
    stored = json.loads(await world.store.get_setting(f"channel:{world.channel.id}", HOUSE))
    assert stored == {"preset": typed.strip().lower()}


async def test_a_member_named_like_an_ai_seat_looks_different_in_the_lobby(world):
    faker = world.guild.add_member(world.env.create_user("faker", global_name="🤖 AI 1"))
    session = await open_table(world, world.alice)
    await session.click(world.alice, session.board, label="Add AI")
    await session.click(faker, session.board, label="Join")
    seats = session.board.embeds[0].fields[0].value.splitlines()
    assert seats[1] == "2. 🤖 AI 1" and seats[2] == "3. AI 1"
    assert list([ENGLISH.t(n.msg) for n in session.table.notes])[-1] == "AI 1 sat down."


async def test_a_dutch_lobby_offers_and_allows_its_own_seats(world):
    session = await open_table(world, world.alice, world.bob, world.carol, world.dave,
                               preset="dutch")
    assert "(4–7 seats)" in session.board.embeds[0].description
    for name in ("erin", "fay", "gus"):
        await session.click(world.add_member(name), session.board, label="Join")
    assert len(session.table.seats) == 7
    refused = await session.click(world.add_member("hal"), session.board, label="Join")
    assert refused.response.ephemeral and "full (7 seats)" in refused.response.content
    assert len(session.table.seats) == 7
