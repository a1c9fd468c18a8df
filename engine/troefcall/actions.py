"""Troefcall actions: frozen models discriminated on ``kind`` (``rules/troefcall.md`` §2).

``action_adapter.validate_python(...)`` / ``validate_json(...)`` reads any of them.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.cards import Card, Suit
from engine.core import Action


class NameTrump(Action):
    """The caller names trumps after his first 5 cards; no pass (§2.4 item 12, A5)."""

    kind: Literal["name_trump"] = "name_trump"
    suit: Suit


class Play(Action):
    """Play ``card`` to the trick, following suit when able (§2.6 items 20-25); leading
    trick 8 after the first seven commits the team to baunie (§2.7 item 33)."""

    kind: Literal["play"] = "play"
    card: Card


class KapPartij(Action):
    """Stop after the first seven tricks: by the trick-7 winner (5 points) or his partner
    (2 points) (§2.7 items 29-31, §2.8 items 38-39)."""

    kind: Literal["kap"] = "kap"


class ClaimRedeal(Action):
    """The caller shows a full hand without K, Q or J and demands a redeal (§2.5 items
    15-19); only before his opening lead."""

    kind: Literal["redeal"] = "redeal"


TroefcallAction = Annotated[NameTrump | Play | KapPartij | ClaimRedeal, Field(discriminator="kind")]

action_adapter: TypeAdapter[TroefcallAction] = TypeAdapter(TroefcallAction)
