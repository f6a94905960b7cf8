"""Atlantic Star positions from descriptions: the whole table, or what one seat sees.

A description (:class:`AtlanticStarPosition`) says where every ship lies (each seat's hand,
the charter agency, the pack, the discard pile, the seats' voyages on the board), each
seat's money, whose turn it is and the phase. What history alone fixes is derived: the
package operators' plaques (they enter with a sea's first voyage and stand above equal
values, A3, A7), each voyage's ships by leg (the optimal assignment, A5, A10), its value
(its ships' worth less its loan), the turns each seat has had and so the start player,
where the turns fix it. Where they do not, the description names it (``start_player``).

A seat's view is what that seat sees at a real table and what it remembers (A14): the other
hands as counts, each with the ships the seat saw that hand charter and still holds
(``known``); ``from_position`` deals only the rest (``resample`` with recall).

The compact text is one line of eleven fields (docs/atlantic_star.md, "Setting up a
position"), e.g. seat 1's view at the start of a 4-player game that seat 1 starts::

    -/-/-/- Pomerania,Spica,Canopus,Livonia ?128 - ?0/-/?0/?0 18k/18k/18k/18k 1 loan - 1 -
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import Meta

from cruiselib.atlantic_star.schema import AtlanticStarStateData, Plaque, SeaData
from cruiselib.atlantic_star.ships import LEGS, SEAS
from cruiselib.errors import InvalidPositionError
from cruiselib.positions import PositionRules
from cruiselib.serialize import RngText

if TYPE_CHECKING:
    from cruiselib.atlantic_star.game import AtlanticStarGame

__all__ = ["AtlanticStarPosition", "AtlanticStarPositions", "SeaPosition", "SeatPosition", "VoyagePosition"]

MAX_LOAN = 10_000  # per voyage, in marks (the rulebook's "Taking a Loan")
MAX_MONEY = 76_000  # the schema's bound: 36,000 and four loans of 10,000
MAX_SHIPS = 256  # the longest ship list the engine takes (A12)
HAND_MAX = 8  # a Pacific voyage's six ships and two kept (A6)
FIELDS = 6  # fields of a class on the board (A2)
PRICES = (3000, 2000, 1000, 0)  # the agency's spaces, dearest first

ShipName = Annotated[str, Meta(min_length=1, max_length=40, description="a ship's name, as its card prints it")]
SeatIndex = Annotated[int, Meta(ge=0, le=5, description="a seat, 0 first")]
Marks = Annotated[int, Meta(ge=0, le=MAX_MONEY, multiple_of=1000, description="marks")]
Phase = Literal["loan", "agency", "over"]


class VoyagePosition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A seat's voyage record plaque: the ships it played and the loan taken against it.
    Its value is derived (what the ships are worth, less a point per 1,000 borrowed)."""

    seat: Annotated[SeatIndex, Meta(description="the seat that staged the voyage")]
    second: Annotated[
        bool,
        Meta(description="the seat's second voyage in this sea (2-3 players sail each sea twice)"),
    ] = False
    ships: Annotated[
        list[ShipName],
        Meta(max_length=6, description="the ships played, in any order (the builder lists them by leg)"),
    ]
    loan: Annotated[
        int, Meta(ge=0, le=MAX_LOAN, multiple_of=1000, description="marks borrowed against this voyage")
    ] = 0


class SeaPosition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One sea on the board: its class and the seats' voyages there, top field first (the
    package operators' plaques are placed by the builder, A3, A7)."""

    stars: Annotated[int, Meta(ge=1, le=5, description="the class its first voyage chose")] | None = None
    voyages: Annotated[
        list[VoyagePosition], Meta(max_length=FIELDS, description="the seats' plaques, top field first")
    ] = []


class SeatPosition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One seat: its hand (or, in another seat's view, how many ships it holds and which of
    them the viewing seat remembers) and money."""

    hand: (
        Annotated[list[ShipName], Meta(max_length=HAND_MAX, description="the ships it holds")]
        | Annotated[int, Meta(ge=0, le=HAND_MAX, description="how many ships it holds (hidden)")]
    )
    money: Annotated[Marks, Meta(description="its money in marks")]
    unseen: Annotated[
        list[ShipName],
        Meta(
            max_length=HAND_MAX,
            description=(
                "ships of its hand the other seats do not know it holds (A14); empty in play, "
                "where every ship is chartered face up"
            ),
        ),
    ] = []
    known: Annotated[
        list[ShipName],
        Meta(
            max_length=HAND_MAX,
            description=(
                "in a seat's view, ships of this hidden hand the viewing seat knows it holds: it saw "
                "them chartered (A14); the rest of the hand is dealt at random. Empty for a listed hand"
            ),
        ),
    ] = []


class AtlanticStarPosition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """An Atlantic Star position: the whole table (``seat`` None) or what ``seat`` sees
    and remembers, the other hands (with the ships it knows they hold) and the pack then
    given as counts."""

    seat: Annotated[SeatIndex, Meta(description="whose view this is; null: the whole table")] | None = None
    seats: Annotated[list[SeatPosition], Meta(min_length=2, max_length=6, description="per seat, seat 0 first")]
    agency: Annotated[
        list[ShipName],
        Meta(min_length=4, max_length=4, description="the ships on the 3,000 / 2,000 / 1,000 / 0 spaces"),
    ]
    pack: (
        Annotated[list[ShipName], Meta(max_length=MAX_SHIPS, description="the pack, top first")]
        | Annotated[int, Meta(ge=0, le=MAX_SHIPS, description="how many ships the pack holds")]
    )
    discard: Annotated[
        list[ShipName], Meta(max_length=MAX_SHIPS, description="the discard pile, the first discarded first")
    ] = []
    seas: Annotated[
        list[SeaPosition],
        Meta(min_length=4, max_length=4, description="Baltic, Mediterranean, Atlantic, Pacific"),
    ]
    to_move: Annotated[SeatIndex, Meta(description="the seat to move; null once the game is over")] | None
    phase: Annotated[Phase, Meta(description="loan: a turn's start; agency: after a loan or a refresh; over: the end")]
    start_player: (
        Annotated[
            SeatIndex,
            Meta(description="the seat that took the first turn; null: derived from the turns taken"),
        ]
        | None
    ) = None
    rng: Annotated[RngText, Meta(description="the generator's state (whole table only)")] | None = None


@dataclass
class _Facts:
    """What checking a description found: its problems, and what a sound one derives."""

    problems: list[str] = field(default_factory=list)
    ids: dict[str, int] = field(default_factory=dict)
    shown: set[int] = field(default_factory=set)  # ships lying open (not just remembered)
    start: int = 0
    # per sea: its voyages as (seat, voyage index, ships by leg, value, loan in marks)
    voyages: list[list[tuple[int, int, list[int], int, int]]] = field(default_factory=list)


def _ordinal_voyage(seat: int, second: bool, sea: int) -> str:
    """``seat 1's Baltic voyage``, ``seat 1's second Baltic voyage``."""
    return f"seat {seat}'s {'second ' if second else ''}{SEAS[sea]} voyage"


def _names(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``; at most ten, then ``and k more``."""
    shown = items[:10]
    if len(items) > 10:
        return ", ".join(shown) + f" and {len(items) - 10} more"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _marks(amount: int) -> str:
    return f"{amount:,} marks"


class AtlanticStarPositions(PositionRules[AtlanticStarPosition]):
    """Descriptions, compact texts and set-up of Atlantic Star positions."""

    position_type: ClassVar[type[msgspec.Struct]] = AtlanticStarPosition
    recall: ClassVar[bool] = True  # a seat's view holds the charters it saw (A14, A15)
    game: AtlanticStarGame

    def __init__(self, game: AtlanticStarGame) -> None:
        super().__init__(game)
        ships = game.ships.ships
        self._ids = {ship.name: i for i, ship in enumerate(ships)}
        # A ship's label in the text: its name (spaces as "_") where that is a plain word
        # no other ship's label equals in any case, else "#" and its id.
        plain = [
            ship.name.replace(" ", "_") if re.fullmatch(r"[A-Za-z0-9]+( [A-Za-z0-9]+)*", ship.name) else None
            for ship in ships
        ]
        folded: dict[str, int] = {}
        for label in plain:
            if label is not None:
                folded[label.casefold()] = folded.get(label.casefold(), 0) + 1
        self._labels = [
            label if label is not None and folded[label.casefold()] == 1 else f"#{i}" for i, label in enumerate(plain)
        ]
        # Voyages already valued (the optimal assignment is the costly part of a check).
        self._worths: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}
        self._by_label = {label.casefold(): i for i, label in enumerate(self._labels) if not label.startswith("#")}

    # ------------------------------------------------------------------ describing

    def describe(self, state: Any, seat: int | None) -> AtlanticStarPosition:
        """The description of ``state``: all of it, or what ``seat`` sees (A13) and
        remembers: the ships each other hand is known to hold (A14)."""
        data: AtlanticStarStateData = state._to_data()
        names = [ship.name for ship in self.game.ships.ships]
        seats = []
        for p, hand in enumerate(data.hands):
            unseen = sorted(set(hand) - set(data.known[p]))
            if seat is None or p == seat:
                seats.append(
                    SeatPosition(hand=[names[c] for c in hand], money=data.money[p], unseen=[names[c] for c in unseen])
                )
            else:
                known = [names[c] for c in data.known[p]]
                seats.append(SeatPosition(hand=len(hand), money=data.money[p], known=known))
        seas = []
        for sea in data.seas:
            voyages = [
                VoyagePosition(
                    seat=plaque.seat,
                    second=plaque.voyage == 1,
                    ships=[names[c] for c in plaque.ships],
                    loan=plaque.loan,
                )
                for plaque in sea.plaques
                if plaque.seat is not None
            ]
            seas.append(SeaPosition(stars=sea.stars, voyages=voyages))
        over = data.phase == "over"
        position = AtlanticStarPosition(
            seat=seat,
            seats=seats,
            agency=[names[c] for c in data.agency if c is not None],
            pack=[names[c] for c in reversed(data.deck)] if seat is None else len(data.deck),
            discard=[names[c] for c in data.discard],
            seas=seas,
            to_move=None if over else data.current_player,
            phase=data.phase,
            rng=data.rng if seat is None else None,
        )
        # The start player only where the turns taken do not fix it.
        if self._start_candidates(position) != [data.start_player]:
            position = msgspec.structs.replace(position, start_player=data.start_player)
        return position

    # ------------------------------------------------------------------ checking

    def problems(self, position: AtlanticStarPosition) -> list[str]:
        """Every problem of ``position``, in the game's terms."""
        try:
            problems = self._check(position).problems
        except (TypeError, AttributeError, ValueError, KeyError, IndexError, OverflowError):
            # A Struct built in Python with values of the wrong types: the schema names
            # them (with the types right the checks do not raise, so re-raise then).
            schema_problems = self._schema_problems(position)
            if not schema_problems:
                raise
            return schema_problems
        # What the checks may not reach (a bound of the schema the game's terms do not
        # name): the schema's own check, so a sound description is always a valid one.
        return problems or self._schema_problems(position)

    @staticmethod
    def _schema_problems(position: AtlanticStarPosition) -> list[str]:
        try:
            msgspec.convert(msgspec.to_builtins(position), type=AtlanticStarPosition, strict=True)
        except (msgspec.ValidationError, TypeError) as exc:
            return [f"not a description: {exc}"]
        return []

    def _check(self, pos: AtlanticStarPosition) -> _Facts:
        facts = _Facts()
        out = facts.problems
        game = self.game
        N = game.num_players
        view = pos.seat
        if view is not None and not 0 <= view < N:
            out.append(f"the view is seat {view}'s, but seats are 0 to {N - 1}")
            view = None
        if len(pos.seats) != N:
            out.append(f"the description has {len(pos.seats)} seats: this game has {N} players")
        if len(pos.seas) != 4:
            out.append(f"the board has four seas, not {len(pos.seas)}")
        if len(pos.agency) != 4:
            out.append(f"the agency offers four ships, one a space, not {len(pos.agency)} (A12)")
        if pos.rng is not None and pos.seat is not None:
            out.append("a seat's view has no generator state (rng): only the whole table does")
        if pos.rng is not None and not re.fullmatch(r"[0-9a-f]{16}", str(pos.rng)):
            out.append(f"the generator state is 16 lower-case hex digits, not {pos.rng!r}")
        self._check_places(pos, view, facts)
        if len(pos.seats) != N or len(pos.seas) != 4:
            return facts  # the rest is per seat and per sea
        self._check_seas(pos, facts)
        self._check_seats(pos, view, facts)
        return facts

    def _ship(self, name: str, where: str, facts: _Facts, seen: dict[int, str], shown: bool = True) -> int | None:
        """The id of ship ``name`` lying ``where``, recorded as seen there (and, unless it
        is only remembered, as lying open); None (and a problem) for a name no ship has or
        a ship seen twice."""
        ship = self._ids.get(name)
        if ship is None:
            facts.problems.append(f"no ship is named {name!r} ({where})")
            return None
        if shown:
            facts.shown.add(ship)
        if ship in seen:
            facts.problems.append(f"{name} is both {seen[ship]} and {where}")
            return None
        seen[ship] = where
        facts.ids[name] = ship
        return ship

    def _check_places(self, pos: AtlanticStarPosition, view: int | None, facts: _Facts) -> None:
        """Every ship in one place: in a hand, the agency, the pack, the discard pile or on
        a plaque; a seat's view sees its hand, the agency, the discard pile and the board,
        and the other hands and the pack hold exactly the ships it cannot see."""
        out = facts.problems
        seen: dict[int, str] = {}
        hidden_count = 0
        for p, seat in enumerate(pos.seats):
            if isinstance(seat.hand, int):
                if view is None:
                    out.append(f"seat {p}'s hand is a count ({seat.hand}): a whole-table description names every ship")
                elif p == view:
                    out.append(f"seat {p}'s own hand is a count ({seat.hand}): a seat sees its own hand")
                if not 0 <= seat.hand <= HAND_MAX:
                    out.append(f"seat {p} holds {seat.hand} ships: a hand holds 0 to {HAND_MAX}")
                else:
                    hidden_count += seat.hand
                if seat.unseen:
                    out.append(f"seat {p}'s hand is hidden, so none of its ships can be marked unseen")
                self._check_known(p, seat, view, facts, seen)
                continue
            if seat.known:
                out.append(
                    f"seat {p}'s hand is listed, so no ship of it is remembered (known): only a hidden hand "
                    "in a seat's view has remembered ships (the whole table marks unseen ones, A14)"
                )
            if view is not None and p != view:
                out.append(f"seat {p}'s hand is listed, but seat {view}'s view gives the other hands as counts")
            for name in seat.hand:
                self._ship(name, f"in seat {p}'s hand", facts, seen)
            for name in seat.unseen:
                if name not in seat.hand:
                    out.append(f"{name} is marked unseen in seat {p}'s hand, but the hand does not hold it")
            if len(set(seat.unseen)) != len(seat.unseen):
                out.append(f"seat {p}'s unseen ships name a ship twice")
        for price, name in zip(PRICES, pos.agency, strict=False):
            self._ship(name, f"on the agency's {price:,} space" if price else "on the agency's free space", facts, seen)
        if isinstance(pos.pack, int):
            if view is None:
                out.append(f"the pack is a count ({pos.pack}): a whole-table description names every ship")
            if not 0 <= pos.pack <= MAX_SHIPS:
                out.append(f"the pack holds {pos.pack} ships: no ship list has more than {MAX_SHIPS}")
            else:
                hidden_count += pos.pack
        else:
            if view is not None:
                out.append(f"the pack is listed, but seat {view}'s view gives it as a count")
            for name in pos.pack:
                self._ship(name, "in the pack", facts, seen)
        for name in pos.discard:
            self._ship(name, "in the discard pile", facts, seen)
        for s, sea in enumerate(pos.seas[:4]):
            for voyage in sea.voyages:
                where = f"on {_ordinal_voyage(voyage.seat, voyage.second, s)}'s plaque"
                for name in voyage.ships:
                    self._ship(name, where, facts, seen)
        ships = self.game.ships.ships
        if view is None:
            missing = [ships[c].name for c in range(len(ships)) if c not in seen]
            if missing and not isinstance(pos.pack, int):
                are = "is" if len(missing) == 1 else "are"
                out.append(
                    f"{_names(missing)} {are} nowhere: every ship lies in a hand, the agency, the pack, "
                    "the discard pile or on a plaque"
                )
        else:
            # The remembered ships lie in the hidden hands: the seat cannot see them now.
            unseen = len(ships) - len(facts.shown)
            if unseen != hidden_count:
                out.append(
                    f"seat {view} cannot see {unseen} ships (the ones not in its hand, the agency, the discard "
                    f"pile or on the board), but the other hands and the pack hold {hidden_count}"
                )

    def _check_known(self, p: int, seat: SeatPosition, view: int | None, facts: _Facts, seen: dict[int, str]) -> None:
        """The ships the viewing seat remembers in seat ``p``'s hidden hand (A14): each a
        ship, once, lying nowhere else, no more of them than the hand holds."""
        out = facts.problems
        if not seat.known:
            return
        who = f"seat {view}" if view is not None else "a seat"
        if isinstance(seat.hand, int) and 0 <= seat.hand < len(seat.known):
            out.append(f"{who} remembers {len(seat.known)} ships in seat {p}'s hand, but that hand holds {seat.hand}")
        named: set[str] = set()
        for name in seat.known:
            if name in named:
                out.append(f"{name} is remembered twice in seat {p}'s hand")
                continue
            named.add(name)
            self._ship(name, f"remembered in seat {p}'s hand", facts, seen, shown=False)

    def _check_seas(self, pos: AtlanticStarPosition, facts: _Facts) -> None:
        """Each sea's class and voyages: ships per leg, loans, order of value (A1-A7)."""
        out = facts.problems
        game = self.game
        N = game.num_players
        sets = game.sets
        ops = game.num_operators
        classes: dict[int, int] = {}
        for s, sea in enumerate(pos.seas):
            name = SEAS[s]
            rows: list[tuple[int, int, list[int], int, int]] = []
            facts.voyages.append(rows)
            if sea.stars is not None:
                if not 1 <= sea.stars <= 5:
                    out.append(f"the {name}'s class has {sea.stars} stars: classes have 1 to 5")
                elif sea.stars in classes:
                    out.append(f"the {SEAS[classes[sea.stars]]} and the {name} are both in the {sea.stars}★ class")
                else:
                    classes[sea.stars] = s
            if not sea.voyages:
                if sea.stars is not None:
                    out.append(f"the {name} has a class ({sea.stars}★) but no voyage: its first voyage chooses it")
                continue
            if sea.stars is None:
                out.append(f"the {name} has voyages but no class")
            if len(sea.voyages) + ops > FIELDS:
                with_ops = f" and {ops} package operator plaque{'s' if ops > 1 else ''} (A3)" if ops else ""
                out.append(f"the {name} has {len(sea.voyages)} voyages{with_ops}: a class has six fields")
            per_seat: dict[int, list[VoyagePosition]] = {}
            for voyage in sea.voyages:
                if not 0 <= voyage.seat < N:
                    out.append(f"a {name} voyage is seat {voyage.seat}'s, but seats are 0 to {N - 1}")
                    continue
                per_seat.setdefault(voyage.seat, []).append(voyage)
            for p, mine in per_seat.items():
                if len(mine) > sets:
                    times = "once" if sets == 1 else "twice"
                    out.append(
                        f"seat {p} has {len(mine)} {name} voyages: with {N} players a seat sails each sea {times}"
                    )
                elif sets == 1 and mine[0].second:
                    out.append(f"{_ordinal_voyage(p, True, s)}: with {N} players a seat sails each sea once")
                elif len(mine) == 1 and mine[0].second:
                    out.append(f"{_ordinal_voyage(p, True, s)} has no first {name} voyage before it")
                elif len(mine) == 2 and mine[0].second == mine[1].second:
                    out.append(f"seat {p}'s two {name} voyages: one (and only one) is its second")
                if sum(1 for voyage in mine if voyage.loan) > 1:
                    out.append(f"seat {p} borrowed against both its {name} voyages: a seat borrows once per sea")
            previous: tuple[int, str] | None = None
            for voyage in sea.voyages:
                valued = self._voyage(s, voyage, facts)
                if valued is None:
                    previous = None
                    continue
                rows.append(valued)
                label = _ordinal_voyage(voyage.seat, voyage.second, s)
                value = valued[3]
                if previous is not None and value > previous[0]:
                    out.append(
                        f"{label} (value {value}) is listed below {previous[1]} (value {previous[0]}): "
                        "a sea's voyages go top field first, by value (A7)"
                    )
                previous = (value, label)
            if len(sea.voyages) + ops == FIELDS and sea.voyages and all(v.loan for v in sea.voyages):
                out.append(
                    f"the {name}'s six fields are full and every voyage there carries a loan, but no loan is "
                    "taken in a full class, so the voyage that filled it carries none"
                )

    def _voyage(self, s: int, voyage: VoyagePosition, facts: _Facts) -> tuple[int, int, list[int], int, int] | None:
        """(seat, voyage index, ships by leg, value, loan) of a voyage; None (and the
        problems) where its ships or its loan are wrong."""
        out = facts.problems
        legs = LEGS[s]
        label = _ordinal_voyage(voyage.seat, voyage.second, s)
        ok = True
        if len(voyage.ships) != legs:
            out.append(f"{label} has {len(voyage.ships)} ships: a {SEAS[s]} voyage has {legs} legs, a ship each (A1)")
            ok = False
        loan = voyage.loan
        if not (0 <= loan <= MAX_LOAN and loan % 1000 == 0):
            out.append(f"{label} carries a loan of {loan:,}: a loan is 1,000 to 10,000 marks in steps of 1,000")
            ok = False
        ids = [self._ids.get(name) for name in voyage.ships]
        if not ok or None in ids or len(set(voyage.ships)) != legs:
            return None
        ships = [c for c in ids if c is not None]
        worth, by_leg = self._worth(s, ships)
        if loan // 1000 > worth:
            out.append(
                f"{label} is worth {worth} points: a loan against it is at most {_marks(worth * 1000)}, "
                f"not {_marks(loan)} (the loan may not exceed the voyage's value)"
            )
            return None
        return (voyage.seat, 1 if voyage.second else 0, by_leg, worth - loan // 1000, loan)

    def _worth(self, s: int, ships: list[int]) -> tuple[int, list[int]]:
        """What ``ships`` are worth in sea ``s`` (A5), and the ships by leg: as given when
        that order is an optimal assignment, else the engine's optimal one (A10)."""
        key = (s, *ships)
        known = self._worths.get(key)
        if known is not None:
            return known[0], list(known[1])
        rules = self.game.rules
        worth, _bonus, by_leg = self.game._scratch.value_of(ships, s)
        legs = len(ships)
        scores = [int(rules.ship_value(c, s, leg)) for leg, c in enumerate(ships)]
        as_given = sum(scores) + (legs if all(scores) else 0)
        result = (int(worth), tuple(ships) if as_given == worth else tuple(int(c) for c in by_leg))
        if len(self._worths) >= 4096:  # a bound: hostile input cannot grow it
            self._worths.clear()
        self._worths[key] = result
        return result[0], list(result[1])

    def _check_seats(self, pos: AtlanticStarPosition, view: int | None, facts: _Facts) -> None:
        """Hands and money against the voyages staged, the discard pile against the money
        spent, and the phase and turn against the turns each seat has had (A6, A8, A9)."""
        out = facts.problems
        game = self.game
        N = game.num_players
        total = 4 * game.sets
        staged = [0] * N
        loans = [0] * N  # seas borrowed in
        credit = [int(game.rules.start_money) * 1000] * N
        turns = [0] * N
        sailed = [[0] * 4 for _ in range(N)]
        for s, rows in enumerate(facts.voyages):
            for p, _k, _ships, _value, loan in rows:
                staged[p] += 1
                sailed[p][s] += 1
                turns[p] += LEGS[s] + 1  # its ships' charters and the voyage's own turn
                if loan:
                    loans[p] += 1
                    credit[p] += loan
        left = [total - staged[p] for p in range(N)]
        sizes = [seat.hand if isinstance(seat.hand, int) else len(seat.hand) for seat in pos.seats]
        spent = 0
        over = pos.phase == "over"
        for p, seat in enumerate(pos.seats):
            turns[p] += sizes[p]
            to_sail = [s for s in range(4) if sailed[p][s] < game.sets]
            if left[p] > 0 and to_sail:
                limit = max(LEGS[s] for s in to_sail) + 2
                if sizes[p] > limit:
                    out.append(
                        f"seat {p} holds {sizes[p]} ships: with the {_names([SEAS[s] for s in to_sail])} "
                        f"left to sail it holds at most {limit} (A6)"
                    )
            elif sizes[p] > 2:
                out.append(f"seat {p} holds {sizes[p]} ships: it has staged all its voyages, so at most 2 (A6)")
            money = seat.money
            if not (0 <= money <= MAX_MONEY and money % 1000 == 0):
                out.append(f"seat {p} holds {money:,} marks: money is 0 to {MAX_MONEY:,} in thousands")
                continue
            if money > credit[p]:
                out.append(
                    f"seat {p} holds {_marks(money)}, more than its starting capital and loans "
                    f"({_marks(credit[p])}): loans are the only income"
                )
            spent += credit[p] - money
            if over and seat.unseen:
                out.append(f"once the game is over every hand is shown: no ship of seat {p}'s hand is unseen (A14)")
        discarded = len(pos.discard)
        if discarded % 4:
            out.append(f"the discard pile holds {discarded} ships: refreshes discard four at a time (A11)")
        elif discarded and discarded // 4 * 2000 > spent:
            out.append(
                f"the discard pile holds {discarded // 4} refreshes' ships, but the seats have spent only "
                f"{_marks(spent)} in all: a refresh costs 2,000"
            )
        for p in range(N):
            if staged[p] and loans[p] == staged[p] and left[p] == 0:
                out.append(
                    f"seat {p} borrowed against every voyage it staged, but its last voyage was its last turn, "
                    "so that one carries no loan (A9)"
                )
        self._check_turn(pos, facts, left, loans, staged, credit, sizes, turns)

    def _check_turn(
        self,
        pos: AtlanticStarPosition,
        facts: _Facts,
        left: list[int],
        loans: list[int],
        staged: list[int],
        credit: list[int],
        sizes: list[int],
        turns: list[int],
    ) -> None:
        """The phase and the seat to move; the start player (given or derived, A9)."""
        out = facts.problems
        N = self.game.num_players
        phase = pos.phase
        cur = pos.to_move
        done = all(n == 0 for n in left)
        if phase not in ("loan", "agency", "over"):
            out.append(f"the phase is 'loan', 'agency' or 'over', not {phase!r}")
            return
        if pos.start_player is not None and not 0 <= pos.start_player < N:
            out.append(f"the start player is seat {pos.start_player}, but seats are 0 to {N - 1}")
            return
        if phase == "over":
            if not done:
                waiting = [p for p in range(N) if left[p]]
                seats = _names([f"seat {p}" for p in waiting])
                out.append(
                    f"the game is over only when every plaque is on the board, but {seats} "
                    f"still {'has' if len(waiting) == 1 else 'have'} voyages to stage (A8)"
                )
            if cur is not None:
                out.append(f"the game is over, so no seat is to move (seat {cur} is named)")
            if pos.start_player is None:
                out.append("once the game is over the turns no longer show who started: name the start player")
            facts.start = pos.start_player if pos.start_player is not None else 0
            return
        if done:
            out.append("every plaque is on the board, so the game is over: the phase is 'over' (A8)")
            return
        if cur is None:
            out.append("the game goes on, so a seat is to move")
            return
        if not 0 <= cur < N:
            out.append(f"seat {cur} is to move, but seats are 0 to {N - 1}")
            return
        if left[cur] == 0:
            out.append(f"seat {cur} is to move, but it has staged all its voyages and takes no more turns (A9)")
            return
        if phase == "agency" and not loans[cur] and credit[cur] - pos.seats[cur].money < 2000:
            out.append(
                f"seat {cur} is in the 'agency' phase, which follows a loan or a refresh in the turn, "
                "but it has borrowed nothing and spent less than 2,000 marks"
            )
        for p in range(N):
            if staged[p] and loans[p] == staged[p] and sizes[p] == 0 and (p != cur or phase != "agency"):
                out.append(
                    f"seat {p} borrowed against every voyage it staged and holds no ship, so it has had no "
                    "turn since its last voyage to borrow against it (A9)"
                )
        fits = self._fitting_starts(cur, turns, left)
        given = pos.start_player
        told = ", ".join(f"seat {p}: {turns[p]}" for p in range(N))
        if not fits:
            out.append(
                f"the turns taken do not fit (a seat's turns: its ships in hand, and each voyage's ships "
                f"and its turn): {told}; with seat {cur} to move, the seats from the start player up to it "
                "have had one turn more than it, the others as many (A9)"
            )
        elif given is not None and given not in fits:
            out.append(
                f"seat {given} cannot have started: with seat {cur} to move and the turns taken ({told}), "
                f"the start player is {_names([f'seat {p}' for p in fits]).replace(' and ', ' or ')} (A9)"
            )
        elif given is None and len(fits) > 1:
            out.append(
                f"the turns taken ({told}) fit {_names([f'seat {p}' for p in fits]).replace(' and ', ' or ')} "
                "as the start player: name it"
            )
        else:
            facts.start = given if given is not None else fits[0]

    def _fitting_starts(self, cur: int, turns: list[int], left: list[int]) -> list[int]:
        """The start players the turns taken fit, with ``cur`` to move (A9): the seats from
        the start player up to ``cur`` have had one turn more than it, the others as many,
        a seat that is done at most that."""
        N = self.game.num_players
        fits = []
        for start in range(N):
            before = (cur - start) % N
            ok = True
            for p in range(N):
                expect = turns[cur] + 1 if (p - start) % N < before else turns[cur]
                if turns[p] > expect or (left[p] and turns[p] != expect):
                    ok = False
                    break
            if ok:
                fits.append(start)
        return fits

    def _start_candidates(self, position: AtlanticStarPosition) -> list[int]:
        """The start players a sound description's turns fit (none once the game is over)."""
        facts = _Facts()
        self._check_places(position, position.seat, facts)
        self._check_seas(position, facts)
        if position.phase == "over" or position.to_move is None:
            return []
        N = self.game.num_players
        total = 4 * self.game.sets
        turns = [seat.hand if isinstance(seat.hand, int) else len(seat.hand) for seat in position.seats]
        left = [total] * N
        for s, rows in enumerate(facts.voyages):
            for p, *_ in rows:
                turns[p] += LEGS[s] + 1
                left[p] -= 1
        return self._fitting_starts(position.to_move, turns, left)

    # ------------------------------------------------------------------ building

    def complete(self, position: AtlanticStarPosition, rng_state: int) -> AtlanticStarPosition:
        """The seat's view with the other hands and the pack filled: each hidden hand holds
        the ships the seat remembers in it (known to every seat, A14) and, marked unseen,
        ships it cannot see, in ship id order; ``from_position`` then deals those and the
        pack anew with ``resample`` keeping the remembered ones. Once the game is over every
        hand is shown (A14), so the unremembered ships are dealt here, at random from
        ``rng_state``, and the whole hand is known."""
        ships = self.game.ships.ships
        visible = {name for seat in position.seats if isinstance(seat.hand, list) for name in seat.hand}
        visible.update(name for seat in position.seats for name in seat.known)
        visible.update(position.agency, position.discard)
        visible.update(name for sea in position.seas for voyage in sea.voyages for name in voyage.ships)
        hidden = [ship.name for ship in ships if ship.name not in visible]
        over = position.phase == "over"
        if over:
            random.Random(rng_state).shuffle(hidden)
        seats = []
        at = 0
        for seat in position.seats:
            if isinstance(seat.hand, int):
                dealt = hidden[at : at + seat.hand - len(seat.known)]
                at += len(dealt)
                hand = [*seat.known, *dealt]
                seats.append(SeatPosition(hand=hand, money=seat.money, unseen=[] if over else dealt))
            else:
                seats.append(seat)
        start = self._check(position).start
        return msgspec.structs.replace(position, seat=None, seats=seats, pack=hidden[at:], start_player=start)

    def snapshot(self, position: AtlanticStarPosition, rng_state: int) -> AtlanticStarStateData:
        """The snapshot of a sound whole-table description: the operators' plaques placed,
        the voyages' ships by leg and values, the start player derived."""
        game = self.game
        facts = self._check(position)
        ids = self._ids
        seas = []
        for s, sea in enumerate(position.seas):
            plaques = [
                Plaque(seat=p, voyage=k, value=value, loan=loan, ships=by_leg)
                for p, k, by_leg, value, loan in facts.voyages[s]
            ]
            if plaques:
                # The operators enter with the first voyage and stand above equal values (A3, A7).
                for j in range(game.num_operators):
                    worth = int(game.rules.operator_value(j, s))
                    at = next((i for i, plaque in enumerate(plaques) if plaque.value <= worth), len(plaques))
                    plaques.insert(at, Plaque(operator=j, value=worth))
            seas.append(SeaData(stars=sea.stars, plaques=plaques))
        hands = [sorted(ids[name] for name in seat.hand) for seat in position.seats if isinstance(seat.hand, list)]
        known = [
            sorted(ids[name] for name in seat.hand if name not in seat.unseen)
            for seat in position.seats
            if isinstance(seat.hand, list)
        ]
        pack = position.pack if isinstance(position.pack, list) else []
        over = position.phase == "over"
        return AtlanticStarStateData(
            schema_version=3,
            game="atlantic_star",
            players=game.num_players,
            ship_list=game.ships.digest,
            board=[list(column) for column in game.board],
            rng=position.rng if position.rng is not None else f"{rng_state & 0xFFFFFFFFFFFFFFFF:016x}",
            phase=position.phase,
            start_player=facts.start,
            current_player=-1 if over or position.to_move is None else position.to_move,
            money=[seat.money for seat in position.seats],
            hands=hands,
            known=known,
            agency=[ids[name] for name in position.agency],
            deck=[ids[name] for name in reversed(pack)],
            discard=[ids[name] for name in position.discard],
            seas=seas,
        )

    # ------------------------------------------------------------------ the compact text

    def _label_list(self, names: list[str], marked: list[str] | None = None) -> str:
        """Ships' labels joined by ``,`` (``~`` before an unseen one), or ``-`` for none."""
        marked = marked or []
        if not names:
            return "-"
        ids = self._ids
        return ",".join(
            ("~" if name in marked else "") + (self._labels[ids[name]] if name in ids else name) for name in names
        )

    def text(self, position: AtlanticStarPosition) -> str:
        """The one-line text: seas, agency, pack, discard pile, hands, money, seat to move,
        phase, start player, view, generator state (docs/atlantic_star.md)."""
        seas = []
        for sea in position.seas:
            if sea.stars is None and not sea.voyages:
                seas.append("-")
                continue
            plaques = []
            for voyage in sea.voyages:
                loan = f"-{voyage.loan // 1000}k" if voyage.loan % 1000 == 0 else f"-{voyage.loan}"
                loan = loan if voyage.loan else ""
                owner = f"{voyage.seat}'" if voyage.second else str(voyage.seat)
                plaques.append(f"{owner}={self._label_list(voyage.ships)}{loan}")
            seas.append(f"{sea.stars if sea.stars is not None else '?'}*:" + ";".join(plaques))
        hands = [
            (f"?{seat.hand}" + (f":{self._label_list(seat.known)}" if seat.known else ""))
            if isinstance(seat.hand, int)
            else self._label_list(seat.hand, seat.unseen)
            for seat in position.seats
        ]
        pack = f"?{position.pack}" if isinstance(position.pack, int) else self._label_list(position.pack)
        return " ".join(
            [
                "/".join(seas),
                self._label_list(position.agency),
                pack,
                self._label_list(position.discard),
                "/".join(hands),
                "/".join(
                    f"{seat.money // 1000}k" if seat.money % 1000 == 0 else str(seat.money) for seat in position.seats
                ),
                "-" if position.to_move is None else str(position.to_move),
                position.phase,
                "-" if position.start_player is None else str(position.start_player),
                "-" if position.seat is None else str(position.seat),
                position.rng or "-",
            ]
        )

    def read(self, text: str) -> AtlanticStarPosition:
        """The description of a compact text; InvalidPositionError naming what is wrong."""
        problems: list[str] = []
        fields = text.split()
        names = (
            "seas",
            "agency",
            "pack",
            "discard pile",
            "hands",
            "money",
            "seat to move",
            "phase",
            "start player",
            "view",
            "generator state",
        )
        if len(fields) != len(names):
            problems.append(
                f"a position text has {len(names)} fields separated by spaces ({', '.join(names)}), not {len(fields)}"
            )
            raise InvalidPositionError(problems, f"{self.game.title} position")
        seas_f, agency_f, pack_f, discard_f, hands_f, money_f, move_f, phase_f, start_f, view_f, rng_f = fields
        seas = self._read_seas(seas_f, problems)
        agency = self._read_ships(agency_f, "the agency", problems)
        pack: list[str] | int = (
            self._read_count(pack_f[1:], "the pack", problems)
            if pack_f.startswith("?")
            else (self._read_ships(pack_f, "the pack", problems))
        )
        discard = self._read_ships(discard_f, "the discard pile", problems)
        hand_items = hands_f.split("/")
        money_items = money_f.split("/")
        if len(hand_items) != len(money_items):
            problems.append(f"the text lists {len(hand_items)} hands but {len(money_items)} seats' money")
        if len(hand_items) != self.game.num_players:
            problems.append(f"the text lists {len(hand_items)} hands: this game has {self.game.num_players} players")
        seats = []
        for p, (hand_text, money_text) in enumerate(zip(hand_items, money_items, strict=False)):
            hand: list[str] | int
            unseen: list[str] = []
            known: list[str] = []
            if hand_text.startswith("?"):
                count_text, marked, known_text = hand_text[1:].partition(":")
                hand = self._read_count(count_text, f"seat {p}'s hand", problems)
                if marked:
                    known = [
                        self._read_label(label, f"remembered in seat {p}'s hand", problems)
                        for label in known_text.split(",")
                    ]
            else:
                hand = []
                for label in [] if hand_text == "-" else hand_text.split(","):
                    name = self._read_label(label.removeprefix("~"), f"seat {p}'s hand", problems)
                    hand.append(name)
                    if label.startswith("~"):
                        unseen.append(name)
            money = self._read_money(money_text, p, problems)
            seats.append(SeatPosition(hand=hand, money=money, unseen=unseen, known=known))
        to_move = None if move_f == "-" else self._read_seat(move_f, "the seat to move", problems)
        if phase_f not in ("loan", "agency", "over"):
            problems.append(f"the phase is 'loan', 'agency' or 'over', not {phase_f!r}")
        start = None if start_f == "-" else self._read_seat(start_f, "the start player", problems)
        seat = None if view_f == "-" else self._read_seat(view_f, "the view", problems)
        if rng_f != "-" and not re.fullmatch(r"[0-9a-f]{16}", rng_f):
            problems.append(f"the generator state is '-' or 16 lower-case hex digits, not {rng_f[:40]!r}")
        if problems:
            raise InvalidPositionError(problems, f"{self.game.title} position")
        return AtlanticStarPosition(
            seat=seat,
            seats=seats,
            agency=agency,
            pack=pack,
            discard=discard,
            seas=seas,
            to_move=to_move,
            phase=phase_f,  # type: ignore[arg-type]  # checked above
            start_player=start,
            rng=None if rng_f == "-" else rng_f,
        )

    def _read_label(self, label: str, where: str, problems: list[str]) -> str:
        """The ship's name a label gives (its name, any case, ``_`` for a space; or ``#id``)."""
        ships = self.game.ships.ships
        if label.startswith("#") and label[1:].isdigit() and len(label) <= 4 and int(label[1:]) < len(ships):
            return str(ships[int(label[1:])].name)
        ship = self._by_label.get(label.casefold())
        if ship is None:
            problems.append(f"no ship is labelled {label[:40]!r} ({where})")
            return label[:40] or "?"
        return str(ships[ship].name)

    def _read_ships(self, text: str, where: str, problems: list[str]) -> list[str]:
        if text == "-":
            return []
        return [self._read_label(label, where, problems) for label in text.split(",")]

    @staticmethod
    def _read_count(text: str, where: str, problems: list[str]) -> int:
        if not text.isdigit() or len(text) > 3 or int(text) > MAX_SHIPS:
            problems.append(f"{where} holds '?N' hidden ships, N a number 0 to {MAX_SHIPS}, not '?{text[:20]}'")
            return 0
        return int(text)

    @staticmethod
    def _read_money(text: str, seat: int, problems: list[str]) -> int:
        digits = text.removesuffix("k")
        if not digits.isdigit() or len(digits) > 6:
            problems.append(f"seat {seat}'s money is thousands of marks ('18k') or marks ('18000'), not {text[:20]!r}")
            return 0
        amount = int(digits) * (1000 if text.endswith("k") else 1)
        if amount > MAX_MONEY or amount % 1000:
            problems.append(f"seat {seat}'s money is 0 to {MAX_MONEY:,} marks in thousands, not {amount:,}")
            return 0
        return amount

    def _read_seat(self, text: str, what: str, problems: list[str]) -> int | None:
        N = self.game.num_players
        if not text.isdigit() or len(text) > 1 or int(text) >= N:
            problems.append(f"{what} is a seat 0 to {N - 1} or '-', not {text[:20]!r}")
            return None
        return int(text)

    def _read_seas(self, text: str, problems: list[str]) -> list[SeaPosition]:
        """``-`` or ``<stars>*:<plaque>;...`` per sea, ``/`` between seas; a plaque is
        ``<seat>['']=<ship>,...[-<loan>k]``."""
        items = text.split("/")
        if len(items) != 4:
            problems.append(f"the seas field lists four seas separated by '/', not {len(items)}")
            return [SeaPosition() for _ in range(4)]
        seas = []
        for s, item in enumerate(items):
            name = SEAS[s]
            if item == "-":
                seas.append(SeaPosition())
                continue
            match = re.fullmatch(r"([1-5])\*:(.*)", item)
            if match is None:
                problems.append(
                    f"the {name} is '-' or '<stars>*:<voyages>' (e.g. '3*:0=Aurora,Hera,Rhea'), not {item[:60]!r}"
                )
                seas.append(SeaPosition())
                continue
            voyages = []
            for plaque in match.group(2).split(";") if match.group(2) else []:
                found = re.fullmatch(r"([0-5])(')?=([^=]*?)(?:-(\d{1,5})(k)?)?", plaque)
                if found is None:
                    problems.append(
                        f"a {name} voyage is '<seat>=<ships>' with \"'\" after the seat for its second voyage "
                        f"and '-<n>k' for a loan (e.g. \"1'=Aurora,Hera,Rhea-2k\"), not {plaque[:60]!r}"
                    )
                    continue
                seat_text, second, ships_text, loan_text, thousands = found.groups()
                where = f"seat {seat_text}'s {name} voyage"
                ships = self._read_ships(ships_text, where, problems) if ships_text else []
                loan = int(loan_text) * (1000 if thousands else 1) if loan_text else 0
                if loan > MAX_LOAN:
                    problems.append(f"{where} carries a loan of {loan:,}: a loan is at most 10,000 marks")
                    loan = 0
                voyages.append(VoyagePosition(seat=int(seat_text), second=bool(second), ships=ships, loan=loan))
            seas.append(SeaPosition(stars=int(match.group(1)), voyages=voyages))
        return seas
