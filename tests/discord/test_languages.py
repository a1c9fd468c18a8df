"""Languages in a simulated server (issue 11): each member reads their own language in private,
the board and lobby are in the channel's, and a Persian session shows no English word of the
catalogs: lobby, refusals, guides, and every board, hand and deal summary of an AI session of
each game under several presets (a game whose renderer still writes English is listed as a
known gap in ``UNCONVERTED``)."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from ai_step import ai_step
from simcord import MemberActor

from bot.games import GAMES
from bot.guides import GUIDES
from bot.i18n import ENGLISH, LANGUAGES, Msg
from bot.i18n.catalogs import catalog
from bot.i18n.language import isolated, placeholders
from bot.render.common import limit_problems
from bot.runtime.refs import unplayable_reason
from bot.runtime.spec import Rendered
from engine.core import OptionError
from engine.tripoli import rules as tripoli_rules

UNCONVERTED: set[str] = set()
"""Games whose board and hand renderers still write English (a known gap: the Persian scan
of their boards and hands is expected to fail until each is converted; then remove it)."""


async def manager(world: Any) -> MemberActor:
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_channels=True))
    return world.guild.add_member(world.env.create_user("mona", global_name="Mona"), roles=[role])


def texts(message: Any) -> str:
    """Everything a member reads in a message: content, embeds and component labels."""
    parts = [getattr(message, "content", "") or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{field.name}\n{field.value}" for field in embed.fields]
    for row in message.components:
        for child in (row.to_dict() if hasattr(row, "to_dict") else row)["components"]:
            parts += [child.get("label") or "", child.get("placeholder") or ""]
            parts += [option.get("label", "") for option in child.get("options", [])]
    return "\n".join(parts)


def labels(message: Any) -> list[str]:
    return [c.get("label") or "" for row in message.components for c in row["components"]]


def english_words() -> set[str]:
    """Words of the English catalog that no Persian text uses (names like Parlour or
    Discord's permission names stay Latin in Persian too)."""
    def words(code: str) -> set[str]:
        found: set[str] = set()
        for message in catalog(code):
            strings = message.string if message.pluralizable else (message.string,)
            for text in strings:
                text = re.sub(r"\{[a-z_0-9]+\}", " ", text or "")
                found |= {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}
        return found
    return words("en") - words("fa")


def english_in(text: str) -> set[str]:
    """English catalog words in ``text``, outside code spans and slash commands (they stay
    English where Discord has no client language) and Discord markup (mentions,
    timestamps)."""
    prose = re.sub(r"`[^`]*`|/[a-z][\w-]*(?: [a-z][\w-]*)?(?: [a-z_]+:\S+)*|<[^>]*>", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-z]{4,}", prose)} & english_words()


async def test_each_member_reads_their_own_language_and_the_board_the_channels(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    mona = await manager(world)
    chosen = await world.slash(alice, "settings language", language="fa")
    assert chosen.response.ephemeral and "فارسی" in chosen.response.content
    chosen = await world.slash(bob, "settings language", language="it")
    assert "italiano" in chosen.response.content and "Parlour" in chosen.response.content
    refused = await world.slash(carol, "settings language", language="nl", **{"for": "channel"})
    assert refused.response.ephemeral and "Manage Channels" in refused.response.content
    chosen = await world.slash(mona, "settings language", language="nl", **{"for": "channel"})
    assert "Nederlands" in chosen.response.content

    opened = await world.slash(alice, "tripoli start")
    board = opened.response
    assert board.embeds[0].title.startswith("Tripoli — tafel ")
    assert labels(board) == ["Meedoen", "Verlaten", "AI toevoegen", "Starten", "Annuleren"]
    few = await world.click(alice, board, label="Starten")
    plain = re.sub("[\u2066-\u2069]", "", few.response.content)  # directional isolates
    assert plain == "این میز تریپولی به ۲ تا ۹ بازیکن نیاز دارد؛ ۱ نفر نشسته‌اند."
    await world.click(bob, board, label="Meedoen")
    again = await world.click(bob, board, label="Meedoen")
    assert again.response.ephemeral
    assert again.response.content == "Sei già seduto a questo tavolo."
    again = await world.click(alice, board, label="Meedoen")
    assert again.response.content == LANGUAGES["fa"].t("refusal.seated")
    assert "تو از قبل پشت این میز نشسته‌ای." in again.response.content
    not_host = await world.click(bob, board, label="Starten")
    assert not_host.response.content == LANGUAGES["it"].t("refusal.not_host.start")
    assert "Bob is aan tafel gaan zitten." in texts(board)
    await world.click(carol, board, label="Meedoen")
    await world.click(alice, board, label="AI toevoegen")
    await world.click(alice, board, label="Starten")
    table = world.bot.tables.by_channel[world.channel.id]
    tables = world.bot.tables
    assert tables.render_board(table).embed.title is not None
    assert "Mijn hand" in labels(board)  # the board's buttons in the channel's language
    hand = {member.name: tables.render_hand(table, table.seat_of(member.id))
            for member in (alice, bob)}
    assert all(not limit_problems(rendered) for rendered in hand.values())
    for name, code in (("alice", "fa"), ("bob", "it")):  # what each hand was rendered in
        assert tables.languages.private(getattr(world, name).id).code == code


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_persian_lobby_and_its_refusals_have_no_english(world, game):
    alice, bob = world.alice, world.bob
    languages = world.bot.languages
    await languages.choose(f"channel:{world.channel.id}", "fa")
    for member in (alice, bob):
        await languages.choose(f"user:{member.id}", "fa")
    opened = await world.slash(alice, f"{game} start")
    board = opened.response
    persian = LANGUAGES["fa"]
    refused = await world.click(bob, board, label=persian.t("button.start"))
    await world.click(alice, board, label=persian.t("button.add_ai"))
    left = await world.click(bob, board, label=persian.t("button.leave"))
    seen = "\n".join([texts(board), refused.response.content, left.response.content])
    if game in UNCONVERTED:  # the adapter's house-rules line: a games' gap
        options = world.bot.tables.by_channel[world.channel.id].options
        seen = seen.replace(GAMES[game].describe_options(options), "")
    assert english_in(seen) == set(), seen


def board_and_hand(world: Any, game: str) -> list[Rendered]:
    tables = world.bot.tables
    table = tables.by_channel[world.channel.id]
    return [tables.render_board(table), tables.render_hand(table, table.seat_of(world.alice.id))]


@pytest.mark.parametrize("game", [
    pytest.param(name, marks=pytest.mark.xfail(
        name in UNCONVERTED, strict=True, reason="known gap: the renderer writes English"))
    for name in sorted(GAMES)])
async def test_a_persian_board_and_hand_have_no_english(world, game):
    alice = world.alice
    languages = world.bot.languages
    await languages.choose(f"channel:{world.channel.id}", "fa")
    await languages.choose(f"user:{alice.id}", "fa")
    persian = LANGUAGES["fa"]
    opened = await world.slash(alice, f"{game} start")
    board = opened.response
    spec = GAMES[game].spec
    for _ in range(spec.seats.start - 1):
        await world.click(alice, board, label=persian.t("button.add_ai"))
    await world.click(alice, board, label=persian.t("button.start"))
    found = {}
    for rendered in board_and_hand(world, game):
        assert not limit_problems(rendered)
        message = texts(rendered.embed and _as_message(rendered))
        found |= {word: message for word in english_in(message)}
    assert found == {}, sorted(found)


def _as_message(rendered: Rendered) -> Any:
    rows = rendered.view.to_components() if rendered.view is not None else []
    return type("Shown", (), {"content": "", "embeds": [rendered.embed], "components": rows})


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_persian_how_to_play_has_no_english_and_turns_after_a_restart(world, game):
    alice = world.alice
    await world.slash(alice, "settings language", language="fa")
    persian = LANGUAGES["fa"]
    guide = (await world.slash(alice, f"{game} how-to-play")).response
    pages = GUIDES[game].all_pages(persian)
    found = {}
    for index, page in enumerate(pages):
        assert guide.ephemeral and page.title in guide.embeds[0].title, index
        found |= {word: index for word in english_in(texts(guide))}
        if index == 1:
            await world.restart()  # the buttons of a message sent before keep working
        if index < len(pages) - 1:
            await world.click(alice, guide, label=persian.t("guide.next"))
    assert found == {}, found
    await world.click(alice, guide, label=persian.t("guide.previous"))
    assert pages[-2].title in guide.embeds[0].title


def test_every_refusal_of_options_in_persian_has_no_english():
    persian = LANGUAGES["fa"]
    refusals = [make_rules_refusal("whist"), make_rules_refusal("dutch", players=3)]
    for message in catalog("en"):
        if message.id and re.fullmatch(r"([a-z]+\.)?option\.[a-z_]+", str(message.id)):
            values = {name: 3 for name in placeholders(message.string)}
            refusals.append(Msg(str(message.id), **values | {"option": "ante"}
                                if "option" in values else values))
    assert len(refusals) >= 29  # 27 messages and two refusals
    for refusal in refusals:
        text = persian.t("house.unplayable_opened", reason=refusal)
        assert english_in(text) == set(), text


def make_rules_refusal(preset: str, **given: Any) -> Msg:
    """What a member is told of Tripoli's refusal of ``preset`` (with ``given``)."""
    with pytest.raises(OptionError) as refused:
        tripoli_rules.make_rules(preset, **given)
    reason = unplayable_reason(refused.value, LANGUAGES["fa"])
    assert isinstance(reason, Msg)
    return reason


def test_the_english_words_scanned_are_real_catalog_words():
    words = english_words()
    assert {"seated", "table", "host"} <= words
    assert "parlour" not in words and "manage" not in words
    assert ENGLISH.t("refusal.seated").split()[-1].rstrip(".").lower() in words


async def test_persian_help_and_chips_answers_have_no_english(world):
    alice, bob = world.alice, world.bob
    await world.bot.languages.choose(f"channel:{world.channel.id}", "fa")
    await world.slash(alice, "settings language", language="fa")
    answers = [await world.slash(alice, "help"), await world.slash(alice, "chips balance"),
               await world.slash(alice, "chips daily"), await world.slash(alice, "chips daily"),
               await world.slash(alice, "chips give", member=bob, amount=5),
               await world.slash(alice, "chips give", member=alice, amount=5),
               await world.slash(alice, "chips history")]
    for result in answers:
        shown = texts(result.response)
        assert shown and english_in(shown) == set(), shown
    assert "۵" in texts(answers[4].response)  # the public gift, in the channel's Persian


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_game_renders_hands_in_the_viewers_language_and_the_board_in_the_channels(
        world, game, monkeypatch):
    alice, bob = world.alice, world.bob  # Persian and Italian, at a Dutch channel's table
    languages = world.bot.languages
    await languages.choose(f"channel:{world.channel.id}", "nl")
    await world.slash(alice, "settings language", language="fa")
    await world.slash(bob, "settings language", language="it")
    adapter = world.bot.tables.games[game]
    rendered_in: list[tuple[str, str]] = []
    for what in ("board", "hand"):
        original = getattr(adapter, what)

        def spy(info, *args, _what=what, _original=original, **kwargs):
            rendered_in.append((_what, info.lang.code))
            return _original(info, *args, **kwargs)

        monkeypatch.setattr(adapter, what, spy)
    dutch = LANGUAGES["nl"]
    options = {"teams": "random"} if adapter.spec.seating == "partners" else {}
    board = (await world.slash(alice, f"{game} start", **options)).response
    await world.click(bob, board, label=dutch.t("button.join"))
    for _ in range(adapter.spec.seats.start - 2):
        await world.click(alice, board, label=dutch.t("button.add_ai"))
    await world.click(alice, board, label=dutch.t("button.start"))
    rendered_in.clear()
    for member, code in ((alice, "fa"), (bob, "it")):
        hand = await world.click(member, board, label=dutch.t("button.hand"))
        assert hand.response.ephemeral
        assert ("hand", code) in rendered_in, (member.name, rendered_in)
    refused = await world.slash(bob, f"{game} end")
    assert refused.response.content == LANGUAGES["it"].t("refusal.not_host.end")
    assert {code for what, code in rendered_in if what == "board"} <= {"nl"}
    assert {code for what, code in rendered_in if what == "hand"} == {"fa", "it"}


async def test_a_server_language_needs_manage_server_and_automatic_clears_it(world):
    alice = world.alice
    refused = await world.slash(alice, "settings language", language="it", **{"for": "server"})
    assert refused.response.ephemeral and "Manage Server" in refused.response.content
    assert await world.store.get_setting(f"guild:{world.guild.id}", "language") is None
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    owner = world.guild.add_member(world.env.create_user("olga", global_name="Olga"),
                                   roles=[role])
    chosen = await world.slash(owner, "settings language", language="it", **{"for": "server"})
    assert chosen.response.content == LANGUAGES["it"].t("settings.language_server",
                                                          language="italiano")
    board = (await world.slash(alice, "tripoli start")).response
    assert LANGUAGES["it"].t("button.join") in labels(board)  # the server's Italian
    cleared = await world.slash(owner, "settings language", language="auto", **{"for": "server"})
    assert "English" in cleared.response.content
    assert await world.store.get_setting(f"guild:{world.guild.id}", "language") is None
    world.clock.advance(1)
    await world.env.advance_time(1)  # the board is edited with the bot's token
    assert "Join" in labels(board)  # shown again in the server's Discord English


SESSIONS = [("tripoli", {}), ("tripoli", {"preset": "italian"}),
            ("tripoli", {"preset": "auction-pay-suit"}), ("tripoli", {"preset": "cosmo"}),
            ("troefcall", {}), ("troefcall", {"deals": 2}), ("kalooki", {}),
            ("kalooki", {"preset": "trinidad", "honour_calls": True})]


def _persian_table(game: str, options: dict[str, Any], players: int) -> Any:
    from bot.runtime.spec import SeatInfo, TableInfo
    spec = GAMES[game].spec_for(options)
    seats = tuple(SeatInfo(member_id=None if s % 2 else 100 + s,
                           name=f"AI {s}" if s % 2 else f"Shirin{s}", ai=bool(s % 2),
                           team=spec.team_of(s)) for s in range(players))
    return TableInfo(id="abc123", spec=spec, seats=seats, host_id=100, ranked=True,
                     buy_in=200, lang=LANGUAGES["fa"])


@pytest.mark.parametrize(("game", "options"), SESSIONS)
def test_a_persian_session_has_no_english_from_start_to_end(game, options):
    """Every board, hand and deal summary of an AI session in Persian, its lobby line and
    rules card: no English word of the catalogs (slash commands and preset ids in code
    spans stay English)."""
    import random


    adapter = GAMES[game]
    players = min(adapter.spec_for(options).seats.stop - 1, 5)
    table = _persian_table(game, options, players)
    played = adapter.new_game(options, players, f"{game}{options}".encode(), 200)
    rng = random.Random(game)
    rules_card = adapter.rules_card(options, "", 200, table.lang)
    shown = [adapter.describe_options(options, table.lang), _shown(rules_card)]
    undirected = _undirected(rules_card)
    declined: set[tuple[int, int]] = set()
    for _ in range(4000):
        if played.is_over or played.deal_number > 2:
            break
        rendered = [adapter.board(table, played),
                    *(adapter.hand(table, played, seat) for seat in range(players))]
        shown += [_shown(each) for each in rendered]
        undirected += [line for each in rendered for line in _undirected(each)]
        if played.between_deals:
            summary = adapter.deal_summary(table, played)
            if summary is not None:
                shown += [summary.title, *summary.lines]
            played.start_deal()
            continue
        ai_step(adapter, played, declined, rng)
    found: dict[str, str] = {}
    for text in shown:
        found |= {word: text for word in english_in(text)}
    assert found == {}, sorted(found)
    assert undirected == []  # every line reads right to left (tests/bot/test_right_to_left.py)


def _shown(rendered: Rendered) -> str:
    return texts(_as_message(rendered))


def _undirected(rendered: Rendered) -> list[str]:
    """The lines of ``rendered``'s embed that are not one right-to-left isolate (after a
    Markdown list or quote marker)."""
    embed = rendered.embed
    parts = [embed.title, embed.description, embed.footer.text,
             *(text for f in embed.fields for text in (f.name, f.value))]
    lines = [re.sub(r"^(?:[-*>] |-# )", "", line) for part in parts if part
             for line in part.split("\n") if line]
    return [line for line in lines if not (line.startswith("\u2067") and isolated(line))]
