"""Observation bounds (``Game.observation_bounds`` / ``information_state_bounds``): every
registered game declares a range for every field of its tensors, and random games of every
configuration, on the compiled and the pure-Python core, never leave them."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cruiselib
from cruiselib.testing import ConformanceError, check_bounds
from tests.support import configuration_id, every_configuration

CONFIGURATIONS = every_configuration()
IDS = [configuration_id(name, options) for name, options in CONFIGURATIONS]


def _play_checked(game: Any, games: int, seed: int) -> int:
    """Play ``games`` games (even ones by the game's rollout policy, odd ones uniformly at
    random), checking every seat's two tensors at every step; the steps checked."""
    rnd = random.Random(seed)
    steps = 0
    for g in range(games):
        game_seed = seed * 1_000 + g
        state = game.new_state(seed=game_seed)
        while True:
            check_bounds(game, state, where=f"{game!r}, game seed {game_seed}, step {steps}")
            steps += 1
            if state.is_over:
                break
            if g % 2 == 0:
                state.apply(int(state.rollout_action(rnd.getrandbits(64))))
            else:
                state.apply(rnd.choice(state.legal_actions()))
    return steps


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_every_field_has_finite_bounds_of_the_tensors_shape(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    for shape, (low, high) in (
        (game.observation_shape, game.observation_bounds()),
        (game.information_state_shape, game.information_state_bounds()),
    ):
        assert low.dtype == high.dtype == np.float32
        assert low.shape == high.shape == shape
        assert np.isfinite(low).all() and np.isfinite(high).all()
        assert (low <= high).all()
        assert not low.flags.writeable and not high.flags.writeable
    # Made once per game: the same arrays each call.
    assert game.observation_bounds()[0] is game.observation_bounds()[0]
    assert game.information_state_bounds()[1] is game.information_state_bounds()[1]


@pytest.mark.parametrize("core", ["compiled", "pure"])
@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_random_games_stay_within_bounds(name: str, options: dict[str, Any], core: str) -> None:
    game = cruiselib.make(name, **options)
    if core == "pure":
        game = game.pure_twin()
    assert _play_checked(game, 4 if core == "compiled" else 2, seed=1) > 0


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_long_sweep_stays_within_bounds(name: str, options: dict[str, Any]) -> None:
    _play_checked(cruiselib.make(name, **options), 300, seed=7)
