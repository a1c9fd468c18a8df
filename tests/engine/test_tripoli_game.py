"""Tripoli engine rules outside the §5 scenarios: dealing, antes, decisions, errors,
timeouts, seats joining and leaving, betting limits, all-in, leftover odd chips."""

from __future__ import annotations

import pytest

from engine.cards import Card, Suit, parse
from engine.core import IllegalAction
from engine.poker import best_five
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
    Select,
    action_adapter,
)
from engine.tripoli.events import event_adapter
from engine.tripoli.game import TripoliGame
from engine.tripoli.pay_cards import phase_one_winners
from engine.tripoli.phases import Phase
from engine.tripoli.rules import PRESETS, TripoliRules

CANONICAL = [Card(i) for i in range(52)]

# rules/tripoli.md §2.3 item 10: hand sizes in dealing order spare, s1, …, s(n-1), s0
HAND_SIZES = {
    2: [18, 17, 17],
    3: [13, 13, 13, 13],
    4: [11, 11, 10, 10, 10],
    5: [9, 9, 9, 9, 8, 8],
    6: [8, 8, 8, 7, 7, 7, 7],
    7: [7, 7, 7, 7, 6, 6, 6, 6],
    8: [6, 6, 6, 6, 6, 6, 6, 5, 5],
    9: [6, 6, 5, 5, 5, 5, 5, 5, 5, 5],
}


@pytest.mark.parametrize("n", sorted(HAND_SIZES))
def test_deal_order_and_hand_sizes(n):
    dealer = n - 1
    game = TripoliGame.new(TripoliRules(), n, b"x", deck=CANONICAL, first_dealer=dealer)
    order = [(dealer + k) % n for k in range(1, n + 1)]  # s1 … s(n-1), s0
    assert [len(game.spare)] + [len(game.hands[s]) for s in order] == HAND_SIZES[n]
    assert game.spare == CANONICAL[0 :: n + 1]
    for i, seat in enumerate(order, start=1):
        assert game.hands[seat] == CANONICAL[i :: n + 1]
    assert game.commitment is None  # a fixed deck has no commitment


def test_provably_fair_test_vector_and_first_dealer_from_the_seed():
    game = TripoliGame.new(TripoliRules(), 4, b"parlour", first_dealer=0)
    assert game.commitment == "4b619a0ac1ce8777eb458aaad83236e31ab971e50e9edb47fd083abb785d65d9"
    # the deck starts Q♥ 8♣ 6♣ K♦ 8♥ J♥: spare, s1, s2, s3, s0, spare
    assert {*parse("Q♥ J♥")} <= set(game.spare)
    for seat, card in ((1, "8♣"), (2, "6♣"), (3, "K♦"), (0, "8♥")):
        assert parse(card)[0] in game.hands[seat]
    dealers = {TripoliGame.new(TripoliRules(), 4, bytes([i])).dealer for i in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert (
        TripoliGame.new(TripoliRules(), 4, b"a").dealer
        == TripoliGame.new(TripoliRules(), 4, b"a").dealer
    )


def test_antes_and_elimination_of_players_who_cannot_ante():
    game = TripoliGame.new(TripoliRules(), 4, b"e", stacks=[100, 8, 100, 9], first_dealer=1)
    assert game.eliminated == [1]
    assert game.dealer == 2  # the eliminated dealer passes the deal on
    assert game.players == [3, 0, 2]
    assert game.stacks == [91, 8, 91, 0]  # seat 3 antes its last 9 chips and plays on
    assert game.board == dict.fromkeys(TripoliRules().spaces, 3)
    kinds = [e.kind for e in game.log]
    assert kinds[:3] == ["eliminated", "deal_started", "antes_posted"]


def test_fewer_than_two_players_who_can_ante_end_the_session():
    game = TripoliGame.new(TripoliRules(), 3, b"e", stacks=[100, 8, 0])
    assert game.is_over and game.result == {0: 100, 1: 8, 2: 0}
    assert game.log[-1].kind == "session_over"


def test_players_knocked_out_by_the_same_ante_still_play_for_the_board(tri):
    # items 58-60, 64: seats 0 and 1 cannot pay the ante of 9; they were in the session until
    # this ante, so they play the leftover round; seat 2, out earlier, does not
    game = TripoliGame.from_position(
        phase=Phase.BETWEEN_DEALS, stacks=[5, 5, 40], eliminated=[2], board={"KQ♥": 10}
    )
    hands = ["5♦ 5♥ 7♠ 8♣ 9♦", "2♣ 3♦ 4♥ 10♠ Q♣"]  # dealing order s1 (a pair), s0
    game.fix_next_deck(tri.leftover_deck(2, [tri.cards(h) for h in hands]))
    events = game.start_deal()
    assert [e.seat for e in events if e.kind == "eliminated"] == [0, 1]
    assert game.players == [1, 0] and game.to_act == {1}
    game.apply(1, Check())
    events = game.apply(0, Check())
    assert [(e.seat, e.chips) for e in events if e.kind == "pot_won"] == [(1, 10)]
    assert game.is_over and game.result == {0: 5, 1: 15, 2: 40}
    assert not any(game.board.values())


def test_a_lone_player_knocked_out_by_the_ante_takes_the_board_uncontested():
    game = TripoliGame.from_position(phase=Phase.BETWEEN_DEALS, stacks=[5, None], board={"SEQ": 7})
    events = game.start_deal()
    assert [(e.seat, e.chips, e.uncontested) for e in events if e.kind == "pot_won"] == [
        (0, 7, True)
    ]
    assert game.is_over and game.result == {0: 12} and not any(game.board.values())


def test_zero_chips_elimination_of_everybody_ends_with_the_board_played_for(tri):
    # §3.3 item 15: both pay their last chip into the Kitty at a block (item 51) and are out
    # at the end of the deal; they play the leftover round for the 3 chips, all-in for 0
    game = TripoliGame.from_position(
        TripoliRules(elimination="zero_chips"),
        phase=Phase.MICHIGAN,
        stacks=[1, 1],
        hands={0: tri.cards("5♠ 9♠ J♠"), 1: tri.cards("3♠ 7♠")},
        board={"KITTY": 1},
        leader=0,
        barred=Suit.SPADES,
        first_lead=False,
    )
    assert game.eliminated == [0, 1]
    assert game.is_over and sum(game.result.values()) == 3 and not any(game.board.values())
    assert any(e.kind == "leftover_started" for e in game.log)


def test_dealer_ante_differs_from_other_antes():
    rules = TripoliRules(dealer_ante=2)
    game = TripoliGame.new(rules, 4, b"d", first_dealer=0)
    assert game.stacks == [82, 91, 91, 91]
    assert game.board == dict.fromkeys(rules.spaces, 5)


def test_simultaneous_selection_and_decision_ids():
    game = TripoliGame.new(TripoliRules(), 4, b"ids", first_dealer=0)
    dealer_id = game.decision_id(0)
    game.apply(0, Keep(), dealer_id)
    assert game.phase == Phase.SELECT and game.to_act == {0, 1, 2, 3}
    ids = {s: game.decision_id(s) for s in range(4)}
    assert ids[0] != dealer_id
    game.apply(2, Select(cards=best_five(game.hands[2])), ids[2])
    assert game.decision_id(2) != ids[2]
    assert {s: game.decision_id(s) for s in (0, 1, 3)} == {s: ids[s] for s in (0, 1, 3)}
    before = game.model_dump_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(2, Select(cards=best_five(game.hands[2])), ids[2])
    assert info.value.code == "stale" and game.model_dump_json() == before
    with pytest.raises(IllegalAction) as info:
        game.apply(2, Select(cards=best_five(game.hands[2])))
    assert info.value.code == "not_your_turn"
    game.apply(1, Select(cards=best_five(game.hands[1])), ids[1])  # other seats unaffected
    others = game.view(3)
    assert others.selection is None and others.table.poker.selected == (1, 2)


def _betting(tri, stacks, pot=4, rules=None):
    hands = ["2♣ 4♦ 6♥ 8♠ 10♣", "3♣ 5♦ 7♥ 9♠ J♣", "2♦ 4♥ 6♠ 8♣ 10♦", "3♦ 5♥ 7♠ 9♣ J♦"]
    return TripoliGame.from_position(
        rules,
        phase=Phase.BETTING,
        stacks=stacks,
        hands={s: tri.cards(h) for s, h in enumerate(hands)},
        selections={s: tri.cards(h) for s, h in enumerate(hands)},
        board={"POT": pot},
        dealer=0,
    )


def test_error_codes_leave_the_state_unchanged(tri):
    game = _betting(tri, [30, 30, 5, 30])
    assert tri.refused(game, 2, Check()) == "not_your_turn"
    assert tri.refused(game, 1, Bet(amount=11)) == "over_limit"
    assert tri.refused(game, 1, Bet(amount=0)) == "illegal"
    assert tri.refused(game, 1, Call()) == "illegal"
    assert tri.refused(game, 1, Lead(card=Card(0))) == "illegal"
    assert tri.refused(game, 9, Check()) == "not_your_turn"
    game.apply(1, Bet(amount=1))
    assert tri.refused(game, 2, Check()) == "illegal"
    assert tri.refused(game, 2, Raise(amount=5)) == "not_enough_chips"
    game.apply(2, Fold())
    assert tri.refused(game, 3, Raise(amount=11)) == "over_limit"
    game.end_session(abandon=True)
    assert game.leftover and game.stacks == [30, 30, 5, 30]  # back to the start, then leftover
    tri.play_out(game)
    assert tri.refused(game, 0, Fold()) == "game_over"
    for call in (game.start_deal, game.end_session):
        with pytest.raises(IllegalAction) as info:
            call()
        assert info.value.code == "game_over"


def test_bad_selections_are_refused(tri):
    game = TripoliGame.new(TripoliRules(), 4, b"sel", first_dealer=0)
    game.apply(0, Keep())
    hand = game.hands[1]
    foreign = game.hands[2][0]
    assert tri.refused(game, 1, Select(cards=tuple(hand[:4]))) == "bad_selection"
    assert tri.refused(game, 1, Select(cards=(*hand[:4], hand[0]))) == "bad_selection"
    assert tri.refused(game, 1, Select(cards=(*hand[:4], foreign))) == "bad_selection"


def test_between_deals_refuses_actions(tri):
    game = TripoliGame.from_position(phase=Phase.BETWEEN_DEALS, stacks=[50, 50])
    assert tri.refused(game, 0, Keep()) == "between_deals"
    assert game.to_act == frozenset() and game.legal_actions(0) == []


def test_timeout_defaults():
    game = TripoliGame.new(TripoliRules(), 4, b"t", first_dealer=0)
    assert game.timeout_action(0) == Keep()
    game.apply(0, Exchange())
    assert game.timeout_action(0) == Keep()  # do not auction the old hand
    game.apply(0, Auction())
    assert game.timeout_action(1) == Pass()
    for seat in (1, 2, 3):
        game.apply(seat, Pass())
    assert game.timeout_action(2) == Select(cards=best_five(game.hands[2]))
    for seat in range(4):
        game.apply(seat, game.timeout_action(seat))
    assert game.timeout_action(1) == Check()
    game.apply(1, Bet(amount=2))
    assert game.timeout_action(2) == Fold()
    with pytest.raises(IllegalAction):
        game.timeout_action(1)


def test_timeout_lead_is_the_lowest_legal_lead(tri):
    game = TripoliGame.from_position(
        phase=Phase.MICHIGAN,
        stacks=[20, 20],
        hands={0: tri.cards("3♠ 3♦ 5♣ 9♦"), 1: tri.cards("2♥ 7♣")},
        leader=0,
    )
    assert game.timeout_action(0) == Lead(card=tri.cards("3♦")[0])


def test_bidders_who_cannot_outbid_pass_automatically():
    game = TripoliGame.new(TripoliRules(), 4, b"a", stacks=[100, 9, 100, 100], first_dealer=0)
    assert game.stacks[1] == 0
    events = game.apply(0, Auction())
    assert [(e.seat, e.forced) for e in events if e.kind == "auction_pass"] == [(1, True)]
    assert game.to_act == {2}
    events = game.apply(2, Bid(amount=91))  # seat 3 (91 chips) cannot outbid: passes
    assert [(e.seat, e.forced) for e in events if e.kind == "auction_pass"] == [(3, True)]
    assert next(e for e in events if e.kind == "auction_sold").seat == 2


def test_bet_limit_modes(tri):
    game = _betting(tri, [30] * 4)
    game.apply(1, Bet(amount=10))
    assert next(o for o in game.legal_actions(2) if o.kind == "raise").max == 10
    rules = TripoliRules(bet_limit_mode="total")
    game = _betting(tri, [30] * 4, rules=rules)
    game.apply(1, Bet(amount=6))
    assert next(o for o in game.legal_actions(2) if o.kind == "raise").max == 4
    game.apply(2, Raise(amount=4))
    assert {o.kind for o in game.legal_actions(3)} == {"fold", "call"}


def test_without_all_in_a_short_player_can_only_fold(tri):
    game = _betting(tri, [30, 30, 3, 30], rules=TripoliRules(all_in=False))
    game.apply(1, Bet(amount=5))
    assert {o.kind for o in game.legal_actions(2)} == {"fold"}


NO_ALL_IN_HANDS = {0: "9♣ 9♦ 9♥ 9♠ 2♣", 1: "3♣ 3♦ 3♥ 4♠ 4♦", 2: "2♥ 5♥ 7♥ J♥ A♥"}


def _no_all_in(tri, stacks):
    """Betting without all-in (§3.1 ``all_in`` off); seat 0 quads > seat 1 full house >
    seat 2 flush; 3 chips on POT; seat 1 opens."""
    hands = {s: tri.cards(h) for s, h in NO_ALL_IN_HANDS.items()}
    return TripoliGame.from_position(
        TripoliRules(all_in=False),
        phase=Phase.BETTING,
        stacks=stacks,
        hands=hands,
        selections=hands,
        board={"POT": 3},
    )


def test_without_all_in_a_player_without_chips_may_check_but_must_fold_to_a_bet(tri):
    game = _no_all_in(tri, [0, 30, 30])
    assert game.betting.all_in == [] and game.to_act == {1}
    game.apply(1, Check())
    game.apply(2, Check())
    assert {o.kind for o in game.legal_actions(0)} == {"check"}
    events = game.apply(0, Check())
    assert [(e.seat, e.chips) for e in events if e.kind == "pot_won"] == [(0, 3)]
    assert game.stacks == [3, 30, 30]

    game = _no_all_in(tri, [0, 30, 30])
    game.apply(1, Bet(amount=5))
    game.apply(2, Call())
    assert {o.kind for o in game.legal_actions(0)} == {"fold"}
    events = game.apply(0, Fold())
    assert [(e.seat, e.chips, e.pot) for e in events if e.kind == "pot_won"] == [(1, 13, 0)]
    assert game.stacks == [0, 38, 25]


def test_without_all_in_betting_the_whole_stack_is_not_all_in(tri):
    game = _no_all_in(tri, [30, 4, 30])
    events = game.apply(1, Bet(amount=4))
    assert not events[0].all_in and game.betting.all_in == []
    game.apply(2, Raise(amount=6))
    game.apply(0, Call())
    assert [o.kind for o in game.legal_actions(1)] == ["fold"]
    events = game.apply(1, Fold())
    assert not any(e.kind == "bet_returned" for e in events)
    assert [(e.seat, e.chips, e.pot) for e in events if e.kind == "pot_won"] == [(0, 27, 0)]
    assert game.stacks == [47, 0, 20]


def test_unmatched_excess_returns_to_the_bettor(tri):
    game = _betting(tri, [30, 30, 3, 30])
    game.apply(1, Bet(amount=10))
    game.apply(2, Call())  # all-in for 3
    game.apply(3, Fold())
    events = game.apply(0, Fold())
    assert [(e.seat, e.chips) for e in events if e.kind == "bet_returned"] == [(1, 7)]
    won = [(e.seat, e.chips) for e in events if e.kind == "pot_won"]
    assert sum(c for _, c in won) == 4 + 3 + 3
    assert game.total_chips() == 97


def test_players_without_chips_are_all_in_for_nothing(tri):
    game = _betting(tri, [0, 30, 0, 0])
    assert game.phase == Phase.MICHIGAN  # the lone player with chips faces no action
    assert game.betting.all_in == [2, 3, 0]


def test_add_and_remove_seats_between_deals(tri):
    game = TripoliGame.new(TripoliRules(), 3, b"s", first_dealer=0)
    with pytest.raises(IllegalAction):
        game.add_seat(100)
    with pytest.raises(IllegalAction):
        game.remove_seat(1)
    tri.play_out(game)
    total = game.total_chips()
    seat = game.add_seat(100)
    assert seat == 3 and game.total_chips() == total + 100
    stack = game.remove_seat(1)
    assert game.total_chips() == total + 100 - stack and game.stacks[1] is None
    with pytest.raises(IllegalAction):
        game.remove_seat(1)
    game.start_deal()
    assert sorted(game.players) == [0, 2, 3]
    assert 1 not in game.to_act and game.legal_actions(1) == []
    tri.check_invariants(game, game.total_chips())


def test_players_leave_a_finished_session_with_their_stacks_but_not_a_leftover_round(tri):
    game = TripoliGame.from_position(
        phase=Phase.BETWEEN_DEALS, stacks=[10, 20], board={"KQ♥": 9}, dealer=0
    )
    game.end_session()
    assert game.leftover and game.phase == Phase.BETTING
    with pytest.raises(IllegalAction):
        game.remove_seat(0)
    tri.play_out(game)
    assert game.is_over
    result = dict(game.result)
    assert sum(result.values()) == 39
    assert game.remove_seat(0) == result[0] and game.stacks[0] is None
    assert game.result == result  # the final standing is not rewritten
    with pytest.raises(IllegalAction):
        game.remove_seat(0)


def test_a_full_table_refuses_a_tenth_player(tri):
    game = TripoliGame.new(TripoliRules(), 9, b"full")
    tri.play_out(game)
    with pytest.raises(IllegalAction):
        game.add_seat(100)


def test_abandon_restores_the_chips_after_an_auction():
    game = TripoliGame.new(TripoliRules(), 4, b"ab", first_dealer=0)
    game.apply(0, Auction())
    game.apply(1, Bid(amount=7))
    for seat in (2, 3):
        game.apply(seat, Pass())
    events = game.end_session(abandon=True)
    assert events[0].kind == "deal_over" and events[0].abandoned
    assert game.is_over and game.result == dict.fromkeys(range(4), 100)


def _tie_leftover(tri, pots: int, board_chips: int) -> TripoliGame:
    game = TripoliGame.from_position(
        TripoliRules(leftover_pots=pots),
        phase=Phase.BETWEEN_DEALS,
        stacks=[10, 10, 10],
        board={"SEQ": board_chips},
        dealer=0,
    )
    hands = ["5♣ 6♦ 7♥ 8♠ 9♣", "5♦ 6♥ 7♠ 8♣ 9♦", "2♣ 3♦ 4♥ 10♠ Q♣"]  # s1, s2 tie; s0 loses
    game.fix_next_deck(tri.leftover_deck(3, [tri.cards(h) for h in hands]))
    return game


def test_last_leftover_pot_hands_odd_chips_from_the_dealers_left(tri):
    game = _tie_leftover(tri, pots=1, board_chips=5)
    game.end_session()
    for seat in (1, 2, 0):
        game.apply(seat, Check())
    assert game.is_over and game.result == {0: 10, 1: 13, 2: 12}


def test_earlier_leftover_pots_pass_odd_chips_on(tri):
    game = _tie_leftover(tri, pots=2, board_chips=13)
    game.end_session()
    assert game.board["POT"] == 7 and game.leftover_pots == [6]
    for seat in (1, 2, 0):
        game.apply(seat, Check())
    assert game.stacks == [10, 13, 13]
    assert game.board["POT"] == 1 + 6  # the odd chip joins the next pot
    assert game.leftover_index == 1 and game.total_chips() == 43


def test_seq_678_preset_pays_six_seven_eight(tri):
    deck = tri.deck_for(4, spare=tri.cards("6♦ 6♥ 6♠"), hands={2: tri.cards("6♣ 7♣ 8♣")})
    game = TripoliGame.new(PRESETS["seq-678"], 4, b"s", deck=deck, first_dealer=1)
    events = game.apply(1, Keep())
    takes = [(e.space, e.seat, e.chips) for e in events if e.kind == "pay_taken"]
    assert [t for t in takes if t[0] == "SEQ"] == [("SEQ", 3, 4)]


def test_new_refuses_bad_arguments():
    with pytest.raises(ValueError):
        TripoliGame.new(TripoliRules(first_lead="lowest_black"), 4, b"x")
    with pytest.raises(ValueError):
        TripoliGame.new(TripoliRules(), 10, b"x")
    with pytest.raises(ValueError):
        TripoliGame.new(TripoliRules(), 4, b"x", deck=[*CANONICAL[:51], CANONICAL[0]])
    with pytest.raises(ValueError):
        TripoliGame.new(TripoliRules(), 4, b"x", stacks=[10, 10])


def test_actions_and_events_read_back_from_json():
    for action in (Bet(amount=3), Select(cards=tuple(CANONICAL[:5])), Lead(card=Card(7)), Fold()):
        assert action_adapter.validate_json(action.model_dump_json()) == action
    game = TripoliGame.new(TripoliRules(), 4, b"ev")
    for event in game.log:
        assert event_adapter.validate_json(event.model_dump_json()) == event


def test_presets_are_rules_data():
    assert PRESETS["classic"] == TripoliRules()
    assert PRESETS["dutch"].spare_options == ("keep", "exchange", "auction")
    for rules in PRESETS.values():
        assert TripoliRules.model_validate_json(rules.model_dump_json()) == rules
    game = TripoliGame.new(PRESETS["dealer-starts-betting"], 4, b"o", first_dealer=2)
    game.apply(2, Keep())
    for seat in range(4):
        game.apply(seat, Select(cards=best_five(game.hands[seat])))
    assert game.to_act == {2}  # the dealer opens


def test_leftover_without_betting_is_a_plain_showdown(tri):
    game = TripoliGame.from_position(
        TripoliRules(leftover_betting=False),
        phase=Phase.BETWEEN_DEALS,
        stacks=[10, 10, 10],
        board={"KQ♥": 9},
        dealer=0,
    )
    hands = ["2♣ 3♦ 4♥ 10♠ Q♣", "5♦ 5♥ 7♠ 8♣ 9♦", "2♦ 3♥ 4♠ 9♠ J♣"]  # s1 high, s2 pair, s0
    game.fix_next_deck(tri.leftover_deck(3, [tri.cards(h) for h in hands]))
    events = game.end_session()
    assert [(e.seat, e.chips) for e in events if e.kind == "pot_won"] == [(2, 9)]
    assert game.is_over and game.result == {0: 10, 1: 10, 2: 19}


def test_no_leftover_poker_leaves_the_board_chips():
    game = TripoliGame.from_position(
        TripoliRules(leftover_poker=False),
        phase=Phase.BETWEEN_DEALS,
        stacks=[10, 10],
        board={"SEQ": 3},
    )
    game.end_session()
    assert game.is_over and game.board["SEQ"] == 3 and game.total_chips() == 23


def test_michigan_left_of_the_dealer_leads_first(tri):
    game = _betting(tri, [30] * 4, rules=TripoliRules(michigan_leader="left"))
    for seat in (1, 2, 3, 0):
        game.apply(seat, Check())
    assert game.phase == Phase.MICHIGAN and game.to_act == {1}


def test_any_suit_leads_may_repeat_the_suit_just_played(tri):
    hands = {0: tri.cards("5♠ 6♠ 9♠ 2♦"), 1: tri.cards("3♣ 9♣")}
    for rule, legal in (("other_suit", "2♦"), ("any_suit", "2♦ 9♠")):
        game = TripoliGame.from_position(
            TripoliRules(next_lead=rule),
            phase=Phase.MICHIGAN,
            stacks=[20, 20],
            hands=hands,
            leader=0,
        )
        game.apply(0, Lead(card=tri.cards("5♠")[0]))  # 5♠ 6♠, 7♠ dead: s0 stops
        assert game.to_act == {0}
        assert set(game.legal_actions(0)[0].cards) == set(tri.cards(legal))


def test_short_payments_are_capped_at_the_stack(tri):
    # item 53: s1 owes 3 cards but holds 1 chip; s2 owes 2 and holds 0
    game = TripoliGame.from_position(
        phase=Phase.MICHIGAN,
        stacks=[20, 1, 0],
        hands={0: tri.cards("9♦"), 1: tri.cards("2♠ 3♠ 4♠"), 2: tri.cards("6♣ 7♣")},
        board={"KITTY": 4},
        leader=0,
    )
    events = game.apply(0, Lead(card=tri.cards("9♦")[0]))
    out = next(e for e in events if e.kind == "went_out")
    assert out.payments == {1: 1, 2: 0} and out.chips == 5
    assert game.stacks == [25, 0, 0] and game.total_chips() == 25


def test_short_block_payments_are_capped_at_the_stack(tri):
    game = TripoliGame.from_position(
        phase=Phase.MICHIGAN,
        stacks=[2, 20],
        hands={0: tri.cards("2♠ 5♠ 9♠ J♠"), 1: tri.cards("3♠")},
        leader=0,
        barred=Suit.HEARTS,
        first_lead=False,
    )
    events = game.apply(0, Lead(card=tri.cards("2♠")[0]))  # 2♠ 3♠, 4♠ dead: s1 out
    assert next(e for e in events if e.kind == "went_out").payments == {0: 2}
    game = TripoliGame.from_position(
        phase=Phase.MICHIGAN,
        stacks=[2, 20],
        hands={0: tri.cards("5♠ 9♠ J♠"), 1: tri.cards("3♠ 7♠")},
        board={"KITTY": 1},
        leader=0,
        barred=Suit.SPADES,
        first_lead=False,
    )
    assert game.phase == Phase.BETWEEN_DEALS  # nobody can lead: blocked at once
    assert game.board["KITTY"] == 1 + 2 + 2 and game.stacks == [0, 18]


def test_the_deal_rotates_left_skipping_empty_and_eliminated_seats(tri):
    game = TripoliGame.new(TripoliRules(), 5, b"r", stacks=[100, 100, 100, 9, 100], first_dealer=1)
    assert game.dealer == 1
    tri.play_out(game)
    assert game.dealer == 2
    game.remove_seat(3)
    game.add_seat(50)
    game.start_deal()
    tri.play_out(game)
    assert game.dealer == 4  # seat 3 left; the new seat 5 is after seat 4
    game.start_deal()
    tri.play_out(game)
    assert game.dealer == 5


def test_the_same_seed_and_actions_give_the_same_session():
    def session() -> str:
        game = TripoliGame.new(TripoliRules(), 6, b"same")
        while game.phase != Phase.BETWEEN_DEALS:
            seat = max(game.to_act)
            game.apply(seat, game.timeout_action(seat))
        game.start_deal()
        return game.model_dump_json()

    assert session() == session()


def test_no_spare_exchange_goes_straight_to_the_poker_selection():
    game = TripoliGame.new(PRESETS["no-spare-exchange"], 4, b"n", first_dealer=0)
    assert game.phase == Phase.SELECT and game.to_act == {0, 1, 2, 3}
    assert len(game.spare) == 11  # the spare hand is still dealt and stays dead


def test_two_all_in_levels_make_a_main_pot_and_two_side_pots(tri):
    # P0 = 4; s1 bets 10, s2 all-in 3, s3 all-in 6, s0 calls 10 (item 41):
    # main 4 + 4x3 = 16 (all), side 1: 3 x 3 = 9 (s1 s3 s0), side 2: 2 x 4 = 8 (s1 s0)
    hands = {
        1: "2♣ 4♦ 6♥ 8♠ 10♣",  # ten high
        2: "7♣ 7♦ 7♥ 3♠ 5♣",  # three sevens
        3: "9♣ 9♦ 4♥ 4♠ K♣",  # two pair
        0: "Q♣ Q♦ 2♥ 5♠ 8♣",  # pair of queens
    }
    game = TripoliGame.from_position(
        phase=Phase.BETTING,
        stacks=[20, 20, 3, 6],
        hands={s: tri.cards(h) for s, h in hands.items()},
        selections={s: tri.cards(h) for s, h in hands.items()},
        board={"POT": 4},
        dealer=0,
    )
    game.apply(1, Bet(amount=10))
    game.apply(2, Call())
    game.apply(3, Call())
    events = game.apply(0, Call())
    assert [(e.seat, e.chips, e.pot) for e in events if e.kind == "pot_won"] == [
        (2, 16, 0),
        (3, 9, 1),
        (0, 8, 2),
    ]
    assert game.stacks == [18, 10, 16, 9] and game.board["POT"] == 0
    assert game.to_act == {2}  # the main-pot winner leads (item 42)


def test_automatic_poker_compares_everyones_best_five_without_betting(tri):
    hands = {1: "A♠ A♦ A♣ 2♠ 2♦ 6♣", 2: "K♠ K♦ 3♠ 3♦ 4♣", 0: "5♣ 7♦ 9♥ J♠ Q♣"}
    game = TripoliGame.from_position(
        TripoliRules(poker="auto"),
        phase=Phase.SPARE,
        stacks=[20, 20, 20],
        hands={s: tri.cards(h) for s, h in hands.items()},
        board={"POT": 3},
    )
    events = game.apply(0, Keep())
    shown = next(e for e in events if e.kind == "showdown")
    assert set(shown.hands) == {0, 1, 2}
    assert set(shown.hands[1]) == set(tri.cards("A♠ A♦ A♣ 2♠ 2♦"))  # 6♣ left out
    assert [(e.seat, e.chips) for e in events if e.kind == "pot_won"] == [(1, 3)]
    assert game.phase == Phase.MICHIGAN and game.to_act == {1}


def test_king_queen_of_any_suit_when_the_rules_say_so(tri):
    hands = {1: tri.cards("K♣ Q♣ 2♦"), 3: tri.cards("K♠ Q♠ J♥"), 0: tri.cards("K♥ 3♣"), 2: []}
    classic = dict(phase_one_winners(TripoliRules(), hands))
    anysuit = dict(phase_one_winners(TripoliRules(kq_suit="any"), hands))
    assert classic["KQ♥"] == [] and anysuit["KQ♥"] == [1, 3]
    assert classic["K♥"] == [0] and classic["J♥"] == [3] and classic["A♥"] == []
