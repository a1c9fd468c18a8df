"""How to play Caribbean Kalooki in short pages (``rules/kalooki.md``; texts
``guide.kalooki.*`` in the catalogs, in the seeds' terms: سه/tris/drietal,
چهار/scala/reeks, استاک/tallone/stapel, درخواست for a call); the contracts are read from
the engine's deal tables, so the guide lists exactly the deals the game plays."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.guides import Guide
from bot.i18n import Language
from bot.render.kalooki import contract_words
from engine.kalooki.rules import JAMAICAN, TRINIDAD, KalookiRules


def _contracts(lang: Language, rules: KalookiRules) -> str:
    """One line per deal of a set: its number, the cards dealt and the contract."""
    return "\n".join(
        lang.t("guide.kalooki.contract_line", number=number, cards=contract.cards,
               contract=contract_words(lang, contract.threes, contract.fours))
        for number, contract in enumerate(rules.contracts, start=1)
    )


def _values(lang: Language) -> Mapping[str, Any]:
    return {"deals": JAMAICAN.deals, "trinidad_deals": TRINIDAD.deals,
            "jamaican": _contracts(lang, JAMAICAN), "trinidad": _contracts(lang, TRINIDAD)}


GUIDE = Guide(
    game="kalooki",
    pages=("intro", "melds", "contracts", "turn", "calls", "out"),
    glossary=("contract", "three", "four", "meld", "lay_off", "call", "allow", "stock",
              "discard", "joker", "out", "down_and_out", "penalty", "set"),
    values=_values,
)
