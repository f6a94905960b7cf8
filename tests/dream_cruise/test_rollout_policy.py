"""Dream Cruise's rollout policy (docs/dream_cruise.md, "Rollout policy"): a guest to an
activity in the sailing phase whenever one can go, and its prior. The contract every
game's policy keeps is in tests/test_rollout_policy.py."""

from __future__ import annotations

import cruiselib
from tests.support import POLICY_DRAWS, rollout_positions


def test_dream_cruise_policy() -> None:
    """In the sailing phase a guest goes to an activity whenever one can; otherwise the
    policy plans an activity card or ends the phase, never building or placing the captain."""
    game = cruiselib.make("dream_cruise", players=3)
    rules = game.rules
    placed = other = 0
    for state in rollout_positions(game, 4, 19):
        legal = state.legal_actions()
        placements = [a for a in legal if rules.a_place <= a < rules.a_plan]
        sailing = any(a == rules.a_done for a in legal)
        for r in [*POLICY_DRAWS, 9, 15]:
            a = state.rollout_action(r)
            if not sailing:
                continue
            if placements:
                assert a in placements
                placed += 1
            else:
                assert a == rules.a_done or rules.a_plan <= a < rules.a_build
                other += 1
    assert placed > 100 and other > 50


def test_dream_cruise_prior_is_a_placement_or_none() -> None:
    """Dream Cruise's prior is a guest placement where one is legal, and no preference
    (-1) everywhere else: outside the sailing phase and when only plans, builds, captains
    and the end of the phase are left."""
    game = cruiselib.make("dream_cruise", players=2)
    rules = game.rules
    seen = {"placement": 0, "none": 0}
    for state in rollout_positions(game, 3, 43):
        placements = [a for a in state.legal_actions() if rules.a_place <= a < rules.a_plan]
        for r in POLICY_DRAWS:
            a = state.prior_action(r)
            if placements and rules.a_done in state.legal_actions():
                assert a in placements
                seen["placement"] += 1
            else:
                assert a == -1
                seen["none"] += 1
    assert min(seen.values()) > 20
