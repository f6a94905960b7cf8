"""Dream Islands (2-4 players): cover a number, move pieces, complete missions, exchange.

>>> import cruiselib
>>> game = cruiselib.make("dream_islands", players=3)
>>> state = game.new_state(seed=3)
>>> str(state.legal_moves()[0])
'cover 2: 1 piece island 1→3'
"""

from cruiselib.dream_islands.game import DreamIslandsGame, DreamIslandsState, paths_of_flow
from cruiselib.dream_islands.moves import (
    AIRPLANE,
    MIDDLE,
    MISSIONS,
    Cover,
    Draw,
    DreamIslandsMove,
    Path,
    PutUnder,
    mission_name,
    place_name,
)
from cruiselib.dream_islands.position import DreamIslandsPosition
from cruiselib.dream_islands.schema import (
    ROUND_CAP,
    SCHEMA_VERSION,
    DreamIslandsStateData,
    DreamIslandsView,
    HandMemory,
    SeatInfo,
)

__all__ = [
    "AIRPLANE",
    "MIDDLE",
    "MISSIONS",
    "ROUND_CAP",
    "SCHEMA_VERSION",
    "Cover",
    "Draw",
    "DreamIslandsGame",
    "DreamIslandsMove",
    "DreamIslandsPosition",
    "DreamIslandsState",
    "DreamIslandsStateData",
    "DreamIslandsView",
    "HandMemory",
    "Path",
    "PutUnder",
    "SeatInfo",
    "mission_name",
    "paths_of_flow",
    "place_name",
]
