"""How to play Troefcall in short pages (``rules/troefcall.md``; texts
``guide.troefcall.*`` in the catalogs, in the seeds' terms: حاکم/chiamante/troefroeper,
kap partij, baunie)."""

from __future__ import annotations

from bot.guides import Guide
from bot.i18n import Msg

GUIDE = Guide(
    game="troefcall",
    pages=("teams", "caller", "tricks", "scoring", "rotation"),
    glossary=("trump", "caller", "dealer", "jack_search", "trick", "follow", "kap", "baunie",
              "picture", "target"),
    values=lambda lang: {"hand": Msg("button.hand")},
)
