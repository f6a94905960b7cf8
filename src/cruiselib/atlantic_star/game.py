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

import msgspec

from cruiselib import _core, serialize
from cruiselib._api import Game, NotationTemplate, State
from cruiselib.atlantic_star import _ending, integrations, schema
from cruiselib.atlantic_star._sizes import AGENCY, NAMT, NKEEP, NPP, NSEA
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
    SeaInfo,
    ShipInfo,
    upgrade_known_hands,
)
from cruiselib.atlantic_star.ships import LEGS, SEA_SHORT, SEAS, Board, ShipList, check_board
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

__all__ = ["AtlanticStarGame", "AtlanticStarState"]

_core_mod = _core.load("atlantic_star")
_rng = _core.load("rng")

PHASES = _core_mod.PHASES


def build_rules(module: Any, players: int, ships: ShipList, board: Board, name: str) -> Any:
    """The core's rules object for a configuration, from ``module`` (the loaded core, or a
    second copy of it, e.g. the pure-Python source next to the compiled one), handed the
    schema's Struct classes, the game's ``name`` and the view's immutable parts the core
    builds views and snapshots from."""
    mail, entries = ships.core_tables()
    rules = module.AtlanticRules(players, mail, entries, [list(c) for c in board], ships.digest)
    infos = [ShipInfo(c, ship.name, ship.mail, [str(e) for e in ship.legs]) for c, ship in enumerate(ships.ships)]
    agency = [AgencyInfo(price, info) for price in PRICES for info in infos]
    agency += [AgencyInfo(price, None) for price in PRICES]
    rules._set_schema(schema, name)
    rules._set_view_types(infos, agency, [ship.name for ship in ships.ships])
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

    def _move_text(self, action: int, private: bool) -> str:
        """The move named by what it acts on: the ship chartered with its entries, the
        ships the refresh sends away, the voyage's value before and after a loan, a
        voyage's ships by leg and points (put face up by the move). The ships a voyage
        keeps in hand stay hidden: counted, and named only when ``private``."""
        move = self.game._annotate(self, action)
        if isinstance(move, Loan):
            which = "second " if move.voyage == 1 else ""
            before = (move.value or 0) + move.amount // 1000
            return f"loan {move.amount:,} on the {which}{move.sea} voyage (value {before} → {move.value})"
        if isinstance(move, Refresh):
            names = self.game.ships.ships
            gone = [names[c].name for c in map(self._get_agency, range(AGENCY)) if c >= 0]
            return f"{move}, replacing {', '.join(gone)}" if gone else str(move)
        if isinstance(move, Voyage) and move.kept and not private:
            count = len(move.kept)
            return f"{msgspec.structs.replace(move, kept=())} (keeps {count} ship{'' if count == 1 else 's'})"
        return str(move)

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
        cls = self._sea_class(s)
        if cls < 0:
            taken = {self._sea_class(x) for x in range(NSEA)}
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
    core_module = _core_mod.__name__.rpartition(".")[2]  # the core loaded above: named once
    player_counts = integrations.PLAYER_COUNTS
    example_configurations = integrations.EXAMPLE_CONFIGURATIONS
    rule_bot = "cruiselib.atlantic_star.rulebot:RuleBot"
    search = integrations.SEARCH
    openspiel = integrations.OPENSPIEL
    web = integrations.WEB
    picture = "cruiselib.atlantic_star.picture:draw"
    positions: ClassVar[str | None] = "cruiselib.atlantic_star.position:AtlanticStarPositions"
    annotated_moves = True
    title = "Atlantic Star"
    how_to_win = _ending.HOW_TO_WIN
    how_it_ends = _ending.HOW_IT_ENDS
    schema_version = SCHEMA_VERSION
    schema_migrations = {1: serialize.upgrade_rng_to_text, 2: upgrade_known_hands}  # noqa: RUF012 - read-only
    state_data_type = AtlanticStarStateData
    view_type = AtlanticStarView
    move_type = AtlanticStarMove
    move_classes = MOVE_TYPES
    option_types: ClassVar[Mapping[str, type]] = MappingProxyType({"ships": ShipList})

    def end_reason(self, state: AtlanticStarState) -> str | None:
        """Why the finished game ``state`` ended, naming the rule (A8); None while it goes on."""
        return _ending.end_reason(state)

    def __init__(
        self,
        players: int = 4,
        ships: ShipList | str | Path | None = None,
        board: Any = None,
    ) -> None:
        self._check_players(players)
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
        # The schema's own game name (a subclass registered under another name writes
        # snapshots of this game: the schema accepts no other).
        self.rules = build_rules(module, self.num_players, self.ships, self.board, AtlanticStarGame.name)
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

    # ------------------------------------------------------------------ text

    #: The short forms of the compact board (docs/atlantic_star.md, "Board text"), an entry
    #: a line, for a reader who meets them first (``cruiselib play``'s ``legend``).
    COMPACT_LEGEND: ClassVar[str] = "\n".join(
        (
            "> the seat to move; VP victory points; marks its money; to sail: the voyages still to"
            " stage per sea (2 Med: two)",
            "Bal, Med, Atl, Pac: the Baltic, Mediterranean, Atlantic and Pacific; 3★: a voyage's class",
            "a sea's plaques, top field first, as owner:value (a seat's number, or A/B for a package"
            " operator's set); . an empty field; free: the classes still free",
            "agency 3k, 2k, 1k, free: the four spaces, dearest first, with their ships",
            "P5:9: Pacific leg 5 for 9; mail: a mail ship",
            "… +k: k items left off",
        )
    )

    def render(self, state: AtlanticStarState, player: int | None = None, *, compact: bool = False) -> str:
        """A plain-text board: seas with their class and ranking, agency, money, hands.

        ``compact=True`` gives the summary of :meth:`_render_compact` instead (at most
        ``COMPACT_COLUMNS`` × ``COMPACT_ROWS``; docs/atlantic_star.md, "Board text")."""
        if compact:
            return self._render_compact(state, player)
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

    def _render_compact(self, state: AtlanticStarState, player: int | None) -> str:
        """The board text of docs/atlantic_star.md, "Board text": at most ``COMPACT_ROWS``
        lines of at most ``COMPACT_COLUMNS`` columns. A header (whose turn, the phase, the
        pack, the discard pile, the plaques placed), one line per seat, the board, the agency
        and a hand: ``player``'s, or for None the seat to move's.

        Everything comes from ``state.view(seat)`` for that seat (and the winners, public
        once the game is over), so the text shows nothing the seat cannot see.
        """
        width = self.COMPACT_COLUMNS
        over = state.is_over
        view = state.view(player if player is not None else max(state.current_player, 0))
        placed = sum(len(sea.plaques) for sea in view.seas)
        fields = len(SEAS) * len(self.board[0])  # every field of every sea ends with a plaque
        counts = f"pack {view.deck_size} · discard {len(view.discard)} · plaques {placed}/{fields}"
        winners = state.winners() if over else []
        if over:
            names = ", ".join(_seat_name(w, player) for w in winners)
            header = f"game over · {'winners' if len(winners) > 1 else 'winner'}: {names} · {counts}"
        else:
            header = f"{_seat_name(view.current_player, player)} to move ({view.phase} phase) · {counts}"
        lines = [_clip(header, width)]
        name_width = max(len(_seat_name(p, player)) for p in range(self.num_players))
        for p in range(self.num_players):
            mark = ">" if p == view.current_player else " "
            line = (
                f"{mark} {_seat_name(p, player):<{name_width}}  {view.scores[p]:>3} VP"
                f"  {view.money[p]:>6,} marks  hand {view.hand_sizes[p]}"
            )
            if over:
                line += "  winner" if p in winners else ""
            else:
                line += "  " + self._seas_to_sail(view, p)
            lines.append(_clip(line, width))
        rows = self.COMPACT_ROWS - len(lines)  # at least 3: six seats and the header take 7
        if over:  # the agency and the hands no longer matter
            return "\n".join(lines + self._board_lines(view, rows))
        label = "your hand: " if player is not None else f"seat {view.player}'s hand: "
        # Room goes first to the hand (what only this seat knows), then to the board, then
        # to the agency's entries; each keeps one line at least.
        hand = self._hand_lines(view, label, min(3, rows - 2))
        board = self._board_lines(view, rows - len(hand) - 1)
        agency = self._agency_lines(view, rows - len(hand) - len(board))
        return "\n".join(lines + board + agency + hand)

    def _seas_to_sail(self, view: AtlanticStarView, seat: int) -> str:
        """``to sail Bal, 2 Med`` (the voyages the seat has still to stage, per sea), or ``done``."""
        left = []
        for sea in view.seas:
            count = self.sets - sum(1 for plaque in sea.plaques if plaque.seat == seat)
            if count:
                short = SEA_SHORT[sea.name]
                left.append(short if count == 1 else f"{count} {short}")
        return "to sail " + ", ".join(left) if left else "done"

    def _ship_text(self, ship_id: int) -> str:
        """A ship in short: ``Rhea B1:3 A5:3 P2:3`` (sea initial, leg: value), ``Hermes mail``."""
        ship = self.ships.ships[ship_id]
        if ship.mail:
            return f"{ship.name} mail"
        return " ".join([ship.name, *(f"{entry.sea[0]}{entry.leg}:{entry.value}" for entry in ship.legs)])

    def _hand_lines(self, view: AtlanticStarView, label: str, rows: int) -> list[str]:
        """The view's hand in at most ``rows`` lines: each ship with its entries, or when
        that leaves ships off, the names alone if they leave off fewer."""
        if not view.hand:
            return [label + "(empty)"]
        width = self.COMPACT_COLUMNS
        lines, left_off = _flow(label, [self._ship_text(ship.id) for ship in view.hand], rows, width)
        if left_off:
            names, names_left_off = _flow(label, [ship.name for ship in view.hand], rows, width)
            if names_left_off < left_off:
                return names
        return lines

    def _board_lines(self, view: AtlanticStarView, rows: int) -> list[str]:
        """The four seas in at most ``rows`` lines (at least 1). Each plaque is owner:value,
        top field first (the owner a seat's number, or the package operator's letter A/B),
        then a ``.`` per empty field. In one line when that fits; else two seas a line; in
        one line that does not fit, the plaque values alone and a full sea as ``full``."""
        width = self.COMPACT_COLUMNS
        free = " ".join(f"{c}★" for c in view.free_classes)
        free_item = [f"free {free}"] if any(sea.stars is None for sea in view.seas) else []
        seas = [self._sea_text(sea, owners=True) for sea in view.seas]
        one_line, left_off = _flow("", seas + free_item, 1, width, " | ")
        if not left_off:
            return one_line
        if rows >= 2:
            items = [self._sea_text(sea, owners=True, free=free) for sea in view.seas]
            column = max(len(items[0]), len(items[2]))
            return [_clip(f"{items[i]:<{column}} | {items[i + 1]}", width) for i in (0, 2)]
        # A full sea no move can change any more, and the ranking is in the values; the free
        # classes, the ones no sea shows, go last.
        short = [self._sea_text(sea, owners=False) for sea in view.seas]
        lines, left_off = _flow("", short + free_item, 1, width, " | ")
        return _flow("", short, 1, width, " | ")[0] if left_off else lines

    @staticmethod
    def _sea_text(sea: SeaInfo, *, owners: bool, free: str = "") -> str:
        """A sea for :meth:`_board_lines`: ``Bal 3★ B:17 A:13 2:8 1:7 ..``, without the
        owners ``Bal 3★ 17 13 8 7 ..`` or ``Bal 3★ full``; not sailed yet ``Bal -``, or
        with ``free`` (the free classes) ``Bal none yet (free 1★ 4★)``."""
        short = SEA_SHORT[sea.name]
        if sea.stars is None:
            return f"{short} none yet (free {free})" if free else f"{short} -"
        if sea.full and not owners:
            return f"{short} {sea.stars}★ full"
        plaques = [
            (f"{'AB'[plaque.operator or 0] if plaque.seat is None else plaque.seat}:" if owners else "")
            + str(plaque.value)
            for plaque in sea.plaques
        ]
        empty = "." * (6 - len(sea.plaques))
        return " ".join([f"{short} {sea.stars}★", *plaques, *([empty] if empty else [])])

    def _agency_lines(self, view: AtlanticStarView, rows: int) -> list[str]:
        """The four agency spaces, dearest first, in at most ``rows`` lines (at least 1):
        with the ships' entries two spaces a line, else the ships' names in one line."""
        width = self.COMPACT_COLUMNS
        label = "agency "
        if rows >= 2:
            items = [
                f"{_price_text(space.price)} {self._ship_text(space.ship.id) if space.ship else '-'}"
                for space in view.agency
            ]
            return [
                _clip(label + " | ".join(items[:2]), width),
                _clip(" " * len(label) + " | ".join(items[2:]), width),
            ]
        names = [f"{_price_text(space.price)} {space.ship.name if space.ship else '-'}" for space in view.agency]
        return _flow(label, names, 1, width, " | ")[0]


def _seat_name(seat: int, player: int | None) -> str:
    """``seat 2``, or ``seat 2 (you)`` for the seat the text is for."""
    return f"seat {seat} (you)" if seat == player else f"seat {seat}"


def _price_text(price: int) -> str:
    """An agency price in short: ``3k`` … ``1k``, ``free``."""
    return f"{price // 1000}k" if price else "free"


def _clip(line: str, width: int) -> str:
    """``line`` cut to ``width`` columns, ending in ``…`` when cut (a name from a custom
    ship list may be long)."""
    return line if len(line) <= width else line[: width - 1] + "…"


def _layout(label: str, items: Sequence[str], shown: int, width: int, sep: str) -> list[str]:
    """The first ``shown`` items (then ``… +k`` for the other k) filled into lines of at
    most ``width`` columns, the first starting with ``label``, the others indented as deep;
    a line that breaks ends with the separator's mark (``,``)."""
    mark = sep.rstrip()
    parts = [_clip(item, width - len(label) - len(mark)) for item in items[:shown]]
    if shown < len(items):
        parts.append(f"… +{len(items) - shown}")
    lines: list[str] = []
    current = label + parts[0] if parts else label
    for i, part in enumerate(parts[1:], 2):
        room = width - (0 if i == len(parts) else len(mark))  # a line that may break keeps room for the mark
        if len(current) + len(sep) + len(part) <= room:
            current += sep + part
        else:
            lines.append(current + mark)
            current = " " * len(label) + part
    lines.append(current)
    return lines


def _flow(label: str, items: Sequence[str], max_lines: int, width: int, sep: str = ", ") -> tuple[list[str], int]:
    """``items`` after ``label`` in at most ``max_lines`` lines of at most ``width``
    columns, and how many were left off (shown as ``… +k``): as many as fit, in order."""
    for shown in range(len(items), 0, -1):
        lines = _layout(label, items, shown, width, sep)
        if len(lines) <= max_lines:
            return lines, len(items) - shown
    return [_clip(label + (f"… +{len(items)}" if items else ""), width)], len(items)
