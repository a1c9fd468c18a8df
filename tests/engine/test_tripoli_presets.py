"""The presets and variants of rules/tripoli.md §3 with exact chips (§5 S14, S15, S18, S19).

Rules seats are numbered from the dealer (seat 0); ``T(k)`` is the engine seat of rules
seat k. Scenarios run with a dealer other than engine seat 0.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from engine import fairness
from engine.cards import Card, Suit
from engine.core import OptionError
from engine.poker import best_five, hand_value
from engine.tripoli import ai
from engine.tripoli.actions import Auction, Bid, Check, Keep, Lead, NameSuit, Pass, action_adapter
from engine.tripoli.events import event_adapter
from engine.tripoli.game import TripoliGame
from engine.tripoli.phases import Phase
from engine.tripoli.rules import (
    PRESETS,
    Difference,
    TripoliRules,
    describe_differences,
    make_rules,
)

CLASSIC_BOARD = ("A♥", "K♥", "Q♥", "J♥", "10♥", "KQ♥", "SEQ", "KITTY", "POT")
ITALIAN_BOARD = ("A♥", "K♥", "Q♥", "J♥", "10♥", "KQ", "POT", "MONTE")


def taken(events) -> list[tuple[str, int, int]]:
    return [(e.space, e.seat, e.chips) for e in events if e.kind == "pay_taken"]


# ---------------------------------------------------------------- rummoli (§3.5, S14)

S14_BOARD = dict(zip(CLASSIC_BOARD, [4, 4, 4, 4, 4, 10, 4, 4, 0], strict=True))


def _s14(tri, T, hands: dict[int, str]) -> TripoliGame:
    return tri.michigan(
        T,
        hands,
        dict.fromkeys(range(4), 30),
        rules=PRESETS["rummoli"],
        board=S14_BOARD,
        spare=tri.cards("10♥"),
        leader=T(2),
    )


def test_s14a_king_queen_won_by_one_player_playing_queen_then_king(tri):
    T = tri.Table(4, dealer=1)
    c = tri.cards
    game = _s14(tri, T, {0: "2♦ 5♠", 1: "Q♥ K♥ 6♣", 2: "J♥ 3♣", 3: "A♥ 8♣"})
    events = game.apply(T(2), Lead(card=c("J♥")[0]))
    assert taken(events) == [
        ("J♥", T(2), 4),
        ("Q♥", T(1), 4),
        ("K♥", T(1), 4),
        ("KQ♥", T(1), 10),
        ("A♥", T(3), 4),
    ]
    kinds = [e.kind for e in events]  # each space is taken as its card is played
    assert kinds[:5] == ["lead", "pay_taken", "played", "pay_taken", "played"]
    assert game.to_act == {T(3)}
    events = game.apply(T(3), Lead(card=c("8♣")[0]))
    out = next(e for e in events if e.kind == "went_out")
    assert (out.seat, out.space_chips, out.payments) == (T(3), 4, {T(0): 2, T(1): 1, T(2): 1})
    assert out.chips == 8
    assert tri.by_rule_seat(game, T) == {0: 28, 1: 47, 2: 33, 3: 42}
    assert {s: v for s, v in game.board.items() if v} == {"10♥": 4, "SEQ": 4}
    assert game.total_chips() == 158


def test_s14b_queen_and_king_played_by_different_players_leave_the_marriage(tri):
    T = tri.Table(4, dealer=3)
    c = tri.cards
    game = _s14(tri, T, {0: "K♥ 2♦", 1: "Q♥ 6♣", 2: "J♥ 3♣", 3: "A♥ 8♣"})
    events = game.apply(T(2), Lead(card=c("J♥")[0]))
    assert taken(events) == [("J♥", T(2), 4), ("Q♥", T(1), 4), ("K♥", T(0), 4), ("A♥", T(3), 4)]
    events = game.apply(T(3), Lead(card=c("8♣")[0]))
    out = next(e for e in events if e.kind == "went_out")
    assert out.chips == 7
    assert tri.by_rule_seat(game, T) == {0: 33, 1: 33, 2: 33, 3: 41}
    assert {s: v for s, v in game.board.items() if v} == {"10♥": 4, "KQ♥": 10, "SEQ": 4}
    game.start_deal()
    assert game.board["KQ♥"] == 14  # next deal's antes on top of the carry-over


def test_rummoli_sequence_needs_one_player_and_is_taken_at_the_third_card(tri):
    T = tri.Table(3, dealer=0)
    c = tri.cards
    game = tri.michigan(
        T,
        {0: "8♣ 9♣ 10♣ 2♥", 1: "8♦ 10♦ 3♥", 2: "9♦ 4♥ 5♥"},
        dict.fromkeys(range(3), 20),
        rules=PRESETS["rummoli"],
        board={"SEQ": 6},
        leader=T(0),
    )
    events = game.apply(T(0), Lead(card=c("8♣")[0]))
    assert taken(events) == [("SEQ", T(0), 6)]
    assert [e.kind for e in events][-3:] == ["played", "pay_taken", "stop"]  # at the 10♣
    game.apply(T(0), Lead(card=c("2♥")[0]))  # 2♥ (s0, his last card): he goes out
    assert game.phase == Phase.BETWEEN_DEALS
    game = tri.michigan(
        T,
        {0: "2♥ 3♠", 1: "8♦ 10♦ 3♥", 2: "9♦ 4♥ 5♥"},
        dict.fromkeys(range(3), 20),
        rules=PRESETS["rummoli"],
        board={"SEQ": 6},
        leader=T(1),
    )
    events = game.apply(T(1), Lead(card=c("8♦")[0]))  # 8♦ s1, 9♦ s2, 10♦ s1: not one player
    assert taken(events) == [] and game.board["SEQ"] == 6


def test_rummoli_has_no_phase_one(tri):
    deck = tri.deck_for(4, spare=(), hands={1: tri.cards("A♥ K♥ Q♥ 8♣ 9♣ 10♣")})
    game = TripoliGame.new(PRESETS["rummoli"], 4, b"r", deck=deck, first_dealer=0)
    events = game.apply(0, Keep())
    assert taken(events) == [] and game.phase == Phase.SELECT
    assert game.board["A♥"] == 4 and game.board["SEQ"] == 4


# ---------------------------------------------------------------- auction-pay-suit (§3.6, S15)


def test_s15_pay_suit_auction_from_the_dealer(tri):
    T = tri.Table(4, dealer=2)
    game = TripoliGame.new(PRESETS["auction-pay-suit"], 4, b"s15", stacks=[49] * 4, first_dealer=2)
    assert game.board["KITTY"] == 4 and game.stacks == [40] * 4
    game.apply(T(0), Keep())
    assert game.phase == Phase.AUCTION and game.to_act == {T(0)}  # the dealer bids first
    view = game.public_view()
    assert (view.auction.item, view.auction.seller, view.auction.space) == (
        "pay_suit",
        None,
        "KITTY",
    )
    for k, action in [
        (0, Bid(amount=1)),
        (1, Bid(amount=2)),
        (2, Pass()),
        (3, Bid(amount=4)),
        (0, Pass()),
        (1, Bid(amount=5)),
    ]:
        assert game.to_act == {T(k)}
        game.apply(T(k), action)
    events = game.apply(T(3), Pass())
    sold = next(e for e in events if e.kind == "auction_sold")
    assert (sold.seat, sold.amount, sold.space, sold.seller) == (T(1), 5, "KITTY", None)
    assert game.board["KITTY"] == 9 and tri.by_rule_seat(game, T) == {0: 40, 1: 35, 2: 40, 3: 40}
    assert game.phase == Phase.NAME_SUIT and game.to_act == {T(1)}
    assert [o.kind for o in game.legal_actions(T(1))] == ["name_suit"]
    events = game.apply(T(1), NameSuit(suit=Suit.SPADES))
    assert [(e.seat, e.suit) for e in events if e.kind == "pay_suit_named"] == [(T(1), Suit.SPADES)]
    assert taken(events) == [] and game.phase == Phase.SELECT
    view = game.public_view()
    assert view.pay_suit == Suit.SPADES and view.pay_suit_source == "auction"
    assert view.space_labels["A♥"] == "A♠" and view.space_labels["KQ♥"].startswith("K♠+Q♠")
    # play the deal out: each single space is taken by the seat that plays its spade
    spades = {"A♥": "A♠", "K♥": "K♠", "Q♥": "Q♠", "J♥": "J♠", "10♥": "10♠"}
    played_by: dict[Card, int] = {}
    while game.phase != Phase.BETWEEN_DEALS:
        seat = min(game.to_act)
        for e in game.apply(seat, game.timeout_action(seat)):
            if e.kind in ("lead", "played"):
                played_by[e.card] = e.seat
            if e.kind == "pay_taken" and e.space in spades:
                assert played_by[tri.cards(spades[e.space])[0]] == e.seat


def test_pay_suit_auction_without_bids_means_hearts_and_nothing_paid():
    game = TripoliGame.new(PRESETS["auction-pay-suit"], 3, b"nb", first_dealer=0)
    game.apply(0, Keep())
    before = list(game.stacks), dict(game.board)
    for seat in (0, 1):
        game.apply(seat, Pass())
    events = game.apply(2, Pass())
    assert [e.kind for e in events][:2] == ["auction_pass", "auction_unsold"]
    assert [(e.seat, e.suit) for e in events if e.kind == "pay_suit_named"] == [(None, Suit.HEARTS)]
    assert (game.stacks, game.board) == before and game.phase == Phase.SELECT


def test_the_suit_namer_times_out_to_the_suit_of_his_pay_cards(tri):
    deck = tri.deck_for(3, spare=(), hands={1: tri.cards("A♦ K♦ 10♦ A♠ 2♥")})
    game = TripoliGame.new(PRESETS["auction-pay-suit"], 3, b"to", deck=deck, first_dealer=0)
    game.apply(0, Keep())
    game.apply(0, Pass())
    game.apply(1, Bid(amount=1))
    game.apply(2, Pass())
    assert game.timeout_action(1) == NameSuit(suit=Suit.DIAMONDS)


# ---------------------------------------------------------------- cosmo (§3.2, §3.7)


def _dial(seed: bytes, deal: int) -> tuple[Suit, int]:
    """The documented draw: sha256(b"dial" + deal seed) stream; suit, then 2 + below(11)."""
    stream = fairness.random_stream(
        hashlib.sha256(b"dial" + fairness.deal_seed(seed, deal)).digest()
    )
    return Suit(fairness.uniform_below(stream, 4)), 2 + fairness.uniform_below(stream, 11)


def test_cosmo_dial_is_drawn_from_the_seed_and_announced_every_deal(tri):
    game = TripoliGame.new(PRESETS["cosmo"], 4, b"cosmo", stacks=[2000] * 4, first_dealer=0)
    dials = []
    for deal in range(1, 13):
        if deal > 1:
            tri.play_out(game)
            game.start_deal()
        turned = [e for e in game.log if e.kind == "dial_turned"][-1]
        assert (turned.pay_suit, turned.seq_start) == _dial(b"cosmo", deal)
        kinds = [e.kind for e in game.log]
        assert kinds.index("dial_turned") < kinds.index("antes_posted")
        view = game.public_view()
        assert (view.pay_suit, view.seq_start, view.pay_suit_source) == (
            turned.pay_suit,
            turned.seq_start,
            "dial",
        )
        dials.append((turned.pay_suit, turned.seq_start))
    assert len({s for s, _ in dials}) > 1 and len({r for _, r in dials}) > 2
    assert all(2 <= r <= 12 for _, r in dials)


def test_cosmo_pays_the_dialled_suit_and_sequence_in_phase_one(tri):
    seed = b"dial-test"
    suit, r = _dial(seed, 1)
    other = Suit((suit + 1) % 4)
    ace, heart_ace = Card.of(14, suit), Card.of(14, Suit.HEARTS)
    run = [Card.of(r + i, other) for i in range(3)]
    hands = {1: [ace, *run]}
    if heart_ace != ace:
        hands[2] = [heart_ace]
    deck = tri.deck_for(4, spare=(), hands=hands)
    game = TripoliGame.new(PRESETS["cosmo"], 4, seed, deck=deck, first_dealer=0)
    events = game.apply(0, Keep())
    wins = taken(events)
    assert ("A♥", 1, 4) in wins and ("SEQ", 1, 4) in wins  # the space printed A♥ pays A of P
    assert [w for w in wins if w[:2] == ("A♥", 2)] == []  # the A♥ itself pays nothing


# ---------------------------------------------------------------- italian (§3.3, S18)


def _s18_deck(tri):
    c = tri.cards
    return tri.deck_for(
        4,
        spare=c("Q♥ K♦ 9♣ 9♠"),
        hands={
            1: c("K♣ Q♣ 4♣ 2♣ 8♦ 9♦ 10♦ 3♦ 10♥ 5♠ 6♠"),
            3: c("K♠ Q♠ J♥"),
            2: c("A♥"),
            0: c("K♥"),
        },
    )


def test_s18_italian_antes_phase_one_automatic_poker_and_first_lead(tri):
    T = tri.Table(4, dealer=3)
    game = TripoliGame.from_position(
        PRESETS["italian"], phase=Phase.BETWEEN_DEALS, stacks=[30] * 4, dealer=T(0)
    )
    assert set(game.board) == set(ITALIAN_BOARD)
    events = game.start_deal(_s18_deck(tri))
    antes = next(e for e in events if e.kind == "antes_posted")
    assert antes.paid == {T(0): 16, T(1): 8, T(2): 8, T(3): 8}
    assert antes.board == dict.fromkeys(ITALIAN_BOARD, 5)
    assert sorted(taken(events)) == sorted(
        [
            ("A♥", T(2), 5),
            ("K♥", T(0), 5),
            ("J♥", T(3), 5),
            ("10♥", T(1), 5),
            ("KQ", T(1), 2),
            ("KQ", T(3), 2),
            ("MONTE", T(1), 5),
        ]
    )
    assert not [e for e in events if e.kind in ("selected", "bet", "checked")]  # no betting
    values = {s: hand_value(best_five(game.hands[s])) for s in range(4)}
    best = [s for s in range(4) if values[s] == max(values.values())]
    pot = {s: 5 // len(best) if s in best else 0 for s in range(4)}
    phase_one = {0: 5, 1: 12, 2: 5, 3: 7}
    start = {0: 14, 1: 22, 2: 22, 3: 22}
    assert tri.by_rule_seat(game, T) == {k: start[k] + phase_one[k] + pot[T(k)] for k in range(4)}
    assert game.board == {
        "A♥": 0,
        "K♥": 0,
        "Q♥": 5,
        "J♥": 0,
        "10♥": 0,
        "KQ": 1,
        "POT": 5 % len(best),
        "MONTE": 0,
    }
    assert game.phase == Phase.MICHIGAN and game.to_act == {T(1)}
    assert set(game.legal_actions(T(1))[0].cards) == set(tri.cards("2♣ 3♦"))


def test_italian_going_out_wins_monte_and_a_chip_per_card(tri):
    T = tri.Table(3, dealer=2)
    c = tri.cards
    game = tri.michigan(
        T,
        {1: "5♠", 2: "6♠ 2♥ 3♥", 0: "7♣"},
        dict.fromkeys(range(3), 10),
        rules=PRESETS["italian"],
        board={"MONTE": 7},
        leader=T(1),
    )
    out = next(e for e in game.apply(T(1), Lead(card=c("5♠")[0])) if e.kind == "went_out")
    assert (out.space, out.space_chips, out.chips) == ("MONTE", 7, 7 + 3 + 1)
    assert tri.by_rule_seat(game, T) == {0: 9, 1: 21, 2: 7}
    assert game.board["MONTE"] == 0


def test_italian_leads_may_repeat_the_suit_just_stopped(tri):
    T = tri.Table(3, dealer=0)
    c = tri.cards
    game = tri.michigan(
        T,
        {1: "5♠ 9♠ 2♥", 2: "6♠ 8♠ K♦", 0: "7♣ 4♦"},
        dict.fromkeys(range(3), 10),
        rules=PRESETS["italian"],
        leader=T(1),
        first_lead=False,
    )
    game.apply(T(1), Lead(card=c("5♠")[0]))  # 5♠ s1, 6♠ s2, 7♠ dead: s2 stops
    assert game.to_act == {T(2)}
    assert set(game.legal_actions(T(2))[0].cards) == set(c("8♠ K♦"))  # spades again
    events = game.apply(T(2), Lead(card=c("8♠")[0]))
    assert [(e.kind, e.seat) for e in events][:3] == [
        ("lead", T(2)),
        ("played", T(1)),
        ("stop", T(1)),
    ]


def test_italian_partial_antes_in_board_order():
    game = TripoliGame.from_position(
        PRESETS["italian"], phase=Phase.BETWEEN_DEALS, stacks=[10, 3, 30], dealer=0
    )
    events = game.start_deal()
    antes = next(e for e in events if e.kind == "antes_posted")
    assert antes.paid == {0: 10, 1: 3, 2: 8}
    # dealer: one chip on all 8, then A♥ K♥ again; seat 1: A♥ K♥ Q♥; seat 2: one on each
    assert antes.board == {
        "A♥": 4,
        "K♥": 4,
        "Q♥": 3,
        "J♥": 2,
        "10♥": 2,
        "KQ": 2,
        "POT": 2,
        "MONTE": 2,
    }
    assert game.eliminated == []


def test_italian_eliminates_at_zero_chips_at_the_end_of_the_deal(tri):
    T = tri.Table(4, dealer=0)
    c = tri.cards
    game = tri.michigan(
        T,
        {1: "5♠", 2: "6♠ 2♥", 3: "3♣", 0: "9♦ 4♥"},
        {0: 10, 1: 10, 2: 1, 3: 0},
        rules=PRESETS["italian"],
        leader=T(1),
    )
    events = game.apply(T(1), Lead(card=c("5♠")[0]))  # 5♠, 6♠ (s2)... s1 is out at once
    assert [(e.seat, e.stack) for e in events if e.kind == "eliminated"] == [(T(2), 0), (T(3), 0)]
    assert game.eliminated == sorted([T(2), T(3)]) and game.dealer == T(1)
    events = game.start_deal()
    assert next(e for e in events if e.kind == "deal_started").seats == (T(0), T(1))


def test_italian_last_player_with_chips_takes_the_board_without_the_eliminated(tri):
    # §3.3 item 15 ([S001]: "until one player has brought the opponents to zero"): s1 goes
    # out, s2 and s0 pay their last chips and are eliminated at the end of the deal; they
    # take no part in the leftover showdown, s1 takes the rest of the board uncontested
    T = tri.Table(3, dealer=1)
    c = tri.cards
    game = tri.michigan(
        T,
        {1: "5♠", 2: "Q♦ 2♥", 0: "9♦ 4♥"},
        {0: 2, 1: 10, 2: 1},
        rules=PRESETS["italian"],
        board={"MONTE": 6, "A♥": 4, "KQ": 3, "POT": 5},
        leader=T(1),
    )
    events = game.apply(T(1), Lead(card=c("5♠")[0]))
    out = next(e for e in events if e.kind == "went_out")
    assert (out.space_chips, out.payments) == (6, {T(2): 1, T(0): 2})
    assert [e.seat for e in events if e.kind == "eliminated"] == sorted([T(0), T(2)])
    leftover = next(e for e in events if e.kind == "deal_started" and e.leftover)
    assert leftover.seats == (T(1),)
    assert not any(e.kind == "showdown" for e in events)
    assert [(e.seat, e.chips, e.uncontested) for e in events if e.kind == "pot_won"] == [
        (T(1), 12, True)
    ]
    assert game.is_over and tri.by_rule_seat(game, T) == {0: 0, 1: 31, 2: 0}
    assert game.outcome.places == ((T(1),), tuple(sorted([T(0), T(2)])))
    assert not any(game.board.values())


def test_italian_leftover_showdown_is_among_the_players_with_chips_only(tri):
    # the host ends the session during the deal; s2 pays its last chips and is out, so the
    # leftover showdown (§3.3 item 16) is s0 against s1 only
    T = tri.Table(3, dealer=0)
    c = tri.cards
    game = tri.michigan(
        T,
        {1: "5♠", 2: "Q♦ 2♥", 0: "9♦ 4♥"},
        {0: 5, 1: 10, 2: 2},
        rules=PRESETS["italian"],
        board={"Q♥": 7},
        leader=T(1),
    )
    assert game.end_session() == []
    # the next dealer is s1; the leftover round is dealt to s2's left: s0, then s1
    hands = [c("2♣ 3♦ 5♥ 7♠ 9♣"), c("K♠ K♦ 4♣ 6♦ 8♥")]
    game.fix_next_deck(tri.leftover_deck(2, hands))
    events = game.apply(T(1), Lead(card=c("5♠")[0]))
    assert [e.seat for e in events if e.kind == "eliminated"] == [T(2)]
    shown = next(e for e in events if e.kind == "showdown")
    assert set(shown.hands) == {T(0), T(1)}
    assert [(e.seat, e.chips) for e in events if e.kind == "pot_won"] == [(T(1), 7)]
    assert game.is_over and tri.by_rule_seat(game, T) == {0: 3, 1: 21, 2: 0}


def test_italian_monte_once_keeps_a_phase_one_monte_from_the_going_out_player(tri):
    c = tri.cards
    deck = tri.deck_for(3, spare=c("J♣"), hands={1: c("8♦ 9♦ 10♦"), 2: c("8♠ 9♠ 10♠"), 0: c("Q♣")})
    results = {}
    for once in (False, True):
        rules = make_rules("italian", monte_once=once)
        game = TripoliGame.from_position(
            rules, phase=Phase.BETWEEN_DEALS, stacks=[50] * 3, board={"MONTE": 1}, dealer=0
        )
        events = game.start_deal(deck)
        assert [t for t in taken(events) if t[0] == "MONTE"] == [("MONTE", 1, 2), ("MONTE", 2, 2)]
        assert game.board["MONTE"] == 1
        tri.play_out(game)
        out = next(e for e in game.log if e.kind == "went_out")
        results[once] = out.space_chips
    assert results == {False: 1, True: 0}


def test_italian_no_poker_skips_phase_two_and_has_no_pot(tri):
    game = TripoliGame.new(PRESETS["italian-no-poker"], 3, b"np", first_dealer=0)
    assert "POT" not in game.board and len(game.board) == 7
    assert game.phase == Phase.MICHIGAN and game.to_act == {1}  # the dealer's left leads
    assert not [e for e in game.log if e.kind in ("betting_started", "showdown")]
    tri.play_out(game)
    total = game.total_chips()
    events = game.end_session()
    assert [e.kind for e in events][:2] == ["leftover_started", "deal_started"]
    assert any(e.kind == "showdown" for e in events)  # one automatic showdown (§3.3 16)
    assert game.is_over and "POT" not in game.board and sum(game.board.values()) == 0
    assert sum(game.result.values()) == total


def test_italian_ghost_auction_after_poker_swaps_the_hand_and_feeds_the_monte(tri):
    T = tri.Table(4, dealer=1)
    game = TripoliGame.from_position(
        PRESETS["italian-ghost-auction"], phase=Phase.BETWEEN_DEALS, stacks=[30] * 4, dealer=T(0)
    )
    game.start_deal()
    assert any(e.kind == "pot_won" for e in game.log)  # after phases 1 and 2
    assert game.phase == Phase.AUCTION and game.to_act == {T(1)}
    assert game.public_view().auction.item == "ghost"
    ghost, dealer_hand = list(game.spare), list(game.hands[T(0)])
    monte, dealer_stack = game.board["MONTE"], game.stacks[T(0)]
    for k, action in [(1, Pass()), (2, Bid(amount=2)), (3, Pass()), (0, Bid(amount=3))]:
        assert game.to_act == {T(k)}
        game.apply(T(k), action)
    assert set(game.view(T(0)).selection) <= set(dealer_hand)
    events = game.apply(T(2), Pass())
    assert game.view(T(0)).selection is None  # his poker five left with his old hand
    assert all(game.view(T(k)).selection is not None for k in (1, 2, 3))
    assert [(e.seat, e.amount, e.space) for e in events if e.kind == "auction_sold"] == [
        (T(0), 3, "MONTE")
    ]
    assert game.board["MONTE"] == monte + 3 and game.stacks[T(0)] == dealer_stack - 3
    assert sorted(game.hands[T(0)]) == sorted(ghost) and sorted(game.spare) == sorted(dealer_hand)
    assert game.phase == Phase.MICHIGAN and game.to_act == {T(1)}


def test_italian_boodle_pays_the_four_boodle_cards(tri):
    c = tri.cards
    deck = tri.deck_for(
        3,
        spare=c("J♠"),
        hands={1: c("A♥ K♣"), 2: c("Q♦ K♥ Q♥"), 0: c("10♥")},
    )
    game = TripoliGame.from_position(
        PRESETS["italian-boodle"], phase=Phase.BETWEEN_DEALS, stacks=[30] * 3, dealer=0
    )
    assert tuple(game.board) == ("A♥", "K♣", "Q♦", "J♠", "KQ", "POT", "MONTE")
    events = game.start_deal(deck)
    singles = [t for t in taken(events) if t[0] not in ("KQ", "MONTE")]
    assert singles == [("A♥", 1, 4), ("K♣", 1, 4), ("Q♦", 2, 4)]
    assert 2 in [seat for space, seat, _ in taken(events) if space == "KQ"]  # K♥ Q♥: any suit
    assert game.board["J♠"] == 4  # in the ghost hand: carries over


# ---------------------------------------------------------------- S19 and combinations


def test_s19_as_a_combination_of_two_presets(tri):
    rules = make_rules("first-lead-lowest-card", michigan_leader="dealer")
    assert rules.first_lead == "lowest_card" and rules.michigan_leader == "dealer"
    T = tri.Table(4, dealer=2)
    game = TripoliGame.from_position(
        rules,
        phase=Phase.BETTING,
        stacks=[30] * 4,
        hands={
            T(0): tri.cards("3♦ K♦ 3♠ J♠ Q♠ 7♣ 8♣ A♣ 9♥ 10♥"),
            T(1): tri.cards("2♣ 4♦ 6♥ 9♠ Q♦"),
            T(2): tri.cards("2♦ 5♣ 6♠ 10♣ K♣"),
            T(3): tri.cards("2♥ 4♣ 5♠ J♣ A♦"),
        },
        selections={
            T(0): tri.cards("3♦ K♦ 3♠ J♠ Q♠"),
            T(1): tri.cards("2♣ 4♦ 6♥ 9♠ Q♦"),
            T(2): tri.cards("2♦ 5♣ 6♠ 10♣ K♣"),
            T(3): tri.cards("2♥ 4♣ 5♠ J♣ A♦"),
        },
        board={"POT": 4},
        dealer=T(0),
    )
    for k in (1, 2, 3, 0):
        game.apply(T(k), Check())
    assert game.to_act == {T(0)}  # the dealer leads, whoever won the pot
    assert set(game.legal_actions(T(0))[0].cards) == set(tri.cards("3♦ 3♠"))


def test_rummoli_with_the_dealer_opening_the_betting():
    rules = make_rules("rummoli", bet_opener="dealer")
    game = TripoliGame.new(rules, 4, b"comb", first_dealer=2)
    game.apply(2, Keep())
    for seat in range(4):
        assert game.timeout_action(seat).kind == "select"
        game.apply(seat, game.timeout_action(seat))
    assert game.phase == Phase.BETTING and game.to_act == {2}


def test_spare_needs_no_pay_card(tri):
    rules = make_rules("classic", spare_needs_no_pay_card=True)
    c = tri.cards
    deck = tri.deck_for(4, spare=c("K♥ Q♥ J♥"), hands={0: c("A♥"), 2: c("10♥")})
    game = TripoliGame.new(rules, 4, b"np", deck=deck, first_dealer=0)
    assert [o.kind for o in game.legal_actions(0)] == ["keep", "auction"]
    game.apply(0, Auction())
    assert game.public_view().auction.item == "spare"
    bidders = set()
    while game.phase == Phase.AUCTION:
        (seat,) = game.to_act
        bidders.add(seat)
        game.apply(seat, Pass())
    assert bidders == {1, 3}  # seat 2 holds the 10♥
    free = TripoliGame.new(rules, 4, b"np", deck=tri.deck_for(4, (), {}), first_dealer=0)
    assert "exchange" in [o.kind for o in free.legal_actions(0)]


# ---------------------------------------------------------------- make_rules and its refusals


@pytest.mark.parametrize(
    ("preset", "overrides", "reason", "values"),
    [
        ("italian", {"first_lead": "lowest_black"}, "tripoli.option.colour_leads", {}),
        ("colour", {"next_lead": "any_suit"}, "tripoli.option.colour_leads", {}),
        ("classic", {"ante": 0}, "option.at_least", {"option": "ante", "low": 1}),
        ("classic", {"ante": "two"}, "option.at_least", {"option": "ante", "low": 1}),
        ("classic", {"bet_limit": 0}, "option.at_least", {"option": "bet_limit", "low": 1}),
        ("classic", {"seq_ranks": 13}, "option.between",
         {"option": "seq_ranks", "low": 2, "high": 12}),
        ("classic", {"all_in": "sometimes"}, "option.invalid", {"option": "all_in"}),
        ("classic", {"players": 10}, "tripoli.option.players",
         {"preset": "classic", "low": 2, "high": 9}),
        ("dutch", {"players": 3}, "tripoli.option.players",
         {"preset": "dutch", "low": 4, "high": 7}),
        ("italian", {"players": 2}, "tripoli.option.players",
         {"preset": "italian", "low": 3, "high": 9}),
        ("classic", {"min_players": 1}, "option.at_least", {"option": "min_players", "low": 2}),
        ("classic", {"min_players": 8, "max_players": 5}, "tripoli.option.players_range",
         {"low": 8, "high": 5}),
        ("nonsense", {}, "tripoli.option.no_preset",
         {"preset": "nonsense", "presets": ", ".join(PRESETS)}),
        ("classic", {"colour": True}, "option.unknown", {"option": "colour"}),
        ("classic", {"name": "x"}, "option.unknown", {"option": "name"}),
        ("italian-boodle", {"pay_suit": "auction"}, "tripoli.option.boodle_pay_suit", {}),
        ("auction-pay-suit", {"pay_collection": "hold"}, "tripoli.option.auction_collection",
         {}),
        ("classic", {"poker": "none"}, "tripoli.option.pot_without_poker", {}),
        ("italian-no-poker", {"michigan_leader": "poker_winner"},
         "tripoli.option.leader_without_poker", {}),
        ("classic", {"monte_once": True}, "tripoli.option.monte_once", {}),
        ("auction-pay-suit", {"spare_needs_no_pay_card": True},
         "tripoli.option.spare_before_auction", {}),
        ("classic", {"spaces": ("A♥", "K♥")}, "tripoli.option.space_missing", {"space": "10♥"}),
        ("classic", {"spaces": (*PRESETS["classic"].spaces, "MONTE")},
         "tripoli.option.space_unused", {"space": "MONTE"}),
        ("classic", {"spaces": (*PRESETS["classic"].spaces, "POT")},
         "tripoli.option.space_twice", {}),
        ("classic", {"spare_options": ("keep", "exchange_auction_old")},
         "tripoli.option.old_hand_needs_exchange", {}),
    ],
)
def test_make_rules_refuses_what_makes_no_sense(preset, overrides, reason, values):
    with pytest.raises(OptionError) as refused:
        make_rules(preset, **overrides)
    assert isinstance(refused.value, ValueError)
    assert (refused.value.reason, refused.value.values) == (reason, values)
    assert reason in str(refused.value)


def test_make_rules_combines_a_preset_with_overrides():
    assert make_rules("classic") == PRESETS["classic"] == TripoliRules()
    rules = make_rules("rummoli", bet_opener="dealer", seq_ranks=6, bet_limit=5, players=9)
    assert (rules.pay_collection, rules.bet_opener, rules.seq_ranks, rules.bet_limit) == (
        "play",
        "dealer",
        6,
        5,
    )
    assert make_rules("classic", ante=2).dealer_ante == 2  # the dealer antes like everyone
    assert make_rules("italian", ante=3).dealer_ante == 2  # italian keeps its dealer ante
    assert make_rules("italian", ante=3, dealer_ante=4).dealer_ante == 4
    assert make_rules("classic", starting_stack=250).starting_stack == 250


def test_every_preset_is_named_noted_and_valid():
    assert set(PRESETS) == {
        "classic",
        "rummoli",
        "auction-pay-suit",
        "seq-678",
        "dealer-starts-betting",
        "michigan-starts-dealer",
        "michigan-starts-left",
        "no-spare-exchange",
        "first-lead-lowest-card",
        "colour",
        "cosmo",
        "italian",
        "italian-no-poker",
        "italian-ghost-auction",
        "italian-boodle",
        "dutch",
    }
    for name, rules in PRESETS.items():
        assert rules.name == name
        assert TripoliRules.model_validate_json(rules.model_dump_json()) == rules
        assert make_rules(name) == rules


def test_differences_from_classic_as_data():
    assert describe_differences(PRESETS["classic"]) == []
    for name, rules in PRESETS.items():
        assert (describe_differences(rules) == []) == (name == "classic"), name
    combined = describe_differences(make_rules("rummoli", bet_opener="dealer"))
    assert [d.key for d in combined] == ["tripoli.difference.pay_in_michigan",
                                         "tripoli.difference.dealer_opens"]
    assert describe_differences(make_rules("seq-678")) == [
        Difference(key="tripoli.difference.sequence", values={"start": 6})]
    colour = describe_differences(PRESETS["colour"])  # two parameters, one difference
    assert colour == [Difference(key="tripoli.difference.colour_leads")]
    italian = {d.key.removeprefix("tripoli.difference."): d.values
               for d in describe_differences(PRESETS["italian"])}
    assert italian["players"] == {"low": 3, "high": 9}
    assert italian["dealer_ante"] == {"count": 2}
    assert italian["going_out"] == {"space": "MONTE"}
    assert italian["spaces"] == {"spaces": PRESETS["italian"].spaces}
    assert "poker_auto" in italian and "out_at_zero" in italian
    assert "block" not in italian  # any suit may be led after a stop: no block


# ---------------------------------------------------------------- the AI and the views


def test_ai_bids_for_the_pay_suit_it_holds_and_names_that_suit(tri):
    c = tri.cards
    low = {
        1: c("2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 2♦ 3♦ 4♦ 5♦ 6♦"),
        2: c("7♦ 8♦ 9♦ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 2♠ 3♠"),
    }
    deck = tri.deck_for(3, spare=(), hands={0: c("A♠ K♠ Q♠ J♠"), **low})
    rng = random.Random(1)
    game = TripoliGame.new(PRESETS["auction-pay-suit"], 3, b"ai", deck=deck, first_dealer=0)
    game.apply(0, Keep())
    assert ai.choose(game.view(0), game.legal_actions(0), rng) == Bid(amount=1)
    game.apply(0, Bid(amount=1))
    for seat in (1, 2):  # no pay card of any suit: not worth a bid
        assert ai.choose(game.view(seat), game.legal_actions(seat), rng) == Pass()
        game.apply(seat, Pass())
    assert game.to_act == {0} and game.phase == Phase.NAME_SUIT
    assert ai.choose(game.view(0), game.legal_actions(0), rng) == NameSuit(suit=Suit.SPADES)


def test_views_say_what_each_space_pays_for():
    view = TripoliGame.new(PRESETS["italian"], 3, b"v", first_dealer=0).public_view()
    assert view.space_labels == {
        "A♥": "A♥",
        "K♥": "K♥",
        "Q♥": "Q♥",
        "J♥": "J♥",
        "10♥": "10♥",
        "KQ": "K+Q of one suit",
        "POT": "poker",
        "MONTE": "going out, 8-9-10 of one suit",
    }
    assert view.rules == PRESETS["italian"] and view.pay_suit_source == "fixed"
    rummoli = TripoliGame.new(PRESETS["rummoli"], 3, b"v", first_dealer=0).public_view()
    assert rummoli.space_labels["KQ♥"] == "K♥+Q♥ played by one player"
    assert rummoli.space_labels["KITTY"] == "going out"


def test_new_actions_and_events_read_back_from_json():
    action = NameSuit(suit=Suit.CLUBS)
    assert action_adapter.validate_json(action.model_dump_json()) == action
    game = TripoliGame.new(PRESETS["cosmo"], 4, b"ev")
    for event in game.log:
        assert event_adapter.validate_json(event.model_dump_json()) == event
    assert any(e.kind == "dial_turned" for e in game.log)
