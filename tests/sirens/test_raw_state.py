"""The raw-state pair: ``state._get_raw()`` (the full state as plain values) and
``sirens_snapshot.set_raw`` (the one way a full state is written into the core, which the
snapshot loader's sections use too) are inverses, and the bookkeeping set_raw derives is
what play keeps up to date."""

from __future__ import annotations

import random

import pytest

from cruiselib import _core
from cruiselib.sirens import SirensGame, SirensState

set_raw = _core.load("sirens_snapshot").set_raw


def _positions(game: SirensGame, seed: int) -> list[SirensState]:
    """Every position of one seeded random game (the crew and pick phases among them)."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    states = [state.clone()]
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


@pytest.mark.parametrize("variant", ["standard", "bow_to_rear"])
def test_set_raw_inverts_get_raw(variant: str) -> None:
    game = SirensGame(variant=variant)
    for seed in range(3):
        for state in _positions(game, seed):
            raw = state._get_raw()
            twin = SirensState(game.rules, game)
            set_raw(twin, raw)
            assert twin._get_raw() == raw
            assert twin._to_data() == state._to_data()  # the snapshot, without the history
            # What set_raw derives (sums, points, the crew choice, the fast path's
            # bookkeeping) is what play kept up to date.
            assert twin.legal_actions() == state.legal_actions() == twin._fast_legal()
            assert twin.scores() == state.scores()
            assert twin.observation(0).tolist() == state.observation(0).tolist()
            r = (seed + 1) * 0x9E3779B97F4A7C15 % 2**64
            if not state.is_over:
                assert twin.random_action(r) == state.random_action(r)


def test_the_loader_and_set_raw_agree() -> None:
    game = SirensGame(variant="bow_to_rear")
    for state in _positions(game, 7):
        loaded = game.load_state(state.to_json())
        twin = SirensState(game.rules, game)
        set_raw(twin, state._get_raw())
        assert loaded._get_raw() == twin._get_raw() == state._get_raw()
