"""Giving back an orphaned escrow pool (bot.store.escrow.exact_claims), without a database."""

from __future__ import annotations

import pytest

from bot.store.escrow import exact_claims


def test_each_member_gets_back_exactly_what_they_put_in():
    assert exact_claims(300, [(2, 150), (1, 100), (3, 50)]) == {1: 100, 2: 150, 3: 50}


def test_settled_members_get_nothing_more():
    assert exact_claims(100, [(1, 100), (2, 0)]) == {1: 100}
    assert exact_claims(0, [(1, 0), (2, 0)]) == {}


@pytest.mark.parametrize("pool", [99, 101, 0])
def test_a_pool_that_does_not_add_up_is_refused(pool):
    with pytest.raises(ValueError, match="add up"):
        exact_claims(pool, [(1, 60), (2, 40)])


def test_negative_claims_are_refused():
    with pytest.raises(ValueError, match="negative"):
        exact_claims(10, [(1, 20), (2, -10)])
