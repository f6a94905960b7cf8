"""Typed moves of Sirens in Sight (a msgspec tagged union on the field ``type``).

Ships are named by their printed value (28 … 36 in the standard set); a side by the seat
it belongs to; a card by its face: value plus move-crew icon (``crew``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import msgspec
from msgspec import Meta

from cruiselib.sirens.cards import MAX_SHIP, MAX_VALUE

if TYPE_CHECKING:
    from cruiselib._api import NotationTemplate

__all__ = ["EndTurn", "MoveCard", "MoveCrew", "Pass", "PickCard", "PlayCard", "SirensMove", "UseRum"]


# The ranges a card set allows (cards.py).
Value = Annotated[int, Meta(ge=-MAX_VALUE, le=MAX_VALUE, description="card value")]
Ship = Annotated[int, Meta(ge=1, le=MAX_SHIP, description="printed value of a ship card")]
Side = Annotated[int, Meta(ge=0, le=1, description="the seat whose side of the ship card it is")]


def _card(value: int, crew: bool) -> str:
    return f"{value}{'⚓' if crew else ''}"


class PlayCard(msgspec.Struct, frozen=True, tag="play", tag_field="type"):
    """Play a card of this face to one side of a ship card, then draw (S4, S5)."""

    value: Value
    crew: bool
    ship: Ship
    side: Side

    def __str__(self) -> str:
        return f"play {_card(self.value, self.crew)} to ship {self.ship}, seat {self.side}'s side"


class MoveCard(msgspec.Struct, frozen=True, tag="octopus", tag_field="type"):
    """Use the octopus: move a card in play to another side of a ship card (S7)."""

    value: Value
    crew: bool
    from_ship: Ship
    from_side: Side
    to_ship: Ship
    to_side: Side

    def __str__(self) -> str:
        return (
            f"octopus: move {_card(self.value, self.crew)} from ship {self.from_ship}/seat "
            f"{self.from_side} to ship {self.to_ship}/seat {self.to_side}"
        )


class UseRum(msgspec.Struct, frozen=True, tag="rum", tag_field="type"):
    """Put the rum mug on a ship card in play: its threshold rises by 3 (S6)."""

    ship: Ship

    def __str__(self) -> str:
        return f"rum on ship {self.ship}"


class EndTurn(msgspec.Struct, frozen=True, tag="end", tag_field="type"):
    """End the turn after the main action, keeping the rum mug (S4)."""

    def __str__(self) -> str:
        return "end turn"


class Pass(msgspec.Struct, frozen=True, tag="pass", tag_field="type"):
    """No card to play and no octopus move: pass (S4)."""

    def __str__(self) -> str:
        return "pass"


class MoveCrew(msgspec.Struct, frozen=True, tag="crew", tag_field="type"):
    """The owner of the played-on side moves the crew token to this ship card (S5)."""

    to_ship: Ship

    def __str__(self) -> str:
        return f"move crew to ship {self.to_ship}"


class PickCard(msgspec.Struct, frozen=True, tag="pick", tag_field="type"):
    """Variant "bow to rear": pick a starting card of this face from the own set (S9)."""

    value: Value
    crew: bool

    def __str__(self) -> str:
        return f"pick {_card(self.value, self.crew)}"


SirensMove = PlayCard | MoveCard | UseRum | EndTurn | Pass | MoveCrew | PickCard
MOVE_TYPES = (PlayCard, MoveCard, UseRum, EndTurn, Pass, MoveCrew, PickCard)


def _face(value: int, crew: bool) -> tuple[str, tuple[str, ...]]:
    """A card's value and its optional move-crew icon (left out, the value alone names it)."""
    return (str(value), ("\u2693", "") if crew else ("",))


def notation_templates(move: SirensMove) -> tuple[NotationTemplate, ...]:
    """The texts that name ``move`` (see ``Game._notation_templates`` and docs/sirens.md,
    "Notation"): the crew icon, ``octopus:``, ``'s side`` and the word ``ship`` may be left out."""
    if isinstance(move, PlayCard):
        where = (" to ", ("ship ", ""), f"{move.ship}, seat {move.side}", ("'s side", ""))
        return (("play ", *_face(move.value, move.crew), *where),)
    if isinstance(move, MoveCard):
        return (
            (
                ("octopus: ", ""),
                "move ",
                *_face(move.value, move.crew),
                f" from ship {move.from_ship}/seat {move.from_side} to ship {move.to_ship}/seat {move.to_side}",
            ),
        )
    if isinstance(move, UseRum):
        return ((("rum on ", "rum "), ("ship ", ""), str(move.ship)),)
    if isinstance(move, EndTurn):
        return ((("end turn", "end"),),)
    if isinstance(move, MoveCrew):
        return ((("move crew to ", "crew to "), ("ship ", ""), str(move.to_ship)),)
    if isinstance(move, PickCard):
        return (("pick ", *_face(move.value, move.crew)),)
    return ((str(move),),)
