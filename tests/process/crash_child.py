"""The child process of the crash test (``test_crash.py``): one ranked Tripoli session of the
real table runtime on a real SQLite file, which kills itself with SIGKILL at a chosen write.

Usage::

    python crash_child.py run DB JOURNAL [--kill STEP:TAG:K | --kill-nth N]
    python crash_child.py resume DB JOURNAL

``run`` plays the scripted session from scratch: members 1 (host), 2 and 3 open, join and
start a ranked table (buy-in 100, starting chips 1000); deal 1; member 3 leaves and member 4
joins between deals; deal 2; the host ends the session. Every decision is the engine's
timeout action. ``resume`` restarts on the same file as ``bot.app`` does (``restore`` of the
registry, then the start-up orphan return), reports the invariants' figures, ends the
session (the host ends it; the remaining decisions are timeout actions) and reports again.

Kill points: the store is wrapped (here only) so that the process SIGKILLs itself right
after a write transaction committed (``escrow``, ``settle``, ``save_table``,
``delete_table`` and ``commit_table``, whichever the store has): the N-th write of the run
(``--kill-nth``), or the K-th write carrying TAG during the driver's step STEP (``--kill``;
STEP or TAG ``*`` for any). Tags: the method's name, ``write``, ``chips`` (moves chips),
``save`` (writes a snapshot), ``delete`` (deletes one). Steps: ``lobby``, ``start``,
``deal1``, ``leave``, ``join2``, ``next``, ``deal2``, ``end``.

The journal (JSON, next to the database) is the driver's own record, independent of the
store: the stack a member leaves with (written before the leave) and the final stacks once
the game is over (written before the write that follows it). Each child prints JSON lines
on stdout: ``{"event": "write", ...}`` per write, ``{"event": "kill", ...}`` just before the
kill, ``{"event": "report", ...}`` with the figures the parent checks.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import secrets
import signal
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

_SEED = hashlib.sha256(b"parlour crash test").digest()
secrets.token_bytes = lambda n=32: (_SEED * (n // 32 + 1))[:n]  # one shuffle for every run

from bot.clock import ManualClock  # noqa: E402  (after fixing the session seed)
from bot.config import Settings  # noqa: E402
from bot.games import GAMES  # noqa: E402
from bot.store import open_store  # noqa: E402
from engine.tripoli.phases import Phase  # noqa: E402

try:
    from bot.runtime.refs import Ref, Refusal
    from bot.runtime.registry import TableRegistry
    from bot.runtime.table import TableState
except ImportError:  # the 0.1 layout
    from bot.table_refs import Ref, Refusal  # type: ignore[no-redef]
    from bot.table_state import TableState  # type: ignore[no-redef]
    from bot.tables import TableRegistry  # type: ignore[no-redef]

GUILD, CHANNEL = 10, 20
HOST, BEN, CAT, DAN = 1, 2, 3, 4
MEMBERS = (HOST, BEN, CAT, DAN)
START, BUY_IN = 1000, 100
WRITES = ("escrow", "settle", "save_table", "delete_table", "commit_table")
STEPS_MAX = 2000


def emit(event: str, **data: Any) -> None:
    print(json.dumps({"event": event, **data}), flush=True)


class Journal:
    """The driver's record of what the game paid, in a JSON file replaced atomically."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data: dict[str, Any] = {"left": {}, "final": None}
        if path.exists():
            self.data = json.loads(path.read_text())

    def write(self) -> None:
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps(self.data))
        os.replace(temporary, self.path)


class Killer:
    """Counts the store's committed writes and SIGKILLs the process at the chosen one."""

    def __init__(self, kill: str | None, kill_nth: int | None) -> None:
        self.step = "lobby"
        self.total = 0
        self.counts: dict[tuple[str, str], int] = {}
        self.kill = tuple(kill.split(":")) if kill else None
        self.kill_nth = kill_nth

    def committed(self, method: str, tags: set[str]) -> None:
        self.total += 1
        hits = []
        for tag in tags:
            for step in (self.step, "*"):
                key = (step, tag)
                self.counts[key] = self.counts.get(key, 0) + 1
                hits.append((step, tag, self.counts[key]))
        where = {"n": self.total, "step": self.step, "method": method, "tags": sorted(tags),
                 "in_step": self.counts[(self.step, "write")]}
        emit("write", **where)
        chosen = self.kill_nth == self.total
        if self.kill is not None:
            step, tag, k = self.kill
            chosen |= (step, tag, int(k)) in hits
        if chosen:
            emit("kill", **where)
            os.kill(os.getpid(), signal.SIGKILL)


def tags_of(method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> set[str]:
    tags = {method, "write"}
    if method in ("escrow", "settle"):
        tags.add("chips")
    elif method == "save_table":
        tags.add("save")
    elif method == "delete_table":
        tags.add("delete")
    elif method == "commit_table":
        write = args[0] if args else kwargs.get("write")
        if getattr(write, "moves", ()):
            tags.add("chips")
        tags.add("delete" if getattr(write, "snapshot", "") is None else "save")
    return tags


def wrap_store(store: Any, killer: Killer, before: Any) -> None:
    """Replace the store's write methods (on this instance only) by counting ones."""
    for method in WRITES:
        original = getattr(store, method, None)
        if original is None:
            continue

        async def counted(*args: Any, _method: str = method, _original: Any = original,
                          **kwargs: Any) -> Any:
            before()
            result = await _original(*args, **kwargs)
            killer.committed(_method, tags_of(_method, args, kwargs))
            return result

        setattr(store, method, counted)


class Driver:
    """Drives the registry by its member-level operations and reports the figures."""

    def __init__(self, store: Any, journal: Journal, tmp: Path) -> None:
        settings = Settings(_env_file=None, database=tmp / "unused.db", ai_delay=0,
                            board_edit_interval=0)
        self.store = store
        self.journal = journal
        self.registry = TableRegistry(
            SimpleNamespace(store=store, settings=settings, clock=ManualClock(),
                            sleep=asyncio.sleep), GAMES
        )
        self.table: Any = None

    def note_final(self) -> None:
        """Before each write: once the game is over, journal the final stacks."""
        table = self.table
        if table is None or table.game is None or self.journal.data["final"] is not None:
            return
        if not table.game.is_over:
            return
        self.journal.data["final"] = {
            str(entry.member_id): table.game.stacks[seat] or 0
            for seat, entry in enumerate(table.seats)
            if entry.member_id is not None and not entry.left
        }
        self.journal.write()

    # ------------------------------------------------------------------ operations

    def ref(self, seat: int) -> Ref:
        """The reference of ``seat``'s current decision, answered by its timeout action."""
        game = self.table.game
        action = game.timeout_action(seat)
        verb, arg = action.kind, ""
        if verb == "select":
            verb = "best"
        elif verb == "lead":
            arg = str(int(action.card))
        elif verb == "name_suit":
            arg = action.suit.letter
        return Ref(self.table.id, verb, seat, game.decision_id(seat), arg)

    async def play(self, done: Any) -> None:
        """Answer every pending member decision with its timeout action until ``done()``."""
        for _ in range(STEPS_MAX):
            if self.table.state is TableState.OVER or done():
                return
            seats = sorted(s for s in self.table.game.to_act if not self.table.seats[s].ai)
            if not seats:
                raise RuntimeError(f"nobody to act in {self.table.game.phase}")
            seat = seats[0]
            await self.registry.act(self.table, self.table.seats[seat].member_id,
                                    self.ref(seat))
        raise RuntimeError("the session did not finish")

    def between_deals(self) -> bool:
        return self.table.game.phase is Phase.BETWEEN_DEALS

    async def end(self) -> None:
        """The host (or a manager) ends the session; the remaining decisions time out."""
        table = self.table
        try:
            await self.registry.end(table, table.host_id, True, False)
        except Refusal as refusal:
            if refusal.code != "ending":
                raise
        if table.state is not TableState.OVER:
            await self.play(lambda: False)
        await self.quiet()

    async def quiet(self) -> None:
        """Wait for the registry's background work (resumed tables, the deletion of a
        finished table's snapshot), not for the deadline scheduler's sleep."""
        for _ in range(200):
            tasks = [task for task in getattr(self.registry, "_tasks", ())
                     if not task.done() and task is not getattr(self.registry, "_sleeper", None)]
            if not tasks:
                break
            await asyncio.wait(tasks, timeout=0.05)
        for table in list(self.registry.by_id.values()):
            async with table.lock:
                pass

    async def session(self, killer: Killer) -> None:
        registry = self.registry
        killer.step = "lobby"
        self.table = registry.open("tripoli", guild_id=GUILD, channel_id=CHANNEL,
                                   host_id=HOST, host_name="m1", options={"bet_limit": 10},
                                   buy_in=BUY_IN)
        for member in (BEN, CAT):
            await registry.join(self.table, member, f"m{member}")
        killer.step = "start"
        await registry.start(self.table, HOST, False)
        killer.step = "deal1"
        await self.play(self.between_deals)
        killer.step = "leave"
        seat = self.table.seat_of(CAT)
        self.journal.data["left"][str(CAT)] = self.table.game.stacks[seat]
        self.journal.write()
        await registry.leave(self.table, CAT)
        killer.step = "join2"
        await registry.join(self.table, DAN, f"m{DAN}")
        killer.step = "next"
        deal = self.table.game.deal_number
        await registry.next_deal(self.table, HOST, Ref(self.table.id, "next", None, deal))
        killer.step = "deal2"
        await self.play(self.between_deals)
        killer.step = "end"
        await self.end()

    # ------------------------------------------------------------------ figures

    def expected(self, table: Any) -> dict[str, int]:
        """Each member's balance the surviving history asks for: 1000 + final stack - buy-in
        for every member who held a seat of the started table, 1000 for everyone else."""
        expected = {str(m): START for m in MEMBERS}
        left = self.journal.data["left"]
        if table is None:
            final = self.journal.data["final"] or {}
            if final:
                stacks = {**{m: s for m, s in left.items() if m not in final}, **final}
                for member, stack in stacks.items():
                    expected[member] = START - BUY_IN + stack
            return expected
        if table.game is None:
            return expected
        for seat, entry in enumerate(table.seats):
            if entry.member_id is None:
                continue
            member = str(entry.member_id)
            stack = left[member] if entry.left else table.game.stacks[seat] or 0
            expected[member] = START - BUY_IN + stack
        return expected

    async def report(self, when: str, table: Any = None, final: bool = False) -> None:
        balances = {str(m): await self.store.balance(GUILD, m) for m in MEMBERS}
        ledger = {str(m): sum(e.delta for e in await self.store.ledger(GUILD, m))
                  for m in MEMBERS}
        tables = []
        for live in self.registry.by_id.values():
            playing = live.state is TableState.PLAYING and live.game is not None
            tables.append({
                "id": live.id, "state": live.state.value, "ranked": live.ranked,
                "escrow": await self.store.table_escrow(live.id),
                "chips": live.game.total_chips() if playing else 0,
                "deal": live.game.deal_number if live.game is not None else None,
                "seats": [[s.member_id, s.left] for s in live.seats],
            })
        emit("report", when=when, balances=balances, ledger=ledger,
             audit=list(await self.store.audit(GUILD)), tables=tables,
             expected=self.expected(table) if final else None)


async def main(arguments: argparse.Namespace) -> None:
    database = Path(arguments.database)
    journal = Journal(Path(arguments.journal))
    store = await open_store(database, starting_chips=START)
    driver: Driver | None = None
    killer = Killer(arguments.kill, arguments.kill_nth)
    try:
        driver = Driver(store, journal, database.parent)
        if arguments.mode == "run":
            wrap_store(store, killer, driver.note_final)
            await driver.session(killer)
            await driver.report("end", driver.table, final=True)
            return
        registry = driver.registry
        await registry.restore()
        restored = list(registry.by_id.values())
        live = {table_id for table_id, *_rest in await store.load_tables()}
        returned = await store.return_orphan_escrow(live)
        await driver.quiet()
        emit("restored", tables=[t.id for t in restored], orphans=returned)
        await driver.report("restart")
        table = restored[0] if restored else None
        if table is not None:
            driver.table = table
            if table.state is not TableState.OVER:
                await driver.end()
        await driver.report("end", table, final=True)
    finally:
        try:
            if driver is not None:
                await driver.registry.close()
        finally:
            await store.close()


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("run", "resume"))
    parser.add_argument("database")
    parser.add_argument("journal")
    parser.add_argument("--kill", help="STEP:TAG:K")
    parser.add_argument("--kill-nth", type=int)
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse(sys.argv[1:])))
