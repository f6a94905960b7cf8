"""OpenSpiel's parameters of a cruiselib game: made from Python values, and checked before
OpenSpiel's C++ side sees them (it would raise a bare RuntimeError or its own type error)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cruiselib._api import Game
from cruiselib.errors import InvalidOptionError
from cruiselib.integration import OpenSpielSpec, int_parameter

INT_MAX = 2**31 - 1
"""OpenSpiel keeps parameters and ``max_game_length`` in C ints."""

INT_MIN = -(2**31)

_KINDS = {bool: "a bool", int: "an int", float: "a float", str: "a string"}


def check_parameters(spec: OpenSpielSpec, short_name: str, params: Mapping[str, Any]) -> None:
    """Refuse what OpenSpiel's parameters cannot hold: unknown names, values of another type
    than the parameter's default, ints beyond a C int, strings that are not Unicode text."""
    unknown = sorted(set(params) - set(spec.parameters))
    if unknown:
        raise InvalidOptionError(
            f"unknown parameter(s) {', '.join(map(repr, unknown))} for {short_name}; "
            f"parameters: {', '.join(spec.parameters)}"
        )
    for key, value in params.items():
        kind = type(spec.parameters[key])
        if type(value) is not kind and not (kind is int and isinstance(value, int) and not isinstance(value, bool)):
            raise InvalidOptionError(f"{key} is {_KINDS[kind]} parameter, not {value!r}")
        if kind is int and not INT_MIN <= value <= INT_MAX:
            raise InvalidOptionError(f"{key} is an int parameter from {INT_MIN} to {INT_MAX} (a C int), not {value}")
        if kind is str:
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise InvalidOptionError(f"{key} is a string parameter of Unicode text, not {value!r}") from None


def from_python(spec: OpenSpielSpec, values: Mapping[str, Any]) -> dict[str, Any]:
    """``load_game``'s keywords as parameters: the values the spec's ``to_parameter`` names
    converted (a tuple into ``"1/3/6/9"``), the others as they are; a refused value raises
    InvalidOptionError naming its keyword."""
    converted = {}
    for key, value in values.items():
        try:
            converted[key] = spec.to_parameter[key](value) if key in spec.to_parameter else value
        except InvalidOptionError as exc:
            raise InvalidOptionError(f"{key}: {exc}") from None
    return converted


def of_game(spec: OpenSpielSpec, game: Game[Any], seed: int) -> dict[str, Any]:
    """The parameters of a cruiselib game object as it was made: ``seed`` and its options.
    A value no parameter can hold (a component set given as an object) is named
    ``<its name>``, so the game string shows it but does not load again."""
    params: dict[str, Any] = {"seed": int_parameter(seed, "seed")}
    for key, value in game.options.items():
        try:
            params[key] = spec.to_parameter[key](value) if key in spec.to_parameter else value
        except InvalidOptionError:
            params[key] = f"<{getattr(value, 'name', type(value).__name__)}>"
    return params
