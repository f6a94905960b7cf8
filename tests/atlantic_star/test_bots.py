"""The search bots on Atlantic Star: the score margin blended into the returns, and its rollout
policy's prior kept off a shortlist (tests/test_bots.py holds what every game shares)."""

from __future__ import annotations

import pytest

import cruiselib
from cruiselib._core import load, pure_module
from cruiselib.bots import (
    ISMCTSBot,
)
from tests.support import positions


def test_score_weight_blends_the_margin_into_the_returns() -> None:
    """With ``score_weight`` the means move off the win/loss grid: a random rollout's result
    counts its score margin too; both cores agree on it, and the weight is checked."""
    game = cruiselib.make("atlantic_star", players=3)
    state = positions(game, 1, 23, every=13)[1]
    module = load("ismcts")
    plain = module.Search(state, 1.0, True, True, 4, 101)
    plain.run(100)
    blended = module.Search(state, 1.0, True, True, 4, 101, 0.5)
    blended.run(100)
    assert plain.children() != blended.children()
    # Win/loss returns are +1/-1 (or 0 for a draw): each child's total is an integer.
    assert all(float(mean * visits).is_integer() for _, visits, _, mean in plain.children())
    assert not all(float(mean * visits).is_integer() for _, visits, _, mean in blended.children())
    pure = pure_module("ismcts").Search(game.pure_twin().load_state(state.to_json()), 1.0, True, True, 4, 101, 0.5)
    pure.run(100)
    assert pure.children() == blended.children()
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(cruiselib.InvalidOptionError, match="score_weight"):
            module.Search(state, 1.0, True, True, 4, 10, bad)
        with pytest.raises(cruiselib.InvalidOptionError, match="score_weight"):
            ISMCTSBot(score_weight=bad)


def test_a_favoured_move_or_prior_off_the_shortlist_is_never_tried() -> None:
    """The shortlist wins: a favoured move, or the rollout policy's prior, that the root may
    not weigh is neither expanded nor visited there."""
    game = cruiselib.make("atlantic_star", players=2)
    state = positions(game, 1, 47, every=5)[2]
    legal = state.legal_actions()
    prior = state.prior_action(0)
    assert len(legal) >= 4 and prior in legal
    shortlist = [a for a in legal if a != prior][:2]
    for favour in (True, False):
        tree = load("ismcts").Search(state, 1.0, True, True, 5, 61, 0.5, True, 50.0)
        tree.restrict(shortlist)
        if favour:
            tree.favour(prior, 100.0)
        tree.run(60)
        assert sorted(a for a, *_ in tree.children()) == sorted(shortlist)
