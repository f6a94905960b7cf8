"""The game-independent half of every game: :class:`Game`, a configuration of rules,
options and action space, which deals, loads and names the states of its game."""

from __future__ import annotations

import secrets
import types
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, cast

import msgspec
import numpy as np
import numpy.typing as npt

from cruiselib import _core, serialize
from cruiselib._notation import MoveNotation
from cruiselib._playouts import MAX_PLAYOUTS, Playouts
from cruiselib._pure import pure_class
from cruiselib._state import MoveT, State, StateT
from cruiselib._threads import run_batch
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidPositionError, InvalidStateError
from cruiselib.integration import OpenSpielSpec, SearchDefaults, WebBoard
from cruiselib.positions import PositionRules, position_of
from cruiselib.positions import build as build_position

__all__ = ["Game"]

MASK64 = 0xFFFFFFFFFFFFFFFF

_seed_state = _core.load("rng").seed_state

FieldRange = tuple[float, float] | tuple[npt.ArrayLike, npt.ArrayLike]
"""The range of one part of a tensor: ``(low, high)``, numbers or per-entry sequences."""


class Game(MoveNotation[MoveT], ABC, Generic[StateT, MoveT]):
    """A game configuration: rules, options and action space. Create with ``cruiselib.make``."""

    name: ClassVar[str]
    """The game's name in the registry: what ``cruiselib.make`` takes (one of ``cruiselib.games()``)."""
    title: ClassVar[str]
    """The game's title for people (``"Sirens in Sight"``)."""
    schema_version: ClassVar[int]
    """The version of the game's snapshot schema (older snapshots are migrated on load)."""
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
    picture: ClassVar[str | None] = None
    """``"package.module:function"`` of the game's drawing of the table as one seat sees it,
    ``draw(canvas, game, view, area)`` (what the environments' ``render_mode="rgb_array"``
    shows; :mod:`cruiselib._picture`), or None: the picture then shows the compact board text."""
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
    """The number of seats of this configuration (the ``players`` option); seats are
    ``0 .. num_players - 1``."""
    num_actions: int
    """The size of the action space: every action id is ``0 .. num_actions - 1``, the same
    for every position of this configuration (``state.legal_actions()`` picks from it)."""
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

    playouts_type: ClassVar[type[Playouts]] = Playouts  # what the core's playouts return

    def _state_playouts(self, state: StateT, n: int, seed: int | str | bytes, threads: int) -> Playouts:
        """``state.playouts`` for the calls its short path in the core does not take."""
        scores, lengths, wins, first_seats = self._new_playout_arrays(n, self.num_players)
        base = _seed_state(self._seed_or_random(seed))
        actions = run_batch(state, state.clone, True, len(lengths), base, scores, lengths, wins, first_seats, threads)
        return Playouts(scores=scores, lengths=lengths, wins=wins, actions=actions, first_seats=first_seats)

    def playouts(self, n: int, seed: int | str | bytes = 0, *, threads: int = 1) -> Playouts:
        """Play ``n`` uniformly random games from new deals, entirely in the compiled core.

        Game g is dealt from ``mix64(seed_state(seed) + g)`` and makes its random choices
        from a stream derived from that deal, so each game is reproducible on its own and
        ``threads=k`` (the batch split over k threads, the GIL released) gives exactly the
        results of one thread. Ctrl-C stops the batch within a few games.
        """
        scores, lengths, wins, first_seats = self._new_playout_arrays(n, self.num_players)
        base = _core.load("rng").seed_state(self._seed_or_random(seed))
        state_class, rules = self._state_class, self.rules  # type: ignore[attr-defined]

        def new_work() -> Any:
            return state_class(rules, self)

        actions = run_batch(
            new_work(), new_work, False, len(lengths), base, scores, lengths, wins, first_seats, threads
        )
        return Playouts(scores=scores, lengths=lengths, wins=wins, actions=actions, first_seats=first_seats)

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
        """The parts of the observation tensor in order, each (name, length): those of the
        core's declared layout (``rules.observation_layout``, docs/contract.md)."""
        layout = self.rules.observation_layout
        return [] if layout is None else list(layout.parts())

    def _information_state_layout(self) -> list[tuple[str, int]]:
        """The parts of the information-state tensor (the observation's where they are one)."""
        layout = self.rules.info_state_layout
        return self._observation_layout() if layout is None else list(layout.parts())

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

    def _observation_ranges(self) -> Mapping[str, FieldRange]:
        """The range of each part of the observation tensor, by field name: ``(low, high)``,
        two numbers for every entry of the part or two sequences of the part's length. A
        part left out is unbounded, ``(-inf, inf)``. By default, the ranges the core's layout
        declares (``rules.observation_layout``)."""
        layout = self.rules.observation_layout
        return {} if layout is None else layout.ranges()

    def _information_state_ranges(self) -> Mapping[str, FieldRange]:
        """The ranges of the information-state tensor's parts (by default the observation's:
        a part of its own needs a range of its own): the core layout's where it declares one."""
        layout = self.rules.info_state_layout
        return self._observation_ranges() if layout is None else layout.ranges()

    def observation_bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``(low, high)``: float32 arrays of :attr:`observation_shape` that hold every value
        the observation tensor can take in this configuration, so that
        ``gymnasium.spaces.Box(low, high)`` contains every observation.

        Built from the range the game declares for each part (each game's docs page gives
        them); a part without one is unbounded (``-inf``, ``inf``). The arrays are read-only
        and made once per game. A declaration that names no part, does not fit its part or
        has ``low > high`` raises :class:`cruiselib.InvalidOptionError` naming the game.
        """
        return self._bounds(information_state=False)

    def information_state_bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``(low, high)`` of the information-state tensor, as :meth:`observation_bounds`."""
        return self._bounds(information_state=True)

    def _bounds(self, *, information_state: bool) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The bounds of one of the two tensors, made on the first call and kept."""
        cache: dict[bool, tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]
        cache = self.__dict__.setdefault("_bounds_cache", {})
        if information_state not in cache:
            if information_state:
                what, fields, ranges, size = (
                    "information state",
                    self.information_state_fields(),
                    self._information_state_ranges(),
                    self.information_state_shape[0],
                )
            else:
                what, fields, ranges = "observation", self.observation_fields(), self._observation_ranges()
                size = self.observation_shape[0]
            cache[information_state] = _bounds_of(f"{self.name}'s {what}", fields, size, ranges)
        return cache[information_state]

    @property
    def score_bounds(self) -> tuple[float, float] | None:
        """Lowest and highest score a seat can have (checked by the conformance suite)."""
        return None

    def rival(self, state: StateT) -> tuple[str, int] | None:
        """The game's own opponent in a finished game and its score, where the game has one
        (a solo game played against the box); None otherwise (the default)."""
        return None

    COMPACT_SYMBOLS: ClassVar[Mapping[str, str]] = types.MappingProxyType({})
    """The stand-ins of the compact board (``render(compact=True)``) for symbols of the
    move texts, e.g. ``{"⚓": "a"}`` where a symbol is too wide for it: the terminal says
    the moves with them when it shows that board, so that a card reads the same on the
    board and in the moves (``parse_move`` reads both). Empty: the same symbols."""

    def event_lines(self, before: StateT, after: StateT, player: int) -> list[str]:
        """Lines a person reads for what the rules did on their own between two positions
        of one game (``before`` earlier than ``after``), as seen by seat ``player``: an
        automatic rival's turn, say. The terminal and the web page add them to the moves
        played. A game without such events says none (the default: an empty list)."""
        return []

    how_to_win: ClassVar[str] = ""
    """How a player wins, in players' words, as the rulebook says it (the web page's "How to
    win" box, the terminal's ``rules``): what scores and who wins. Empty: the game says
    none, and the page shows no box."""

    how_it_ends: ClassVar[str] = ""
    """When the game ends, in players' words, as the rulebook says it (shown with
    ``how_to_win``). Empty: the game says none."""

    def end_reason(self, state: StateT) -> str | None:
        """Why the finished game ``state`` ended, in players' words, naming the rule that
        ended it (its id in the game's rulings): the terminal's and the web page's last
        words on a game. None while the game goes on, and for a game that says no reason
        (the default)."""
        return None

    positions: ClassVar[str | None] = None
    """``"package.module:Class"`` of the game's :class:`cruiselib.positions.PositionRules`:
    how a position is described, written as compact text and set up (:meth:`from_position`);
    None for a game that offers no position set-up."""

    def _position_rules(self) -> PositionRules[Any]:
        rules = self.__dict__.get("_position_rules_cache")
        if rules is None:
            from cruiselib._registry import _resolve

            target = type(self).positions
            if target is None:
                raise InvalidOptionError(f"{self.title} offers no position set-up")
            rules_class = _resolve(target)
            if not (isinstance(rules_class, type) and issubclass(rules_class, PositionRules)):
                raise InvalidOptionError(f"{self.title} declares positions {target!r}: not a PositionRules class")
            rules = rules_class(self)
            self.__dict__["_position_rules_cache"] = rules
        return cast("PositionRules[Any]", rules)

    @property
    def position_type(self) -> type[msgspec.Struct]:
        """The msgspec Struct of this game's position descriptions (see :meth:`describe`)."""
        return self._position_rules().position_type

    def describe(self, state: StateT, seat: int | None = None) -> Any:
        """The position of ``state`` as a description (a :attr:`position_type` Struct): the
        whole table, or with ``seat`` what that seat sees at a real table, hidden cards
        given as counts. :meth:`from_position` sets it up again (docs: the game's page,
        "Setting up a position")."""
        if not isinstance(state, State) or state.game != self:
            raise InvalidOptionError(f"describe takes a state of this game ({self!r}), not {state!r}")
        return self._position_rules().describe(state, None if seat is None else self.check_player(seat))

    def position_text(self, position: Any, seat: int | None = None) -> str:
        """The compact one-line text of a description, or of a state's position (as
        ``seat`` sees it, with ``seat``): the form :meth:`read_position` reads."""
        rules = self._position_rules()
        if isinstance(position, State):
            return rules.text(self.describe(position, seat))  # type: ignore[arg-type]
        return rules.text(position_of(rules, position))

    def read_position(self, text: str) -> Any:
        """The description a compact text gives (InvalidPositionError naming what is wrong)."""
        if not isinstance(text, str):
            raise InvalidPositionError([f"a position text is a str, not {type(text).__name__}"], self.title)
        return position_of(self._position_rules(), text)

    def position_problems(self, position: Any) -> list[str]:
        """Every problem of a description (Struct, compact text or decoded JSON), each in
        the game's terms; an empty list when :meth:`from_position` can set it up."""
        rules = self._position_rules()
        try:
            described = position_of(rules, position)
        except InvalidPositionError as exc:
            return list(exc.problems)
        return rules.problems(described)

    def from_position(self, position: Any, seed: int | str | bytes | None = None) -> StateT:
        """The state a description sets up (Struct, compact text or decoded JSON).

        It plays on exactly like a state reached by play; its history starts here. A whole
        table's future chance comes from its own generator state if it gives one, else from
        ``seed``. A seat's view has what it hides dealt at random (from ``seed``) among the
        deals consistent with it, as ``state.resample`` does. Raises
        :class:`cruiselib.InvalidPositionError` naming every problem, and builds nothing,
        for a description that cannot be set up.
        """
        rules = self._position_rules()
        described = position_of(rules, position)
        problems = rules.problems(described)
        if problems:
            raise InvalidPositionError(problems, f"{self.title} position")
        seed = self._seed_or_random(seed)
        return cast("StateT", build_position(self, rules, described, _seed_state(seed), seed))

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
        twin_state = pure_class(self._state_class, {})  # type: ignore[attr-defined]
        # A copy of the attributes, not copy.copy: that goes through __reduce__, whose
        # _make_game hands out the game it caches for unpickling, and _use_core would then
        # put the cached game itself on the pure core.
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._use_core(module, twin_state)
        return twin

    def _build_move_table(self) -> None:
        self._all_moves = tuple(self._decode_action(a) for a in range(self.num_actions))
        self._move_index = {m: a for a, m in enumerate(self._all_moves)}

    def move_to_action(self, move: MoveT | int) -> int:
        """The action id of ``move``. Raises IllegalMoveError for a move of no action."""
        if type(move) is int and 0 <= move < self.num_actions:  # an action id: the common case
            return move
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
        """JSON Schemas of this game's state, view and move types, and of its position
        descriptions where it offers them (``"position"``)."""
        schemas = {
            "state": msgspec.json.schema(self.state_data_type),
            "view": msgspec.json.schema(self.view_type),
            "move": msgspec.json.schema(self.move_type),
        }
        if type(self).positions is not None:
            schemas["position"] = msgspec.json.schema(self.position_type)
        return schemas

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
    ) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int32], npt.NDArray[np.int8], npt.NDArray[np.int8]]:
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
            np.zeros(n, dtype=np.int8),
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


def _fields(layout: list[tuple[str, int]], size: int) -> dict[str, slice]:
    """A tensor layout's parts as slices, checked to cover the tensor's ``size`` exactly."""
    fields: dict[str, slice] = {}
    start = 0
    for name, length in layout:
        fields[name] = slice(start, start + length)
        start += length
    if start != size:  # a game whose layout and core disagree: a bug, not bad input
        raise RuntimeError(f"tensor layout covers {start} of {size} entries")
    return fields


def _bounds_of(
    what: str, fields: dict[str, slice], size: int, ranges: Mapping[str, FieldRange]
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Read-only ``(low, high)`` of a tensor of ``size`` entries whose parts are ``fields``,
    from ``ranges``; InvalidOptionError naming ``what`` and the field for a range that does
    not fit its part."""
    low = np.full(size, -np.inf)
    high = np.full(size, np.inf)
    for name, declared in ranges.items():
        part = fields.get(name)
        if part is None:
            raise InvalidOptionError(f"{what} tensor has no field {name!r} (a range is declared for it)")
        length = part.stop - part.start
        try:
            field_low, field_high = declared
            low[part] = _entries(field_low, length)
            high[part] = _entries(field_high, length)
        except (TypeError, ValueError):
            raise InvalidOptionError(
                f"{what} field {name!r} ({length} entries): a range is (low, high), two numbers or two "
                f"sequences of {length}, not {declared!r}"
            ) from None
        if np.isnan(low[part]).any() or np.isnan(high[part]).any() or (low[part] > high[part]).any():
            raise InvalidOptionError(f"{what} field {name!r}: low must be <= high and neither NaN, not {declared!r}")
    # Rounded outward to float32: a value such as 0.1 * k, rounded to the nearest float32
    # by the core, stays inside even where the nearest float32 of the bound lies inside it.
    low32, high32 = low.astype(np.float32), high.astype(np.float32)
    low32 = np.where(low32 > low, np.nextafter(low32, np.float32(-np.inf)), low32)
    high32 = np.where(high32 < high, np.nextafter(high32, np.float32(np.inf)), high32)
    low32.flags.writeable = False
    high32.flags.writeable = False
    return low32, high32


def _entries(value: Any, length: int) -> npt.NDArray[np.float64]:
    """One side of a field's range as ``length`` floats: a number for every entry, or one
    number per entry. TypeError or ValueError for anything else (text, bools, ...)."""
    values = np.asarray(value)
    if values.dtype.kind not in "iuf":
        raise TypeError(f"not numbers: {value!r}")
    return np.broadcast_to(values.astype(np.float64), (length,))


def _make_game(make: Any, name: str, options: dict[str, Any]) -> Game[Any]:
    """The game a pickle holds (see ``Game.__reduce__``). Older pickles name it
    ``cruiselib._api._make_game``: that module re-exports it."""
    # Games are immutable configurations: unpickling many states shares one game object.
    key = (name, repr(sorted(options.items())))
    game = _UNPICKLED_GAMES.get(key)
    if game is None:
        if len(_UNPICKLED_GAMES) > 64:
            _UNPICKLED_GAMES.clear()
        game = _UNPICKLED_GAMES[key] = make(name, **options)
    return game
