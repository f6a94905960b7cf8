"""Pickles: those made before the game-independent API was split into modules name its
functions by the old module, ``cruiselib._api``, and still load; a game's pure twin never
changes the games that unpickling hands out."""

from __future__ import annotations

import pickle

import pytest

import cruiselib
from cruiselib._registry import game_class

# What pickle.dumps(state, protocol=0) writes for the two functions: now (the module that
# defines each) and before the split.
NEW_TO_OLD = {
    b"ccruiselib._state\n_restore_state\n": b"ccruiselib._api\n_restore_state\n",
    b"ccruiselib._game\n_make_game\n": b"ccruiselib._api\n_make_game\n",
}


@pytest.mark.parametrize("name", cruiselib.games())
def test_a_pickle_naming_the_old_module_loads(name: str) -> None:
    game = cruiselib.make(name, **game_class(name).example_configurations[-1])
    state = game.new_state(5)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    data = pickle.dumps(state, protocol=0)
    for new, old in NEW_TO_OLD.items():
        assert new in data
        data = data.replace(new, old)
    loaded = pickle.loads(data)
    assert loaded == state
    assert loaded.history == state.history
    assert type(loaded) is type(state)


@pytest.mark.skipif(not cruiselib.compiled, reason="needs the compiled core beside the pure one")
@pytest.mark.parametrize("name", cruiselib.games())
def test_a_pure_twin_leaves_unpickled_games_on_the_compiled_core(name: str) -> None:
    game = cruiselib.make(name)
    state = game.new_state(3)
    compiled_class = type(pickle.loads(pickle.dumps(state)))  # the game cached for unpickling
    twin = game.pure_twin()
    for original in (state, twin.new_state(3)):
        loaded = pickle.loads(pickle.dumps(original))
        assert type(loaded) is compiled_class is type(state)
        assert loaded == original
    assert type(pickle.loads(pickle.dumps(twin)).new_state(3)) is type(state)
