"""Typed moves of Atlantic Star (a msgspec tagged union on the field ``type``).

A move names an action: its *identity* fields (sea, class, keep slots, agency space,
amount …) are all an action id encodes. Moves listed by ``state.legal_moves()`` also carry
*annotations* (the ship names, the voyage's points, the value after a loan) so that
``str(move)`` reads like "voyage Pacific 4★ with Rhea, …: 31 points". Annotations are
ignored by ``==``, ``hash`` and ``game.move_to_action``: a move from
``game.action_to_move(a)`` equals the annotated one of the same action.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Union

import msgspec
from msgspec import Meta

from cruiselib.atlantic_star.ships import MAX_VALUE, SEA_SHORT, SeaName

if TYPE_CHECKING:
    from cruiselib._api import NotationTemplate

__all__ = ["AtlanticStarMove", "Charter", "Loan", "Refresh", "Voyage"]

PRICES = (3000, 2000, 1000, 0)  # agency spaces, dearest first


def _marks(amount: int) -> str:
    return f"{amount:,}"


class Loan(
    msgspec.Struct, frozen=True, tag="loan", tag_field="type", eq=False, forbid_unknown_fields=True
):
    """Borrow ``amount`` marks against the seat's voyage in ``sea`` (``voyage`` 0 or 1: the
    first or second one there, with 2-3 players). Lowers the voyage's value by 1 per 1,000.

    Annotation: ``value`` is the voyage's value after the loan.
    """

    sea: SeaName
    amount: Annotated[int, Meta(ge=1000, le=10000, multiple_of=1000)]
    voyage: Annotated[int, Meta(ge=0, le=1)] = 0
    value: Annotated[int, Meta(ge=0, le=MAX_VALUE)] | None = None

    def _key(self) -> tuple[Any, ...]:
        return ("loan", self.sea, self.amount, self.voyage)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Loan) and self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        which = "second " if self.voyage == 1 else ""
        after = f" (value now {self.value})" if self.value is not None else ""
        return f"loan {_marks(self.amount)} on the {which}{self.sea} voyage{after}"


class Refresh(
    msgspec.Struct,
    frozen=True,
    tag="refresh",
    tag_field="type",
    eq=False,
    forbid_unknown_fields=True,
):
    """Pay 2,000 marks to replace all four ships of the charter agency."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Refresh)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(("refresh",))

    def __str__(self) -> str:
        return "refresh the agency for 2,000"


class Charter(
    msgspec.Struct,
    frozen=True,
    tag="charter",
    tag_field="type",
    eq=False,
    forbid_unknown_fields=True,
):
    """Charter the ship on the agency space of this ``price`` (3000, 2000, 1000 or 0 marks).

    Annotation: ``ship`` is the ship's description.
    """

    price: Annotated[int, Meta(ge=0, le=3000, multiple_of=1000)]
    ship: str | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Charter) and self.price == other.price

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(("charter", self.price))

    def __str__(self) -> str:
        what = self.ship if self.ship is not None else "the ship"
        cost = "free" if self.price == 0 else f"for {_marks(self.price)}"
        return f"charter {what} {cost}"


class Voyage(
    msgspec.Struct,
    frozen=True,
    tag="voyage",
    tag_field="type",
    eq=False,
    forbid_unknown_fields=True,
):
    """Stage a voyage in ``sea`` in the ``stars`` class, playing every hand card except the
    hand slots in ``keep`` (the hand is sorted by ship id; at most 2 cards are kept, A6).

    Annotations: ``ships`` lists the ships by leg (leg 1 first) as the optimal assignment
    puts them (A5), ``points`` is the voyage's value, ``kept`` the ships kept in hand.
    """

    sea: SeaName
    stars: Annotated[int, Meta(ge=1, le=5)]
    keep: Annotated[tuple[Annotated[int, Meta(ge=0, le=7)], ...], Meta(max_length=2)] = ()
    ships: Annotated[tuple[str, ...], Meta(max_length=6)] | None = None
    points: Annotated[int, Meta(ge=0, le=MAX_VALUE)] | None = None
    kept: Annotated[tuple[str, ...], Meta(max_length=2)] | None = None

    def _key(self) -> tuple[Any, ...]:
        return ("voyage", self.sea, self.stars, tuple(sorted(self.keep)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Voyage) and self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        head = f"voyage {self.sea} {self.stars}★"
        if self.ships is not None:
            text = f"{head} with {', '.join(self.ships)}"
            if self.points is not None:
                text += f": {_points(self.points)}"
            if self.kept:
                text += f" (keeps {', '.join(self.kept)})"
            return text
        if not self.keep:
            return f"{head} with the whole hand"
        slots = ", ".join(map(str, self.keep))
        return f"{head} keeping hand slot{'s' if len(self.keep) > 1 else ''} {slots}"


AtlanticStarMove = Union[Loan, Refresh, Charter, Voyage]  # noqa: UP007 - a runtime alias
MOVE_TYPES = (Loan, Refresh, Charter, Voyage)


def notation_templates(move: AtlanticStarMove) -> tuple[NotationTemplate, ...]:
    """The texts that name ``move`` (docs/atlantic_star.md, "Notation"): annotations in
    parentheses, ``voyage``, ``for …`` and a voyage's class may be left out, a sea may be
    written as its short name, a charter may name just the ship, a voyage just the ships
    it keeps (``keeping Juno``) or nothing but its sea."""
    if isinstance(move, Loan):
        which = ("second ",) if move.voyage == 1 else ("", "first ")
        value = (f" (value now {move.value})", "") if move.value is not None else ""
        sea = (move.sea, SEA_SHORT[move.sea])
        return (("loan ", _marks(move.amount), " on the ", which, sea, (" voyage", ""), value),)
    if isinstance(move, Refresh):
        return ((("refresh the agency for 2,000", "refresh the agency", "refresh"),),)
    if isinstance(move, Charter):
        cost = "free" if move.price == 0 else f"for {_marks(move.price)}"
        if move.ship is None:
            return (("charter ", ("the ship ", ""), cost),)
        name = move.ship.rsplit(" (", 1)[0] if move.ship.endswith(")") else move.ship
        return (("charter ", (move.ship, name, "the ship"), (f" {cost}", "")),)
    head = ("voyage ", (move.sea, SEA_SHORT[move.sea]), (f" {move.stars}\u2605", ""))
    if move.ships is None:
        return ((*head, str(move).split("\u2605", 1)[1]), head)
    points: tuple[str, ...] | str = ""
    if move.points is not None:  # "1 points", this text before "1 point", still names the move
        points = (*dict.fromkeys((f": {_points(move.points)}", f": {move.points} points")), "")
    kept = ", ".join(move.kept or ())
    keeps = (f" (keeps {kept})", "") if kept else ""
    alone = (f" keeping {kept}", f" keeps {kept}") if kept else (" keeping nothing", " keeps nothing")
    return ((*head, " with ", ", ".join(move.ships), points, keeps), (*head, alone), head)


_VOYAGE = re.compile(r"(voyage \S+(?: \d\*)?) (with|keeping|keeps) (.*)")
_WITH = re.compile(r"(.*?)(?: (\d+ points?))?(?: keeps (.*))?")


def notation_key(key: str) -> str:
    """A normalized voyage text with its ships in a fixed order (they may be typed in any)."""
    m = _VOYAGE.fullmatch(key)
    if m is None:
        return key
    head, word, rest = m.groups()
    if word != "with":
        return f"{head} {word} {_sorted_words(rest)}"
    w = _WITH.fullmatch(rest)
    if w is None:  # pragma: no cover - the pattern matches every text
        return key
    ships, points, kept = w.groups()
    text = f"{head} with {_sorted_words(ships)}"
    if points:
        text += f" {points}"
    if kept:
        text += f" keeps {_sorted_words(kept)}"
    return text


def _points(value: int) -> str:
    """``1 point``, ``31 points``."""
    return f"{value} point{'' if value == 1 else 's'}"


def _sorted_words(text: str) -> str:
    return " ".join(sorted(text.split()))
