"""Dream Islands' static types: mypy --strict checks this file, and pytest runs it, so each
assertion holds both for the checker and at run time (tests/test_typing.py holds the types
every game shares)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cruiselib
from cruiselib.dream_islands import DreamIslandsGame, DreamIslandsState
from cruiselib.dream_islands.moves import DreamIslandsMove

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:

    def assert_type(value: Any, _kind: Any) -> Any:
        return value


def test_make_returns_the_game_class_for_its_literal_name() -> None:
    assert isinstance(assert_type(cruiselib.make("dream_islands"), DreamIslandsGame), DreamIslandsGame)


def test_states_and_moves_are_typed() -> None:
    assert_type(cruiselib.make("dream_islands").new_state(1), DreamIslandsState)
    assert_type(cruiselib.make("dream_islands").new_state(1).legal_moves(), list[DreamIslandsMove])
