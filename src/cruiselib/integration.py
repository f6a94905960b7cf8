"""What a game declares once for the integrations around it.

A :class:`cruiselib.Game` subclass answers every question an integration asks about it:
the OpenSpiel adapter, the web page, the search bots, the protocol, the command line and
the terminal read these declarations from the game class and never name a game. A game
defined outside cruiselib declares the same things and is then served by all of them
after :func:`cruiselib.register` (docs/contract.md lists the steps).

The Game class attributes (see :class:`cruiselib.Game`):

``player_counts``
    the seat counts ``make(players=...)`` accepts, ascending.
``example_configurations``
    ``make`` options of a few configurations that together reach every rule path worth
    testing (every test suite, benchmark and script covering "every game" plays these).
``rule_bot``
    ``"package.module:Class"`` of the game's rule-based bot (``Class(seed=...)`` with
    ``choose(state)`` and ``analyse(state)``).
``search``
    a :class:`SearchDefaults`: the search bots' defaults for this game.
``openspiel``
    an :class:`OpenSpielSpec`: how the game becomes an OpenSpiel game.
``web``
    a :class:`WebBoard`: what the web page needs to draw the game.
``picture``
    ``"package.module:function"`` of the game's drawing of the table for one seat
    (``draw(canvas, game, view, area)``: the environments' ``render_mode="rgb_array"``,
    :mod:`cruiselib._picture`), or None for the compact board text as a picture.
``annotated_moves``
    whether ``state.legal_moves()`` gives moves annotated with what they do in this
    position (texts the game's ``parse_move`` also reads) rather than the plain move table.

This module imports neither OpenSpiel nor the web server: declaring costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import msgspec

from cruiselib.errors import InvalidOptionError

__all__ = [
    "DECLARATIONS",
    "OpenSpielSpec",
    "SearchDefaults",
    "WebBoard",
    "WebOption",
    "bool_parameter",
    "declaration_problems",
    "int_parameter",
    "ints_parameter",
    "ints_value",
    "path_parameter",
    "path_value",
    "text_parameter",
]


@dataclass(frozen=True)
class SearchDefaults:
    """The search bots' defaults for one game, where an option is None (docs/bots.md says
    how each was measured).

    ``score_weight``: the score margin's share in a search's returns (a rollout's winner
    alone says little where it is > 0). ``prior_weight``: the progressive bias toward the
    rollout policy's preferred move. ``shortlist``: the root weighs only the rule-based
    bot's best k moves, one width for every phase or a width per phase name (0 or a phase
    not named: every legal move). ``rule_bias``: the root's bias toward the rule-based
    bot's best move.
    """

    score_weight: float = 0.0
    prior_weight: float = 0.0
    shortlist: int | Mapping[str, int] = 0
    rule_bias: float = 0.0


@dataclass(frozen=True)
class OpenSpielSpec:
    """How a game becomes an OpenSpiel game (``cruiselib_<name>``).

    ``parameters``: OpenSpiel's parameters with their defaults, ``players`` and ``seed``
    included (OpenSpiel infers each parameter's type from its default). ``options`` turns
    the parameters (without ``seed``) into ``cruiselib.make`` options, raising
    :class:`cruiselib.InvalidOptionError` for a bad value. ``max_length`` bounds the number
    of actions of a game of this configuration (OpenSpiel's ``max_game_length``).
    ``zero_sum`` says whether every finished game's returns sum to 0 in this configuration;
    ``always_zero_sum`` whether they do in every configuration (the registered type's
    utility). ``to_parameter`` turns a ``load_game`` keyword given as a Python value into
    its parameter (a tuple into ``"1/3/6/9"``). ``unbounded`` names the options a game
    may leave out to play without a bound OpenSpiel needs (Dream Islands' ``max_rounds``):
    ``wrap_game`` refuses such a game (``to_parameter[name](None)`` raises, naming what to
    give), and a search that never reads the bound writes the value given here.
    """

    parameters: Mapping[str, Any]
    options: Callable[[Mapping[str, Any]], dict[str, Any]]
    max_length: Callable[[Any], int]
    zero_sum: Callable[[Any], bool]
    always_zero_sum: bool = False
    to_parameter: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    unbounded: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class WebOption:
    """An option the web page offers when a game is started: a choice among ``choices``
    (``make`` values; the first is the default), labelled ``label``."""

    name: str
    label: str
    choices: tuple[Any, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "choices": list(self.choices)}


@dataclass(frozen=True)
class WebBoard:
    """What the web page needs to draw a game.

    ``drawer``: the package and file name of the game's drawer script, e.g.
    ``("cruiselib.sirens", "board.js")``: a script that calls
    ``cruiselib.registerDrawer(name, draw)``, where ``draw(view, catalog)`` returns the DOM
    node of the board for a seat's view. ``catalog``: for a game object, the data the
    drawer needs to name what a view holds by id (card names, board values), as JSON
    values. ``options``: the options offered when a game is started.
    """

    drawer: tuple[str, str]
    catalog: Callable[[Any], Mapping[str, Any]] = field(default=lambda game: {})
    options: tuple[WebOption, ...] = ()


# --------------------------------------------------------------------------- parameters
# Readers of OpenSpiel parameter values for a spec's ``options``: each raises
# InvalidOptionError naming the parameter.


def text_parameter(value: Any, what: str) -> str:
    """A string parameter."""
    if not isinstance(value, str):
        raise InvalidOptionError(f"{what} is a string parameter, not {value!r}")
    return value


def int_parameter(value: Any, what: str) -> int:
    """An int parameter (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOptionError(f"{what} is an int parameter, not {value!r}")
    return value


def bool_parameter(value: Any, what: str) -> bool:
    """A bool parameter."""
    if not isinstance(value, bool):
        raise InvalidOptionError(f"{what} is a bool parameter, not {value!r}")
    return value


def ints_parameter(text: str, what: str) -> tuple[int, ...]:
    """Ints written ``"1/3/6/9"``."""
    try:
        return tuple(int(v) for v in text.split("/"))
    except ValueError:
        raise InvalidOptionError(f"{what}: ints separated by '/', not {text!r}") from None


def path_parameter(value: Any, what: str) -> str | None:
    """A file path parameter; ``""`` is the game's standard component set (None)."""
    return text_parameter(value, what) or None


# Writers of parameters from the Python values ``load_game`` keywords may be given
# (an OpenSpielSpec's ``to_parameter``).


def path_value(value: Any) -> str:
    """A file path (str or Path; None is the standard set, ``""``) as a string parameter."""
    if value is None:
        return ""
    if isinstance(value, (str, PurePath)):
        return str(value)
    raise InvalidOptionError(
        f"OpenSpiel parameters are ints, floats, strings and bools: give the path of the file, not {value!r}"
    )


def ints_value(value: Any, what: str) -> str:
    """A sequence of ints (or its text) as ``"1/3/6/9"``."""
    if isinstance(value, str):
        return value
    if not isinstance(value, Sequence):
        raise InvalidOptionError(f"{what} is a sequence of ints or a string like '1/3/6/9', not {value!r}")
    return "/".join(str(v) for v in value)


# --------------------------------------------------------------------------- checks
# The one check of the declarations' shapes, declaration_problems: cruiselib.register refuses
# a class that fails it, cruiselib.testing.check_declarations (run by check_game) reports its
# first problem, and the rule bot's lookup shares its test of a target.

DECLARATIONS: tuple[tuple[str, str], ...] = (
    ("title", "a non-empty str"),
    ("player_counts", "an ascending tuple of seat counts (ints >= 1)"),
    ("example_configurations", "a non-empty tuple of make() option mappings"),
    ("rule_bot", "'package.module:Class' or None"),
    ("search", "a SearchDefaults"),
    ("openspiel", "an OpenSpielSpec or None"),
    ("web", "a WebBoard or None"),
    ("picture", "'package.module:function' or None"),
    ("annotated_moves", "a bool"),
    ("positions", "'package.module:Class' or None"),
    ("schema_version", "an int >= 1"),
    ("state_data_type", "a msgspec Struct class"),
    ("view_type", "a msgspec Struct class"),
    ("move_classes", "a non-empty tuple of move classes"),
)
"""Every declaration an integration reads (the last four: the schema machinery and the move
checks), with what it must be."""


def _is_target(value: object) -> bool:
    if not isinstance(value, str):
        return False
    module, sep, attr = value.partition(":")
    return bool(sep) and all(part.isidentifier() for part in module.split(".")) and attr.isidentifier()


_SHAPES: dict[str, Callable[[Any], bool]] = {
    "title": lambda v: isinstance(v, str) and bool(v),
    "player_counts": lambda v: (
        isinstance(v, tuple) and bool(v) and all(type(n) is int and n >= 1 for n in v) and list(v) == sorted(set(v))
    ),
    "example_configurations": lambda v: isinstance(v, tuple) and bool(v) and all(isinstance(c, Mapping) for c in v),
    "rule_bot": lambda v: v is None or _is_target(v),
    "search": lambda v: isinstance(v, SearchDefaults),
    "openspiel": lambda v: v is None or isinstance(v, OpenSpielSpec),
    "web": lambda v: v is None or isinstance(v, WebBoard),
    "picture": lambda v: v is None or _is_target(v),
    "annotated_moves": lambda v: isinstance(v, bool),
    "positions": lambda v: v is None or _is_target(v),
    "schema_version": lambda v: type(v) is int and v >= 1,
    "state_data_type": lambda v: isinstance(v, type) and issubclass(v, msgspec.Struct),
    "view_type": lambda v: isinstance(v, type) and issubclass(v, msgspec.Struct),
    "move_classes": lambda v: isinstance(v, tuple) and bool(v) and all(isinstance(c, type) for c in v),
}


def declaration_problems(game: Any) -> list[str]:
    """What is wrong with the declarations read through ``game`` (a Game class, or a game,
    whose own attributes then count): one text per declaration that is missing or not of
    the shape the integrations read, e.g. ``"player_counts is [2], not an ascending tuple of
    seat counts (ints >= 1)"``; empty when every one is well formed."""
    problems = []
    for name, wanted in DECLARATIONS:
        if not hasattr(game, name):
            problems.append(f"{name} is missing ({wanted})")
            continue
        value = getattr(game, name)
        if not _SHAPES[name](value):
            problems.append(f"{name} is {value!r}, not {wanted}")
    return problems


def resolve_rule_bot(game: Any) -> type:
    """The class that ``game.rule_bot`` names (``game``: a Game class or a game), which has
    ``choose`` and ``analyse``. Raises :class:`cruiselib.InvalidOptionError`, naming the
    game, for a game that declares none or a declaration that names no such class."""
    import importlib

    target = getattr(game, "rule_bot", None)
    name = getattr(game, "name", type(game).__name__)
    if target is None:
        raise InvalidOptionError(f"the game {name!r} has no rule-based bot (its class declares no rule_bot)")
    if not _is_target(target):
        raise InvalidOptionError(f"the game {name!r} declares rule_bot {target!r}: give 'package.module:Class'")
    module_name, _, attr = target.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise InvalidOptionError(
            f"the game {name!r} declares rule_bot {target!r}, which names no class: {exc}"
        ) from None
    if not isinstance(cls, type):
        raise InvalidOptionError(f"the game {name!r} declares rule_bot {target!r}, which names no class: {cls!r}")
    missing = [method for method in ("choose", "analyse") if not callable(getattr(cls, method, None))]
    if missing:
        raise InvalidOptionError(
            f"the game {name!r} declares rule_bot {target!r}, a class without {' and '.join(missing)}"
        )
    return cls
