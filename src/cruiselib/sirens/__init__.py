"""Sirens in Sight (2 players): play and draw, octopus, rum mug, crew, the "bow to rear" variant.

>>> import cruiselib
>>> game = cruiselib.make("sirens", variant="bow_to_rear")
>>> state = game.new_state(seed=3)
>>> str(state.legal_moves()[0])
'pick -4⚓'
"""

from cruiselib.sirens.cards import Card, CardSet, Face
from cruiselib.sirens.game import VARIANTS, SirensGame, SirensState
from cruiselib.sirens.moves import EndTurn, MoveCard, MoveCrew, Pass, PickCard, PlayCard, SirensMove, UseRum
from cruiselib.sirens.position import SirensPosition
from cruiselib.sirens.schema import SCHEMA_VERSION, SirensStateData, SirensView

__all__ = [
    "SCHEMA_VERSION",
    "VARIANTS",
    "Card",
    "CardSet",
    "EndTurn",
    "Face",
    "MoveCard",
    "MoveCrew",
    "Pass",
    "PickCard",
    "PlayCard",
    "SirensGame",
    "SirensMove",
    "SirensPosition",
    "SirensState",
    "SirensStateData",
    "SirensView",
    "UseRum",
]
