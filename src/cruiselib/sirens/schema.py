"""Serialized forms of Sirens in Sight: the full state and a seat's view (msgspec Structs).

The full state is everything, hidden cards and generator state included; it is what
``to_json``/``to_msgpack`` write and ``load_state`` reads. The view is what one seat may
see. Both have JSON Schemas (``game.json_schemas()``).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from cruiselib.serialize import Deal, History, RngText, rng_to_text
from cruiselib.sirens.cards import MAX_CARDS, MAX_FACES, MAX_SHIP, MAX_VALUE, MIN_CARDS

__all__ = [
    "SCHEMA_VERSION",
    "CardInfo",
    "CrewInfo",
    "Pending",
    "ShipInfo",
    "SirensStateData",
    "SirensView",
    "rng_to_text",
]

SCHEMA_VERSION = 2
"""Version 2: the generator state is hex text (:data:`cruiselib.serialize.RngText`) and a
game ended by two passes records ``passes = 2``; version 1 states load through
``SirensGame.schema_migrations``."""

# Integer ranges are the ones the rules allow, and all fit the core's C ``int`` fields.
# A card set has at most 64 cards (ids 0..63) and 32 faces; it deals 2 hands of 4 (S3),
# so a draw pile holds at most 64 - 8 = 56 cards. A side holds at most 5 cards (S5), so a
# ship card takes at most 10 cards out of play. Card values are -99..99 and ship values
# 1..999 (cards.py), so a side totals -495..495 and a threshold (+3 per rum mug) at most
# 1005. The game ends as soon as a seat has 4 points (S8) and a scored ship card brings
# at most 2 (itself and one crew token: the tokens never share a ship card), so a seat has
# at most 5 (an octopus move scores its source only if its destination left both below
# 4). Action ids stay below 111 * 32 + 12 = 3564.
MAX_PILE = MAX_CARDS - MIN_CARDS
MAX_TOTAL = 5 * MAX_VALUE
MAX_THRESHOLD = MAX_SHIP + 2 * 3
MAX_ACTIONS = 111 * MAX_FACES + 12
Seat = Annotated[int, Meta(ge=0, le=1)]
CardId = Annotated[int, Meta(ge=0, le=MAX_CARDS - 1, description="index into the card set's card list")]
CardValue = Annotated[int, Meta(ge=-MAX_VALUE, le=MAX_VALUE)]
ShipValue = Annotated[int, Meta(ge=1, le=MAX_SHIP, description="printed value of a ship card")]
Points = Annotated[int, Meta(ge=0, le=5)]
Variant = Literal["standard", "bow_to_rear"]
Phase = Literal["pick", "main", "after", "crew", "over"]
Emblem = Literal["seastar", "shell"]


class Pending(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A placement waiting for the side owner's crew decision (S5 step 2)."""

    ship: Annotated[int, Meta(ge=0, le=4, description="ship index the card went to")]
    side: Seat
    source: Annotated[int, Meta(ge=-1, le=4, description="octopus source ship, -1 for a play")]
    draw: bool


class SirensStateData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The complete state of a Sirens in Sight game (schema version 2)."""

    schema_version: Literal[2]
    game: Literal["sirens"]
    variant: Variant
    card_set: Annotated[str, Meta(description="fingerprint of the card set the ids refer to")]
    rng: RngText
    phase: Phase
    start_player: Seat
    turn: Seat
    current_player: Annotated[int, Meta(ge=-1, le=1)]
    hands: Annotated[list[Annotated[list[CardId], Meta(max_length=4)]], Meta(min_length=2, max_length=2)]
    piles: Annotated[
        list[Annotated[list[CardId], Meta(max_length=MAX_PILE)]],
        Meta(
            min_length=1,
            max_length=2,
            description="draw piles, bottom first; one shared pile, or one per seat in the variant",
        ),
    ]
    sides: Annotated[
        list[Annotated[list[Annotated[list[CardId], Meta(max_length=5)]], Meta(min_length=2, max_length=2)]],
        Meta(min_length=5, max_length=5, description="per ship (bow to rear), per seat: the cards on that seat's side"),
    ]
    ships: Annotated[
        list[Annotated[int, Meta(ge=-1, le=2)]],
        Meta(min_length=5, max_length=5, description="-1 in play, 0/1 won by that seat, 2 removed after a tie"),
    ]
    rum: Annotated[
        list[Annotated[int, Meta(ge=-2, le=4)]],
        Meta(min_length=2, max_length=2, description="per seat: -1 held, -2 used and gone, 0..4 on that ship"),
    ]
    crew: Annotated[
        list[Annotated[int, Meta(ge=0, le=7)]],
        Meta(
            min_length=2, max_length=2, description="captain, mate: 0..4 on that ship, 5/6 won by seat 0/1, 7 removed"
        ),
    ]
    octopus: Annotated[
        list[Annotated[int, Meta(ge=-1, le=MAX_CARDS - 1)]],
        Meta(min_length=2, max_length=2, description="per seat: -1 held, else the id of the card it sits on"),
    ]
    removed: Annotated[list[CardId], Meta(max_length=MAX_CARDS, description="cards out of play, in removal order")]
    passes: Annotated[
        int, Meta(ge=0, le=2, description="consecutive passes (S4, S17); 2 once two passes ended the game")
    ]
    picks: Annotated[list[Annotated[int, Meta(ge=0, le=4)]], Meta(min_length=2, max_length=2)]
    pick_floor: Annotated[
        list[Annotated[int, Meta(ge=0, le=MAX_FACES - 1)]],
        Meta(min_length=2, max_length=2, description="per seat: the face of its last pick (S14)"),
    ]
    pending: Pending | None = None
    deal: Annotated[Deal | None, Meta(description="how the game began; None: the history starts here")] = None
    history: History = []


class CardInfo(msgspec.Struct, frozen=True):
    """A visible card."""

    id: CardId
    value: CardValue
    crew: bool
    emblem: Emblem
    octopus: Seat | None = None  # seat whose octopus sits on it


class CrewInfo(msgspec.Struct, frozen=True):
    name: Literal["captain", "mate"]
    ship: ShipValue | None  # printed value of the ship card it stands on
    owner: Seat | None  # seat that won it
    removed: bool


class ShipInfo(msgspec.Struct, frozen=True):
    value: ShipValue
    in_play: bool
    owner: Seat | None
    removed: bool
    rum: Annotated[int, Meta(ge=0, le=2, description="rum mugs on it")]
    threshold: Annotated[int, Meta(ge=1, le=MAX_THRESHOLD, description="printed value + 3 per rum mug (S6)")]
    crew: Annotated[list[Literal["captain", "mate"]], Meta(max_length=2)]
    sides: Annotated[list[Annotated[list[CardInfo], Meta(max_length=5)]], Meta(min_length=2, max_length=2)]
    totals: Annotated[list[Annotated[int, Meta(ge=-MAX_TOTAL, le=MAX_TOTAL)]], Meta(min_length=2, max_length=2)]


class SirensView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat may see (S9: in the variant, the own remaining cards, not their order)."""

    game: Literal["sirens"] = "sirens"
    player: Seat
    variant: Variant
    phase: Phase
    current_player: Annotated[int, Meta(ge=-1, le=1)]
    turn_player: Seat
    hand: Annotated[list[CardInfo], Meta(max_length=4)]
    hand_sizes: Annotated[list[Annotated[int, Meta(ge=0, le=4)]], Meta(min_length=2, max_length=2)]
    pile_sizes: Annotated[list[Annotated[int, Meta(ge=0, le=MAX_PILE)]], Meta(min_length=1, max_length=2)]
    own_pile: Annotated[list[CardInfo], Meta(max_length=MAX_PILE)] | None
    ships: Annotated[list[ShipInfo], Meta(min_length=5, max_length=5)]
    crew: Annotated[list[CrewInfo], Meta(min_length=2, max_length=2)]
    points: Annotated[list[Points], Meta(min_length=2, max_length=2)]
    rum_held: Annotated[list[bool], Meta(min_length=2, max_length=2)]
    octopus_held: Annotated[list[bool], Meta(min_length=2, max_length=2)]
    removed: Annotated[list[CardInfo], Meta(max_length=MAX_CARDS)]
    crew_choice: Annotated[list[ShipValue], Meta(min_length=2, max_length=2)] | None
    passes: Annotated[int, Meta(ge=0, le=2)]
    picks: Annotated[list[Annotated[int, Meta(ge=0, le=4)]], Meta(min_length=2, max_length=2)]
    legal_actions: Annotated[list[Annotated[int, Meta(ge=0, le=MAX_ACTIONS - 1)]], Meta(max_length=512)]
