"""The OpenSpiel state around a cruiselib state, and the observer of what a player knows."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import msgspec
import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found,unused-ignore]  # no type information

from cruiselib._api import Game, State
from cruiselib.openspiel._text import STATE_FORMAT, STATE_FORMAT_VERSION, StateText, encode_json

if TYPE_CHECKING:
    from cruiselib.openspiel._game import OpenSpielGame


def view_json(state: State[Any, Any, Any], player: int, recall: bool) -> str:
    """The JSON text of ``state.view(player, recall=recall)``: msgspec writes a Struct's fields
    in their declared order, so equal views give equal strings."""
    return encode_json(state.view(player, recall=recall)).decode()


class Deal:
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


class OpenSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """An OpenSpiel state wrapping a cruiselib state (``cruiselib_state``).

    Its one attribute is the cruiselib state, so OpenSpiel's ``clone`` (a deep copy of the
    attributes) clones it. ``serialize`` writes cruiselib's JSON snapshot of it (see
    :meth:`serialize`).
    """

    def __init__(self, game: OpenSpielGame, state: State[Any, Any, Any] | Deal | _Replay) -> None:
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
        game = cast("OpenSpielGame", self.get_game())
        text = StateText(
            format=STATE_FORMAT,
            version=STATE_FORMAT_VERSION,
            game=game.openspiel_name,
            parameters=game._parameters,
            history=[(int(pa.player), int(pa.action)) for pa in self.full_history()],
            state=msgspec.Raw(self._s().to_json().encode()),
        )
        return encode_json(text).decode()

    def _s(self) -> State[Any, Any, Any]:
        state = self._state
        if type(state) is Deal:
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
        return view_json(self._s(), self._player(player), False)

    def information_state_string(self, player: int | None = None) -> str:
        return view_json(self._s(), self._player(player), True)

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


def _unpickle_state(game: OpenSpielGame, text: str) -> OpenSpielState:
    return game.deserialize_state(text)


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
        return view_json(state._s(), player, self.recall)
