"""How to play Caribbean Kalooki in short pages; the contracts are read from the engine's
deal tables, so the guide lists exactly the deals the game plays."""

from __future__ import annotations

from bot.guides import Guide, Page
from engine.kalooki.rules import JAMAICAN, TRINIDAD, KalookiRules


def _contracts(rules: KalookiRules) -> str:
    """One line per deal of a set: its number, the cards dealt and the contract."""
    return "\n".join(
        f"{number}. {contract.cards} cards — {contract.words()}"
        for number, contract in enumerate(rules.contracts, start=1)
    )


GUIDE = Guide(
    game="kalooki",
    pages=(
        Page("A rummy of contracts", (
            "Caribbean Kalooki is a Jamaican rummy for 3 to 6 players with 108 cards: two "
            "packs and 4 jokers.\n\n"
            "In every deal you try to **go out** — get rid of all your cards. When someone "
            "does, everyone else scores **penalty points** for the cards still in their "
            "hand. A **set** is "
            f"{JAMAICAN.deals} deals (the Trinidad rules: {TRINIDAD.deals}); the lowest "
            "total at the end wins.\n\n"
            "Each deal has a **contract**: the threes and fours your first lay-down must "
            "hold."
        )),
        Page("Threes, fours and jokers", (
            "• A **three** is 3 or more cards of one rank; suits do not matter and the same "
            "card twice is fine (7♥ 7♥ 7♠).\n"
            "• A **four** is 4 or more cards in a row in one suit (8♥ 9♥ 10♥ J♥). An ace is "
            "low (A-2-3-4) or high (J-Q-K-A), never in the middle (no K-A-2).\n"
            "• A **joker** stands for any card: a three needs at least two real cards, and "
            "a four may not have two jokers side by side. A joker stays in its meld and "
            "can never be discarded.\n"
            "• Your own fours must be of different suits, your own threes of different "
            "ranks.\n\n"
            "The Trinidad rules are looser: one real card per meld is enough and jokers "
            "may sit side by side."
        )),
        Page("Contracts per deal", (
            f"**Jamaican** (the default):\n{_contracts(JAMAICAN)}\n\n"
            f"**Trinidad**:\n{_contracts(TRINIDAD)}\n\n"
            "Your first lay-down in a deal must hold the whole contract at once (each meld "
            "may be longer than the minimum). Nothing less may be laid down."
        )),
        Page("Your turn", (
            "1. **Draw** one card: the top of the stock, or the top card of the discard "
            "pile (not the discard pile once you have laid down).\n"
            "2. **Lay down** your contract if you can, and then more melds if you like; "
            "after your contract you may **lay off**.\n"
            "3. **Discard** one card face up — any card but a joker.\n\n"
            "Laying off: add cards to any meld on the table, yours or another player's. A "
            "three takes any card of its rank or a joker. A four grows at the top until "
            "it reaches the ace, and only then at the bottom (Trinidad: either end). "
            "Holding the real card a joker stands for in a four, you may put it in the "
            "joker's place; the joker moves to the end of that run (Trinidad: you take "
            "it)."
        )),
        Page("Calls: Allow or Refuse", (
            "When a card is discarded, a player whose turn it is not may **call** it — if "
            "they have not laid down yet and have had fewer than 3 calls granted in this "
            "deal. The first caller counts.\n\n"
            "The player about to draw decides:\n"
            "• **Allow**: the caller takes the card plus one extra card from the stock, "
            "and you draw from the stock as usual;\n"
            "• **Refuse**: you take the called card yourself as your draw.\n\n"
            "A player who has laid down must allow. Only one call per turn: the card "
            "under a called card cannot be called. Under the Trinidad rules players may "
            "call even after laying down.\n\n"
            "Trinidad with **calls on honour** (`honour_calls` at start): a 4th call is not "
            "refused, but at your draw you may **challenge** a player you think holds more "
            "than 18 cards. Whoever is wrong — you, or the over-caller — scores his hand "
            "+ 50 for the deal and sits out the rest of it."
        )),
        Page("Going out and penalties", (
            "You go out when your last card leaves your hand — laid down, laid off or "
            "discarded. The deal ends at once.\n\n"
            "Everyone else adds up the cards in their hand: joker **50**, black ace "
            "(A♠ A♣) **15**, K Q J 10 **10** each, 2 to 9 their number, red ace (A♥ A♦) "
            "**1**. Cards laid on the table never count.\n\n"
            "**Down and out**: going out in the same turn as your first lay-down doubles "
            "the others' penalties (not under the Trinidad rules).\n\n"
            "If the stock runs out, the discard pile (all but its top card) is shuffled "
            "into a new stock; if it runs out again the deal is void and dealt again."
        )),
    ),
    glossary=(
        ("Contract", "the threes and fours your first lay-down of a deal must hold."),
        ("Three (set)", "3 or more cards of one rank."),
        ("Four (run)", "4 or more cards in a row in one suit."),
        ("Meld / lay down", "put threes and fours face up in front of you."),
        ("Lay off", "add cards to a meld already on the table, after your contract."),
        ("Call", "claim the card just discarded out of turn; granted, it brings one more "
                 "card from the stock."),
        ("Allow / Refuse", "the drawing player's answer to a call."),
        ("Stock", "the face-down pile you draw from."),
        ("Discard pile", "the face-up pile; only its top card may be taken."),
        ("Joker", "stands for any card in a meld; 50 penalty points in hand."),
        ("Going out", "emptying your hand; it ends the deal."),
        ("Down and out", "going out in the turn you first lay down."),
        ("Penalty", "the points of the cards left in your hand when someone goes out."),
        ("Set", "the whole match: every deal of the contract table."),
    ),
)
