"""Threes, fours, contracts, lay-offs and joker exchanges: every case of ``rules/kalooki.md``
§4.1-§4.5 with its exact verdict (pure functions of ``engine.kalooki.melds``)."""

from __future__ import annotations

import pytest
from test_kalooki_support import cards

from engine.cards import Card
from engine.kalooki.melds import (
    Meld,
    MeldError,
    arrange_four,
    build,
    classify,
    exchange,
    lay_down_problem,
    lay_off,
    lay_off_ends,
)
from engine.kalooki.rules import JAMAICAN, TRINIDAD, make_rules

J_CASES = [
    ("J1", "5h Jkr 7h Jkr", "four", True),
    ("J2", "5h Jkr Jkr 8h", "four", False),
    ("J3", "9c Jkr Jkr", "three", False),
    ("J4", "Ks Kd Jkr", "three", True),
    ("J5", "Qc Qh Jkr Jkr", "three", True),
    ("J6", "As 2s 3s 4s", "four", True),
    ("J7", "Jd Qd Kd Ad", "four", True),
    ("J8", "Kc Ac 2c 3c", "four", False),
    ("J9", "7h 7h 7s", "three", True),
    ("J10", "4d 5d 6d", "four", False),
    ("J11", "8s 8s", "three", False),
    ("J12", "6h 7h 8s 9h", "four", False),
    ("J13", "Jkr Qs Ks As", "four", True),
    ("J14", "Qs Ks As Jkr", "four", False),
    ("J15", "Ac 2c 3c Jkr", "four", True),
    ("J16", "Jkr Ac 2c 3c", "four", False),
    ("J17", "Jkr 5h Jkr 7h", "four", True),
    ("J18", "5h Jkr 7h Jkr 9h Jkr", "four", True),
    ("J19", "Jkr Jkr Jkr", "three", False),
    ("J20", "Ah Ad As Ac", "three", True),
    ("J21", "10h Jh Jkr Kh Ah", "four", True),
    ("J22", "Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad", "four", False),
    ("J23", "9s 10s Js Qs Ks", "four", True),
]

T_CASES = [
    ("T-a", "5h Jkr Jkr 8h", "four", True),
    ("T-b", "9c Jkr Jkr", "three", True),
    ("T-c", "Jkr Jkr Jkr", "three", False),
    ("T-d", "Jkr Jkr Jkr 8d", "four", True),
    ("T-e", "5h Jkr 7h Jkr", "four", True),
    ("T-f", "Ks Kd Jkr", "three", True),
    ("T-g", "Qc Qh Jkr Jkr", "three", True),
    ("T-h", "As 2s 3s 4s", "four", True),
    ("T-i", "Jd Qd Kd Ad", "four", True),
    ("T-j", "Kc Ac 2c 3c", "four", False),
    ("T-k", "4d 5d 6d", "four", False),
    ("T-m", "2h Jkr Jkr Jkr Jkr", "four", True),
    ("T-n", "Qs Ks As Jkr", "four", False),
]


def problem(*args) -> str | None:
    """:func:`lay_down_problem`'s reason as its English sentence (None: no problem)."""
    found = lay_down_problem(*args)
    return None if found is None else str(found)


def _valid(text: str, kind: str, rules) -> bool:
    try:
        build("m1", 0, kind, cards(text), rules)
    except MeldError:
        return False
    return True


@pytest.mark.parametrize(("case", "text", "kind", "valid"), J_CASES)
def test_jamaican_meld_validity(case: str, text: str, kind: str, valid: bool) -> None:
    assert _valid(text, kind, JAMAICAN) is valid, case


@pytest.mark.parametrize(("case", "text", "kind", "valid"), T_CASES)
def test_trinidad_meld_validity(case: str, text: str, kind: str, valid: bool) -> None:
    assert _valid(text, kind, TRINIDAD) is valid, case


def test_t_l_four_jokers_are_neither_a_three_nor_a_four() -> None:
    verdict = classify(cards("Jkr Jkr Jkr Jkr"), TRINIDAD)
    assert verdict.kinds == ()
    assert "natural" in verdict.reason


def test_joker_identity_is_fixed_by_position() -> None:
    j1 = build("m1", 0, "four", cards("5h Jkr 7h Jkr"), JAMAICAN)
    assert j1.represents() == (5, 6, 7, 8)
    j13 = build("m1", 0, "four", cards("Jkr Qs Ks As"), JAMAICAN)
    assert (j13.low, j13.high) == (11, 14)  # Jkr = J♠
    j15 = build("m1", 0, "four", cards("Ac 2c 3c Jkr"), JAMAICAN)
    assert (j15.low, j15.high) == (1, 4)  # low ace, Jkr = 4♣
    t_d = build("m1", 0, "four", cards("Jkr Jkr Jkr 8d"), TRINIDAD)
    assert t_d.represents() == (5, 6, 7, 8)


@pytest.mark.parametrize(
    ("text", "reason", "key"),
    [
        ("5h Jkr Jkr 8h", "next to each other", "kalooki.four_adjacent_jokers"),
        ("9c Jkr Jkr", "at least 2 natural", "kalooki.three_naturals"),
        ("Qs Ks As Jkr", "above a high ace", "kalooki.above_ace"),
        ("Jkr Ac 2c 3c", "below a low ace", "kalooki.below_ace"),
        ("6h 7h 8s 9h", "one suit", "kalooki.four_suit"),
        ("4d 5d 6d", "at least 4", "kalooki.four_short"),
        ("Kc Ac 2c 3c", "consecutive", "kalooki.four_order"),
    ],
)
def test_classify_says_why(text: str, reason: str, key: str) -> None:
    verdict = classify(cards(text), JAMAICAN)
    assert verdict.kinds == ()
    assert reason in verdict.reason
    assert verdict.key == key  # the sentence's catalog id (illegal.<key>)


def test_classify_kinds() -> None:
    assert classify(cards("7h 7h 7s"), JAMAICAN).kinds == ("three",)
    assert classify(cards("8d 9d 10d Jd"), JAMAICAN).kinds == ("four",)
    # Trinidad: one natural and jokers may be a three or a four
    assert classify(cards("9c Jkr Jkr Jkr"), TRINIDAD).kinds == ("three", "four")


def test_arrange_four_fills_gaps_and_extends_upward() -> None:
    c = cards("7h Jkr 5h Jkr")
    assert arrange_four(c, JAMAICAN) == (c[2], c[1], c[0], c[3])  # 5 Jkr 7 Jkr(8)
    q = cards("Qs Ks As Jkr")
    assert arrange_four(q, JAMAICAN) == (q[3], q[0], q[1], q[2])  # T-n's fix: Jkr first
    low = cards("3c Ac 2c 4c")
    assert arrange_four(low, JAMAICAN) == (low[1], low[2], low[0], low[3])
    assert arrange_four(cards("5h Jkr Jkr 6h"), JAMAICAN) is not None  # Jkr 5 6 Jkr
    assert arrange_four(cards("5h Jkr Jkr Jkr 6h"), JAMAICAN) is None  # jokers would touch
    assert arrange_four(cards("5h 6s 7h 8h"), JAMAICAN) is None


# ---------------------------------------------------------------- §4.3 contracts

DEAL = {n: c for n, c in enumerate(JAMAICAN.contracts, start=1)}


def _melds(*groups: tuple[str, str], rules=JAMAICAN, owner: int = 0) -> list[Meld]:
    pool_text = " ".join(text for _, text in groups)
    every = cards(pool_text)
    out, i = [], 0
    for k, (kind, text) in enumerate(groups):
        n = len(text.split())
        out.append(build(f"m{k + 1}", owner, kind, every[i : i + n], rules))
        i += n
    return out


def test_c1_three_threes_accepted() -> None:
    new = _melds(("three", "7s 7h 7d"), ("three", "9c 9c 9d"), ("three", "Ks Kh Jkr"))
    assert problem(new, [], DEAL[1], JAMAICAN) is None


def test_c2_two_threes_of_one_rank_rejected() -> None:
    new = _melds(("three", "7s 7h 7d"), ("three", "7c 7c 7d"), ("three", "Ks Ks Kh"))
    assert "two threes of 7s" in problem(new, [], DEAL[1], JAMAICAN)
    six = _melds(("three", "7s 7h 7d 7c 7c 7d"), ("three", "Ks Ks Kh"))
    assert problem(six, [], DEAL[1], JAMAICAN) == (
        "the contract needs 3 threes; you have 2 threes"
    )


def test_c3_two_hearts_fours_rejected_c4_accepted() -> None:
    c3 = _melds(("four", "3h 4h 5h 6h"), ("four", "9h 10h Jh Qh"), ("four", "5s 6s 7s 8s"))
    assert "two fours of ♥" in problem(c3, [], DEAL[4], JAMAICAN)
    c4 = _melds(("four", "3h 4h 5h 6h"), ("four", "9c 10c Jkr Qc"), ("four", "5s 6s 7s 8s"))
    assert problem(c4, [], DEAL[4], JAMAICAN) is None


def test_c5_extra_four_in_the_same_turn_accepted() -> None:
    c5 = _melds(
        ("three", "8c 8d 8s"),
        ("three", "Qh Qh Jkr"),
        ("four", "4s 5s 6s 7s"),
        ("four", "9d 10d Jd Qd"),
    )
    assert problem(c5, [], DEAL[2], JAMAICAN) is None


def test_c6_c7_contract_not_met() -> None:
    c6 = _melds(("three", "8c 8d 8s"), ("three", "Qh Qh Qs"), ("three", "3c 3d 3s"))
    assert problem(c6, [], DEAL[2], JAMAICAN) == (
        "the contract needs 2 threes and 1 four; you have 3 threes"
    )
    c7 = _melds(("three", "8c 8d 8s"), ("four", "4s 5s 6s 7s"))
    assert problem(c7, [], DEAL[2], JAMAICAN) == (
        "the contract needs 2 threes and 1 four; you have 1 three and 1 four"
    )
    short = lay_down_problem(c7, [], DEAL[2], JAMAICAN)
    assert short is not None and short.reason == "kalooki.contract_short"
    assert short.values == {"threes": 2, "fours": 1, "have_threes": 1, "have_fours": 1}


def test_c8_later_melds_keep_distinct_but_lay_off_is_fine() -> None:
    owned = _melds(
        ("three", "8c 8d 8s"),
        ("three", "Qh Qh Jkr"),
        ("four", "4s 5s 6s 7s"),
        ("four", "9d 10d Jd Qd"),
    )
    spades = _melds(("four", "9s 10s Js Qs"))
    assert "two fours of ♠" in problem(spades, owned, None, JAMAICAN)
    eights = _melds(("three", "8h 8h 8d"))
    assert "two threes of 8s" in problem(eights, owned, None, JAMAICAN)
    assert lay_off_ends(owned[0], cards("8h")[0], JAMAICAN) == ("top",)


def test_c9_deal_three_contract_k1() -> None:
    c9 = _melds(("three", "6c 6d 6h"), ("four", "2h 3h 4h 5h"), ("four", "10s Js Qs Ks"))
    assert JAMAICAN.contracts[2].cards == 11
    assert problem(c9, [], JAMAICAN.contracts[2], JAMAICAN) is None
    literal = make_rules(deal3_contract="2T+1F")
    assert problem(c9, [], literal.contracts[2], literal) == (
        "the contract needs 2 threes and 1 four; you have 1 three and 2 fours"
    )


def test_c10_trinidad_distinct_runs_flag() -> None:
    c10 = _melds(("four", "3h 4h 5h 6h"), ("four", "9h 10h Jh Qh"), rules=TRINIDAD)
    deal3 = TRINIDAD.contracts[2]
    assert (deal3.threes, deal3.fours) == (0, 2)
    assert "two fours of ♥" in problem(c10, [], deal3, TRINIDAD)
    loose = make_rules("trinidad", distinct_melds=False)
    assert problem(c10, [], deal3, loose) is None


# ---------------------------------------------------------------- §4.4 lay-offs


def test_lay_off_sequence_jamaica() -> None:
    p = cards("9d 10d Jd Qd 8d Kd Ad 7d Kd")
    run = build("m1", 1, "four", p[:4], JAMAICAN)
    eight, king, ace, seven, king2 = p[4], p[5], p[6], p[7], p[8]
    with pytest.raises(MeldError):
        lay_off(run, eight, None, JAMAICAN)  # 1. bottom closed before the ace
    run = lay_off(run, king, None, JAMAICAN)
    with pytest.raises(MeldError):
        lay_off(run, eight, None, JAMAICAN)  # 2. still closed
    run = lay_off(run, ace, None, JAMAICAN)
    assert (run.low, run.high) == (9, 14)
    run = lay_off(run, eight, None, JAMAICAN)  # 3. bottom open now
    run = lay_off(run, seven, None, JAMAICAN)
    assert run.cards == (seven, eight, *p[:4], king, ace)
    with pytest.raises(MeldError):
        lay_off(run, king2, None, JAMAICAN)  # rank already present, top closed


def test_lay_off_jokers_never_adjacent_jamaica() -> None:
    p = cards("5c 6c 7c 8c Jkr Jkr 10c Jkr")
    run = build("m1", 0, "four", p[:4], JAMAICAN)
    run = lay_off(run, p[4], None, JAMAICAN)  # Jkr = 9♣
    assert lay_off_ends(run, p[5], JAMAICAN) == ()
    with pytest.raises(MeldError):
        lay_off(run, p[5], None, JAMAICAN)
    run = lay_off(run, p[6], None, JAMAICAN)  # 10♣
    run = lay_off(run, p[7], None, JAMAICAN)  # Jkr = J♣
    assert run.represents()[-1] == 11


def test_lay_off_trinidad_either_end() -> None:
    p = cards("9d 10d Jd Qd 8d Kd")
    run = build("m1", 0, "four", p[:4], TRINIDAD)
    assert lay_off_ends(run, p[4], TRINIDAD) == ("bottom",)
    assert lay_off_ends(run, p[5], TRINIDAD) == ("top",)
    assert lay_off(run, p[4], None, TRINIDAD).low == 8


def test_low_ace_run_grows_to_king_only() -> None:
    p = cards("Ac 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac")
    run = build("m1", 0, "four", p[:13], JAMAICAN)
    assert run.high == 13
    assert lay_off_ends(run, p[13], JAMAICAN) == ()  # K6: never both aces
    assert lay_off_ends(run, Card(106), TRINIDAD) == ()  # no free end at all


# ---------------------------------------------------------------- §4.5 exchanges


def test_e1_exchange_moves_the_joker_to_the_top() -> None:
    p = cards("5h Jkr 7h 8h 6h")
    run = build("m7", 2, "four", p[:4], JAMAICAN)
    new, joker, to = exchange(run, p[4], None, JAMAICAN, own=False)
    assert (joker, to) == (p[1], "top")
    assert new.cards == (p[0], p[4], p[2], p[3], p[1])
    assert new.represents()[-1] == 9 and new.owner == 2


def test_e2_exchange_goes_to_the_bottom_once_the_ace_is_reached() -> None:
    p = cards("10c Jkr Qc Kc Ac Jc")
    run = build("m1", 1, "four", p[:5], JAMAICAN)
    new, _, to = exchange(run, p[5], None, JAMAICAN, own=False)
    assert to == "bottom"
    assert new.cards == (p[1], p[0], p[5], p[2], p[3], p[4])
    assert new.low == 9


def test_e3_no_exchange_next_to_a_joker() -> None:
    p = cards("5h Jkr 7h Jkr 6h 8h")
    run = build("m1", 0, "four", p[:4], JAMAICAN)
    with pytest.raises(MeldError, match="no free end"):
        exchange(run, p[4], None, JAMAICAN, own=False)
    new, _, _ = exchange(run, p[5], None, JAMAICAN, own=False)
    assert new.cards == (p[0], p[1], p[2], p[5], p[3])
    assert [i for i, c in enumerate(new.cards) if c.is_joker] == [1, 4]  # 6 and 9


def test_e4_jokers_in_threes_never_move() -> None:
    p = cards("Ks Kd Jkr Kc")
    three = build("m1", 0, "three", p[:3], JAMAICAN)
    with pytest.raises(MeldError, match="three never"):
        exchange(three, p[3], None, JAMAICAN, own=True)
    assert lay_off(three, p[3], None, JAMAICAN).cards == tuple(p)


def test_e5_trinidad_exchange_and_take() -> None:
    p = cards("4c Jkr 7c 6c 5c")
    run = build("m1", 1, "four", [p[0], p[1], p[3], p[2]], TRINIDAD)
    kept, joker, to = exchange(run, p[4], "hand", TRINIDAD, own=True)
    assert (joker, to) == (p[1], "hand") and Card(p[1]) not in kept.cards
    low, _, _ = exchange(run, p[4], "bottom", TRINIDAD, own=True)
    assert low.low == 3  # the joker as 3♣
    high, _, _ = exchange(run, p[4], None, TRINIDAD, own=False)
    assert high.high == 8  # the joker as 8♣
    with pytest.raises(MeldError):
        exchange(run, p[4], "hand", TRINIDAD, own=False)  # another's run: stays in it
    with pytest.raises(MeldError):
        exchange(run, p[4], "hand", JAMAICAN, own=True)
