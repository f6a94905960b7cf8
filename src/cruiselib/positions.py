"""Positions a person describes: a whole table, or the table as one seat sees it.

A game that offers positions declares ``Game.positions`` (``"package.module:Class"`` of a
:class:`PositionRules`). Through it every such game has the same five methods:

- ``game.describe(state, seat=None)``: the position as a description (a msgspec Struct of
  the game's ``position_type``): where every card, piece and token lies, the scores, whose
  turn it is and the phase. With ``seat`` it is that seat's view: what lies hidden from it
  is given as counts only.
- ``game.position_text(position_or_state, seat=None)`` and ``game.read_position(text)``:
  the compact one-line text of a description (the game's page, "Setting up a position").
- ``game.position_problems(position)``: every problem of a description, each named in the
  game's terms, or an empty list when it can be set up (python-chess's ``status()``).
- ``game.from_position(position, seed=None)``: the state it describes, which plays on
  exactly like one reached by play. What history alone would fix (turns taken, cards out
  of play) the game derives. A seat's view has its hidden rest dealt at random among the
  deals consistent with it, as ``state.resample`` does, so every bot answers for that
  seat. A description that cannot be set up raises :class:`InvalidPositionError` naming
  every problem, and nothing is built.

A description arrives as the Struct, its compact text, or a mapping (decoded JSON). All
three are treated as hostile: size-bounded, type-checked against the Struct's schema, and
checked in full before anything is built.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import msgspec

from cruiselib.errors import InvalidPositionError, InvalidStateError

if TYPE_CHECKING:
    from cruiselib._game import Game

__all__ = ["MAX_POSITION_TEXT", "PositionRules", "position_of"]

PositionT = TypeVar("PositionT", bound=msgspec.Struct)

MAX_POSITION_TEXT = 16_384
"""Longest compact text (and, in bytes, JSON) a description may be: every game's longest
position is a few hundred characters, so anything longer is refused unread."""


class PositionRules(ABC, Generic[PositionT]):
    """What one game declares to set up positions from descriptions.

    A subclass names its description Struct (``position_type``, whose fields include
    ``seat: int | None``, the seat whose view it is, None for the whole table) and
    implements the six steps below. ``problems`` is the only check ``from_position`` asks:
    ``complete`` and ``snapshot`` may take a description it passed as sound.
    """

    position_type: ClassVar[type[msgspec.Struct]]

    recall: ClassVar[bool] = False
    """Whether a seat's view also holds what that seat remembers of earlier moves that hid
    something from it (its information state: a card it saw another seat take into hand).
    The hidden rest is then dealt keeping that memory (``resample(..., recall=True)``);
    False: a seat's view is the table as it shows now, and the deal forgets the rest."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game

    @abstractmethod
    def describe(self, state: Any, seat: int | None) -> PositionT:
        """The description of ``state``: all of it (``seat`` None) or what ``seat`` sees."""

    @abstractmethod
    def problems(self, position: PositionT) -> list[str]:
        """Every problem of ``position`` in the game's terms; empty when it can be set up."""

    @abstractmethod
    def complete(self, position: PositionT, rng_state: int) -> PositionT:
        """A sound seat's view with its hidden rest filled in (any deal consistent with the
        view: ``from_position`` then deals the hidden cards anew with ``resample``)."""

    @abstractmethod
    def snapshot(self, position: PositionT, rng_state: int) -> msgspec.Struct:
        """The game's snapshot (``game.state_data_type``) of a sound whole-table description,
        with no history, what history would fix derived; ``rng_state`` drives future
        chance unless the description gives its own generator state."""

    @abstractmethod
    def text(self, position: PositionT) -> str:
        """The compact one-line text of ``position``."""

    @abstractmethod
    def read(self, text: str) -> PositionT:
        """The description a compact text gives (InvalidPositionError naming what is
        wrong with the text). The text is at most :data:`MAX_POSITION_TEXT` long."""


def position_of(rules: PositionRules[Any], position: object) -> Any:
    """``position`` (a Struct of the game's type, its compact text, or a mapping of decoded
    JSON) as the game's Struct; InvalidPositionError for anything else."""
    kind = rules.position_type
    title = f"{rules.game.title} position"
    if isinstance(position, kind):
        return position
    if isinstance(position, str):
        if len(position) > MAX_POSITION_TEXT:
            raise InvalidPositionError([f"the text is {len(position)} characters, over {MAX_POSITION_TEXT}"], title)
        return rules.read(position)
    if isinstance(position, Mapping):
        try:
            size = len(msgspec.json.encode(position))
        except (TypeError, ValueError, OverflowError) as exc:
            raise InvalidPositionError([f"not a description: {exc}"], title) from None
        if size > MAX_POSITION_TEXT:
            raise InvalidPositionError([f"the description is {size} bytes of JSON, over {MAX_POSITION_TEXT}"], title)
        try:
            return msgspec.convert(position, type=kind, strict=True)
        except msgspec.ValidationError as exc:
            raise InvalidPositionError([f"not a description: {exc}"], title) from None
    if isinstance(position, msgspec.Struct):
        raise InvalidPositionError([f"a {type(position).__name__} is not a {rules.game.title} description"], title)
    raise InvalidPositionError(
        [f"a description is a {kind.__name__}, its compact text or a mapping, not {type(position).__name__}"], title
    )


def build(game: Game[Any, Any], rules: PositionRules[Any], position: Any, seed_state: int, resample_seed: Any) -> Any:
    """The state a sound description sets up (see the module's docstring)."""
    title = f"{game.title} position"
    seat = position.seat
    whole = rules.complete(position, seed_state) if seat is not None else position
    data = rules.snapshot(whole, seed_state)
    try:
        state = game._load_decoded(data)
    except InvalidStateError as exc:
        # The description passed every check the game states, so this is the engine's
        # own consistency check speaking: still a clear refusal, never a broken state.
        raise InvalidPositionError([f"the engine refuses it: {exc}"], title) from None
    if seat is not None:
        dealt = state.resample(seat, resample_seed, recall=type(rules).recall)
        state = game._load_decoded(dealt._to_data())
    return state
