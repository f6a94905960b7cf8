"""The raw-state pair: the core's ``_get_raw()`` and the snapshot module's ``set_raw``, the
one way a full state goes into a core (the loader ends with it too)."""

from __future__ import annotations

import random

import numpy as np

from cruiselib import _core
from tests.dream_islands.positions import all_positions, keeping_policy

snapshot = _core.load("dream_islands_snapshot")


def test_set_raw_puts_back_what_get_raw_gives_and_derives_the_rest() -> None:
    for g, state in all_positions(8, seed=5):
        raw = state._get_raw()
        copy = g._state_class(g.rules, g)
        snapshot.set_raw(copy, raw)
        assert copy._get_raw() == raw
        # The derived values (totals, packed counts, middle points, the end signal) are
        # right: the copy is the same position in every respect the API shows ...
        assert copy._export() == state._export()
        assert copy.end_triggered == state.end_triggered and copy.scores() == state.scores()
        assert copy.legal_actions() == state.legal_actions()
        for seat in range(g.num_players):
            assert copy.view(seat, recall=True) == state.view(seat, recall=True)
            assert np.array_equal(copy.information_state(seat), state.information_state(seat))
        # ... and plays on the same.
        rnd = random.Random(len(state.legal_actions()))
        for _ in range(30):
            if state.is_over:
                break
            action = keeping_policy(state, random.Random(rnd.random()))
            state.apply(action)
            copy.apply(action)
            assert copy._get_raw() == state._get_raw()
        assert copy.winners() == state.winners()


def test_the_loader_sets_what_the_snapshot_says() -> None:
    for g, state in all_positions(4, seed=6):
        assert g.load_state(state.to_json())._get_raw() == state._get_raw()
