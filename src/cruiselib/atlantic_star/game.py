"""Atlantic Star: the :class:`AtlanticStarGame` configuration and the :class:`AtlanticStarState`.

The rules themselves live in the compiled core (``cruiselib._core.atlantic_star``), and
so do views, observation tensors and resampling; this module adds options, typed moves and
serialization (the core checks loaded states).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from cruiselib import _core, serialize
from cruiselib._api import Game, NotationTemplate, State
from cruiselib._core.constants import enum_constants
from cruiselib.atlantic_star.moves import (
    MOVE_TYPES,
    PRICES,
    AtlanticStarMove,
    Charter,
    Loan,
    Refresh,
    Voyage,
    notation_key,
    notation_templates,
)
from cruiselib.atlantic_star.schema import (
    SCHEMA_VERSION,
    AgencyInfo,
    AtlanticStarStateData,
    AtlanticStarView,
    PlaqueInfo,
    SeaInfo,
    ShipInfo,
    upgrade_known_hands,
)
from cruiselib.atlantic_star.ships import LEGS, SEAS, Board, ShipList, check_board
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

__all__ = ["AtlanticStarGame", "AtlanticStarState"]

_core_mod = _core.load("atlantic_star")
_rng = _core.load("rng")

_ENUM = enum_constants("atlantic_star")
PHASES = _core_mod.PHASES
NKEEP = _ENUM["NKEEP"]  # voyage keep codes per sea and class
NAMT = _ENUM["NAMT"]  # loan amounts
NPP = _ENUM["NPP"]  # plaque ids below this are seats' plaques


def build_rules(module: Any, players: int, ships: ShipList, board: Board) -> Any:
    """The core's rules object for a configuration, from ``module`` (the loaded core, or a
    second copy of it, e.g. the pure-Python source next to the compiled one), with the
    view's Struct classes and immutable parts the core builds views from."""
    mail, entries = ships.core_tables()
    rules = module.AtlanticRules(players, mail, entries, [list(c) for c in board], ships.digest)
    infos = [ShipInfo(c, ship.name, ship.mail, [str(e) for e in ship.legs]) for c, ship in enumerate(ships.ships)]
    agency = [AgencyInfo(price, info) for price in PRICES for info in infos]
    agency += [AgencyInfo(price, None) for price in PRICES]
    rules._set_view_types(infos, agency, [ship.name for ship in ships.ships], AtlanticStarView, SeaInfo, PlaqueInfo)
    return rules


if TYPE_CHECKING:
    from cruiselib._core.atlantic_star import AtlanticCore as _CoreBase
else:
    _CoreBase = _core_mod.AtlanticCore


class AtlanticStarState(State[AtlanticStarMove, AtlanticStarStateData, AtlanticStarView], _CoreBase):
    """An Atlantic Star position. Create with ``game.new_state(seed)``."""

    __slots__ = ()

    game: AtlanticStarGame

    def _to_data(self) -> AtlanticStarStateData:
        return self._export()  # type: ignore[no-any-return]

    def legal_moves(self) -> list[AtlanticStarMove]:
        """The legal moves, annotated (ship names, points), in the order of legal_actions()."""
        return [self.game._annotate(self, a) for a in self.legal_actions()]

    if TYPE_CHECKING:  # the core's view (A13; with recall, A14)

        def view(self, player: int, *, recall: bool = False) -> AtlanticStarView: ...

    def best_voyage(self, sea: str, seat: int | None = None) -> tuple[int, Voyage | None]:
        """(points, move) of the best voyage ``seat`` (default: the seat to move) could
        stage in ``sea`` with its hand now, over every choice of cards (A5); (-1, None)
        when the hand size does not fit the sea. The class is the sea's class, or the
        highest free one (the move is not checked for legality otherwise)."""
        s = self.game._sea_index(sea)
        p = self.current_player if seat is None else self.game.check_player(seat)
        if p < 0:
            return (-1, None)
        value, code = self._best_voyage(p, s)
        if code < 0:
            return (-1, None)
        raw = self._get_raw()
        cls = raw["seas"][s]["class"]
        if cls < 0:
            taken = {x["class"] for x in raw["seas"]}
            cls = max(c for c in range(5) if c not in taken)
        return (value, self.game._annotate_voyage(self, p, s, cls, code))

    def _best_voyage(self, seat: int, sea: int) -> tuple[int, int]:
        result: tuple[int, int] = self.best_voyage_code(seat, sea)
        return result


class AtlanticStarGame(Game[AtlanticStarState, AtlanticStarMove]):
    """Atlantic Star for 2 to 6 players.

    Options: ``players`` (2-6, default 4), ``ships`` (a :class:`ShipList` or a path to a
    ship-list JSON file; default the engine-authored list, A4) and ``board`` (the victory
    point table, 5 classes of 6 values, 1★ first; default A2).
    """

    name = "atlantic_star"
    core_module = "atlantic_star"
    title = "Atlantic Star"
    schema_version = SCHEMA_VERSION
    schema_migrations = {1: serialize.upgrade_rng_to_text, 2: upgrade_known_hands}  # noqa: RUF012 - read-only
    state_data_type = AtlanticStarStateData
    view_type = AtlanticStarView
    move_type = AtlanticStarMove
    move_classes = MOVE_TYPES
    option_types: ClassVar[Mapping[str, type]] = MappingProxyType({"ships": ShipList})

    def __init__(
        self,
        players: int = 4,
        ships: ShipList | str | Path | None = None,
        board: Any = None,
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
            raise InvalidOptionError(f"Atlantic Star is a game for 2 to 6 players, not {players!r}")
        if ships is None:
            ship_list = ShipList.standard()
        elif isinstance(ships, ShipList):
            ship_list = ships
        elif isinstance(ships, (str, Path)):
            ship_list = ShipList.from_file(ships)
        else:
            raise InvalidOptionError(f"ships must be a ShipList or a path, not {type(ships).__name__}")
        self.board: Board = check_board(board)
        self._custom_board = board is not None
        self.ships = ship_list
        self._custom_ships = ships is not None
        self.num_players = players
        self.sets = 2 if players <= 3 else 1
        self._use_core(_core_mod, AtlanticStarState)
        self.num_actions = int(self.rules.num_actions)
        self.num_operators = int(self.rules.num_ops)
        self._build_move_table()

    def _use_core(self, module: Any, state_class: type[AtlanticStarState]) -> None:
        self._core = module
        self._state_class = state_class
        self.rules = build_rules(module, self.num_players, self.ships, self.board)
        self._scratch = module.AtlanticCore(self.rules, None)

    @property
    def options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"players": self.num_players}
        if self._custom_ships:
            opts["ships"] = self.ships
        if self._custom_board:
            opts["board"] = self.board
        return opts

    @property
    def score_bounds(self) -> tuple[int, int]:
        """Lowest and highest victory points a seat can have."""
        top = max(col[0] for col in self.board)
        return (0, 4 * self.sets * top)

    # ------------------------------------------------------------------ states

    def _deal(self, rng_state: int, start_player: int) -> AtlanticStarState:
        """A new game; the start seat is drawn in the deal unless given."""
        state = self._state_class(self.rules, self)
        state._new_game(rng_state, start_player)
        return state

    def voyage_value(self, ships: list[str] | list[int], sea: str) -> tuple[int, bool, list[str]]:
        """(value, bonus earned, ships by leg) of playing these ships in ``sea`` (A5)."""
        s = self._sea_index(sea)
        ids = [self._ship_id(x) for x in ships]
        if len(ids) != LEGS[s] or len(set(ids)) != len(ids):
            raise InvalidOptionError(f"a {SEAS[s]} voyage plays {LEGS[s]} different ships")
        value, bonus, by_leg = self._scratch.value_of(ids, s)
        return (int(value), bool(bonus), [self.ships.ships[c].name for c in by_leg])

    def _ship_id(self, ship: str | int) -> int:
        if isinstance(ship, str):
            if ship not in self.ships.index:
                raise InvalidOptionError(f"no ship named {ship!r}")
            return self.ships.index[ship]
        if isinstance(ship, bool) or not isinstance(ship, int) or not 0 <= ship < len(self.ships.ships):
            raise InvalidOptionError(f"no ship {ship!r}")
        return ship

    @staticmethod
    def _sea_index(sea: str) -> int:
        if sea not in SEAS:
            raise InvalidOptionError(f"unknown sea {sea!r}; seas: {', '.join(SEAS)}")
        return SEAS.index(sea)

    # ------------------------------------------------------------------ moves

    def _decode_action(self, action: int) -> AtlanticStarMove:
        R = self.rules
        if action < R.a_refresh:
            r, amt = divmod(action - R.a_loan, NAMT)
            s, k = divmod(r, self.sets)
            return Loan(sea=SEAS[s], amount=(amt + 1) * 1000, voyage=k)
        if action == R.a_refresh:
            return Refresh()
        if action < R.a_voyage:
            return Charter(price=PRICES[action - R.a_charter])
        r, code = divmod(action - R.a_voyage, NKEEP)
        s, c = divmod(r, 5)
        return Voyage(sea=SEAS[s], stars=c + 1, keep=tuple(R.keep_slots(code)))

    def _encode_move(self, move: Any) -> int:
        # Every well-formed move is in the move table; explain why this one is not.
        if isinstance(move, Loan) and move.voyage >= self.sets:
            raise IllegalMoveError(f"{move}: with {self.num_players} players each sea is sailed once per seat")
        if isinstance(move, Voyage):
            keep = move.keep
            if len(keep) > 2 or len(set(keep)) != len(keep) or any(not 0 <= k < 8 for k in keep):
                raise IllegalMoveError(f"{move}: keep names 0-2 different hand slots 0..7, not {keep}")
        raise IllegalMoveError(f"{move!r} names no action")

    _notation_state_kinds: ClassVar[Mapping[str, str]] = MappingProxyType(
        {
            "loan": "the value after the loan",
            "charter": "a ship",
            "voyage": "ships or points",
        }
    )

    def _notation_templates(self, move: AtlanticStarMove) -> Sequence[NotationTemplate]:
        return notation_templates(move)

    def _notation_key(self, key: str) -> str:
        return notation_key(key)

    def _annotate(self, state: AtlanticStarState, action: int) -> AtlanticStarMove:
        """The move of a legal action with its annotations for the state's seat to move."""
        move = self._all_moves[action]
        R = self.rules
        p = state.current_player
        if isinstance(move, Charter):
            ship = state._get_agency(action - R.a_charter)
            return Charter(price=move.price, ship=str(self.ships.ships[ship]) if ship >= 0 else None)
        if isinstance(move, Loan):
            s = SEAS.index(move.sea)
            value = state._plaque_value(s, p * 2 + move.voyage)
            return Loan(
                sea=move.sea,
                amount=move.amount,
                voyage=move.voyage,
                value=value - move.amount // 1000,
            )
        if isinstance(move, Voyage):
            r, code = divmod(action - R.a_voyage, NKEEP)
            s, c = divmod(r, 5)
            return self._annotate_voyage(state, p, s, c, code)
        return Refresh()

    def _annotate_voyage(self, state: AtlanticStarState, seat: int, sea: int, cls: int, code: int) -> Voyage:
        value, _bonus, by_leg, kept = state.voyage_detail(seat, sea, code)
        names = self.ships.ships
        return Voyage(
            sea=SEAS[sea],
            stars=cls + 1,
            keep=tuple(self.rules.keep_slots(code)),
            ships=tuple(names[c].name for c in by_leg),
            points=int(value),
            kept=tuple(names[c].name for c in kept),
        )

    # ------------------------------------------------------------------ serialization

    @classmethod
    def _options_of_snapshot(cls, data: Any) -> dict[str, Any]:
        d: AtlanticStarStateData = data
        if d.ship_list != ShipList.standard().digest:
            raise InvalidStateError(
                f"this snapshot uses a custom ship list ({d.ship_list}): load it with that game's load_state"
            )
        options: dict[str, Any] = {"players": d.players}
        if [list(c) for c in d.board] != [list(c) for c in check_board(None)]:
            options["board"] = d.board
        return options

    def _from_data(self, data: Any) -> AtlanticStarState:
        """Build a state from a decoded snapshot; the core checks it (InvalidStateError)."""
        state = self._state_class(self.rules, self)
        state._load(data)
        return state

    # ------------------------------------------------------------------ tensors

    def _observation_layout(self) -> list[tuple[str, int]]:
        """The observation tensor's parts (docs/atlantic_star.md, "Observation tensor")."""
        return list(self.rules.obs_layout)

    def _information_state_layout(self) -> list[tuple[str, int]]:
        """The observation's parts, then ``known``: per seat, the ships it is known to hold (A14)."""
        return list(self.rules.info_layout)

    # ------------------------------------------------------------------ text

    def render(self, state: AtlanticStarState, player: int | None = None) -> str:
        """A plain-text board: seas with their class and ranking, agency, money, hands."""
        raw = state._get_raw()
        names = self.ships.ships
        out = []
        scores = state.scores()
        for s in range(4):
            sea = raw["seas"][s]
            cls = sea["class"]
            title = f"{SEAS[s]} ({LEGS[s]} legs)"
            if cls < 0:
                out.append(f"{title}: no voyage yet")
                continue
            out.append(f"{title}, {cls + 1}★ class:")
            for i, (pid, value, loan, cards) in enumerate(sea["plaques"]):
                vp = self.board[cls][i]
                if pid >= NPP:
                    who = f"operator {'AB'[pid - NPP]}"
                    ships = ""
                else:
                    who = f"seat {pid >> 1}"
                    ships = "  " + ", ".join(names[c].name for c in cards)
                lo = f" (loan {loan * 1000:,})" if loan else ""
                out.append(f"  {i + 1}. {vp:>2} VP  {who:<10} {value:>3}{lo}{ships}")
        out.append(
            "agency: "
            + " | ".join(f"{PRICES[i]:,}: {names[c] if c >= 0 else '-'}" for i, c in enumerate(raw["agency"]))
        )
        out.append(f"pack: {len(raw['deck'])} ships; discard pile: {len(raw['discard'])} ships")
        for p in range(self.num_players):
            mark = "*" if p == state.current_player else " "
            line = f"{mark}seat {p}: {raw['money'][p] * 1000:,} marks, {scores[p]} VP"
            if player is None or player == p:
                hand = "; ".join(str(names[c]) for c in raw["hands"][p])
                line += f", hand: {hand or '(empty)'}"
            else:
                line += f", hand: {len(raw['hands'][p])} ships"
            out.append(line)
        if state.is_over:
            out.append(f"game over; winners: {', '.join(f'seat {w}' for w in state.winners())}")
        else:
            out.append(f"seat {state.current_player} to move ({PHASES[raw['phase']]} phase)")
        return "\n".join(out)
