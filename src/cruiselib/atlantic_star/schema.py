"""Serialized forms of Atlantic Star: the full state and a seat's view (msgspec Structs).

The full state is everything, hidden cards and generator state included; it is what
``to_json``/``to_msgpack`` write and ``load_state`` reads. Money is in marks. The view is
what one seat may see: money, loans, the board, the agency and the discard pile are
public; hands are hidden (sizes only), the pack's order is hidden (size only). With
recall the view adds the ships each seat is known to hold (chartered face up, A14).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from cruiselib import _core
from cruiselib.atlantic_star.ships import MAX_SHIPS, MAX_VALUE, SeaName
from cruiselib.errors import InvalidStateError
from cruiselib.serialize import Deal, History, RngText

__all__ = [
    "MAX_LOAN",
    "MAX_MONEY",
    "MAX_VALUE",
    "SCHEMA_VERSION",
    "AgencyInfo",
    "AtlanticStarStateData",
    "AtlanticStarView",
    "Plaque",
    "PlaqueInfo",
    "SeaData",
    "SeaInfo",
    "ShipInfo",
    "upgrade_known_hands",
]

SCHEMA_VERSION = 3

# Integer ranges (every one fits the core's C ``int`` and is what the rules allow; see
# docs/atlantic_star.md, "Saved states").
_core_mod = _core.load("atlantic_star")
MAX_LOAN = 10_000  # per voyage, in marks
# The most money a seat can ever hold: the larger starting capital (2-3 players) plus one
# loan of at most 10,000 per sea, since loans are the only income. The loader also checks
# each seat against its own game: money <= starting capital + the seat's loans.
MAX_MONEY = max(_core_mod.START_MONEY) * 1000 + 4 * MAX_LOAN
MAX_POINTS = 4 * 2 * 99  # four seas, two plaques each (2-3 players), 99 per field at most
MAX_ACTION = 824  # 825 actions with 2-3 players
BOARD_POINTS = 99

ShipId = Annotated[int, Meta(ge=0, le=MAX_SHIPS - 1, description="index into the ship list")]
Seat = Annotated[int, Meta(ge=0, le=5)]
Marks = Annotated[int, Meta(ge=0, le=MAX_MONEY, multiple_of=1000, description="marks")]
LoanMarks = Annotated[int, Meta(ge=0, le=MAX_LOAN, multiple_of=1000, description="marks")]
VoyageValue = Annotated[int, Meta(ge=0, le=MAX_VALUE)]
Phase = Literal["loan", "agency", "over"]


class Plaque(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A voyage record plaque on the board: a seat's voyage or a package operator's (A3)."""

    seat: Annotated[Seat, Meta(description="the seat; null for a package operator")] | None = None
    operator: Annotated[int, Meta(ge=0, le=1, description="package operator set")] | None = None
    voyage: Annotated[
        int, Meta(ge=0, le=1, description="the seat's first (0) or second (1) voyage in this sea")
    ] = 0
    value: Annotated[VoyageValue, Meta(description="current value (after any loan)")]
    loan: Annotated[LoanMarks, Meta(description="marks borrowed against it")] = 0
    ships: Annotated[list[ShipId], Meta(max_length=6, description="ships by leg, leg 1 first")] = []


class SeaData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One sea: its class (chosen by its first voyage) and its plaques, top field first."""

    stars: Annotated[int, Meta(ge=1, le=5)] | None = None
    plaques: Annotated[list[Plaque], Meta(max_length=6)] = []


class AtlanticStarStateData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The complete state of an Atlantic Star game (schema version 3)."""

    schema_version: Literal[3]
    game: Literal["atlantic_star"]
    players: Annotated[int, Meta(ge=2, le=6)]
    ship_list: Annotated[
        str, Meta(max_length=64, description="fingerprint of the ship list the ids refer to")
    ]
    board: Annotated[
        list[
            Annotated[
                list[Annotated[int, Meta(ge=0, le=BOARD_POINTS)]], Meta(min_length=6, max_length=6)
            ]
        ],
        Meta(
            min_length=5,
            max_length=5,
            description="victory points per class (1★ first), top field first",
        ),
    ]
    rng: RngText
    phase: Phase
    start_player: Seat
    current_player: Annotated[int, Meta(ge=-1, le=5, description="-1 once the game is over")]
    money: Annotated[list[Marks], Meta(min_length=2, max_length=6)]
    hands: Annotated[
        list[Annotated[list[ShipId], Meta(max_length=8)]],
        Meta(min_length=2, max_length=6, description="per seat, sorted by ship id"),
    ]
    known: Annotated[
        list[Annotated[list[ShipId], Meta(max_length=8)]],
        Meta(
            min_length=2,
            max_length=6,
            description=(
                "per seat, the ships of its hand every seat knows it holds (chartered face up "
                "and not yet played; the whole hand once the game is over; A14), sorted by ship id"
            ),
        ),
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
    deal: Annotated[Deal | None, Meta(description="how the game began; None: the history starts here")] = None
    history: History = []


class ShipInfo(msgspec.Struct, frozen=True):
    """A visible ship card."""

    id: ShipId
    name: str
    mail: bool
    legs: list[str]  # "Pac 2: 4" …


class AgencyInfo(msgspec.Struct, frozen=True):
    """One charter agency space and the ship on it."""

    price: Annotated[int, Meta(ge=0, le=3000, multiple_of=1000)]
    ship: ShipInfo | None


class PlaqueInfo(msgspec.Struct, frozen=True):
    """A plaque on the board and the victory points of its field."""

    field: Annotated[int, Meta(ge=1, le=6, description="1 = top")]
    victory_points: Annotated[int, Meta(ge=0, le=BOARD_POINTS)]
    seat: Seat | None
    operator: Annotated[int, Meta(ge=0, le=1)] | None
    voyage: Annotated[int, Meta(ge=0, le=1)]
    value: VoyageValue
    loan: LoanMarks
    ships: list[str]


class SeaInfo(msgspec.Struct, frozen=True):
    """A sea as every seat sees it."""

    name: SeaName
    legs: Annotated[int, Meta(ge=3, le=6)]
    stars: Annotated[int, Meta(ge=1, le=5)] | None
    plaques: Annotated[list[PlaqueInfo], Meta(max_length=6)]
    full: bool


class AtlanticStarView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat may see."""

    game: Literal["atlantic_star"] = "atlantic_star"
    player: Seat
    phase: Phase
    current_player: Annotated[int, Meta(ge=-1, le=5)]
    money: Annotated[list[Marks], Meta(max_length=6)]
    hand: Annotated[list[ShipInfo], Meta(max_length=8)]
    hand_sizes: Annotated[list[Annotated[int, Meta(ge=0, le=8)]], Meta(max_length=6)]
    agency: Annotated[list[AgencyInfo], Meta(max_length=4)]
    deck_size: Annotated[int, Meta(ge=0, le=256)]
    discard: Annotated[list[ShipInfo], Meta(max_length=256)]
    seas: Annotated[list[SeaInfo], Meta(max_length=4)]
    free_classes: Annotated[list[Annotated[int, Meta(ge=1, le=5)]], Meta(max_length=5)]
    voyages_left: Annotated[list[Annotated[int, Meta(ge=0, le=8)]], Meta(max_length=6)]
    loans: Annotated[
        list[Annotated[list[LoanMarks], Meta(max_length=4)]],
        Meta(max_length=6, description="per seat, per sea: marks borrowed there"),
    ]
    scores: Annotated[list[Annotated[int, Meta(ge=0, le=MAX_POINTS)]], Meta(max_length=6)]
    legal_actions: Annotated[
        list[Annotated[int, Meta(ge=0, le=MAX_ACTION)]], Meta(max_length=1024)
    ]
    known: (
        Annotated[
            list[Annotated[list[ShipInfo], Meta(max_length=8)]],
            Meta(
                max_length=6,
                description=(
                    "view(player, recall=True) only: per seat, the ships it is known to hold "
                    "(chartered face up and not yet played, A14); null without recall"
                ),
            ),
        ]
        | None
    ) = None


def upgrade_known_hands(data: dict[str, Any]) -> dict[str, Any]:
    """Schema version 2 to 3: the record of which held ships are known (A14).

    A version-2 snapshot has no record, so no held ship is known, except in a finished
    game, where every hand is shown.
    """
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise InvalidStateError(f"schema version 2: hands must be a list, not {hands!r}")
    over = data.get("phase") == "over"
    known = [list(h) if over and isinstance(h, list) else [] for h in hands]
    return {**data, "schema_version": 3, "known": known}
