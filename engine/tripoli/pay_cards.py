"""Phase 1, pay cards: which seats win which pay space (``rules/tripoli.md`` §2.5).

Pure functions of the rules and the final hands; the game moves the chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import Card, Rank, Suit
from engine.tripoli.rules import KQ, PAY_SPACES, SEQ, TripoliRules


def pay_card_spaces(rules: TripoliRules) -> list[tuple[str, Card]]:
    """The single pay-card spaces and their cards, in board order (§2.5 item 20).

    Returns
    -------
    list of (space name, card)
    """
    suit = rules.pay_suit
    assert isinstance(suit, Suit)
    ranks = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)
    return [(space, Card.of(rank, suit)) for space, rank in zip(PAY_SPACES, ranks, strict=True)]


def kq_suits(rules: TripoliRules) -> tuple[Suit, ...]:
    """Suits whose K and Q together win the K-Q space (§2.5 item 21; ``kq_suit``)."""
    if rules.kq_suit == "any":
        return tuple(Suit)
    assert isinstance(rules.pay_suit, Suit)
    return (rules.pay_suit,)


def phase_one_winners(
    rules: TripoliRules, hands: Mapping[int, Sequence[Card]]
) -> list[tuple[str, list[int]]]:
    """The pay spaces in board order with the seats that qualify (items 20-24).

    Parameters
    ----------
    hands
        Seat -> final hand of every player of the deal (the spare hand never qualifies).

    Returns
    -------
    list of (space, seats)
        Single pay cards (one holder or none), ``KQ♥`` (holders of K and Q of a
        ``kq_suit``), ``SEQ`` (holders of ``seq_ranks``, +1, +2 of one suit; a seat
        qualifying in two suits counts once, item 23).
    """
    held = {s: set(cards) for s, cards in hands.items()}
    out = [
        (space, [s for s, cs in held.items() if card in cs])
        for space, card in pay_card_spaces(rules)
    ]
    marriages = [{Card.of(Rank.KING, suit), Card.of(Rank.QUEEN, suit)} for suit in kq_suits(rules)]
    out.append((KQ, [s for s, cs in held.items() if any(m <= cs for m in marriages)]))
    r = rules.seq_ranks
    runs = [{Card.of(r + i, suit) for i in range(3)} for suit in Suit]
    out.append((SEQ, [s for s, cs in held.items() if any(run <= cs for run in runs)]))
    return out
