"""The engines' refusals as a Persian member reads them (the render tests of every game)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from bot.i18n import LANGUAGES
from bot.runtime.refs import Refusal
from engine.core import IllegalAction


def persian_refusals(game: Any, attempts: Iterable[Any]) -> dict[str, dict[str, Any]]:
    """Check each of ``attempts`` for every seat of ``game``; every refusal must have a
    catalog reason and a Persian sentence with no English word (runs of four Latin letters;
    card codes and ids are shorter). Returns each reason met with its values."""
    persian = LANGUAGES["fa"]
    reasons: dict[str, dict[str, Any]] = {}
    for seat in range(game.seats):
        for action in attempts:
            try:
                game.check(seat, action, game.decision_id(seat))
            except IllegalAction as error:
                assert error.reason is not None, error.message
                text = Refusal.of(error).text(persian)
                assert re.findall("[A-Za-z]{4,}", text) == [], text
                reasons[error.reason] = error.values
    return reasons
