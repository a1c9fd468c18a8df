"""Troefcall flow and protocol: the jack search and partnership draw, the deal (5 cards, then
the rest after trumps), views, timeouts, decision ids, ending, the ``deals`` option, rules
validation and snapshots (``rules/troefcall.md`` §2, DESIGN.md §2)."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError
from test_troefcall_scenarios import Table, deck_for, fill, position

from engine import fairness
from engine.cards import Card, Rank, Suit, parse
from engine.core import EndReason, Game, IllegalAction, OptionError, Partnership
from engine.troefcall.actions import KapPartij, NameTrump, Play, action_adapter
from engine.troefcall.events import event_adapter
from engine.troefcall.game import TroefcallGame
from engine.troefcall.phases import Phase
from engine.troefcall.rules import TroefcallRules, make_rules
from engine.troefcall.seating import draw_partners, jack_search

SEEDS = [bytes([i]) * 4 for i in range(40)]


def test_the_jack_search_deals_face_up_until_the_first_jack():
    starts = set()
    for seed in SEEDS:
        s = jack_search(seed)
        assert s == jack_search(seed)
        assert s.cards[-1].rank == Rank.JACK
        assert all(c.rank != Rank.JACK for c in s.cards[:-1])
        assert s.caller == (s.start + len(s.cards) - 1) % 4 and s.dealer == (s.caller - 1) % 4
        starts.add(s.start)
    assert starts == {0, 1, 2, 3}


def test_a_new_game_starts_from_the_jack_search_and_shows_it():
    game = TroefcallGame.new(TroefcallRules(), 4, b"parlour")
    search = jack_search(b"parlour")
    assert (game.caller, game.dealer) == (search.caller, search.dealer)
    assert [e.kind for e in game.log] == ["jack_search", "deal_started"]
    assert game.public_view().jack_search == search
    started = game.log[1]
    assert started.commitment == fairness.commitment(b"parlour", 1)
    assert game.hands[game.caller] == fairness.shuffled_deck(b"parlour", 1)[:5]


def test_the_partnership_draw_seats_the_two_highest_together():
    tie_seen = False
    for seed in SEEDS:
        draw = draw_partners(seed)
        assert draw == draw_partners(seed) and sorted(draw.seating) == [0, 1, 2, 3]
        drawn = [draw.cards[draw.seating[s]] for s in range(4)]
        key = [(c.rank, c.suit) for c in drawn]
        assert key[0] > key[2] > key[1] > key[3]
        ranks = [c.rank for c in draw.cards]
        tie_seen |= len(set(ranks)) < 4
    assert tie_seen  # a rank tie happened and was broken by suit (♠ > ♥ > ♦ > ♣)


def fixed_game(caller: int = 2, **kw) -> TroefcallGame:
    return TroefcallGame.new(
        TroefcallRules(**kw), 4, b"fixed", deck=list(range(52)), first_caller=caller
    )


def test_the_caller_alone_holds_5_cards_until_trumps_then_the_deal_completes():
    game = fixed_game(caller=2)
    assert (game.dealer, game.caller, game.phase) == (1, 2, Phase.NAMING)
    assert game.commitment is None and game.jack_search is None
    assert [len(game.view(s).hand) for s in range(4)] == [0, 0, 5, 0]
    assert game.view(2).hand == tuple(Card(i) for i in range(5))
    assert game.public_view().hand_sizes == {0: 0, 1: 0, 2: 5, 3: 0}
    assert {p.seat: p.required for p in game.pending()} == {2: True}
    events = game.apply(2, NameTrump(suit=Suit.HEARTS))
    assert [e.kind for e in events] == ["trump_named"]
    ids = {s: sorted(int(c) for c in game.hands[s]) for s in range(4)}
    assert ids[2] == [*range(0, 5), *range(20, 24), *range(36, 40)]
    assert ids[3] == [*range(5, 10), *range(24, 28), *range(40, 44)]
    assert ids[0] == [*range(10, 15), *range(28, 32), *range(44, 48)]
    assert ids[1] == [*range(15, 20), *range(32, 36), *range(48, 52)]
    assert game.trump == Suit.HEARTS and game.turn == 2 and game.public_view().trump == Suit.HEARTS


def test_deck_for_builds_the_deal_it_describes():
    hands = fill({}, dict.fromkeys(range(4), 13))
    game = TroefcallGame.new(TroefcallRules(), 4, b"x", deck=deck_for(3, hands), first_caller=3)
    game.apply(3, NameTrump(suit=Suit.CLUBS))
    assert all(sorted(game.hands[s]) == sorted(hands[s]) for s in range(4))


@pytest.mark.parametrize(
    ("five", "suit"),
    [
        ("A♠ 2♥ 3♥ 4♦ 5♦", Suit.DIAMONDS),  # 2 hearts, 2 diamonds: 5♦ beats 3♥
        ("2♥ 3♥ 2♦ 3♦ A♣", Suit.HEARTS),  # the same ranks: ♠ ♥ ♦ ♣ order
        ("2♣ 3♣ 4♣ A♠ K♠", Suit.CLUBS),  # length first
    ],
)
def test_the_trump_timeout_names_the_longest_suit(five, suit):
    hands = fill({0: parse(five)}, dict.fromkeys(range(4), 13))
    game = TroefcallGame.new(TroefcallRules(), 4, b"x", deck=deck_for(0, hands), first_caller=0)
    assert game.timeout_action(0) == NameTrump(suit=suit)


def lowest_plain(cards) -> Card:
    return min((c for c in cards if c.suit != Suit.HEARTS), key=lambda c: (c.rank, c.suit))


def test_the_play_timeout_is_the_lowest_legal_card_keeping_trumps():
    t = Table(0)
    lead = position(t, caller=0, trump="h", fixed={0: "2♥ 3♠ 5♣ 4♦"})
    assert lead.timeout_action(0) == Play(card=lowest_plain(lead.hands[0]))
    void = position(t, caller=0, trump="h", trick="A♦", fixed={1: "2♥ 9♣ 3♣"}, avoid={1: "d"})
    assert void.timeout_action(1) == Play(card=lowest_plain(void.hands[1]))  # discards low
    only_trumps = position(
        t, caller=0, trump="h", trick="A♦", fixed={1: "9♥ 3♥"}, avoid={1: "cds"}
    )
    assert only_trumps.timeout_action(1) == Play(card=parse("2♥")[0])
    with pytest.raises(IllegalAction) as info:
        void.timeout_action(2)
    assert info.value.code == "not_your_turn"


def test_refusals_have_stable_codes_and_change_nothing():
    game = fixed_game(caller=2)
    before = game.model_dump_json()
    cases = [
        (0, NameTrump(suit=Suit.CLUBS), None, "not_your_turn"),
        (2, Play(card=Card(0)), None, "illegal"),
        (2, KapPartij(), None, "illegal"),
        (2, NameTrump(suit=Suit.CLUBS), game.decision_id(2) - 1, "stale"),
        (7, NameTrump(suit=Suit.CLUBS), None, "not_your_turn"),
    ]
    for seat, action, decision, code in cases:
        for method in (game.check, game.apply):
            with pytest.raises(IllegalAction) as info:
                method(seat, action, decision)
            assert info.value.code == code, (seat, action)
        assert game.model_dump_json() == before
    game.check(2, NameTrump(suit=Suit.CLUBS), game.decision_id(2))
    assert game.model_dump_json() == before
    game.apply(2, NameTrump(suit=Suit.CLUBS))
    with pytest.raises(IllegalAction) as info:
        game.apply(2, Play(card=game.hands[3][0]))
    assert info.value.message == "That card is not in your hand."


def test_each_play_gives_the_next_seat_a_new_decision_id():
    game = fixed_game(caller=2)
    game.apply(2, NameTrump(suit=Suit.CLUBS))
    ids = [game.decision_id(s) for s in range(4)]
    game.apply(2, game.timeout_action(2), ids[2])
    assert game.decision_id(2) > ids[2] and game.decision_id(3) > ids[3]
    assert game.decision_id(0) == ids[0]


def test_the_views_show_tricks_turns_and_the_kap_decision():
    t = Table(0)
    game = position(t, caller=1, trump="s", history=[1, 3, 1, 3, 1, 1, 3])
    table = game.public_view()
    assert table.trick_winners == (1, 3, 1, 3, 1, 1, 3) and table.tricks_won == (0, 7)
    assert table.kap is not None and (table.kap.seat, table.kap.partner) == (3, 1)
    assert table.to_act == (1, 3) and table.optional == (1,) and table.turn == 3
    assert game.view(3).decision_required is True and game.view(1).decision_required is False
    assert game.view(0).decision_required is None and game.view(0).options == ()
    assert not hasattr(table, "hand") and "session_seed" not in table.model_dump_json()
    game.apply(3, KapPartij())
    table = game.public_view()
    assert table.kap is None and table.last_result is not None
    assert (table.last_result.points, table.last_result.reason) == (5, "kap")
    assert table.phase == Phase.BETWEEN_HANDS and table.turn is None


def test_a_trick_in_the_view_names_who_played_what():
    game = fixed_game(caller=2)
    game.apply(2, NameTrump(suit=Suit.CLUBS))
    for _ in range(5):
        game.apply(game.turn, game.timeout_action(game.turn))
    table = game.public_view()
    (done,) = table.tricks
    assert [p.seat for p in done.plays] == [2, 3, 0, 1] and done.winner == table.trick_winners[0]
    assert table.trick is not None and table.trick.number == 2
    assert table.trick.plays[0].seat == done.winner


def finish_hand(game: TroefcallGame) -> None:
    while game.phase != Phase.BETWEEN_HANDS and not game.is_over:
        game.apply(game.turn, game.timeout_action(game.turn))


def test_ending_after_the_hand_scores_it_and_the_outcome_is_incomplete():
    game = fixed_game(caller=2)
    game.apply(2, NameTrump(suit=Suit.CLUBS))
    assert game.end_session() == [] and game.ending and game.public_view().ending
    finish_hand(game)
    assert game.is_over and game.results and game.log[-1].kind == "game_over"
    out = game.outcome
    assert out is not None and not out.complete and out.winners == ()
    assert out.places[0] == game.teams[game.results[-1].team]  # places by score
    with pytest.raises(IllegalAction) as info:
        game.end_session()
    assert info.value.code == "game_over"


def test_abandoning_ends_at_once_without_a_score():
    game = fixed_game(caller=2)
    game.apply(2, NameTrump(suit=Suit.CLUBS))
    game.apply(2, game.timeout_action(2))
    events = game.end_session(abandon=True)
    assert [e.kind for e in events] == ["game_over"] and not events[0].complete
    assert game.is_over and game.results == [] and game.pending() == ()
    assert game.outcome is not None and game.outcome.places == ((0, 1, 2, 3),)


def test_ending_between_hands_is_immediate():
    game = position(Table(0), caller=1, trump="s", history=[1, 3, 1, 3, 1, 1, 3])
    game.apply(3, KapPartij())
    game.end_session()
    assert game.is_over and game.outcome.places == ((1, 3), (0, 2))
    assert not game.outcome.complete


def test_a_fixed_number_of_deals_plays_on_while_tied():
    game = position(
        Table(0),
        caller=1,
        trump="s",
        history=[0, 2, 0, 2, 0, 0, 2],
        scores=(0, 5),
        rules=TroefcallRules(deals=1),
    )
    assert game.public_view().target is None and game.public_view().deals == 1
    game.apply(2, KapPartij())
    assert game.scores == [5, 5] and not game.is_over  # tied after 1 deal: play on (item 52)
    game.start_deal()
    game.apply(game.caller, game.timeout_action(game.caller))
    finish_hand(game)
    assert game.is_over and game.outcome.complete and game.winner == game.results[-1].team


@pytest.mark.parametrize(("reason", "complete"), [
    (EndReason.LENGTH, True), (EndReason.HOST, False), (EndReason.PLAYERS, False)])
def test_the_agreed_length_is_won_by_the_higher_score_other_ends_have_no_winner(
        reason, complete):
    game = position(Table(0), caller=1, trump="s", history=[1, 3, 1, 3, 1, 1, 3])
    game.apply(3, KapPartij())  # 5 points to seats 1 + 3, short of the target (15)
    events = game.end_session(reason=reason)
    assert [e.kind for e in events] == ["game_over"] and events[0].complete is complete
    assert game.is_over and game.scores == [0, 5]
    assert game.outcome.complete is complete and game.outcome.places == ((1, 3), (0, 2))
    assert game.outcome.winners == ((1, 3) if complete else ())


def test_the_agreed_length_reached_on_a_tie_plays_on_until_a_hand_breaks_it():
    game = position(Table(0), caller=1, trump="s", history=[0, 2, 0, 2, 0, 0, 2],
                    scores=(0, 5))
    game.apply(2, KapPartij())
    assert game.scores == [5, 5]
    [tie] = game.end_session(reason=EndReason.LENGTH)  # tied: item 52, play on
    assert (tie.kind, tie.score) == ("tie_break", 5) and game.log[-1] == tie
    assert not game.is_over and game.between_deals and game.public_view().ending
    game.start_deal()
    game.apply(game.caller, game.timeout_action(game.caller))
    finish_hand(game)
    assert game.is_over and game.outcome.complete and len(game.results) == 2
    assert game.outcome.winners == game.teams[game.results[-1].team]


def test_a_game_saved_ending_before_the_reason_was_kept_ends_as_the_host_asked():
    game = fixed_game(caller=2)
    game.apply(2, NameTrump(suit=Suit.CLUBS))
    game.end_session()  # the host's end, the default
    saved = json.loads(game.model_dump_json())
    assert saved.pop("end_reason") == "host"
    old = TroefcallGame.model_validate_json(json.dumps(saved))
    assert old.ending and old.end_reason is None
    finish_hand(old)
    assert old.is_over and old.results and not old.outcome.complete


def test_start_deal_only_between_hands():
    game = fixed_game()
    with pytest.raises(IllegalAction) as info:
        game.start_deal()
    assert info.value.code == "illegal"


def test_rules_options():
    assert TroefcallRules().target == 15
    assert TroefcallRules(deals=4).target is None
    assert TroefcallRules(target=50).deals is None
    for bad in ({"target": 20, "deals": 3}, {"target": 0}, {"target": None}, {"deals": 0}):
        with pytest.raises(ValidationError):
            TroefcallRules(**bad)
    assert make_rules(deals=4) == TroefcallRules(deals=4)
    for bad, reason, values in (
        ({"target": 20, "deals": 3}, "troefcall.option.one_end", {}),
        ({"target": None}, "troefcall.option.one_end", {}),
        ({"target": 0}, "option.at_least", {"option": "target", "low": 1}),
        ({"deals": "three"}, "option.at_least", {"option": "deals", "low": 1}),
    ):
        with pytest.raises(OptionError) as refused:
            make_rules(**bad)
        assert (refused.value.reason, refused.value.values) == (reason, values)
    with pytest.raises(ValueError):
        TroefcallGame.new(TroefcallRules(), 5, b"x")
    with pytest.raises(ValueError):
        TroefcallGame.new(TroefcallRules(), 4, b"x", deck=[0] * 52)


def test_from_position_refuses_what_cannot_be():
    with pytest.raises(ValueError):
        TroefcallGame.from_position(caller=0, trump=Suit.CLUBS, hands={0: [0], 1: [1]})
    with pytest.raises(ValueError):  # A already has 7 tricks: nothing left to decide
        position(Table(0), caller=1, trump="s", history=[1, 0, 2, 0, 2, 0, 2, 0])


def test_snapshots_actions_and_events_round_trip():
    game = TroefcallGame.new(TroefcallRules(target=5), 4, b"round trip")
    while not game.is_over:
        if game.between_deals:
            game.start_deal()
            continue
        seat = min(p.seat for p in game.pending() if p.required)
        action = game.timeout_action(seat)
        assert action_adapter.validate_json(action.model_dump_json()) == action
        game.apply(seat, action)
        text = game.model_dump_json()
        assert TroefcallGame.model_validate_json(text).model_dump_json() == text
    for event in game.log:
        assert event_adapter.validate_json(event.model_dump_json()) == event
    assert isinstance(game, Game) and isinstance(game, Partnership)
    assert game.teams == ((0, 2), (1, 3)) and TroefcallGame.SCHEMA_VERSION == 1
