"""Every message id the code names exists in the English catalog (a typo would show the bare
id to members): the ids in ``t("…")``, ``Msg("…")`` and ``note("…")`` calls of bot/ and cogs/,
and, for ids built with an f-string, at least one catalog id of that shape."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.i18n.catalogs import catalog

ROOT = Path(__file__).resolve().parents[2]
CALLS = {"t", "Msg", "note"}


def named_ids() -> list[tuple[str, str]]:
    """(where, id or f-string pattern) of every first argument of those calls."""
    found = []
    for path in sorted([*ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", None))
            if name not in CALLS:
                continue
            first, where = node.args[0], f"{path.relative_to(ROOT)}:{node.lineno}"
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((where, re.escape(first.value)))
            elif isinstance(first, ast.JoinedStr):
                parts = [re.escape(p.value) if isinstance(p, ast.Constant) else "[a-z_0-9.]+"
                         for p in first.values]
                found.append((where, "".join(parts)))
    return found


def test_every_message_id_named_in_the_code_is_in_the_english_catalog():
    ids = {message.id[0] if message.pluralizable else message.id
           for message in catalog("en") if message.id}
    named = named_ids()
    assert len(named) > 100
    missing = [(where, pattern) for where, pattern in named
               if "." in pattern and not any(re.fullmatch(pattern, key) for key in ids)]
    assert missing == []


def engine_reasons() -> list[tuple[str, str]]:
    """(where, reason or f-string pattern) of every ``reason`` an engine names: the
    ``reason=`` of ``IllegalAction(…)`` and the second argument of Kalooki's
    ``MeldError(…)``."""
    def pattern(node: ast.expr) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return re.escape(node.value)
        if isinstance(node, ast.JoinedStr):
            return "".join(re.escape(p.value) if isinstance(p, ast.Constant) else "[a-z_0-9.]+"
                           for p in node.values)
        return None  # a reason passed on (``e.reason``): named where it was made

    found = []
    for path in sorted(ROOT.glob("engine/**/*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", None))
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            reasons = [k.value for k in node.keywords if k.arg == "reason"]
            if name == "MeldError" and len(node.args) > 1:
                reasons.append(node.args[1])
            found += [(where, p) for p in map(pattern, reasons) if p is not None]
    return found


def test_every_engine_reason_is_an_illegal_message_of_the_english_catalog():
    ids = {message.id[0] if message.pluralizable else message.id
           for message in catalog("en") if message.id}
    named = engine_reasons()
    assert any("kalooki" in pattern for _, pattern in named)
    missing = [(where, pattern) for where, pattern in named
               if not any(re.fullmatch(f"illegal\\.{pattern}", key) for key in ids)]
    assert missing == []
