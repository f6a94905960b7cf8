"""Serialized forms of Dream Islands: the full state and a seat's view (msgspec Structs).

The full state is everything, hidden cards and generator state included; it is what
``to_json``/``to_msgpack`` write and ``load_state`` reads. The view is what one seat may
see. Both have JSON Schemas (``game.json_schemas()``).

Every integer has bounds that fit the core's C types and the rules. The round counter
stops at :data:`ROUND_CAP` (I15): play never takes it further, so every state that play
reaches from a loadable one loads again.

Version 3 adds ``hand_avoids``, what play has shown of each hand (I16). Version 2 wrote
no such memory and loads with none; version 1 also wrote the generator state as a 64-bit
number, where versions 2 and 3 write 16 hex digits (every number of a snapshot is within
±2**53, safe for any JSON reader). Both still load (``DreamIslandsGame.schema_migrations``).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta

from cruiselib import _core
from cruiselib.dream_islands.moves import mission_name as mission_name  # the core's load errors name missions
from cruiselib.serialize import Deal, History, RngText

__all__ = ["ROUND_CAP", "SCHEMA_VERSION", "DreamIslandsStateData", "DreamIslandsView", "HandMemory", "SeatInfo"]

SCHEMA_VERSION: Final = 3

_LIMITS = _core.load("dream_islands").LIMITS
ROUND_CAP: int = _LIMITS["rounds"]
"""I15: the most complete rounds a game has (the counter is a C int); ``max_rounds`` goes up to it."""
_LAST_ACTION: int = _LIMITS["moves"] + _LIMITS["missions"]  # "draw", the highest action id

MissionId = Annotated[int, Meta(ge=0, le=15, description="mission id (see cruiselib.dream_islands.MISSIONS)")]
Count = Annotated[int, Meta(ge=0, le=6)]
Seat = Annotated[int, Meta(ge=0, le=3)]
SeatOrNone = Annotated[int, Meta(ge=-1, le=3)]
Rounds = Annotated[int, Meta(ge=0, le=ROUND_CAP, description="complete rounds played (I15: at most ROUND_CAP)")]
MaxRounds = Annotated[int, Meta(ge=0, le=ROUND_CAP, description="option I9; 0 means no limit (I15)")]
Players = Annotated[int, Meta(ge=2, le=4)]
Number = Annotated[int, Meta(ge=2, le=5)]
Phase = Literal["move", "exchange", "over"]


class DreamIslandsStateData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The complete state of a Dream Islands game (schema version 3). Seat 0 started (I8)."""

    schema_version: Literal[3]
    game: Literal["dream_islands"]
    players: Players
    max_rounds: MaxRounds
    rng: RngText
    phase: Phase
    current_player: SeatOrNone
    rounds: Rounds
    pieces: Annotated[
        list[Annotated[list[Count], Meta(min_length=9, max_length=9)]],
        Meta(min_length=2, max_length=4, description="per seat: pieces on the airplane, then on islands 1..8"),
    ]
    small_islands: Annotated[
        list[SeatOrNone],
        Meta(min_length=3, max_length=3, description="seat on the small middle islands worth 3, 2, 2 (-1 empty)"),
    ]
    main_island: Annotated[
        list[Count], Meta(min_length=2, max_length=4, description="per seat: pieces on the main island")
    ]
    covered: Annotated[
        list[Annotated[list[Number], Meta(max_length=4)]],
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
    hand_avoids: Annotated[
        list[Annotated[list[Annotated[int, Meta(ge=0, le=0xFFFF)]], Meta(max_length=3)]],
        Meta(
            min_length=2,
            max_length=4,
            description="per seat, one set of missions per card in its hand (bit m: mission m): the k-th holds "
            "missions of which at least k of the hand's cards are none, as play has shown everybody (I16)",
        ),
    ]
    completed: Annotated[
        list[Annotated[list[MissionId], Meta(max_length=16)]],
        Meta(min_length=2, max_length=4, description="per seat: the completed missions"),
    ]
    deal: Annotated[Deal | None, Meta(description="how the game began; None: the history starts here")] = None
    history: History = []


class SeatInfo(msgspec.Struct, frozen=True):
    """What everybody sees of one seat."""

    seat: Seat
    airplane: Count
    islands: Annotated[list[Count], Meta(min_length=8, max_length=8)]  # own pieces on islands 1..8
    middle: Count  # own pieces in the middle (small islands and main island)
    covered: Annotated[list[Number], Meta(max_length=4)]
    completed: Annotated[list[MissionId], Meta(max_length=16)]
    hand_size: Annotated[int, Meta(ge=0, le=3)]
    pile_size: Annotated[int, Meta(ge=0, le=16)]
    under: Annotated[int, Meta(ge=0, le=16)]  # cards at the bottom of the pile that this seat put there (I6)
    score: Annotated[int, Meta(ge=0, le=_LIMITS["score"])]


class HandMemory(msgspec.Struct, frozen=True):
    """What play has shown everybody of one seat's hand (I16): ``avoid[k - 1]`` lists
    missions of which at least k of its cards are none (one set per card in the hand,
    each inside the one before)."""

    seat: Seat
    avoid: Annotated[list[Annotated[list[MissionId], Meta(max_length=16)]], Meta(max_length=3)]


class DreamIslandsView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat may see: the board, shells, completed missions, all counts, its own
    hand, and the cards it put under its own pile in the order they will be drawn."""

    game: Literal["dream_islands"] = "dream_islands"
    player: Seat
    players: Players
    max_rounds: MaxRounds
    phase: Phase
    current_player: SeatOrNone
    rounds: Rounds
    end_triggered: bool
    seats: Annotated[list[SeatInfo], Meta(min_length=2, max_length=4)]
    small_islands: Annotated[list[SeatOrNone], Meta(min_length=3, max_length=3)]
    hand: Annotated[list[MissionId], Meta(max_length=3)]
    under_pile: Annotated[list[MissionId], Meta(max_length=16)]  # own cards put under the pile, next drawn first
    pile_unseen: Annotated[list[MissionId], Meta(max_length=16)]  # the rest of the own pile (sorted ids)
    legal_actions: Annotated[list[Annotated[int, Meta(ge=0, le=_LAST_ACTION)]], Meta(max_length=_LIMITS["max_legal"])]
    # view(player, recall=True) only: per seat, what play has shown of its hand (I16).
    recall: Annotated[list[HandMemory], Meta(min_length=2, max_length=4)] | None = None
