"""Typed moves of Dream Cruise (a msgspec tagged union on the field ``type``).

A move names cards by id (the game's card set lists them). The names after the ids
(``name``, ``family``, ``activity`` ...) are annotations for reading: ``str(move)`` uses
them, equality and hashing ignore them, and a move built by hand may leave them out.
``game.legal_moves()`` fills in what the position shows (which family a cabin holds,
which activity a spot is, the cards of a display set).
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Annotated

import msgspec
from msgspec import Meta

from cruiselib._core.constants import enum_constants

if TYPE_CHECKING:
    from cruiselib._api import NotationTemplate

__all__ = [
    "SPOT_NAMES",
    "Board",
    "Build",
    "Captain",
    "Done",
    "DreamCruiseMove",
    "Keep",
    "Place",
    "Plan",
    "Take",
    "spot_name",
]

_MAXF, _MAXL, _MAXS = itemgetter("MAXF", "MAXL", "MAXS")(enum_constants("dream_cruise"))  # the core's .pxd
FamilyId = Annotated[int, Meta(ge=0, le=_MAXF - 1)]
LocationId = Annotated[int, Meta(ge=0, le=_MAXL - 1)]
ShipId = Annotated[int, Meta(ge=0, le=_MAXS - 1)]
CABIN_NAMES = ("inner", "oceanview", "balcony")
SPOT_NAMES = ("location top", "location bottom", "second sea slot")


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def spot_name(spot: int) -> str:
    """Spot 0 the top of the current location card, 1 its bottom (or a sea card's first
    activity card), 2 a sea card's second activity card, 3 + j addition space j."""
    if 0 <= spot < 3:
        return SPOT_NAMES[spot]
    return f"addition {spot - 2}"


class _Move(msgspec.Struct, frozen=True, eq=False, forbid_unknown_fields=True, omit_defaults=True, tag_field="type"):
    """Equality and hashing by the fields that choose the action, not the annotations."""

    def _key(self) -> tuple[object, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._key() == self._key()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))


class Board(_Move, frozen=True, tag="board"):
    """Phase 1: put the drawn ``family`` into the first empty cabin (C17)."""

    family: FamilyId
    name: str | None = None

    def _key(self) -> tuple[object, ...]:
        return (self.family,)

    def __str__(self) -> str:
        return f"board {self.name or f'family {self.family}'}"


class Keep(_Move, frozen=True, tag="keep"):
    """Phase 2: keep the drawn ``location`` card (the other drawn cards are discarded)."""

    location: LocationId
    name: str | None = None

    def _key(self) -> tuple[object, ...]:
        return (self.location,)

    def __str__(self) -> str:
        return f"keep {self.name or f'location {self.location}'}"


class Take(_Move, frozen=True, tag="take"):
    """Phase 3: take display set ``set`` (0 is the face-down set, C7)."""

    set: Annotated[int, Meta(ge=0, le=4)]
    cards: tuple[str, ...] | None = None

    def _key(self) -> tuple[object, ...]:
        return (self.set,)

    def __str__(self) -> str:
        if self.set == 0:
            return "take the face-down set"
        if self.cards:
            return f"take set {self.set}: {' + '.join(self.cards)}"
        return f"take set {self.set}"


class Place(_Move, frozen=True, tag="place"):
    """Phase 4: a figure of the family in ``cabin`` onto activity ``spot`` (see
    :func:`spot_name`)."""

    cabin: Annotated[int, Meta(ge=0, le=2)]
    spot: Annotated[int, Meta(ge=0, le=6)]
    family: str | None = None
    activity: str | None = None

    def _key(self) -> tuple[object, ...]:
        return (self.cabin, self.spot)

    def __str__(self) -> str:
        who = (f"{_article(self.family)} {self.family} guest" if self.family
               else f"a guest from the {CABIN_NAMES[self.cabin]} cabin")
        return f"send {who} to {self.activity or spot_name(self.spot)}"


class Plan(_Move, frozen=True, tag="plan"):
    """Phase 4: play activity ``card`` onto the current location card (C17, C18)."""

    card: ShipId
    name: str | None = None

    def _key(self) -> tuple[object, ...]:
        return (self.card,)

    def __str__(self) -> str:
        return f"plan {self.name or f'activity card {self.card}'}"


class Build(_Move, frozen=True, tag="build"):
    """Phase 4: build ``addition`` paying hand card ``payment`` (C6): into the first free
    space, or replacing the addition on space ``replaces`` when every space is built."""

    addition: ShipId
    payment: ShipId
    replaces: Annotated[int, Meta(ge=0, le=3)] | None = None
    name: str | None = None
    payment_name: str | None = None
    replaced_name: str | None = None

    def _key(self) -> tuple[object, ...]:
        return (self.addition, self.payment, self.replaces)

    def __str__(self) -> str:
        text = f"build {self.name or f'addition {self.addition}'}, paying {self.payment_name or f'card {self.payment}'}"
        if self.replaces is not None:
            text += f", replacing {self.replaced_name or f'addition {self.replaces + 1}'}"
        return text


class Captain(_Move, frozen=True, tag="captain"):
    """Phase 4: the captain onto location ``spot`` (0..2) paying hand card ``payment``; any
    guest may then join that activity (C5)."""

    spot: Annotated[int, Meta(ge=0, le=2)]
    payment: ShipId
    activity: str | None = None
    payment_name: str | None = None

    def _key(self) -> tuple[object, ...]:
        return (self.spot, self.payment)

    def __str__(self) -> str:
        return (f"captain to {self.activity or spot_name(self.spot)}, "
                f"paying {self.payment_name or f'card {self.payment}'}")


class Done(_Move, frozen=True, tag="done"):
    """Phase 4: end the own turn of phase 4."""

    def _key(self) -> tuple[object, ...]:
        return ()

    def __str__(self) -> str:
        return "done"


DreamCruiseMove = Board | Keep | Take | Place | Plan | Build | Captain | Done
MOVE_TYPES = (Board, Keep, Take, Place, Plan, Build, Captain, Done)


OPEN_SEA = "Open Sea: "  # how the standard set's sea cards are named


def _spot_texts(activity: str | None, spot: int) -> tuple[str, ...]:
    """An activity as the move shows it, without its parenthesised kind, without the
    ``Open Sea:`` of a sea card (as ``keep`` reads it), and the spot's name."""
    texts = [activity or spot_name(spot)]
    if activity and activity.endswith(")") and " (" in activity:
        texts.append(activity.rsplit(" (", 1)[0])
    if activity and activity.startswith(OPEN_SEA):
        texts += [t[len(OPEN_SEA):] for t in texts]
    texts.append(spot_name(spot))
    return tuple(dict.fromkeys(texts))


def notation_templates(move: DreamCruiseMove) -> tuple[NotationTemplate, ...]:
    """The texts that name ``move`` (docs/dream_cruise.md, "Notation"): a guest may be named
    by its family or its cabin, a spot by its activity (with or without the kind in
    parentheses) or its name, a face-up set by its number or its cards."""
    if isinstance(move, Keep) and move.name and move.name.startswith(OPEN_SEA):
        return (("keep ", (move.name, move.name[len(OPEN_SEA):])),)
    if isinstance(move, Take):
        if move.set == 0:
            return (("take ", ("the face-down set", "the facedown set", "face-down", "facedown", "set 0")),)
        if move.cards:
            cards = " + ".join(move.cards)
            return ((f"take set {move.set}", (f": {cards}", "")), (f"take {cards}",))
    if isinstance(move, Place):
        cabin = f"a guest from the {CABIN_NAMES[move.cabin]} cabin"
        who = (f"{_article(move.family)} {move.family} guest", move.family, cabin) if move.family else (cabin,)
        return (("send ", who, " to ", _spot_texts(move.activity, move.spot)),)
    if isinstance(move, Build):
        text = f"build {move.name or f'addition {move.addition}'}, paying {move.payment_name or f'card {move.payment}'}"
        if move.replaces is None:
            return ((text,),)
        plain = f", replacing addition {move.replaces + 1}"
        replaced = (f", replacing {move.replaced_name}", plain, "") if move.replaced_name else (plain, "")
        return ((text, replaced),)
    if isinstance(move, Captain):
        pay = f", paying {move.payment_name or f'card {move.payment}'}"
        return (("captain to ", _spot_texts(move.activity, move.spot), pay),)
    if isinstance(move, Done):
        return ((("done", "end turn", "end"),),)
    return ((str(move),),)


_FACE_DOWN = frozenset({"take face down set", "take facedown set", "take face down", "take facedown", "take set 0"})


def notation_key(key: str) -> str:
    """A normalized take text with the set's cards in a fixed order (they may be typed in any)."""
    words = key.split()
    if words[0] != "take" or key in _FACE_DOWN:
        return key
    if words[1:2] == ["set"]:
        return " ".join(words[:3] + sorted(words[3:]))
    return " ".join(words[:1] + sorted(words[1:]))
