"""Pay cards: which seats win which pay space (``rules/tripoli.md`` §2.5, §3.3 item 8, §3.5).

Pure functions of the rules, the deal's pay suit and sequence, and the cards; the game moves
the chips. ``pay_collection = hold`` pays on the final hands in phase 1
(:func:`phase_one_winners`); ``pay_collection = play`` pays as the cards are played in
Michigan (:func:`play_takes`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from engine.cards import Card, Rank, Suit
from engine.tripoli.rules import TripoliRules

PAY_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)
BOODLE_CARDS = (
    Card.of(Rank.ACE, Suit.HEARTS),
    Card.of(Rank.KING, Suit.CLUBS),
    Card.of(Rank.QUEEN, Suit.DIAMONDS),
    Card.of(Rank.JACK, Suit.SPADES),
)


def pay_card_spaces(rules: TripoliRules, pay_suit: Suit) -> list[tuple[str, Card]]:
    """The single pay-card spaces and their cards, in board order (§2.5 item 20).

    ``pay_cards = suit``: A, K, Q, J, 10 of ``pay_suit`` on the spaces printed A♥ … 10♥;
    ``boodle``: A♥ K♣ Q♦ J♠ on their own spaces (§3.3 item 19).

    Returns
    -------
    list of (space name, card)
    """
    if rules.pay_cards == "boodle":
        cards = BOODLE_CARDS
    else:
        cards = tuple(Card.of(rank, pay_suit) for rank in PAY_RANKS)
    return list(zip(rules.single_spaces, cards, strict=True))


def kq_suits(rules: TripoliRules, pay_suit: Suit) -> tuple[Suit, ...]:
    """Suits whose K and Q together win the K-Q space (§2.5 item 21; ``kq_suit``)."""
    return tuple(Suit) if rules.kq_suit == "any" else (pay_suit,)


def space_labels(rules: TripoliRules, pay_suit: Suit, seq_start: int) -> dict[str, str]:
    """What each board space pays for in a deal, in plain words, in board order.

    Parameters
    ----------
    seq_start
        The lowest rank of the deal's sequence (2..12).

    Notes
    -----
    Every view of the game asks for these: being a pure function of its arguments, the
    answers are kept (the last 256 rules, pay suit and sequence met).
    """
    return dict(_space_labels(rules, pay_suit, seq_start))


@functools.lru_cache(maxsize=256)
def _space_labels(
    rules: TripoliRules, pay_suit: Suit, seq_start: int
) -> tuple[tuple[str, str], ...]:
    out = {space: str(card) for space, card in pay_card_spaces(rules, pay_suit)}
    suits = kq_suits(rules, pay_suit)
    kq = "K+Q of one suit" if len(suits) > 1 else f"K{suits[0].symbol}+Q{suits[0].symbol}"
    ranks = "-".join(Rank(seq_start + i).label for i in range(3))
    seq = f"{ranks} of one suit"
    if rules.pay_collection == "play":
        kq, seq = f"{kq} played by one player", f"{seq} played by one player"
    out[rules.kq_space] = kq
    out[rules.seq_space] = seq
    out[rules.block_space] = "blocks"
    out[rules.going_out_space] = (
        f"going out, {seq}" if rules.going_out_space == rules.seq_space else "going out"
    )
    if "POT" in rules.spaces:
        out["POT"] = "poker"
    return tuple((space, out[space]) for space in rules.spaces)


def phase_one_winners(
    rules: TripoliRules,
    hands: Mapping[int, Sequence[Card]],
    pay_suit: Suit | None = None,
    seq_start: int | None = None,
) -> list[tuple[str, list[int]]]:
    """The pay spaces in board order with the seats that qualify (items 20-24).

    Parameters
    ----------
    hands
        Seat -> final hand of every player of the deal (the spare hand never qualifies).
    pay_suit, seq_start
        The deal's pay suit and lowest sequence rank (default: the rules' fixed values).

    Returns
    -------
    list of (space, seats)
        Single pay cards (one holder or none), the K-Q space (holders of K and Q of a
        ``kq_suit``), the sequence space (holders of ``seq_start``, +1, +2 of one suit); a
        seat qualifying in two suits counts once (item 23, §3.3 item 8).
    """
    suit = pay_suit if pay_suit is not None else Suit(rules.pay_suit)
    r = seq_start if seq_start is not None else rules.seq_ranks
    held = {s: set(cards) for s, cards in hands.items()}
    out = [
        (space, [s for s, cs in held.items() if card in cs])
        for space, card in pay_card_spaces(rules, suit)
    ]
    marriages = [{Card.of(Rank.KING, k), Card.of(Rank.QUEEN, k)} for k in kq_suits(rules, suit)]
    out.append((rules.kq_space, [s for s, cs in held.items() if any(m <= cs for m in marriages)]))
    runs = [{Card.of(r + i, k) for i in range(3)} for k in Suit]
    out.append((rules.seq_space, [s for s, cs in held.items() if any(run <= cs for run in runs)]))
    return out


def play_takes(
    rules: TripoliRules, pay_suit: Suit, seq_start: int, run: Sequence[Card], by: Sequence[int]
) -> list[str]:
    """Spaces taken by the player of the last card of ``run`` as it is played (§3.5).

    The single space of that card; the K-Q space when the card is the K of a ``kq_suit``
    and the same player played the Q just before it (item 2); the sequence space when the
    card completes ``seq_start``..+2 of one suit and the same player played all three
    (item 3).

    Parameters
    ----------
    run
        The cards of the current run so far (one suit, ascending, consecutive).
    by
        The seat that played each card of ``run``.
    """
    card, seat = run[-1], by[-1]
    out = [space for space, c in pay_card_spaces(rules, pay_suit) if c == card]
    if (
        card.rank == Rank.KING
        and card.suit in kq_suits(rules, pay_suit)
        and len(run) >= 2
        and by[-2] == seat
    ):
        out.append(rules.kq_space)
    if card.rank == seq_start + 2 and len(run) >= 3 and by[-3] == by[-2] == seat:
        out.append(rules.seq_space)
    return out
