"""Every message id the code names exists in the English catalog (a typo would show the bare
id to members): the ids in ``t("…")``, ``Msg("…")`` and ``note("…")`` calls of bot/ and cogs/,
and, for ids built with an f-string, at least one catalog id of that shape; every reason an
engine names (``IllegalAction``, ``MeldError``, ``OptionError``) and every Tripoli rules
difference, with the same placeholders as the values the engine gives."""

from __future__ import annotations

import ast
import re
from enum import Enum
from pathlib import Path
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import ValidationError

from bot.i18n.catalogs import catalog
from bot.i18n.language import placeholders
from engine.tripoli.rules import (
    CLASSIC,
    PRESETS,
    Difference,
    SpareOption,
    TripoliRules,
    describe_differences,
)

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


def option_errors() -> list[tuple[str, str, set[str]]]:
    """(where, message id, keyword names) of every ``OptionError(…)`` raised (by an engine,
    or by the bot's own checks of table options)."""
    found = []
    paths = [*ROOT.glob("engine/**/*.py"), *ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/*.py")]
    for path in sorted(paths):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            name = getattr(getattr(node, "func", None), "id", None)
            if not (isinstance(node, ast.Call) and name == "OptionError" and node.args):
                continue
            first = node.args[0]
            if not isinstance(first, ast.Constant):
                continue  # an error passed on (``error.reason``): named where it was made
            found.append((f"{path.relative_to(ROOT)}:{node.lineno}", first.value,
                          {k.arg for k in node.keywords if k.arg is not None}))
    return found


def english_texts() -> dict[str, str]:
    """Message id -> its English text (the plural form, for a plural message)."""
    return {(m.id[0] if m.pluralizable else m.id): (m.string[-1] if m.pluralizable else m.string)
            for m in catalog("en") if m.id}


def test_every_option_error_is_an_english_message_with_its_values_as_placeholders():
    english = english_texts()
    named = option_errors()
    assert {"tripoli.option.players", "kalooki.option.capacity", "troefcall.option.one_end",
            "option.between"} <= {reason for _, reason, _ in named}
    wrong = [(where, reason, sorted(values), sorted(placeholders(english.get(reason, ""))))
             for where, reason, values in named
             if reason not in english or placeholders(english[reason]) != values]
    assert wrong == []
    written = {key for key in english if re.fullmatch(r"([a-z]+\.)?option\.[a-z_]+", key)}
    assert "table.option.deals_and_minutes" in written
    assert written - {reason for _, reason, _ in named} == set()  # no message left unused


def choices(annotation: Any) -> list[Any]:
    """The values a ``Literal`` allows, an enum's members, and those of a union's parts."""
    if get_origin(annotation) is Literal:
        return list(get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return list(annotation)
    if get_origin(annotation) in (Union, UnionType):
        return [value for part in get_args(annotation) for value in choices(part)]
    return []


def every_difference() -> list[Difference]:
    """The differences from classic of each value every rules parameter may take (a choice,
    a flag, another number) set alone on each preset where that can be played, and of every
    preset itself."""
    found = [d for rules in PRESETS.values() for d in describe_differences(rules)]
    for name, field in TripoliRules.model_fields.items():
        default = getattr(CLASSIC, name)
        values = choices(field.annotation)
        if isinstance(default, bool):
            values = [not default]
        elif isinstance(default, int):
            values = [default + 1]
        for base in PRESETS.values():
            for value in values:
                try:
                    rules = TripoliRules.model_validate(base.model_dump() | {name: value})
                except ValidationError:
                    continue
                found += describe_differences(rules)
    return found


def test_every_difference_is_an_english_message_with_its_values_as_placeholders():
    english = english_texts()
    found = every_difference()
    keys = {d.key for d in found}
    wrong = {(d.key, tuple(sorted(d.values))) for d in found
             if d.key not in english or placeholders(english[d.key]) != set(d.values)}
    assert wrong == set()
    written = {key for key in english if key.startswith("tripoli.difference.")
               and not key.startswith("tripoli.difference.spare.")}
    assert written == keys  # no sentence the engine never names
    assert {f"tripoli.difference.spare.{option}" for option in get_args(SpareOption)} <= set(
        english)
