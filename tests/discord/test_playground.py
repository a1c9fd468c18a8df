"""The playground (issue 6): the real bot in simcord's preview page, headless.

The page is read the way the browser reads it (HTTP ``/api/state`` with the session's
capability), so "the board appears" means a player's page shows it without a manual refresh.
"""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import UTC, datetime

import pytest

from bot.clock import SystemClock
from bot.config import Settings
from bot.i18n import ENGLISH, LANGUAGES
from bot.playground import Playground, drop_saved_tables, member_names, open_browser
from bot.store import open_store

aiohttp = pytest.importorskip("aiohttp", reason="the playground extra (simcord[preview])")


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(
        _env_file=None,
        database=tmp_path / "playground.db",
        sync="global",
        ai_delay=0,
        board_edit_interval=0,
    )


class Page:
    """One browser page of the preview, read over HTTP like the page's own script does."""

    def __init__(self, http: aiohttp.ClientSession, url: str) -> None:
        self.http = http
        self.base, self.capability = url.split("/#")
        self.context: str | None = None

    async def open(self, viewer_id: int) -> dict:
        async with self.http.post(
            f"{self.base}/api/pages",
            json={"viewer_id": str(viewer_id)},
            headers={"X-Simcord-Capability": self.capability},
        ) as response:
            assert response.status == 200
            state = await response.json()
        self.context = state["context"]["id"]
        return state

    async def state(self) -> dict:
        headers = {"X-Simcord-Capability": self.capability, "X-Simcord-Context": self.context}
        async with self.http.get(f"{self.base}/api/state", headers=headers) as response:
            assert response.status == 200
            return await response.json()

    async def wait_for_text(self, text: str, seconds: float = 10) -> dict:
        """Poll like the page (every 0.1 s here) until ``text`` is shown; fail after ``seconds``."""
        for _ in range(int(seconds / 0.1)):
            state = await self.state()
            if text in json.dumps(state, ensure_ascii=False):
                return state
            await asyncio.sleep(0.1)
        pytest.fail(f"the page never showed {text!r}")


async def test_a_tripoli_table_appears_in_the_page_without_a_refresh(settings):
    async with Playground(settings, port=0) as playground, aiohttp.ClientSession() as http:
        assert playground.url.startswith("http://127.0.0.1:")
        assert sorted(playground.members) == ["alice", "bob", "carol", "dave"]
        alice = playground.members["alice"]
        page = Page(http, playground.url)
        opened = await page.open(alice.id)
        assert opened["channel"]["name"] == "tables"

        async with playground.turn():
            started = await alice.slash(playground.channel, "tripoli start")
            board = started.response
            for label in ("Add AI", "Add AI", "Start"):
                assert (await alice.click(board, label=label)).acknowledged
        title = board.embeds[0].title
        assert "deal 1" in title

        shown = await page.wait_for_text(title)
        assert shown["publishedRevision"] > opened["publishedRevision"]


async def test_changes_the_bot_makes_on_its_own_reach_the_page(settings):
    """Like an AI move or a timer: a channel write with no interaction behind it."""
    async with Playground(settings, port=0) as playground, aiohttp.ClientSession() as http:
        page = Page(http, playground.url)
        await page.open(playground.members["carol"].id)
        channel = playground.bot.get_channel(playground.channel.id)
        await channel.send("A background move, with nobody clicking")
        await page.wait_for_text("A background move, with nobody clicking")


async def test_a_click_is_answered_while_ai_moves_and_call_windows_run(settings):
    """Tryout: a click made while a Kalooki call window or a run of AI turns was open waited
    for them in real time, and simcord gave it up after 5 s ("Action outcome uncertain").
    The bot's timed waits are the playground's own: the click is answered at once, and the
    table plays on by itself into the page."""
    settings = settings.model_copy(update={"ai_delay": 0.5, "board_edit_interval": 0.2})
    async with Playground(settings, port=0) as playground, aiohttp.ClientSession() as http:
        alice = playground.members["alice"]
        page = Page(http, playground.url)
        await page.open(alice.id)
        async with playground.turn():
            started = await alice.slash(playground.channel, "kalooki start", call_window=2)
            board = started.response
            for label in ("Add AI", "Add AI", "Add AI", "Start"):
                await alice.click(board, label=label)
            await alice.click(board, label="Leave")  # the AI plays her seat: nobody waits
        table = playground.bot.tables.by_channel[playground.channel.id]
        assert all(seat.ai for seat in table.seats)
        for _ in range(3):  # AI moves half a second apart, a 2 s window after each discard
            before = len(table.game.log)
            async with playground.turn():  # raised TimeoutError before: the bot never settled
                answer = await alice.click(board, label="My hand")
            assert answer.response.ephemeral  # her seat is the AI's now
            assert answer.response.content == "You are not seated at this table."
            for _ in range(100):
                if len(table.game.log) > before:
                    break
                await asyncio.sleep(0.1)
            assert len(table.game.log) > before  # moved on with no click behind it
        await page.wait_for_text("drew from the stock")


async def test_the_simulated_clock_follows_the_wall_clock(settings):
    async with Playground(settings, port=0) as playground:
        assert abs((playground.env.now() - datetime.now(UTC)).total_seconds()) < 10
        assert isinstance(playground.bot.clock, SystemClock)


async def test_bot_errors_are_printed_to_the_console(settings, caplog, monkeypatch):
    async with Playground(settings, port=0) as playground:

        async def broken(*_args, **_kwargs):
            raise RuntimeError("the chip bank exploded")

        monkeypatch.setattr(playground.bot.store, "board", broken)
        with caplog.at_level(logging.ERROR, logger="parlour.playground"):
            async with playground.turn():
                answered = await playground.members["bob"].slash(playground.channel, "leaderboard")
            assert answered.response.ephemeral
            for _ in range(50):
                if any("the chip bank exploded" in (r.exc_text or "") for r in caplog.records):
                    break
                await asyncio.sleep(0.1)
    printed = [r for r in caplog.records if r.name == "parlour.playground"]
    assert printed and "the chip bank exploded" in (printed[0].exc_text or "")


async def test_members_names_are_configurable(settings):
    async with Playground(settings, members=["Mia", "noor"], port=0) as playground:
        assert list(playground.members) == ["mia", "noor"]
        assert playground.members["mia"].user.global_name == "Mia"


async def test_tables_of_an_earlier_run_are_dropped_and_their_escrow_returned(settings):
    store = await open_store(settings.database, starting_chips=1000)
    await store.balance(1, 2)
    await store.escrow(1, 2, "old-table", 100)
    await store.save_table("old-table", 1, 3, "{}")
    await store.close()

    await drop_saved_tables(settings)
    async with Playground(settings, port=0) as playground:
        assert await playground.bot.store.load_tables() == []
        assert await playground.bot.store.table_escrow("old-table") == 0
        assert await playground.bot.store.balance(1, 2) == 1000


@pytest.mark.parametrize(
    "text, problem",
    [
        ("", "1 to 10"),
        (",".join(f"p{n}" for n in range(11)), "1 to 10"),
        ("alice,ALICE", "must differ"),
        ("a", "not a member name"),
        ("bad name", "not a member name"),
    ],
)
def test_bad_member_names_are_refused(text, problem):
    with pytest.raises(ValueError, match=problem):
        member_names(text)


def test_member_names_are_normalised():
    assert member_names(" Alice, bob ,carol.") == ("alice", "bob", "carol.")


def test_no_browser_is_launched_without_a_display(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setattr("webbrowser.open", lambda url: pytest.fail("a browser was launched"))
    assert open_browser("http://127.0.0.1:1/") is False


async def test_tables_greets_a_newcomer_with_how_to_start(settings):
    """Tryout #13: the page opened on an empty #tables; the bot's first message says how to
    start a table."""
    async with Playground(settings, port=0) as playground, aiohttp.ClientSession() as http:
        page = Page(http, playground.url)
        await page.open(playground.members["alice"].id)
        await page.wait_for_text("Type `/tripoli start` here")
        [greeting] = playground.channel.history()
        assert greeting.author.bot and "`/help`" in greeting.content


async def test_a_playground_started_for_a_language_greets_and_plays_in_it(settings):
    async with Playground(settings, port=0, language="nl") as playground:
        dutch = LANGUAGES["nl"]
        [greeting] = playground.channel.history()
        assert greeting.content == dutch.commands(dutch.t("playground.welcome"))
        assert "`/tripoli starten`" in greeting.content  # as a Dutch client lists it
        alice = playground.members["alice"]
        async with playground.turn():
            board = (await alice.slash(playground.channel, "tripoli start")).response
            added = await alice.click(board, label=dutch.t("button.add_ai"))
        assert board.embeds[0].title.startswith("Tripoli — tafel ")
        assert added.acknowledged
    async with Playground(settings, port=0) as playground:  # the next run: English again
        [greeting] = playground.channel.history()
        assert greeting.content == ENGLISH.t("playground.welcome")
        async with playground.turn():
            board = (await playground.members["alice"].slash(
                playground.channel, "tripoli start")).response
        assert board.embeds[0].title.startswith("Tripoli — table ")


def test_a_language_the_bot_does_not_speak_is_refused(settings):
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        Playground(settings, language="xx")
