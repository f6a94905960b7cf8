"""The contract's rollout policy (``rollout_action``, ``prior_action``): legal everywhere,
the same on both cores, uniformly random where a game has no policy, and what a search
does with it. What each game's policy promises is tested in the game's folder
(tests/<game>/test_rollout_policy.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cruiselib
from cruiselib._core import load, pure_module
from cruiselib.bots import ISMCTSBot

from .support import (
    CONFIGURATION_IDS,
    CONFIGURATIONS,
    MASK64,
    POLICY_DRAWS,
    has_rollout_policy,
    rollout_positions,
)

NO_POLICY = [name for name in cruiselib.games() if not has_rollout_policy(name)]


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_rollout_action_is_legal_and_both_cores_agree(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    twin = game.pure_twin()
    rnd = random.Random(3)
    for k, state in enumerate(rollout_positions(game, 4, 5)):
        legal = set(state.legal_actions())
        draws = [rnd.getrandbits(64) for _ in range(4)]
        chosen = [state.rollout_action(r) for r in draws]
        assert set(chosen) <= legal
        if k % 9 == 0:
            pure = twin.load_state(state.to_json())
            assert [pure.rollout_action(r) for r in draws] == chosen
    over = state.clone()
    while not over.is_over:
        over.apply(over.rollout_action(7))
    with pytest.raises(cruiselib.IllegalMoveError, match="over"):
        over.rollout_action(7)


@pytest.mark.parametrize("name", NO_POLICY)
def test_without_a_policy_the_rollout_is_the_random_playout(name: str) -> None:
    game = cruiselib.make(name)
    for state in rollout_positions(game, 2, 8)[::5]:
        for r in [*POLICY_DRAWS, 0, 8, MASK64]:
            assert state.rollout_action(r) == state.random_action(r)


def test_search_rolls_out_with_the_policy_unless_told_not_to() -> None:
    """``policy`` changes the search only where the game has a policy; the two cores build
    the same tree with it."""
    module = load("ismcts")
    for name in cruiselib.games():
        differs = has_rollout_policy(name)
        game = cruiselib.make(name)
        state = rollout_positions(game, 1, 29)[6]
        with_policy = module.Search(state, 1.0, True, True, 4, 201)
        with_policy.run(200)
        random_rollouts = module.Search(state, 1.0, True, True, 4, 201, 0.0, False)
        random_rollouts.run(200)
        assert with_policy.policy and not random_rollouts.policy
        assert (with_policy.children() != random_rollouts.children()) == differs
        pure = pure_module("ismcts").Search(game.pure_twin().load_state(state.to_json()), 1.0, True, True, 4, 201)
        pure.run(200)
        assert pure.children() == with_policy.children()


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_prior_action_is_the_policy_without_its_random_moves(name: str, options: dict[str, Any]) -> None:
    """``prior_action`` is legal or -1, agrees on both cores, is -1 throughout a game without
    a policy, and is the rollout's choice whenever the rollout takes the policy's own move."""
    game = cruiselib.make(name, **options)
    twin = game.pure_twin()
    has_policy = has_rollout_policy(name)
    preferred = 0
    for k, state in enumerate(rollout_positions(game, 3, 41)):
        legal = set(state.legal_actions())
        priors = [state.prior_action(r) for r in POLICY_DRAWS]
        for r, a in zip(POLICY_DRAWS, priors, strict=True):
            if not has_policy:
                assert a == -1
            elif a >= 0:
                assert a in legal
                assert state.rollout_action(r) == a
                preferred += 1
        if k % 7 == 0:
            pure = twin.load_state(state.to_json())
            assert [pure.prior_action(r) for r in POLICY_DRAWS] == priors
    assert (preferred > 0) == has_policy
    while not state.is_over:
        state.apply(state.rollout_action(3))
    with pytest.raises(cruiselib.IllegalMoveError, match="over"):
        state.prior_action(3)


def test_the_prior_biases_the_search_only_where_a_game_has_a_policy() -> None:
    """``prior_weight`` leaves a game without a policy searched exactly as before (the same
    tree); where a game has one it changes the tree; both cores build the same tree with
    it; a weight below 0, NaN or infinite is refused (tests/atlantic_star checks that the
    bias puts more visits on the policy's move)."""
    module = load("ismcts")
    # A prior may draw from the random value (Dream Cruise's: a random placement): both
    # cores must draw the same one, deep in the tree too.
    for name in cruiselib.games():
        differs = has_rollout_policy(name)
        game = cruiselib.make(name)
        state = rollout_positions(game, 1, 29)[6]
        plain = module.Search(state, 1.0, True, True, 4, 401)
        plain.run(400)
        biased = module.Search(state, 1.0, True, True, 4, 401, 0.0, True, 8.0)
        biased.run(400)
        assert biased.prior_weight == 8.0
        assert (biased.children() != plain.children()) == differs
        if cruiselib.compiled:  # in the pure run both searches above are the pure one already
            pure = pure_module("ismcts").Search(
                game.pure_twin().load_state(state.to_json()), 1.0, True, True, 4, 401, 0.0, True, 8.0
            )
            pure.run(400)
            assert pure.children() == biased.children()
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(cruiselib.InvalidOptionError, match="prior_weight"):
            module.Search(state, 1.0, True, True, 4, 401, 0.0, True, bad)
        with pytest.raises(cruiselib.InvalidOptionError, match="prior_weight"):
            ISMCTSBot(iterations=10, prior_weight=bad)
