"""Serialized forms of Sirens in Sight: the full state and a seat's view (msgspec Structs).

The full state is everything, hidden cards and generator state included; it is what
``to_json``/``to_msgpack`` write and ``load_state`` reads. The view is what one seat may
see. Both have JSON Schemas (``game.json_schemas()``).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

__all__ = ["SCHEMA_VERSION", "CardInfo", "CrewInfo", "Pending", "ShipInfo", "SirensStateData", "SirensView"]

SCHEMA_VERSION = 1

Seat = Annotated[int, Meta(ge=0, le=1)]
CardId = Annotated[int, Meta(ge=0, le=63, description="index into the card set's card list")]
Variant = Literal["standard", "bow_to_rear"]
Phase = Literal["pick", "main", "after", "crew", "over"]


class Pending(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A placement waiting for the side owner's crew decision (S5 step 2)."""

    ship: Annotated[int, Meta(ge=0, le=4, description="ship index the card went to")]
    side: Seat
    source: Annotated[int, Meta(ge=-1, le=4, description="octopus source ship, -1 for a play")]
    draw: bool


class SirensStateData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The complete state of a Sirens in Sight game (schema version 1)."""

    schema_version: int
    game: Literal["sirens"]
    variant: Variant
    card_set: Annotated[str, Meta(description="fingerprint of the card set the ids refer to")]
    rng: Annotated[int, Meta(ge=0, description="splitmix64 generator state (64-bit unsigned)")]
    phase: Phase
    start_player: Seat
    turn: Seat
    current_player: Annotated[int, Meta(ge=-1, le=1)]
    hands: Annotated[list[Annotated[list[CardId], Meta(max_length=4)]], Meta(min_length=2, max_length=2)]
    piles: Annotated[
        list[list[CardId]],
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
        list[Annotated[int, Meta(ge=-1, le=63)]],
        Meta(min_length=2, max_length=2, description="per seat: -1 held, else the id of the card it sits on"),
    ]
    removed: list[CardId]
    passes: Annotated[int, Meta(ge=0, le=1)]
    picks: Annotated[list[Annotated[int, Meta(ge=0, le=4)]], Meta(min_length=2, max_length=2)]
    pick_floor: Annotated[list[Annotated[int, Meta(ge=0, le=31)]], Meta(min_length=2, max_length=2)]
    pending: Pending | None = None


class CardInfo(msgspec.Struct, frozen=True):
    """A visible card."""

    id: int
    value: int
    crew: bool
    emblem: str
    octopus: int | None = None  # seat whose octopus sits on it


class CrewInfo(msgspec.Struct, frozen=True):
    name: Literal["captain", "mate"]
    ship: int | None  # printed value of the ship card it stands on
    owner: int | None  # seat that won it
    removed: bool


class ShipInfo(msgspec.Struct, frozen=True):
    value: int
    in_play: bool
    owner: int | None
    removed: bool
    rum: int
    threshold: int
    crew: list[str]
    sides: list[list[CardInfo]]
    totals: list[int]


class SirensView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat may see (S9: in the variant, the own remaining cards, not their order)."""

    game: Literal["sirens"] = "sirens"
    player: int
    variant: Variant
    phase: Phase
    current_player: int
    turn_player: int
    hand: list[CardInfo]
    hand_sizes: list[int]
    pile_sizes: list[int]
    own_pile: list[CardInfo] | None
    ships: list[ShipInfo]
    crew: list[CrewInfo]
    points: list[int]
    rum_held: list[bool]
    octopus_held: list[bool]
    removed: list[CardInfo]
    crew_choice: list[int] | None
    passes: int
    picks: list[int]
    legal_actions: list[int]
