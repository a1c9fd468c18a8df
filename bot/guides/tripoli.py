"""How to play Tripoli: the classic rules in short pages (``rules/tripoli.md`` §2; texts
``guide.tripoli.*`` in the catalogs, in the seeds' terms: the Italian text's sezioni,
Piatto and mano fantasma, the Dutch text's velden and reserve hand, the Persian text's
کیتی, پات and دست یدکی). ``/tripoli rules`` gives a table's own rules, which a preset may
change."""

from __future__ import annotations

from bot.guides import Guide
from bot.i18n import Msg

GUIDE = Guide(
    game="tripoli",
    pages=("phases", "board", "spare", "pay", "poker", "michigan", "end"),
    glossary=("ante", "space", "pay_cards", "kq", "seq", "kitty", "pot", "spare",
              "spare_choices", "bet_limit", "showdown", "lead", "run", "stop", "stopper",
              "not_suit", "out", "block", "leftover", "buy_in"),
    values=lambda lang: {"hand": Msg("button.hand"), "next_deal": Msg("button.next_deal"),
                         "join": Msg("button.join"), "leave": Msg("button.leave")},
)
