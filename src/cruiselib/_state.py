"""The game-independent half of every game's state class: :class:`State`.

Each game's state class combines :class:`State` with its compiled core class. The core owns
the rules (``legal_actions``, ``apply``, ``clone``, ``scores`` …); this mixin adds typed
moves, serialization, history, records and pickling, identically for all games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import msgspec
import numpy as np
import numpy.typing as npt

from cruiselib import _core, serialize
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

if TYPE_CHECKING:
    from typing_extensions import Self

    from cruiselib._game import Game
    from cruiselib._playouts import Playouts
    from cruiselib.records import GameRecord

__all__ = ["DataT", "MoveT", "State", "StateT", "ViewT"]

StateT = TypeVar("StateT", bound="State[Any, Any, Any]")
if TYPE_CHECKING:  # defaults (PEP 696) for type checkers; plain TypeVars at run time (Python 3.10)
    from typing_extensions import TypeVar as _DefaultTypeVar

    MoveT = _DefaultTypeVar("MoveT", default=Any)
    DataT = _DefaultTypeVar("DataT", bound=msgspec.Struct, default=Any)
    ViewT = _DefaultTypeVar("ViewT", bound=msgspec.Struct, default=Any)
else:
    MoveT = TypeVar("MoveT")
    DataT = TypeVar("DataT", bound=msgspec.Struct)
    ViewT = TypeVar("ViewT", bound=msgspec.Struct)


_seed_state = _core.load("rng").seed_state


class State(Generic[MoveT, DataT, ViewT]):
    """Mixin for every game's state class (combined with the game's compiled core class).

    Typed by the game's move union, snapshot Struct and view Struct, e.g.
    ``State[SirensMove, SirensStateData, SirensView]``.

    The core provides ``current_player``, ``is_over``, ``legal_actions()``,
    ``action_mask()``, ``apply()``, ``is_legal()``, ``clone()``, ``scores()`` and
    ``winners()``; the game provides ``_to_data()``, ``view()`` and ``resample()``.
    """

    __slots__ = ()

    game: Game[Any, MoveT]
    """The game (configuration) this state belongs to."""

    if TYPE_CHECKING:  # provided by the compiled core class and the game's state class

        @property
        def current_player(self) -> int:
            """The seat to decide now, or -1 once the game is over."""

        @property
        def is_over(self) -> bool:
            """Whether the game has ended (then ``current_player`` is -1 and ``winners()``
            is final)."""

        def legal_actions(self) -> list[int]:
            """The legal action ids, sorted ascending (empty once the game is over)."""

        def action_mask(self) -> npt.NDArray[np.int8]:
            """An int8 array of shape (num_actions,): 1 where the action is legal."""

        def apply(self, action: int | MoveT, player: int | None = None) -> None:
            """Apply an action id or a move (IllegalMoveError; the state is then unchanged)."""

        def is_legal(self, action: object) -> bool:
            """Whether ``action`` (an action id or a move, as ``apply`` takes) is legal now
            (an id out of range is not; an object that is no action raises IllegalMoveError)."""

        def clone(self) -> Self:
            """An independent copy."""

        def scores(self) -> list[int]:
            """Each seat's score (final once the game is over)."""

        def winners(self) -> list[int]:
            """The winning seats once the game is over (empty while running or for a draw)."""

        def view(self, player: int, *, recall: bool = False) -> ViewT:
            """What ``player`` may see, as a msgspec Struct."""

        def observation(self, player: int, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
            """Seat ``player``'s observation tensor (``game.observation_shape``, float32)."""

        def information_state(self, player: int, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
            """Seat ``player``'s information-state tensor (``game.information_state_shape``)."""

        def _seat(self, player: object) -> int: ...

        def _resampled(self, seat: int, rng: int, recall: bool) -> Self: ...

        def playouts(self, n: int, seed: int | str | bytes = 0, threads: int = 1) -> Playouts:
            """Play ``n`` random games on from this position, entirely in the compiled core
            (the state unchanged; see the core's docstring and docs/contract.md)."""

        def random_action(self, r: int) -> int:
            """The action the core's random playouts take for the 64-bit value ``r``."""

        def rollout_action(self, r: int) -> int:
            """The action a search's rollout takes for the 64-bit value ``r``: the game's
            rollout policy (Atlantic Star, Dream Cruise), else ``random_action(r)``."""

        def prior_action(self, r: int) -> int:
            """The move the game's rollout policy prefers for the 64-bit value ``r``, without
            its random moves (a search's prior); -1 where it has none."""

        def _history(self) -> list[int]: ...

        def _origin(self) -> object: ...

        def _start_history(self, origin: object, actions: Sequence[int]) -> None: ...

        def _assign(self, other: Self) -> None: ...

        def _to_data(self) -> DataT: ...

    def resample(self, player: int, seed: int | str | bytes | None = None, *, recall: bool = False) -> Self:
        """A full state consistent with what ``player`` knows, everything else dealt anew.

        Every card the seat cannot see (other hands, deck orders, face-down and pending
        cards) is dealt again, uniformly among the deals consistent with ``view(player)``,
        by the core from the generator state ``seed_state(seed)`` (a random seed for None).
        With ``recall=True`` the deal also keeps what the seat saw happen earlier in the
        game (its information state; the same as without it where the table keeps no secrets
        a seat could remember). The state itself is unchanged. For information-set search.
        """
        seat = self._seat(player)
        game = self.game
        return self._resampled(seat, _seed_state(game._seed_or_random(seed)), bool(recall))

    def returns(self) -> list[float]:
        """Per seat, the outcome as a reward: +1 for each winner and -1 for every other seat
        once the game is over; 0 for every seat while it runs or after a draw (no winner)."""
        n = self.game.num_players
        winners = self.winners()
        if not winners:
            return [0.0] * n
        return [1.0 if p in winners else -1.0 for p in range(n)]

    def legal_moves(self) -> list[MoveT]:
        """The legal moves as typed objects, in the order of :meth:`legal_actions`."""
        moves = self.game._all_moves
        return [moves[a] for a in self.legal_actions()]

    def parse_move(self, text: str) -> MoveT:
        """The legal move that ``text`` names in this position: the inverse of ``str()`` of
        :meth:`legal_moves` (and of the plain texts of ``game.action_to_move``).

        Tolerant of case, spacing, punctuation, ``,`` thousands separators, ascii stand-ins
        (``*`` for ``★``, ``->`` for ``→``, ``a`` for ``⚓``), accents, the words a, an, the
        and and, and of the parts the game's page ("Notation") says may be left out where
        the rest names one legal move. Raises IllegalMoveError for a text that names no
        legal move (saying whether it names a move that is not legal now, and listing up to
        three close matches) or several (listing them). The state is never changed.
        """
        return self.game._parse_in(text, self)

    def move_text(self, move: int | MoveT, *, player: int | None = None) -> str:
        """The text of a legal move in this position, naming what it acts on as a player
        would say it (the ship, the family, the activity, the card ...): for move logs,
        hints and analyses. ``move`` is an action id or a typed move.

        The text is said to everyone: it names only what the table shows in this position
        and what the move itself shows every seat (a card played face up, the ships of a
        voyage), and says a hidden object without naming it ("a mission card"). With
        ``player`` set to the seat that makes the move, it may also name what that seat
        alone knows (the card it puts away, the card it picks); for any other seat, the
        public text. A game without its own texts gives the plain ``str()`` of the move.

        Raises IllegalMoveError for a move that is not legal now (or not a move of this
        game) and InvalidOptionError for a bad ``player``; the state is never changed.
        """
        if isinstance(move, np.integer):
            move = int(move)
        game = self.game
        action = game.move_to_action(move)
        if not self.is_legal(action):
            where = "the game is over" if self.is_over else "it is not legal in this position"
            raise IllegalMoveError(f"no text for {game.action_to_move(action)!s}: {where}")
        seat = None if player is None else game.check_player(player)
        return self._move_text(action, seat == self.current_player)

    def _move_text(self, action: int, private: bool) -> str:
        """The text of the legal ``action`` (the hook behind :meth:`move_text`): the plain
        text of the move here; a game overrides it to name what the move acts on.
        ``private``: the text is for the seat making the move, which may be told what it
        alone knows; otherwise only what every seat may know."""
        return str(self.game.action_to_move(action))

    def to_json(self) -> str:
        """The full state (hidden cards, generator state and history included) as JSON text."""
        return serialize.encode_json(self.to_data()).decode()

    def to_msgpack(self) -> bytes:
        """The full state as MessagePack bytes."""
        return serialize.encode_msgpack(self.to_data())

    def to_data(self) -> DataT:
        """The full state as its msgspec Struct (see the game's JSON Schema)."""
        data = self._to_data()
        origin = self._origin()
        if type(origin) is tuple:  # dealt by new_state: the deal and every action since
            deal, start = origin
            return msgspec.structs.replace(
                data,
                deal=serialize.Deal(serialize.rng_to_text(deal), start),
                history=self._history(),
            )
        return data

    @property
    def history(self) -> list[int]:
        """The action ids applied since the game was dealt (or since the state was loaded
        from a snapshot that carries no history), oldest first.

        Kept in snapshots, so a saved game reloads with its history. A state made by
        :meth:`resample` keeps none (it was never dealt), nor does a game longer than
        ``serialize.HISTORY_LIMIT`` actions. Recording costs one small tuple per
        :meth:`apply`; ``clone()`` shares it and playouts never record.
        """
        return self._history()

    def undo(self) -> int:
        """Take back the last action and return its id (for UIs; not for search: it replays
        the game from its start, which costs a clone-and-apply per action played).

        Raises IllegalMoveError when there is nothing to undo, and InvalidStateError when
        the recorded history does not lead to this position (a snapshot edited by hand).
        """
        actions = self._history()
        if not actions:
            raise IllegalMoveError("there is no action to undo: the history is empty")
        game = self.game
        earlier = game._history_start(self._origin())
        lost = InvalidStateError("this state's history does not lead to it: it cannot be undone")
        try:
            for a in actions[:-1]:
                earlier.apply(a)
            check = earlier.clone()
            check.apply(actions[-1])
        except IllegalMoveError:
            raise lost from None
        if check._to_data() != self._to_data():
            raise lost
        self._assign(earlier)
        return actions[-1]

    def take_back(self, count: int) -> list[int]:
        """Take back the last ``count`` actions with one replay and return their ids, the
        last action first (what ``count`` calls of :meth:`undo` return, one by one, at the
        cost of one).

        Raises InvalidOptionError unless ``count`` is an int >= 1, IllegalMoveError when the
        history holds fewer than ``count`` actions, and InvalidStateError when the recorded
        history does not lead to this position; the state is unchanged on any error.
        """
        if type(count) is not int or count < 1:
            raise InvalidOptionError(f"count must be an int >= 1, not {count!r}")
        actions = self._history()
        if count > len(actions):
            raise IllegalMoveError(f"cannot take back {count} action(s): the history holds {len(actions)}")
        game = self.game
        earlier = game._history_start(self._origin())
        lost = InvalidStateError("this state's history does not lead to it: it cannot be undone")
        keep = len(actions) - count
        try:
            for a in actions[:keep]:
                earlier.apply(a)
            check = earlier.clone()
            for a in actions[keep:]:
                check.apply(a)
        except IllegalMoveError:
            raise lost from None
        if check._to_data() != self._to_data():
            raise lost
        self._assign(earlier)
        return actions[keep:][::-1]

    def record(self) -> GameRecord:
        """The game so far as a :class:`cruiselib.GameRecord` (deal, options, actions, result)
        that :func:`cruiselib.replay` plays back exactly, like a PGN file for chess.

        Raises InvalidStateError for a state whose deal is unknown (made by ``resample``,
        or loaded from a snapshot without one), and for one whose deal and history do not
        replay to exactly this state (a snapshot whose history was edited): the record is
        checked by replaying it, which takes milliseconds for a whole game.
        """
        from cruiselib.records import record_of

        return record_of(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_state, (self.game, self.to_msgpack()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.game == other.game and self._to_data() == other._to_data()

    __hash__ = None  # type: ignore[assignment]  # states are mutable

    def __copy__(self) -> Self:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()

    def __repr__(self) -> str:
        where = "over" if self.is_over else f"seat {self.current_player} to move"
        return f"<{type(self).__name__} {self.game.name}: {where}>"


def _restore_state(game: Game[Any], data: bytes) -> State:
    """The state a pickle holds (see ``State.__reduce__``). Older pickles name it
    ``cruiselib._api._restore_state``: that module re-exports it."""
    state: State = game.load_state(data)
    return state
