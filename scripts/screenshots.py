"""Screenshots of what Parlour's players see: a Tripoli deal played in the playground.

Runs the playground (the real bot in simcord's preview), opens its page in Debian's headless
Chromium, plays one deal of Tripoli as Alice against two AI players by clicking the page like a
player would, and saves PNGs of the lobby, the board and Alice's private hand under
``screenshots/`` (ignored by git)::

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
#: Buttons of Alice's private hand, in the order she prefers them (a plain, legal strategy).
CHOICES = ("Best five", "Keep", "Pass", "Check", "Call", "Lead ")
MOST_STEPS = 200
#: JavaScript expressions for the newest message and for the table's board message.
LAST = "[...document.querySelectorAll('article.channel-message')].at(-1)"
BOARD = (
    "[...document.querySelectorAll('article.channel-message')].find(m => [...m.querySelectorAll("
    "'.embed-title')].some(t => t.textContent.startsWith('Tripoli')))"
)


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

    async def press(self, label: str, done: Callable[[], Awaitable[bool]], what: str) -> None:
        """Click ``label`` on the board until ``done`` holds and the page has settled.

        A click the preview drops (it was republishing at that instant) is repeated; one that
        worked is never repeated, since ``done`` is checked before every click.
        """
        for _ in range(4):
            clicked = await done() or await self.click(label, BOARD)
            if clicked and await self.wait_for(done):
                return
        raise RuntimeError(f"{what} did not appear (the page says: {await self.status()!r})")

    async def messages(self) -> int:
        return await self.js("document.querySelectorAll('article.channel-message').length")

    async def open_hand(self) -> None:
        """Press "My hand" on the board and wait for the private answer to appear.

        A click the preview refuses (it was republishing at that instant) is repeated.
        """
        for _ in range(3):
            before = await self.messages()
            await self.click("My hand", BOARD)
            for _ in range(30):
                if await self.messages() > before:
                    return
                await asyncio.sleep(0.1)
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


def dealt(browser: Browser) -> Callable[[], Awaitable[bool]]:
    """Whether the lobby has become the board of deal 1 (its "My hand" button shows)."""

    async def done() -> bool:
        shown = await browser.buttons(BOARD)
        return "My hand" in shown and "Start" not in shown

    return done


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
        choice = next(
            (label for want in CHOICES for label in choices if label.startswith(want)), None
        )
        if choice is None:
            await asyncio.sleep(1.0)  # the AI players are thinking
        else:
            await browser.click(choice, LAST)
    await asyncio.sleep(1)
    await browser.scroll_to(BOARD)
    await browser.screenshot(out / "05-deal-over.png")
    await browser.view_as(playground.members["bob"].id)
    await browser.screenshot(out / "06-viewing-as-bob.png")


async def play_in(playground: Playground, browser: Browser, out: Path, code: str) -> None:
    """The channel and Alice speak ``code``; Alice opens a table with two AI players and
    starts it: the lobby and the board are shot."""
    t = LANGUAGES[code].t
    title = t("game.tripoli").strip("\u200f")  # without the right-to-left marks
    board = BOARD.replace("startsWith('Tripoli')", f"includes({json.dumps(title)})")
    async with playground.turn():
        languages = playground.bot.languages
        await languages.choose(f"channel:{playground.channel.id}", code)
        await languages.choose(f"user:{playground.members['alice'].id}", code)
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
    await browser.scroll_to(board)
    await browser.screenshot(out / f"{code}-board.png")


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
        settings = Settings(
            _env_file=None,
            database=Path(scratch) / "screenshots.db",
            sync="global",
            ai_delay=0.4,
            board_edit_interval=0.2,
        )
        async with (
            Playground(settings, port=0) as playground,
            Browser(executable, Path(scratch) / "chromium") as browser,
        ):
            if arguments.language:
                await play_in(playground, browser, arguments.out, arguments.language)
            else:
                await play(playground, browser, arguments.out)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
