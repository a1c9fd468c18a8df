"""Troefcall rules parameters (``rules/troefcall.md`` §2.8, §2.10, §3).

:class:`TroefcallRules` holds the points of every hand result (§2.8 item 44), how the game
ends (a target score, §2.10 item 50, or a number of deals, item 52) and whether the tricks
after a decided hand are played (§2.8 item 45, ambiguity A3). The defaults are the rules
file's recommendations. :func:`make_rules` builds them from a table's numbers, refusing
what cannot be played with an :class:`~engine.core.OptionError`.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationError, model_validator

from engine.core import Frozen, OptionError, option_error


class TroefcallRules(Frozen):
    """The parameters of one Troefcall table; defaults follow ``rules/troefcall.md``.

    Points are per team and per hand. Exactly one of ``target`` and ``deals`` is set:
    ``TroefcallRules(deals=8)`` alone means no target.

    Raises
    ------
    ValueError
        (pydantic ``ValidationError``) if both or neither of ``target`` and ``deals`` are
        set (:class:`~engine.core.OptionError` ``troefcall.option.one_end`` inside), or a
        number is not positive; :func:`make_rules` raises the :class:`OptionError` bare.
    """

    name: str = "standard"
    target: int | None = Field(15, ge=1)  # points that win the game (§2.10 item 50, A8)
    deals: int | None = Field(None, ge=1)  # or: hands to play, highest wins (item 52)
    play_all_tricks: bool = False  # play a decided hand to trick 13 (item 45, A3)
    seven_points: int = Field(2, ge=1)  # ≥ 7 tricks, not the first seven (item 37)
    kap_points: int = Field(5, ge=1)  # first seven, the trick-7 winner stops (item 38)
    partner_kap_points: int = Field(2, ge=1)  # first seven, his partner stops (item 39, A1)
    baunie_points: int = Field(15, ge=1)  # all 13 tricks (item 40)
    failed_baunie_points: int = Field(2, ge=1)  # to the opponents (item 41)

    @model_validator(mode="before")
    @classmethod
    def _deals_replace_target(cls, data: Any) -> Any:
        """A number of deals given without a target means: no target."""
        if isinstance(data, dict) and data.get("deals") is not None and "target" not in data:
            return {**data, "target": None}
        return data

    @model_validator(mode="after")
    def _one_end(self) -> TroefcallRules:
        if (self.target is None) == (self.deals is None):
            raise OptionError("troefcall.option.one_end")
        return self


def make_rules(**numbers: Any) -> TroefcallRules:
    """The rules with ``numbers`` (field -> value, e.g. ``deals=8``: no target).

    Raises
    ------
    OptionError
        (a ``ValueError``) ``troefcall.option.one_end`` when both or neither of ``target``
        and ``deals`` are set; an unknown field, or a number out of range or of the wrong
        kind (:func:`engine.core.option_error`: ``option`` and its range).
    """
    try:
        return TroefcallRules.model_validate(numbers)
    except ValidationError as error:
        raise option_error(TroefcallRules, error) from None
