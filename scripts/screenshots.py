"""Screenshots of what Parlour's players see: each game played in the playground.

Runs the playground (the real bot in simcord's preview; a fresh one per game), opens its page
in Debian's headless Chromium and plays as Alice against AI players by clicking the page like
a player would: one deal of Tripoli, the first tricks of Troefcall, Caribbean Kalooki until
a player has laid combinations down. Saves PNGs under ``screenshots/`` (ignored by git): the
Tripoli lobby, and for every game its board and Alice's private hand, with their pictures
(``<game>-board.png``, ``<game>-hand.png``: just the message; the README shows copies of
them from ``docs/``)::

    .venv/bin/python scripts/screenshots.py [--out screenshots] [--chromium /usr/bin/chromium]

With ``--language fa`` (or ``it``, ``nl``) the channel and Alice speak that language and only
the lobby and the first board are shot (``<code>-lobby.png``, ``<code>-board.png``), to check
how the language reads, e.g. Persian's right-to-left text beside card codes.

Needs the ``playground`` extra (``pip install -e '.[playground]'``) and Chromium
(Debian/Ubuntu: ``sudo apt-get install chromium``). simcord's own capture launches
Playwright's bundled browser instead, which is not always available; this drives the system
Chromium over the DevTools protocol with aiohttp (part of the playground extra).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.config import Settings  # noqa: E402
from bot.i18n import LANGUAGES  # noqa: E402
from bot.playground import Playground  # noqa: E402

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WIDTH, HEIGHT = 1280, 960
TALL = 2400
"""Page height while one message is shot (a board with its picture is taller than a screen)."""
SHOT_STYLE = (
    "#channel-timeline, #channel-layout, #preview-app, #preview-stage, #preview-workspace,"
    " #preview-shell, body, html { height: auto !important; max-height: none !important;"
    " overflow: visible !important; }"
    " #channel-composer { display: none !important; }"
)
"""The page's style while one message is shot: the channel at full length, no composer."""
#: Buttons of Alice's private Tripoli hand, in the order she prefers them (plain and legal).
CHOICES = ("Best five", "Keep", "Pass", "Check", "Call", "Lead ")
MOST_STEPS = 200
#: JavaScript expressions for the newest message and for a table's board message.
LAST = "[...document.querySelectorAll('article.channel-message')].at(-1)"


def board_of(title: str) -> str:
    """The JavaScript expression for the board whose embed title starts with ``title``."""
    return (
        "[...document.querySelectorAll('article.channel-message')].find(m => [...m"
        f".querySelectorAll('.embed-title')].some(t => t.textContent.startsWith('{title}')))"
    )


BOARD = board_of("Tripoli")


class Browser:
    """One headless Chromium page driven over the DevTools protocol."""

    def __init__(self, executable: str, profile: Path) -> None:
        self.executable = executable
        self.profile = profile
        self.process: subprocess.Popen[bytes] | None = None
        self.http: Any = None
        self.socket: Any = None
        self.ids = itertools.count(1)

    async def __aenter__(self) -> Browser:
        import aiohttp

        arguments = [
            self.executable,
            "--headless=new",
            "--disable-gpu",
            "--hide-scrollbars",
            "--remote-debugging-port=0",
            f"--user-data-dir={self.profile}",
            f"--window-size={WIDTH},{HEIGHT}",
            "about:blank",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            arguments.insert(1, "--no-sandbox")  # Chromium refuses to sandbox as root
        self.process = subprocess.Popen(arguments, stderr=subprocess.DEVNULL)
        port_file = self.profile / "DevToolsActivePort"
        for _ in range(200):
            if port_file.exists() and port_file.read_text().strip():
                break
            await asyncio.sleep(0.05)
        else:
            raise RuntimeError(f"{self.executable} did not start its DevTools endpoint")
        port = int(port_file.read_text().split()[0])
        self.http = aiohttp.ClientSession()
        async with self.http.get(f"http://127.0.0.1:{port}/json/list") as response:
            targets = await response.json()
        page = next(target for target in targets if target["type"] == "page")
        self.socket = await self.http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        await self.call(
            "Emulation.setDeviceMetricsOverride",
            width=WIDTH,
            height=HEIGHT,
            deviceScaleFactor=1,
            mobile=False,
        )
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self.http is not None:
            await self.http.close()
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command and return its result (events in between are skipped)."""
        ident = next(self.ids)
        await self.socket.send_json({"id": ident, "method": method, "params": params})
        while True:
            message = await self.socket.receive_json()
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    async def js(self, expression: str) -> Any:
        """Evaluate JavaScript in the page and return its JSON value."""
        result = await self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        return result["result"].get("value")

    async def screenshot(self, path: Path) -> None:
        shot = await self.call("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))
        print(f"saved {path}")

    async def shoot(self, where: str, path: Path) -> None:
        """Save a PNG of just one message (``where``, a JS expression), pictures and all: for
        the shot the channel is laid out at full length and only that message is painted."""
        await asyncio.sleep(1.0)  # the pictures load
        await self.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=TALL,
                        deviceScaleFactor=1, mobile=False)
        await self.js(
            f"(() => {{ {where}.classList.add('shot-target');"
            " const style = document.createElement('style'); style.id = 'shot-style';"
            f" style.textContent = {json.dumps(SHOT_STYLE)}; document.head.append(style);"
            f" {where}.scrollIntoView({{block: 'center'}}); }})()"
        )
        await asyncio.sleep(0.8)
        box = await self.js(
            "(() => { const r = document.querySelector('.shot-target').getBoundingClientRect();"
            " return {x: r.x, y: r.y, width: r.width, height: r.height}; })()"
        )
        shot = await self.call("Page.captureScreenshot", format="png", clip={**box, "scale": 1})
        await self.js("(() => { document.getElementById('shot-style').remove();"
                      " document.querySelector('.shot-target').classList.remove('shot-target');"
                      " })()")
        await self.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT,
                        deviceScaleFactor=1, mobile=False)
        path.write_bytes(base64.b64decode(shot["data"]))
        print(f"saved {path}")


    async def choose(self, placeholder: str, where: str = LAST) -> bool:
        """Open the select menu whose placeholder starts with ``placeholder`` in ``where`` and
        pick its first option; False if there is no such menu.

        Both in one step of the page: opening draws the menu anew (found again by its
        control key), and a republish arriving in between would close it unsent.
        """
        wanted = json.dumps(placeholder)
        picked = await self.js(
            f"(() => {{ const root = {where}; if (!root) return false;"
            " const t = [...root.querySelectorAll('button.select-trigger')]"
            f".find(b => b.textContent.trim().startsWith({wanted})); if (!t) return false;"
            " const key = t.dataset.controlKey; t.scrollIntoView({block: 'center'}); t.click();"
            " const menu = [...document.querySelectorAll('.preview-select')]"
            ".find(w => w.dataset.controlKey === key);"
            " const o = menu?.querySelector('[role=option]'); if (!o) return false;"
            " o.click(); return true; })()"
        )
        await asyncio.sleep(0.5)
        return bool(picked)

    async def type_command(self, text: str) -> None:
        """Type a slash command in the composer, pick it (Enter) and send it."""
        await self.js("document.getElementById('channel-composer-input').focus()")
        await self.call("Input.insertText", text=text)
        await asyncio.sleep(0.5)
        await self.key("Enter")
        await asyncio.sleep(0.5)
        await self.js("document.querySelector('#channel-composer button.send-message').click()")
        await asyncio.sleep(1.0)

    async def key(self, name: str) -> None:
        for kind in ("keyDown", "keyUp"):
            await self.call(
                "Input.dispatchKeyEvent",
                type=kind,
                key=name,
                code=name,
                windowsVirtualKeyCode=13 if name == "Enter" else 0,
            )

    async def buttons(self, where: str = "document") -> list[str]:
        """Labels of the enabled message buttons in ``where`` (a JS expression), in order."""
        return await self.js(
            f"(() => {{ const root = {where}; if (!root) return [];"
            " return [...root.querySelectorAll('button.component-button')]"
            ".filter(b => !b.disabled).map(b => b.textContent.trim()); })()"
        )

    async def click(self, label: str, where: str = LAST, *, prefix: bool = False) -> bool:
        """Click the enabled button with this label in ``where``; False if there is none."""
        wanted = json.dumps(label)
        test = f"startsWith({wanted})" if prefix else f"localeCompare({wanted}) === 0"
        found = await self.js(
            f"(() => {{ const root = {where}; if (!root) return false;"
            " const b = [...root.querySelectorAll('button.component-button')]"
            f".filter(b => !b.disabled && b.textContent.trim().{test})[0]; if (!b) return false;"
            " b.scrollIntoView({block: 'center'}); b.click(); return true; })()"
        )
        await asyncio.sleep(0.3)
        return bool(found)

    async def status(self) -> str:
        """The page's action status line (``"Completing action…"`` while a click is pending)."""
        return await self.js("document.getElementById('action-status')?.textContent ?? ''")

    async def wait_for(self, done: Callable[[], Awaitable[bool]], seconds: float = 5.0) -> bool:
        """Poll ``done`` until it holds and the page has settled (no action pending, no
        refresh): False if that takes more than ``seconds``."""
        for _ in range(int(seconds / 0.2)):
            if await done() and not (await self.status()).endswith("…"):
                await asyncio.sleep(0.3)  # the last repaint
                return True
            await asyncio.sleep(0.2)
        return False

    async def press(self, label: str, done: Callable[[], Awaitable[bool]], what: str,
                    board: str = BOARD) -> None:
        """Click ``label`` on the board until ``done`` holds and the page has settled.

        A click the preview drops (it was republishing at that instant) is repeated; one that
        worked is never repeated, since ``done`` is checked before every click.
        """
        for _ in range(4):
            clicked = await done() or await self.click(label, board)
            if clicked and await self.wait_for(done):
                return
        raise RuntimeError(f"{what} did not appear (the page says: {await self.status()!r})")

    async def newest(self) -> str | None:
        """The id of the newest message shown (``data-message-id``), None in an empty page."""
        return await self.js(f"{LAST}?.dataset.messageId ?? null")

    async def open_hand(self, board: str = BOARD) -> None:
        """Press "My hand" on the board and wait for the private answer to appear (a newer
        message than the newest before the click: the page may drop an older one as it adds
        it, so the number of messages says nothing) and the page to settle (a select menu
        picked while the click is still completing is not sent).

        A click the preview refuses (it was republishing at that instant) is repeated.
        """
        async def answered() -> bool:
            return (await self.newest() != before
                    and "Only you can see" in await self.text(LAST))

        for _ in range(3):
            before = await self.newest()
            await self.click("My hand", board)
            if await self.wait_for(answered, seconds=3.0):
                return
            await self.follow_latest()
        status = await self.js("document.getElementById('action-status').textContent")
        raise RuntimeError(f"no answer appeared in the page (the page says: {status!r})")

    async def text(self, where: str = BOARD) -> str:
        return await self.js(f"(() => {{ const root = {where}; return root?.innerText ?? ''; }})()")

    async def scroll_to(self, where: str) -> None:
        await self.js(f"{where}.scrollIntoView({{block: 'start'}})")
        await asyncio.sleep(0.3)

    async def follow_latest(self) -> None:
        """Scroll back to the newest message so the page keeps appending new ones."""
        await self.js(
            "(() => { const jump = [...document.querySelectorAll('button.history-button')]"
            ".find(b => b.textContent.includes('jump to latest') && b.offsetParent);"
            f" if (jump) jump.click(); else {LAST}.scrollIntoView({{block: 'end'}}); }})()"
        )
        await asyncio.sleep(0.5)

    async def view_as(self, member_id: int) -> None:
        """Switch the page's "Viewing as" to another member."""
        await self.js(
            "(() => { const picker = document.getElementById('viewer-picker');"
            f" picker.value = '{member_id}';"
            " picker.dispatchEvent(new Event('change', {bubbles: true})); })()"
        )
        await asyncio.sleep(1.5)


def seated(browser: Browser, seats: int) -> Callable[[], Awaitable[bool]]:
    """Whether the lobby shows ``seats`` seats."""

    async def done() -> bool:
        return f"Seats ({seats}/" in await browser.text(BOARD)

    return done


def dealt(browser: Browser, board: str = BOARD) -> Callable[[], Awaitable[bool]]:
    """Whether the lobby has become the board of deal 1 (its "My hand" button shows)."""

    async def done() -> bool:
        shown = await browser.buttons(board)
        return "My hand" in shown and "Start" not in shown

    return done


def changed(browser: Browser, board: str, before: str) -> Callable[[], Awaitable[bool]]:
    """Whether the board's text is no longer ``before``."""

    async def done() -> bool:
        return await browser.text(board) != before

    return done


async def open_table(playground: Playground, browser: Browser, game: str, ais: int) -> str:
    """Alice types ``/<game> start``, adds ``ais`` AI players and starts; returns the
    board's JavaScript expression."""
    board = board_of({"tripoli": "Tripoli", "troefcall": "Troefcall",
                      "kalooki": "Caribbean Kalooki"}[game])
    await browser.call("Page.navigate", url=playground.url)
    await asyncio.sleep(2)
    await browser.type_command(f"/{game} start")
    if "Add AI" not in await browser.buttons(board):
        raise RuntimeError(f"the lobby did not appear after typing /{game} start")
    for seat in range(ais):
        before = await browser.text(board)
        await browser.press("Add AI", changed(browser, board, before), f"AI seat {seat + 1}",
                            board)
    return board


async def play(playground: Playground, browser: Browser, out: Path) -> None:
    """Alice opens a table, adds two AI players and plays deal 1 by clicking the page."""
    await browser.call("Page.navigate", url=playground.url)
    await asyncio.sleep(2)
    await browser.type_command("/tripoli start")
    if "Add AI" not in await browser.buttons(BOARD):
        raise RuntimeError("the lobby did not appear after typing /tripoli start")
    for seats in (2, 3):
        await browser.press("Add AI", seated(browser, seats), f"AI seat {seats - 1}")
    await browser.screenshot(out / "01-lobby.png")
    await browser.press("Start", dealt(browser), "the board")
    await browser.scroll_to(BOARD)
    await browser.screenshot(out / "02-board.png")
    await browser.follow_latest()
    pending = {"hand": "03-hand.png", "lead": "04-michigan-hand.png"}
    for _ in range(MOST_STEPS):
        board = await browser.text(BOARD)
        if "Next deal" in await browser.buttons(BOARD) or "Deal 1 is over" in board:
            break
        await browser.open_hand()
        hand = await browser.text(LAST)
        choices = await browser.buttons(LAST)
        shot = "hand" if choices else None
        shot = "lead" if "Your lead" in hand else shot
        if shot in pending:
            await browser.js(f"{LAST}.scrollIntoView({{block: 'end'}})")
            await asyncio.sleep(0.3)
            await browser.screenshot(out / pending.pop(shot))
            if shot == "lead":  # the board shows the Michigan run
                await browser.shoot(LAST, out / "tripoli-hand.png")
                await browser.shoot(BOARD, out / "tripoli-board.png")
                await browser.follow_latest()
        choice = next(
            (label for want in CHOICES for label in choices if label.startswith(want)), None
        )
        if choice is None:
            await asyncio.sleep(1.0)  # the AI players are thinking
        else:
            await browser.click(choice, LAST)
    await asyncio.sleep(1)
    if "lead" in pending:  # Alice never led: the board and hand as the deal ends
        await browser.shoot(BOARD, out / "tripoli-board.png")
    await browser.scroll_to(BOARD)
    await browser.screenshot(out / "05-deal-over.png")
    await browser.view_as(playground.members["bob"].id)
    await browser.screenshot(out / "06-viewing-as-bob.png")


async def play_in(playground: Playground, browser: Browser, out: Path, code: str) -> None:
    """In a playground started for ``code``, Alice opens a table with two AI players and
    starts it: the lobby (the page) and the board (just its message) are shot."""
    t = LANGUAGES[code].t
    title = t("game.tripoli").strip("\u2066\u2067\u2068\u2069")  # without the isolates
    board = BOARD.replace("startsWith('Tripoli')", f"includes({json.dumps(title)})")
    await browser.call("Page.navigate", url=playground.url)
    await asyncio.sleep(2)
    await browser.type_command("/tripoli start")
    await asyncio.sleep(1.5)
    for _ in range(2):
        if not await browser.click(t("button.add_ai"), board):
            raise RuntimeError(f"no {t('button.add_ai')!r} button on the lobby")
        await asyncio.sleep(1.5)
    await browser.scroll_to(board)
    await browser.screenshot(out / f"{code}-lobby.png")
    await browser.click(t("button.start"), board)
    await asyncio.sleep(2.5)
    await browser.shoot(board, out / f"{code}-board.png")


async def play_troefcall(playground: Playground, browser: Browser, out: Path) -> None:
    """Alice and three AI players: she names trumps when she calls and plays her first legal
    card each trick; her hand is saved before her fourth card, the board after it."""
    board = await open_table(playground, browser, "troefcall", 3)
    await browser.press("Start", dealt(browser, board), "the Troefcall board", board)
    await browser.follow_latest()
    plays = 0
    for _ in range(MOST_STEPS):
        if plays == 4:
            break
        await browser.open_hand(board)
        choices = await browser.buttons(LAST)
        choice = next((label for label in choices if label.startswith("Trumps")), None)
        if choice is None:
            choice = next((label for label in choices if label[:1].isalnum()
                           and not label.startswith(("Kap", "Show"))), None)
        if plays == 3 and choice is not None and not choice.startswith("Trumps"):
            await browser.shoot(LAST, out / "troefcall-hand.png")
            await browser.follow_latest()
        if choice is None:
            await asyncio.sleep(1.0)
            continue
        await browser.click(choice, LAST)
        plays += not choice.startswith("Trumps")
    await asyncio.sleep(1.5)
    await browser.shoot(board, out / "troefcall-board.png")


KALOOKI_TURN = {"Alice allows or refuses": "Allow", "Alice to draw.": "Draw from the stock",
                "Alice is playing": "Discard"}
"""What the Kalooki board says when Alice is to act -> what she does (a button, or the
select menu whose placeholder starts so)."""
MELDS_DOWN = "'s combinations"
"""On the Kalooki board once a player has laid combinations down (a field per player)."""


def kalooki_status(browser: Browser, board: str) -> Callable[[], Awaitable[bool]]:
    """Whether the Kalooki board waits for Alice or shows a player's combinations."""

    async def done() -> bool:
        text = await browser.text(board)
        return MELDS_DOWN in text or any(status in text for status in KALOOKI_TURN)

    return done


def gone(browser: Browser, board: str, status: str) -> Callable[[], Awaitable[bool]]:
    """Whether the board no longer says ``status`` (Alice's move was taken)."""

    async def done() -> bool:
        return status not in await browser.text(board)

    return done


async def play_kalooki(playground: Playground, browser: Browser, out: Path) -> None:
    """Alice and three AI players: Alice plays her own turns (allows a call, draws from the
    stock, discards her first card), waiting for the board to say it is her turn, until a
    player has laid combinations down; her hand and the board with those combinations are
    saved then. Between her turns the AI players' pauses and the call windows (8 s after
    every discard) run in real time: a deal takes some minutes to reach a lay-down."""
    board = await open_table(playground, browser, "kalooki", 3)
    await browser.press("Start", dealt(browser, board), "the Kalooki board", board)
    for _ in range(MOST_STEPS):
        if not await browser.wait_for(kalooki_status(browser, board), seconds=120.0):
            raise RuntimeError("the Kalooki board never came to Alice's turn")
        text = await browser.text(board)
        if MELDS_DOWN in text:
            break
        status = next(status for status in KALOOKI_TURN if status in text)
        move = KALOOKI_TURN[status]
        await browser.follow_latest()
        await browser.open_hand(board)
        moved = (await browser.choose(move, LAST) if move == "Discard"
                 else await browser.click(move, LAST))
        if not moved:
            raise RuntimeError(f"Alice's hand has no {move!r} (the board says {status!r})")
        await browser.wait_for(gone(browser, board, status), seconds=15.0)  # else: again
    else:
        raise RuntimeError(f"no combinations were laid down in {MOST_STEPS} turns of Alice's")
    await browser.follow_latest()
    await browser.open_hand(board)
    await browser.shoot(LAST, out / "kalooki-hand.png")
    await browser.follow_latest()
    await browser.shoot(board, out / "kalooki-board.png")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    parser.add_argument("--chromium", default=None, help="the Chromium executable")
    parser.add_argument("--language", choices=sorted(LANGUAGES), default=None,
                        help="shoot the lobby and board in this language only")
    arguments = parser.parse_args()
    executable = arguments.chromium or next(filter(None, map(shutil.which, BROWSERS)), None)
    if executable is None:
        print(
            "Chromium is not installed. On Debian or Ubuntu: sudo apt-get install chromium\n"
            "(or pass --chromium /path/to/chrome).",
            file=sys.stderr,
        )
        return 1
    arguments.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        async with Browser(executable, Path(scratch) / "chromium") as browser:
            runs = (("tripoli", play), ("troefcall", play_troefcall), ("kalooki", play_kalooki))
            if arguments.language:
                runs = (("tripoli", lambda playground, browser, out: play_in(
                    playground, browser, out, arguments.language)),)
            for game, run in runs:
                settings = Settings(
                    _env_file=None,
                    database=Path(scratch) / f"{game}.db",
                    sync="global",
                    ai_delay=0.4,
                    board_edit_interval=0.2,
                )
                async with Playground(settings, port=0,
                                      language=arguments.language) as playground:
                    await run(playground, browser, arguments.out)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
