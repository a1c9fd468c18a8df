"""The worked scenarios of ``rules/kalooki.md`` §4.4 item 4, §4.6-§4.9, §4.11 with their
exact hand sizes, stock counts and scores, and the call window of K4.

The rules file numbers seats from the player left of the dealer in §4.6; with the dealer
at engine seat 3 of 4 those numbers are the engine seats, so §4.6 uses them directly.
"""

from __future__ import annotations

import hashlib

import pytest
from test_kalooki_support import Pool, check_invariants, refused

from engine import fairness
from engine.cards import Card
from engine.core import SYSTEM, IllegalAction
from engine.kalooki.actions import (
    Allow,
    CallDiscard,
    Discard,
    Draw,
    ExchangeJoker,
    Group,
    LayDown,
    LayOff,
    Refuse,
)
from engine.kalooki.game import KalookiGame
from engine.kalooki.phases import Phase
from engine.kalooki.rules import JAMAICAN, TRINIDAD, make_rules
from engine.kalooki.scoring import card_points, hand_points


def close(game: KalookiGame) -> None:
    """The call window's timer fires (nobody called)."""
    assert game.phase == Phase.WINDOW
    game.apply(SYSTEM, game.timeout_action(SYSTEM), game.decision_id(SYSTEM))


# ---------------------------------------------------------------- §4.6 calls


def test_calls_with_exact_hand_sizes() -> None:
    p = Pool()
    hands = {
        0: p("9s Jd 2d 3d 5d 6d 7d 8d 9d 10d Qd Kd"),
        1: p("4d 2s 3s 4s 5s 10s Js Ks As 10h Jh Qh"),
        2: p("Kh Qs 7h 8h 9h Ah 2c 3c 4c 5c 7c 9c"),
        3: p("2h 3h 4h 5h 8c 9c 10c Jc 6s 7s 8s 2c"),
    }
    upcard = p("6c")
    s = p("5c 6h 7c Kc Qc 4c 3c Ac 9h 3d")  # the stock's top ten cards
    game = KalookiGame.from_position(
        JAMAICAN,
        hands=hands,
        dealer=3,
        deal_number=4,
        phase=Phase.WINDOW,
        discard=upcard,
        stock=s,
    )
    assert game.contract.cards == 12 and (game.contract.threes, game.contract.fours) == (0, 3)
    assert [len(h) for h in game.hands] == [12] * 4 and len(game.stock) == 59
    # 1. seat 0: no call; stock draw, discard 9♠
    assert game.turn == 0 and game.callers() == [1, 2]
    close(game)
    game.apply(0, Draw(source="stock"))
    assert (len(game.hands[0]), len(game.stock)) == (13, 58)
    game.apply(0, Discard(card=hands[0][0]))
    # 2. seat 3 calls 9♠ first, seat 2 too late; seat 1 allows
    game.apply(3, CallDiscard())
    assert refused(game, 2, CallDiscard()) == "too_late"
    game.apply(1, Allow())
    assert len(game.hands[3]) == 14 and game.calls_used == [0, 0, 0, 1]
    assert len(game.stock) == 57 and game.discard[-1] == upcard[0]
    assert refused(game, 1, Draw(source="discard")) == "illegal"  # the dead 6♣
    assert refused(game, 0, CallDiscard()) == "not_callable"
    game.apply(1, Draw(source="stock"))
    assert (len(game.hands[1]), len(game.stock)) == (13, 56)
    game.apply(1, Discard(card=hands[1][0]))  # 4♦
    # 3. seat 0 calls 4♦, seat 2 refuses and takes it as his draw
    game.apply(0, CallDiscard())
    game.apply(2, Refuse())
    assert len(game.hands[2]) == 13 and game.calls_used[0] == 0 and game.phase == Phase.PLAY
    game.apply(2, Discard(card=hands[2][0]))  # K♥
    assert len(game.hands[2]) == 12 and len(game.stock) == 56
    # 4. seat 1 calls K♥, seat 3 allows, draws, lays down three fours, discards 2♣
    game.apply(1, CallDiscard())
    game.apply(3, Allow())
    assert len(game.hands[1]) == 14 and game.calls_used[1] == 1 and len(game.stock) == 55
    game.apply(3, Draw(source="stock"))
    assert (len(game.hands[3]), len(game.stock)) == (15, 54)
    h3 = hands[3]
    fours = (h3[0:4], h3[4:8], (*h3[8:11], hands[0][0]))
    game.apply(3, LayDown(groups=tuple(Group(kind="four", cards=tuple(f)) for f in fours)))
    assert len(game.hands[3]) == 3
    game.apply(3, Discard(card=h3[11]))  # 2♣
    assert len(game.hands[3]) == 2
    # 5. seat 3 may not call; seat 0 takes 2♣ from the discard pile, discards J♦
    assert refused(game, 3, CallDiscard()) == "laid_down"
    game.apply(0, Draw(source="discard"))
    assert len(game.hands[0]) == 13
    game.apply(0, Discard(card=hands[0][1]))
    # 6. seat 2 calls J♦, seat 1 allows
    game.apply(2, CallDiscard())
    game.apply(1, Allow())
    assert len(game.hands[2]) == 14 and game.calls_used[2] == 1 and len(game.stock) == 53
    game.apply(1, Draw(source="stock"))
    assert len(game.hands[1]) == 15
    game.apply(1, Discard(card=hands[1][1]))
    assert len(game.hands[1]) == 14
    # 7. seat 2 draws and discards Q♠; seat 1 calls it and seat 3 must allow
    close(game)
    game.apply(2, Draw(source="stock"))
    game.apply(2, Discard(card=hands[2][1]))
    assert len(game.hands[2]) == 14
    events = game.apply(1, CallDiscard())
    assert [e.kind for e in events] == ["called", "call_allowed"] and events[1].forced
    assert len(game.hands[1]) == 16 and game.calls_used[1] == 2
    game.apply(3, Draw(source="stock"))
    assert len(game.hands[3]) == 3
    by_id = {mm.cards[0]: mm.id for mm in game.melds}
    game.apply(3, LayOff(meld=by_id[h3[0]], card=s[1]))  # 6♥ on 2♥-5♥
    game.apply(3, LayOff(meld=by_id[h3[4]], card=s[4]))  # Q♣ on 8♣-J♣
    events = game.apply(3, Discard(card=s[9]))  # 3♦: out
    out = next(e for e in events if e.kind == "went_out")
    assert out.seat == 3 and not out.down_and_out
    scored = next(e for e in events if e.kind == "deal_scored")
    assert {s: len(h) for s, h in scored.hands.items()} == {0: 12, 1: 16, 2: 14}
    assert scored.penalties == {s: hand_points(h) for s, h in scored.hands.items()} | {3: 0}
    assert game.between_deals and game.dealer == 0
    check_invariants(game)


def test_call_limit_of_three() -> None:
    p = Pool()
    game = KalookiGame.from_position(
        JAMAICAN,
        hands={
            0: p("2c"),
            1: p("3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d"),
            2: p("Kh"),
            3: p("Qd"),
        },
        dealer=3,
        deal_number=4,
        turn=0,
        phase=Phase.WINDOW,
        discard=p("9s"),
        discarder=3,
        calls_used={1: 3},
    )
    assert game.callers() == [2]  # seat 1: 18 cards, 3 calls: a 4th call is refused
    assert refused(game, 1, CallDiscard()) == "call_limit"


# ---------------------------------------------------------------- §4.7 penalties


@pytest.mark.parametrize(
    ("text", "points"),
    [("Jkr As Ah Kc 7d", 83), ("Ac Ad 10h 9s 2d", 37), ("Jkr Jkr", 100), ("Jkr Ks 4d 4d Ac", 83)],
)
def test_penalty_counts(text: str, points: int) -> None:
    assert hand_points(Pool()(text)) == points


def test_penalty_values_of_every_card() -> None:
    p = Pool()
    assert [card_points(c) for c in p("As Ac Ah Ad Ks Qh Jd 10c 9s 2h Jkr")] == [
        *(15, 15, 1, 1),
        *(10, 10, 10, 10),
        *(9, 2, 50),
    ]


# ---------------------------------------------------------------- §4.8 going out


def d1_position(rules, laid_down_earlier: bool) -> tuple[KalookiGame, Pool, dict]:
    p = Pool()
    melds_cards = p("7s 7h 7d"), p("9c 9d Jkr"), p("Qs Qh Qd")
    others = {0: p("Jkr As Ah Kc 7d"), 1: p("5c 5d 9h"), 3: p("10s 2d")}
    if laid_down_earlier:
        hand = p("7c")
        stock = p("Qc")
        melds = [(2, "three", cs) for cs in melds_cards]
    else:
        hand = [c for cs in melds_cards for c in cs]
        stock = p("3c")
        melds = []
    game = KalookiGame.from_position(
        rules,
        hands={**others, 2: hand},
        dealer=1,
        turn=2,
        melds=melds,
        stock=stock,
        discard=p("4h"),
    )
    return game, p, {"melds": melds_cards, "stock": stock, "hand": hand}


@pytest.mark.parametrize(("mode", "expected"), [("double", (166, 38, 24)), ("plus2", (85, 21, 14))])
def test_d1_down_and_out(mode: str, expected: tuple[int, int, int]) -> None:
    game, _, c = d1_position(make_rules(down_and_out=mode), laid_down_earlier=False)
    game.apply(2, Draw(source="stock"))
    game.apply(2, LayDown(groups=tuple(Group(kind="three", cards=m) for m in c["melds"])))
    events = game.apply(2, Discard(card=c["stock"][0]))
    out = next(e for e in events if e.kind == "went_out")
    assert out.down_and_out
    assert (game.totals[0], game.totals[1], game.totals[3]) == expected and game.totals[2] == 0


def test_d1_trinidad_does_not_double() -> None:
    game, _, c = d1_position(TRINIDAD, laid_down_earlier=False)
    game.apply(2, Draw(source="stock"))
    game.apply(2, LayDown(groups=tuple(Group(kind="three", cards=m) for m in c["melds"])))
    game.apply(2, Discard(card=c["stock"][0]))
    assert game.totals == [83, 19, 0, 12]


def test_d2_out_by_laying_off_without_discard() -> None:
    game, _, c = d1_position(JAMAICAN, laid_down_earlier=True)
    game.apply(2, Draw(source="stock"))
    game.apply(2, LayOff(meld="m1", card=c["hand"][0]))  # 7♣ on the 7s
    events = game.apply(2, LayOff(meld="m3", card=c["stock"][0]))  # Q♣ on the queens
    out = next(e for e in events if e.kind == "went_out")
    assert not out.down_and_out
    assert game.totals == [83, 19, 0, 12]
    check_invariants(game)


def test_d3_lay_off_at_the_bottom_then_a_new_three() -> None:
    p = Pool()
    run = p("5d 6d 7d 8d 9d 10d Jd Qd Kd Ad")
    kings = p("Ks Kh Kc")
    hand = p("4d 3d 8h 8c")
    joker = p("Jkr")
    game = KalookiGame.from_position(
        JAMAICAN,
        hands={0: p("2s 3s"), 1: hand, 2: p("4s")},
        dealer=0,
        turn=1,
        melds=[(0, "four", run), (1, "three", kings)],
        stock=joker,
        discard=p("9h"),
    )
    game.apply(1, Draw(source="stock"))
    assert refused(game, 1, LayOff(meld="m1", card=hand[1])) == "bad_meld"  # 3♦ before 4♦
    game.apply(1, LayOff(meld="m1", card=hand[0]))
    game.apply(1, LayOff(meld="m1", card=hand[1]))
    assert game.melds[0].low == 3
    events = game.apply(
        1, LayDown(groups=(Group(kind="three", cards=(hand[2], hand[3], joker[0])),))
    )
    assert any(e.kind == "went_out" and not e.down_and_out for e in events)
    assert game.totals == [5, 0, 4]


# ---------------------------------------------------------------- §4.4 item 4, check messages


def test_no_lay_off_before_the_contract() -> None:
    p = Pool()
    game = KalookiGame.from_position(
        JAMAICAN,
        hands={0: p("Kd 2s"), 1: p("3s"), 2: p("4s"), 3: p("8d 5c")},
        dealer=2,
        turn=3,
        phase=Phase.PLAY,
        melds=[(1, "four", p("9d 10d Jd Qd"))],
        discard=p("9h"),
    )
    assert refused(game, 3, LayOff(meld="m1", card=game.hands[3][0])) == "no_contract"
    assert [o.kind for o in game.legal_actions(3)] == ["discard"]


def lay_off_refusal(game: KalookiGame, seat: int, action: LayOff | ExchangeJoker) -> str:
    """The reason id of a refused lay-off or exchange (the state is unchanged)."""
    assert refused(game, seat, action) == "bad_meld"
    with pytest.raises(IllegalAction) as info:
        game.check(seat, action)
    return info.value.reason


def test_lay_off_sequence_through_the_game() -> None:
    """§4.4 items 1-3 and 5, played by one laid-down seat (the file spreads them over seats
    0 and 2): each refused card is refused as not fitting, not for want of a contract."""
    p = Pool()
    game = KalookiGame.from_position(
        JAMAICAN,
        hands={0: p("8d 7d Kd Kd Ad Jkr Jkr 10c 2h"), 1: p("3s"), 2: p("4s")},
        dealer=2,
        turn=0,
        phase=Phase.PLAY,
        melds=[(1, "four", p("9d 10d Jd Qd")), (0, "four", p("5c 6c 7c 8c")),
               (0, "three", p("As Ah Ac"))],
    )
    eight, seven, king, king2, ace, joker, joker2, ten, two = game.hands[0]
    assert lay_off_refusal(game, 0, LayOff(meld="m1", card=eight)) == "kalooki.no_fit"
    game.apply(0, LayOff(meld="m1", card=king))
    assert lay_off_refusal(game, 0, LayOff(meld="m1", card=eight)) == "kalooki.no_fit"
    game.apply(0, LayOff(meld="m1", card=ace))
    game.apply(0, LayOff(meld="m1", card=eight))
    game.apply(0, LayOff(meld="m1", card=seven))
    assert lay_off_refusal(game, 0, LayOff(meld="m1", card=king2)) == "kalooki.no_fit"
    assert game.melds[0].represents() == tuple(range(7, 15))
    game.apply(0, LayOff(meld="m2", card=joker))  # as 9♣
    assert lay_off_refusal(game, 0, LayOff(meld="m2", card=joker2)) == "kalooki.no_fit"
    game.apply(0, LayOff(meld="m2", card=ten))
    game.apply(0, LayOff(meld="m2", card=joker2))  # as J♣
    assert game.melds[1].represents()[-1] == 11
    assert game.hands[0] == [king2, two]  # nothing left fits anywhere: still told why
    assert [o.kind for o in game.legal_actions(0)] == ["discard"]
    assert lay_off_refusal(game, 0, LayOff(meld="m1", card=two)) == "kalooki.no_fit"


def test_e3_exchange_refused_next_to_a_joker_through_the_game() -> None:
    """§4.5 E3, played: the holder of 6♥ is told the joker has no free end."""
    p = Pool()
    game = KalookiGame.from_position(
        JAMAICAN,
        hands={0: p("6h 8h 2c"), 1: p("3s"), 2: p("4s")},
        dealer=2,
        turn=0,
        phase=Phase.PLAY,
        melds=[(2, "four", p("5h Jkr 7h Jkr")), (0, "three", p("Ks Kd Kc"))],
    )
    six, eight = game.hands[0][:2]
    assert [o.cards for o in game.legal_actions(0) if o.kind == "exchange"] == [(eight,)]
    reason = lay_off_refusal(game, 0, ExchangeJoker(meld="m1", card=six))
    assert reason == "kalooki.joker_no_end"
    game.apply(0, ExchangeJoker(meld="m1", card=eight))
    assert game.melds[0].represents() == (5, 6, 7, 8, 9)
    assert game.melds[0].cards[3] == eight and game.melds[0].cards[4].is_joker
    assert [o.kind for o in game.legal_actions(0)] == ["discard"]  # 6♥ still blocked
    reason = lay_off_refusal(game, 0, ExchangeJoker(meld="m1", card=six))
    assert reason == "kalooki.joker_no_end"


def test_e5_trinidad_exchange_through_the_game() -> None:
    """§4.5 E5, played: on his own run seat 1 may take the joker into his hand (and then
    lay it on his three); on seat 2's run it must go to an end of that run (T10, T11)."""
    p = Pool()
    game = KalookiGame.from_position(
        TRINIDAD,
        hands={0: p("2d"), 1: p("5c 5h 2h"), 2: p("4s")},
        dealer=0,
        turn=1,
        phase=Phase.PLAY,
        melds=[(1, "four", p("4c Jkr 6c 7c")), (1, "three", p("Ks Kd Kh")),
               (2, "four", p("4h Jkr 6h 7h"))],
    )
    five, five_h = game.hands[1][:2]
    joker, joker2 = game.melds[0].cards[1], game.melds[2].cards[1]
    assert lay_off_refusal(game, 1, ExchangeJoker(meld="m3", card=five_h, to="hand")) == (
        "kalooki.joker_stays"
    )
    game.apply(1, ExchangeJoker(meld="m1", card=five, to="hand"))
    assert joker in game.hands[1] and game.melds[0].cards[1] == five
    assert [c.is_joker for c in game.melds[0].cards] == [False] * 4
    game.apply(1, LayOff(meld="m2", card=joker))  # (a): on his three of kings
    assert game.melds[1].cards[-1] == joker
    game.apply(1, ExchangeJoker(meld="m3", card=five_h, to="bottom"))  # as 3♥
    assert game.melds[2].cards[0] == joker2 and game.melds[2].low == 3


def test_trinidad_joker_from_a_full_own_run_may_still_be_taken() -> None:
    """T10: the joker of one's own 13-card run has no free end, but may go to the hand."""
    p = Pool()
    run = p("2s 3s 4s 5s 6s Jkr 8s 9s 10s Js Qs Ks As")
    game = KalookiGame.from_position(
        TRINIDAD,
        hands={0: p("7s 2d"), 1: p("3h"), 2: p("4h")},
        dealer=2,
        turn=0,
        phase=Phase.PLAY,
        melds=[(0, "four", run), (0, "three", p("Kc Kd Kh"))],
    )
    seven = game.hands[0][0]
    assert any(o.kind == "exchange" and seven in o.cards for o in game.legal_actions(0))
    assert lay_off_refusal(game, 0, ExchangeJoker(meld="m1", card=seven)) == (
        "kalooki.joker_no_end"
    )
    game.apply(0, ExchangeJoker(meld="m1", card=seven, to="hand"))
    assert game.melds[0].cards[5] == seven and any(c.is_joker for c in game.hands[0])


def test_check_says_what_the_contract_still_needs() -> None:
    p = Pool()
    threes = p("8c 8d 8s"), p("Qh Qh Jkr")
    rest = p("4s 5s 6s 2d")
    game = KalookiGame.from_position(
        JAMAICAN,
        hands={0: p("2c"), 1: [*threes[0], *threes[1], *rest], 2: p("3c")},
        dealer=0,
        deal_number=2,
        phase=Phase.PLAY,
    )
    draft = LayDown(groups=tuple(Group(kind="three", cards=t) for t in threes))
    with pytest.raises(IllegalAction) as info:
        game.check(1, draft)
    assert info.value.code == "bad_meld"
    assert info.value.message == "The contract needs 2 threes and 1 four; you have 2 threes."
    bad = LayDown(groups=(Group(kind="four", cards=(rest[0], rest[1], rest[3], rest[2])),))
    with pytest.raises(IllegalAction) as info:
        game.check(1, bad)
    assert info.value.message == "4♠ 5♠ 2♦ 6♠: the cards of a four must all be of one suit."
    seven = p("7s")[0]
    game.hands[1].append(seven)
    before = game.model_dump_json()
    four = Group(kind="four", cards=(*rest[:3], seven))
    game.check(1, LayDown(groups=(*draft.groups, four)))  # the whole contract: fine
    assert game.model_dump_json() == before


# ---------------------------------------------------------------- K4 the call window


def test_the_call_window() -> None:
    p = Pool()
    game = KalookiGame.from_position(
        JAMAICAN,
        hands={0: p("2c 3c"), 1: p("4c 5c"), 2: p("6c 7c"), 3: p("8c 9c")},
        dealer=3,
        phase=Phase.WINDOW,
        discard=p("Kh"),
        discarder=3,
    )
    pending = game.pending()
    assert [(q.seat, q.required) for q in pending] == [
        (0, False),
        (1, False),
        (2, False),
        (SYSTEM, True),
    ]
    assert pending[-1].after == JAMAICAN.call_window
    assert refused(game, 0, Draw(source="stock")) == "window_open"
    assert refused(game, 3, CallDiscard()) == "own_discard"
    assert (
        refused(game, SYSTEM, game.timeout_action(SYSTEM), game.decision_id(SYSTEM) - 1) == "stale"
    )
    close(game)
    assert game.callers() == [] and refused(game, 1, CallDiscard()) == "not_callable"
    events = game.apply(0, Draw(source="stock"))
    assert events[0].seen_by(1).card is None and events[0].seen_by(0).card is not None
    assert game.public_view().log[-1].card is None


def test_taking_the_discard_ends_the_window() -> None:
    p = Pool()
    game = KalookiGame.from_position(
        JAMAICAN,
        hands={0: p("2c 3c"), 1: p("4c 5c"), 2: p("6c 7c")},
        dealer=2,
        phase=Phase.WINDOW,
        discard=p("Kh"),
    )
    game.apply(0, Draw(source="discard"))
    assert game.phase == Phase.PLAY and refused(game, 1, CallDiscard()) == "not_callable"


# ---------------------------------------------------------------- §4.9 exhaustion twice


def test_stock_exhaustion_twice_voids_the_deal() -> None:
    seed = b"exhaustion"
    deck = fairness.shuffled_deck(seed, 1, 108)
    hands = {s: deck[16 * s : 16 * s + 16] for s in range(6)}
    game = KalookiGame.from_position(
        JAMAICAN,
        hands=hands,
        dealer=5,
        deal_number=9,
        phase=Phase.WINDOW,
        discard=[deck[96]],
        discarder=5,
        stock=deck[97:],
        seed=seed,
    )
    assert len(game.stock) == 11 and game.contract.fours == 4
    for _ in range(11):
        close(game)
        turn = game.turn
        game.apply(turn, Draw(source="stock"))
        game.apply(turn, game.timeout_action(turn))  # discard the card drawn
    assert game.stock == [] and len(game.discard) == 12 and game.turn == 5
    pile = list(game.discard)
    close(game)
    events = game.apply(5, Draw(source="stock"))
    assert [e.kind for e in events] == ["stock_reshuffled", "drew"] and events[0].size == 11
    expected = fairness.shuffle(
        sorted(pile[:-1]), hashlib.sha256(b"reshuffle" + fairness.deal_seed(seed, 9)).digest()
    )
    assert (
        events[1].card == expected[0] and game.stock == expected[1:] and game.discard == pile[-1:]
    )
    game.apply(5, game.timeout_action(5))
    void = []
    for _ in range(40):
        if game.between_deals:
            break
        close(game)
        turn = game.turn
        void = game.apply(turn, Draw(source="stock"))
        if not game.between_deals:
            game.apply(turn, game.timeout_action(turn))
    assert [e.kind for e in void] == ["deal_void"]
    assert game.totals == [0] * 6 and game.dealer == 5 and game.deal_number == 9
    check_invariants(game)
    events = game.start_deal()
    assert events[0].redeal and events[0].deal_number == 9 and events[0].dealer == 5
    assert [len(h) for h in game.hands] == [16] * 6 and len(game.stock) == 11


def test_nothing_to_reshuffle_is_a_void_deal() -> None:
    p = Pool()
    hands = {0: p("2c"), 1: p("3c")}
    discard = p("Kh")
    listed = {*hands[0], *hands[1], *discard}
    hands[2] = [Card(i) for i in range(108) if Card(i) not in listed]
    game = KalookiGame.from_position(JAMAICAN, hands=hands, dealer=2, discard=discard)
    assert game.stock == []
    events = game.apply(0, Draw(source="stock"))  # item 62: the pile is only its top card
    assert [e.kind for e in events] == ["deal_void"] and game.between_deals


# ---------------------------------------------------------------- §4.11 Trinidad calls


@pytest.mark.parametrize(("rules", "legal"), [(TRINIDAD, True), (JAMAICAN, False)])
def test_calls_after_melding(rules, legal: bool) -> None:
    p = Pool()
    game = KalookiGame.from_position(
        rules,
        hands={0: p("2s 3s"), 1: p("4s"), 2: p("5s"), 3: p("6s 8d")},
        dealer=2,
        turn=3,
        phase=Phase.WINDOW,
        melds=[(0, "three", p("Kc Kd Kh")), (0, "three", p("9c 9d 9h"))],
        discard=p("7h"),
        discarder=2,
        stock=p("Jc"),
    )
    if not legal:
        assert refused(game, 0, CallDiscard()) == "laid_down"
        return
    game.apply(0, CallDiscard())
    game.apply(3, Allow())
    assert len(game.hands[0]) == 4 and game.calls_used[0] == 1
    assert game.phase == Phase.DRAW and game.turn == 3


# ---------------------------------------------------------------- variants and ambiguities


@pytest.mark.parametrize("callable_", [True, False])
def test_the_upcard_is_the_dealers_discard_when_callable(callable_: bool) -> None:
    """K7 ``upcard_callable``: the upcard may be called by all but the dealer (who
    "discarded" it) before the first player draws; off, the first player draws at once."""
    rules = make_rules(upcard_callable=callable_)
    game = KalookiGame.new(rules, 4, b"k7", first_dealer=3)
    upcard = game.discard[-1]
    assert game.turn == 0 and [len(h) for h in game.hands] == [9] * 4
    if not callable_:
        assert game.phase == Phase.DRAW and game.callers() == []
        assert game.legal_actions(0)[0].targets == ("stock", "discard")
        return
    assert game.phase == Phase.WINDOW and game.callers() == [1, 2]
    assert refused(game, 3, CallDiscard()) == "own_discard"
    game.apply(2, CallDiscard())
    game.apply(0, Allow())
    assert upcard in game.hands[2] and len(game.hands[2]) == 11 and game.calls_used[2] == 1
    assert game.discard == [] and game.legal_actions(0)[0].targets == ("stock",)


def test_early_deals_twelve_deals_12_cards_with_the_same_contracts() -> None:
    """§2.14 ``earlyDealsTwelve``: deals 1-3 use 12 cards, contracts unchanged."""
    plain, early = JAMAICAN.contracts, make_rules(early_deals_twelve=True).contracts
    assert [c.cards for c in early] == [12, 12, 12, 12, 12, 13, 14, 15, 16]
    assert [(c.threes, c.fours) for c in early] == [(c.threes, c.fours) for c in plain]
    game = KalookiGame.new(make_rules(early_deals_twelve=True), 3, b"e12", first_dealer=0)
    assert [len(h) for h in game.hands] == [12] * 3 and len(game.stock) == 108 - 36 - 1


def test_a_call_on_an_empty_stock_reshuffles_under_the_new_top_discard() -> None:
    """K13: the caller's extra card comes from the discard pile reshuffled without the
    called card and without the card it uncovers."""
    p = Pool()
    game = KalookiGame.from_position(
        JAMAICAN,
        hands={0: p("2c 3c 4c"), 1: p("5d 6d 7d"), 2: p("8h 9h 10h"), 3: p("Ks Qs Js")},
        dealer=3,
        turn=1,
        phase=Phase.WINDOW,
        discard=p("2s 3s 4s 5s 6s"),
        discarder=0,
    )
    game.stock.clear()
    pile = list(game.discard)
    game.apply(2, CallDiscard())
    events = game.apply(1, Allow())
    assert [e.kind for e in events] == ["stock_reshuffled", "call_allowed"]
    assert events[0].size == 3 and game.discard == [pile[3]] and game.dead_top
    extra = events[1].extra
    assert extra in pile[:3] and set(game.hands[2]) >= {pile[4], extra}
    assert sorted([*game.stock, extra]) == sorted(pile[:3]) and game.phase == Phase.DRAW
    assert game.legal_actions(1)[0].targets == ("stock",)


@pytest.mark.parametrize(("rules", "may_refuse"), [(TRINIDAD, True), (JAMAICAN, False)])
def test_a_melded_current_player_refuses_only_in_trinidad(rules, may_refuse: bool) -> None:
    """T17 ``meldedMayTakeDiscard``; Jamaica §2.7 item 32: he must allow."""
    p = Pool()
    game = KalookiGame.from_position(
        rules,
        hands={0: p("2s 3s"), 1: p("4s"), 2: p("5s"), 3: p("6s 8d")},
        dealer=1,
        turn=3,
        phase=Phase.WINDOW,
        melds=[(3, "three", p("Kc Kd Kh")), (3, "three", p("9c 9d 9h"))],
        discard=p("7h"),
        discarder=2,
        stock=p("Jc"),
    )
    seven = game.discard[-1]
    events = game.apply(0, CallDiscard())
    if not may_refuse:
        assert [e.kind for e in events] == ["called", "call_allowed"] and events[1].forced
        assert seven in game.hands[0] and game.calls_used[0] == 1
        return
    assert [o.kind for o in game.legal_actions(3)] == ["allow", "refuse"]
    game.apply(3, Refuse())
    assert seven in game.hands[3] and game.calls_used[0] == 0 and game.phase == Phase.PLAY
