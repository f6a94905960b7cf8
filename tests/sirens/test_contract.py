"""The compiled game contract on Sirens in Sight: its enum constants as its .pxd declares
them, and the pure twin of a state subclass (tests/test_contract.py holds what every game
shares)."""

from __future__ import annotations

from typing import Any

import cruiselib
from cruiselib._core import constants


def test_the_enum_constants_hold_the_standard_set() -> None:
    assert constants.enum_constants("sirens")["NSHIP"] == len(cruiselib.make("sirens").cards.ships) == 5


def test_the_pure_twin_of_a_state_subclass_keeps_its_methods() -> None:
    from cruiselib.sirens import SirensState

    game = cruiselib.make("sirens")

    class Annotated(SirensState):
        __slots__ = ()

        def note(self) -> str:
            return f"seat {self.current_player} to move"

    game._state_class = Annotated
    twin = game.pure_twin()
    state: Any = twin.new_state(seed=3)
    original: Any = game.new_state(seed=3)
    assert type(state).__name__ == "Annotated" and type(state) is not Annotated
    assert state.note() == original.note() == "seat 1 to move"
