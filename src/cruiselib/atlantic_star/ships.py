"""The Atlantic Star ship list and board table: validated, replaceable package data (A2, A4).

The rulebook prints neither. The default ship list ``data/ships.json`` is
**engine-authored** (ruling A4) by :mod:`cruiselib.atlantic_star.shipgen`; the default
board table is ruling A2. Load your own ship list with :meth:`ShipList.from_file` or
:meth:`ShipList.from_json` and pass it as ``cruiselib.make("atlantic_star", ships=...)``;
pass another table as ``board=`` (five classes 1★…5★, six fields each, top first).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cached_property
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Annotated, Literal, cast

import msgspec

from cruiselib import _core
from cruiselib._files import MAX_COMPONENT_FILE_BYTES, decode_component, read_component_file
from cruiselib.errors import InvalidOptionError

__all__ = [
    "DEFAULT_BOARD",
    "LEGS",
    "MAX_SHIP_FILE_BYTES",
    "SEAS",
    "Board",
    "Entry",
    "Ship",
    "ShipList",
    "check_board",
]

SeaName = Literal["Baltic", "Mediterranean", "Atlantic", "Pacific"]
SEAS = cast("tuple[SeaName, SeaName, SeaName, SeaName]", _core.load("atlantic_star").SEA_NAMES)
LEGS: tuple[int, int, int, int] = _core.load("atlantic_star").LEGS  # A1
SEA_SHORT = {"Baltic": "Bal", "Mediterranean": "Med", "Atlantic": "Atl", "Pacific": "Pac"}
MIN_SHIPS = 128  # enough that the pack never runs dry (see docs/atlantic_star.md, A12)
MAX_SHIPS = 256
MAX_ENTRY = 9  # A4: an entry's value is 1..9
MAX_VALUE = MAX_ENTRY * LEGS[-1] + LEGS[-1]  # 60: a Pacific voyage of 9s plus the bonus (A1)
MAX_SHIP_FILE_BYTES = MAX_COMPONENT_FILE_BYTES
"""The largest ship-list file :meth:`ShipList.from_file` reads: 1 MiB. The standard list is
about 18 kB and the largest list the engine takes (256 ships of 3 entries, long names)
stays under 100 kB; the limit keeps a path to a huge file or a device from exhausting memory."""

Board = tuple[tuple[int, ...], ...]
# A2: victory points, top field to bottom field, for 1★ … 5★.
DEFAULT_BOARD: Board = (
    (14, 12, 10, 8, 6, 4),
    (18, 14, 10, 7, 4, 2),
    (22, 16, 10, 6, 3, 1),
    (26, 18, 10, 5, 2, 1),
    (30, 20, 10, 4, 1, 0),
)


class Entry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One line of a ship card: it may sail this leg of this sea for this value."""

    sea: SeaName
    leg: Annotated[int, msgspec.Meta(ge=1, le=6, description="leg number, 1-based")]
    value: Annotated[int, msgspec.Meta(ge=1, le=MAX_ENTRY)]

    def __str__(self) -> str:
        return f"{SEA_SHORT[self.sea]} {self.leg}: {self.value}"


class Ship(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A ship card: a regular ship with 1-3 entries, or a mail ship (1 on any leg of any sea)."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
    mail: bool = False
    legs: tuple[Entry, ...] = ()

    def __str__(self) -> str:
        if self.mail:
            return f"{self.name} (mail: 1 on any leg)"
        return f"{self.name} ({', '.join(str(e) for e in self.legs)})"


class ShipList(msgspec.Struct, frozen=True, forbid_unknown_fields=True, dict=True):
    """A complete ship list; a ship's id is its position in ``ships``."""

    name: str
    ships: tuple[Ship, ...]
    description: str = ""
    provenance: dict[str, str] = {}

    def __post_init__(self) -> None:
        # Also run for a list built in Python (ShipList(...)), where msgspec checks no field
        # types or ranges: every value that reaches the core's C tables is checked here.
        if not isinstance(self.name, str):
            raise InvalidOptionError(f"a ship list's name is a str, not {self.name!r}")
        if not isinstance(self.ships, (tuple, list)):
            raise InvalidOptionError("a ship list's ships are a tuple of Ship")
        n = len(self.ships)
        if not MIN_SHIPS <= n <= MAX_SHIPS:
            raise InvalidOptionError(
                f"a ship list has {MIN_SHIPS}..{MAX_SHIPS} ships (the game has 132; A12), not {n}"
            )
        names: set[str] = set()
        for i, ship in enumerate(self.ships):
            if not isinstance(ship, Ship):
                raise InvalidOptionError(f"ship {i} is not a Ship: {ship!r}")
            if not isinstance(ship.name, str) or not 1 <= len(ship.name) <= 40:
                raise InvalidOptionError(f"ship {i}'s name is a str of 1..40 characters")
            if ship.name in names:
                raise InvalidOptionError(f"ship name {ship.name!r} is used twice")
            names.add(ship.name)
            if not isinstance(ship.mail, bool) or not isinstance(ship.legs, (tuple, list)):
                raise InvalidOptionError(f"ship {ship.name!r}: mail is a bool, legs a tuple")
            if ship.mail:
                if ship.legs:
                    raise InvalidOptionError(
                        f"mail ship {ship.name!r} lists no legs (it sails any leg)"
                    )
                continue
            if not 1 <= len(ship.legs) <= 3:
                raise InvalidOptionError(
                    f"ship {ship.name!r} lists 1-3 legs (A4), not {len(ship.legs)}"
                )
            seen: set[tuple[str, int]] = set()
            for e in ship.legs:
                if not isinstance(e, Entry) or e.sea not in SEAS:
                    raise InvalidOptionError(f"ship {ship.name!r}: {e!r} is not a sea's entry")
                legs = LEGS[SEAS.index(e.sea)]
                if type(e.leg) is not int or not 1 <= e.leg <= legs:
                    raise InvalidOptionError(
                        f"ship {ship.name!r}: the {e.sea} voyage has legs 1..{legs}, not {e.leg!r}"
                    )
                if type(e.value) is not int or not 1 <= e.value <= MAX_ENTRY:
                    raise InvalidOptionError(
                        f"ship {ship.name!r}: an entry is worth 1..{MAX_ENTRY} (A4), not {e.value!r}"
                    )
                if (e.sea, e.leg) in seen:
                    raise InvalidOptionError(f"ship {ship.name!r} lists {e.sea} leg {e.leg} twice")
                seen.add((e.sea, e.leg))

    # --- loading ---------------------------------------------------------------

    @classmethod
    def standard(cls) -> ShipList:
        """The default, engine-authored ship list (A4)."""
        return _standard()

    @classmethod
    def from_json(cls, data: str | bytes | bytearray | memoryview) -> ShipList:
        """Parse and validate a ship list from JSON text or UTF-8 bytes (InvalidOptionError
        on any problem, whatever the type of ``data``)."""
        return decode_component(data, cls, what="ship list")

    @classmethod
    def from_file(cls, path: str | Path) -> ShipList:
        """Load and validate a ship list from a JSON file.

        Only a regular file of at most :data:`MAX_SHIP_FILE_BYTES` is read: a device, a
        FIFO, a directory or a larger file raises InvalidOptionError (as does a file that
        cannot be read, or a list that is not valid).
        """
        return cls.from_json(read_component_file(path, what="ship list", limit=MAX_SHIP_FILE_BYTES))

    def to_json(self) -> bytes:
        return msgspec.json.encode(self)

    # --- derived tables ----------------------------------------------------------

    @cached_property
    def digest(self) -> str:
        """A short fingerprint saved in every state, so a state only loads with its own list."""
        return hashlib.sha256(msgspec.json.encode(self.ships)).hexdigest()[:16]

    @cached_property
    def index(self) -> dict[str, int]:
        """Ship id by name."""
        return {s.name: i for i, s in enumerate(self.ships)}

    def core_tables(self) -> tuple[list[bool], list[list[tuple[int, int, int]]]]:
        """(mail flags, entries as (sea index, 0-based leg, value)) for the compiled core."""
        mail = [s.mail for s in self.ships]
        entries = [[(SEAS.index(e.sea), e.leg - 1, e.value) for e in s.legs] for s in self.ships]
        return mail, entries


def check_board(board: object) -> Board:
    """Validate a board table (A2 option): 5 classes x 6 non-increasing ints in 0..99."""
    if board is None:
        return DEFAULT_BOARD
    if isinstance(board, (str, bytes)) or not isinstance(board, Sequence) or len(board) != 5:
        raise InvalidOptionError(
            "board is a sequence of 5 classes (1★ to 5★), each 6 victory-point values"
        )
    out = []
    for k, col in enumerate(board):
        if isinstance(col, (str, bytes)) or not isinstance(col, Sequence) or len(col) != 6:
            raise InvalidOptionError(f"board class {k + 1}★ must list 6 values, top field first")
        vals = []
        for v in col:
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 99:
                raise InvalidOptionError(f"board class {k + 1}★: values are ints 0..99, not {v!r}")
            vals.append(v)
        if any(b > a for a, b in pairwise(vals)):
            raise InvalidOptionError(
                f"board class {k + 1}★: victory points go in descending order, not {vals}"
            )
        out.append(tuple(vals))
    return tuple(out)


_STANDARD: list[ShipList] = []


def _standard() -> ShipList:
    if not _STANDARD:
        raw = resources.files("cruiselib.atlantic_star").joinpath("data/ships.json").read_bytes()
        _STANDARD.append(ShipList.from_json(raw))
    return _STANDARD[0]
