"""The game registry behind :func:`cruiselib.make` and :func:`cruiselib.games`."""

from __future__ import annotations

import importlib
import inspect
from typing import TYPE_CHECKING, Any, Literal, overload

from cruiselib.errors import CruiseError, InvalidOptionError

if TYPE_CHECKING:
    from cruiselib._api import Game, State
    from cruiselib.atlantic_star import AtlanticStarGame
    from cruiselib.dream_cruise import DreamCruiseGame
    from cruiselib.dream_islands import DreamIslandsGame
    from cruiselib.sirens import SirensGame

__all__ = ["games", "make", "register"]

# name -> "module:attribute" of the Game class, imported on first use.
_REGISTRY: dict[str, str] = {
    "atlantic_star": "cruiselib.atlantic_star:AtlanticStarGame",
    "dream_cruise": "cruiselib.dream_cruise:DreamCruiseGame",
    "dream_islands": "cruiselib.dream_islands:DreamIslandsGame",
    "sirens": "cruiselib.sirens:SirensGame",
}


def register(name: str, target: str) -> None:
    """Register a game class under ``name``; ``target`` is ``"package.module:ClassName"``."""
    if not name.isidentifier():
        raise InvalidOptionError(f"game name must be an identifier, not {name!r}")
    if ":" not in target:
        raise InvalidOptionError(f"target must look like 'package.module:ClassName', not {target!r}")
    _REGISTRY[name] = target


def games() -> tuple[str, ...]:
    """The names :func:`make` accepts, sorted."""
    return tuple(sorted(_REGISTRY))


def game_class(name: str) -> type[Game[Any]]:
    """The Game class registered under ``name``."""
    try:
        target = _REGISTRY[name]
    except (KeyError, TypeError):
        raise InvalidOptionError(
            f"unknown game {name!r}; available: {', '.join(games())}"
        ) from None
    module_name, _, attr = target.partition(":")
    cls: type[Game[Any]] = getattr(importlib.import_module(module_name), attr)
    return cls


@overload
def make(name: Literal["sirens"], **options: Any) -> SirensGame: ...
@overload
def make(name: Literal["atlantic_star"], **options: Any) -> AtlanticStarGame: ...
@overload
def make(name: Literal["dream_islands"], **options: Any) -> DreamIslandsGame: ...
@overload
def make(name: Literal["dream_cruise"], **options: Any) -> DreamCruiseGame: ...
@overload
def make(name: str, **options: Any) -> Game[State[Any, Any, Any], Any]: ...


def make(name: str, **options: Any) -> Game[Any]:
    """Create a game by name with validated options, e.g. ``make("sirens", variant="bow_to_rear")``.

    Unknown games, unknown option names and bad option values raise
    :class:`cruiselib.InvalidOptionError`.
    """
    cls = game_class(name)
    params = inspect.signature(cls.__init__).parameters
    accepted = [p for p in params if p != "self"]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise InvalidOptionError(
            f"unknown option(s) {', '.join(map(repr, unknown))} for {name!r}; "
            f"options: {', '.join(accepted)}"
        )
    try:
        return cls(**options)
    except CruiseError:
        raise
    except ValueError:
        # A value too large even to name in the game's own message (an int of over 4,300
        # digits cannot be printed): the option is refused all the same.
        from cruiselib.serialize import shown

        given = ", ".join(f"{key}={shown(value)}" for key, value in options.items())
        raise InvalidOptionError(f"bad options for {name!r}: {given}") from None
