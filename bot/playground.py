"""The playground: the real bot inside simcord's browser preview, no Discord token needed.

``python -m bot playground`` builds the bot with :func:`bot.app.create_bot` (as in production),
runs it against simcord's simulated Discord with one server, a ``#tables`` channel and four
members, and serves simcord's Discord-like page on ``127.0.0.1``. "Viewing as" in the page
switches the member you act as, so one person can fill a table.

- Chips go to a separate SQLite file (``data/playground.db`` by default), never to the
  production database. Each run starts a fresh simulated Discord, so tables saved by an earlier
  run are dropped at start-up (their escrow goes back to the balances); chips persist.
- The bot reads the wall clock (turn deadlines, daily chips). simcord's virtual clock does not
  follow the wall clock by itself: a background pump moves it forward every few seconds.
- The page does not see changes the bot makes on its own (AI moves, timers, debounced board
  edits) until the preview republishes; the pump republishes whenever the bot wrote to a channel
  outside an interaction.
- Errors the bot raises are printed to the console as well as shown in the page.

- The bot's timed waits (the pause between AI moves, the sleep until a deadline or a rule
  timer such as Kalooki's call window, the board edits' debounce) run in real time and are
  declared to simcord as external input (:meth:`Playground.sleep`; the pump wakes them). A
  click therefore settles as soon as the bot has answered it: simcord does not wait the AI
  moves and timers out (it gives up after 5 s, "Action outcome uncertain"), and what they do
  reaches the page when the pump republishes.

simcord's preview and the page share one operation guard: while the pump republishes or moves
the clock (a few milliseconds), a click from the page is refused ("context unavailable") and must
be repeated; and a click sent in the half second between a republish and the page's next poll
is refused as "stale". simcord has no public way to push a change to open pages without taking
that guard; the pump therefore acts only when something changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import os
import re
import sys
import time
import webbrowser
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.app import ParlourBot, create_bot
from bot.clock import SystemClock
from bot.config import Settings
from bot.i18n import LANGUAGES
from bot.store import open_store

log = logging.getLogger("parlour.playground")

DEFAULT_MEMBERS = ("alice", "bob", "carol", "dave")
BOT_NAME = "Parlour"
DEFAULT_PORT = 8765
DEFAULT_DATABASE = Path("data/playground.db")
#: Seconds between the pump's checks for background changes and bot errors.
TICK = 0.25
#: Seconds simcord's virtual clock may lag the wall clock before the pump moves it.
CLOCK_SLACK = 5.0
INSTALL_HINT = "pip install -e '.[playground]'   (or: make run, which installs everything)"
_MEMBER_NAME = re.compile(r"[a-z0-9_.]{2,32}")


class PlaygroundUnavailable(RuntimeError):
    """simcord's preview (the ``playground`` extra) is not installed, or its port is taken."""


def member_names(text: str | Sequence[str]) -> tuple[str, ...]:
    """Parse and check the members' names (``"alice,bob"`` or a sequence).

    Returns
    -------
    tuple[str, ...]
        1 to 10 distinct Discord-style usernames: 2-32 of ``a-z 0-9 _ .``.

    Raises
    ------
    ValueError
        With the offending name, if any name is invalid or repeated, or there are none or
        more than 10.
    """
    names = [name.strip().lower() for name in (text.split(",") if isinstance(text, str) else text)]
    names = [name for name in names if name]
    if not 1 <= len(names) <= 10:
        raise ValueError(f"give 1 to 10 member names, got {len(names)}")
    for name in names:
        if not _MEMBER_NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not a member name: use 2-32 of a-z 0-9 _ .")
    if len(set(names)) != len(names):
        raise ValueError(f"member names must differ: {', '.join(names)}")
    return tuple(names)


class Playground:
    """The bot, simcord's world and its preview page, with the pump that keeps the page live.

    Use as ``async with Playground(settings) as playground:``; then ``playground.url`` is the
    page's address (a capability: whoever has it can act), ``playground.members`` maps each
    name to its simcord ``MemberActor``, ``playground.channel`` is ``#tables``.

    Parameters
    ----------
    settings
        The bot's settings; ``database`` should be the playground's own file.
    members
        The members' usernames (shown with a capital initial).
    port
        Loopback port of the page; 0 picks a free one.
    language
        The language the playground is started for (``"fa"``, one of
        :data:`bot.i18n.language.CODES`): ``#tables`` and every member speak it (as with
        ``/settings language``) and the bot greets in it; None: Discord's language, English
        (a language chosen by an earlier run is cleared).

    Raises
    ------
    ValueError
        For a language the bot does not speak.
    """

    def __init__(
        self, settings: Settings, members: Sequence[str] = DEFAULT_MEMBERS,
        port: int = DEFAULT_PORT, language: str | None = None,
    ) -> None:
        if language is not None and language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}")
        self.settings = settings
        self.member_names = member_names(members)
        self.port = port
        self.language = language
        self.bot: ParlourBot | None = None
        self.env: Any = None
        self.preview: Any = None
        self.guild: Any = None
        self.channel: Any = None
        self.members: dict[str, Any] = {}
        self._turn = asyncio.Lock()
        self._exit = contextlib.AsyncExitStack()
        self._pump: asyncio.Task[None] | None = None
        self._errors_seen = 0
        self._requests_seen = 0
        self._unpublished = False
        self._alarms: list[tuple[float, int, asyncio.Future[None]]] = []  # (due, order, wake)
        self._alarm_order = itertools.count()

    @property
    def url(self) -> str:
        """The page's address on 127.0.0.1 (includes its secret capability)."""
        return self.preview.url

    async def __aenter__(self) -> Playground:
        try:
            import simcord
            from simcord import SetupError
        except ImportError as missing:
            raise PlaygroundUnavailable(
                f"The playground needs simcord's preview ({missing.name} is missing):\n"
                f"  {INSTALL_HINT}"
            ) from missing
        await drop_saved_tables(self.settings)
        try:
            self.bot = create_bot(self.settings, clock=SystemClock(), sleep=self.sleep)
            self._exit.push_async_callback(self.bot.close)
            self.env = simcord.Env(self.bot)
            self.guild = self.env.create_guild("Parlour Playground")
            self.channel = self.guild.create_text_channel("tables")
            for name in self.member_names:
                user = self.env.create_user(name, global_name=name.title())
                self.members[name] = self.guild.add_member(user)
            await self.env.start()
            self._exit.push_async_callback(self.env.shutdown)
            self._exit.enter_context(self.env.time_context())
            await self.bot.user.edit(username=BOT_NAME)  # simcord calls its bot "TestBot"
            await self._speak()
            await self._follow_wall_clock(slack=0)
            try:
                self.preview = await self._exit.enter_async_context(
                    self.env.preview(
                        self.channel,
                        viewers=list(self.members.values()),
                        layout="channel",
                        port=self.port,
                    )
                )
            except SetupError as error:
                raise PlaygroundUnavailable(f"{error} (try another --port)") from error
            self._errors_seen = self.env.error_cursor
            self._requests_seen = len(self.env.http_requests)
            self._pump = asyncio.get_running_loop().create_task(self._run_pump())
            return self
        except BaseException:
            await self._exit.aclose()
            raise

    async def _speak(self) -> None:
        """Set the playground's language for ``#tables`` and the members, then greet in it
        (the commands named as a client in that language lists them)."""
        languages = self.bot.languages
        for scope in (f"channel:{self.channel.id}",
                      *(f"user:{member.id}" for member in self.members.values())):
            await languages.choose(scope, self.language)
        lang = LANGUAGES[self.language or "en"]
        welcome = lang.commands(lang.t("playground.welcome"))
        await self.bot.get_channel(self.channel.id).send(welcome)

    async def __aexit__(self, *exc_info: object) -> None:
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
        await self._exit.aclose()
        self._print_new_errors()

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Drive simcord from Python (tests, scripts), then republish the pages.

        simcord refuses overlapping operations; inside ``async with playground.turn():`` the
        pump never starts one. On leaving, the open pages show what the block did.
        """
        async with self._turn:
            yield
            await self._republish()

    async def sleep(self, seconds: float) -> None:
        """The bot's timed waits (``ParlourBot.sleep``): ``seconds`` of real time, woken by
        the pump and declared to simcord as external input, so that no click's settlement
        waits for them (module docstring). Outside the bot's own work (a script driving the
        bot) there is nothing to declare."""
        from simcord import SetupError

        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        due = time.perf_counter() + max(seconds, 0.0)  # simcord's time.monotonic is virtual
        heapq.heappush(self._alarms, (due, next(self._alarm_order), woken))
        try:
            await self.env.external_wait(woken, reason="a timed wait of the bot (real time)")
        except SetupError:
            await woken

    async def wait_closed(self) -> None:
        """Return when the page's "End preview session" is used (or the preview closes)."""
        await self.preview.wait_closed()

    async def _run_pump(self) -> None:
        from simcord import SetupError

        while True:
            await asyncio.sleep(self._until_next_alarm())
            self._wake_due()
            self._print_new_errors()
            self._note_channel_writes()
            if not self._unpublished and self._clock_lag() < CLOCK_SLACK:
                continue
            try:
                async with self._turn:
                    await self._follow_wall_clock(slack=CLOCK_SLACK)
                    if self._unpublished:
                        await self._republish()
            except SetupError as busy:  # a click from the page holds simcord's operation guard
                log.debug("pump yielded to the page: %s", busy)
            except TimeoutError as slow:
                log.warning("the bot did not settle in time: %s", slow)

    def _until_next_alarm(self) -> float:
        """Seconds to the pump's next look: a tick, or sooner when a timed wait ends."""
        if not self._alarms:
            return TICK
        return min(TICK, max(0.0, self._alarms[0][0] - time.perf_counter()))

    def _wake_due(self) -> None:
        """End the bot's timed waits that are due (those cancelled meanwhile are dropped)."""
        now = time.perf_counter()
        while self._alarms and self._alarms[0][0] <= now:
            _due, _order, woken = heapq.heappop(self._alarms)
            if not woken.done():
                woken.set_result(None)

    def _note_channel_writes(self) -> None:
        """Note REST writes to channels (board edits, messages) made since the last look.

        Interactions' own answers are not counted: the page that acted publishes them.
        """
        requests = self.env.http_requests
        self._unpublished |= any(
            request.method != "GET" and request.path.startswith("/channels/")
            for request in requests[self._requests_seen :]
        )
        self._requests_seen = len(requests)

    async def _republish(self) -> None:
        self._note_channel_writes()
        await self.preview.refresh()
        self._unpublished = False

    def _clock_lag(self) -> float:
        return (datetime.now(UTC) - self.env.now()).total_seconds()

    async def _follow_wall_clock(self, slack: float) -> None:
        lag = self._clock_lag()
        if lag > slack:
            await self.env.advance_time(lag)

    def _print_new_errors(self) -> None:
        if self.env is None:
            return
        for error in self.env.errors_since(self._errors_seen):
            log.error("the bot raised:", exc_info=error)
        self._errors_seen = self.env.error_cursor


async def drop_saved_tables(settings: Settings) -> None:
    """Forget tables saved by an earlier playground run (their simulated messages are gone).

    The bot's start-up then returns their escrow to the members' balances.
    """
    store = await open_store(settings.database, starting_chips=settings.starting_chips)
    try:
        for table_id, _guild, _channel, _data in await store.load_tables():
            await store.delete_table(table_id)
    finally:
        await store.close()


def open_browser(url: str) -> bool:
    """Open ``url`` in a graphical browser when there is a display; return whether it tried.

    On a machine without a display it does nothing (a terminal browser would take over the
    console).
    """
    graphical = sys.platform in ("darwin", "win32") or any(
        os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY")
    )
    return graphical and webbrowser.open(url)


GUIDE = """\
Parlour playground: the real bot in a simulated Discord server, on your machine only.

  Open  {url}
  (the address is a secret key to this session; it changes every run)

  1. In #tables, type /tripoli start and send it: a lobby appears.
  2. Press "Add AI" once or twice, then "Start".
  3. Press "My hand" for your cards; switch "Viewing as" to act as {others}.
  /chips balance, /chips daily, /chips give and /leaderboard work too.

Chips are kept in {database}. Press Ctrl+C here to stop.
"""


async def serve(settings: Settings, members: Sequence[str], port: int, browser: bool,
                language: str | None = None) -> None:
    """Run the playground until Ctrl+C or "End preview session" in the page (in
    ``language``, see :class:`Playground`)."""
    async with Playground(settings, members, port, language) as playground:
        others = ", ".join(name.title() for name in playground.member_names[1:]) or "others"
        print(GUIDE.format(url=playground.url, others=others, database=settings.database))
        if browser:
            open_browser(playground.url)
        await playground.wait_closed()
