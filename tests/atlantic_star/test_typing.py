"""Atlantic Star's static types: mypy --strict checks this file, and pytest runs it, so each
assertion holds both for the checker and at run time (tests/test_typing.py holds the types
every game shares)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cruiselib
from cruiselib.atlantic_star import AtlanticStarGame, AtlanticStarState
from cruiselib.atlantic_star.moves import AtlanticStarMove

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:

    def assert_type(value: Any, _kind: Any) -> Any:
        return value


def test_make_returns_the_game_class_for_its_literal_name() -> None:
    assert isinstance(assert_type(cruiselib.make("atlantic_star"), AtlanticStarGame), AtlanticStarGame)


def test_states_and_moves_are_typed() -> None:
    star_state = assert_type(cruiselib.make("atlantic_star").new_state(1), AtlanticStarState)
    assert_type(star_state.legal_moves(), list[AtlanticStarMove])
