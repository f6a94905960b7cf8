"""The Sirens in Sight card set: validated, replaceable package data (rulings S1, S2, S10).

The default set ``data/standard.json`` holds the rulebook's 52 playing cards and five
ship cards. Which cards carry the move-crew icon is not printed in the rulebook; the
default (every card of value 0 or below) is **engine-authored** per ruling S1. Load your
own set with :meth:`CardSet.from_file` or :meth:`CardSet.from_json` and pass it as
``cruiselib.make("sirens", cards=...)``.
"""

from __future__ import annotations

import hashlib
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

import msgspec

from cruiselib._files import MAX_COMPONENT_FILE_BYTES, decode_component, read_component_file
from cruiselib.errors import InvalidOptionError

__all__ = ["MAX_CARD_FILE_BYTES", "Card", "CardSet", "Face"]

Emblem = Literal["seastar", "shell"]
EMBLEMS: tuple[Emblem, Emblem] = ("seastar", "shell")
MIN_CARDS = 8
"""S3: each of the two seats is dealt a hand of 4 (S9: picks 4 from its own set)."""
MAX_CARDS = 64
"""The core's card arrays and the state schema's card ids (0..63)."""
MAX_FACES = 32
"""The core's face bit masks (32 bits) and the schema's pick floors (0..31)."""
MAX_VALUE = 99
"""Card values are -99..99."""
MAX_SHIP = 999
"""Ship values are 1..999."""
MAX_CARD_FILE_BYTES = MAX_COMPONENT_FILE_BYTES
"""The largest card-set file :meth:`CardSet.from_file` reads: 1 MiB. The standard set is
about 4 kB and the largest set the engine takes (64 cards) stays under 10 kB; the limit
keeps a path to a huge file or a device from exhausting memory."""


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One playing card: its strength, its emblem and whether it has the move-crew icon."""

    value: Annotated[int, msgspec.Meta(ge=-MAX_VALUE, le=MAX_VALUE)]
    emblem: Emblem
    crew: bool


class Face(msgspec.Struct, frozen=True, order=True):
    """What matters for play: the value and the move-crew icon (emblems only deal the variant)."""

    value: int
    crew: bool

    def __str__(self) -> str:
        return f"{self.value}{'⚓' if self.crew else ''}"


class CardSet(msgspec.Struct, frozen=True, forbid_unknown_fields=True, dict=True):
    """A complete card set: playing cards (ids are list positions) and the ship values."""

    name: str
    cards: tuple[Card, ...]
    ships: tuple[int, int, int, int, int]
    description: str = ""
    provenance: dict[str, str] = {}

    def __post_init__(self) -> None:
        if not MIN_CARDS <= len(self.cards) <= MAX_CARDS:
            raise InvalidOptionError(
                f"a card set has {MIN_CARDS}..{MAX_CARDS} cards, not {len(self.cards)}: each of the 2 seats "
                f"is dealt a hand of 4 (S3), and the engine holds at most {MAX_CARDS} cards"
            )
        if len(set(self.ships)) != 5 or min(self.ships) < 1 or max(self.ships) > MAX_SHIP:
            raise InvalidOptionError(f"ship values must be 5 distinct values in 1..{MAX_SHIP}: {self.ships}")
        if len(self.faces) > MAX_FACES:
            raise InvalidOptionError(
                f"a card set has at most {MAX_FACES} distinct (value, crew) faces, not {len(self.faces)}"
            )

    # --- loading ---------------------------------------------------------------

    @classmethod
    def standard(cls) -> CardSet:
        """The default card set (rulebook data plus rulings S1 and S2)."""
        return _standard()

    @classmethod
    def from_json(cls, data: str | bytes | bytearray | memoryview) -> CardSet:
        """Parse and validate a card set from JSON text or UTF-8 bytes (InvalidOptionError
        on any problem, whatever the type of ``data``)."""
        return decode_component(data, cls, what="card set")

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
    def faces(self) -> tuple[Face, ...]:
        """Distinct faces in ascending (value, crew) order; a face's index is its action code."""
        return tuple(sorted({Face(c.value, c.crew) for c in self.cards}))

    @cached_property
    def face_index(self) -> dict[Face, int]:
        return {f: i for i, f in enumerate(self.faces)}

    def face_of(self, card_id: int) -> Face:
        card = self.cards[card_id]
        return Face(card.value, card.crew)

    @cached_property
    def digest(self) -> str:
        """A short fingerprint saved in every state, so a state only loads with its own set."""
        canonical = msgspec.json.encode([self.cards, self.ships])
        return hashlib.sha256(canonical).hexdigest()[:16]

    def check_variant(self) -> None:
        """S9 needs two identical emblem sets of at least 4 cards each."""
        sets = [sorted((c.value, c.crew) for c in self.cards if c.emblem == emblem) for emblem in EMBLEMS]
        if sets[0] != sets[1] or len(sets[0]) < 4:
            raise InvalidOptionError(
                "the 'bow_to_rear' variant needs two identical emblem sets (seastar and shell) of at least 4 cards each"
            )


_STANDARD: list[CardSet] = []


def _standard() -> CardSet:
    if not _STANDARD:
        raw = resources.files("cruiselib.sirens").joinpath("data/standard.json").read_bytes()
        _STANDARD.append(CardSet.from_json(raw))
    return _STANDARD[0]
