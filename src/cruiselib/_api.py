"""The game-independent public API: :class:`Game`, :class:`State` and :class:`Playouts`.

Every game subclasses :class:`Game` and combines :class:`State` with its compiled core
class. The core owns the rules (``legal_actions``, ``apply``, ``clone``, ``scores`` …);
this layer adds typed moves, serialization, views and pickling, identically for all
games.
"""

from __future__ import annotations

import copy
import itertools
import re
import secrets
import types
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import msgspec
import numpy as np
import numpy.typing as npt

from cruiselib import _core, serialize
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError
from cruiselib.integration import OpenSpielSpec, SearchDefaults, WebBoard

if TYPE_CHECKING:
    from typing_extensions import Self

    from cruiselib.records import GameRecord

__all__ = ["MAX_PLAYOUTS", "Game", "Playouts", "State"]

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

MASK64 = 0xFFFFFFFFFFFFFFFF

MAX_PLAYOUTS = 100_000_000
"""The most games one ``playouts`` call plays: its result arrays then take about 1.6 GB."""


class Playouts(msgspec.Struct, frozen=True):
    """Results of :meth:`Game.playouts`: one row per game.

    ``scores[g, p]`` is seat p's final score in game g, ``lengths[g]`` the number of
    actions applied, ``wins[g, p]`` 1 if seat p won game g (a shared win marks several
    seats; a draw marks none).
    """

    scores: npt.NDArray[np.int16]
    lengths: npt.NDArray[np.int32]
    wins: npt.NDArray[np.int8]
    actions: int

    @property
    def games(self) -> int:
        return int(self.lengths.shape[0])

    @property
    def win_rates(self) -> npt.NDArray[np.float64]:
        """Fraction of games each seat won (shared wins count for every winner)."""
        return np.asarray(self.wins.mean(axis=0, dtype=np.float64))

    @property
    def draw_rate(self) -> float:
        """Fraction of games without a winner."""
        return float((self.wins.sum(axis=1) == 0).mean()) if self.games else 0.0

    @property
    def mean_scores(self) -> npt.NDArray[np.float64]:
        return np.asarray(self.scores.mean(axis=0, dtype=np.float64))

    @property
    def mean_length(self) -> float:
        return float(self.lengths.mean()) if self.games else 0.0


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

    if TYPE_CHECKING:  # provided by the compiled core class and the game's state class

        @property
        def current_player(self) -> int:
            """The seat to decide now, or -1 once the game is over."""

        @property
        def is_over(self) -> bool: ...

        def legal_actions(self) -> list[int]:
            """The legal action ids, sorted ascending (empty once the game is over)."""

        def action_mask(self) -> npt.NDArray[np.int8]:
            """An int8 array of shape (num_actions,): 1 where the action is legal."""

        def apply(self, action: int | MoveT, player: int | None = None) -> None:
            """Apply an action id or a move (IllegalMoveError; the state is then unchanged)."""

        def is_legal(self, action: object) -> bool: ...

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


_seed_state = _core.load("rng").seed_state


def _pure_class(cls: type, done: dict[type, type]) -> type:
    """``cls`` rebuilt over the pure-Python core: every class of the compiled core in its
    ancestry is replaced by its pure twin, every Python class above it is made again with
    the same namespace (so any subclass of a state class has a twin too)."""
    if cls in done:
        return done[cls]
    module = cls.__module__
    if module.startswith(f"{_core.__name__}.") and not module.startswith(f"{_core.PURE_PACKAGE}."):
        twin: type = getattr(_core.pure_module(module.rsplit(".", 1)[1]), cls.__name__)
    elif cls is object or not any(base.__module__.startswith(f"{_core.__name__}.") for base in cls.__mro__):
        twin = cls  # a plain mixin such as State: shared as it is
    else:
        namespace = {
            k: v
            for k, v in vars(cls).items()
            if k not in ("__dict__", "__weakref__") and not isinstance(v, types.MemberDescriptorType)
        }
        twin = type(cls.__name__, tuple(_pure_class(b, done) for b in cls.__bases__), namespace)
        twin.__qualname__ = cls.__qualname__
    done[cls] = twin
    return twin


def _run_batch(
    source: Any,
    new_work: Any,
    from_here: bool,
    n: int,
    base: int,
    scores: npt.NDArray[np.int16],
    lengths: npt.NDArray[np.int32],
    wins: npt.NDArray[np.int8],
    threads: int,
) -> int:
    """Games 0..n-1 of a batch in the core, on ``threads`` threads (contiguous ranges)."""
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= 256:
        raise InvalidOptionError(f"threads must be an int from 1 to 256, not {threads!r}")
    stop = np.zeros(1, dtype=np.int8)
    threads = min(int(threads), max(n, 1))
    if threads == 1:
        return int(source.c_playouts(new_work(), from_here, 0, n, base, scores, lengths, wins, stop))
    from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

    cuts = [n * k // threads for k in range(threads + 1)]
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="cruiselib-playouts") as pool:
        futures = [
            pool.submit(
                source.c_playouts,
                new_work(),
                from_here,
                lo,
                hi - lo,
                base,
                scores[lo:hi],
                lengths[lo:hi],
                wins[lo:hi],
                stop,
            )
            for lo, hi in itertools.pairwise(cuts)
        ]
        try:
            # Signals reach the main thread only: it waits in short steps so Ctrl-C lands
            # here, then tells the workers to stop after their current game.
            while wait(futures, timeout=0.05, return_when=FIRST_EXCEPTION).not_done:
                pass
        except BaseException:
            stop[0] = 1
            wait(futures)
            raise
        return sum(int(f.result()) for f in futures)


def _restore_state(game: Game[Any], data: bytes) -> State:
    state: State = game.load_state(data)
    return state


class Game(ABC, Generic[StateT, MoveT]):
    """A game configuration: rules, options and action space. Create with ``cruiselib.make``."""

    name: ClassVar[str]
    title: ClassVar[str]
    schema_version: ClassVar[int]
    schema_migrations: ClassVar[Mapping[int, serialize.Migration]] = {}
    """Per older schema version, the step that turns its decoded data into the next version's
    (every game of schema version 2 has ``{1: serialize.upgrade_rng_to_text, ...}``)."""
    state_data_type: ClassVar[type[msgspec.Struct]]
    view_type: ClassVar[type[msgspec.Struct]]
    move_type: ClassVar[Any]  # the tagged union of the game's move Structs (for schemas)
    move_classes: ClassVar[tuple[type, ...]]  # its members

    option_types: ClassVar[Mapping[str, type]] = types.MappingProxyType({})
    """Options whose JSON form (in a game record) is read back as this type."""

    draws_possible: ClassVar[bool] = False
    """Whether a game can end with no winner (else ``winners()`` of a finished game is never empty)."""

    # --- what the game declares for the integrations (cruiselib.integration) -----------

    player_counts: ClassVar[tuple[int, ...]]
    """The seat counts ``make(players=...)`` accepts, ascending."""
    example_configurations: ClassVar[tuple[Mapping[str, Any], ...]]
    """``make`` options of the configurations every cross-game suite, benchmark and script
    plays: together they reach every rule path worth testing."""
    rule_bot: ClassVar[str | None] = None
    """``"package.module:Class"`` of the game's rule-based bot, or None."""
    search: ClassVar[SearchDefaults] = SearchDefaults()
    """The search bots' defaults for this game."""
    openspiel: ClassVar[OpenSpielSpec | None] = None
    """How the game becomes an OpenSpiel game, or None for a game OpenSpiel does not offer."""
    web: ClassVar[WebBoard | None] = None
    """What the web page needs to draw the game, or None for a game the page does not offer."""
    annotated_moves: ClassVar[bool] = False
    """Whether ``state.legal_moves()`` annotates moves with what they do in the position."""

    @classmethod
    def _check_players(cls, players: object) -> int:
        """``players`` if it is one of :attr:`player_counts`, else InvalidOptionError."""
        # type(...) is int: no bool, no float such as 2.0, no int subclass.
        if type(players) is not int or players not in cls.player_counts:
            counts = cls.player_counts
            if len(counts) == 1:
                allowed = f"{counts[0]} players"
            elif counts == tuple(range(counts[0], counts[-1] + 1)):
                allowed = f"{counts[0]} to {counts[-1]} players"
            else:
                allowed = f"{', '.join(map(str, counts))} players"
            raise InvalidOptionError(f"{cls.title} is a game for {allowed}, not {players!r}")
        return players

    num_players: int
    num_actions: int
    _all_moves: tuple[MoveT, ...]

    # --- provided by each game -------------------------------------------------

    @property
    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The options this game was made with (what ``cruiselib.make`` accepts)."""

    def new_state(self, seed: int | str | bytes | None = None, start_player: int | None = None) -> StateT:
        """A new game dealt from ``seed`` (a random seed for None): the same seed and the same
        actions always give the same game. ``start_player`` picks the start seat where the
        game lets it vary (by default the deal draws it; see the game's rules)."""
        start = -1 if start_player is None else self.check_player(start_player)
        return self.state_from_seed_state(_seed_state(self._seed_or_random(seed)), start)

    def state_from_seed_state(self, rng_state: int, start_player: int = -1) -> StateT:
        """A new game dealt from a raw 64-bit generator state (``-1``: the deal draws the
        start seat). ``new_state(seed)`` is ``state_from_seed_state(seed_state(seed))``, and
        game g of ``playouts(n, seed)`` is dealt from ``playout_seed_state(seed, g)``."""
        if isinstance(rng_state, bool) or not isinstance(rng_state, int) or not 0 <= rng_state <= MASK64:
            raise InvalidOptionError(f"a generator state is an int 0..2**64-1, not {rng_state!r}")
        if start_player != -1:
            start_player = self.check_player(start_player)
        state = self._deal(rng_state, start_player)
        state._start_history((rng_state, start_player), ())
        return state

    def playout_seed_state(self, seed: int | str | bytes, game_index: int) -> int:
        """The generator state that deals game ``game_index`` of ``playouts(n, seed)``."""
        base = _seed_state(seed)
        return int(_core.load("rng").mix64((base + game_index) & MASK64))

    @abstractmethod
    def _deal(self, rng_state: int, start_player: int) -> StateT:
        """A new state dealt from ``rng_state``; ``start_player`` a seat or -1 (drawn)."""

    @abstractmethod
    def _from_data(self, data: Any) -> StateT:
        """Validate a decoded state Struct and build the state (InvalidStateError)."""

    @abstractmethod
    def _encode_move(self, move: Any) -> int:
        """The action id of a move object of this game (IllegalMoveError if none)."""

    @abstractmethod
    def _decode_action(self, action: int) -> MoveT:
        """The move object of an in-range action id."""

    playouts_type: ClassVar[type[Playouts]]  # set below: what the core's playouts return

    def _state_playouts(self, state: StateT, n: int, seed: int | str | bytes, threads: int) -> Playouts:
        """``state.playouts`` for the calls its short path in the core does not take."""
        scores, lengths, wins = self._new_playout_arrays(n, self.num_players)
        base = _seed_state(self._seed_or_random(seed))
        actions = _run_batch(state, state.clone, True, len(lengths), base, scores, lengths, wins, threads)
        return Playouts(scores=scores, lengths=lengths, wins=wins, actions=actions)

    def playouts(self, n: int, seed: int | str | bytes = 0, *, threads: int = 1) -> Playouts:
        """Play ``n`` uniformly random games from new deals, entirely in the compiled core.

        Game g is dealt from ``mix64(seed_state(seed) + g)`` and makes its random choices
        from a stream derived from that deal, so each game is reproducible on its own and
        ``threads=k`` (the batch split over k threads, the GIL released) gives exactly the
        results of one thread. Ctrl-C stops the batch within a few games.
        """
        scores, lengths, wins = self._new_playout_arrays(n, self.num_players)
        base = _core.load("rng").seed_state(self._seed_or_random(seed))
        state_class, rules = self._state_class, self.rules  # type: ignore[attr-defined]

        def new_work() -> Any:
            return state_class(rules, self)

        actions = _run_batch(new_work(), new_work, False, len(lengths), base, scores, lengths, wins, threads)
        return Playouts(scores=scores, lengths=lengths, wins=wins, actions=actions)

    #: The most a compact render (``render(..., compact=True)``) takes, in every game,
    #: configuration and position: it leaves room on an 80×24 terminal for the moves.
    COMPACT_COLUMNS = 80
    COMPACT_ROWS = 10

    @abstractmethod
    def render(self, state: StateT, player: int | None = None, *, compact: bool = False) -> str:
        """A plain-text picture of the state as ``player`` sees it (all of it for None).

        ``compact=True`` gives a summary of at most ``COMPACT_COLUMNS`` columns and
        ``COMPACT_ROWS`` lines (what the seat needs to choose a move: scores, its own
        hand, the public position in short), for small screens and chat; the full
        picture may be wider and longer."""

    # --- shared ------------------------------------------------------------------

    rules: Any  # the core's tables of this configuration (a ``CoreRules`` subclass)

    def _observation_layout(self) -> list[tuple[str, int]]:
        """The parts of the observation tensor in order, each (name, length); the game's own."""
        return []

    def _information_state_layout(self) -> list[tuple[str, int]]:
        """The parts of the information-state tensor (the observation's where they are one)."""
        return self._observation_layout()

    @property
    def observation_shape(self) -> tuple[int]:
        """The shape of ``state.observation(player)``: one float32 vector."""
        return (int(self.rules.observation_size),)

    @property
    def information_state_shape(self) -> tuple[int]:
        """The shape of ``state.information_state(player)``."""
        return (int(self.rules.info_state_size),)

    @property
    def distinct_information_state(self) -> bool:
        """Whether perfect recall knows more than the table shows (else the two tensors and
        ``resample(..., recall=True)`` equal their table-only forms)."""
        return bool(self.rules.distinct_info_state)

    def observation_fields(self) -> dict[str, slice]:
        """Names the parts of the observation tensor: ``obs[fields["hand"]]`` is the hand.

        The parts are in order and cover the tensor exactly; each game's docs page says
        what each one holds.
        """
        return _fields(self._observation_layout(), self.observation_shape[0])

    def information_state_fields(self) -> dict[str, slice]:
        """Names the parts of the information-state tensor, as :meth:`observation_fields`."""
        return _fields(self._information_state_layout(), self.information_state_shape[0])

    @property
    def score_bounds(self) -> tuple[float, float] | None:
        """Lowest and highest score a seat can have (checked by the conformance suite)."""
        return None

    core_module: ClassVar[str]  # name of the game's module in cruiselib._core

    @abstractmethod
    def _use_core(self, module: Any, state_class: type[StateT]) -> None:
        """Build the core tables of this game with ``module`` and make states of ``state_class``."""

    def pure_twin(self) -> Game[StateT, MoveT]:
        """This game running on the pure-Python core: same rules and moves, slower.

        For debugging and for measuring compiled against pure code in one process.
        States of the twin and of the original are interchangeable through
        ``to_json``/``load_state``.
        """
        module = _core.pure_module(self.core_module)
        twin_state = _pure_class(self._state_class, {})  # type: ignore[attr-defined]
        twin = copy.copy(self)
        twin._use_core(module, twin_state)
        return twin

    def _build_move_table(self) -> None:
        self._all_moves = tuple(self._decode_action(a) for a in range(self.num_actions))
        self._move_index = {m: a for a, m in enumerate(self._all_moves)}

    def move_to_action(self, move: MoveT | int) -> int:
        """The action id of ``move``. Raises IllegalMoveError for a move of no action."""
        if isinstance(move, bool) or not isinstance(move, self.move_classes):
            if isinstance(move, int) and not isinstance(move, bool):
                return self.check_action(move)
            raise IllegalMoveError(f"not a {self.title} move: {move!r}")
        try:
            return self._move_index[move]  # type: ignore[index]  # a move here (ints returned above)
        except (KeyError, TypeError):
            return self._encode_move(move)

    def action_to_move(self, action: int) -> MoveT:
        """The typed move of an action id (whether or not it is legal now)."""
        return self._all_moves[self.check_action(action)]

    def parse_move(self, text: str, state: StateT | None = None) -> MoveT:
        """The move that ``text`` names: the inverse of ``str(move)``.

        With a ``state``, the same as ``state.parse_move(text)``: the legal move of that
        position whose text (as ``str()`` of ``state.legal_moves()`` shows it, or the plain
        text of ``action_to_move``) ``text`` is, tolerant of case, spacing, punctuation,
        ``,`` thousands separators, ascii stand-ins for symbols and the parts the game's
        page ("Notation") says may be left out.

        Without a state, ``text`` must name the move by itself: the plain texts of
        :meth:`action_to_move` (the same tolerance). Texts that name what only a position
        shows (ship names, values, families, activities …) need the state; the error says
        so. The move returned is then the plain one (``action_to_move``).

        Raises IllegalMoveError when no move (or no legal move) reads so, listing up to
        three close matches, or when the text is ambiguous, listing the moves it reads as.
        """
        if state is None:
            return self._parse_plain(text)
        if not isinstance(state, State) or state.game != self:
            raise InvalidOptionError(f"state must be a state of {self!r}, not {type(state).__name__}")
        return self._parse_in(text, state)

    # --- move notation: shared machinery; per game, the three hooks below ---------

    _notation_state_kinds: ClassVar[Mapping[str, str]] = types.MappingProxyType({})
    """Move kinds (the first word of their text) whose legal-move texts name what the
    position shows, with what they name: ``parse_move`` without a state says so."""

    def _notation_templates(self, move: MoveT) -> Sequence[NotationTemplate]:
        """The texts that name ``move``, as templates: a piece is a str or a tuple of
        alternatives, the first the one ``str(move)`` uses; each other alternative (an
        abbreviation, a part left out) costs 1, and template i costs i more. Where texts
        of several moves match, the cheapest wins (a tie is ambiguous). ``str(move)``
        itself always names it at cost 0."""
        return ((str(move),),)

    def _notation_key(self, key: str) -> str:
        """A normalized text in its comparison form, for parts whose order or split does
        not matter (applied alike to what is typed and to every move's texts)."""
        return key

    def _move_forms(self, move: MoveT) -> dict[str, int]:
        """The comparison keys of every text naming ``move``, each with its cost (cached)."""
        cache: dict[tuple[Any, ...], dict[str, int]] = self.__dict__.setdefault("_notation_forms", {})
        ident = (type(move), msgspec.structs.astuple(move))  # type: ignore[arg-type]  # a move Struct
        forms = cache.get(ident)
        if forms is None:
            if len(cache) >= 100_000:
                cache.clear()
            forms = cache[ident] = self._compute_forms(move)
        return forms

    def _compute_forms(self, move: MoveT) -> dict[str, int]:
        full = str(move)
        keys = {full: self._notation_key(normalize_move_text(full))}
        forms = {keys[full]: 0}
        for base, template in enumerate(self._notation_templates(move)):
            for cost, text in _expand_template(template):
                key = keys.get(text)
                if key is None:
                    key = keys[text] = self._notation_key(normalize_move_text(text))
                if key and forms.get(key, cost + base + 1) > cost + base:
                    forms[key] = cost + base
        return forms

    def _plain_index(self) -> dict[str, tuple[int, tuple[int, ...]]]:
        """Per comparison key of a plain text (``action_to_move``), its cost and the
        actions it names at that cost (built once per move table)."""
        index: dict[str, tuple[int, tuple[int, ...]]] = self._notation_table("index", self._build_plain_index)
        return index

    def _build_plain_index(self) -> dict[str, tuple[int, tuple[int, ...]]]:
        index: dict[str, tuple[int, tuple[int, ...]]] = {}
        for a, move in enumerate(self._all_moves):
            for key, cost in self._compute_forms(move).items():
                old = index.get(key)
                if old is None or cost < old[0]:
                    index[key] = (cost, (a,))
                elif cost == old[0]:
                    index[key] = (cost, (*old[1], a))
        return index

    def _plain_texts(self) -> dict[str, str]:
        """The plain texts of every action by their normalized form (for close matches)."""
        texts: dict[str, str] = self._notation_table("texts", lambda: _by_normalized(str(m) for m in self._all_moves))
        return texts

    def _notation_table(self, name: str, build: Any) -> Any:
        """A table of the plain moves, built once: games of one class with one move table
        (Dream Islands and Dream Cruise cache theirs per card set) share it."""
        table = self.__dict__.get(f"_notation_{name}")
        if table is None:
            key = (type(self), id(self._all_moves), name)
            shared = _NOTATION_TABLES.get(key)
            if shared is not None and shared[0] is self._all_moves:
                table = shared[1]
            else:
                table = build()
                if len(_NOTATION_TABLES) >= 32:
                    _NOTATION_TABLES.clear()
                _NOTATION_TABLES[key] = (self._all_moves, table)
            self.__dict__[f"_notation_{name}"] = table
        return table

    def _read_text(self, text: object) -> tuple[str, str]:
        """``text`` normalized and as its comparison key (IllegalMoveError if no text)."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"a {self.title} move's text is a str, not {type(text).__name__}")
        if len(text) > MAX_MOVE_TEXT:
            raise IllegalMoveError(
                f"no {self.title} move reads a text of {len(text):,} characters (at most {MAX_MOVE_TEXT:,})"
            )
        norm = normalize_move_text(text)
        if not norm:
            raise IllegalMoveError(f"no {self.title} move reads {text!r}: the text has no words")
        return norm, self._notation_key(norm)

    def _parse_plain(self, text: str) -> MoveT:
        norm, key = self._read_text(text)
        hit = self._plain_index().get(key)
        if hit is not None:
            if len(hit[1]) == 1:
                return self._all_moves[hit[1][0]]
            raise IllegalMoveError(_ambiguous(text, [str(self._all_moves[a]) for a in hit[1]], "moves"))
        hint = _hint(norm, self._plain_texts())
        kind = norm.split(" ", 1)[0]
        needs = self._notation_state_kinds.get(kind)
        if needs is not None:
            raise IllegalMoveError(
                f"no {self.title} move reads {text!r} without a position: {kind} texts naming {needs} need the "
                f"state (state.parse_move(text) or game.parse_move(text, state)){hint}"
            )
        raise IllegalMoveError(f"no {self.title} move reads {text!r}{hint}")

    def _parse_in(self, text: str, state: StateT) -> MoveT:
        actions = state.legal_actions()
        moves: list[MoveT] = state.legal_moves()
        if isinstance(text, str):
            exact = text.strip()
            for move in moves:
                if str(move) == exact:
                    return move
        norm, key = self._read_text(text)
        found: dict[int, list[int]] = {}  # cost -> indices into moves
        for i, (a, move) in enumerate(zip(actions, moves, strict=True)):
            cost = self._move_forms(move).get(key)
            plain = self._all_moves[a]
            if plain is not move and str(plain) != str(move):
                other = self._move_forms(plain).get(key)
                if other is not None and (cost is None or other + 1 < cost):
                    cost = other + 1
            if cost is not None:
                found.setdefault(cost, []).append(i)
        if found:
            best = found[min(found)]
            if len(best) == 1:
                return moves[best[0]]
            raise IllegalMoveError(_ambiguous(text, [str(moves[i]) for i in best], "legal moves"))
        hint = _hint(norm, _by_normalized(str(m) for m in moves))
        if not moves:
            hint = "; the game is over"
        elif not hint and len(moves) <= 8:
            hint = f"; the legal moves are {_quoted(str(m) for m in moves)}"
        hit = self._plain_index().get(key)
        if hit is not None:
            named = _quoted((str(self._all_moves[a]) for a in hit[1]), "or")
            moves_word = "move" if len(hit[1]) == 1 else "moves"
            raise IllegalMoveError(f"{text!r} names the {self.title} {moves_word} {named}, not legal now{hint}")
        raise IllegalMoveError(f"no legal {self.title} move reads {text!r}{hint}")

    def check_action(self, action: Any) -> int:
        """``action`` as an int in range, or IllegalMoveError."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalMoveError(f"an action id is an int, not {action!r}")
        value = int(action)
        if not 0 <= value < self.num_actions:
            raise IllegalMoveError(f"action {value} is out of range 0..{self.num_actions - 1}")
        return value

    def check_player(self, player: Any) -> int:
        """``player`` as a valid seat index, or InvalidOptionError."""
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
            raise InvalidOptionError(f"a seat is an int from 0 to {self.num_players - 1}, not {player!r}")
        if not 0 <= int(player) < self.num_players:
            raise InvalidOptionError(
                f"seat {int(player)} does not exist: {self.name} has seats 0..{self.num_players - 1}"
            )
        return int(player)

    def load_state(self, data: str | bytes | bytearray | memoryview | Mapping[str, Any]) -> StateT:
        """A state from JSON text/bytes, MessagePack bytes or a mapping.

        Raises :class:`cruiselib.InvalidStateError` for anything malformed, truncated,
        tampered with, of another game, option set or schema version.
        """
        decoded = serialize.decode_state(data, self.state_data_type, self.schema_migrations)
        return self._load_decoded(decoded)

    def _load_decoded(self, decoded: Any) -> StateT:
        """A state from its decoded snapshot Struct: the position, then its history."""
        state = self._from_data(decoded)
        deal, history = decoded.deal, decoded.history
        if deal is None:
            if history:
                raise InvalidStateError(f"invalid {self.title} state: a history needs the deal it starts from")
            state._start_history(decoded, ())  # undo can go back to this position
            return state
        if deal.start_player != -1 and deal.start_player >= self.num_players:
            raise InvalidStateError(
                f"invalid {self.title} state: the deal's start seat {deal.start_player} does not exist"
            )
        top = self.num_actions
        if history and max(history) >= top:  # ids are >= 0 by the schema
            raise InvalidStateError(f"invalid {self.title} state: its history has an action id beyond {top - 1}")
        state._start_history((serialize.rng_from_text(deal.rng), deal.start_player), history)
        return state

    @classmethod
    def _options_of_snapshot(cls, data: Any) -> dict[str, Any]:
        """The options (``cruiselib.make`` keywords) a decoded snapshot was made with
        (InvalidStateError if it names components that only its fingerprint identifies)."""
        raise InvalidStateError(f"a {cls.title} snapshot does not say which options made it")

    def _history_start(self, origin: object) -> StateT:
        """The state a history begins at: a new deal, or a loaded snapshot's position."""
        if type(origin) is tuple:
            deal, start = origin
            return self.state_from_seed_state(deal, start)
        if origin is None:
            raise InvalidStateError("this state keeps no history (it was made by resample)")
        return self._load_decoded(origin)

    def json_schemas(self) -> dict[str, Any]:
        """JSON Schemas of this game's state, view and move types."""
        return {
            "state": msgspec.json.schema(self.state_data_type),
            "view": msgspec.json.schema(self.view_type),
            "move": msgspec.json.schema(self.move_type),
        }

    @staticmethod
    def _seed_or_random(seed: int | str | bytes | None) -> int | str | bytes:
        if seed is None:
            return secrets.randbits(64)
        if isinstance(seed, bool) or not isinstance(seed, (int, str, bytes)):
            raise InvalidOptionError(f"seed must be an int, str or bytes, not {seed!r}")
        return seed

    @staticmethod
    def _new_playout_arrays(
        n: int, players: int
    ) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int32], npt.NDArray[np.int8]]:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise InvalidOptionError(f"n must be a non-negative int, not {n!r}")
        if n > MAX_PLAYOUTS:
            raise InvalidOptionError(
                f"n={n} is more games than one call plays (at most {MAX_PLAYOUTS:,}): run batches with different seeds"
            )
        n = int(n)
        return (
            np.zeros((n, players), dtype=np.int16),
            np.zeros(n, dtype=np.int32),
            np.zeros((n, players), dtype=np.int8),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.name == other.name and self.options == other.options

    def __hash__(self) -> int:
        return hash((self.name, repr(sorted(self.options.items()))))

    def __reduce__(self) -> tuple[Any, ...]:
        from cruiselib._registry import make

        return (_make_game, (make, self.name, self.options))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"cruiselib.make({self.name!r}{', ' if opts else ''}{opts})"


_UNPICKLED_GAMES: dict[tuple[str, str], Game[Any]] = {}
_NOTATION_TABLES: dict[tuple[type, int, str], tuple[tuple[Any, ...], Any]] = {}


Game.playouts_type = Playouts


# --- move notation ----------------------------------------------------------------

MAX_MOVE_TEXT = 1000
"""The longest text ``parse_move`` reads (longer ones raise IllegalMoveError at once)."""

NotationTemplate = Sequence[str | tuple[str, ...]]
"""A move's text as pieces: a str, or a tuple of alternatives (the first one the full text's)."""

# (substrings that call for the rule, pattern, replacement), in order; a rule whose
# substrings are all absent is skipped (most move texts are plain ascii).
_REPLACEMENTS: tuple[tuple[tuple[str, ...], re.Pattern[str], str], ...] = tuple(
    (triggers, re.compile(pattern), repl)
    for triggers, pattern, repl in (
        (("\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2015", "\u2212"), r"[\u2010-\u2015\u2212]", "-"),
        (("'", "\u2018", "\u2019", "`"), r"['\u2018\u2019`]s\b", ""),  # possessives: "seat 0's side"
        (
            ("\u2192", "\u27f6", "\u2794", "\u279c", "\u21d2", "->", "=>"),
            r"\s*(?:[\u2192\u27f6\u2794\u279c\u21d2]|-+>|=+>)\s*",
            " to ",
        ),  # arrows read "to"
        (("\u2693", "anchor"), r"(\d)\s*(?:\u2693|anchor\b)", r"\1a"),  # the move-crew icon: -2⚓, -2a
        (("\u2605", "\u2606", "*", "star"), r"(\d)\s*(?:[\u2605\u2606*]|stars?\b)", r"\1*"),  # 3★, 3*, 3 stars
        ((",", ".", "'", "_", "\u2019"), r"(?<=\d)[,.'_\u2019](?=\d{3}(?!\d))", ""),  # thousands: 1,000
        (("k",), r"\b(\d+)k\b", r"\g<1>000"),  # 2k
        (("-",), r"(?<=[^\W\d_])-(?=[^\W\d_])", " "),  # face-down reads face down
        (("-", "*"), r"-(?!\d)|(?<!\d)\*", " "),  # a dash or star but in -2 or 3*
    )
)
_PUNCTUATION = re.compile(r"[^\w*-]|_")
_ASCII_PUNCTUATION = str.maketrans(
    dict.fromkeys([*"!\"#$%&'()+,./:;<=>?@[\\]^_`{|}~", *map(chr, range(32)), "\x7f"], " ")
)
_NOISE_WORDS = frozenset({"a", "an", "the", "and"})
# Letters that are no accented letter to Unicode (NFKD leaves them whole), as a keyboard
# without them writes them: "Tromso" reads "Tromsø" as "Reykjavik" reads "Reykjavík".
_LETTERS = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i"})


def normalize_move_text(text: str) -> str:
    """The form in which move texts are compared: case-folded, accents dropped (and ø, æ,
    œ, đ, ð, ł, þ, ı spelled o, ae, oe, d, d, l, th, i), symbols as ascii (``★`` as
    ``*``, arrows as ``to``, ``⚓`` as ``a`` after the value), no thousands separators or
    punctuation, without the words a, an, the and and, single spaces. Applied alike to a
    typed text and to every move's texts."""
    plain = text.isascii()
    text = text.lower() if plain else unicodedata.normalize("NFKC", text).casefold()
    for triggers, pattern, repl in _REPLACEMENTS:
        if any(t in text for t in triggers):
            text = pattern.sub(repl, text)
    if plain:
        text = text.translate(_ASCII_PUNCTUATION)
    else:
        text = _PUNCTUATION.sub(" ", text)
        text = unicodedata.normalize("NFKD", text).translate(_LETTERS)
        text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(w for w in text.split() if w not in _NOISE_WORDS)


def _expand_template(template: NotationTemplate) -> list[tuple[int, str]]:
    """Every text of a template with its cost (the alternatives other than the first)."""
    choices = [((piece,) if isinstance(piece, str) else piece) for piece in template]
    return [
        (sum(1 for i, _ in combo if i), "".join(part for _, part in combo))
        for combo in itertools.product(*(tuple(enumerate(c)) for c in choices))
    ]


def _quoted(texts: Any, last: str = "and") -> str:
    items = [repr(t) for t in dict.fromkeys(texts)]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _by_normalized(texts: Any) -> dict[str, str]:
    by_norm: dict[str, str] = {}
    for t in texts:
        by_norm.setdefault(normalize_move_text(t), t)
    return by_norm


_HINT_POOL = 120
"""How many texts difflib compares for a hint: of a longer table (Dream Cruise has 15,975
moves), those that share the most words and word pairs with the text typed."""


def _tokens(norm: str) -> set[str | tuple[str, str]]:
    words = norm.split()
    return {*words, *itertools.pairwise(words)}


def _hint(norm: str, by_norm: dict[str, str]) -> str:
    """The hint "; did you mean …?" with up to three texts close to the normalized ``norm``
    (``by_norm``: texts by their normalized form): difflib's closest, then those that
    begin with it."""
    import difflib
    import heapq

    pool: Any = by_norm
    if len(by_norm) > _HINT_POOL:
        tokens, size = _tokens(norm), len(norm)
        pool = heapq.nlargest(
            _HINT_POOL, by_norm, key=lambda k: (len(tokens.intersection(_tokens(k))), -abs(len(k) - size))
        )
    close = difflib.get_close_matches(norm, pool, n=3, cutoff=0.6)
    if len(close) < 3:
        close += [k for k in by_norm if k.startswith(norm + " ") and k not in close][: 3 - len(close)]
    if not close:
        return ""
    return f"; did you mean {_quoted((by_norm[k] for k in close), 'or')}?"


def _ambiguous(text: str, candidates: list[str], what: str) -> str:
    shown = _quoted(candidates[:6], "or")
    more = f" (and {len(candidates) - 6} more)" if len(candidates) > 6 else ""
    return f"{text!r} is ambiguous: it reads as {len(candidates)} {what}, {shown}{more}; write more of the one you mean"


def _fields(layout: list[tuple[str, int]], size: int) -> dict[str, slice]:
    fields: dict[str, slice] = {}
    start = 0
    for name, length in layout:
        fields[name] = slice(start, start + length)
        start += length
    if start != size:  # a game whose layout and core disagree: a bug, not bad input
        raise RuntimeError(f"tensor layout covers {start} of {size} entries")
    return fields


def _make_game(make: Any, name: str, options: dict[str, Any]) -> Game[Any]:
    # Games are immutable configurations: unpickling many states shares one game object.
    key = (name, repr(sorted(options.items())))
    game = _UNPICKLED_GAMES.get(key)
    if game is None:
        if len(_UNPICKLED_GAMES) > 64:
            _UNPICKLED_GAMES.clear()
        game = _UNPICKLED_GAMES[key] = make(name, **options)
    return game
