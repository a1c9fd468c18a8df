"""The worked scenarios of ``rules/troefcall.md`` §4 (S1-S12) with exact points and rotations.

The rules file numbers seats 0..3 with its dealer at a given seat; every scenario also runs
with the whole table turned by 1-3 seats (``shift``): rules seat s is engine seat
``(s + shift) % 4``, so "team A" is the team of engine seat ``shift``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.cards import Card, Suit, parse
from engine.core import IllegalAction
from engine.troefcall.actions import ClaimRedeal, KapPartij, NameTrump, Play
from engine.troefcall.game import TroefcallGame
from engine.troefcall.phases import Phase
from engine.troefcall.rules import TroefcallRules
from engine.troefcall.scoring import team_of

SHIFTS = pytest.mark.parametrize("shift", [0, 1, 2, 3])


class Table:
    """Seat translation for a table turned by ``shift`` seats."""

    def __init__(self, shift: int) -> None:
        self.shift = shift

    def __call__(self, s: int) -> int:
        return (s + self.shift) % 4

    def team(self, rules_seat: int) -> int:
        """The engine team of the rules file's seat ``rules_seat`` (A = 0 + 2, B = 1 + 3)."""
        return team_of(self(rules_seat))


def fill(
    fixed: dict[int, list[Card]],
    sizes: dict[int, int],
    avoid: dict[int, str] | None = None,
    out: Sequence[Card] = (),
) -> dict[int, list[Card]]:
    """Hands of ``sizes`` cards holding ``fixed``; the rest filled in canonical order except
    the cards ``out``, a seat never receiving a suit it ``avoid``s (suit letters); seats with
    most avoided suits first."""
    avoid = avoid or {}
    used = {c for cs in fixed.values() for c in cs} | set(out)
    free = [Card(i) for i in range(52) if Card(i) not in used]
    hands = {s: list(fixed.get(s, [])) for s in sizes}
    for s in sorted(sizes, key=lambda s: -len(avoid.get(s, ""))):
        for c in list(free):
            if len(hands[s]) >= sizes[s]:
                break
            if c.suit.letter not in avoid.get(s, ""):
                hands[s].append(c)
                free.remove(c)
        assert len(hands[s]) == sizes[s], "cannot fill the hand"
    return hands


def position(
    t: Table,
    *,
    caller: int,
    trump: str,
    history: Sequence[int] = (),
    trick: str = "",
    fixed: dict[int, str] | None = None,
    avoid: dict[int, str] | None = None,
    **kw,
) -> TroefcallGame:
    """A position in rules seats: ``history`` = trick winners, ``trick`` = the cards of the
    current trick from its leader (last winner, or the caller), ``fixed`` = cards a seat holds
    (besides fillers)."""
    current = parse(trick)
    leader = history[-1] if history else caller
    sizes = {
        s: 13 - len(history) - (1 if (s - leader) % 4 < len(current) else 0) for s in range(4)
    }
    hands = fill({s: parse(v) for s, v in (fixed or {}).items()}, sizes, avoid, current)
    return TroefcallGame.from_position(
        kw.pop("rules", None),
        caller=t(caller),
        trump=Suit("cdhs".index(trump)),
        hands={t(s): cs for s, cs in hands.items()},
        history=[t(w) for w in history],
        trick=current,
        **kw,
    )


def play(game: TroefcallGame, t: Table, plays: str) -> list:
    """Play ``plays`` (cards in order) by whoever is due; returns the events."""
    events = []
    for card in parse(plays):
        events += game.apply(game.turn, Play(card=card))
    return events


def follow(game: TroefcallGame, n: int) -> list:
    """The next ``n`` seats play their timeout default (the lowest legal card)."""
    return [e for _ in range(n) for e in game.apply(game.turn, game.timeout_action(game.turn))]


def lowest_until_over(game: TroefcallGame) -> list:
    """Finish the hand with the timeout defaults."""
    events = []
    while game.phase in (Phase.PLAY, Phase.KAP):
        events += game.apply(game.turn, game.timeout_action(game.turn))
    return events


def assert_result(game, t, team_rules_seat, points, reason, dealer, caller, other=0):
    r = game.results[-1]
    assert (r.team, r.points, r.reason) == (t.team(team_rules_seat), points, reason)
    assert game.scores[t.team(team_rules_seat)] == points
    assert game.scores[1 - t.team(team_rules_seat)] == other
    assert (game.dealer, game.caller) == (t(dealer), t(caller))
    assert (r.next_dealer, r.next_caller) == (t(dealer), t(caller))
    assert game.between_deals and not game.to_act


B_SEVEN = [1, 3, 1, 3, 1, 1, 3]  # team B takes tricks 1-7; seat 3 wins trick 7
A_SEVEN = [0, 2, 0, 2, 0, 0, 2]  # team A; seat 2 wins trick 7


@SHIFTS
def test_s1_kap_by_the_trick7_winner_scores_5(shift):
    t = Table(shift)
    game = position(t, caller=1, trump="s", history=B_SEVEN)
    assert game.phase == Phase.KAP
    pending = {p.seat: p.required for p in game.pending()}
    assert pending == {t(3): True, t(1): False}
    assert [o.kind for o in game.legal_actions(t(3))] == ["play", "kap"]
    assert [o.kind for o in game.legal_actions(t(1))] == ["kap"]
    assert game.legal_actions(t(0)) == game.legal_actions(t(2)) == []
    assert game.timeout_action(t(3)) == KapPartij()
    with pytest.raises(IllegalAction) as info:
        game.timeout_action(t(1))
    assert info.value.code == "optional"
    events = game.apply(t(3), KapPartij())
    assert [e.kind for e in events] == ["kap", "hand_scored"]
    assert events[0].trick7_winner
    assert_result(game, t, 1, 5, "kap", dealer=0, caller=1)
    assert game.results[-1].seat == t(3) and not game.results[-1].rotated
    assert sum(map(len, game.hands)) == 4 * 6  # the remaining cards are not played


@SHIFTS
def test_s2_kap_by_the_partner_scores_2_and_closes_the_window(shift):
    t = Table(shift)
    game = position(t, caller=1, trump="s", history=B_SEVEN)
    winner_decision = game.decision_id(t(3))
    events = game.apply(t(1), KapPartij(), game.decision_id(t(1)))
    assert not events[0].trick7_winner
    assert_result(game, t, 1, 2, "partner_kap", dealer=0, caller=1)
    with pytest.raises(IllegalAction) as info:
        game.apply(t(3), KapPartij(), winner_decision)
    assert info.value.code == "between_deals"


@SHIFTS
def test_s3_dealers_team_takes_the_first_seven_and_stops_then_the_deal_rotates(shift):
    t = Table(shift)
    game = position(t, caller=1, trump="s", history=A_SEVEN)
    assert {p.seat for p in game.pending()} == {t(2), t(0)}
    game.apply(t(2), KapPartij())
    assert_result(game, t, 0, 5, "kap", dealer=1, caller=2)
    assert game.results[-1].rotated


@SHIFTS
def test_s4_baunie_scores_15_and_leading_trick_8_commits(shift):
    t = Table(shift)
    game = position(
        t,
        caller=1,
        trump="s",
        history=[3, 1, 3, 3, 1, 3, 1],  # seat 1 wins trick 7
        fixed={1: "A♠ K♠ Q♠ J♠ 10♠ 9♠"},
        avoid={0: "s", 2: "s", 3: "s"},
        rules=TroefcallRules(target=50),  # 15 points would end a game to 15
    )
    partner = game.decision_id(t(3))
    events = game.apply(t(1), Play(card=parse("A♠")[0]))
    assert [e.kind for e in events] == ["baunie", "card_played"]
    assert game.baunie == t.team(1) and game.phase == Phase.PLAY
    assert game.legal_actions(t(3)) == []  # no stop once trick 8 has started (item 34)
    with pytest.raises(IllegalAction) as info:
        game.apply(t(3), KapPartij(), partner)
    assert info.value.code == "stale"
    lowest_until_over(game)
    assert game.tricks_won[t.team(1)] == 13
    assert_result(game, t, 1, 15, "baunie", dealer=0, caller=1)


@SHIFTS
def test_s5_failed_baunie_gives_the_opponents_2_at_once_and_rotates(shift):
    t = Table(shift)
    game = position(
        t,
        caller=1,
        trump="s",
        history=B_SEVEN,  # seat 3 wins trick 7
        fixed={3: "A♠ K♠ 2♥ 3♥ 4♥ 5♥", 0: "A♥ K♥ Q♥ J♥ 10♥ 9♥"},
        avoid={1: "hs", 2: "hs"},
    )
    play(game, t, "A♠ 9♥")  # seat 3 leads to trick 8: committed
    follow(game, 2)
    play(game, t, "K♠ 10♥")
    follow(game, 2)
    assert [tr.winner for tr in game.tricks][-2:] == [t(3), t(3)]
    events = play(game, t, "2♥ A♥")
    events += follow(game, 2)
    assert [e.kind for e in events][-2:] == ["trick_won", "hand_scored"]
    assert len(game.tricks) == 10  # the hand ends as soon as the losing trick is complete
    assert_result(game, t, 0, 2, "failed_baunie", dealer=1, caller=2)


@SHIFTS
def test_s5b_failed_baunie_by_the_dealers_team_keeps_the_deal(shift):
    t = Table(shift)
    game = position(
        t,
        caller=1,
        trump="s",
        history=[*A_SEVEN, 0, 2, 0, 0],  # A plays on and wins tricks 8-11; seat 0 leads
        fixed={0: "2♥", 1: "3♥", 2: "4♥", 3: "A♥"},
        avoid={1: "s", 2: "s", 3: "s"},
    )
    assert game.baunie == t.team(0) and game.phase == Phase.PLAY
    play(game, t, "2♥ 3♥ 4♥ A♥")
    assert len(game.tricks) == 12
    assert_result(game, t, 3, 2, "failed_baunie", dealer=0, caller=1)


S6_HISTORY = [1, 0, 2, 3, 0, 1, 2, 0, 3, 2]  # B A A B A B A A B A: A has 6 after trick 10


@SHIFTS
def test_s6_callers_take_6_the_opponents_score_2_and_the_deal_rotates(shift):
    t = Table(shift)
    game = position(
        t, caller=1, trump="s", history=S6_HISTORY, fixed={2: "A♥", 3: "2♥", 0: "3♥", 1: "4♥"}
    )
    play(game, t, "A♥ 2♥ 3♥ 4♥")  # seat 2 leads and wins trick 11: A reaches 7
    assert len(game.tricks) == 11  # the result is fixed: the hand ends (item 45)
    assert_result(game, t, 0, 2, "seven", dealer=1, caller=2)


@SHIFTS
def test_s6_with_play_all_tricks_the_hand_goes_to_13(shift):
    t = Table(shift)
    game = position(
        t,
        caller=1,
        trump="s",
        history=S6_HISTORY,
        fixed={2: "A♥", 3: "2♥", 0: "3♥", 1: "4♥"},
        rules=TroefcallRules(play_all_tricks=True),
    )
    play(game, t, "A♥ 2♥ 3♥ 4♥")
    assert game.phase == Phase.PLAY and game.tricks_won[t.team(0)] == 7
    lowest_until_over(game)
    assert len(game.tricks) == 13
    assert_result(game, t, 0, 2, "seven", dealer=1, caller=2)


@SHIFTS
def test_s7_callers_win_7_but_not_the_first_seven(shift):
    t = Table(shift)
    game = position(
        t,
        caller=3,
        trump="s",
        history=[1, 3, 1, 3, 1, 3, 0],  # B wins 1-6, A wins trick 7
        fixed={0: "2♦", 1: "A♦", 2: "3♦", 3: "4♦"},
    )
    assert game.phase == Phase.PLAY  # no decision point: trick 7 went to A
    play(game, t, "2♦ A♦ 3♦ 4♦")
    assert_result(game, t, 1, 2, "seven", dealer=2, caller=3)


def deck_for(caller: int, hands: dict[int, list[Card]]) -> list[Card]:
    """The deck whose deal (module docstring of ``engine.troefcall.game``) gives ``hands``;
    the caller's first five are the first five of his list."""
    order = [(caller, 0, 5), *[((caller + k) % 4, 0, 5) for k in (1, 2, 3)]]
    order += [((caller + k) % 4, 5, 9) for k in range(4)]
    order += [((caller + k) % 4, 9, 13) for k in range(4)]
    return [c for s, a, b in order for c in hands[s][a:b]]


S8_HAND = "A♠ A♥ 10♠ 9♥ 8♥ 7♣ 6♣ 5♦ 4♦ 3♦ 2♠ 2♣ 10♦"


def s8_game(t: Table, caller_hand: str, seed: bytes = b"s8") -> TroefcallGame:
    hands = fill({t(1): parse(caller_hand)}, dict.fromkeys(range(4), 13))
    return TroefcallGame.new(
        TroefcallRules(), 4, seed, deck=deck_for(t(1), hands), first_caller=t(1)
    )


@SHIFTS
def test_s8_redeal_without_court_cards(shift):
    from engine import fairness

    t = Table(shift)
    game = s8_game(t, S8_HAND)
    assert (game.dealer, game.caller) == (t(0), t(1))
    assert game.legal_actions(t(1)) == [game.legal_actions(t(1))[0]]  # naming: no redeal (A5)
    game.apply(t(1), NameTrump(suit=Suit.SPADES))
    assert sorted(game.hands[t(1)]) == sorted(parse(S8_HAND))
    assert [o.kind for o in game.legal_actions(t(1))] == ["play", "redeal"]
    assert game.timeout_action(t(1)).kind == "play"  # a redeal is never a default
    events = game.apply(t(1), ClaimRedeal())
    assert [e.kind for e in events] == ["redeal", "deal_started"]
    assert sorted(events[0].shown) == sorted(parse(S8_HAND))
    started = events[1]
    assert started.redeal and (started.deal_number, started.hand_number) == (2, 1)
    assert started.commitment == fairness.commitment(b"s8", 2)  # a new provable shuffle
    assert (game.dealer, game.caller, game.phase) == (t(0), t(1), Phase.NAMING)
    assert game.trump is None and game.results == [] and game.scores == [0, 0]
    assert [len(h) for h in game.hands] == [5 if s == t(1) else 0 for s in range(4)]
    assert game.hands[t(1)] == fairness.shuffled_deck(b"s8", 2)[:5]


@SHIFTS
def test_s8_a_court_card_means_no_redeal(shift):
    t = Table(shift)
    game = s8_game(t, S8_HAND.replace("2♣", "J♣"))
    game.apply(t(1), NameTrump(suit=Suit.SPADES))
    assert [o.kind for o in game.legal_actions(t(1))] == ["play"]
    before = game.model_dump_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(t(1), ClaimRedeal())
    assert info.value.code == "illegal" and game.model_dump_json() == before


@SHIFTS
def test_s8_only_the_caller_may_claim_and_only_before_his_opening_lead(shift):
    t = Table(shift)
    hands = fill(
        {t(1): parse("K♠ K♥ Q♥ J♣ Q♣"), t(2): parse(S8_HAND)}, dict.fromkeys(range(4), 13)
    )
    game = TroefcallGame.new(
        TroefcallRules(), 4, b"s8", deck=deck_for(t(1), hands), first_caller=t(1)
    )
    game.apply(t(1), NameTrump(suit=Suit.HEARTS))
    assert [o.kind for o in game.legal_actions(t(1))] == ["play"]
    with pytest.raises(IllegalAction) as info:
        game.apply(t(2), ClaimRedeal())
    assert info.value.code == "not_your_turn"
    game.apply(t(1), Play(card=parse("K♠")[0]))
    assert [o.kind for o in game.legal_actions(t(2))] == ["play"]  # no court cards, no claim
    # the caller without court cards after his opening lead: no claim either
    game2 = s8_game(t, S8_HAND)
    game2.apply(t(1), NameTrump(suit=Suit.CLUBS))
    game2.apply(t(1), Play(card=parse("2♣")[0]))
    assert all(o.kind == "play" for s in range(4) for o in game2.legal_actions(s))


def test_s9_follow_suit():
    t = Table(0)
    game = position(
        t,
        caller=1,
        trump="c",
        trick="9♥",
        fixed={2: "K♥ 3♥ A♣ 5♠", 3: "2♣ Q♦"},
        avoid={2: "h", 3: "h", 0: "hc"},
    )
    assert game.turn == 2
    (option,) = game.legal_actions(2)
    assert set(option.cards) == set(parse("K♥ 3♥"))
    before = game.model_dump_json()
    with pytest.raises(IllegalAction) as info:
        game.check(2, Play(card=parse("A♣")[0]))
    assert info.value.code == "illegal" and "follow suit" in info.value.message
    with pytest.raises(IllegalAction):
        game.apply(2, Play(card=parse("A♣")[0]))
    assert game.model_dump_json() == before
    game.apply(2, Play(card=parse("3♥")[0]))
    assert set(parse("2♣ Q♦")) <= set(game.legal_actions(3)[0].cards)
    assert set(game.legal_actions(3)[0].cards) == set(game.hands[3])
    game.apply(3, Play(card=parse("Q♦")[0]))
    assert set(game.legal_actions(0)[0].cards) == set(game.hands[0])


@SHIFTS
@pytest.mark.parametrize(("last", "winner"), [("5♠", 1), ("Q♦", 3)])
def test_s10_the_highest_trump_wins(shift, last, winner):
    t = Table(shift)
    game = position(
        t,
        caller=2,
        trump="s",
        fixed={2: "A♥", 3: "2♠", 0: "K♥", 1: "5♠ Q♦"},
        avoid={3: "h", 1: "h"},
    )
    events = play(game, t, f"A♥ 2♠ K♥ {last}")
    assert events[-1].kind == "trick_won" and events[-1].seat == t(winner)
    assert game.turn == t(winner) and game.current is not None and not game.current.cards


@SHIFTS
def test_s11_without_trumps_the_highest_card_of_the_led_suit_wins(shift):
    t = Table(shift)
    game = position(
        t, caller=0, trump="d", fixed={0: "10♣", 1: "4♣", 2: "A♥", 3: "J♣"}, avoid={2: "c"}
    )
    events = play(game, t, "10♣ 4♣ A♥ J♣")
    assert events[-1].seat == t(3) and game.turn == t(3)


@SHIFTS
def test_s12_reaching_the_target_ends_the_game_at_once(shift):
    t = Table(shift)
    game = position(
        t,
        caller=1,
        trump="s",
        history=[1, 0, 2, 0, 2, 0, 2],  # A has 6, not the first seven; seat 2 leads trick 8
        fixed={2: "A♥", 3: "2♥", 0: "3♥", 1: "4♥"},
        scores=(13, 9) if t.team(0) == 0 else (9, 13),
    )
    events = play(game, t, "A♥ 2♥ 3♥ 4♥")
    assert [e.kind for e in events][-2:] == ["hand_scored", "game_over"]
    assert game.is_over and game.winner == t.team(0) and events[-1].complete
    assert game.scores[t.team(0)] == 15 and game.scores[t.team(1)] == 9
    out = game.outcome
    assert out is not None and out.complete
    assert out.places == (game.teams[t.team(0)], game.teams[t.team(1)])
    assert out.winners == game.teams[t.team(0)] and out.teams == ((0, 2), (1, 3))
    assert out.scores == {s: 15 if team_of(s) == t.team(0) else 9 for s in range(4)}
    with pytest.raises(IllegalAction) as info:
        game.start_deal()
    assert info.value.code == "game_over"


@SHIFTS
def test_s8_redeals_may_follow_each_other_without_limit(shift):
    """§2.5 item 19: a caller dealt no court card again may claim again; nothing rotates
    and no hand is counted (items 18, 49)."""
    t = Table(shift)
    game = s8_game(t, S8_HAND)
    deck = list(game.hands[t(1)]) + list(game.stock)
    for deal in (2, 3, 4):
        game.apply(t(1), NameTrump(suit=Suit.SPADES))
        game.fix_next_deck(deck)
        events = game.apply(t(1), ClaimRedeal())
        assert (events[1].deal_number, events[1].hand_number) == (deal, 1)
        assert (game.dealer, game.caller, game.scores) == (t(0), t(1), [0, 0])
    game.apply(t(1), NameTrump(suit=Suit.HEARTS))
    assert [o.kind for o in game.legal_actions(t(1))] == ["play", "redeal"]
    assert sorted(game.hands[t(1)]) == sorted(parse(S8_HAND)) and game.results == []
