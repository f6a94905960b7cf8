"""Serialized forms of Dream Islands: the full state and a seat's view (msgspec Structs).

The full state is everything, hidden cards and generator state included; it is what
``to_json``/``to_msgpack`` write and ``load_state`` reads. The view is what one seat may
see. Both have JSON Schemas (``game.json_schemas()``).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

__all__ = ["SCHEMA_VERSION", "DreamIslandsStateData", "DreamIslandsView", "SeatInfo"]

SCHEMA_VERSION = 1

MissionId = Annotated[int, Meta(ge=0, le=15, description="mission id (see cruiselib.dream_islands.MISSIONS)")]
Count = Annotated[int, Meta(ge=0, le=6)]
Phase = Literal["move", "exchange", "over"]


class DreamIslandsStateData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The complete state of a Dream Islands game (schema version 1). Seat 0 started (I8)."""

    schema_version: int
    game: Literal["dream_islands"]
    players: Annotated[int, Meta(ge=2, le=4)]
    max_rounds: Annotated[int, Meta(ge=0, description="option I9; 0 means no limit")]
    rng: Annotated[int, Meta(ge=0, description="splitmix64 generator state (64-bit unsigned)")]
    phase: Phase
    current_player: Annotated[int, Meta(ge=-1, le=3)]
    rounds: Annotated[int, Meta(ge=0, description="complete rounds played")]
    pieces: Annotated[
        list[Annotated[list[Count], Meta(min_length=9, max_length=9)]],
        Meta(min_length=2, max_length=4, description="per seat: pieces on the airplane, then on islands 1..8"),
    ]
    small_islands: Annotated[
        list[Annotated[int, Meta(ge=-1, le=3)]],
        Meta(min_length=3, max_length=3, description="seat on the small middle islands worth 3, 2, 2 (-1 empty)"),
    ]
    main_island: Annotated[
        list[Count], Meta(min_length=2, max_length=4, description="per seat: pieces on the main island")
    ]
    covered: Annotated[
        list[Annotated[list[Annotated[int, Meta(ge=2, le=5)]], Meta(max_length=4)]],
        Meta(min_length=2, max_length=4, description="per seat: the numbers covered by a shell"),
    ]
    hands: Annotated[
        list[Annotated[list[MissionId], Meta(max_length=3)]],
        Meta(min_length=2, max_length=4, description="per seat: the mission cards in hand"),
    ]
    piles: Annotated[
        list[Annotated[list[MissionId], Meta(max_length=16)]],
        Meta(min_length=2, max_length=4, description="per seat: the draw pile, bottom first"),
    ]
    known: Annotated[
        list[Annotated[int, Meta(ge=0, le=16)]],
        Meta(
            min_length=2,
            max_length=4,
            description="per seat: how many cards at the bottom of its pile it put there itself (I6)",
        ),
    ]
    completed: Annotated[
        list[Annotated[list[MissionId], Meta(max_length=16)]],
        Meta(min_length=2, max_length=4, description="per seat: the completed missions"),
    ]


class SeatInfo(msgspec.Struct, frozen=True):
    """What everybody sees of one seat."""

    seat: int
    airplane: int
    islands: list[int]  # own pieces on islands 1..8
    middle: int  # own pieces in the middle (small islands and main island)
    covered: list[int]
    completed: list[int]
    hand_size: int
    pile_size: int
    under: int  # cards at the bottom of the pile that this seat put there (I6)
    score: int


class DreamIslandsView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat may see: the board, shells, completed missions, all counts, its own
    hand, and the cards it put under its own pile in the order they will be drawn."""

    game: Literal["dream_islands"] = "dream_islands"
    player: int
    players: int
    max_rounds: int
    phase: Phase
    current_player: int
    rounds: int
    end_triggered: bool
    seats: list[SeatInfo]
    small_islands: list[int]
    hand: list[int]
    under_pile: list[int]  # own cards put under the pile, still there, next drawn first
    pile_unseen: list[int]  # the rest of the own pile, order unknown (sorted ids)
    legal_actions: list[int]
