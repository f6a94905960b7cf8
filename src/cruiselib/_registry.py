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

# name -> the Game class, or "module:attribute" of it, imported on first use.
_REGISTRY: dict[str, str | type[Game[Any]]] = {
    "atlantic_star": "cruiselib.atlantic_star:AtlanticStarGame",
    "dream_cruise": "cruiselib.dream_cruise:DreamCruiseGame",
    "dream_islands": "cruiselib.dream_islands:DreamIslandsGame",
    "sirens": "cruiselib.sirens:SirensGame",
}
_BUILT_IN = dict(_REGISTRY)


def _resolve(target: str) -> Any:
    """The object a ``"package.module:Class"`` target names (InvalidOptionError if none)."""
    from cruiselib.integration import _is_target

    if not _is_target(target):
        raise InvalidOptionError(f"target must look like 'package.module:ClassName', not {target!r}")
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise InvalidOptionError(f"cannot import {module_name!r} for the game {target!r}: {exc}") from None
    try:
        return getattr(module, attr)
    except AttributeError:
        raise InvalidOptionError(f"module {module_name!r} has no {attr!r} (target {target!r})") from None


def _checked_class(name: str, cls: Any) -> type[Game[Any]]:
    """``cls`` if it is a concrete Game subclass named ``name`` that declares everything the
    integrations read, else InvalidOptionError naming what is wrong or missing."""
    from cruiselib._api import Game

    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise InvalidOptionError(f"a registered game is a cruiselib.Game subclass, not {cls!r}")
    declared = getattr(cls, "name", None)
    if declared != name:
        raise InvalidOptionError(f"{cls.__qualname__}.name is {declared!r}: a game registers under its own name")
    if inspect.isabstract(cls):
        missing = ", ".join(sorted(getattr(cls, "__abstractmethods__", ())))
        raise InvalidOptionError(f"{cls.__qualname__} does not implement {missing}")
    from cruiselib.integration import declaration_problems

    wrong = declaration_problems(cls)
    if wrong:
        raise InvalidOptionError(
            f"{cls.__qualname__} cannot be registered: {'; '.join(wrong)} "
            "(cruiselib.integration lists the declarations)"
        )
    return cls


@overload
def register(name: type[Game[Any]], target: None = None) -> None: ...
@overload
def register(name: str, target: str | type[Game[Any]]) -> None: ...


def register(name: str | type[Game[Any]], target: str | type[Game[Any]] | None = None) -> None:
    """Add a game to :func:`make` and :func:`games`, and so to every integration.

    ``register(cls)`` registers the :class:`cruiselib.Game` subclass ``cls`` under
    ``cls.name``; ``register(name, cls)`` and ``register(name, "package.module:ClassName")``
    say the name too (the string form is imported now). The class is checked at once: a
    concrete Game subclass whose ``name`` is the name given, with every declaration the
    integrations read (``title``, ``player_counts``, ``example_configurations``,
    ``rule_bot``, ``search``, ``openspiel``, ``web``, ``annotated_moves``, ``picture`` and the schema
    types; see :mod:`cruiselib.integration`). A built-in name cannot be given another
    class; registering a name again replaces an earlier registration of that name.
    Raises :class:`cruiselib.InvalidOptionError` naming what is wrong or missing.
    docs/contract.md shows a game defined outside cruiselib on a pure-Python core.

    >>> import cruiselib
    >>> from mygames.duel import DuelGame  # doctest: +SKIP
    >>> cruiselib.register(DuelGame)  # doctest: +SKIP
    >>> cruiselib.make("duel").new_state(seed=1)  # doctest: +SKIP
    """
    if target is None:
        from cruiselib._api import Game

        if not (isinstance(name, type) and issubclass(name, Game)):
            raise InvalidOptionError(f"register(cls) takes a cruiselib.Game subclass, not {name!r}")
        target = name
        declared = getattr(target, "name", None)
        if not isinstance(declared, str):
            raise InvalidOptionError(f"{target.__qualname__} declares no name (a str class attribute)")
        name = declared
    if not isinstance(name, str) or not name.isidentifier():
        raise InvalidOptionError(f"game name must be an identifier, not {name!r}")
    cls = _checked_class(name, _resolve(target) if isinstance(target, str) else target)
    if name in _BUILT_IN and cls is not game_class(name, builtin=True):
        raise InvalidOptionError(f"{name!r} is a built-in game: it cannot be registered with another class")
    _REGISTRY[name] = cls


def games() -> tuple[str, ...]:
    """The names :func:`make` accepts, sorted."""
    return tuple(sorted(_REGISTRY))


def game_class(name: str, *, builtin: bool = False) -> type[Game[Any]]:
    """The Game class registered under ``name`` (``builtin``: the one cruiselib ships
    under that name)."""
    table = _BUILT_IN if builtin else _REGISTRY
    try:
        target = table[name]
    except (KeyError, TypeError):
        raise InvalidOptionError(f"unknown game {name!r}; available: {', '.join(games())}") from None
    if isinstance(target, str):
        module_name, _, attr = target.partition(":")
        cls: type[Game[Any]] = getattr(importlib.import_module(module_name), attr)
        return cls
    return target


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
            f"unknown option(s) {', '.join(map(repr, unknown))} for {name!r}; options: {', '.join(accepted)}"
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
