"""Dream Cruise's static types: mypy --strict checks this file, and pytest runs it, so each
assertion holds both for the checker and at run time (tests/test_typing.py holds the types
every game shares)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cruiselib
from cruiselib.dream_cruise import DreamCruiseGame, DreamCruiseMove, DreamCruiseState, DreamCruiseView

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:

    def assert_type(value: Any, _kind: Any) -> Any:
        return value


def test_make_returns_the_game_class_for_its_literal_name() -> None:
    assert isinstance(assert_type(cruiselib.make("dream_cruise"), DreamCruiseGame), DreamCruiseGame)


def test_states_moves_and_views_are_typed() -> None:
    cruise_state = assert_type(cruiselib.make("dream_cruise", players=1).new_state(1), DreamCruiseState)
    assert_type(cruise_state.legal_moves(), list[DreamCruiseMove])
    assert_type(cruise_state.view(0), DreamCruiseView)
