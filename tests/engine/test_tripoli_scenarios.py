"""The worked scenarios of rules/tripoli.md §5 with their exact chips.

Rules seats are numbered from the dealer (seat 0); ``T(k)`` is the engine seat of rules
seat k. Scenarios run with a dealer other than engine seat 0 to exercise the translation.
"""

from __future__ import annotations

import pytest

from engine.cards import Card, Suit
from engine.tripoli.actions import (
    Auction,
    Bet,
    Bid,
    Call,
    Check,
    Exchange,
    Fold,
    Keep,
    Lead,
    Pass,
    Raise,
)
from engine.tripoli.game import TripoliGame
from engine.tripoli.phases import Phase
from engine.tripoli.rules import PRESETS, TripoliRules

SPACES = ("A♥", "K♥", "Q♥", "J♥", "10♥", "KQ♥", "SEQ", "KITTY", "POT")


def board(**chips: int) -> dict[str, int]:
    names = {"A": "A♥", "K": "K♥", "Q": "Q♥", "J": "J♥", "T": "10♥", "KQ": "KQ♥"}
    return {names.get(k, k): v for k, v in chips.items()}


# ---------------------------------------------------------------- phase 1 and the spare hand


def test_s1_seq_split_with_odd_chip(tri):
    T = tri.Table(4, dealer=2)
    c = tri.cards
    deck = tri.deck_for(
        4,
        spare=c("J♥ 8♥ 8♦"),
        hands={0: c("K♥ 10♦"), 1: c("10♥ 8♣ 9♣ 10♣"), 2: c("A♥ 9♦"), 3: c("Q♥ 8♠ 9♠ 10♠")},
    )
    game = TripoliGame.from_position(
        phase=Phase.BETWEEN_DEALS, stacks=[59] * 4, board={"SEQ": 3}, dealer=T(0)
    )
    game.start_deal(deck)
    assert game.stacks == [50] * 4
    assert game.board == dict(zip(SPACES, [4, 4, 4, 4, 4, 4, 7, 4, 4], strict=True))
    events = game.apply(T(0), Keep())
    taken = [(e.space, e.seat, e.chips) for e in events if e.kind == "pay_taken"]
    assert sorted(taken) == sorted(
        [
            ("A♥", T(2), 4),
            ("K♥", T(0), 4),
            ("Q♥", T(3), 4),
            ("10♥", T(1), 4),
            ("SEQ", T(1), 3),
            ("SEQ", T(3), 3),
        ]
    )
    assert tri.by_rule_seat(game, T) == {0: 54, 1: 57, 2: 54, 3: 57}
    assert game.board == dict(zip(SPACES, [0, 0, 0, 4, 0, 4, 1, 4, 4], strict=True))
    assert game.total_chips() == 4 * 59 + 3


def test_s2_king_queen_collected_by_one_player(tri):
    T = tri.Table(5, dealer=4)
    c = tri.cards
    deck = tri.deck_for(
        5,
        spare=c("8♣ 8♦ 8♥ 8♠"),
        hands={2: c("K♥ Q♥"), 4: c("A♥"), 1: c("J♥"), 0: c("10♥")},
    )
    game = TripoliGame.from_position(
        phase=Phase.BETWEEN_DEALS, stacks=[49] * 5, board=board(KQ=10), dealer=T(0)
    )
    game.start_deal(deck)
    assert game.stacks == [40] * 5 and game.board["KQ♥"] == 15
    game.apply(T(0), Keep())
    assert tri.by_rule_seat(game, T) == {0: 45, 1: 45, 2: 65, 3: 40, 4: 45}
    assert game.board == dict(zip(SPACES, [0, 0, 0, 0, 0, 0, 5, 5, 5], strict=True))
    assert game.total_chips() == 255


def test_s3_pay_card_in_the_dead_hand_after_an_exchange_carries_over(tri):
    T = tri.Table(4, dealer=1)
    c = tri.cards
    deck = tri.deck_for(4, spare=(), hands={0: c("J♥"), 1: c("A♥ K♥ Q♥ 10♥")})
    game = TripoliGame.from_position(phase=Phase.BETWEEN_DEALS, stacks=[49] * 4, dealer=T(0))
    game.start_deal(deck)
    spare_before, own_before = list(game.spare), list(game.hands[T(0)])
    assert len(spare_before) == 11 and len(own_before) == 10
    game.apply(T(0), Exchange())
    assert game.hands[T(0)] == spare_before and game.spare == own_before
    game.apply(T(0), Keep())  # do not auction the old hand
    assert game.board["J♥"] == 4
    assert game.phase == Phase.SELECT
    tri.play_out(game)
    assert game.dealer == T(1)
    deck2 = tri.deck_for(4, spare=(), hands={2: c("J♥")})  # seat 2 of the new dealer
    game.start_deal(deck2)
    assert game.board["J♥"] == 8
    events = game.apply(T(1), Keep())
    assert ("J♥", (T(1) + 2) % 4, 8) in [
        (e.space, e.seat, e.chips) for e in events if e.kind == "pay_taken"
    ]
    assert game.board["J♥"] == 0


def _no_pay_cards_deck(tri, holder: int) -> list[Card]:
    """Every pay card and every 8 in rules seat ``holder``'s hand (it becomes dead)."""
    return tri.deck_for(4, spare=(), hands={holder: tri.cards("A♥ K♥ Q♥ J♥ 10♥ 8♣ 8♦ 8♥ 8♠")})


def test_s4_auction_of_the_unseen_spare(tri):
    T = tri.Table(4, dealer=3)
    game = TripoliGame.from_position(phase=Phase.BETWEEN_DEALS, stacks=[49] * 4, dealer=T(0))
    game.start_deal(_no_pay_cards_deck(tri, holder=1))
    assert game.stacks == [40] * 4
    spare_before, s1_before = list(game.spare), list(game.hands[T(1)])
    game.apply(T(0), Auction())
    assert game.phase == Phase.AUCTION and game.to_act == {T(1)}
    assert tri.refused(game, T(2), Bid(amount=3)) == "not_your_turn"
    game.apply(T(1), Bid(amount=2))
    assert tri.refused(game, T(2), Bid(amount=2)) == "illegal"  # not above the high bid
    game.apply(T(2), Bid(amount=3))
    game.apply(T(3), Pass())
    game.apply(T(1), Bid(amount=5))
    events = game.apply(T(2), Pass())
    assert next(e for e in events if e.kind == "auction_sold").amount == 5
    assert tri.by_rule_seat(game, T) == {0: 45, 1: 35, 2: 40, 3: 40}
    assert game.board == dict.fromkeys(SPACES, 4)
    assert game.hands[T(1)] == spare_before and game.spare == s1_before
    assert game.phase == Phase.SELECT  # the procedure ended: the dealer cannot exchange


def test_s5_exchange_then_auction_of_the_old_hand(tri):
    T = tri.Table(4, dealer=0)
    game = TripoliGame.from_position(phase=Phase.BETWEEN_DEALS, stacks=[49] * 4, dealer=T(0))
    game.start_deal(_no_pay_cards_deck(tri, holder=3))
    old_hand, s3_before = list(game.hands[T(0)]), list(game.hands[T(3)])
    game.apply(T(0), Exchange())
    assert {o.kind for o in game.legal_actions(T(0))} == {"keep", "auction"}
    assert game.view(T(0)).old_hand == tuple(sorted(old_hand))  # he has seen it (§4 item 13)
    assert all(game.view(T(k)).old_hand is None for k in (1, 2, 3))
    game.apply(T(0), Auction())
    game.apply(T(1), Pass())
    game.apply(T(2), Bid(amount=1))
    game.apply(T(3), Bid(amount=2))
    game.apply(T(2), Pass())
    assert tri.by_rule_seat(game, T) == {0: 42, 1: 40, 2: 40, 3: 38}
    assert game.hands[T(3)] == old_hand and game.spare == s3_before


def test_dutch_exchange_ends_the_procedure_and_unsold_spare_allows_only_exchange():
    game = TripoliGame.new(PRESETS["dutch"], 4, b"dutch", first_dealer=0)
    game.apply(0, Exchange())
    assert game.phase == Phase.SELECT
    game = TripoliGame.new(TripoliRules(), 4, b"unsold", first_dealer=0)
    game.apply(0, Auction())
    for seat in (1, 2, 3):
        game.apply(seat, Pass())
    assert {o.kind for o in game.legal_actions(0)} == {"keep", "exchange"}
    game.apply(0, Exchange())  # ambiguity 12: no auction of the old hand after a failed one
    assert game.phase == Phase.SELECT


# ---------------------------------------------------------------- phase 2


def _poker(tri, T, selections: dict[int, str], stacks: dict[int, int], pot: int, hands=None, **kw):
    hands = selections | (hands or {})
    return TripoliGame.from_position(
        phase=Phase.BETTING,
        stacks=T.stacks(stacks),
        hands={T(k): tri.cards(v) for k, v in hands.items()},
        selections={T(k): tri.cards(v) for k, v in selections.items()},
        board={"POT": pot},
        dealer=T(0),
        **kw,
    )


def test_s6_check_around_to_showdown(tri):
    T = tri.Table(4, dealer=2)
    game = _poker(
        tri,
        T,
        {1: "7♣ 7♦ K♠ 9♥ 3♣", 2: "2♦ 6♦ 9♦ J♦ K♦", 3: "Q♣ Q♥ 5♠ 5♦ 8♣", 0: "A♠ J♣ 9♣ 6♥ 4♦"},
        dict.fromkeys(range(4), 30),
        pot=6,
    )
    events = [e for k in (1, 2, 3, 0) for e in game.apply(T(k), Check())]
    shown = next(e for e in events if e.kind == "showdown")
    assert set(shown.hands) == {T(0), T(1), T(2), T(3)}
    assert tri.by_rule_seat(game, T) == {0: 30, 1: 30, 2: 36, 3: 30}
    assert game.board["POT"] == 0
    assert game.phase == Phase.MICHIGAN and game.to_act == {T(2)}


def test_s7_bet_raise_fold_call_call(tri):
    T = tri.Table(4, dealer=1)
    game = _poker(
        tri,
        T,
        {1: "J♠ J♦ 4♣ 4♥ A♣", 2: "A♦ A♥ K♣ 8♦ 3♠", 3: "2♣ 3♦ 7♥ 9♠ Q♦", 0: "5♣ 6♦ 7♠ 8♣ 9♥"},
        dict.fromkeys(range(4), 30),
        pot=4,
    )
    game.apply(T(1), Bet(amount=3))
    assert game.board["POT"] == 7
    game.apply(T(2), Raise(amount=5))
    assert game.board["POT"] == 15 and game.betting.high == 8
    game.apply(T(3), Fold())
    game.apply(T(0), Call())
    assert game.board["POT"] == 23
    events = game.apply(T(1), Call())
    shown = next(e for e in events if e.kind == "showdown")
    assert set(shown.hands) == {T(0), T(1), T(2)}  # s3's cards are not shown
    assert all(T(3) not in v.table.poker.showdown for v in map(game.view, range(4)))
    assert tri.by_rule_seat(game, T) == {0: 50, 1: 22, 2: 22, 3: 30}
    assert game.board["POT"] == 0 and game.total_chips() == 124
    assert game.to_act == {T(0)}


def test_s8_tie_split_with_odd_chip_and_first_tied_winner_leads(tri):
    T = tri.Table(5, dealer=3)
    game = _poker(
        tri,
        T,
        {
            1: "K♣ K♦ 10♠ 4♣ 2♥",
            2: "5♥ 6♠ 7♦ 8♣ 9♦",
            3: "2♣ 3♦ 7♠ J♥ Q♠",
            4: "5♣ 6♦ 7♥ 8♠ 9♣",
            0: "2♦ 4♥ 10♣ J♦ A♠",
        },
        dict.fromkeys(range(5), 20),
        pot=5,
    )
    game.apply(T(1), Bet(amount=2))
    game.apply(T(2), Call())
    game.apply(T(3), Fold())
    game.apply(T(4), Call())
    events = game.apply(T(0), Fold())
    assert sorted((e.seat, e.chips) for e in events if e.kind == "pot_won") == sorted(
        [(T(2), 5), (T(4), 5)]
    )
    assert tri.by_rule_seat(game, T) == {0: 20, 1: 18, 2: 23, 3: 20, 4: 23}
    assert game.board["POT"] == 1
    assert game.to_act == {T(2)}


def test_s9_short_stack_all_in_with_side_pot(tri):
    T = tri.Table(4, dealer=1)
    game = _poker(
        tri,
        T,
        {3: "4♣ 4♦ 4♥ 9♠ 2♣", 1: "Q♣ Q♦ 7♠ 5♥ 3♦", 2: "J♣ 9♦ 7♥ 5♠ 2♦", 0: "A♣ K♦ 8♥ 6♠ 3♣"},
        {0: 30, 1: 30, 2: 30, 3: 2},
        pot=4,
    )
    game.apply(T(1), Bet(amount=5))
    game.apply(T(2), Call())
    assert {o.kind for o in game.legal_actions(T(3))} == {"fold", "call"}
    assert game.view(T(3)).to_call == 2
    game.apply(T(3), Call())
    assert T(3) in game.betting.all_in
    events = game.apply(T(0), Fold())
    assert [(e.seat, e.chips, e.pot) for e in events if e.kind == "pot_won"] == [
        (T(3), 10, 0),
        (T(1), 6, 1),
    ]
    assert tri.by_rule_seat(game, T) == {0: 30, 1: 31, 2: 25, 3: 10}
    assert game.total_chips() == 96
    assert game.to_act == {T(3)}


# ---------------------------------------------------------------- phase 3


def test_s10_run_stopped_by_the_spare_hand(tri):
    T = tri.Table(3, dealer=1)
    c = tri.cards
    game = tri.michigan(
        T,
        {1: "5♠ 9♠ 3♥", 2: "6♠ K♦", 0: "7♠ 4♥ 10♣"},
        dict.fromkeys(range(3), 20),
        spare=c("8♠"),
        leader=T(1),
    )
    assert set(game.legal_actions(T(1))[0].cards) == set(c("3♥ 5♠"))
    assert tri.refused(game, T(1), Lead(card=c("9♠")[0])) == "illegal"
    events = game.apply(T(1), Lead(card=c("5♠")[0]))
    assert [(e.kind, e.seat, str(e.card)) for e in events if hasattr(e, "card")] == [
        ("lead", T(1), "5♠"),
        ("played", T(2), "6♠"),
        ("played", T(0), "7♠"),
        ("stop", T(0), "7♠"),
    ]
    assert game.to_act == {T(0)}
    assert set(game.legal_actions(T(0))[0].cards) == set(c("4♥ 10♣"))
    assert c("9♠")[0] in game.hands[T(1)]


def test_s11_stopper_holds_only_the_barred_suit_and_the_lead_passes(tri):
    T = tri.Table(4, dealer=2)
    c = tri.cards
    game = tri.michigan(
        T,
        {1: "Q♠ 7♦", 2: "K♠ 9♦", 3: "A♠ 3♠ 5♠", 0: "8♦ 2♣ 6♣"},
        dict.fromkeys(range(4), 20),
        leader=T(1),
    )
    assert set(game.legal_actions(T(1))[0].cards) == set(c("7♦ Q♠"))
    events = game.apply(T(1), Lead(card=c("Q♠")[0]))
    stop = next(e for e in events if e.kind == "stop")
    assert (stop.seat, str(stop.card)) == (T(3), "A♠")
    assert [(e.seat, e.to) for e in events if e.kind == "lead_passed"] == [(T(3), T(0))]
    assert game.to_act == {T(0)}
    assert set(game.legal_actions(T(0))[0].cards) == set(c("2♣ 8♦"))


def test_s12_block_with_payments_into_the_kitty(tri):
    T = tri.Table(3, dealer=0)
    c = tri.cards
    game = tri.michigan(
        T,
        {0: "2♠ 4♠ 8♠", 1: "6♠ 10♠ J♠", 2: "3♠ 7♠"},
        dict.fromkeys(range(3), 20),
        board={"KITTY": 5},
        leader=T(2),
        barred=Suit.HEARTS,
        first_lead=False,
    )
    assert game.legal_actions(T(2))[0].cards == tuple(c("3♠"))
    events = game.apply(T(2), Lead(card=c("3♠")[0]))
    blocked = next(e for e in events if e.kind == "blocked")
    assert blocked.payments == {T(0): 2, T(1): 3, T(2): 1}
    assert game.board["KITTY"] == 11
    assert tri.by_rule_seat(game, T) == {0: 18, 1: 17, 2: 19}
    assert game.phase == Phase.BETWEEN_DEALS and game.total_chips() == 65


def test_s13_going_out_on_a_forced_follow(tri):
    T = tri.Table(4, dealer=3)
    c = tri.cards
    game = tri.michigan(
        T,
        {2: "9♦ 4♥", 3: "10♦", 0: "J♦ 5♠ 6♠", 1: "2♥"},
        dict.fromkeys(range(4), 20),
        board={"KITTY": 9},
        leader=T(2),
        barred=Suit.CLUBS,
        first_lead=False,
    )
    assert set(game.legal_actions(T(2))[0].cards) == set(c("4♥ 9♦"))
    events = game.apply(T(2), Lead(card=c("9♦")[0]))
    out = next(e for e in events if e.kind == "went_out")
    assert (out.seat, out.space_chips, out.payments) == (T(3), 9, {T(0): 3, T(1): 1, T(2): 1})
    assert out.chips == 14
    assert tri.by_rule_seat(game, T) == {0: 17, 1: 19, 2: 19, 3: 34}
    assert game.board["KITTY"] == 0 and game.total_chips() == 89
    assert c("J♦")[0] in game.hands[T(0)]


@pytest.mark.parametrize("preset", ["colour", "cosmo"])  # cosmo plays phase 3 as colour
def test_s16_colour_preset_complete_phase_three(tri, preset):
    T = tri.Table(3, dealer=0)
    c = tri.cards
    game = tri.michigan(
        T,
        {
            0: "7♠ 10♠ J♠ Q♠ K♠ A♠ 2♣ 3♣ 4♣ 6♣ 7♣ 8♣ 9♣",
            1: "5♣ 5♠ 2♥ 3♥ 4♥ 9♦ 10♦ J♦ Q♦ K♦ A♦ 10♣ J♣",
            2: "2♠ 3♠ 4♠ 6♠ 9♠ Q♣ K♣ A♣ 5♥ 6♥ 7♥ 2♦ 3♦",
        },
        dict.fromkeys(range(3), 30),
        rules=PRESETS[preset],
        spare=c("8♠ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 4♦ 5♦ 6♦ 7♦ 8♦"),
        board={"KITTY": 3},
        leader=T(1),
    )
    leads = [
        (1, "5♠", "5♣ 5♠"),
        (1, "2♥", "2♥"),
        (2, "2♠", "2♠"),
        (2, "2♦", "2♦"),
        (2, "9♠", "9♠"),
        (1, "9♦", "9♦"),
        (1, "5♣", "5♣"),
    ]
    for k, card, legal in leads:
        assert game.to_act == {T(k)}
        assert set(game.legal_actions(T(k))[0].cards) == set(c(legal))
        events = game.apply(T(k), Lead(card=c(card)[0]))
    out = next(e for e in events if e.kind == "went_out")
    assert (out.seat, out.space_chips, out.payments) == (T(1), 3, {T(0): 3, T(2): 3})
    assert out.chips == 9
    assert tri.by_rule_seat(game, T) == {0: 27, 1: 39, 2: 27}


def test_s19_dealer_leads_first_with_lowest_card(tri):
    T = tri.Table(4, dealer=1)
    rules = TripoliRules(michigan_leader="dealer", first_lead="lowest_card")
    game = _poker(
        tri,
        T,
        {0: "3♦ K♦ 3♠ J♠ Q♠", 1: "2♣ 4♦ 6♥ 9♠ Q♦", 2: "2♦ 5♣ 6♠ 10♣ K♣", 3: "2♥ 4♣ 5♠ J♣ A♦"},
        dict.fromkeys(range(4), 30),
        pot=4,
        hands={0: "3♦ K♦ 3♠ J♠ Q♠ 7♣ 8♣ A♣ 9♥ 10♥"},
        rules=rules,
    )
    for k in (1, 2, 3, 0):
        game.apply(T(k), Check())
    assert game.to_act == {T(0)}
    assert set(game.legal_actions(T(0))[0].cards) == set(tri.cards("3♦ 3♠"))


# ---------------------------------------------------------------- end of the session


LEFTOVER_HANDS = {
    1: "2♣ 7♦ 9♠ J♥ K♣",
    2: "Q♠ Q♦ 8♣ 5♥ 3♦",
    3: "4♠ 4♣ 10♦ 6♥ 2♠",
    0: "9♣ 9♦ 9♥ A♠ 3♣",
}


def _leftover_game(tri, T, rules: TripoliRules) -> TripoliGame:
    game = TripoliGame.from_position(
        rules,
        phase=Phase.BETWEEN_DEALS,
        stacks=[30] * 4,
        board=board(J=3, KQ=12, SEQ=7, POT=1),
        dealer=T(0),
    )
    game.fix_next_deck(tri.leftover_deck(4, [tri.cards(LEFTOVER_HANDS[k]) for k in (1, 2, 3, 0)]))
    return game


def test_s17_leftover_poker_round(tri):
    T = tri.Table(4, dealer=2)
    game = _leftover_game(tri, T, TripoliRules())
    game.end_session()
    view = game.public_view()
    assert view.leftover and view.phase == Phase.BETTING and view.board["POT"] == 23
    assert sum(view.board.values()) == 23
    assert all(len(game.hands[T(k)]) == 5 for k in range(4)) and len(game.unused) == 32
    game.apply(T(1), Check())
    game.apply(T(2), Bet(amount=2))
    game.apply(T(3), Fold())
    game.apply(T(0), Call())
    events = game.apply(T(1), Fold())
    assert [(e.seat, e.chips) for e in events if e.kind == "pot_won"] == [(T(0), 27)]
    assert game.is_over and sum(game.board.values()) == 0
    assert game.result == {T(0): 55, T(1): 30, T(2): 28, T(3): 30}
    assert game.deltas == {T(0): 25, T(1): 0, T(2): -2, T(3): 0}
    over = next(e for e in events if e.kind == "session_over")
    assert over.ranking[0] == (T(0),)


def test_s17_two_leftover_pots_split_12_11_and_rotate_the_deal(tri):
    T = tri.Table(4, dealer=0)
    game = _leftover_game(tri, T, TripoliRules(leftover_pots=2))
    events = game.end_session()
    started = next(e for e in events if e.kind == "leftover_started")
    assert started.pots == (12, 11)
    assert game.board["POT"] == 12 and game.leftover_pots == [11]
    first_dealer = game.dealer
    for k in (1, 2, 3, 0):
        game.apply(T(k), Check())
    assert game.dealer == (first_dealer + 1) % 4 and game.board["POT"] == 11
    assert not game.is_over
    tri.play_out(game)
    assert game.is_over and game.total_chips() == 120 + 23


@pytest.mark.parametrize("abandon", [False, True])
def test_ending_mid_deal(tri, abandon):
    game = TripoliGame.new(TripoliRules(), 4, b"end", first_dealer=0)
    start = game.total_chips()
    game.apply(0, Keep())
    game.end_session(abandon=abandon)
    if abandon:  # every chip back to the start of the deal, then the leftover round (board 0)
        assert game.is_over and game.result == dict.fromkeys(range(4), 100)
    else:
        assert game.phase == Phase.SELECT and game.ending
        tri.play_out(game)
        assert game.is_over
    assert game.total_chips() == start
