"""Typed moves of Dream Islands (a msgspec tagged union on the field ``type``).

Places are ints: 0 the airplane, 1..8 the ring islands (8 is the heart island), 9 the
middle. Missions are ids 0..15 (see :data:`MISSIONS`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Annotated

import msgspec
from msgspec import Meta

from cruiselib._core.constants import enum_constants

if TYPE_CHECKING:
    from cruiselib._api import NotationTemplate

__all__ = [
    "AIRPLANE",
    "MIDDLE",
    "MISSIONS",
    "Cover",
    "Draw",
    "DreamIslandsMove",
    "Path",
    "PutUnder",
    "mission_name",
    "place_name",
]

AIRPLANE = 0  # place 0: where a seat's pieces start
MIDDLE: int = enum_constants("dream_islands")["MID"]  # place 9, the middle island

Place = Annotated[int, Meta(ge=0, le=9)]


def _mission_names() -> tuple[str, ...]:
    exact = [f"exactly {k} pieces on one island" for k in range(2, 6)]
    runs = [f"on exactly {k} consecutive islands" for k in range(2, 6)]
    major = [f"majority on island {i}" for i in range(1, 9)]
    return tuple(exact + runs + major)


MISSIONS: tuple[str, ...] = _mission_names()
"""The 16 missions of every colour (I4), by id."""


def mission_name(mission: int) -> str:
    return MISSIONS[mission] if 0 <= mission < len(MISSIONS) else f"mission {mission}"


def place_name(place: int) -> str:
    if place == AIRPLANE:
        return "airplane"
    if place == MIDDLE:
        return "middle"
    return f"island {place}"


class Path(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``pieces`` of the mover's pieces go from place ``start`` to place ``end``."""

    start: Place
    end: Place
    pieces: Annotated[int, Meta(ge=1, le=6)] = 1

    def __str__(self) -> str:
        what = f"{self.pieces} piece{'s' if self.pieces != 1 else ''}"
        if 1 <= self.start <= 8 and 1 <= self.end <= 8:
            return f"{what} island {self.start}→{self.end}"
        return f"{what} {place_name(self.start)}→{place_name(self.end)}"


class Cover(msgspec.Struct, frozen=True, tag="cover", tag_field="type"):
    """Cover a number with a shell and move the own pieces by it in total (I2, I3).

    ``paths`` is one way of splitting the number; every split with the same result is
    the same move (I3), and the engine shows a canonical one. Empty ``paths``: the seat
    has no movable piece, the number is covered and nothing moves.
    """

    number: Annotated[int, Meta(ge=2, le=5)]
    paths: tuple[Path, ...] = ()

    def __str__(self) -> str:
        return _cover_text(self)


@lru_cache(maxsize=8192)
def _cover_text(move: Cover) -> str:
    if not move.paths:
        return f"cover {move.number} (no piece can move)"
    return f"cover {move.number}: " + ", ".join(str(p) for p in move.paths)


class PutUnder(msgspec.Struct, frozen=True, tag="put", tag_field="type"):
    """Put this mission card from the hand at the very bottom of the own draw pile (I6)."""

    mission: Annotated[int, Meta(ge=0, le=15)]

    def __str__(self) -> str:
        return f"put '{mission_name(self.mission)}' under the draw pile"


class Draw(msgspec.Struct, frozen=True, tag="draw", tag_field="type"):
    """End the exchange: draw until the hand holds 3 cards (fewer when the pile is short, I6)."""

    def __str__(self) -> str:
        return "draw up to 3"


DreamIslandsMove = Cover | PutUnder | Draw
MOVE_TYPES = (Cover, PutUnder, Draw)


def notation_templates(move: DreamIslandsMove) -> tuple[NotationTemplate, ...]:
    """The texts that name ``move`` besides ``str(move)`` (docs/dream_islands.md,
    "Notation"); a cover's paths are read in any split and order by the game's
    ``_notation_key``."""
    if isinstance(move, PutUnder):
        return (("put '", mission_name(move.mission), "'", (" under the draw pile", " under the pile", " under", "")),)
    if isinstance(move, Draw):
        return ((("draw up to 3", "draw"),),)
    return ((str(move),),)
