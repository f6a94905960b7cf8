"""cruiselib's four games as OpenSpiel games (the optional ``open_spiel`` extra).

Importing this module registers ``cruiselib_sirens``, ``cruiselib_dream_islands``,
``cruiselib_atlantic_star`` and ``cruiselib_dream_cruise`` with OpenSpiel, so both of these
work (see docs/openspiel.md):

    import cruiselib.openspiel, pyspiel
    game = pyspiel.load_game("cruiselib_sirens", {"players": 2})
    game = cruiselib.openspiel.load_game("sirens", players=2, seed=7)

Chance mode: SAMPLED_STOCHASTIC. cruiselib's cores deal the cards and resolve every later
draw inside ``apply``, from a generator that is part of the state; there are no chance
nodes to expose without rewriting the cores (a draw has no action id, and the deal is one
joint shuffle). OpenSpiel's convention for such games is followed: the game object carries
the generator, so each new initial state is the next deal of its ``seed`` parameter (deal
k is game k of ``game.playouts(n, seed)``), and clones share the future draws of their
original.

Serialization: ``state.serialize()`` writes cruiselib's own JSON snapshot of the state in a
small versioned envelope that names the game, its parameters and the OpenSpiel history;
``game.deserialize_state(text)`` reads only that, validates all of it and refuses anything
else with ``InvalidStateError``. Nothing that comes in is ever unpickled (OpenSpiel's
default for Python games pickles the state's attributes).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, cast

import msgspec
import numpy as np
import numpy.typing as npt

import cruiselib
from cruiselib._api import Game, State
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

try:
    import pyspiel  # type: ignore[import-not-found,unused-ignore]  # no type information
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "cruiselib.openspiel needs OpenSpiel: pip install 'cruiselib[open_spiel]' (open_spiel>=2.0.2)"
    ) from exc

__all__ = [
    "DREAM_ISLANDS_ROUNDS",
    "GAMES",
    "GAME_CLASSES",
    "STATE_FORMAT",
    "STATE_FORMAT_VERSION",
    "OpenSpielGame",
    "OpenSpielObserver",
    "OpenSpielState",
    "TimedISMCTS",
    "load_game",
    "short_name",
    "wrap_game",
]

INT_MAX = 2**31 - 1
"""OpenSpiel keeps parameters and ``max_game_length`` in C ints."""

INT_MIN = -(2**31)

STATE_FORMAT = "cruiselib-openspiel-state"
"""The ``format`` field of the text ``state.serialize()`` writes."""

STATE_FORMAT_VERSION = 1
"""The ``version`` field of that text: ``deserialize_state`` reads this version only."""

_ISLANDS_ROUND_CAP = 2**31 - 1  # I15: a game without max_rounds ends after this many rounds

DREAM_ISLANDS_ROUNDS = 100
"""Default ``max_rounds`` of ``cruiselib_dream_islands``: the printed game has no limit (I9),
and OpenSpiel needs a finite game length; random play ends after about 12 rounds."""


# --------------------------------------------------------------------------- per game


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidOptionError(f"{what} is a string parameter, not {value!r}")
    return value


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOptionError(f"{what} is an int parameter, not {value!r}")
    return value


def _ints(text: str, what: str) -> tuple[int, ...]:
    try:
        return tuple(int(v) for v in text.split("/"))
    except ValueError:
        raise InvalidOptionError(f"{what}: ints separated by '/', not {text!r}") from None


def _path_or_none(value: Any, what: str) -> str | None:
    text = _text(value, what)
    return text or None  # "" is the standard set


@dataclass(frozen=True)
class _Spec:
    """How one cruiselib game becomes an OpenSpiel game."""

    name: str
    title: str
    min_players: int
    max_players: int
    parameters: Mapping[str, Any]  # OpenSpiel's parameters with their defaults (seed included)
    options: Callable[[Mapping[str, Any]], dict[str, Any]]  # parameters -> cruiselib.make options
    max_length: Callable[[Any], int]  # a cruiselib game -> a bound on its number of actions
    zero_sum: Callable[[Any], bool]  # whether returns always sum to 0 in this configuration
    to_parameter: Mapping[str, Callable[[Any], Any]]  # load_game keywords given as Python values


def _sirens_options(p: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "players": _int(p["players"], "players"),
        "variant": _text(p["variant"], "variant"),
        "cards": _path_or_none(p["cards"], "cards"),
    }


def _sirens_length(game: Any) -> int:
    """Every card is played at most once, and each octopus is used at most 6 times (once,
    then once more each time a ship card scores and returns it, S6, five ship cards): at
    most M = C + 12 main actions. Each is followed by at most one crew decision (S5) and one
    "after" decision (S13, only while holding the rum mug); a main-phase rum mug is used
    at most once per seat (2); passes reset on every main action and two in a row end the
    game (S4, S17), so at most M + 2; picks 8 (S9). Total 4 M + 12."""
    main = len(game.cards.cards) + 12
    return 4 * main + 12


def _islands_options(p: Mapping[str, Any]) -> dict[str, Any]:
    players = _int(p["players"], "players")
    rounds = _int(p["max_rounds"], "max_rounds")
    if 2 <= players <= 4:  # else cruiselib.make names the player counts
        top = INT_MAX // (4 * players)
        if not 1 <= rounds <= top:
            raise InvalidOptionError(
                f"max_rounds is 1..{top} for {players} players (a game length OpenSpiel's ints hold), not {rounds}"
            )
    return {"players": players, "max_rounds": rounds}


def _islands_length(game: Any) -> int:
    """A turn is one cover, then at most three cards put under the pile (the third draws at
    once, I12) or two and the draw: at most 4 actions; the game ends after ``max_rounds``
    complete rounds of ``players`` turns (I9)."""
    rounds = game.max_rounds if game.max_rounds is not None else _ISLANDS_ROUND_CAP
    return 4 * int(game.num_players) * int(rounds)


def _star_options(p: Mapping[str, Any]) -> dict[str, Any]:
    board_text = _text(p["board"], "board").strip()
    board: tuple[tuple[int, ...], ...] | None = None
    if board_text:
        board = tuple(_ints(cls.strip(), "board") for cls in board_text.split(";"))
    return {
        "players": _int(p["players"], "players"),
        "ships": _path_or_none(p["ships"], "ships"),
        "board": board,
    }


def _star_length(game: Any) -> int:
    """Per seat with S plaque sets (2 with 2-3 players, else 1): 4 S voyages; charters at most
    the 18 S ships they play plus 2 left in hand (A6); loans at most 4 (once per sea, A9);
    refreshes at most (start money + 40,000 of loans) / 2,000, loans being the only income."""
    n = int(game.num_players)
    sets = 2 if n <= 3 else 1
    start = 36_000 if n <= 3 else 18_000
    per_seat = 4 * sets + (18 * sets + 2) + 4 + (start + 40_000) // 2_000
    return n * per_seat


def _cruise_options(p: Mapping[str, Any]) -> dict[str, Any]:
    draw = p["sea_ship_draw"]
    if not isinstance(draw, bool):
        raise InvalidOptionError(f"sea_ship_draw is a bool parameter, not {draw!r}")
    return {
        "players": _int(p["players"], "players"),
        "route_points": _ints(_text(p["route_points"], "route_points"), "route_points"),
        "sea_ship_draw": draw,
        "additions": _int(p["additions"], "additions"),
        "difficulty": _int(p["difficulty"], "difficulty"),
        "cards": _path_or_none(p["cards"], "cards"),
    }


def _cruise_rounds(game: Any) -> int:
    """A bound on the rounds: every round but the last keeps a location card per seat for good
    (C4; in solo Jana takes the two others too, C9), and a round that cannot draw three cards
    per seat is the last (C20)."""
    n = int(game.num_players)
    locations = len(game.cards.locations)
    leave = 3 if n == 1 else n
    if locations < 3 * n:
        return 1
    return (locations - 3 * n) // leave + 2


def _cruise_length(game: Any) -> int:
    """Per seat and round: 3 boardings, 1 keep, 1 take, 2 plans (a shore card's bottom or a
    sea card's two slots), 1 captain, 1 done, and 3 guests per spot (one per colour, C13) on
    3 + K spots; every build pays 2 of the at most 3 cards a round brings (a set of 2, one
    more with C2), and a replacing build frees 3 more guest places: 4 actions per build,
    1.5 builds a round. Total rounds * players * (24 + 3 K)."""
    per_round = 24 + 3 * int(game.additions)
    return _cruise_rounds(game) * int(game.num_players) * per_round


def _finite_rounds(value: Any) -> Any:
    if value is None:
        raise InvalidOptionError(
            "OpenSpiel needs a bound on the game's length: "
            f"max_rounds is an int (default {DREAM_ISLANDS_ROUNDS}), not None"
        )
    return value


def _route_points(value: Any) -> str:
    if isinstance(value, str):
        return value
    if not isinstance(value, Sequence):
        raise InvalidOptionError(f"route_points is a sequence of ints or a string like '1/3/6/9', not {value!r}")
    return "/".join(str(v) for v in value)


def _board(value: Any) -> str:
    if isinstance(value, str) or value is None:
        return value or ""
    if not isinstance(value, Sequence) or not all(isinstance(cls, Sequence) for cls in value):
        raise InvalidOptionError(f"board is a sequence of classes, each a sequence of ints, or a string, not {value!r}")
    return ";".join("/".join(str(v) for v in cls) for cls in value)


def _path(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (str, Path)):
        return str(value)
    raise InvalidOptionError(
        f"OpenSpiel parameters are ints, floats, strings and bools: give the path of the file, not {value!r}"
    )


_SPECS: dict[str, _Spec] = {
    "sirens": _Spec(
        "sirens",
        "Sirens in Sight",
        2,
        2,
        {"players": 2, "variant": "standard", "cards": "", "seed": 0},
        _sirens_options,
        _sirens_length,
        lambda game: True,  # +1/-1 for a win, 0/0 for a draw (S8)
        {"cards": _path},
    ),
    "dream_islands": _Spec(
        "dream_islands",
        "Dream Islands",
        2,
        4,
        {"players": 4, "max_rounds": DREAM_ISLANDS_ROUNDS, "seed": 0},
        _islands_options,
        _islands_length,
        lambda game: False,  # a shared win gives +1 to several seats (I7)
        {"max_rounds": _finite_rounds},
    ),
    "atlantic_star": _Spec(
        "atlantic_star",
        "Atlantic Star",
        2,
        6,
        {"players": 4, "ships": "", "board": "", "seed": 0},
        _star_options,
        _star_length,
        lambda game: False,  # a shared win gives +1 to several seats (A8)
        {"ships": _path, "board": _board},
    ),
    "dream_cruise": _Spec(
        "dream_cruise",
        "Dream Cruise",
        1,
        4,
        {
            "players": 4,
            "route_points": "1/3/6/9",
            "sea_ship_draw": False,
            "additions": 2,
            "difficulty": 0,
            "cards": "",
            "seed": 0,
        },
        _cruise_options,
        _cruise_length,
        # One winner with 2-4 players (C8): zero-sum for 2 only; solo is +1 or -1 (C9).
        lambda game: int(game.num_players) == 2,
        {"route_points": _route_points, "cards": _path},
    ),
}

GAMES: tuple[str, ...] = tuple(sorted(_SPECS))
"""The cruiselib games registered with OpenSpiel (short names ``cruiselib_<game>``)."""


def short_name(game: str) -> str:
    """OpenSpiel's name of a cruiselib game: ``"sirens"`` -> ``"cruiselib_sirens"``."""
    return f"cruiselib_{_spec(game).name}"


def _spec(game: str) -> _Spec:
    try:
        return _SPECS[game]
    except (KeyError, TypeError):
        raise InvalidOptionError(f"unknown game {game!r}; OpenSpiel games: {', '.join(GAMES)}") from None


_KINDS = {bool: "a bool", int: "an int", float: "a float", str: "a string"}


def _check_parameters(spec: _Spec, params: Mapping[str, Any]) -> None:
    """Refuse what OpenSpiel's parameters cannot hold before they reach its C++ side (which
    would raise a bare RuntimeError or its own type error): unknown names, values of another
    type than the parameter's default, ints beyond a C int, strings that are not Unicode text."""
    unknown = sorted(set(params) - set(spec.parameters))
    if unknown:
        raise InvalidOptionError(
            f"unknown parameter(s) {', '.join(map(repr, unknown))} for {short_name(spec.name)}; "
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


def _game_type(spec: _Spec, utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=f"cruiselib_{spec.name}",
        long_name=f"{spec.title} (cruiselib)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(spec.parameters),
    )


def _registered_utility(spec: _Spec) -> Any:
    """What holds for every configuration of the game (Sirens has one player count)."""
    return pyspiel.GameType.Utility.ZERO_SUM if spec.name == "sirens" else pyspiel.GameType.Utility.GENERAL_SUM


# --------------------------------------------------------------------------- the game


class OpenSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """A cruiselib game as an OpenSpiel game (made by ``pyspiel.load_game`` or :func:`load_game`).

    Parameters: the game's ``cruiselib.make`` options (file paths as strings, lists as
    ``"1/3/6/9"``) plus ``seed``. ``get_type().utility`` is ZERO_SUM where every finished
    game's returns sum to 0 (Sirens; Dream Cruise with 2 players), else GENERAL_SUM; the
    registered type of a game says what holds for all its configurations.
    """

    spec: _Spec

    def __init__(
        self, params: Mapping[str, Any] | None = None, *, _game: Game[Any] | None = None, _clamp: bool = False
    ) -> None:
        spec = self.spec
        given = dict(params or {})
        _check_parameters(spec, given)
        values = {**spec.parameters, **given}
        seed = _int(values["seed"], "seed")
        # _game: wrap_game's cruiselib game (its own card set, or a pure twin), else made here.
        cgame = cruiselib.make(spec.name, **spec.options(values)) if _game is None else _game
        zero_sum = bool(spec.zero_sum(cgame))
        length = int(spec.max_length(cgame))
        if length > INT_MAX:
            if not _clamp:
                raise InvalidOptionError(
                    f"this configuration's game length bound {length} exceeds OpenSpiel's ints (give max_rounds)"
                )
            length = INT_MAX  # TimedISMCTS only: search never reads it
        utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=int(cgame.num_actions),
            max_chance_outcomes=0,  # no chance nodes: the state's generator draws (SAMPLED_STOCHASTIC)
            num_players=int(cgame.num_players),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=length,
        )
        super().__init__(_game_type(spec, utility), info, values)
        self._cgame: Game[Any] = cgame
        self._seed = seed
        self._deals = 0
        self._parameters: dict[str, Any] = values  # written into every serialized state

    @property
    def cruiselib_game(self) -> Game[Any]:
        """The cruiselib game behind this one."""
        return self._cgame

    @property
    def deals(self) -> int:
        """How many deals this game has made (the next initial state gets deal ``deals``)."""
        return self._deals

    def new_initial_state(self, *args: Any) -> OpenSpielState:
        """The next deal of the ``seed`` parameter's sequence, made when the state is first used."""
        if args:
            raise InvalidOptionError("cruiselib's OpenSpiel games start only from a new deal (no initial state string)")
        if getattr(_openspiel_text_loading, "depth", 0):
            # OpenSpiel's C++ loader asks for a new state only to unpickle the text's attributes into it.
            raise pyspiel.SpielError(
                f"{short_name(self.spec.name)} states are not loaded from OpenSpiel's game-and-state text, "
                "whose state part would be unpickled (which runs any code it names): "
                "load the text of state.serialize() with game.deserialize_state(text)"
            )
        return OpenSpielState(self, _Deal(self))

    def deserialize_state(self, text: str | bytes) -> OpenSpielState:
        """The state of a text written by ``state.serialize()`` (a str, or its UTF-8 bytes).

        Raises :class:`cruiselib.InvalidStateError` for anything else: a text that is not
        this format and version (OpenSpiel's pickled form of Python states included: it is
        never unpickled), a state of another game or configuration (the error names the
        parameters that differ; ``seed`` may differ, and a card or ship file is checked by
        the snapshot's fingerprint of its set, not by its path), an OpenSpiel history out of
        this game's range, or a snapshot that cruiselib's ``load_state`` refuses.
        The game is unchanged either way (no deal is used).
        """
        envelope = _decode_state_text(text)
        self._check_origin(envelope)
        history = self._check_history(envelope.history)
        cstate = self._cgame.load_state(bytes(envelope.state))
        return OpenSpielState._restored(self, cstate, history)

    def _check_origin(self, envelope: _StateText) -> None:
        """Refuse a text of another game, or of another configuration of this one."""
        name = short_name(self.spec.name)
        if envelope.game != name:
            raise InvalidStateError(f"the text holds a state of {envelope.game!r}, not of {name}")
        ours, theirs = self._parameters, envelope.parameters
        if set(theirs) != set(ours):
            raise InvalidStateError(
                f"the text's parameters ({', '.join(sorted(theirs))}) are not those of {name} "
                f"({', '.join(sorted(ours))})"
            )
        differ = [
            key
            for key in ours
            if key not in _PARAMETERS_NOT_COMPARED and (type(theirs[key]), theirs[key]) != (type(ours[key]), ours[key])
        ]
        if differ:
            raise InvalidStateError(
                f"the text holds a state of {name} with {', '.join(f'{k}={theirs[k]!r}' for k in differ)}, "
                f"not of this game ({', '.join(f'{k}={ours[k]!r}' for k in differ)})"
            )

    def _check_history(self, history: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """The text's OpenSpiel history, if every entry is a seat and an action id of this game."""
        if len(history) > self.max_game_length():
            raise InvalidStateError(
                f"the text's history has {len(history)} actions, more than this game's {self.max_game_length()}"
            )
        seats, actions = self.num_players(), self.num_distinct_actions()
        for i, (player, action) in enumerate(history):
            if not 0 <= player < seats:
                raise InvalidStateError(f"history entry {i}: seat {player} does not exist (seats 0..{seats - 1})")
            if not 0 <= action < actions:
                raise InvalidStateError(f"history entry {i}: action id {action} is beyond 0..{actions - 1}")
        return history

    def state_from(self, state: State[Any, Any, Any]) -> OpenSpielState:
        """An OpenSpiel state wrapping a copy of a cruiselib ``state`` of an equal game (its
        OpenSpiel history is empty)."""
        if state.game != self._cgame:
            raise InvalidOptionError(f"a state of {state.game!r} is no state of {self._cgame!r}")
        return OpenSpielState(self, state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel pickles a game through its serialization, which a sampled-stochastic Python
        # game cannot provide (it asks the C++ side for the generator's state).
        return (_unpickle_game, (str(self), self._deals))

    def _deal(self) -> State[Any, Any, Any]:
        cgame = self._cgame
        k = self._deals
        self._deals = k + 1
        state: State[Any, Any, Any] = cgame.state_from_seed_state(cgame.playout_seed_state(self._seed, k))
        return state

    # Answered here, not by OpenSpiel's C++ side, which observes a new initial state for them.

    def observation_tensor_shape(self) -> list[int]:
        return list(self._cgame.observation_shape)

    def observation_tensor_size(self) -> int:
        return int(self._cgame.observation_shape[0])

    def information_state_tensor_shape(self) -> list[int]:
        return list(self._cgame.information_state_shape)

    def information_state_tensor_size(self) -> int:
        return int(self._cgame.information_state_shape[0])

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> OpenSpielObserver:
        """An observer (OpenSpiel's Python convention): the observation (``perfect_recall``
        False) or the information state (True), for the observing player's private info."""
        if isinstance(iig_obs_type, Mapping):  # OpenSpiel's C++ side passes only the params
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise InvalidOptionError(f"observation parameters are not supported, not {dict(params)!r}")
        recall = False
        if iig_obs_type is not None:
            if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
                raise InvalidOptionError(
                    "cruiselib observers show the public table plus the observing player's own cards "
                    "(public_info=True, private_info=SINGLE_PLAYER)"
                )
            recall = bool(iig_obs_type.perfect_recall)
        return OpenSpielObserver(self._cgame, recall)


class _Deal:
    """The deal of a new initial state, made the first time the state is used, copied or
    pickled. OpenSpiel's C++ ``Clone`` of a Python state makes a new initial state and then
    overwrites its attributes: dealing lazily keeps clones from using up deals."""

    __slots__ = ("_game", "_state")

    def __init__(self, game: OpenSpielGame) -> None:
        self._game: OpenSpielGame | None = game
        self._state: State[Any, Any, Any] | None = None

    def get(self) -> State[Any, Any, Any]:
        state = self._state
        if state is None:
            assert self._game is not None
            state = self._state = self._game._deal()
            self._game = None
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> State[Any, Any, Any]:
        return self.get().clone()

    def __reduce__(self) -> tuple[Any, ...]:
        return self.get().__reduce__()


class _Replay:
    """Stands in for the cruiselib state while ``deserialize_state`` writes a text's OpenSpiel
    history into a new state: OpenSpiel's ``apply_action`` is the one way Python can set a
    state's history, and it asks who is to move. Nothing is played."""

    __slots__ = ("_history", "_next")

    def __init__(self, history: list[tuple[int, int]]) -> None:
        self._history = history
        self._next = 0

    @property
    def current_player(self) -> int:
        return self._history[self._next][0]

    def apply(self, action: int) -> None:
        self._next += 1


# --------------------------------------------------------------------------- states


class OpenSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """An OpenSpiel state wrapping a cruiselib state (``cruiselib_state``).

    Its one attribute is the cruiselib state, so OpenSpiel's ``clone`` (a deep copy of the
    attributes) clones it. ``serialize`` writes cruiselib's JSON snapshot of it (see
    :meth:`serialize`).
    """

    def __init__(self, game: OpenSpielGame, state: State[Any, Any, Any] | _Deal | _Replay) -> None:
        super().__init__(game)
        self._state = state

    @staticmethod
    def _restored(game: OpenSpielGame, state: State[Any, Any, Any], history: list[tuple[int, int]]) -> OpenSpielState:
        """An OpenSpiel state of ``state`` whose OpenSpiel history is ``history``."""
        restored = OpenSpielState(game, _Replay(history))
        for _, action in history:
            restored.apply_action(action)  # records (current_player(), action); plays nothing
        restored._state = state
        return restored

    def serialize(self) -> str:
        """This state as JSON text for ``game.deserialize_state``: an object with ``format``
        (:data:`STATE_FORMAT`), ``version`` (:data:`STATE_FORMAT_VERSION`), ``game`` (the
        OpenSpiel short name), ``parameters`` (every parameter of the game, defaults
        included), ``history`` (OpenSpiel's ``[player, action]`` pairs) and ``state``
        (cruiselib's snapshot, ``cruiselib_state.to_json()``: hidden cards, generator state
        and cruiselib's history included, so the loaded state draws the same cards)."""
        game = cast(OpenSpielGame, self.get_game())
        text = _StateText(
            format=STATE_FORMAT,
            version=STATE_FORMAT_VERSION,
            game=short_name(game.spec.name),
            parameters=game._parameters,
            history=[(int(pa.player), int(pa.action)) for pa in self.full_history()],
            state=msgspec.Raw(self._s().to_json().encode()),
        )
        return _encode_json(text).decode()

    def _s(self) -> State[Any, Any, Any]:
        state = self._state
        if type(state) is _Deal:
            state = self._state = state.get()
        return cast("State[Any, Any, Any]", state)

    @property
    def cruiselib_state(self) -> State[Any, Any, Any]:
        """The cruiselib state (live: changing it changes this state)."""
        return self._s()

    def current_player(self) -> int:
        player = int(self._s().current_player)
        return int(pyspiel.PlayerId.TERMINAL) if player < 0 else player

    def _legal_actions(self, player: int) -> list[int]:
        return self._s().legal_actions()

    # OpenSpiel's own forms of the next methods go through C++, and its tensor forms first ask
    # the game for the tensor's size, which for a Python game means a new initial state
    # observed (so a deal used up): called from Python, these answer directly, the same way.

    def legal_actions(self, player: int | None = None) -> list[int]:
        state = self._s()
        if player is not None and player != state.current_player:
            return []
        return state.legal_actions()

    def _player(self, player: int | None) -> int:
        if player is None:
            player = self.current_player()
        if not 0 <= player < self._s().game.num_players:
            raise pyspiel.SpielError(f"player {player} is not a seat of this game")
        return int(player)

    def observation_string(self, player: int | None = None) -> str:
        return _view_json(self._s(), self._player(player), False)

    def information_state_string(self, player: int | None = None) -> str:
        return _view_json(self._s(), self._player(player), True)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return cast("list[float]", self._s().observation(self._player(player)).tolist())

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return cast("list[float]", self._s().information_state(self._player(player)).tolist())

    def _apply_action(self, action: int) -> None:
        self._s().apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._s().game.action_to_move(action))

    def is_terminal(self) -> bool:
        return bool(self._s().is_over)

    def returns(self) -> list[float]:
        return self._s().returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> OpenSpielState:
        """A state consistent with what ``player_id`` knows (cruiselib's
        ``resample(player_id, seed, recall=True)``), the seed drawn from two calls of the
        sampler, so a seeded sampler gives the same world. For OpenSpiel's ISMCTS; the
        world's OpenSpiel history is empty."""
        seed = (int(probability_sampler() * 2**32) << 32) | int(probability_sampler() * 2**32)
        world = self._s().resample(int(player_id), seed, recall=True)
        return OpenSpielState(self.get_game(), world)

    def __str__(self) -> str:
        state = self._s()
        return str(state.game.render(state))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle_state, (self.get_game(), self.serialize()))


def _unpickle_game(text: str, deals: int) -> OpenSpielGame:
    game = cast(OpenSpielGame, pyspiel.load_game(text))
    game._deals = deals
    return game


def _unpickle_state(game: OpenSpielGame, text: str) -> OpenSpielState:
    return game.deserialize_state(text)


# --------------------------------------------------------------------------- the serialized text

_CInt = Annotated[int, msgspec.Meta(ge=INT_MIN, le=INT_MAX)]
_Name = Annotated[str, msgspec.Meta(max_length=64)]
_ParameterValue = bool | _CInt | float | str  # strings unbounded: a game's own (a path, a board) must load again

# Not compared when a text is loaded: the seed only picks the deals of new initial states (a
# state carries its own generator), and component files are named by path, so the
# snapshot's fingerprint of the card or ship set decides instead.
_PARAMETERS_NOT_COMPARED = frozenset({"seed", "cards", "ships"})


class _StateTextHeader(msgspec.Struct):
    """The first fields of a serialized state, read on their own to word the error for a
    text of another format or version."""

    format: _Name
    version: int


class _StateText(msgspec.Struct, forbid_unknown_fields=True):
    """The text of ``OpenSpielState.serialize``: versioned, naming its game and parameters."""

    format: _Name
    version: int
    game: _Name
    parameters: Annotated[dict[_Name, _ParameterValue], msgspec.Meta(max_length=64)]
    history: list[tuple[_CInt, _CInt]]
    state: msgspec.Raw  # cruiselib's JSON snapshot, left for the game's load_state to validate


def _decode_state_text(text: object) -> _StateText:
    """The envelope of a serialized state, its snapshot still raw; InvalidStateError for
    anything else. Never unpickles: JSON only."""
    if isinstance(text, str):
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidStateError(f"a serialized state is Unicode text, not text with {exc.reason}") from None
    elif isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
    else:
        raise InvalidStateError(f"a serialized state is a str (or its UTF-8 bytes), not {type(text).__name__}")
    try:
        header = msgspec.json.decode(data, type=_StateTextHeader)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        if data.startswith((b"history=", b"\x80")):
            raise InvalidStateError(
                "this is OpenSpiel's pickled form of a Python state, which is never loaded (unpickling runs "
                "any code the text names): cruiselib states load from the JSON text of state.serialize()"
            ) from None
        raise InvalidStateError(
            f"not a serialized cruiselib state (the JSON text of state.serialize(), format {STATE_FORMAT!r}): {exc}"
        ) from None
    if header.format != STATE_FORMAT:
        raise InvalidStateError(f"the text's format is {header.format!r}, not {STATE_FORMAT!r}")
    if header.version != STATE_FORMAT_VERSION:
        raise InvalidStateError(
            f"the text is {STATE_FORMAT} version {header.version}; this cruiselib reads version {STATE_FORMAT_VERSION}"
        )
    try:
        return msgspec.json.decode(data, type=_StateText)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        raise InvalidStateError(f"not a valid {STATE_FORMAT} text: {exc}") from None


# OpenSpiel's C++ loader of a game-and-state text (pyspiel.deserialize_game_and_state) makes a
# new initial state of the game it names and unpickles the state part into its attributes;
# no Python method is asked first. While it runs, cruiselib's games refuse to make that state
# (new_initial_state raises SpielError), so a text naming one of them is never unpickled.
_openspiel_text_loading = threading.local()
# OpenSpiel's own function; a reload of this module (same globals) keeps the one found first.
_openspiel_deserialize_game_and_state = globals().get(
    "_openspiel_deserialize_game_and_state", pyspiel.deserialize_game_and_state
)


def _deserialize_game_and_state(text: str) -> Any:
    depth = getattr(_openspiel_text_loading, "depth", 0)
    _openspiel_text_loading.depth = depth + 1
    try:
        return _openspiel_deserialize_game_and_state(text)
    finally:
        _openspiel_text_loading.depth = depth


_deserialize_game_and_state.__doc__ = (
    f"{_openspiel_deserialize_game_and_state.__doc__}\n\n"
    "(cruiselib.openspiel: a cruiselib game's text is refused with SpielError before its state is unpickled.)"
)
pyspiel.deserialize_game_and_state = _deserialize_game_and_state


# --------------------------------------------------------------------------- observers


class OpenSpielObserver:
    """Tensor and string of what a player knows (OpenSpiel's ``PyObserver`` convention).

    Tensor: ``state.observation(player)`` or, with recall, ``state.information_state(player)``;
    ``dict`` names its parts (``game.observation_fields()``, views into the tensor). String:
    the JSON of ``state.view(player, recall=...)``, deterministic, so equal strings mean equal
    information.
    """

    def __init__(self, game: Game[Any], recall: bool) -> None:
        self.recall = recall
        shape = game.information_state_shape if recall else game.observation_shape
        fields = game.information_state_fields() if recall else game.observation_fields()
        self.tensor: npt.NDArray[np.float32] = np.zeros(shape, dtype=np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {name: self.tensor[part] for name, part in fields.items()}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        s = state._s()
        if self.recall:
            s.information_state(player, out=self.tensor)
        else:
            s.observation(player, out=self.tensor)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        return _view_json(state._s(), player, self.recall)


_encode_json = msgspec.json.Encoder().encode


def _view_json(state: State[Any, Any, Any], player: int, recall: bool) -> str:
    """The JSON text of ``state.view(player, recall=recall)``: msgspec writes a Struct's fields
    in their declared order, so equal views give equal strings."""
    return _encode_json(state.view(player, recall=recall)).decode()


# --------------------------------------------------------------------------- registry


def _make_class(spec: _Spec) -> type[OpenSpielGame]:
    name = "".join(part.title() for part in spec.name.split("_")) + "OpenSpielGame"
    cls = type(name, (OpenSpielGame,), {"spec": spec, "__doc__": f"{spec.title} as an OpenSpiel game."})
    cls.__module__ = __name__
    return cls


GAME_CLASSES: dict[str, type[OpenSpielGame]] = {name: _make_class(spec) for name, spec in _SPECS.items()}

_registered = {g.short_name for g in pyspiel.registered_games()}
for _name, _cls in GAME_CLASSES.items():
    if f"cruiselib_{_name}" not in _registered:  # a second import (e.g. a reload) keeps the first
        pyspiel.register_game(_game_type(_cls.spec, _registered_utility(_cls.spec)), _cls)


def load_game(game: str, **params: Any) -> OpenSpielGame:
    """``pyspiel.load_game("cruiselib_<game>", params)`` with Python values: e.g.
    ``load_game("dream_cruise", players=3, route_points=(1, 3, 6, 10), seed=7)``; card and
    ship lists as file paths."""
    spec = _spec(game)
    converted = {}
    for key, value in params.items():
        try:
            converted[key] = spec.to_parameter[key](value) if key in spec.to_parameter else value
        except InvalidOptionError as exc:
            raise InvalidOptionError(f"{key}: {exc}") from None
    _check_parameters(spec, converted)  # OpenSpiel's C++ side would raise RuntimeError or SpielError
    return cast(OpenSpielGame, pyspiel.load_game(short_name(game), converted))


def wrap_game(game: Game[Any], seed: int = 0) -> OpenSpielGame:
    """The OpenSpiel game of a cruiselib ``game`` as it is: its own card or ship set object,
    or its pure twin. Its parameters name what OpenSpiel parameters can hold; a component set
    given as an object is named ``<its name>``, so its game string does not load again (nor
    does a pickle of it). Dream Islands needs ``max_rounds``."""
    return _wrap(game, _parameters_of(game, seed), clamp=False)


def _parameters_of(game: Game[Any], seed: int) -> dict[str, Any]:
    spec = _spec(game.name)
    params: dict[str, Any] = {"seed": _int(seed, "seed")}
    for key, value in game.options.items():
        try:
            params[key] = spec.to_parameter[key](value) if key in spec.to_parameter else value
        except InvalidOptionError:  # a component set given as an object
            params[key] = f"<{getattr(value, 'name', type(value).__name__)}>"
    return params


def _wrap(game: Game[Any], params: dict[str, Any], clamp: bool) -> OpenSpielGame:
    cls = GAME_CLASSES[game.name]
    values = {**cls.spec.parameters, **params}
    if game.name == "dream_islands" and "max_rounds" not in params:
        if not clamp:
            _finite_rounds(None)  # raises: OpenSpiel needs the bound
        values["max_rounds"] = 0  # TimedISMCTS only: no round limit (I9), written as 0
    return cls(values, _game=game, _clamp=clamp)


class TimedISMCTS:
    """OpenSpiel's ISMCTS (``open_spiel.python.algorithms.ismcts``) as a cruiselib bot:
    ``choose(state)`` and ``analyse(state)`` on cruiselib states, like ``cruiselib.bots``.

    Budget: ``seconds`` per decision, ``iterations``, or both (whichever ends first). Each
    iteration resamples a world (``resample(..., recall=True)``, seeded from the bot's
    generator), walks OpenSpiel's tree and plays ``rollouts`` random rollouts (its
    ``RandomRolloutEvaluator``). ``uct_c`` is OpenSpiel's UCT constant (cruiselib's ISMCTSBot's
    default, 1.0, for like-for-like matches); the move is the most visited (ties at random).
    Deterministic for a seed with an iteration budget. (A Dream Islands game without
    ``max_rounds`` is searched as it is; only OpenSpiel's length bound is then not exact.)
    """

    name = "openspiel-ismcts"

    def __init__(
        self,
        game: Game[Any],
        seconds: float | None = None,
        iterations: int | None = None,
        *,
        uct_c: float = 1.0,
        rollouts: int = 1,
        seed: int | str | bytes | None = None,
    ) -> None:
        from open_spiel.python.algorithms import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
            ismcts,
            mcts,
        )

        if seconds is None and iterations is None:
            raise InvalidOptionError("give a budget: seconds, iterations or both")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise InvalidOptionError(f"iterations must be an int >= 1 or None, not {iterations!r}")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds <= 0):
            raise InvalidOptionError(f"seconds must be a number > 0 or None, not {seconds!r}")
        if type(rollouts) is not int or rollouts < 1:
            raise InvalidOptionError(f"rollouts must be an int >= 1, not {rollouts!r}")
        self.seconds = None if seconds is None else float(seconds)
        self.iterations = iterations
        self.last_iterations = 0
        self.game = _wrap(game, _parameters_of(game, 0), clamp=True)
        seed_bits = random.Random(seed).getrandbits(32) if seed is not None else random.SystemRandom().getrandbits(32)
        self._rs = np.random.RandomState(seed_bits)
        evaluator = mcts.RandomRolloutEvaluator(rollouts, self._rs)
        top = iterations if iterations is not None else 2**31 - 1
        self._bot = ismcts.ISMCTSBot(self.game, evaluator, float(uct_c), top, random_state=self._rs)
        self._bot.set_resampler(self._resample)

    def _resample(self, state: OpenSpielState, player: int) -> OpenSpielState:
        sampler = pyspiel.UniformProbabilitySampler(int(self._rs.randint(2**31)), 0.0, 1.0)
        return state.resample_from_infostate(player, sampler)

    def _search(self, state: State[Any, Any, Any]) -> Any:
        """One search (OpenSpiel's ``run_search``, with the time budget): the root node."""
        root_state = self.game.state_from(state)
        bot = self._bot
        bot.reset()
        root = bot.create_new_node(root_state)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        n = 0
        while self.iterations is None or n < self.iterations:
            bot.run_simulation(bot.sample_root_state(root_state))
            n += 1
            # The first iteration only expands the root: a time budget gets at least one more.
            if deadline is not None and n >= 2 and time.perf_counter() >= deadline:
                break
        self.last_iterations = n
        return root

    def choose(self, state: State[Any, Any, Any]) -> int:
        legal = state.legal_actions()
        if not legal:
            raise IllegalMoveError("the game is over: there is no move to choose")
        if len(legal) == 1:
            self.last_iterations = 0
            return int(legal[0])
        root = self._search(state)
        if not root.child_info:  # iterations=1: the root was only expanded
            return int(legal[self._rs.randint(len(legal))])
        most = max(child.visits for child in root.child_info.values())
        best = sorted(a for a, child in root.child_info.items() if child.visits == most)
        return int(best[self._rs.randint(len(best))])

    def analyse(self, state: State[Any, Any, Any]) -> list[Any]:
        """The root's moves, most visited first, as ``cruiselib.bots.Candidate``: visits and
        the mean return of the seat to move after the move."""
        from cruiselib.bots import Candidate

        root = self._search(state)
        rows = sorted(root.child_info.items(), key=lambda item: (-item[1].visits, item[0]))
        moves = state.game.action_to_move
        return [
            Candidate(action=int(a), move=str(moves(a)), visits=int(c.visits), value=float(c.value())) for a, c in rows
        ]

    def __repr__(self) -> str:
        return f"TimedISMCTS(seconds={self.seconds}, iterations={self.iterations})"
