"""The public API's static types: mypy --strict checks this file (CI runs it over tests/),
and pytest runs it, so each assertion holds both for the checker and at run time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

import cruiselib
from tests.support import ANY_GAME

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:

    def assert_type(value: Any, _kind: Any) -> Any:
        return value


def test_make_of_a_plain_str_is_a_game() -> None:
    """``make`` of a name not known to the checker (a plain str) still type-checks, as a
    Game; each game's own tests/<game>/test_typing.py checks its literal name's types."""
    name: str = ANY_GAME
    any_game = assert_type(cruiselib.make(name), cruiselib.Game[cruiselib.State[Any, Any, Any], Any])
    assert isinstance(any_game, cruiselib.Game)
    state = any_game.new_state(1)
    assert_type(state.observation(0), npt.NDArray[np.float32])


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
