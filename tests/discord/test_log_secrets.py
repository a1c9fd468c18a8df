"""No secret in any log at any level: a whole ranked Tripoli session in simcord at DEBUG.

The logging setup of ``python -m bot`` and the playground (:func:`bot.__main__.configure_logging`)
is applied at DEBUG; the test then captures every record of every logger: pytest's capture
handler sits on the root logger at level 1 and carries the filters the setup put on its own
root handler (the setup's rule), and the root logger itself is lowered to level 1, so any
library whose logger does not set its own level makes every record.

Every record (its formatted message, its arguments and its traceback) is searched for:

- the session seed: hex (the table snapshot), ``bytes`` repr, base64 (the game's JSON);
- every hand and the spare as the snapshot stores them (card ids as a JSON list) and the
  snapshot's secret keys themselves (``"hands":``, ``"spare":``, ``"session_seed":``);
- hidden cards by name (``10♣``) or by id in a custom_id, as :mod:`leak_scan` finds them,
  against the cards hidden at the time.

The session reuses :mod:`test_leaks` (clicks, board and private-view scans) and goes through
a failed save (an error logged with its traceback) and a restart mid-deal (the snapshot is
read back).
"""

from __future__ import annotations

import base64
import json
import logging
import re
from typing import Any

import pytest
from leak_scan import named_cards
from test_leaks import Watch, play_deal, watched

from bot.__main__ import configure_logging
from bot.logs import CAPPED, PROJECT
from bot.runtime.table import TableState
from bot.store import StoreError

SNAPSHOT_KEYS = re.compile(r'\\*"(hands|spare|session_seed)\\*"\s*:')
"""A secret key of the table snapshot, plain or escaped inside the outer JSON."""

MIN_CARDS = 3
"""Shortest card list searched for as JSON (shorter lists could match unrelated numbers)."""


def card_lists(cards: Any) -> set[str]:
    """``cards`` as card ids in the snapshot's JSON shape (and as a Python list repr)."""
    ids = [int(card) for card in cards]
    if len(ids) < MIN_CARDS:
        return set()
    return {json.dumps(ids, separators=(",", ":")), json.dumps(ids)}


def seed_texts(seed: bytes) -> set[str]:
    """The session seed as the snapshot and the game store it, and as ``bytes`` repr."""
    encoded = base64.b64encode(seed).decode()
    return {seed.hex(), repr(seed), encoded, base64.urlsafe_b64encode(seed).decode(),
            encoded.rstrip("=")}


def record_text(record: logging.LogRecord) -> str:
    """Everything a record can print: the formatted message, its arguments, its traceback."""
    return "\n".join([record.getMessage(), repr(record.args), record.exc_text or "",
                      logging.Formatter().formatException(record.exc_info)
                      if record.exc_info else ""])


class SecretWatch(Watch):
    """A :class:`test_leaks.Watch` that also learns the table's secrets as they change and
    scans every record of every logger (not only ``parlour.*``) for hidden card names."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.secrets: set[str] = set()
        self.checked = 0

    def scan(self) -> None:
        super().scan()
        game = self.session.game
        if game is not None and self.session.table.seed:
            self.secrets |= seed_texts(self.session.table.seed)
        if game is not None and self.session.table.state is TableState.PLAYING:
            for hand in game.hands:
                self.secrets |= card_lists(hand)
            self.secrets |= card_lists(game.spare)
        hidden = self.session.hidden()
        records = self.caplog.records
        for record in records[self.checked:]:
            text = record_text(record)
            named = named_cards(text) & hidden
            assert not named, f"{record.name} {text!r} names hidden cards {named}"
        self.checked = len(records)


def leaks(text: str, secrets: set[str]) -> list[str]:
    """What of ``secrets`` (and of the snapshot's secret keys) ``text`` holds."""
    found = [secret for secret in secrets if secret in text]
    return found + [match.group(0) for match in SNAPSHOT_KEYS.finditer(text)]


@pytest.fixture
def every_record(caplog):
    """Apply the logging setup at DEBUG, then capture every record of every logger through
    the setup's rule (the filters of its root handler); restore logging afterwards."""
    root = logging.getLogger()
    names = [PROJECT, *CAPPED]
    saved = list(root.handlers), root.level, [logging.getLogger(n).level for n in names]
    configure_logging("DEBUG")
    ours = [handler for handler in root.handlers if handler not in saved[0]]
    assert ours, "the logging setup installed no root handler"
    for handler in ours:
        for rule in handler.filters:
            caplog.handler.addFilter(rule)
    caplog.set_level(1)  # the root logger and the capture handler: every record
    yield caplog
    for handler in ours:
        root.removeHandler(handler)
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])
    for name, level in zip(names, saved[2], strict=True):
        logging.getLogger(name).setLevel(level)


async def test_a_ranked_session_at_debug_logs_no_secret(world, every_record):
    caplog = every_record
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await watched(world, caplog, alice, bob, carol, buy_in=60)
    session.watch = watch = SecretWatch(world, session, caplog)
    await session.click(alice, session.board, label="Start")
    await session.wait(1)
    seed = session.table.seed
    assert len(seed) == 32 and seed_texts(seed) <= watch.secrets

    # a commit that fails: the change is undone, refused and logged (the log holds no secret)
    commit = world.store.commit_table

    async def fails(*args: Any) -> None:
        raise StoreError("disk full")

    world.store.commit_table = fails
    dealer = session.member(session.game.dealer)
    await session.click(dealer, session.board, label="Keep")
    world.store.commit_table = commit
    assert any("saving failed" in r.getMessage() for r in caplog.records
               if r.name.startswith(PROJECT))
    await session.click(dealer, session.board, label="Keep")
    member = session.member(min(session.game.to_act))
    await session.click(member, await session.my_hand(member), label="Best five")

    # the detector finds the secrets in the snapshot it guards
    snapshot = session.table.snapshot()
    assert any(secret in snapshot for secret in seed_texts(seed))
    assert any(secret in snapshot for secret in card_lists(session.game.spare))
    assert SNAPSHOT_KEYS.search(snapshot)

    # a restart mid-deal reads every snapshot back; then two deals and the end
    await world.restart()
    await session.wait(1)
    await play_deal(session)
    await session.click(bob, session.board, label="Next deal")
    await session.wait(1)
    await play_deal(session)
    await session.slash(alice, "tripoli end")
    await session.play_until(lambda: session.table.state is TableState.OVER)
    await session.wait(1)
    assert await world.store.table_escrow(session.table.id) == 0

    records = caplog.records
    by_logger: dict[str, int] = {}
    for record in records:
        by_logger[record.name] = by_logger.get(record.name, 0) + 1
    print(f"\n{len(records)} log records captured: {by_logger}")
    assert any(r.name.startswith(PROJECT) for r in records), "the bot logged nothing"
    leaked = [(r.name, r.levelname, found[:3]) for r in records
              if (found := leaks(record_text(r), watch.secrets))]
    assert not leaked, f"{len(leaked)} log records hold secrets, e.g. {leaked[:3]}"
    assert watch.log_lines > 0 and watch.private_cards >= 3
