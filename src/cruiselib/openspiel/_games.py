"""Which cruiselib games are OpenSpiel games: every game of cruiselib's registry whose class
declares an ``openspiel`` spec, registered with OpenSpiel as ``cruiselib_<name>``."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from typing import Any, cast

import pyspiel  # type: ignore[import-not-found,unused-ignore]  # no type information

import cruiselib
from cruiselib._api import Game
from cruiselib._registry import game_class
from cruiselib.errors import InvalidOptionError
from cruiselib.openspiel import _parameters
from cruiselib.openspiel._game import OpenSpielGame, adapter_class, game_type, registered_utility

# name -> the OpenSpiel game class made for it. Kept for the process: OpenSpiel cannot
# unregister a game, so a name stays registered with the class it was first registered with.
_ADAPTERS: dict[str, type[OpenSpielGame]] = {}
_lock = threading.Lock()


def register_games() -> tuple[str, ...]:
    """Register with OpenSpiel every game of :func:`cruiselib.games` that declares an
    OpenSpiel form and is not registered yet (one added by :func:`cruiselib.register` since,
    say), as ``cruiselib_<name>``; the names of the OpenSpiel games (:func:`games`).

    Idempotent and cheap: called when ``cruiselib.openspiel`` is imported and by
    :func:`load_game` and :func:`wrap_game`. A game whose class does not import is left for
    :func:`load_game` to report when it is asked for.
    """
    with _lock:
        openspiel_names = None
        for name in cruiselib.games():
            if name in _ADAPTERS:
                continue
            try:
                cls = game_class(name)
            except (ImportError, AttributeError):
                continue
            spec = getattr(cls, "openspiel", None)
            if spec is None:
                continue
            adapter = adapter_class(name, cls, spec)
            if openspiel_names is None:
                openspiel_names = {t.short_name for t in pyspiel.registered_games()}
            # A reload of this module finds its games registered already; OpenSpiel keeps those.
            if adapter.openspiel_name not in openspiel_names:
                pyspiel.register_game(game_type(adapter, registered_utility(spec)), adapter)
            _ADAPTERS[name] = adapter
    return games()


def games() -> tuple[str, ...]:
    """The cruiselib games registered with OpenSpiel (short names ``cruiselib_<game>``),
    sorted: the games of :func:`cruiselib.games` that declare an OpenSpiel form."""
    return tuple(name for name in cruiselib.games() if name in _ADAPTERS)


class GameClasses(Mapping[str, type[OpenSpielGame]]):
    """The OpenSpiel game class of each game of :func:`games`, by cruiselib name: a live view
    of cruiselib's registry (``GAME_CLASSES[name]({"players": 2})`` makes a game)."""

    def __getitem__(self, name: str) -> type[OpenSpielGame]:
        if name not in games():
            raise KeyError(name)
        return _ADAPTERS[name]

    def __iter__(self) -> Iterator[str]:
        return iter(games())

    def __len__(self) -> int:
        return len(games())

    def __repr__(self) -> str:
        return f"GameClasses({dict(self)!r})"


def adapter_of(name: object) -> type[OpenSpielGame]:
    """The OpenSpiel game class of the game registered as ``name``, registering it first;
    InvalidOptionError for a game that is not registered or declares no OpenSpiel form."""
    register_games()
    if isinstance(name, str) and name in games():
        return _ADAPTERS[name]
    offered = f"OpenSpiel games: {', '.join(games())}"
    if not isinstance(name, str) or name not in cruiselib.games():
        raise InvalidOptionError(f"unknown game {name!r}; {offered}")
    try:
        cls = game_class(name)
    except (ImportError, AttributeError) as exc:
        raise InvalidOptionError(f"game {name!r} is registered, but its class does not import: {exc}") from None
    raise InvalidOptionError(f"game {name!r} ({cls.__name__}) declares no OpenSpiel form (openspiel); {offered}")


def short_name(game: str) -> str:
    """OpenSpiel's name of a cruiselib game: ``"<game>"`` -> ``"cruiselib_<game>"``."""
    return adapter_of(game).openspiel_name


def load_game(game: str, **params: Any) -> OpenSpielGame:
    """``pyspiel.load_game("cruiselib_<game>", params)`` with Python values (a sequence of
    ints where the parameter is ``"1/3/6/9"`` text, card and ship lists as file paths);
    docs/openspiel.md lists each game's parameters."""
    adapter = adapter_of(game)
    converted = _parameters.from_python(adapter.spec, params)
    # OpenSpiel's C++ side would raise RuntimeError or SpielError.
    _parameters.check_parameters(adapter.spec, adapter.openspiel_name, converted)
    return cast(OpenSpielGame, pyspiel.load_game(adapter.openspiel_name, converted))


def wrap_game(game: Game[Any], seed: int = 0) -> OpenSpielGame:
    """The OpenSpiel game of a cruiselib ``game`` as it is: its own card or ship set object,
    or its pure twin. Its parameters name what OpenSpiel parameters can hold; a component set
    given as an object is named ``<its name>``, so its game string does not load again (nor
    does a pickle of it). A game left without a bound OpenSpiel needs (the spec's
    ``unbounded``: Dream Islands without ``max_rounds``) is refused."""
    adapter = adapter_of_game(game)
    return wrap(adapter, game, _parameters.of_game(adapter.spec, game, seed), clamp=False)


def adapter_of_game(game: object) -> type[OpenSpielGame]:
    """The OpenSpiel game class of a cruiselib game object: the one made for its class, else
    (a subclass not registered itself) the one of its name if it declares the same form."""
    if not isinstance(game, Game):
        raise InvalidOptionError(f"wrap_game takes a cruiselib game (cruiselib.make), not {type(game).__name__}")
    cls = type(game)
    if cls.openspiel is None:
        raise InvalidOptionError(f"{cls.title} ({cls.__name__}) declares no OpenSpiel form (openspiel)")
    register_games()
    for name in games():
        if _ADAPTERS[name].cruiselib_class is cls:
            return _ADAPTERS[name]
    adapter = adapter_of(game.name)
    if adapter.spec is not cls.openspiel:
        raise InvalidOptionError(
            f"{cls.__name__} is not a registered game (cruiselib.register), and its OpenSpiel form is not "
            f"that of {game.name!r}"
        )
    return adapter


def wrap(adapter: type[OpenSpielGame], game: Game[Any], params: dict[str, Any], clamp: bool) -> OpenSpielGame:
    """The OpenSpiel game of ``game`` with these parameters. An option of the spec's
    ``unbounded`` that the game was made without is refused (its ``to_parameter`` raises,
    naming what to give) unless ``clamp`` (a search that never reads the length bound), when
    the value written for it is the spec's."""
    spec = adapter.spec
    values = {**spec.parameters, **params}
    for name, written in spec.unbounded.items():
        if name in params:
            continue
        if not clamp:
            to_parameter = spec.to_parameter.get(name)
            if to_parameter is not None:
                to_parameter(None)  # raises: OpenSpiel needs the bound
            raise InvalidOptionError(f"OpenSpiel needs a bound on the game's length: give {name}")
        values[name] = written
    return adapter(values, _game=game, _clamp=clamp)
