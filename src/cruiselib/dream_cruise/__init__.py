"""Dream Cruise (1-4 players; 1: solo against Jana): board families, send their guests to
activities, satisfy them, sail routes.

>>> import cruiselib
>>> game = cruiselib.make("dream_cruise", players=2)
>>> state = game.new_state(seed=1)
>>> state.phase
'set_course'
"""

from cruiselib.dream_cruise.cards import (
    CABINS,
    REGION_NAMES,
    REGIONS,
    TYPE_NAMES,
    TYPES,
    Activity,
    CardSet,
    Family,
    Location,
    ShipCard,
)
from cruiselib.dream_cruise.game import DreamCruiseGame, DreamCruiseState
from cruiselib.dream_cruise.moves import (
    SPOT_NAMES,
    Board,
    Build,
    Captain,
    Done,
    DreamCruiseMove,
    Keep,
    Place,
    Plan,
    Take,
    spot_name,
)
from cruiselib.dream_cruise.position import DreamCruisePosition
from cruiselib.dream_cruise.schema import (
    SCHEMA_VERSION,
    CurrentLocation,
    DisplaySet,
    DreamCruiseStateData,
    DreamCruiseView,
    JanaView,
    SeatData,
    SeatView,
    SetData,
)

__all__ = [
    "CABINS",
    "REGIONS",
    "REGION_NAMES",
    "SCHEMA_VERSION",
    "SPOT_NAMES",
    "TYPES",
    "TYPE_NAMES",
    "Activity",
    "Board",
    "Build",
    "Captain",
    "CardSet",
    "CurrentLocation",
    "DisplaySet",
    "Done",
    "DreamCruiseGame",
    "DreamCruiseMove",
    "DreamCruisePosition",
    "DreamCruiseState",
    "DreamCruiseStateData",
    "DreamCruiseView",
    "Family",
    "JanaView",
    "Keep",
    "Location",
    "Place",
    "Plan",
    "SeatData",
    "SeatView",
    "SetData",
    "ShipCard",
    "Take",
    "spot_name",
]
