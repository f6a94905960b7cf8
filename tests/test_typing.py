"""The public API's static types: mypy --strict checks this file (CI runs it over tests/),
and pytest runs it, so each assertion holds both for the checker and at run time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np
import numpy.typing as npt

import cruiselib
from cruiselib.atlantic_star import AtlanticStarGame, AtlanticStarState
from cruiselib.atlantic_star.moves import AtlanticStarMove
from cruiselib.dream_cruise import DreamCruiseGame, DreamCruiseMove, DreamCruiseState, DreamCruiseView
from cruiselib.dream_islands import DreamIslandsGame, DreamIslandsState
from cruiselib.dream_islands.moves import DreamIslandsMove
from cruiselib.sirens import SirensGame, SirensState
from cruiselib.sirens.moves import SirensMove
from cruiselib.sirens.schema import SirensStateData

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:

    def assert_type(value: Any, _kind: Any) -> Any:
        return value


def test_make_returns_the_game_class_for_a_literal_name() -> None:
    sirens = assert_type(cruiselib.make("sirens"), SirensGame)
    islands = assert_type(cruiselib.make("dream_islands"), DreamIslandsGame)
    star = assert_type(cruiselib.make("atlantic_star"), AtlanticStarGame)
    cruise = assert_type(cruiselib.make("dream_cruise"), DreamCruiseGame)
    assert isinstance(sirens, SirensGame) and isinstance(islands, DreamIslandsGame)
    assert isinstance(star, AtlanticStarGame) and isinstance(cruise, DreamCruiseGame)
    name: str = "sirens"
    any_game = cruiselib.make(name)  # a plain str still type-checks
    assert isinstance(any_game, cruiselib.Game)


def test_states_moves_and_snapshots_are_typed_per_game() -> None:
    game = cruiselib.make("sirens")
    state = assert_type(game.new_state(1), SirensState)
    moves = assert_type(state.legal_moves(), list[SirensMove])
    state.apply(moves[0])  # a move ...
    state.apply(state.legal_actions()[0])  # ... or an action id
    assert_type(game.action_to_move(0), SirensMove)
    data = assert_type(state.to_data(), SirensStateData)
    assert isinstance(data, msgspec.Struct)
    assert_type(cruiselib.make("dream_islands").new_state(1), DreamIslandsState)
    assert_type(cruiselib.make("dream_islands").new_state(1).legal_moves(), list[DreamIslandsMove])
    star_state = assert_type(cruiselib.make("atlantic_star").new_state(1), AtlanticStarState)
    assert_type(star_state.legal_moves(), list[AtlanticStarMove])
    cruise_state = assert_type(cruiselib.make("dream_cruise", players=1).new_state(1), DreamCruiseState)
    assert_type(cruise_state.legal_moves(), list[DreamCruiseMove])
    assert_type(cruise_state.view(0), DreamCruiseView)
    obs = state.observation(0)
    assert_type(obs, npt.NDArray[np.float32])


def test_the_api_module_still_exports_what_the_game_packages_import() -> None:
    # Game and State live in modules of their own; cruiselib._api re-exports them (mypy
    # --strict refuses an import of a name a module does not export).
    from cruiselib import _api

    assert _api.Game is cruiselib.Game and _api.State is cruiselib.State and _api.Playouts is cruiselib.Playouts
    assert_type(_api.normalize_move_text("Play  the 3★"), str)
    assert _api.normalize_move_text("Play  the 3★") == "play 3*"
    template: _api.NotationTemplate = ("play ", ("3*", "3"))
    assert len(template) == 2 and _api.MAX_PLAYOUTS > 0
    playouts = assert_type(cruiselib.make(cruiselib.games()[0]).playouts(2, seed=1), cruiselib.Playouts)
    assert isinstance(playouts, _api.Playouts) and playouts.games == 2
