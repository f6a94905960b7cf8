"""Toy Duel's move, its full state and a seat's view (msgspec Structs, with JSON Schemas)."""

from __future__ import annotations

from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta

from cruiselib.serialize import Deal, History, RngText, rng_to_text

__all__ = [
    "GAME_NAME",
    "SCHEMA_VERSION",
    "Play",
    "ToyDuelMove",
    "ToyDuelStateData",
    "ToyDuelView",
    "rng_to_text",
]

GAME_NAME: Final = "toy_duel"
SCHEMA_VERSION: Final = 1

Card = Annotated[int, Meta(ge=0, le=11, description="card id; its value is id + 1 (T1)")]
CardOrNone = Annotated[int, Meta(ge=-1, le=11, description="card id, or -1 for none")]
Seat = Annotated[int, Meta(ge=0, le=1)]
SeatOrNone = Annotated[int, Meta(ge=-1, le=1)]
Points = Annotated[list[Annotated[int, Meta(ge=0, le=78)]], Meta(min_length=2, max_length=2)]
Hand = Annotated[list[Card], Meta(max_length=4)]


class Play(msgspec.Struct, frozen=True, tag="play", tag_field="type"):
    """Play a card from the hand (T2)."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card + 1}"


ToyDuelMove = Play


class ToyDuelStateData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The complete state of a Toy Duel game (schema version 1)."""

    schema_version: Literal[1]
    game: Literal["toy_duel"]
    rng: RngText
    current_player: SeatOrNone
    leader: Seat
    led: CardOrNone
    hands: Annotated[list[Hand], Meta(min_length=2, max_length=2)]
    stock: Annotated[list[Card], Meta(max_length=4, description="face down, bottom first")]
    played: Annotated[list[Card], Meta(max_length=12, description="cards of finished tricks")]
    points: Points
    deal: Annotated[Deal | None, Meta(description="how the game began; None: the history starts here")] = None
    history: History = []


class ToyDuelView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat sees: its hand, the table, the counts of hidden cards."""

    game: Literal["toy_duel"] = "toy_duel"
    player: Seat
    current_player: SeatOrNone
    leader: Seat
    led: CardOrNone
    hand: Hand
    opponent_hand_size: Annotated[int, Meta(ge=0, le=4)]
    stock_size: Annotated[int, Meta(ge=0, le=4)]
    played: Annotated[list[Card], Meta(max_length=12)]
    points: Points
    legal_actions: Annotated[list[Card], Meta(max_length=4)]
