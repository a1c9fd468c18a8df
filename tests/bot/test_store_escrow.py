"""Sharing out an orphaned escrow pool (bot.store.escrow.split_pool), without a database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.store.escrow import split_pool


def test_a_whole_pool_goes_back_as_escrowed():
    assert split_pool(300, [(1, 100, 100), (2, 150, 150), (3, 50, 50)]) == {1: 100, 2: 150, 3: 50}


def test_a_pool_twice_the_claims_doubles_each_share():
    assert split_pool(600, [(1, 100, 100), (2, 200, 200)]) == {1: 200, 2: 400}


def test_the_remainder_goes_to_the_largest_claim_then_the_lowest_user_id():
    # 11 chips for claims 30/40/30: 3.3, 4.4, 3.3 -> 3 + 4 + 3, remainder 1 to the 40
    assert split_pool(11, [(5, 30, 30), (6, 40, 40), (7, 30, 30)]) == {5: 3, 6: 5, 7: 3}
    # equal claims, 10 chips: 3 + 3 + 3, the lowest user id gets the remainder
    assert split_pool(10, [(9, 30, 30), (4, 30, 30), (8, 30, 30)]) == {4: 4, 8: 3, 9: 3}


def test_settled_members_count_only_when_nobody_has_a_claim_left():
    assert split_pool(90, [(1, 0, 100), (2, 50, 50)]) == {2: 90}
    assert split_pool(90, [(1, 0, 100), (2, 0, 200)]) == {1: 30, 2: 60}


def test_an_empty_pool_returns_nothing():
    assert split_pool(0, [(1, 100, 100)]) == {}
    assert split_pool(0, []) == {}


@pytest.mark.parametrize(
    ("pool", "claims"),
    [(5, []), (5, [(1, 0, 0)]), (-1, [(1, 1, 1)]), (5, [(1, -1, 3)])],
    ids=["no-members", "nothing-escrowed", "negative-pool", "negative-claim"],
)
def test_impossible_pools_are_refused(pool, claims):
    with pytest.raises(ValueError):
        split_pool(pool, claims)


claims = st.lists(
    st.tuples(st.integers(0, 10**6), st.integers(0, 10**4), st.integers(0, 10**4)).map(
        lambda c: (c[0], c[1], c[1] + c[2])
    ),
    min_size=1,
    max_size=9,
    unique_by=lambda c: c[0],
).filter(lambda cs: any(escrowed for _, _, escrowed in cs))


@given(pool=st.integers(0, 10**7), claims=claims)
def test_exactly_the_pool_is_returned_to_its_members(pool, claims):
    shares = split_pool(pool, claims)
    assert sum(shares.values()) == pool
    assert all(share > 0 for share in shares.values())
    members = {user for user, _, _ in claims}
    assert set(shares) <= members
    open_claims = {user: outstanding for user, outstanding, _ in claims if outstanding}
    if open_claims:
        assert set(shares) <= set(open_claims)
        if pool == sum(open_claims.values()):
            assert shares == open_claims
