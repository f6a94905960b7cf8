"""Serialized forms of Atlantic Star: the full state and a seat's view (msgspec Structs).

The full state is everything, hidden cards and generator state included; it is what
``to_json``/``to_msgpack`` write and ``load_state`` reads. Money is in marks. The view is
what one seat may see: money, loans, the board, the agency and the discard pile are
public; hands are hidden (sizes only), the pack's order is hidden (size only).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from cruiselib.atlantic_star.ships import SeaName

__all__ = [
    "SCHEMA_VERSION",
    "AgencyInfo",
    "AtlanticStarStateData",
    "AtlanticStarView",
    "Plaque",
    "PlaqueInfo",
    "SeaData",
    "SeaInfo",
    "ShipInfo",
]

SCHEMA_VERSION = 1

ShipId = Annotated[int, Meta(ge=0, le=255, description="index into the ship list")]
Phase = Literal["loan", "agency", "over"]


class Plaque(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A voyage record plaque on the board: a seat's voyage or a package operator's (A3)."""

    seat: (
        Annotated[int, Meta(ge=0, le=5, description="the seat; null for a package operator")] | None
    ) = None
    operator: Annotated[int, Meta(ge=0, le=1, description="package operator set")] | None = None
    voyage: Annotated[
        int, Meta(ge=0, le=1, description="the seat's first (0) or second (1) voyage in this sea")
    ] = 0
    value: Annotated[int, Meta(ge=0, le=999, description="current value (after any loan)")]
    loan: Annotated[int, Meta(ge=0, le=10000, description="marks borrowed against it")] = 0
    ships: Annotated[list[ShipId], Meta(max_length=6, description="ships by leg, leg 1 first")] = []


class SeaData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One sea: its class (chosen by its first voyage) and its plaques, top field first."""

    stars: Annotated[int, Meta(ge=1, le=5)] | None = None
    plaques: Annotated[list[Plaque], Meta(max_length=6)] = []


class AtlanticStarStateData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The complete state of an Atlantic Star game (schema version 1)."""

    schema_version: int
    game: Literal["atlantic_star"]
    players: Annotated[int, Meta(ge=2, le=6)]
    ship_list: Annotated[str, Meta(description="fingerprint of the ship list the ids refer to")]
    board: Annotated[
        list[list[int]], Meta(description="victory points per class (1★ first), top field first")
    ]
    rng: Annotated[int, Meta(ge=0, description="splitmix64 generator state (64-bit unsigned)")]
    phase: Phase
    start_player: Annotated[int, Meta(ge=0, le=5)]
    current_player: Annotated[int, Meta(ge=-1, le=5)]
    money: Annotated[
        list[Annotated[int, Meta(ge=0, le=999_999_000)]], Meta(min_length=2, max_length=6)
    ]
    hands: Annotated[
        list[Annotated[list[ShipId], Meta(max_length=8)]],
        Meta(min_length=2, max_length=6, description="per seat, sorted by ship id"),
    ]
    agency: Annotated[
        list[ShipId | None],
        Meta(
            min_length=4, max_length=4, description="ships on the 3,000 / 2,000 / 1,000 / 0 spaces"
        ),
    ]
    deck: Annotated[list[ShipId], Meta(max_length=256, description="the pack, bottom first")]
    discard: Annotated[list[ShipId], Meta(max_length=256)]
    seas: Annotated[
        list[SeaData],
        Meta(min_length=4, max_length=4, description="Baltic, Mediterranean, Atlantic, Pacific"),
    ]


class ShipInfo(msgspec.Struct, frozen=True):
    """A visible ship card."""

    id: int
    name: str
    mail: bool
    legs: list[str]  # "Pac 2: 4" …


class AgencyInfo(msgspec.Struct, frozen=True):
    price: int
    ship: ShipInfo | None


class PlaqueInfo(msgspec.Struct, frozen=True):
    field: int  # 1 = top
    victory_points: int
    seat: int | None
    operator: int | None
    voyage: int
    value: int
    loan: int
    ships: list[str]


class SeaInfo(msgspec.Struct, frozen=True):
    name: SeaName
    legs: int
    stars: int | None
    plaques: list[PlaqueInfo]
    full: bool


class AtlanticStarView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat may see."""

    game: Literal["atlantic_star"] = "atlantic_star"
    player: int
    phase: Phase
    current_player: int
    money: list[int]
    hand: list[ShipInfo]
    hand_sizes: list[int]
    agency: list[AgencyInfo]
    deck_size: int
    discard: list[ShipInfo]
    seas: list[SeaInfo]
    free_classes: list[int]
    voyages_left: list[int]
    loans: list[list[int]]  # per seat, per sea: marks borrowed there
    scores: list[int]
    legal_actions: list[int]
