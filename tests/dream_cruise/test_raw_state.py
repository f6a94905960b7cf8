"""Dream Cruise: the one raw-state pair. The core's ``_get_raw()`` gives the full state as
plain values; ``dream_cruise_snapshot.set_raw`` writes such a dict into a core (what the
snapshot loader does after its checks). A state set from another's raw state is that state."""

from __future__ import annotations

import random

import pytest

from cruiselib import _core
from cruiselib.dream_cruise import DreamCruiseGame, DreamCruiseState

snapshot = _core.load("dream_cruise_snapshot")


def _played(game: DreamCruiseGame, seed: int) -> DreamCruiseState:
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 150)):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_set_raw_inverts_get_raw(players: int) -> None:
    game = DreamCruiseGame(players, additions=3)
    for seed in range(12):
        state = _played(game, seed)
        copy = DreamCruiseState(game.rules, game)
        snapshot.set_raw(copy, state._get_raw())
        assert copy._get_raw() == state._get_raw()
        assert copy._export() == state._export()
        assert copy.legal_actions() == state.legal_actions()
        assert copy.scores() == state.scores()
        assert (copy.observation(0) == state.observation(0)).all()
        if not state.is_over:  # and plays on the same
            action = state.legal_actions()[0]
            state.apply(action)
            copy.apply(action)
            assert copy._get_raw() == state._get_raw()


def test_a_loaded_state_is_set_by_the_same_setter() -> None:
    game = DreamCruiseGame(3)
    for seed in range(6):
        state = _played(game, seed)
        assert game.load_state(state.to_json())._get_raw() == {
            **state._get_raw(),
            # outside phase 3 a snapshot has no display: the sets taken last round are not kept
            **({} if state.phase == "entertainment" else {"taken": [-1] * game.rules.nsets}),
        }


def test_set_raw_refuses_counts_that_do_not_fit_the_arrays() -> None:
    game = DreamCruiseGame(2)
    state = game.new_state(seed=1)
    raw = state._get_raw()
    raw["family_deck"] = list(range(65))
    with pytest.raises(ValueError, match="not within"):
        snapshot.set_raw(DreamCruiseState(game.rules, game), raw)
