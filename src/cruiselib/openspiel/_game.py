"""The OpenSpiel game around a cruiselib game, and its game type."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

import pyspiel  # type: ignore[import-not-found,unused-ignore]  # no type information

import cruiselib
from cruiselib._api import Game, State
from cruiselib.errors import InvalidOptionError, InvalidStateError
from cruiselib.integration import OpenSpielSpec, int_parameter
from cruiselib.openspiel._parameters import INT_MAX, check_parameters
from cruiselib.openspiel._state import Deal, OpenSpielObserver, OpenSpielState
from cruiselib.openspiel._text import StateText, decode_state_text, loading_openspiel_text, parameters_not_compared


class OpenSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """A cruiselib game as an OpenSpiel game (made by ``pyspiel.load_game`` or :func:`load_game`).

    Parameters: the game's ``cruiselib.make`` options (file paths as strings, lists as
    ``"1/3/6/9"``) plus ``seed``. ``get_type().utility`` is ZERO_SUM where every finished
    game's returns sum to 0 in this configuration (the spec's ``zero_sum``), else
    GENERAL_SUM; the registered type of a game says what holds for all its configurations.
    One subclass per registered game (``GAME_CLASSES[name]``) says which game it is.
    """

    cruiselib_name: ClassVar[str]
    """The game's name in cruiselib's registry (``cruiselib.make(cruiselib_name)``)."""
    cruiselib_class: ClassVar[type[Game[Any]]]
    """The game's class, whose declarations this adapter reads."""
    openspiel_name: ClassVar[str]
    """OpenSpiel's short name of the game: ``cruiselib_<name>``."""
    spec: ClassVar[OpenSpielSpec]
    """The game's OpenSpiel declaration (``cruiselib_class.openspiel``)."""

    def __init__(
        self, params: Mapping[str, Any] | None = None, *, _game: Game[Any] | None = None, _clamp: bool = False
    ) -> None:
        spec = self.spec
        given = dict(params or {})
        check_parameters(spec, self.openspiel_name, given)
        values = {**spec.parameters, **given}
        seed = int_parameter(values["seed"], "seed")
        # _game: wrap_game's cruiselib game (its own card set, or a pure twin), else made here.
        cgame = cruiselib.make(self.cruiselib_name, **spec.options(values)) if _game is None else _game
        zero_sum = bool(spec.zero_sum(cgame))
        length = int(spec.max_length(cgame))
        if length > INT_MAX:
            if not _clamp:
                bounds = ", ".join(spec.unbounded) or "a bound on the game's length"
                raise InvalidOptionError(
                    f"this configuration's game length bound {length} exceeds OpenSpiel's ints (give {bounds})"
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
        super().__init__(game_type(type(self), utility), info, values)
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
        if loading_openspiel_text():
            # OpenSpiel's C++ loader asks for a new state only to unpickle the text's attributes into it.
            raise pyspiel.SpielError(
                f"{self.openspiel_name} states are not loaded from OpenSpiel's game-and-state text, "
                "whose state part would be unpickled (which runs any code it names): "
                "load the text of state.serialize() with game.deserialize_state(text)"
            )
        return OpenSpielState(self, Deal(self))

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
        envelope = decode_state_text(text)
        self._check_origin(envelope)
        history = self._check_history(envelope.history)
        cstate = self._cgame.load_state(bytes(envelope.state))
        return OpenSpielState._restored(self, cstate, history)

    def _check_origin(self, envelope: StateText) -> None:
        """Refuse a text of another game, or of another configuration of this one."""
        name = self.openspiel_name
        if envelope.game != name:
            raise InvalidStateError(f"the text holds a state of {envelope.game!r}, not of {name}")
        ours, theirs = self._parameters, envelope.parameters
        if set(theirs) != set(ours):
            raise InvalidStateError(
                f"the text's parameters ({', '.join(sorted(theirs))}) are not those of {name} "
                f"({', '.join(sorted(ours))})"
            )
        free = parameters_not_compared(self.spec)
        differ = [
            key for key in ours if key not in free and (type(theirs[key]), theirs[key]) != (type(ours[key]), ours[key])
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


def _unpickle_game(text: str, deals: int) -> OpenSpielGame:
    game = cast(OpenSpielGame, pyspiel.load_game(text))
    game._deals = deals
    return game


def game_type(adapter: type[OpenSpielGame], utility: Any) -> Any:
    """OpenSpiel's type of a game, its utility ``utility``: what the game class declares."""
    cls, spec = adapter.cruiselib_class, adapter.spec
    return pyspiel.GameType(
        short_name=adapter.openspiel_name,
        long_name=f"{cls.title} (cruiselib)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(cls.player_counts),
        min_num_players=min(cls.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(spec.parameters),
    )


def registered_utility(spec: OpenSpielSpec) -> Any:
    """The utility of the registered type: what holds for every configuration of the game."""
    return pyspiel.GameType.Utility.ZERO_SUM if spec.always_zero_sum else pyspiel.GameType.Utility.GENERAL_SUM


def adapter_class(name: str, cls: type[Game[Any]], spec: OpenSpielSpec) -> type[OpenSpielGame]:
    """The OpenSpiel game class of the game registered as ``name``: ``<Name>OpenSpielGame``."""
    class_name = "".join(part.title() for part in name.split("_")) + "OpenSpielGame"
    attributes = {
        "cruiselib_name": name,
        "cruiselib_class": cls,
        "openspiel_name": f"cruiselib_{name}",
        "spec": spec,
        "__doc__": f"{cls.title} as an OpenSpiel game.",
        "__module__": "cruiselib.openspiel",
    }
    return type(class_name, (OpenSpielGame,), attributes)
