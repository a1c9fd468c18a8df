"""The Trinidad challenge (``rules/kalooki.md`` §2T.6 T19-T23, §4.10, K12): the §4.10 case
with its exact scores and hand sizes and the reverse case, honour mode (calls beyond three),
who may challenge whom and when, sitting out the rest of the deal, the last player left in
a deal, a void deal after a challenge, the AI's challenges, and seeded honour-mode playouts
with the invariants after every action."""

from __future__ import annotations

import random

import pytest
from test_kalooki_support import Pool, check_invariants, refused, step

from engine.core import SYSTEM, Option, OptionError
from engine.kalooki import ai
from engine.kalooki.actions import Allow, CallDiscard, Challenge, Discard, Draw, LayOff
from engine.kalooki.game import KalookiGame
from engine.kalooki.phases import Phase
from engine.kalooki.rules import JAMAICAN, TRINIDAD, make_rules
from engine.kalooki.scoring import hand_points

HONOUR = make_rules("trinidad", honour_calls=True)


def position(seat1: str, calls1: int) -> tuple[KalookiGame, Pool]:
    """§4.10: Trinidad deal 2, four players; seat 3 is to draw. Seat 0 has laid down and
    holds K♣ (a 9♠ on the stock lets him go out); seat 1 holds ``seat1`` after ``calls1``
    calls; seat 3 holds Jkr K♠ 4♦ 4♦ A♣ beside his contract."""
    p = Pool()
    game = KalookiGame.from_position(
        HONOUR,
        hands={
            0: p("Kc"),
            1: p(seat1),
            2: p("2s 3s 4s 10s Js Qs Ks Ac Ad Qh Kh Ah"),
            3: p("Jkr Ks 4d 4d Ac"),
        },
        dealer=2,
        turn=3,
        deal_number=2,
        melds=[(0, "three", p("7c 7d 7h")), (0, "four", p("5s 6s 7s 8s")),
               (3, "three", p("9c 9d 9h")), (3, "four", p("2c 3c 4c 5c"))],
        discard=p("Qc"),
        stock=p("9s 10c"),
        calls_used={1: calls1},
    )
    return game, p


SIXTEEN = "2d 3d 5d 6d 8d 9d 10d Jd Qd 2h 3h 4h 8h 9h 10h Jh"  # 109 points
TWENTY = SIXTEEN + " Kd Ad 6h 7h"  # 109 + 10 + 1 + 6 + 7 = 133 points


def test_the_trinidad_preset_has_the_challenge_and_honour_mode_offers_it() -> None:
    assert TRINIDAD.challenge and not TRINIDAD.honour_calls and not TRINIDAD.challenges
    assert not JAMAICAN.challenge and HONOUR.challenges
    assert HONOUR.call_limit_hand(HONOUR.contracts[1]) == 18  # T18: 12 + 3 × 2
    with pytest.raises(OptionError) as error:
        make_rules("jamaican", honour_calls=True)
    assert error.value.reason == "kalooki.option.honour_needs_challenge"
    game, _ = position(SIXTEEN, 2)
    kinds = {o.kind: o for o in game.legal_actions(3)}
    assert kinds["challenge"].targets == ("0", "1", "2")
    enforced = game.model_copy(update={"rules": TRINIDAD})
    assert [o.kind for o in enforced.legal_actions(3)] == ["draw"]
    assert refused(enforced, 3, Challenge(seat=1)) == "illegal"


def test_wrong_challenge_of_4_10() -> None:
    game, _ = position(SIXTEEN, 2)
    seat3, (king,) = sorted(game.hands[3]), game.hands[0]
    assert len(game.hands[1]) == 16 and hand_points(game.hands[1]) == 109
    events = game.apply(3, Challenge(seat=1), game.decision_id(3))
    made = events[0]
    assert made.kind == "challenge_made" and not made.correct and made.out == 3
    assert (made.hand_size, made.limit, made.score) == (16, 18, 133)  # 83 + 50
    assert list(made.cards) == seat3 and game.discard[:5] == seat3  # face up, at the bottom
    assert game.hands[3] == [] and game.sitting_out == {3: 133}
    assert game.public_view().sitting_out == {3: 133}
    assert game.turn == 0 and game.phase == Phase.DRAW  # seat 3's turn is over
    assert game.totals == [0, 0, 0, 0]  # counted when the deal ends
    check_invariants(game)
    # seat 0 draws 9♠, lays it off on his spades and discards K♣: "kalooki"
    game.apply(0, Draw(source="stock"))
    game.apply(0, LayOff(meld="m2", card=game.drawn))
    events = game.apply(0, Discard(card=king))
    scored = next(e for e in events if e.kind == "deal_scored")
    assert scored.penalties == {0: 0, 1: 109, 2: 86, 3: 133}  # 133 stands, not recounted
    assert set(scored.hands) == {1, 2}
    assert game.totals == [0, 109, 86, 133] and game.between_deals
    check_invariants(game)
    game.start_deal()  # deal 3: seat 3 plays again
    assert game.deal_number == 3 and game.sitting_out == {}
    assert [len(h) for h in game.hands] == [12] * 4
    check_invariants(game)


def test_correct_challenge_reverse_of_4_10() -> None:
    game, _ = position(TWENTY, 4)
    assert hand_points(game.hands[1]) == 133
    events = game.apply(3, Challenge(seat=1), game.decision_id(3))
    made = events[0]
    assert made.correct and made.out == 1 and (made.hand_size, made.score) == (20, 183)
    assert game.sitting_out == {1: 183} and game.hands[1] == []
    assert game.turn == 3 and game.phase == Phase.DRAW  # seat 3 continues: he draws
    assert "challenge" in {o.kind for o in game.legal_actions(3)}
    assert game.legal_actions(3)[1].targets == ("0", "2")  # seat 1 sits out
    game.apply(3, Draw(source="stock"))
    game.apply(3, Discard(card=game.drawn))  # 9♠
    assert game.turn == 0 and game.phase == Phase.WINDOW
    assert 1 not in game.callers()
    assert refused(game, 1, CallDiscard()) == "sitting_out"
    game.apply(SYSTEM, game.timeout_action(SYSTEM), game.decision_id(SYSTEM))
    game.apply(0, Draw(source="stock"))  # 10♣: not his to lay off; he discards it
    game.apply(0, Discard(card=game.drawn))
    assert game.turn == 2  # seat 1 is skipped
    check_invariants(game)


def test_who_may_challenge_whom_and_when() -> None:
    game, _ = position(SIXTEEN, 2)
    assert refused(game, 3, Challenge(seat=3)) == "illegal"  # not oneself
    assert refused(game, 3, Challenge(seat=7)) == "illegal"
    assert refused(game, 1, Challenge(seat=2)) == "not_your_turn"  # only at one's own draw
    stale = game.decision_id(3) - 1
    assert refused(game, 3, Challenge(seat=1), stale) == "stale"
    game.apply(3, Draw(source="stock"))
    assert refused(game, 3, Challenge(seat=1)) == "illegal"  # after the draw: too late
    assert game.timeout_action(3).kind == "discard"  # a timeout never challenges


def test_honour_mode_allows_a_fourth_call() -> None:
    p = Pool()
    hands = {0: p("2c"), 1: p("3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d"),
             2: p("Kh"), 3: p("Qd")}
    args = dict(hands=hands, dealer=3, deal_number=4, turn=0, phase=Phase.WINDOW,
                discard=p("9s"), discarder=3, calls_used={1: 3})
    enforced = KalookiGame.from_position(TRINIDAD, **args)
    assert refused(enforced, 1, CallDiscard()) == "call_limit"
    game = KalookiGame.from_position(HONOUR, **args)
    assert 1 in game.callers()
    game.apply(1, CallDiscard())
    game.apply(0, Allow())
    assert game.calls_used[1] == 4 and len(game.hands[1]) == 20
    everyone = Option(kind="challenge", targets=("1", "2", "3"))
    assert ai.over_callers(game.view(0), everyone) == [1]  # 20 > 12 + 3 × 2


def test_the_last_player_left_goes_out() -> None:
    p = Pool()
    game = KalookiGame.from_position(
        HONOUR, hands={0: p("2c 3c"), 1: p("4d 5d"), 2: p("Kh Qh")}, dealer=2, turn=0,
        stock=p("9s 8s"),
    )
    game.apply(0, Challenge(seat=1))  # wrong: seat 0 sits out, seat 1 to draw
    assert game.turn == 1 and game.sitting_out == {0: 55}
    events = game.apply(1, Challenge(seat=2))  # wrong again: seat 2 is the last one left
    out = next(e for e in events if e.kind == "went_out")
    assert out.seat == 2 and out.last and not out.down_and_out
    assert game.totals == [55, 59, 0] and game.between_deals
    check_invariants(game)


def test_a_void_deal_drops_the_challenge_score() -> None:
    game, _ = position(SIXTEEN, 2)
    game.apply(3, Challenge(seat=1))
    game.stock, game.exhaustions = [], 1  # the stock already ran out once
    events = game.apply(0, Draw(source="stock"))
    assert [e.kind for e in events] == ["deal_void"]
    assert game.totals == [0, 0, 0, 0] and game.between_deals
    game.start_deal()
    assert game.deal_number == 2 and game.sitting_out == {}


def test_the_ai_challenges_only_an_over_caller() -> None:
    rng = random.Random(1)
    game, _ = position(SIXTEEN, 2)
    action = ai.choose(game.view(3), game.legal_actions(3), rng)
    assert action is not None and action.kind == "draw"
    game, _ = position(TWENTY, 4)
    assert ai.choose(game.view(3), game.legal_actions(3), rng) == Challenge(seat=1)


@pytest.mark.parametrize("policy", [ai.random_legal, ai.choose])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_honour_mode_playouts(policy, n: int) -> None:
    rng = random.Random(n)
    game = KalookiGame.new(HONOUR, n, b"honour-%d" % n)
    challenges = 0
    for _ in range(600):
        if game.is_over:
            break
        if game.between_deals:
            if game.deal_number >= 2:
                game.end_session()
            else:
                game.start_deal()
            continue
        events = step(game, [policy] * n, rng)
        challenges += sum(e.kind == "challenge_made" for e in events)
        check_invariants(game)
    if policy is ai.random_legal:
        assert challenges > 0
    else:
        assert challenges == 0 and max(game.calls_used) <= 3
