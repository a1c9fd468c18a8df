"""How to play Tripoli: the classic rules in short pages (``/tripoli rules`` gives a table's
own rules, which a preset may change)."""

from __future__ import annotations

from bot.guides import Guide, Page

GUIDE = Guide(
    game="tripoli",
    pages=(
        Page("Three games in one deal", (
            "Tripoli is played for chips by 2 to 9 players (4 to 7 is best). Every deal has "
            "three phases, all played with the same cards:\n"
            "1. **Pay cards**: whoever holds certain cards takes the chips on their board "
            "spaces.\n"
            "2. **Poker**: everyone plays five of their cards; the best hand (or the last "
            "player who has not folded) takes the POT.\n"
            "3. **Michigan**: a race to run out of cards; the first one out takes the KITTY "
            "and a chip for every card the others still hold.\n\n"
            "Chips that nobody wins stay on their space for later deals, so spaces grow. "
            "Everyone starts with the same stack (the buy-in); whoever has the most chips "
            "when the session ends wins."
        )),
        Page("The board, antes and the deal", (
            "The board has nine spaces:\n"
            "• **A♥ K♥ Q♥ J♥ 10♥** — the pay cards: each space pays its card's holder.\n"
            "• **KQ♥** — pays whoever holds both K♥ and Q♥.\n"
            "• **SEQ** — pays whoever holds 8-9-10 of one suit (several holders split it).\n"
            "• **KITTY** — pays whoever goes out first in Michigan.\n"
            "• **POT** — the poker pot.\n\n"
            "Before every deal each player puts the **ante** (1 chip unless the table says "
            "otherwise) on every space. The whole deck is then dealt, one card at a time, "
            "into one hand per player plus a **spare hand** that belongs to nobody. After "
            "each deal the deal passes to the left."
        )),
        Page("The spare hand (the dealer decides)", (
            "The dealer looks at their own hand — never at the spare — and presses one of:\n"
            "• **Keep**: nothing happens; the spare stays dead, unseen and unplayed. Its "
            "cards win nothing, so their spaces stay on the board.\n"
            "• **Exchange**: take the unseen spare as your hand; your old hand becomes the "
            "dead hand. Then you may **Auction** your old hand to the others, or **Keep** "
            "it dead (you cannot exchange twice).\n"
            "• **Auction**: sell the unseen spare. The others bid in turn (a pass is "
            "final); the highest bidder pays you and swaps their hand for the spare. If "
            "nobody bids, you may still keep or exchange.\n\n"
            "Nobody may swap back, and hands are never combined."
        )),
        Page("Phase 1: pay cards", (
            "The bot pays the spaces by itself, from the final hands:\n"
            "• the holder of **A♥**, **K♥**, **Q♥**, **J♥** or **10♥** takes that space;\n"
            "• holding both K♥ and Q♥ also takes **KQ♥**;\n"
            "• holding 8-9-10 of any one suit takes **SEQ**; several holders share it and "
            "odd chips stay.\n\n"
            "A pay card in the dead hand wins nothing: its space carries over to the next "
            "deal. KITTY and POT are not paid in this phase. The log says who took what, "
            "which shows those cards to everyone."
        )),
        Page("Phase 2: poker", (
            "Press **My hand** and choose five of your cards, or **Best five**. They need "
            "not be your best hand: you may keep cards back for Michigan. Only hands that "
            "reach the showdown are shown.\n\n"
            "One round of betting, starting left of the dealer, goes onto the POT:\n"
            "• while nobody has bet: **Check**, or **Bet** up to the bet limit;\n"
            "• after a bet: **Fold**, **Call** (match the highest bet) or **Raise** (call "
            "and add at most the limit).\n"
            "It goes round until everyone still in has put in the same. The last player "
            "who has not folded, or the best hand at the showdown, takes the POT; equal "
            "hands split it. A player short of chips can call all-in. Folding costs only "
            "the poker: everyone takes all their cards back for Michigan."
        )),
        Page("Phase 3: Michigan (stops)", (
            "The poker winner leads first. A **lead** must be the lowest card you hold in "
            "the suit you choose — that is why **My hand** offers only some cards.\n\n"
            "Then whoever holds the next higher card of that suit plays it (the bot plays "
            "it for them), then the next, and so on: a **run**. The run **stops** at an "
            "ace, or when the next card is in the spare hand or already played. Whoever "
            "played the last card (the **stopper**) leads again, in another suit: "
            "**(not ♦)** on the board means ♦ was just played and may not be led now. A "
            "stopper holding only that suit passes the lead to the left.\n\n"
            "The first player to play their last card **goes out**: they take the KITTY and "
            "1 chip for every card each other player still holds. If nobody can lead (all "
            "cards left are of the suit just played) the deal is **blocked**: everyone "
            "puts 1 chip per card on the KITTY."
        )),
        Page("Between deals and the end", (
            "After a deal, **Next deal** deals again; members may **Join** or **Leave** "
            "now. A player who cannot pay the full ante is out for the session.\n\n"
            "The host (or a member with Manage Channels) ends the session with "
            "`/tripoli end` after the current deal, or `/tripoli end now:True` at once "
            "(the deal is abandoned and every chip goes back to where it was when it "
            "started). Chips still on the board are then played for in a **leftover "
            "round**: five cards each, no antes, one round of poker, the winner takes them "
            "all. The final stacks rank the players.\n\n"
            "Presets change some of this (italian lets any suit be led after a stop; "
            "rummoli pays the pay cards when they are played in Michigan …): "
            "`/tripoli rules` describes the table's own rules in full."
        )),
    ),
    glossary=(
        ("Ante", "chips every player puts on every space before a deal."),
        ("Space", "a labelled place on the board holding chips; unwon chips stay there."),
        ("Pay cards", "A♥ K♥ Q♥ J♥ 10♥: each pays its own space to its holder."),
        ("KQ♥", "the space for holding both K♥ and Q♥."),
        ("SEQ", "the sequence space: 8-9-10 of one suit."),
        ("KITTY", "the space won by going out in Michigan; blocked deals pay onto it."),
        ("POT", "the poker space: antes and every bet."),
        ("Spare hand", "the extra hand dealt to nobody; never played, its cards win nothing "
                       "(also the dead hand)."),
        ("Keep / Exchange / Auction", "the dealer's choices for the spare hand."),
        ("Bet limit", "the largest opening bet and the largest raise."),
        ("Showdown", "hands shown at the end of the betting; the best takes the POT."),
        ("Lead", "the first card of a run: the lowest card you hold in its suit."),
        ("Run", "cards of one suit played upwards in order, starting from a lead."),
        ("Stop", "the end of a run: an ace, or a next card nobody can play."),
        ("Stopper", "who played the stop card; they lead next, in another suit."),
        ("(not ♦)", "the suit just played, which the next lead may not be."),
        ("Going out", "playing your last card in Michigan; it ends the deal."),
        ("Block", "nobody can lead: everyone pays 1 chip per card onto the KITTY."),
        ("Leftover round", "the last poker round for the chips left on the board."),
        ("Buy-in", "everyone's starting stack."),
    ),
)
