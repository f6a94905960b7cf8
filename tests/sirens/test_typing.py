"""Sirens in Sight's static types: mypy --strict checks this file, and pytest runs it, so
each assertion holds both for the checker and at run time (tests/test_typing.py holds the
types every game shares)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np
import numpy.typing as npt

import cruiselib
from cruiselib.sirens import SirensGame, SirensState
from cruiselib.sirens.moves import SirensMove
from cruiselib.sirens.schema import SirensStateData

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:

    def assert_type(value: Any, _kind: Any) -> Any:
        return value


def test_make_returns_the_game_class_for_its_literal_name() -> None:
    assert isinstance(assert_type(cruiselib.make("sirens"), SirensGame), SirensGame)


def test_states_moves_and_snapshots_are_typed() -> None:
    game = cruiselib.make("sirens")
    state = assert_type(game.new_state(1), SirensState)
    moves = assert_type(state.legal_moves(), list[SirensMove])
    state.apply(moves[0])  # a move ...
    state.apply(state.legal_actions()[0])  # ... or an action id
    assert_type(game.action_to_move(0), SirensMove)
    data = assert_type(state.to_data(), SirensStateData)
    assert isinstance(data, msgspec.Struct)
    obs = state.observation(0)
    assert_type(obs, npt.NDArray[np.float32])
