"""Dream Cruise: the :class:`DreamCruiseGame` configuration and the :class:`DreamCruiseState`.

The rules themselves live in the compiled core (``cruiselib._core.dream_cruise``), and so
do the validation of loaded states, views, resampling and the tensors; this module adds
options, the card set, typed moves and serialization.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from cruiselib import _core, serialize
from cruiselib._api import Game, NotationTemplate, State
from cruiselib.dream_cruise import _ending, integrations, schema
from cruiselib.dream_cruise.cards import CABINS, Activity, CardSet, Family, Location, ShipCard
from cruiselib.dream_cruise.moves import (
    MOVE_TYPES,
    Board,
    Build,
    Captain,
    Done,
    DreamCruiseMove,
    Keep,
    Place,
    Plan,
    Take,
    notation_key,
    notation_templates,
    spot_name,
)
from cruiselib.dream_cruise.schema import SCHEMA_VERSION, DreamCruiseStateData, DreamCruiseView, JanaView, SeatView
from cruiselib.errors import IllegalMoveError, InvalidOptionError, InvalidStateError

__all__ = ["DreamCruiseGame", "DreamCruiseState"]

_core_mod = _core.load("dream_cruise")
PHASES: tuple[str, ...] = _core_mod.PHASES
DEFAULT_ROUTE_POINTS: tuple[int, int, int, int] = _core_mod.DEFAULT_ROUTE_POINTS
PRINTED_REMOVAL: tuple[int, ...] = _core_mod.PRINTED_REMOVAL
SOLO_DECK: int = _core_mod.SOLO_DECK

if TYPE_CHECKING:
    from cruiselib._core.dream_cruise import DreamCruiseCore as _CoreState
else:
    _CoreState = _core_mod.DreamCruiseCore


class DreamCruiseState(State[DreamCruiseMove, DreamCruiseStateData, DreamCruiseView], _CoreState):
    """A Dream Cruise position. Create with ``game.new_state(seed)``."""

    __slots__ = ()

    game: DreamCruiseGame

    def _to_data(self) -> DreamCruiseStateData:
        data: DreamCruiseStateData = self._export()
        return data

    def view(self, player: int, *, recall: bool = False) -> DreamCruiseView:
        """What ``player`` may see: every board and play area, all counts, the face-up
        display and the discard piles (C22), its own hand and drawn cards; with ``recall``,
        also which hand cards each seat took face up."""
        view: DreamCruiseView = self._view(self._seat(player), bool(recall))
        return view

    def legal_moves(self) -> list[DreamCruiseMove]:
        """The legal moves as typed objects annotated for this position (which family a
        cabin holds, which activity a spot is, the cards of a face-up set)."""
        raw = self._get_raw()  # one look at the position for every move
        return [self.game._annotate(self, a, raw) for a in self.legal_actions()]

    def returns(self) -> list[float]:
        """As for every game; in the solo game the player gets -1 when Jana wins (C9)."""
        if self.game.num_players == 1 and self.is_over:
            return [1.0 if self.winners() else -1.0]
        # Named, not super(): the pure twin's copy of this class is not a subclass of it.
        return State.returns(self)

    def _move_text(self, action: int, private: bool) -> str:
        """The move named by what it acts on: the family and the cabin it boards, the
        location card kept, the display set's cards (not the face-down set's), the family
        and the activity of a guest, the activity cards and payments. Each names only
        what the table shows or the move puts on it (a card from the hand is played face
        up, a payment goes to the open discard pile), so ``private`` adds nothing."""
        return self.game._move_text(self, action)

    @property
    def phase(self) -> str:
        """``boarding``, ``set_course``, ``entertainment``, ``set_sail`` or ``over``."""
        return str(self.phase_name)


class _MoveIds:
    """Action ids of moves, computed from their fields (the game's ``_move_index``)."""

    __slots__ = ("_game",)

    def __init__(self, game: DreamCruiseGame) -> None:
        self._game = game

    def __getitem__(self, move: Any) -> int:
        try:
            return self._game._encode_move(move)
        except IllegalMoveError:
            raise KeyError(move) from None


_MOVE_TABLES: dict[tuple[str, int], tuple[DreamCruiseMove, ...]] = {}


def _move_table(cards: CardSet, additions: int) -> tuple[DreamCruiseMove, ...]:
    """Every action's move with the card names, in id order (built once per card set)."""
    key = (cards.digest, additions)
    table = _MOVE_TABLES.get(key)
    if table is None:
        ns = len(cards.ships)
        names = [card.name for card in cards.ships]
        moves: list[DreamCruiseMove] = []
        moves.extend(Board(f, fam.name) for f, fam in enumerate(cards.families))
        moves.extend(Keep(i, loc.name) for i, loc in enumerate(cards.locations))
        moves.extend(Take(k) for k in range(5))
        moves.extend(Place(cab, s) for cab in range(3) for s in range(3 + additions))
        moves.extend(Plan(x, name) for x, name in enumerate(names))
        replaces: list[int | None] = [None, *range(additions)]
        moves.extend(Build(x, y, r, names[x], names[y]) for x in range(ns) for y in range(ns) for r in replaces)
        moves.extend(Captain(s, y, None, names[y]) for s in range(3) for y in range(ns))
        moves.append(Done())
        table = _MOVE_TABLES[key] = tuple(moves)
    return table


class DreamCruiseGame(Game[DreamCruiseState, DreamCruiseMove]):
    """Dream Cruise for 1 to 4 players (1: the solo game against Jana, C9).

    Options: ``players`` (1..4, default 4); ``route_points`` (C1: points of routes of 2, 3,
    4 and 5+ cards, default (1, 3, 6, 9)); ``sea_ship_draw`` (C2: a kept sea card brings one
    ship card, default False); ``additions`` (C6: addition spaces per ship board, 1..4,
    default 2); ``difficulty`` (C9, solo only: families Jana starts with, 0..3); ``cards``
    (a :class:`CardSet` or the path of one; default the engine-authored set, C10).
    """

    name = "dream_cruise"
    core_module = _core_mod.__name__.rpartition(".")[2]  # the core loaded above: named once
    player_counts = integrations.PLAYER_COUNTS
    example_configurations = integrations.EXAMPLE_CONFIGURATIONS
    rule_bot = "cruiselib.dream_cruise.rulebot:RuleBot"
    positions: ClassVar[str | None] = "cruiselib.dream_cruise.position:DreamCruisePositions"
    search = integrations.SEARCH
    openspiel = integrations.OPENSPIEL
    web = integrations.WEB
    picture = "cruiselib.dream_cruise.picture:draw"
    annotated_moves = True
    title = "Dream Cruise"
    how_to_win = _ending.HOW_TO_WIN
    how_it_ends = _ending.HOW_IT_ENDS
    schema_version = SCHEMA_VERSION
    schema_migrations: ClassVar[Mapping[int, serialize.Migration]] = {}
    state_data_type = DreamCruiseStateData
    view_type = DreamCruiseView
    move_type = DreamCruiseMove
    move_classes = MOVE_TYPES
    option_types: ClassVar[Mapping[str, type]] = MappingProxyType({"cards": CardSet})

    def end_reason(self, state: DreamCruiseState) -> str | None:
        """Why the finished game ``state`` ended, naming the rule (C8, C16, C20); None while it goes on."""
        return _ending.end_reason(state)

    def __init__(
        self,
        players: int = 4,
        *,
        route_points: Sequence[int] = DEFAULT_ROUTE_POINTS,
        sea_ship_draw: bool = False,
        additions: int = 2,
        difficulty: int = 0,
        cards: CardSet | str | Path | None = None,
    ) -> None:
        self._check_players(players)
        if isinstance(route_points, (str, bytes)) or not isinstance(route_points, Sequence) or len(route_points) != 4:
            raise InvalidOptionError(
                f"route_points lists the points of routes of 2, 3, 4 and 5+ cards (C1), not {route_points!r}"
            )
        for v in route_points:
            if type(v) is not int or not 0 <= v <= 99:
                raise InvalidOptionError(f"route_points are ints 0..99 (C1), not {v!r}")
        if type(sea_ship_draw) is not bool:
            raise InvalidOptionError(f"sea_ship_draw is True or False (C2), not {sea_ship_draw!r}")
        if type(additions) is not int or not 1 <= additions <= 4:
            raise InvalidOptionError(f"additions (addition spaces per ship board, C6) is 1..4, not {additions!r}")
        if type(difficulty) is not int or not 0 <= difficulty <= 3:
            raise InvalidOptionError(f"difficulty (C9) is 0..3, not {difficulty!r}")
        if difficulty and players != 1:
            raise InvalidOptionError("difficulty is an option of the solo game (players=1, C9)")
        if cards is None:
            card_set = CardSet.standard()
        elif isinstance(cards, CardSet):
            card_set = cards
        elif isinstance(cards, (str, Path)):
            card_set = CardSet.from_file(cards)
        else:
            raise InvalidOptionError(f"cards must be a CardSet or a path, not {type(cards).__name__}")
        others = sum(f.start is None for f in card_set.families)
        need = difficulty + 1 if players == 1 else PRINTED_REMOVAL[players] + 1
        if others < need:
            raise InvalidOptionError(
                f"card set {card_set.name!r} has {others} families besides the starting ones; "
                f"{players} player(s) need at least {need} (setup 5, C9)"
            )
        self.num_players = players
        self.route_points: tuple[int, int, int, int] = tuple(route_points)  # type: ignore[assignment]
        self.sea_ship_draw = sea_ship_draw
        self.additions = additions
        self.difficulty = difficulty
        self.cards = card_set
        self._custom_cards = cards is not None
        # Solo: Jana winning leaves the player without a win (C9).
        self.draws_possible = players == 1  # type: ignore[misc]
        self._use_core(_core_mod, DreamCruiseState)
        self.num_actions = int(self.rules.num_actions)
        self._build_move_table()

    def _use_core(self, module: Any, state_class: type[DreamCruiseState]) -> None:
        self._core = module
        self._state_class = state_class
        families, locations, ships = self.cards.packed()
        self.rules = module.DreamCruiseRules(
            self.num_players,
            families,
            locations,
            ships,
            list(self.route_points),
            self.additions,
            self.sea_ship_draw,
            self.difficulty,
        )
        # The schema's own game name (a subclass registered under another name writes
        # snapshots of this game: the schema accepts no other).
        self.rules._set_schema(schema, DreamCruiseGame.name)

    @property
    def options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"players": self.num_players}
        if self.route_points != DEFAULT_ROUTE_POINTS:
            opts["route_points"] = self.route_points
        if self.sea_ship_draw:
            opts["sea_ship_draw"] = True
        if self.additions != 2:
            opts["additions"] = self.additions
        if self.difficulty:
            opts["difficulty"] = self.difficulty
        if self._custom_cards:
            opts["cards"] = self.cards
        return opts

    def rival(self, state: DreamCruiseState) -> tuple[str, int] | None:
        """Jana and her score once a solo game is over (C9, C23); None otherwise."""
        jana = state.view(0).jana if self.num_players == 1 else None
        if jana is None or jana.score is None:
            return None
        return ("Jana", jana.score)

    def event_lines(self, before: DreamCruiseState, after: DreamCruiseState, player: int) -> list[str]:
        """Jana's turns between two positions of a solo game, a line each
        (:func:`cruiselib.dream_cruise.table_text.jana_lines`); none with more seats."""
        from cruiselib.dream_cruise.table_text import jana_lines

        return jana_lines(before.view(player), after.view(player), self.cards)

    @property
    def score_bounds(self) -> tuple[int, int]:
        """Lowest and highest points a seat can have: every family, six routes of the best
        length, and a guest on every activity."""
        families = sum(f.points for f in self.cards.families)
        routes = 6 * max(self.route_points)
        return (0, families + routes + (9 + 3 * self.additions) // 2)

    # ------------------------------------------------------------------ states

    def _deal(self, rng_state: int, start_player: int) -> DreamCruiseState:
        """A new game; the start seat is drawn in the deal unless given (setup 4)."""
        if self.num_players == 1 and start_player not in (-1, 0):
            raise InvalidOptionError("the solo game has one seat, 0")
        state = self._state_class(self.rules, self)
        state._new_game(rng_state, start_player)
        return state

    # ------------------------------------------------------------------ moves

    def _build_move_table(self) -> None:
        self._all_moves = _move_table(self.cards, self.additions)
        self._move_index = _MoveIds(self)  # type: ignore[assignment]  # arithmetic: no dict of ~16,000 moves

    def _decode_action(self, action: int) -> DreamCruiseMove:
        move: DreamCruiseMove = self._all_moves[action]
        return move

    def _encode_move(self, move: Any) -> int:
        """The action id of a move, from its ids (the annotations do not matter)."""
        R = self.rules
        nf, nl, ns = len(self.cards.families), len(self.cards.locations), len(self.cards.ships)

        def ids(*values: object) -> bool:
            return all(type(v) is int for v in values)

        if isinstance(move, Board) and ids(move.family) and 0 <= move.family < nf:
            return int(R.a_board) + move.family
        if isinstance(move, Keep) and ids(move.location) and 0 <= move.location < nl:
            return int(R.a_keep) + move.location
        if isinstance(move, Take) and ids(move.set) and 0 <= move.set < 5:
            return int(R.a_take) + move.set
        if isinstance(move, Place) and ids(move.cabin, move.spot) and 0 <= move.cabin < 3 and 0 <= move.spot < R.nspot:
            return int(R.a_place) + move.cabin * int(R.nspot) + move.spot
        if isinstance(move, Plan) and ids(move.card) and 0 <= move.card < ns:
            return int(R.a_plan) + move.card
        if (
            isinstance(move, Build)
            and ids(move.addition, move.payment)
            and 0 <= move.addition < ns
            and 0 <= move.payment < ns
            and (move.replaces is None or (ids(move.replaces) and 0 <= move.replaces < self.additions))
        ):
            t = 0 if move.replaces is None else move.replaces + 1
            return int(R.a_build) + (move.addition * ns + move.payment) * (self.additions + 1) + t
        if isinstance(move, Captain) and ids(move.spot, move.payment) and 0 <= move.spot < 3 and 0 <= move.payment < ns:
            return int(R.a_captain) + move.spot * ns + move.payment
        if isinstance(move, Done):
            return int(R.a_done)
        raise IllegalMoveError(f"{move!r} names no action of this game (card ids, spots and spaces out of range)")

    _notation_state_kinds: ClassVar[Mapping[str, str]] = MappingProxyType(
        {
            "take": "the cards of a set",
            "send": "a family or an activity",
            "captain": "an activity",
            "build": "the addition replaced",
        }
    )

    def _notation_templates(self, move: DreamCruiseMove) -> Sequence[NotationTemplate]:
        return notation_templates(move)

    def _notation_key(self, key: str) -> str:
        return notation_key(key)

    def _annotate(self, state: DreamCruiseState, action: int, raw: dict[str, Any] | None = None) -> DreamCruiseMove:
        """The move of a legal action with what the position shows about it (``raw``:
        the state's ``_get_raw()``, when the caller has it)."""
        move = self._all_moves[action]
        if isinstance(move, (Board, Keep, Plan, Done)) or (isinstance(move, Build) and move.replaces is None):
            return move
        if raw is None:
            raw = state._get_raw()
        if isinstance(move, Take):
            if move.set == 0:
                return move
            cards = raw["display"][move.set]
            return Take(move.set, tuple(self.cards.ships[x].name for x in cards))
        p = raw["cur"]
        if isinstance(move, Place):
            f = raw["cabins"][p][move.cabin]
            return Place(move.cabin, move.spot, self.cards.families[f].name, self._spot_text(raw, p, move.spot))
        if isinstance(move, Captain):
            return Captain(move.spot, move.payment, self._spot_text(raw, p, move.spot), move.payment_name)
        if isinstance(move, Build) and move.replaces is not None:
            old = raw["additions"][p][move.replaces]
            return Build(
                move.addition, move.payment, move.replaces, move.name, move.payment_name, self.cards.ships[old].name
            )
        return move

    def _move_text(self, state: DreamCruiseState, action: int) -> str:
        """The text of :meth:`DreamCruiseState._move_text` for the legal ``action``."""
        move = self._all_moves[action]
        raw = state._get_raw()
        cards = self.cards
        p = raw["cur"]
        if isinstance(move, Board):
            family = cards.families[move.family]
            cabin = next((c for c in range(3) if raw["cabins"][p][c] < 0), None)
            into = f" into the {CABINS[cabin]} cabin" if cabin is not None else ""
            return f"board the {family.name} family ({_family_terms(family)}){into}"
        if isinstance(move, Keep):
            return f"keep {_location_terms(cards.locations[move.location])}"
        if isinstance(move, Take):
            if move.set == 0:
                count = len(raw["display"][0])
                return f"take the face-down set ({count} card{'' if count == 1 else 's'}, unseen)"
            shown = " + ".join(_ship_terms(cards.ships[x]) for x in raw["display"][move.set])
            return f"take set {move.set}: {shown}"
        if isinstance(move, Place):
            family = cards.families[raw["cabins"][p][move.cabin]].name
            where = self._spot_text(raw, p, move.spot)
            return f"send a guest of the {family} family ({CABINS[move.cabin]} cabin) to {where}"
        if isinstance(move, Plan):
            card = cards.ships[move.card]
            location = cards.locations[raw["location"][p]]
            if location.bottom is not None:
                onto = f"{location.name}, covering its bottom ({location.bottom})"
            else:
                onto = f"{location.name}, in {'its first' if raw['slots'][p][0] < 0 else 'its second'} slot"
            return f"plan {_ship_terms(card)} on {onto}"
        if isinstance(move, Build):
            text = f"build {_ship_terms(cards.ships[move.addition])}, paying {cards.ships[move.payment].name}"
            if move.replaces is not None:
                old = cards.ships[raw["additions"][p][move.replaces]]
                text += f", replacing {_ship_terms(old)} (addition {move.replaces + 1})"
            return text
        if isinstance(move, Captain):
            where = self._spot_text(raw, p, move.spot)
            return f"captain to {where}, paying {cards.ships[move.payment].name}"
        return "done: end the turn"

    def spot_text(self, state: DreamCruiseState, seat: int, spot: int) -> str:
        """The activity on a seat's spot now, e.g. ``"Cooking Class (rest for 2)"``."""
        return self._spot_text(state._get_raw(), seat, spot)

    def _spot_text(self, raw: dict[str, Any], seat: int, spot: int) -> str:
        loc = raw["location"][seat]
        if spot >= 3:
            x = raw["additions"][seat][spot - 3]
            return f"{self.cards.ships[x].name} ({self.cards.ships[x].activity})" if x >= 0 else spot_name(spot)
        if loc < 0:
            return spot_name(spot)
        card = self.cards.locations[loc]
        if spot == 0:
            return f"{card.name} top ({card.top})"
        x = raw["slots"][seat][spot - 1]
        if x >= 0:
            return f"{self.cards.ships[x].name} ({self.cards.ships[x].activity})"
        if spot == 1 and card.bottom is not None:
            return f"{card.name} bottom ({card.bottom})"
        return spot_name(spot)

    # ------------------------------------------------------------------ serialization

    @classmethod
    def _options_of_snapshot(cls, data: Any) -> dict[str, Any]:
        d: DreamCruiseStateData = data
        if d.cards != CardSet.standard().digest:
            raise InvalidStateError(
                f"this snapshot uses a custom card set ({d.cards}): load it with that game's load_state"
            )
        options: dict[str, Any] = {"players": d.players}
        if tuple(d.route_points) != DEFAULT_ROUTE_POINTS:
            options["route_points"] = tuple(d.route_points)
        if d.sea_ship_draw:
            options["sea_ship_draw"] = True
        if d.additions != 2:
            options["additions"] = d.additions
        if d.difficulty:
            options["difficulty"] = d.difficulty
        return options

    def _from_data(self, data: Any) -> DreamCruiseState:
        """Check the header here; the core checks and loads the rest (InvalidStateError)."""
        d: DreamCruiseStateData = data
        bad = "invalid Dream Cruise state: "
        if d.players != self.num_players:
            raise InvalidStateError(f"{bad}state is for {d.players} players, the game for {self.num_players}")
        if d.cards != self.cards.digest:
            raise InvalidStateError(f"{bad}state is for card set {d.cards}, the game has {self.cards.digest}")
        for name, mine, theirs in (
            ("route_points (C1)", list(self.route_points), list(d.route_points)),
            ("sea_ship_draw (C2)", self.sea_ship_draw, d.sea_ship_draw),
            ("additions (C6)", self.additions, d.additions),
            ("difficulty (C9)", self.difficulty, d.difficulty),
        ):
            if mine != theirs:
                raise InvalidStateError(f"{bad}state has {name} {theirs}, the game {mine}")
        state = self._state_class(self.rules, self)
        state._load(d)
        return state

    # ------------------------------------------------------------------ text

    #: The short forms of the compact board (docs/dream_cruise.md, "Board text"), an entry
    #: a line, for a reader who meets them first (``cruiselib play``'s ``legend``).
    COMPACT_LEGEND: ClassVar[str] = "\n".join(
        (
            "> the seat to act; pts its score; pile the families in its points pile; routes its"
            " route points; to place the figures still on its family cards; drew: cards drawn",
            "i, o, b: the inner, oceanview and balcony cabins",
            "Adler 2/3 3p spo,cit: the Adler family, 2 of its 3 members still to place, worth 3"
            " points, wanting sports or city",
            "spo sports, cul culture, res rest, cit city, cou country, bea beach",
            "res2: a rest activity for 2 guests; [io]: the cabins whose guests are on it; capt: the captain",
            "top, bottom, slot 1: the spots of the location card; A1: built addition 1;"
            " +Spa: an addition card (built by paying another card)",
            "routes: the location cards kept, by region (E.Med, W.Med, Baltic, Arctic, N.Sea,"
            " Atlantic; sea cards are wild)",
            "drawn: the cards to choose from: families to board (one into each empty cabin, the"
            " rest are discarded), or location cards (the one kept is this round's location and"
            " counts for routes, the others are discarded)",
            "display: the sets of ship cards to take one of (set 0 face down)",
        )
    )

    def render(self, state: DreamCruiseState, player: int | None = None, *, compact: bool = False) -> str:
        """A plain-text table: each seat's cabins, additions, location card and routes.

        ``compact=True`` gives the summary of docs/dream_cruise.md, "Board text": at most
        ``COMPACT_COLUMNS`` columns and ``COMPACT_ROWS`` lines, made from ``view(player)``
        only (for None, the view of the seat to act), so it shows nothing that view hides.
        """
        if compact:
            return _compact_text(self, state, player)
        raw = state._get_raw()
        c = self.cards
        n = self.num_players
        if state.is_over:
            head = f"game over after round {raw['round']}; {_winners_text(state.winners(), n)}"
        else:
            head = f"round {raw['round']}, {PHASES[raw['phase']].replace('_', ' ')}: seat {raw['cur']} to act" + (
                " (final round)" if raw["final"] else ""
            )
        lines = [head]
        scores = state.scores()
        for p in range(n):
            lines.append(
                f"seat {p}{' (start player)' if raw['start'] == p else ''}: score {scores[p]}, "
                f"points pile {len(raw['pile'][p])} families, routes {state.route_points(p)}"
            )
            for cab in range(3):
                f = raw["cabins"][p][cab]
                if f >= 0:
                    fam = c.families[f]
                    lines.append(
                        f"  {CABINS[cab]:9}: {fam.name} ({raw['left'][p][cab]}/{fam.members} to place; "
                        f"{', '.join(fam.wants)}; {fam.points} pts)"
                    )
                else:
                    lines.append(f"  {CABINS[cab]:9}: empty")
            for j, x in enumerate(raw["additions"][p]):
                if x >= 0:
                    guests = _cabin_list(raw["addition_guests"][p][j])
                    lines.append(f"  addition {j + 1}: {c.ships[x]}; guests: {guests}")
            loc = raw["location"][p]
            if loc >= 0:
                lines.append(f"  location: {c.locations[loc]}")
                for s in range(3):
                    text = self._spot_text(raw, p, s)
                    if text != spot_name(s) or s == 0:
                        guests = _cabin_list(raw["location_guests"][p][s])
                        mark = " [captain]" if raw["captain"][p] == s else ""
                        lines.append(f"    {text}{mark}: guests: {guests}")
            played = ", ".join(c.locations[x].name for x in raw["played"][p]) or "-"
            lines.append(f"  played: {played}")
            if player is None or player == p:
                hand = ", ".join(c.ships[x].name for x in raw["hands"][p]) or "-"
                lines.append(f"  hand: {hand}")
            else:
                k = len(raw["hands"][p])
                lines.append(f"  hand: {k} card{'' if k == 1 else 's'}")
            drawn = sorted(raw["drawn"][p])
            if drawn and (player is None or player == p):
                if raw["phase"] == 0:
                    lines.append("  drawn families (one boards each empty cabin, the rest are discarded):")
                    lines.extend(f"    {c.families[x]}" for x in drawn)
                else:
                    lines.append("  drawn location cards (keep one: this round's location, then a route card):")
                    lines.extend(f"    {c.locations[x]}" for x in drawn)
            elif drawn:
                lines.append(f"  drawn: {len(drawn)} card{'' if len(drawn) == 1 else 's'}")
        if raw["phase"] == 2:
            for k, cards in enumerate(raw["display"]):
                taken = raw["taken"][k]
                if taken >= 0:
                    lines.append(f"display set {k}: taken by seat {taken}")
                elif k == 0:
                    lines.append(f"display set 0: face down ({len(cards)} cards)")
                else:
                    lines.append(f"display set {k}: {', '.join(c.ships[x].name for x in cards)}")
        if n == 1:
            jana = f"Jana: {len(raw['jana_pile'])} families face down, {len(raw['jana_locations'])} location cards"
            if state.is_over:
                jana += f", score {state.jana_score()}"
            lines.append(jana)
        return "\n".join(lines)


# ---------------------------------------------------------------------- compact text

# Short forms of the compact text (docs/dream_cruise.md, "Board text").
_TYPE_CODES: Mapping[str, str] = MappingProxyType(
    {"sports": "spo", "culture": "cul", "rest": "res", "city": "cit", "country": "cou", "beach": "bea"}
)
_REGION_CODES: Mapping[str, str] = MappingProxyType(
    {
        "east_med": "E.Med",
        "west_med": "W.Med",
        "baltic": "Baltic",
        "arctic": "Arctic",
        "north_sea": "N.Sea",
        "atlantic": "Atlantic",
    }
)
_PHASE_TITLES: Mapping[str, str] = MappingProxyType(
    {"boarding": "boarding", "set_course": "set course", "entertainment": "entertainment", "set_sail": "set sail"}
)
_CABIN_LETTERS = "iob"  # inner, oceanview, balcony: the colours of the figures on an activity
_INDENT = "  "  # the second line of a wrapped list
_TAIL_ROOM = len(" | … +99 more")  # kept free after a list's first item for its tail
# How much each part about the seat matters in each phase: when the lines run short, the
# least important line goes first (each further line of a part counts ``step`` less).
_RANKS: Mapping[str, Mapping[str, int]] = MappingProxyType(
    {
        "boarding": {"cabins": 8, "spots": 4, "routes": 3, "hand": 6, "choice": 9},
        "set_course": {"cabins": 8, "spots": 5, "routes": 7, "hand": 6, "choice": 9},
        "entertainment": {"cabins": 8, "spots": 6, "routes": 3, "hand": 7, "choice": 10},
        "set_sail": {"cabins": 9, "spots": 8, "routes": 3, "hand": 7, "choice": 9},
        "over": {"cabins": 5, "spots": 4, "routes": 7, "hand": 6, "choice": 9},
    }
)


class _Section(NamedTuple):
    """A part of the compact text: ``label`` then ``items``, over up to ``max_lines`` lines;
    its first line weighs ``rank``, each further one ``step`` less. ``shorter``: the items
    in shorter words, tried in turn where ``items`` do not all fit."""

    rank: int
    label: str
    items: list[str]
    max_lines: int = 1
    sep: str = " | "
    step: int = 3
    shorter: tuple[list[str], ...] = ()

    def lines(self, most: int, columns: int) -> list[str]:
        """The part in at most ``most`` lines: the first wording whose every item fits
        uncut, else the one that shows the most items (then ``… +N more``)."""
        best: tuple[int, list[str]] = (-1, [])
        for items in (self.items, *self.shorter):
            lines, shown, whole = _wrap(self.label, items, most, self.sep, columns)
            if whole:
                return lines
            if shown > best[0]:
                best = (shown, lines)
        return best[1]


def _one_column(ch: str) -> bool:
    return ch.isprintable() and not unicodedata.combining(ch) and unicodedata.east_asian_width(ch) not in ("W", "F")


@functools.lru_cache(maxsize=4096)
def _plain(text: str) -> str:
    """A card name in characters one column wide, so that ``len`` measures the compact text:
    a custom card set may use any script (wide or combining characters become ``?``)."""
    return "".join(ch if _one_column(ch) else "?" for ch in unicodedata.normalize("NFC", text))


def _clip(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns, ending in ``…`` where it was cut."""
    if len(text) <= width:
        return text
    return text[: max(width - 1, 0)].rstrip() + "…"


def _wrap(label: str, items: Sequence[str], max_lines: int, sep: str, columns: int) -> tuple[list[str], int, bool]:
    """``label`` and ``items`` joined by ``sep`` over at most ``max_lines`` lines of
    ``columns``: the lines, how many items they show, and whether they show every item
    uncut. The items that do not fit give way to ``… +N more``; an item never splits
    across lines (one too long for a line is cut short)."""
    room = max(columns - len(label) - (_TAIL_ROOM if len(items) > 1 else 0), 8)
    pieces = [_clip(item, room) for item in items]
    uncut = all(len(item) <= room for item in items)

    def lay(shown: int) -> list[str] | None:
        left = len(pieces) - shown
        lines = [label]
        fresh = True  # nothing but the label on the line yet
        for piece in [*pieces[:shown], *([f"… +{left} more"] if left else [])]:
            joined = lines[-1] + piece if fresh else lines[-1] + sep + piece
            if len(joined) <= columns:
                lines[-1] = joined
            elif len(lines) < max_lines:
                lines.append(_INDENT + piece)
            else:
                return None
            fresh = False
        return lines

    for shown in range(len(pieces), -1, -1):
        lines = lay(shown)
        if lines is not None:
            return [_clip(line.rstrip(), columns) for line in lines], shown, uncut and shown == len(pieces)
    return [_clip(label.rstrip(), columns)], 0, not pieces


def _activity(activity: Activity) -> str:
    """``cit2``: an activity's type and capacity."""
    return f"{_TYPE_CODES[activity.type]}{activity.capacity}"


def _ship_text(cards: CardSet, x: int, mark: bool = True, name_width: int = 40) -> str:
    """``Bingo res2``; an addition card marked ``+`` (``+Theater cul3``) unless built."""
    card = cards.ships[x]
    plus = "+" if mark and card.kind == "addition" else ""
    return f"{plus}{_clip(_plain(card.name), name_width)} {_activity(card.activity)}"


def _family_text(cards: CardSet, f: int, left: int, points: bool = True, name_width: int = 40) -> str:
    """``Adler 2/3 3p spo,cit``: figures still on the card of its members, points, wants."""
    fam = cards.families[f]
    worth = f" {fam.points}p" if points else ""
    wants = ",".join(_TYPE_CODES[t] for t in fam.wants)
    return f"{_clip(_plain(fam.name), name_width)} {left}/{fam.members}{worth} {wants}"


def _location_text(cards: CardSet, loc: int) -> str:
    """``Tromsø (Arctic) cit2/res1``; a sea card ``Open Sea: Barents Sea res1``."""
    card = cards.locations[loc]
    name = _plain(card.name)
    if card.bottom is None or card.region is None:
        return f"{name} {_activity(card.top)}"
    return f"{name} ({_REGION_CODES[card.region]}) {_activity(card.top)}/{_activity(card.bottom)}"


def _winners_text(winners: Sequence[int], players: int) -> str:
    """``winner: seat 1``, ``winners: seat 0, seat 2``; with none, ``winner: Jana`` in the
    solo game (C9) and ``no winner`` otherwise."""
    if not winners:
        return "winner: Jana" if players == 1 else "no winner"
    label = "winner" if len(winners) == 1 else "winners"
    return f"{label}: {', '.join(f'seat {w}' for w in winners)}"


def _family_terms(family: Family) -> str:
    """``3 members, wants rest, beach, 4 points``: what a family card says."""
    members = f"{family.members} member{'' if family.members == 1 else 's'}"
    return f"{members}, wants {', '.join(family.wants)}, {_points(family.points)}"


def _location_terms(card: Location) -> str:
    """``Kusadasi (east med; top country for 2, bottom culture for 3)``; a sea card
    ``Open Sea: Ionian Sea (sea; top culture for 1, two activity slots)``."""
    if card.bottom is None or card.region is None:
        return f"{card.name} (sea; top {card.top}, two activity slots)"
    return f"{card.name} ({card.region.replace('_', ' ')}; top {card.top}, bottom {card.bottom})"


def _ship_terms(card: ShipCard) -> str:
    """``Bingo (rest for 2)``: a ship card's name and activity."""
    return f"{card.name} ({card.activity})"


def _cabin_list(bits: int) -> str:
    """``inner, balcony``: the cabins whose guests are on an activity (a bit each), or ``none``."""
    return ", ".join(CABINS[k] for k in range(3) if (bits >> k) & 1) or "none"


def _points(n: int) -> str:
    return f"{n} pt" if n == 1 else f"{n} pts"


def _guests(cabins: Sequence[int]) -> str:
    """``[io]``: the cabins whose figures are on an activity (nothing when none is)."""
    return f"[{''.join(_CABIN_LETTERS[c] for c in cabins)}]" if cabins else ""


def _header(state: DreamCruiseState, view: DreamCruiseView, player: int | None, columns: int) -> str:
    """The round, phase, seat to act and deck sizes; or the result once the game is over."""
    if state.is_over:
        winners = state.winners()
        if view.players == 1:
            result = "seat 0 beats Jana" if winners else "Jana wins"
        elif len(winners) == 1:
            result = f"seat {winners[0]} wins"
        elif winners:  # never with 2-4 players (C8 breaks every tie), but said plainly if it were
            result = f"seats {', '.join(map(str, winners))} win"
        else:
            result = "no winner"
        return f"game over after round {view.round}: {result}"
    cur = view.current_player
    final = " (final)" if view.final_round else ""
    decks = f" | decks: fam {view.family_deck}, loc {view.location_deck}, ship {view.ship_deck}"
    line = ""
    # "(you)" gives way first (the seat's own line says it too), so no deck size is cut.
    for you in (" (you)" if cur == player else "", ""):
        line = f"round {view.round}{final}, {_PHASE_TITLES[view.phase]}: seat {cur}{you} to act{decks}"
        if len(line) <= columns:
            break
    return line


def _seat_line(cards: CardSet, view: DreamCruiseView, seat: SeatView, player: int | None) -> str:
    """One seat's public summary: score, points pile, routes, hand size, figures to place,
    cards being chosen from, current location card."""
    p = seat.seat
    tags = [tag for tag, on in (("you", p == player), ("start", p == view.start_player and view.players > 1)) if on]
    name = f"seat {p} ({', '.join(tags)})" if tags else f"seat {p}"
    to_place = sum(left for f, left in zip(seat.families, seat.figures_left, strict=True) if f >= 0)
    parts = [
        _points(seat.score),
        f"pile {len(seat.points_pile)}",
        f"routes {seat.route_points}",
        f"hand {seat.hand_size}",
        f"to place {to_place}",
    ]
    if seat.drawn_size:
        parts.append(f"drew {seat.drawn_size}")
    if seat.location is not None:
        parts.append(f"at {_plain(cards.locations[seat.location.card].name)}")
    return f"{'>' if p == view.current_player else ' '} {name}: {', '.join(parts)}"


def _jana_line(cards: CardSet, jana: JanaView) -> str:
    if jana.score is None:  # her pile is face down until the end (C23)
        return f"  Jana: pile {jana.pile_size} face down, route {jana.route_points}, {len(jana.locations)} locations"
    pile = sum(cards.families[f].points for f in jana.pile or ())
    return f"  Jana: {_points(jana.score)}, pile {jana.pile_size} ({_points(pile)}), route {jana.route_points}"


def _cabins_line(cards: CardSet, seat: SeatView, label: str, columns: int) -> str:
    """The three cabins on one line; if need be without the label, then without the
    points, then with shorter names."""
    line = ""
    tries = ((True, label, 40), (True, "", 40), (False, label, 40), (False, "", 40), (False, "", 9), (False, "", 6))
    for points, head, name_width in tries:
        items = [
            f"{_CABIN_LETTERS[c]} {_family_text(cards, f, left, points, name_width) if f >= 0 else 'empty'}"
            for c, (f, left) in enumerate(zip(seat.families, seat.figures_left, strict=True))
        ]
        line = head + " | ".join(items)
        if len(line) <= columns:
            break
    return _clip(line, columns)


def _spots_items(cards: CardSet, seat: SeatView, name_width: int = 40) -> tuple[str, list[str]]:
    """The activities the seat's guests can go to: its location card's spots, then its
    additions (``[io]`` the figures on each, ``capt`` the captain)."""
    items: list[str] = []
    label = "additions: "
    current = seat.location
    if current is not None:
        card = cards.locations[current.card]
        label = f"at {_clip(_plain(card.name), 26)}: "

        def spot(s: int, text: str) -> str:
            return f"{text}{_guests(current.guests[s])}{' capt' if current.captain == s else ''}"

        items.append(spot(0, f"top {_activity(card.top)}"))
        if card.bottom is not None:  # a shore card: an activity card may cover its bottom
            x = current.activity_cards[0]
            bottom = _ship_text(cards, x, name_width=name_width) if x >= 0 else _activity(card.bottom)
            items.append(spot(1, f"bottom {bottom}"))
        else:
            free = 0
            for s, x in enumerate(current.activity_cards, start=1):
                if x >= 0:
                    items.append(spot(s, f"slot {s} {_ship_text(cards, x, name_width=name_width)}"))
                else:
                    free += 1
            if free:
                items.append(f"{free} free slot{'s' if free > 1 else ''}")
    free = 0
    for j, x in enumerate(seat.additions):
        if x >= 0:
            built = _ship_text(cards, x, mark=False, name_width=name_width)
            items.append(f"A{j + 1} {built}{_guests(seat.addition_guests[j])}")
        else:
            free += 1
    if free:
        items.append(f"{free} free space{'s' if free > 1 else ''}")
    return label, items


def _routes_items(cards: CardSet, seat: SeatView) -> tuple[str, list[str]]:
    """The location cards kept, counted by region (sea cards are wild, C1)."""
    by_region: dict[str, int] = {}
    seas = 0
    for loc in seat.played:
        region = cards.locations[loc].region
        if region is None:
            seas += 1
        else:
            by_region[region] = by_region.get(region, 0) + 1
    items = [f"{_REGION_CODES[r]} {k}" for r, k in sorted(by_region.items(), key=lambda rk: -rk[1])]
    if seas:
        items.append(f"sea {seas}")
    return f"routes {_points(seat.route_points)} from {len(seat.played)} kept: ", items or ["-"]


def _display_items(cards: CardSet, view: DreamCruiseView, name_width: int = 40) -> list[str]:
    """The display sets of phase 3 as the table shows them (set 0 face down, C7)."""
    items = []
    for k, shown in enumerate(view.display):
        if shown.taken_by >= 0:
            items.append(f"{k} taken by seat {shown.taken_by}")
        elif shown.face_down:
            items.append(f"{k} face-down ({shown.size} card{'' if shown.size == 1 else 's'})")
        else:
            names = " / ".join(_ship_text(cards, x, name_width=name_width) for x in shown.cards)
            items.append(f"{k} {names or 'empty'}")
    return items


def _compact_text(game: DreamCruiseGame, state: DreamCruiseState, player: int | None) -> str:
    """The compact board text (docs/dream_cruise.md, "Board text"), made from one view:
    ``player``'s, or for None the seat's to act (public parts only once the game is over)."""
    columns, rows = game.COMPACT_COLUMNS, game.COMPACT_ROWS
    if player is not None:
        player = game.check_player(player)
    focus = player if player is not None else (None if state.is_over else state.current_player)
    view = state.view(0 if focus is None else focus)
    cards = game.cards
    top = [_header(state, view, player, columns), *(_seat_line(cards, view, seat, player) for seat in view.seats)]
    if view.jana is not None:
        top.append(_jana_line(cards, view.jana))

    sections: list[_Section] = []
    rank = _RANKS[view.phase]
    if focus is not None:
        seat = view.seats[focus]
        whose = "" if player is not None else f"seat {focus} "  # for None: the seat to act's
        cabins = _cabins_line(cards, seat, f"{whose}cabins: ", columns)
        sections.append(_Section(rank["cabins"], "", [cabins]))
        label, spots = _spots_items(cards, seat)
        spots_cut = _spots_items(cards, seat, 14)[1]
        sections.append(_Section(rank["spots"], label, spots, max_lines=2, shorter=(spots_cut,)))
        sections.append(_Section(rank["routes"], *_routes_items(cards, seat), max_lines=2, sep=", "))
        hand = [_ship_text(cards, x) for x in view.hand] or ["-"]
        sections.append(_Section(rank["hand"], f"{whose}hand {len(view.hand)}: ", hand, max_lines=2, sep=", "))
        # The cards to choose from (up to six families, two per empty cabin) matter most: a
        # third line of them still outweighs the additions.
        if view.drawn and view.phase == "boarding":
            families = [_family_text(cards, f, cards.families[f].members) for f in view.drawn]
            sections.append(_Section(rank["choice"], "drawn: ", families, max_lines=3, step=2))
        elif view.drawn and view.phase == "set_course":
            locations = [_location_text(cards, loc) for loc in view.drawn]
            sections.append(_Section(rank["choice"], "drawn: ", locations, max_lines=2, step=2))
    if view.display:
        # The sets are the choice of phase 3: all of them, the names cut short if need be.
        names_cut = tuple(_display_items(cards, view, width) for width in (14, 12, 10, 8, 6))
        display = _Section(rank["choice"], "display: ", _display_items(cards, view), 3, step=1, shorter=names_cut)
        sections.append(display)

    # Every part at its fullest, then a line at a time off the least important part.
    wrapped = [s.lines(s.max_lines, columns) for s in sections]
    kept = [len(lines) for lines in wrapped]
    while sum(kept) > rows - len(top):
        least = min(
            (i for i in range(len(sections)) if kept[i]),
            key=lambda i: sections[i].rank - sections[i].step * (kept[i] - 1),
        )
        kept[least] -= 1
    lines = list(top)
    for section, full, n in zip(sections, wrapped, kept, strict=True):
        if n == len(full):
            lines.extend(full)
        elif n:
            lines.extend(section.lines(n, columns))
    return "\n".join(_clip(line, columns) for line in lines[:rows])
