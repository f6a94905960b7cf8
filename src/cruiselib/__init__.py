"""cruiselib: exact, fast rule engines for four ship-themed board and card games.

>>> import cruiselib
>>> game = cruiselib.make("sirens")
>>> state = game.new_state(seed=7)
>>> state.current_player in (0, 1)
True
"""

from __future__ import annotations

from cruiselib._api import Game, Playouts, State
from cruiselib._core import compiled
from cruiselib._registry import games, make, register
from cruiselib.errors import (
    CruiseError,
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidStateError,
    SearchCancelled,
)
from cruiselib.records import GameRecord, RecordResult, load_state, replay

__version__ = "0.1.0"

__all__ = [
    "CruiseError",
    "Game",
    "GameRecord",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidStateError",
    "Playouts",
    "RecordResult",
    "SearchCancelled",
    "State",
    "__version__",
    "compiled",
    "games",
    "load_state",
    "make",
    "register",
    "replay",
]
