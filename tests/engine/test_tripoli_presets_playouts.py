"""Seeded random sessions of every preset of rules/tripoli.md §3.2, and of a few combinations.

Each session runs through ``play_session`` (conftest): chips conserved, 52 cards accounted
for, no leaked cards, snapshot round trip, ``to_act`` ⇔ options, stale and junk actions
refused, termination. The AI and uniformly random legal players both play every preset;
the events seen prove that each preset's own steps really happened.
"""

from __future__ import annotations

import pytest

from engine.tripoli.rules import PRESETS, make_rules

COMBINATIONS = {
    "rummoli+dealer-starts-betting": make_rules("rummoli", bet_opener="dealer"),
    "auction-pay-suit+left+seq-567": make_rules(
        "auction-pay-suit", michigan_leader="left", seq_ranks=5
    ),
    "italian+monte_once+other_suit": make_rules("italian", monte_once=True, next_lead="other_suit"),
    "italian-boodle+play": make_rules("italian-boodle", pay_collection="play"),
    "classic+spare_needs_no_pay_card": make_rules("classic", spare_needs_no_pay_card=True),
    "classic+no all-in": make_rules("classic", all_in=False),
    "cosmo+play": make_rules("cosmo", pay_collection="play"),
    "cadaco-box-rules (§3.8)": make_rules(
        "dutch", bet_opener="dealer", michigan_leader="dealer", first_lead="lowest_card"
    ),
    "italian-ghost-auction+boodle": make_rules(
        "italian-boodle", ghost_auction=True, starting_stack=20
    ),
}
ALL = PRESETS | COMBINATIONS

# events each rules value must produce in its sessions (beyond the common ones)
PROOF = {
    "rummoli": {"pay_taken"},
    "auction-pay-suit": {"pay_suit_named", "auction_sold"},
    "cosmo": {"dial_turned"},
    "italian": {"showdown", "pay_taken"},
    "italian-ghost-auction": {"auction_started", "auction_sold"},
    "italian-no-poker": {"went_out"},
    "dutch": {"auction_started"},
    "auction-pay-suit+left+seq-567": {"pay_suit_named"},
    "italian-boodle+play": {"pay_taken"},
    "cosmo+play": {"dial_turned", "pay_taken"},
}


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_preset_plays_whole_sessions(tri, name):
    rules = ALL[name]
    seen: set[str] = set()
    for k, n in enumerate([rules.min_players, 5, rules.max_players]):
        for policy in ("ai", "random"):
            seed = 1000 * k + (7 if policy == "ai" else 0) + len(name)
            _, events = tri.play_session(n, seed, policy, 2 + k % 2, k % 2 == 0, rules)
            kinds = [e.kind for e in events]
            seen |= set(kinds)
            deals = (
                kinds[: kinds.index("leftover_started")] if "leftover_started" in kinds else kinds
            )
            if rules.poker == "none":  # no poker before the leftover round
                assert not {"betting_started", "showdown", "selected"} & set(deals)
            if rules.pay_collection == "play":  # pay spaces only in Michigan
                assert all(
                    "michigan_started" in deals[:i] for i, k in enumerate(deals) if k == "pay_taken"
                )
            if not rules.all_in:  # nobody is ever all-in, so no side pots (§3.1, §4 item 7)
                assert not any(getattr(e, "all_in", False) for e in events)
                assert all(e.pot == 0 for e in events if e.kind == "pot_won")
    assert {"deal_started", "michigan_started", "session_over"} <= seen
    assert PROOF.get(name, set()) <= seen, PROOF[name] - seen
