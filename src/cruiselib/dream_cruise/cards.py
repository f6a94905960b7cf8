"""The Dream Cruise card set: families, locations and ship cards as validated, replaceable data (C10).

The rulebook names the components (60 family cards, 54 location cards, 72 ship cards) and a few
of them, but prints no card list. The default set ``data/cards.json`` is **engine-authored**
(ruling C10) by :mod:`cruiselib.dream_cruise.cardgen`; only the starting families' 3 members
and 3 points are published. Load your own set with :meth:`CardSet.from_file` or
:meth:`CardSet.from_json` and pass it as ``cruiselib.make("dream_cruise", cards=...)``.

Ids: activity types 0..5 in the order of :data:`TYPES` (bit ``i`` of a family's wants mask),
regions 0..5 in the order of :data:`REGIONS`, cabins 0..2 in the order of :data:`CABINS`;
a card's id is its position in its list (``families``, ``locations``, ``ships``).
:meth:`CardSet.packed` gives the cards as the int tuples the core reads.
"""

from __future__ import annotations

import hashlib
import re
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

import msgspec

from cruiselib._files import MAX_COMPONENT_FILE_BYTES, decode_component, read_component_file
from cruiselib.errors import InvalidOptionError

__all__ = [
    "CABINS",
    "GENERAL",
    "LETTERS",
    "MAX_CARD_FILE_BYTES",
    "MAX_FAMILIES",
    "MAX_LOCATIONS",
    "MAX_SHIPS",
    "REGIONS",
    "REGION_NAMES",
    "STARTING",
    "TYPES",
    "TYPE_NAMES",
    "Activity",
    "CardSet",
    "Family",
    "Location",
    "ShipCard",
]

TypeName = Literal["sports", "culture", "rest", "city", "country", "beach"]
RegionName = Literal["east_med", "west_med", "baltic", "arctic", "north_sea", "atlantic"]
Letter = Literal["A", "B", "C", "D"]

# Activity types in id order: 0-2 general (ship cards, shore bottoms, sea cards), 3-5 location
# types (shore excursions) (C10).
TYPES: tuple[TypeName, ...] = ("sports", "culture", "rest", "city", "country", "beach")
TYPE_NAMES: tuple[str, ...] = (
    "Sports & Outdoors",
    "Culture & Entertainment",
    "Rest & Relaxation",
    "City",
    "Country",
    "Beach",
)
GENERAL: tuple[TypeName, ...] = TYPES[:3]
# Touristic regions in id order; a sea card has none (it is wild in a route, C1).
REGIONS: tuple[RegionName, ...] = ("east_med", "west_med", "baltic", "arctic", "north_sea", "atlantic")
REGION_NAMES: tuple[str, ...] = (
    "Eastern Mediterranean",
    "Western Mediterranean",
    "Baltic Sea",
    "Arctic Ocean",
    "North Sea and Irish Sea",
    "Atlantic Ocean",
)
# Cabins in id order (and in the fixed boarding order, C17): white, orange, blue figures.
CABINS: tuple[str, str, str] = ("inner", "oceanview", "balcony")
LETTERS: tuple[Letter, ...] = ("A", "B", "C", "D")

STARTING = 12  # exactly three starting families per letter A-D (C10, C21)
MAX_FAMILIES = 64  # ids fit the core's 64-bit family sets: 12 starting + up to 52 others
MAX_LOCATIONS = 64
MAX_SHIPS = 96
MAX_CAPACITY = 3
MAX_MEMBERS = 6
MAX_POINTS = 9

Capacity = Annotated[int, msgspec.Meta(ge=1, le=MAX_CAPACITY, description="guests it takes")]
CardName = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]

# (members, points, wants mask 1..63, start letter -1 or 0..3)
PackedFamily = tuple[int, int, int, int]
# (is_sea, region or -1, top type, top capacity, bottom type or -1, bottom capacity or 0)
PackedLocation = tuple[int, int, int, int, int, int]
# (is_addition, type, capacity)
PackedShip = tuple[int, int, int]
Packed = tuple[tuple[PackedFamily, ...], tuple[PackedLocation, ...], tuple[PackedShip, ...]]


class Activity(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One activity icon: guests who desire ``type`` may go there, at most ``capacity`` of them."""

    type: TypeName
    capacity: Capacity

    def __str__(self) -> str:
        return f"{self.type} for {self.capacity}"


class Family(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A family card: ``members`` guests, worth ``points`` once every one has done an activity
    of a desired type; ``start`` is the letter of a starting family (None for the deck)."""

    name: CardName
    members: Annotated[int, msgspec.Meta(ge=1, le=MAX_MEMBERS)]
    points: Annotated[int, msgspec.Meta(ge=0, le=MAX_POINTS)]
    wants: Annotated[tuple[TypeName, ...], msgspec.Meta(min_length=1, max_length=3)]
    start: Letter | None = None

    def __str__(self) -> str:
        letter = f", start {self.start}" if self.start else ""
        return f"{self.name} ({self.members} members, {self.points} points: {', '.join(self.wants)}{letter})"


class Location(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A location card. A shore card has a region, an excursion on top and a shore activity
    below (an activity card may cover it); a sea card has no region (wild in a route, C1), one
    activity on top and two slots for activity cards below (``bottom`` is None)."""

    name: CardName
    kind: Literal["shore", "sea"]
    region: RegionName | None = None
    top: Activity
    bottom: Activity | None = None

    def __str__(self) -> str:
        if self.kind == "sea":
            return f"{self.name} (sea): {self.top} / two activity slots"
        return f"{self.name} ({self.region}): {self.top} / {self.bottom}"


class ShipCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A ship card: an activity card (played onto the current location card) or an addition
    (built on the ship board, permanent)."""

    name: CardName
    kind: Literal["activity", "addition"]
    activity: Activity

    def __str__(self) -> str:
        return f"{self.name} ({self.kind}): {self.activity}"


def _bad(what: str, field: str, rule: str, value: object) -> InvalidOptionError:
    return InvalidOptionError(f"{what}: {field} is {rule}, not {value!r}")


def _is_int(value: object, lo: int, hi: int) -> bool:
    return type(value) is int and lo <= value <= hi


def _check_name(kind: str, i: int, card: object, names: set[str]) -> str:
    name = getattr(card, "name", None)
    if not isinstance(name, str) or not 1 <= len(name) <= 40:
        raise _bad(f"{kind} {i}", "name", "a str of 1..40 characters", name)
    if name in names:
        raise InvalidOptionError(f"{kind} {name!r}: name is used by two {kind} cards")
    names.add(name)
    return f"{kind} {name!r}"


def _check_activity(what: str, field: str, act: object) -> None:
    if not isinstance(act, Activity):
        raise _bad(what, field, "an Activity", act)
    if act.type not in TYPES:
        raise _bad(what, f"{field}.type", f"one of {', '.join(TYPES)}", act.type)
    if not _is_int(act.capacity, 1, MAX_CAPACITY):
        raise _bad(what, f"{field}.capacity", f"1..{MAX_CAPACITY}", act.capacity)


def _check_family(what: str, f: Family) -> None:
    if not _is_int(f.members, 1, MAX_MEMBERS):
        raise _bad(what, "members", f"1..{MAX_MEMBERS}", f.members)
    if not _is_int(f.points, 0, MAX_POINTS):
        raise _bad(what, "points", f"0..{MAX_POINTS}", f.points)
    wants = f.wants
    if not isinstance(wants, (tuple, list)) or not 1 <= len(wants) <= 3:
        raise _bad(what, "wants", "a tuple of 1..3 activity types", wants)
    for t in wants:
        if t not in TYPES:
            raise _bad(what, "wants", f"a tuple of types among {', '.join(TYPES)}", wants)
    if len(set(wants)) != len(wants):
        raise _bad(what, "wants", "a tuple of distinct types", wants)
    if f.start is not None and f.start not in LETTERS:
        raise _bad(what, "start", "None or one of A, B, C, D", f.start)


def _check_location(what: str, loc: Location) -> None:
    if loc.kind not in ("shore", "sea"):
        raise _bad(what, "kind", "'shore' or 'sea'", loc.kind)
    _check_activity(what, "top", loc.top)
    if loc.kind == "shore":
        if loc.region not in REGIONS:
            raise _bad(what, "region", f"one of {', '.join(REGIONS)} on a shore card", loc.region)
        if loc.bottom is None:
            raise _bad(what, "bottom", "an Activity on a shore card", None)
        _check_activity(what, "bottom", loc.bottom)
    else:
        if loc.region is not None:
            raise _bad(what, "region", "None on a sea card (it joins any route, C1)", loc.region)
        if loc.bottom is not None:
            raise _bad(what, "bottom", "None on a sea card (two activity-card slots)", loc.bottom)


def _check_ship(what: str, card: ShipCard) -> None:
    if card.kind not in ("activity", "addition"):
        raise _bad(what, "kind", "'activity' or 'addition'", card.kind)
    _check_activity(what, "activity", card.activity)


class CardSet(msgspec.Struct, frozen=True, forbid_unknown_fields=True, dict=True):
    """A complete card set; a card's id is its position in ``families``, ``locations`` or ``ships``."""

    name: str
    families: tuple[Family, ...]
    locations: tuple[Location, ...]
    ships: tuple[ShipCard, ...]
    description: str = ""
    provenance: dict[str, str] = {}

    def __post_init__(self) -> None:
        # Also run for a set built in Python (CardSet(...)), where msgspec checks no field
        # types or ranges: every value that reaches the core's tables is checked here.
        if not isinstance(self.name, str):
            raise _bad("card set", "name", "a str", self.name)
        if not isinstance(self.description, str):
            raise _bad("card set", "description", "a str", self.description)
        if not isinstance(self.provenance, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in self.provenance.items()
        ):
            raise _bad("card set", "provenance", "a dict of str to str", self.provenance)
        lists = (("families", Family), ("locations", Location), ("ships", ShipCard))
        for field, cls in lists:
            cards = getattr(self, field)
            if not isinstance(cards, (tuple, list)):
                raise _bad("card set", field, f"a tuple of {cls.__name__}", cards)
            for i, card in enumerate(cards):
                if not isinstance(card, cls):
                    raise _bad("card set", f"{field}[{i}]", f"a {cls.__name__}", card)
        names: set[str] = set()
        per_letter = dict.fromkeys(LETTERS, 0)
        for i, f in enumerate(self.families):
            what = _check_name("family", i, f, names)
            _check_family(what, f)
            if f.start is not None:
                per_letter[f.start] += 1
        for letter, n in per_letter.items():
            if n != 3:
                raise InvalidOptionError(
                    f"families: start {letter!r} is on exactly three families "
                    f"(three each of A-D, 12 in all; C10, C21), not {n}"
                )
        others = len(self.families) - STARTING
        if not 1 <= others <= MAX_FAMILIES - STARTING:
            raise InvalidOptionError(
                f"families: a card set has 1..{MAX_FAMILIES - STARTING} families besides the "
                f"{STARTING} starting ones (the game has 48; C10), not {others}"
            )
        n = len(self.locations)
        if not 1 <= n <= MAX_LOCATIONS:
            raise InvalidOptionError(
                f"locations: a card set has 1..{MAX_LOCATIONS} location cards (the game has 54; C10), not {n}"
            )
        names.clear()
        for i, loc in enumerate(self.locations):
            _check_location(_check_name("location", i, loc, names), loc)
        n = len(self.ships)
        if not 1 <= n <= MAX_SHIPS:
            raise InvalidOptionError(f"ships: a card set has 1..{MAX_SHIPS} ship cards (the game has 72; C10), not {n}")
        names.clear()
        for i, card in enumerate(self.ships):
            _check_ship(_check_name("ship", i, card, names), card)

    # --- loading ---------------------------------------------------------------

    @classmethod
    def standard(cls) -> CardSet:
        """The default, engine-authored card set (C10)."""
        return _standard()

    @classmethod
    def from_json(cls, data: str | bytes | bytearray | memoryview) -> CardSet:
        """Parse and validate a card set from JSON text or UTF-8 bytes (InvalidOptionError
        on any problem, whatever the type of ``data``)."""
        return decode_component(data, cls, what="card set", locate=_locate)

    @classmethod
    def from_file(cls, path: str | Path) -> CardSet:
        """Load and validate a card set from a JSON file.

        Only a regular file of at most :data:`MAX_CARD_FILE_BYTES` is read: a device, a
        FIFO, a directory or a larger file raises InvalidOptionError (as does a file that
        cannot be read, or a set that is not valid).
        """
        return cls.from_json(read_component_file(path, what="card set", limit=MAX_CARD_FILE_BYTES))

    def to_json(self) -> bytes:
        return msgspec.json.encode(self)

    # --- derived tables ----------------------------------------------------------

    @cached_property
    def digest(self) -> str:
        """A short fingerprint saved in every state, so a state only loads with its own set."""
        lists = (self.families, self.locations, self.ships)
        return hashlib.sha256(msgspec.json.encode(lists)).hexdigest()[:16]

    @cached_property
    def family_index(self) -> dict[str, int]:
        """Family id by name."""
        return {f.name: i for i, f in enumerate(self.families)}

    @cached_property
    def location_index(self) -> dict[str, int]:
        """Location id by name."""
        return {loc.name: i for i, loc in enumerate(self.locations)}

    @cached_property
    def ship_index(self) -> dict[str, int]:
        """Ship card id by name."""
        return {s.name: i for i, s in enumerate(self.ships)}

    def packed(self) -> Packed:
        """(families, locations, ships) as the int tuples the core reads:

        - family: (members, points, wants mask 1..63, start letter -1 or 0..3)
        - location: (is_sea, region 0..5 or -1, top type, top capacity, bottom type or -1,
          bottom capacity or 0)
        - ship: (is_addition, type, capacity)
        """
        return self._packed

    @cached_property
    def _packed(self) -> Packed:
        t = {name: i for i, name in enumerate(TYPES)}
        families = tuple(
            (
                f.members,
                f.points,
                sum(1 << t[w] for w in f.wants),
                -1 if f.start is None else LETTERS.index(f.start),
            )
            for f in self.families
        )
        locations = tuple(
            (
                int(loc.kind == "sea"),
                -1 if loc.region is None else REGIONS.index(loc.region),
                t[loc.top.type],
                loc.top.capacity,
                -1 if loc.bottom is None else t[loc.bottom.type],
                0 if loc.bottom is None else loc.bottom.capacity,
            )
            for loc in self.locations
        )
        ships = tuple((int(s.kind == "addition"), t[s.activity.type], s.activity.capacity) for s in self.ships)
        return families, locations, ships


MAX_CARD_FILE_BYTES = MAX_COMPONENT_FILE_BYTES
"""The largest card-set file :meth:`CardSet.from_file` reads: 1 MiB. The standard set is
about 20 kB, and the largest set the engine takes (64 families, 64 locations, 96 ship
cards, long names, indented) stays under 100 kB: the limit leaves room for a long
description while a path to a huge file or a device cannot exhaust memory."""


_CARD_AT = re.compile(r"\$\.(families|locations|ships)\[(\d+)\]")
_KIND = {"families": "family", "locations": "location", "ships": "ship"}


def _locate(data: bytes, message: str) -> str:
    """Prefix msgspec's message (which gives a JSON path) with the card it is about."""
    m = _CARD_AT.search(message)
    if m is None:
        return message
    field, i = m.group(1), int(m.group(2))
    name = None
    try:
        raw = msgspec.json.decode(data)
        name = raw[field][i].get("name")
    except (msgspec.DecodeError, KeyError, IndexError, TypeError, AttributeError, RecursionError):
        pass
    named = isinstance(name, str) and 1 <= len(name) <= 40
    what = f"{_KIND[field]} {name!r}" if named else f"{_KIND[field]} {i}"
    return f"{what}: {message}"


_STANDARD: list[CardSet] = []


def _standard() -> CardSet:
    if not _STANDARD:
        raw = resources.files("cruiselib.dream_cruise").joinpath("data/cards.json").read_bytes()
        _STANDARD.append(CardSet.from_json(raw))
    return _STANDARD[0]
