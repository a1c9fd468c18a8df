"""How to play Troefcall in short pages."""

from __future__ import annotations

from bot.guides import Guide, Page

GUIDE = Guide(
    title="Troefcall",
    pages=(
        Page("Two teams, thirteen tricks", (
            "Troefcall is a trick game from Suriname for exactly four players: two teams "
            "of partners who sit opposite each other. One pack of 52 cards; in every suit "
            "A is high, then K Q J 10 … 2.\n\n"
            "In each hand a team tries to win at least **7 of the 13 tricks**. Exactly one "
            "team scores in a hand: 2, 5 or 15 points. The first team to the target score "
            "(15 unless the table says otherwise) wins; a table may instead play a number "
            "of hands, and then the higher score wins."
        )),
        Page("The trump caller", (
            "At the start, cards are dealt face up one at a time until a jack appears "
            "(the **jack search** on the board): whoever gets it is the first **trump "
            "caller**. The dealer is always the player on the caller's right.\n\n"
            "The caller is given five cards first, looks at them and names the trump "
            "suit with a **Trumps** button — a suit must be named. Then the deal is "
            "completed: 13 cards each.\n\n"
            "A caller holding no K, Q or J among all 13 cards may show the hand and ask "
            "for a redeal (**Show hand and redeal**). The same dealer deals again and the "
            "same player calls trumps again; nothing is scored."
        )),
        Page("Playing the tricks", (
            "The trump caller leads the first trick with any card. The others play one card "
            "each, clockwise:\n"
            "• if you hold a card of the suit led you must **follow suit** (any rank will do);\n"
            "• if you hold none you may play any card: a trump, or a discard.\n\n"
            "The highest trump wins the trick; with no trump in it, the highest card of the "
            "suit led wins. The winner leads the next trick. **My hand** offers only the "
            "cards you may play."
        )),
        Page("Scoring: 2, 5 or 15", (
            "• A team that wins 7 or more tricks, but not all of the first seven, scores "
            "**2**. The hand ends as soon as the score is certain.\n"
            "• A team that wins **all of the first seven tricks** decides, before trick 8, "
            "whether to stop: **Kap partij**. If the player who won trick 7 stops, the "
            "team scores **5**; if their partner stops, **2**.\n"
            "• Playing on (the trick-7 winner leads to trick 8) commits the team to "
            "**baunie**: winning all 13 tricks scores **15**, but losing any later trick "
            "ends the hand and gives the **other** team 2.\n\n"
            "A caller's team that takes fewer than 7 tricks pays no extra penalty: the "
            "other team simply scores."
        )),
        Page("Dealer and caller rotation", (
            "• If the trump caller's team scored, the same dealer deals again and the same "
            "player calls trumps.\n"
            "• If the dealer's team scored, the deal passes to the left: the caller becomes "
            "the dealer, and the old dealer's partner becomes the new caller.\n\n"
            "Only which team scored matters, not how. A redeal for a hand without K, Q or J "
            "changes nothing."
        )),
    ),
    glossary=(
        ("Trump", "the suit named by the trump caller; any trump beats every other suit."),
        ("Trump caller", "who names trumps after seeing five cards and leads the first "
                         "trick; the player left of the dealer."),
        ("Dealer", "the player on the trump caller's right."),
        ("Jack search", "cards dealt face up until a jack shows who calls trumps first."),
        ("Trick", "one card from each player; the highest trump, else the highest card of "
                  "the suit led, wins it."),
        ("Follow suit", "play a card of the suit led when you hold one."),
        ("Kap partij", "stopping after winning the first seven tricks: 5 points by the "
                       "trick-7 winner, 2 by their partner."),
        ("Baunie", "all 13 tricks: 15 points; playing on after seven and then losing a "
                   "trick gives the other team 2."),
        ("Picture card", "K, Q or J (an ace is not one)."),
        ("Target", "the score that wins the game."),
    ),
)
