"""Crash-proof chips, with real kills: a child process plays a ranked Tripoli session on a real
SQLite file and SIGKILLs itself right after a committed write; a new child restarts on the
same file, and the chips must still add up (issue: crash-proof chips, items (1) and (2)).

Each kill point runs two children (:mod:`crash_child`): ``run`` until the kill, then
``resume``, which restores the tables, returns orphan escrow as the bot's start-up does,
reports, ends the session and reports again. Checked after the restart and at the end:

- every balance equals the sum of its ledger rows; balances + escrow == granted
  (``store.audit``);
- each live ranked table's escrow equals its stacks + board (``game.total_chips()``), and a
  lobby holds no escrow;
- at the end no table and no escrow is left, balances add up to the grants, and each member's
  balance is 1000 + their final stack - the buy-in (1000 for a member whose seat did not
  survive): nobody is paid twice, nobody receives chips another member paid.

Kill points: every named point of :data:`CHOSEN` (Start's escrows, a Leave or a join between
deals, the end-of-session payout, mid-deal, …) and :data:`RANDOM_KILLS` writes drawn from
``PARLOUR_CRASH_SEED`` (``PARLOUR_CRASH_KILLS`` of them, half among the writes that move
chips) from the writes of an uninterrupted session (the reference run).
A point the runtime never reaches (one transaction where there were several) is reported as
not reached, and its finished session is still checked after a restart. The children run two
at a time; the summary of kills is printed (``pytest -s``).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60.0
"""Seconds one child may take (a session takes about one)."""

CHOSEN = {
    "start-after-first-escrow": "start:chips:1",
    "start-after-last-escrow": "start:chips:3",
    "start-after-save": "start:save:1",
    "mid-deal-1": "deal1:save:7",
    "leave-after-payout": "leave:chips:1",
    "join-between-deals-after-escrow": "join2:chips:1",
    "end-after-first-payout": "end:chips:1",
    "end-after-last-payout": "end:chips:3",
    "end-after-delete": "end:delete:1",
}
"""Named kill points: ``STEP:TAG:K``, right after the K-th write tagged TAG in STEP."""

RANDOM_KILLS = int(os.environ.get("PARLOUR_CRASH_KILLS", "4"))
"""Random kill points: half drawn among all writes, half among the writes that move chips."""
SEED = int(os.environ.get("PARLOUR_CRASH_SEED", "20261201"))
WORKERS = max(2, min(4, os.cpu_count() or 2))


@dataclass
class Child:
    """One finished child: its exit status, JSON events and stderr."""

    returncode: int
    events: list[dict[str, Any]]
    stderr: str

    def of(self, event: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == event]


@dataclass
class Case:
    """One kill point and what its two children did."""

    name: str
    options: list[str]
    run: Child | None = None
    resume: Child | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def kill(self) -> dict[str, Any] | None:
        kills = self.run.of("kill") if self.run else []
        return kills[0] if kills else None

    def where(self) -> str:
        kill = self.kill
        if kill is None:
            return "not reached (the session ended without a kill)"
        return (f"write #{kill['n']}: {kill['method']} (write {kill['in_step']} of step "
                f"{kill['step']})")


def spawn(mode: str, folder: Path, *options: str) -> Child:
    """Run ``crash_child.py mode`` on the database and journal of ``folder``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run(
        [sys.executable, str(CHILD), mode, str(folder / "parlour.db"),
         str(folder / "journal.json"), *options],
        capture_output=True, text=True, timeout=TIMEOUT, env=env, cwd=folder,
    )
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return Child(done.returncode, events, done.stderr)


def invariants(report: dict[str, Any], final: bool) -> list[str]:
    """What is wrong with the figures of one report (empty when nothing is)."""
    when = report["when"]
    problems = [f"{when}: member {m} has {b} but a ledger sum of {report['ledger'][m]}"
                for m, b in report["balances"].items() if b != report["ledger"][m]]
    balances, escrow, granted = report["audit"]
    if balances + escrow != granted:
        problems.append(f"{when}: balances {balances} + escrow {escrow} != granted {granted}")
    for table in report["tables"]:
        if table["ranked"] and table["escrow"] != table["chips"]:
            problems.append(f"{when}: table {table['id']} ({table['state']}, deal "
                            f"{table['deal']}) holds {table['escrow']} in escrow but "
                            f"{table['chips']} at the table")
    if final:
        if report["tables"]:
            problems.append(f"{when}: tables still live: {report['tables']}")
        if escrow:
            problems.append(f"{when}: {escrow} chips left in escrow")
        if report["balances"] != report["expected"]:
            problems.append(f"{when}: balances {report['balances']} != 1000 + final stack - "
                            f"buy-in {report['expected']}")
    return problems


def child_failed(child: Child, what: str) -> list[str]:
    return [f"{what} failed with status {child.returncode}:\n{child.stderr[-3000:]}"]


def play(case: Case, folder: Path) -> Case:
    """Kill, restart, check: fills ``case.run``, ``case.resume`` and ``case.problems``."""
    folder.mkdir(parents=True, exist_ok=True)
    case.run = spawn("run", folder, *case.options)
    killed = case.run.returncode == -signal.SIGKILL and case.kill is not None
    if not killed and case.run.returncode != 0:
        case.problems += child_failed(case.run, "the session")
        return case
    case.resume = spawn("resume", folder)
    if case.resume.returncode != 0:
        case.problems += child_failed(case.resume, "the restart")
    reports = case.resume.of("report")
    for report in reports:
        case.problems += invariants(report, final=report["when"] == "end")
    if [r["when"] for r in reports] != ["restart", "end"] and not case.problems:
        case.problems.append(f"the restart reported {[r['when'] for r in reports]}")
    return case


@dataclass
class Campaign:
    reference: Child
    writes: list[dict[str, Any]]
    cases: dict[str, Case]


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Campaign]:
    """The reference run, then every kill point (two children each, in parallel)."""
    base = tmp_path_factory.mktemp("crash")
    (base / "reference").mkdir()
    reference = spawn("run", base / "reference")
    writes = reference.of("write")
    draw = random.Random(SEED)
    chips = [write["n"] for write in writes if "chips" in write["tags"]]
    nths = draw.sample(range(1, len(writes) + 1), RANDOM_KILLS - RANDOM_KILLS // 2)
    nths += draw.sample(chips, min(RANDOM_KILLS // 2, len(chips)))
    cases = [Case(name, ["--kill", point]) for name, point in CHOSEN.items()]
    cases += [Case(f"random-{i + 1}", ["--kill-nth", str(n)]) for i, n in enumerate(nths)]
    with ThreadPoolExecutor(WORKERS) as pool:
        done = list(pool.map(lambda c: play(c, base / c.name), cases))
    kills = [case for case in done if case.kill is not None]
    print(f"\ncrash test (seed {SEED}): {len(writes)} writes in an uninterrupted session; "
          f"{len(kills)} kills of {len(done)} kill points")
    for case in done:
        verdict = "ok" if not case.problems else f"FAILED ({len(case.problems)} problems)"
        print(f"  {case.name:34} {case.where():52} {verdict}")
    yield Campaign(reference, writes, {case.name: case for case in done})


def test_an_uninterrupted_session_keeps_every_invariant(campaign):
    reference = campaign.reference
    assert reference.returncode == 0, reference.stderr[-3000:]
    [report] = reference.of("report")
    assert not invariants(report, final=True)
    steps = {write["step"] for write in campaign.writes}
    assert {"start", "deal1", "leave", "join2", "deal2", "end"} <= steps
    assert report["balances"] != {m: 1000 for m in report["balances"]}  # chips changed hands


@pytest.mark.parametrize("name", [*CHOSEN, *(f"random-{i + 1}" for i in range(RANDOM_KILLS))])
def test_a_kill_and_a_restart_keep_every_chip(campaign, name):
    case = campaign.cases.get(name)
    assert case is not None, f"no kill point {name} was drawn"
    assert not case.problems, f"killed at {case.where()}:\n" + "\n".join(case.problems)
