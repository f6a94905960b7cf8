"""Serialized forms of Dream Cruise: the full state and a seat's view (msgspec Structs).

The full state is everything, hidden cards and generator state included; it is what
``to_json``/``to_msgpack`` write and ``load_state`` reads. The view is what one seat may
see. Both have JSON Schemas (``game.json_schemas()``).

Cards are ids into the game's card set (``cruiselib.dream_cruise.CardSet``): families,
location cards and ship cards each count from 0 in the order of the set's lists; -1 marks
an empty place. Figures on an activity are listed by cabin (0 inner, 1 oceanview,
2 balcony), the colour of the family they belong to. Every integer has bounds that fit the
core's C types and the rules, so a state that play reaches always loads again.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta

from cruiselib._core.constants import enum_constants
from cruiselib.serialize import Deal, History, RngText

__all__ = [
    "MAX_ROUNDS",
    "SCHEMA_VERSION",
    "CurrentLocation",
    "DisplaySet",
    "DreamCruiseStateData",
    "DreamCruiseView",
    "JanaView",
    "SeatData",
    "SeatView",
    "SetData",
]

SCHEMA_VERSION: Final = 1

_MAXF, _MAXL, _MAXS, _MAXADD, _MAXSETS = itemgetter("MAXF", "MAXL", "MAXS", "MAXADD", "MAXSETS")(
    enum_constants("dream_cruise")  # the core's .pxd
)
# The most action ids any configuration has (the widest card set and 4 addition spaces).
_MAX_ACTIONS = _MAXF + _MAXL + _MAXSETS + 3 * (3 + _MAXADD) + _MAXS + _MAXS * _MAXS * (_MAXADD + 1) + 3 * _MAXS + 1
MAX_ROUNDS: Final = 100
"""More rounds than any game has: each round but the last keeps a location card per seat
for good, so the location cards run out (C20) long before."""

FamilyId = Annotated[int, Meta(ge=0, le=_MAXF - 1, description="family card id")]
FamilyOrNone = Annotated[int, Meta(ge=-1, le=_MAXF - 1, description="family card id, -1 for none")]
LocationId = Annotated[int, Meta(ge=0, le=_MAXL - 1, description="location card id")]
LocationOrNone = Annotated[int, Meta(ge=-1, le=_MAXL - 1, description="location card id, -1 for none")]
ShipId = Annotated[int, Meta(ge=0, le=_MAXS - 1, description="ship card id")]
ShipOrNone = Annotated[int, Meta(ge=-1, le=_MAXS - 1, description="ship card id, -1 for none")]
CardId = Annotated[int, Meta(ge=0, le=max(_MAXF, _MAXL) - 1)]
Cabin = Annotated[int, Meta(ge=0, le=2, description="cabin (colour): 0 inner, 1 oceanview, 2 balcony")]
Guests = Annotated[list[Cabin], Meta(max_length=3, description="the cabins whose figures are on this activity")]
Figures = Annotated[int, Meta(ge=0, le=6)]
Seat = Annotated[int, Meta(ge=0, le=3)]
SeatOrNone = Annotated[int, Meta(ge=-1, le=3)]
Players = Annotated[int, Meta(ge=1, le=4)]
Round = Annotated[int, Meta(ge=1, le=MAX_ROUNDS, description="the current round, from 1")]
Spot = Annotated[int, Meta(ge=-1, le=2, description="location spot: 0 top, 1 bottom, 2 second sea slot; -1 none")]
Phase = Literal["boarding", "set_course", "entertainment", "set_sail", "over"]
Score = Annotated[int, Meta(ge=0, le=2000)]

FamilyList = Annotated[list[FamilyId], Meta(max_length=_MAXF)]
LocationList = Annotated[list[LocationId], Meta(max_length=_MAXL)]
ShipList = Annotated[list[ShipId], Meta(max_length=_MAXS)]


class SeatData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One seat's board, play area, points pile and hand."""

    families: Annotated[list[FamilyOrNone], Meta(min_length=3, max_length=3, description="per cabin")]
    figures_left: Annotated[
        list[Figures], Meta(min_length=3, max_length=3, description="per cabin: figures still on the card")
    ]
    additions: Annotated[list[ShipOrNone], Meta(min_length=1, max_length=_MAXADD, description="per addition space")]
    addition_guests: Annotated[list[Guests], Meta(min_length=1, max_length=_MAXADD)]
    location: LocationOrNone  # this round's location card (-1: none yet, or none drawn, C16)
    activity_cards: Annotated[
        list[ShipOrNone],
        Meta(min_length=2, max_length=2, description="on the location card: shore bottom or sea slot 1; slot 2"),
    ]
    location_guests: Annotated[list[Guests], Meta(min_length=3, max_length=3, description="per location spot 0..2")]
    captain: Spot
    played: Annotated[LocationList, Meta(description="every location card kept, in order (C4); the last is current")]
    points_pile: FamilyList
    hand: Annotated[ShipList, Meta(description="sorted")]
    known: Annotated[ShipList, Meta(description="the hand cards every seat saw this seat take face up")]
    drawn: Annotated[
        list[CardId], Meta(max_length=6, description="families (phase 1) or location cards (phase 2) to choose from")
    ]


class SetData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A display set of phase 3 (set 0 is the face-down set)."""

    cards: Annotated[list[ShipId], Meta(max_length=2)]
    taken_by: SeatOrNone = -1


class DreamCruiseStateData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The complete state of a Dream Cruise game (schema version 1). Decks list bottom first."""

    schema_version: Literal[1]
    game: Literal["dream_cruise"]
    players: Players
    route_points: Annotated[list[Annotated[int, Meta(ge=0, le=99)]], Meta(min_length=4, max_length=4)]
    sea_ship_draw: bool
    additions: Annotated[int, Meta(ge=1, le=_MAXADD)]
    difficulty: Annotated[int, Meta(ge=0, le=3)]
    cards: Annotated[str, Meta(max_length=64, description="the card set's digest")]
    rng: RngText
    phase: Phase
    current_player: SeatOrNone
    round: Round
    start_player: Seat
    first_player: Annotated[int, Meta(ge=0, le=3, description="the seat this round's turn order starts from")]
    turn: Annotated[int, Meta(ge=0, le=3, description="how many seats have decided in this phase")]
    final_round: bool
    seats: Annotated[list[SeatData], Meta(min_length=1, max_length=4)]
    display: Annotated[list[SetData], Meta(max_length=5)]
    family_deck: FamilyList
    family_discard: FamilyList
    family_box: Annotated[FamilyList, Meta(description="families out of the game (setup 5, C9)")]
    location_deck: LocationList
    location_discard: LocationList
    ship_deck: ShipList
    ship_discard: ShipList
    jana_pile: FamilyList
    jana_locations: LocationList
    deal: Annotated[Deal | None, Meta(description="how the game began; None: the history starts here")] = None
    history: History = []


class CurrentLocation(msgspec.Struct, frozen=True):
    """A seat's location card of this round, what is on it, and the captain."""

    card: LocationId
    activity_cards: Annotated[list[ShipOrNone], Meta(min_length=2, max_length=2)]
    guests: Annotated[list[Guests], Meta(min_length=3, max_length=3)]
    captain: Spot


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """What everybody sees of one seat."""

    seat: Seat
    families: Annotated[list[FamilyOrNone], Meta(min_length=3, max_length=3)]
    figures_left: Annotated[list[Figures], Meta(min_length=3, max_length=3)]
    additions: Annotated[list[ShipOrNone], Meta(min_length=1, max_length=_MAXADD)]
    addition_guests: Annotated[list[Guests], Meta(min_length=1, max_length=_MAXADD)]
    location: CurrentLocation | None
    played: LocationList
    points_pile: FamilyList
    hand_size: Annotated[int, Meta(ge=0, le=_MAXS)]
    drawn_size: Annotated[int, Meta(ge=0, le=6)]
    route_points: Score
    score: Score


class DisplaySet(msgspec.Struct, frozen=True, kw_only=True):
    """A display set as the table shows it: the face-down set's cards are hidden."""

    face_down: bool
    cards: Annotated[list[ShipId], Meta(max_length=2)]
    size: Annotated[int, Meta(ge=0, le=2)]
    taken_by: SeatOrNone


class JanaView(msgspec.Struct, frozen=True, kw_only=True):
    """Jana, the solo opponent (C9): her points pile is face down until the end, when it
    is turned up and scored (C23)."""

    pile_size: Annotated[int, Meta(ge=0, le=_MAXF)]
    locations: LocationList
    route_points: Score
    score: Score | None  # once the game is over
    pile: FamilyList | None = None  # her pile's families, once the game is over


class DreamCruiseView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat may see: every board and play area, the points piles, counts of the
    hands, drawn cards and decks, the face-up display, the discard piles (C22), its own hand
    and drawn cards."""

    game: Literal["dream_cruise"] = "dream_cruise"
    player: Seat
    players: Players
    phase: Phase
    current_player: SeatOrNone
    round: Round
    final_round: bool
    start_player: Seat
    first_player: Seat
    seats: Annotated[list[SeatView], Meta(min_length=1, max_length=4)]
    hand: ShipList
    drawn: Annotated[list[CardId], Meta(max_length=6)]
    display: Annotated[list[DisplaySet], Meta(max_length=5)]
    family_deck: Annotated[int, Meta(ge=0, le=_MAXF)]
    family_box: Annotated[int, Meta(ge=0, le=_MAXF)]
    location_deck: Annotated[int, Meta(ge=0, le=_MAXL)]
    ship_deck: Annotated[int, Meta(ge=0, le=_MAXS)]
    family_discard: FamilyList
    location_discard: LocationList
    ship_discard: ShipList
    jana: JanaView | None
    legal_actions: Annotated[
        list[Annotated[int, Meta(ge=0, le=_MAX_ACTIONS - 1)]], Meta(max_length=_MAX_ACTIONS)
    ]
    # view(player, recall=True) only: per seat, the hand cards it took face up.
    recall: Annotated[list[ShipList], Meta(min_length=1, max_length=4)] | None = None
