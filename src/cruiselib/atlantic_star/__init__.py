"""Atlantic Star (2-6 players): charter ships, stage voyages, rank on the board.

>>> import cruiselib
>>> game = cruiselib.make("atlantic_star", players=4)
>>> state = game.new_state(seed=3)
>>> [str(m).split(" ")[0] for m in state.legal_moves()]
['refresh', 'charter', 'charter', 'charter', 'charter']
"""

from cruiselib.atlantic_star.game import AtlanticStarGame, AtlanticStarState
from cruiselib.atlantic_star.moves import AtlanticStarMove, Charter, Loan, Refresh, Voyage
from cruiselib.atlantic_star.position import AtlanticStarPosition
from cruiselib.atlantic_star.schema import (
    SCHEMA_VERSION,
    AtlanticStarStateData,
    AtlanticStarView,
    Plaque,
    SeaData,
)
from cruiselib.atlantic_star.ships import DEFAULT_BOARD, LEGS, SEAS, Entry, Ship, ShipList

__all__ = [
    "DEFAULT_BOARD",
    "LEGS",
    "SCHEMA_VERSION",
    "SEAS",
    "AtlanticStarGame",
    "AtlanticStarMove",
    "AtlanticStarPosition",
    "AtlanticStarState",
    "AtlanticStarStateData",
    "AtlanticStarView",
    "Charter",
    "Entry",
    "Loan",
    "Plaque",
    "Refresh",
    "SeaData",
    "Ship",
    "ShipList",
    "Voyage",
]
