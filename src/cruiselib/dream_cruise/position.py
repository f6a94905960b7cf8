"""Dream Cruise positions from descriptions (docs/dream_cruise.md, "Setting up a position").

A description (:class:`DreamCruisePosition`) says where every card, figure and captain
lies, by the cards' printed names: each seat's cabins and the figures still on their
family cards, its additions, its current location card with the activity cards, guests and
captain on it, the location cards it kept in earlier rounds, its points pile, hand and
drawn cards; the display of phase 3; the decks (bottom first), discard piles and the box;
in solo, Jana's pile and location cards; the phase, the seat to act and the start player.

What play alone fixes is derived: the round (every earlier round kept one location card
per seat for good, C4), how many seats decided in this phase, whether this round is the
last (C8, C16, C20). What cannot be derived is asked for: the seat this round's turn order
started from when the face-down set changed the start player (C19), and the generator
state (optional). A seat's view gives hidden zones as counts; :meth:`complete` fills them
with the cards that seat cannot see. It also gives what the seat remembers (C26): each
hand's cards that every seat saw taken face up (``known``), which the deal keeps in their
hands (``recall``).

:class:`DreamCruisePositions` checks a description with the rules the snapshot loader
applies (``cruiselib._core.dream_cruise_snapshot``), each problem named in the game's terms
and all of them at once, and writes the compact one-line text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec
from msgspec import Meta

from cruiselib.dream_cruise.cards import CABINS, LETTERS
from cruiselib.dream_cruise.moves import OPEN_SEA, SPOT_NAMES
from cruiselib.dream_cruise.schema import SCHEMA_VERSION, DreamCruiseStateData, Phase, SeatData, SetData
from cruiselib.errors import InvalidPositionError
from cruiselib.positions import PositionRules
from cruiselib.serialize import RngText

if TYPE_CHECKING:
    from cruiselib.dream_cruise.game import DreamCruiseGame, DreamCruiseState

__all__ = [
    "AdditionSpace",
    "CabinSeat",
    "DisplaySetPosition",
    "DreamCruisePosition",
    "DreamCruisePositions",
    "JanaPosition",
    "SeatPosition",
]

CardName = Annotated[str, Meta(min_length=1, max_length=40, description="a card's printed name")]
CabinName = Literal["inner", "oceanview", "balcony"]
SpotName = Literal["location top", "location bottom", "second sea slot"]
Guests = Annotated[
    list[CabinName], Meta(max_length=3, description="the cabins (figure colours) whose guests are on this activity")
]
SeatNumber = Annotated[int, Meta(ge=0, le=3)]
Count = Annotated[int, Meta(ge=0, le=96, description="how many cards lie here unseen")]
Cards = Annotated[list[CardName], Meta(max_length=96)]

_PHASES: tuple[str, ...] = ("boarding", "set_course", "entertainment", "set_sail", "over")
_CABIN_LETTER = "iob"  # the compact board's cabin letters (inner, oceanview, balcony)
_KIND_WORDS = ("family", "location card", "ship card")
_PLURALS = ("families", "location cards", "ship cards")


class CabinSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One cabin space of a ship board: the family on it (None: empty) and how many of its
    members still wait on the family card (figures not yet sent to an activity)."""

    family: CardName | None = None
    waiting: Annotated[int, Meta(ge=0, le=6)] = 0


class AdditionSpace(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One addition space of a ship board: the addition built there (None: free) and the
    cabins whose guests are on it."""

    card: CardName | None = None
    guests: Guests = []


class SeatPosition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One seat's ship board, play area, points pile, hand and drawn cards."""

    cabins: Annotated[list[CabinSeat], Meta(min_length=3, max_length=3, description="inner, oceanview, balcony")]
    additions: Annotated[list[AdditionSpace], Meta(min_length=1, max_length=4, description="per addition space")]
    location: CardName | None = None
    """This round's location card (None: not chosen yet, or none could be drawn, C16)."""
    top_guests: Guests = []
    """Guests on the location card's top activity."""
    bottom_card: CardName | None = None
    """The activity card covering a shore card's bottom, or in a sea card's first slot."""
    bottom_guests: Guests = []
    """Guests on that activity card, or on a shore card's printed bottom activity."""
    second_card: CardName | None = None
    """The activity card in a sea card's second slot."""
    second_guests: Guests = []
    captain: SpotName | None = None
    """Where the captain stands (None: on the bridge)."""
    earlier_locations: Annotated[
        list[CardName], Meta(max_length=64, description="the location cards kept in earlier rounds, in order (C4)")
    ] = []
    points_pile: Annotated[list[CardName], Meta(max_length=64)] = []
    hand: Annotated[Cards | Count, Meta(description="ship cards; in another seat's view, how many")] = []
    known: Annotated[
        Cards,
        Meta(
            description="the hand cards every seat saw this seat take face up (C26); in another seat's view, "
            "remembered: they are among the counted hand"
        ),
    ] = []
    drawn: Annotated[
        Annotated[list[CardName], Meta(max_length=6)] | Annotated[int, Meta(ge=0, le=6)],
        Meta(
            description="families (phase 1) or location cards (phase 2) to choose from; in another seat's view, "
            "how many"
        ),
    ] = []


class DisplaySetPosition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A set of the phase 3 display (set 0 is the face-down one): its cards (how many, in a
    seat's view of an untaken face-down set) and the seat that took it."""

    cards: Annotated[list[CardName], Meta(max_length=2)] | Annotated[int, Meta(ge=0, le=2)] = []
    taken_by: SeatNumber | None = None


class JanaPosition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Jana, the solo rival (C9): her face-down points pile (how many, in the player's view
    before the end, C23) and the location cards given to her."""

    pile: Annotated[list[CardName], Meta(max_length=64)] | Annotated[int, Meta(ge=0, le=64)] = []
    locations: Annotated[list[CardName], Meta(max_length=64)] = []


class DreamCruisePosition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Dream Cruise position: the whole table (``seat`` None) or what one seat sees.

    Cards are named as printed. Decks list bottom first. In a seat's view the cards hidden
    from it are counts: the decks and the box, the other hands and drawn cards, an untaken
    face-down set and Jana's pile (until the end)."""

    seat: SeatNumber | None = None
    """None: the whole table; k: seat k's view."""
    phase: Phase
    to_act: SeatNumber | None
    """The seat whose turn it is (None once the game is over)."""
    start_player: SeatNumber
    """The seat holding the start-player token."""
    order_from: SeatNumber | None = None
    """The seat this round's turn order started from, where the face-down set moved the
    token this round (C19); None: the start player."""
    seats: Annotated[list[SeatPosition], Meta(min_length=1, max_length=4)]
    display: Annotated[list[DisplaySetPosition], Meta(max_length=5, description="phase 3 only")] = []
    family_deck: Cards | Count
    family_discard: Cards = []
    family_box: Annotated[Cards | Count, Meta(description="families out of the game (setup 5, C9)")] = []
    location_deck: Cards | Count
    location_discard: Cards = []
    ship_deck: Cards | Count
    ship_discard: Cards = []
    jana: JanaPosition | None = None
    """Solo only: Jana's table."""
    rng: RngText | None = None
    """The generator state future chance comes from (whole table only)."""


# ---------------------------------------------------------------------- the decoded table

Zone = list[int] | int  # card ids, or a count of unseen cards


@dataclass
class _Seat:
    cabins: list[int]
    waiting: list[int]
    additions: list[int]
    addition_guests: list[list[int]]
    location: int
    slots: list[int]
    spot_guests: list[list[int]]
    captain: int
    earlier: list[int]
    pile: list[int]
    hand: Zone
    known: list[int]
    drawn: Zone


@dataclass
class _Table:
    seat: int | None
    phase: int
    to_act: int | None
    start: int
    first: int
    seats: list[_Seat]
    display: list[tuple[Zone, int]]
    family_deck: Zone
    family_discard: list[int]
    family_box: Zone
    location_deck: Zone
    location_discard: list[int]
    ship_deck: Zone
    ship_discard: list[int]
    jana_pile: Zone
    jana_locations: list[int]
    rng: str | None


def _size(zone: Zone) -> int:
    return zone if isinstance(zone, int) else len(zone)


_SPELLED = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "ß": "ss", "ł": "l", "đ": "d"})


def _label_of(name: str) -> str:
    """A name as one typeable word: accents and symbols dropped, words capitalized
    (``Legs Bums & Tums`` -> ``LegsBumsTums``; a sea card without its ``Open Sea:``)."""
    if name.startswith(OPEN_SEA):
        name = name[len(OPEN_SEA) :]
    name = name.translate(_SPELLED)
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return "".join(word[:1].upper() + word[1:] for word in re.split(r"[^A-Za-z0-9]+", plain))


def _labels(names: list[str], prefix: str) -> list[str]:
    """Each card's label: its name as one word, or ``#<prefix><id>`` where two names (or a
    name and another kind's id form) would read alike."""
    words = [_label_of(n) for n in names]
    seen: dict[str, int] = {}
    for w in words:
        seen[w.lower()] = seen.get(w.lower(), 0) + 1
    return [w if w and seen[w.lower()] == 1 and w[0].isalpha() else f"#{prefix}{i}" for i, w in enumerate(words)]


class DreamCruisePositions(PositionRules[DreamCruisePosition]):
    """Positions of a Dream Cruise game (its options fix the seats, addition spaces and Jana)."""

    position_type = DreamCruisePosition
    recall = True  # a seat's view lists the hand cards every seat saw taken (C26); the deal keeps them

    def __init__(self, game: DreamCruiseGame) -> None:
        super().__init__(game)
        self.dream_cruise = game
        cards = game.cards
        self.n = game.num_players
        self.solo = self.n == 1
        self.nadd = game.additions
        self.nsets = 3 if self.solo else (5 if self.n == 4 else 4)  # C7
        self.deck_size = int(game.rules.deck_size)
        self.families = cards.families
        self.locations = cards.locations
        self.ships = cards.ships
        self.names = (
            [f.name for f in cards.families],
            [x.name for x in cards.locations],
            [s.name for s in cards.ships],
        )
        self.ids = tuple({name: i for i, name in enumerate(names)} for names in self.names)
        self.labels = (_labels(self.names[0], "f"), _labels(self.names[1], "l"), _labels(self.names[2], "s"))
        self.by_label = tuple({label.lower(): i for i, label in enumerate(labels)} for labels in self.labels)
        self.start_letter = [LETTERS.index(f.start) if f.start else -1 for f in cards.families]

    # ------------------------------------------------------------------ describe

    def describe(self, state: DreamCruiseState, seat: int | None) -> DreamCruisePosition:
        """The description of ``state`` (as ``seat`` sees it, with ``seat``)."""
        return self._describe_data(state._to_data(), seat)

    def _describe_data(self, d: DreamCruiseStateData, seat: int | None) -> DreamCruisePosition:
        """The description of a snapshot (as ``seat`` sees it, with ``seat``)."""
        over = d.phase == "over"
        f, lo, s = self.names

        def hidden(p: int) -> bool:
            return seat is not None and p != seat

        seats = []
        for p, sd in enumerate(d.seats):
            played = list(sd.played)
            if sd.location >= 0:
                played.pop()
            drawn_names = self.names[0] if d.phase == "boarding" else self.names[1]
            seats.append(
                SeatPosition(
                    cabins=[
                        CabinSeat(family=f[x] if x >= 0 else None, waiting=w)
                        for x, w in zip(sd.families, sd.figures_left, strict=True)
                    ],
                    additions=[
                        AdditionSpace(card=s[x] if x >= 0 else None, guests=_cabins(g))
                        for x, g in zip(sd.additions, sd.addition_guests, strict=True)
                    ],
                    location=lo[sd.location] if sd.location >= 0 else None,
                    top_guests=_cabins(sd.location_guests[0]),
                    bottom_card=s[sd.activity_cards[0]] if sd.activity_cards[0] >= 0 else None,
                    bottom_guests=_cabins(sd.location_guests[1]),
                    second_card=s[sd.activity_cards[1]] if sd.activity_cards[1] >= 0 else None,
                    second_guests=_cabins(sd.location_guests[2]),
                    captain=_spot_name(sd.captain),
                    earlier_locations=[lo[x] for x in played],
                    points_pile=[f[x] for x in sd.points_pile],
                    hand=len(sd.hand) if hidden(p) else [s[x] for x in sd.hand],
                    known=[s[x] for x in sd.known],
                    drawn=len(sd.drawn)
                    if hidden(p)
                    else [drawn_names[x] for x in (sorted(sd.drawn) if seat is not None else sd.drawn)],
                )
            )
        display = []
        for k, st in enumerate(d.display):
            face_down = seat is not None and k == 0 and st.taken_by < 0
            display.append(
                DisplaySetPosition(
                    cards=len(st.cards) if face_down else [s[x] for x in st.cards],
                    taken_by=st.taken_by if st.taken_by >= 0 else None,
                )
            )
        jana = None
        if self.solo:
            jana = JanaPosition(
                pile=len(d.jana_pile) if seat is not None and not over else [f[x] for x in d.jana_pile],
                locations=[lo[x] for x in d.jana_locations],
            )
        view = seat is not None
        return DreamCruisePosition(
            seat=seat,
            phase=d.phase,
            to_act=None if over else d.current_player,
            start_player=d.start_player,
            order_from=None if d.first_player == d.start_player else d.first_player,
            seats=seats,
            display=display,
            family_deck=len(d.family_deck) if view else [f[x] for x in d.family_deck],
            family_discard=[f[x] for x in d.family_discard],
            family_box=len(d.family_box) if view else [f[x] for x in d.family_box],
            location_deck=len(d.location_deck) if view else [lo[x] for x in d.location_deck],
            location_discard=[lo[x] for x in d.location_discard],
            ship_deck=len(d.ship_deck) if view else [s[x] for x in d.ship_deck],
            ship_discard=[s[x] for x in d.ship_discard],
            jana=jana,
            rng=None if view else d.rng,
        )

    # ------------------------------------------------------------------ problems

    def problems(self, position: DreamCruisePosition) -> list[str]:
        """Every problem of ``position``, in the game's terms (empty: it can be set up)."""
        try:  # a Struct built in Python skips the schema's bounds: check them as JSON does
            msgspec.convert(msgspec.to_builtins(position), type=DreamCruisePosition, strict=True)
        except msgspec.ValidationError as exc:
            return [f"not a description: {exc}"]
        table, problems = self._decode(position)
        if problems:
            return problems
        problems = self._place_problems(table)
        if table.seat is not None:
            # The rest is checked on a deal of the hidden places: one must exist first.
            problems += self._pool_problems(table)
            if problems:
                return problems
            table = self._filled(table)
        return problems + self._position_problems(table)

    def _decode(self, pos: DreamCruisePosition) -> tuple[_Table, list[str]]:
        """The description with card ids for names; the problems of its shape and names."""
        problems: list[str] = []
        n = self.n
        view = pos.seat
        phase = _PHASES.index(pos.phase)
        if len(pos.seats) != n:
            problems.append(f"the description has {len(pos.seats)} seat(s); this game has {n}")
        for what, value in (
            ("the seat whose view it is", view),
            ("the seat to act", pos.to_act),
            ("the start player", pos.start_player),
            ("the seat this round's turn order started from", pos.order_from),
        ):
            if value is not None and value >= n:
                problems.append(f"{what} is seat {value}; this game has seats 0..{n - 1}")
        if (pos.to_act is None) != (pos.phase == "over"):
            problems.append(
                "a finished game has no seat to act" if pos.phase == "over" else "the seat to act is missing"
            )
        if self.solo and pos.jana is None:
            problems.append("a solo game describes Jana's table (C9)")
        if not self.solo and pos.jana is not None:
            problems.append("Jana plays only in the solo game (C9)")
        if view is not None and pos.rng is not None:
            problems.append("a seat's view gives no generator state: what it hides is dealt anew")
        display_wanted = self.nsets if pos.phase == "entertainment" else 0
        if len(pos.display) != display_wanted:
            problems.append(
                f"the display has {len(pos.display)} set(s); in phase {phase + 1} ({pos.phase}) it has "
                f"{display_wanted} (C7)"
            )
        if len(pos.seats) != n:  # nothing more can be read seat by seat
            return _empty_table(), problems

        def ids(kind: int, names: list[str], where: str) -> list[int]:
            out = []
            for name in names:
                x = self.ids[kind].get(name)
                if x is None:
                    problems.append(f"{where} names {name!r}, which is no {_KIND_WORDS[kind]} of this card set")
                else:
                    out.append(x)
            return out

        def one(kind: int, name: str | None, where: str) -> int:
            got = ids(kind, [] if name is None else [name], where)
            return got[0] if got else -1

        def zone(kind: int, value: list[str] | int, where: str, counted: bool) -> Zone:
            """A zone's cards, or its count where it is hidden from the seat whose view it is."""
            if isinstance(value, int) != counted:
                problems.append(
                    f"seat {view} cannot see {where}: its view gives a count, not the cards"
                    if counted
                    else f"the whole table lists {where} card by card, not as a count"
                    if view is None
                    else f"seat {view} sees {where}: its view lists the cards, not a count"
                )
            return value if isinstance(value, int) else ids(kind, value, where)

        seats = []
        for p, sp in enumerate(pos.seats):
            who = f"seat {p}'s"
            own = view is None or view == p
            if len(sp.additions) != self.nadd:
                problems.append(
                    f"{who} ship board has {len(sp.additions)} addition space(s); this game's have {self.nadd} (C6)"
                )
            drawn: Zone = []
            if pos.phase in ("boarding", "set_course"):
                drawn = zone(0 if pos.phase == "boarding" else 1, sp.drawn, f"{who} drawn cards", not own)
            elif sp.drawn:
                problems.append(f"{who} drawn cards lie outside phases 1 and 2")
            seats.append(
                _Seat(
                    cabins=[one(0, c.family, f"{who} {CABINS[k]} cabin") for k, c in enumerate(sp.cabins)],
                    waiting=[c.waiting for c in sp.cabins],
                    additions=[one(2, a.card, f"{who} addition space {j + 1}") for j, a in enumerate(sp.additions)],
                    addition_guests=[
                        _guest_ids(a.guests, f"{who} addition space {j + 1}", problems)
                        for j, a in enumerate(sp.additions)
                    ],
                    location=one(1, sp.location, f"{who} current location"),
                    slots=[
                        one(2, sp.bottom_card, f"{who} location card's bottom"),
                        one(2, sp.second_card, f"{who} location card's second slot"),
                    ],
                    spot_guests=[
                        _guest_ids(sp.top_guests, f"{who} location top", problems),
                        _guest_ids(sp.bottom_guests, f"{who} location bottom", problems),
                        _guest_ids(sp.second_guests, f"{who} second sea slot", problems),
                    ],
                    captain=-1 if sp.captain is None else SPOT_NAMES.index(sp.captain),
                    earlier=ids(1, sp.earlier_locations, f"{who} earlier location cards"),
                    pile=ids(0, sp.points_pile, f"{who} points pile"),
                    hand=zone(2, sp.hand, f"{who} hand", not own),
                    known=ids(2, sp.known, f"{who} known hand cards"),
                    drawn=drawn,
                )
            )
        display: list[tuple[Zone, int]] = []
        for k, ds in enumerate(pos.display):
            counted = view is not None and k == 0 and ds.taken_by is None
            taken = -1 if ds.taken_by is None else ds.taken_by
            if taken >= n:
                problems.append(f"display set {k} is taken by seat {taken}; this game has seats 0..{n - 1}")
            display.append((zone(2, ds.cards, f"display set {k}", counted), taken))
        hidden = view is not None
        over = pos.phase == "over"
        jana = pos.jana or JanaPosition()
        table = _Table(
            seat=view,
            phase=phase,
            to_act=pos.to_act,
            start=pos.start_player,
            first=pos.start_player if pos.order_from is None else pos.order_from,
            seats=seats,
            display=display,
            family_deck=zone(0, pos.family_deck, "the family deck", hidden),
            family_discard=ids(0, pos.family_discard, "the family discard pile"),
            family_box=zone(0, pos.family_box, "the box", hidden),
            location_deck=zone(1, pos.location_deck, "the location deck", hidden),
            location_discard=ids(1, pos.location_discard, "the location discard pile"),
            ship_deck=zone(2, pos.ship_deck, "the ship deck", hidden),
            ship_discard=ids(2, pos.ship_discard, "the ship discard pile"),
            jana_pile=zone(0, jana.pile, "Jana's pile", hidden and not over) if pos.jana and self.solo else [],
            jana_locations=ids(1, jana.locations, "Jana's location cards"),
            rng=pos.rng,
        )
        return table, problems

    def _zones(self, t: _Table) -> list[list[tuple[str, list[int]]]]:
        """Per kind of card, the places the description lists card by card (what a seat's
        view shows), each named as a person at the table would."""
        fam: list[tuple[str, list[int]]] = []
        loc: list[tuple[str, list[int]]] = []
        ship: list[tuple[str, list[int]]] = []
        drawn_kind = fam if t.phase == 0 else loc
        for p, s in enumerate(t.seats):
            who = f"seat {p}'s"
            fam.extend((f"{who} {CABINS[c]} cabin", [x]) for c, x in enumerate(s.cabins) if x >= 0)
            fam.append((f"{who} points pile", s.pile))
            loc.append((f"{who} earlier location cards", s.earlier))
            if s.location >= 0:
                loc.append((f"{who} current location", [s.location]))
            if isinstance(s.drawn, list):
                drawn_kind.append((f"{who} drawn cards", s.drawn))
            ship.extend((f"{who} addition space {j + 1}", [x]) for j, x in enumerate(s.additions) if x >= 0)
            ship.append((f"{who} location card", [x for x in s.slots if x >= 0]))
            if isinstance(s.hand, list):
                ship.append((f"{who} hand", s.hand))
            else:  # a hand the view counts: the cards remembered in it are placed all the same
                ship.append((f"{who} known hand cards", s.known))
        for k, (cards, _) in enumerate(t.display):
            if isinstance(cards, list):
                ship.append((f"display set {k}", cards))
        for name, zone, kind in (
            ("the family deck", t.family_deck, fam),
            ("the family discard pile", t.family_discard, fam),
            ("the box", t.family_box, fam),
            ("Jana's pile", t.jana_pile, fam),
            ("the location deck", t.location_deck, loc),
            ("the location discard pile", t.location_discard, loc),
            ("Jana's location cards", t.jana_locations, loc),
            ("the ship deck", t.ship_deck, ship),
            ("the ship discard pile", t.ship_discard, ship),
        ):
            if isinstance(zone, list):
                kind.append((name, zone))
        return [fam, loc, ship]

    def _card_name(self, kind: int, x: int) -> str:
        return f"the {self.names[0][x]} family" if kind == 0 else self.names[kind][x]

    def _place_problems(self, t: _Table) -> list[str]:
        """Each card in one place (every card somewhere, for the whole table); the starting
        families with their seats (C21); additions and activity cards where they belong."""
        problems: list[str] = []
        where: list[dict[int, str]] = [{}, {}, {}]
        for kind, zones in enumerate(self._zones(t)):
            for name, cards in zones:
                for x in cards:
                    if x in where[kind]:
                        other = where[kind][x]
                        problems.append(
                            f"{self._card_name(kind, x)} is listed twice in {name}"
                            if other == name
                            else f"{self._card_name(kind, x)} is both in {other} and in {name}"
                        )
                    else:
                        where[kind][x] = name
        if t.seat is None:
            for kind in range(3):
                for x in range(len(self.names[kind])):
                    # (starting families are checked below, with their seats)
                    if x not in where[kind] and (kind or self.start_letter[x] < 0):
                        problems.append(f"{self._card_name(kind, x)} is nowhere: every card of the game lies somewhere")
        for x, letter in enumerate(self.start_letter):
            if letter < 0:
                continue
            place = where[0].get(x)
            if letter >= self.n:
                if place is not None:
                    problems.append(
                        f"the {self.names[0][x]} family starts the ship of a seat this game does not have "
                        f"(letter {LETTERS[letter]}): it is not in play, but lies in {place} (C21)"
                    )
            elif place is None or not (
                place.startswith(f"seat {letter}'s ") and place.endswith((" cabin", "points pile"))
            ):
                problems.append(
                    f"the {self.names[0][x]} family is a starting family of seat {letter}: it lies in seat {letter}'s "
                    f"cabins or points pile, but {f'lies in {place}' if place else 'is nowhere'} (C21)"
                )
        for p, s in enumerate(t.seats):
            for c in range(3):
                f = s.cabins[c]
                if f >= 0 and s.waiting[c] > self.families[f].members:
                    problems.append(
                        f"seat {p}'s {CABINS[c]} cabin: {s.waiting[c]} members of the {self.names[0][f]} family "
                        f"wait on its card, which has {self.families[f].members}"
                    )
                elif f < 0 and s.waiting[c]:
                    problems.append(f"seat {p}'s {CABINS[c]} cabin is empty but has {s.waiting[c]} figure(s) waiting")
            for j, x in enumerate(s.additions):
                if x >= 0 and self.ships[x].kind != "addition":
                    problems.append(f"{self.names[2][x]} on seat {p}'s addition space {j + 1} is no addition card")
                if x >= 0 and j > 0 and s.additions[j - 1] < 0:
                    problems.append(f"seat {p}'s additions fill the first free space (C17): space {j} is free")
            for x in s.slots:
                if x >= 0 and self.ships[x].kind == "addition":
                    problems.append(
                        f"{self.names[2][x]} on seat {p}'s location card is an addition, not an activity card"
                    )
            if isinstance(s.hand, list):
                for x in s.known:
                    if x not in s.hand:
                        problems.append(f"seat {p}'s known card {self.names[2][x]} is not in its hand")
                if len(set(s.known)) != len(s.known):
                    problems.append(f"seat {p}'s known hand cards list a card twice")
            elif len(s.known) > s.hand:
                problems.append(
                    f"seat {p}'s hand holds {s.hand} card(s), fewer than the {len(s.known)} known to be in it (C26)"
                )
        return problems

    def _unseen(self, t: _Table) -> list[list[int]]:
        """Per kind, the cards of the game a seat's view does not place, in id order."""
        seen: list[set[int]] = [set(), set(), set()]
        for kind, zones in enumerate(self._zones(t)):
            for _, cards in zones:
                seen[kind].update(cards)
        families = [x for x in range(len(self.names[0])) if self.start_letter[x] < 0 and x not in seen[0]]
        return [
            families,
            [x for x in range(len(self.names[1])) if x not in seen[1]],
            [x for x in range(len(self.names[2])) if x not in seen[2]],
        ]

    def _hidden_zones(self, t: _Table) -> list[list[tuple[str, int]]]:
        """Per kind, the places a seat's view gives as counts, in the order they are filled."""
        fam = [("the family deck", _size(t.family_deck)), ("the box", _size(t.family_box))]
        loc = [("the location deck", _size(t.location_deck))]
        ship = [("the ship deck", _size(t.ship_deck))]
        if isinstance(t.jana_pile, int):
            fam.append(("Jana's pile", t.jana_pile))
        for k, (cards, _) in enumerate(t.display):
            if isinstance(cards, int):
                ship.append((f"display set {k}", cards))
        for p, s in enumerate(t.seats):
            if isinstance(s.drawn, int):
                (fam if t.phase == 0 else loc).append((f"seat {p}'s drawn cards", s.drawn))
            if isinstance(s.hand, int):
                unseen = max(0, s.hand - len(s.known))
                ship.append((f"seat {p}'s hand" + (" besides its known cards" if s.known else ""), unseen))
        return [fam, loc, ship]

    def _pool_problems(self, t: _Table) -> list[str]:
        """A seat's view: the hidden places hold exactly the cards it cannot see."""
        problems = []
        for kind, (unseen, hidden) in enumerate(zip(self._unseen(t), self._hidden_zones(t), strict=True)):
            total = sum(k for _, k in hidden)
            if total != len(unseen):
                places = ", ".join(f"{name} {k}" for name, k in hidden)
                problems.append(
                    f"seat {t.seat}'s view hides {total} {_PLURALS[kind]} ({places}), but {len(unseen)} "
                    f"{_PLURALS[kind]} of the game are not in sight"
                )
        return problems

    def _filled(self, t: _Table) -> _Table:
        """A sound seat's view with its hidden places dealt the unseen cards, in id order."""
        pools = self._unseen(t)
        taken = [0, 0, 0]

        def deal(kind: int, zone: Zone) -> Zone:
            if isinstance(zone, list):
                return zone
            cards = pools[kind][taken[kind] : taken[kind] + zone]
            taken[kind] += zone
            return cards

        t.family_deck = deal(0, t.family_deck)
        t.family_box = deal(0, t.family_box)
        t.jana_pile = deal(0, t.jana_pile)
        t.location_deck = deal(1, t.location_deck)
        t.ship_deck = deal(2, t.ship_deck)
        t.display = [(deal(2, cards), taken_by) for cards, taken_by in t.display]
        for s in t.seats:
            s.drawn = deal(0 if t.phase == 0 else 1, s.drawn)
            if isinstance(s.hand, int):  # the known cards, and the rest of the count unseen
                s.hand = s.known + _cards(deal(2, max(0, s.hand - len(s.known))))
        t.seat = None
        return t

    # ------------------------------------------------------------------ the position

    def _spot_activity(self, s: _Seat, spot: int) -> tuple[str, int] | None:
        """The activity (type, capacity) on a spot of the seat's board now, or None."""
        if spot >= 3:
            x = s.additions[spot - 3]
            return (self.ships[x].activity.type, self.ships[x].activity.capacity) if x >= 0 else None
        if s.location < 0:
            return None
        card = self.locations[s.location]
        if spot == 0:
            return (card.top.type, card.top.capacity)
        x = s.slots[spot - 1]
        if x >= 0:
            return (self.ships[x].activity.type, self.ships[x].activity.capacity)
        if spot == 1 and card.bottom is not None:
            return (card.bottom.type, card.bottom.capacity)
        return None

    def _position_problems(self, t: _Table) -> list[str]:
        """The whole table's position: boards, phase and turn, display, and what play fixes."""
        problems: list[str] = []
        n = self.n
        phase = _PHASES[t.phase]
        rounds = {len(s.earlier) + 1 for s in t.seats}
        if len(rounds) > 1:
            kept = ", ".join(f"seat {p} kept {len(s.earlier)}" for p, s in enumerate(t.seats))
            problems.append(f"every seat keeps one location card a round (C4), but in earlier rounds {kept}")
        rnd = len(t.seats[0].earlier) + 1
        turn = 0 if t.to_act is None else (t.to_act - t.first) % n
        if self.solo and t.start != 0:
            problems.append("in solo the player holds the start-player token")
        for p, s in enumerate(t.seats):
            problems += self._board_problems(p, s, phase)
            problems += self._seat_phase_problems(t, p, s, phase, rnd, turn)
        if phase == "entertainment":
            problems += self._display_problems(t, turn)
        elif t.first != t.start and phase in ("boarding", "set_course"):
            problems.append(
                f"the start player (seat {t.start}) begins this round's turn order until the face-down set "
                f"moves the token in phase 3 (C19, C31), not seat {t.first}"
            )
        if self.solo and _size(t.jana_pile) < self.dream_cruise.difficulty:
            problems.append(
                f"Jana's pile holds {_size(t.jana_pile)} families, fewer than the {self.dream_cruise.difficulty} she "
                "starts with (C9)"
            )
        if not problems:
            problems += self._history_problems(t, phase, rnd, turn)[1]
        return problems

    def _board_problems(self, p: int, s: _Seat, phase: str) -> list[str]:
        """Seat ``p``'s current location card, activity cards, captain and guests."""
        problems = []
        who = f"seat {p}"
        busy = any(x >= 0 for x in s.slots) or s.captain >= 0 or any(s.spot_guests)
        if s.location < 0:
            if busy:
                problems.append(f"{who} has activity cards, guests or the captain on no location card")
        else:
            card = self.locations[s.location]
            if card.kind == "shore" and s.slots[1] >= 0:
                problems.append(f"{who}'s shore card {card.name} takes one activity card, not two")
            if card.kind == "sea" and s.slots[1] >= 0 and s.slots[0] < 0:
                problems.append(f"{who}'s activity cards on {card.name} fill the first free slot (C17)")
            if s.captain >= 0 and self._spot_activity(s, s.captain) is None:
                problems.append(f"{who}'s captain stands on the {SPOT_NAMES[s.captain]}, which holds no activity (C5)")
        guests = s.spot_guests + s.addition_guests
        for spot, cabins in enumerate(guests):
            if not cabins:
                continue
            name = f"the {SPOT_NAMES[spot]}" if spot < 3 else f"addition space {spot - 2}"
            activity = self._spot_activity(s, spot)
            if activity is None:
                problems.append(f"{who} has guests on {name}, which holds no activity")
                continue
            if len(cabins) > activity[1]:
                problems.append(f"{name} of {who} takes {activity[1]} guest(s), not {len(cabins)}")
            for c in cabins:
                f = s.cabins[c]
                if f < 0:
                    problems.append(f"{who} has a guest of the empty {CABINS[c]} cabin on {name}")
                elif activity[0] not in self.families[f].wants and s.captain != spot:
                    problems.append(
                        f"{who}'s {self.names[0][f]} family wants no {activity[0]} activity, yet has a guest on "
                        f"{name} without the captain there (C5, C30)"
                    )
        for c in range(3):
            f = s.cabins[c]
            if f < 0:
                continue
            out = sum(c in g for g in guests)
            if out > self.families[f].members - s.waiting[c]:
                problems.append(
                    f"{who}'s {self.names[0][f]} family has {out} guest(s) on activities and {s.waiting[c]} "
                    f"waiting: more than its {self.families[f].members} members"
                )
        if phase not in ("set_sail", "over") and busy:
            problems.append(f"{who} has activity cards, guests or the captain on its location card outside phase 4")
        return problems

    def _seat_phase_problems(self, t: _Table, p: int, s: _Seat, phase: str, rnd: int, turn: int) -> list[str]:
        """Seat ``p``'s drawn cards and current location card fit the phase and the turn."""
        problems = []
        who = f"seat {p}"
        order = (p - t.first) % self.n
        drawn = _size(s.drawn)
        empty = sum(x < 0 for x in s.cabins)
        if phase == "boarding":
            if rnd == 1:
                problems.append("round 1 has no boarding (C15)")
            if drawn and order < turn:
                problems.append(f"{who} boarded already this round but still holds {drawn} drawn families")
            if order == turn and (drawn == 0 or empty == 0):
                problems.append(f"{who} is to board but has no drawn family or no empty cabin")
            if drawn > 2 * empty + (6 if order == turn else 0):
                problems.append(f"{who} holds {drawn} drawn families; {empty} empty cabin(s) draw two each")
            if s.location >= 0:
                problems.append(f"{who} has a current location card before phase 2")
        elif phase == "set_course":
            if drawn > 3 or (order < turn and drawn > 0):
                problems.append(f"{who}'s {drawn} drawn location card(s) do not fit the turn: it chose already")
            if order == turn and drawn == 0:
                problems.append(f"{who} is to keep a location card but drew none")
            if order >= turn and s.location >= 0:
                problems.append(f"{who} has a current location card before choosing one")
        return problems

    def _display_problems(self, t: _Table, turn: int) -> list[str]:
        """Phase 3: the sets taken, by the seats that chose already (C7, C19)."""
        problems = []
        takers: list[int] = []
        for k, (cards, q) in enumerate(t.display):
            if q < 0:
                continue
            takers.append(q)
            if _size(cards):
                problems.append(f"display set {k} was taken by seat {q}, so its cards are in that hand")
            if (q - t.first) % self.n >= turn:
                problems.append(f"display set {k} is taken by seat {q}, who has not chosen yet")
        if len(takers) != turn:
            problems.append(f"{turn} seat(s) chose a set this phase, but {len(takers)} set(s) are taken")
        if len(set(takers)) != len(takers):
            problems.append("a seat takes one set of the display")
        face_down = t.display[0][1]
        if face_down >= 0 and not self.solo and face_down == t.first:
            problems.append(f"seat {face_down} began this round's turn order and may not take the face-down set (C7)")
        if face_down >= 0 and t.start != face_down:
            problems.append(
                f"seat {face_down} took the face-down set, so it holds the start-player token (C19, C31), "
                f"not seat {t.start}"
            )
        if face_down < 0 and t.start != t.first:
            problems.append(
                f"nobody took the face-down set yet, so the start player (seat {t.start}) began this round's "
                f"turn order, not seat {t.first} (C19, C31)"
            )
        return problems

    def _history_problems(self, t: _Table, phase: str, rnd: int, turn: int) -> tuple[bool, list[str]]:
        """Whether this round is the last, and the problems of what play fixes (C4, C8, C9,
        C14, C16, C20): the loader's reading. Every earlier round kept a location card per
        seat (in solo Jana got the other two), so this round's phase 2 found ``avail``
        cards; the families in the points piles emptied cabins that drew two each (and Jana
        drew one a round from round 2), so the family deck holds exactly the rest until it
        runs out."""
        problems = []
        n = self.n
        per_round = 3 if self.solo else n
        avail = len(self.names[1]) - per_round * (rnd - 1)
        if rnd > 1 and avail + per_round < 3 * n:
            problems.append(
                f"round {rnd} cannot be: round {rnd - 1} found {avail + per_round} location card(s) for "
                f"{n} seat(s) drawing three, so it was the last (C16, C20)"
            )
        last = False
        jana = 2 * (rnd - 1)
        if phase != "boarding":
            last = avail < 3 * n
            for p, s in enumerate(t.seats):
                order = (p - t.first) % n
                drew = min(3, max(0, avail - 3 * order))
                if phase != "set_course" or order < turn:
                    if (s.location >= 0) != (drew > 0):
                        problems.append(
                            f"seat {p} drew {drew} location card(s) in round {rnd} and keeps one if it drew any "
                            f"(C16, C20), but it has {'a' if s.location >= 0 else 'no'} current location card"
                        )
                    if self.solo and drew > 0:
                        jana += drew - 1
                elif _size(s.drawn) != drew:
                    problems.append(
                        f"seat {p} holds {_size(s.drawn)} drawn location card(s); its draw in round {rnd} found {drew} "
                        "(C14, C16)"
                    )
            if last and _size(t.location_deck):
                problems.append(
                    f"the location deck holds {_size(t.location_deck)} card(s) in round {rnd}, when the location "
                    "cards ran out (C20)"
                )
        if self.solo and len(t.jana_locations) != jana:
            problems.append(
                f"Jana holds {len(t.jana_locations)} location card(s); by now the player gave her {jana}, the two "
                "not kept in each round (C9)"
            )
        if self.solo and t.location_discard:
            problems.append(
                "in solo the location cards not kept go to Jana, so the location discard pile is empty (C9)"
            )
        if phase == "over":
            return True, problems
        demand = 2 * sum(len(s.pile) for s in t.seats) + (rnd - 1 if self.solo else 0)
        if demand > self.deck_size:
            return True, problems
        if _size(t.family_deck) != self.deck_size - demand:
            jana_draws = ", Jana one a round from round 2" if self.solo else ""
            problems.append(
                f"the family deck holds {_size(t.family_deck)} card(s): {demand} of its {self.deck_size} were drawn "
                f"(two for each satisfied family's cabin{jana_draws}), which leaves {self.deck_size - demand} "
                "(C8, C16)"
            )
        for p, s in enumerate(t.seats):
            order = (p - t.first) % n
            empty = sum(x < 0 for x in s.cabins)
            drawn = _size(s.drawn)
            if phase == "boarding" and order >= turn:
                ok = drawn == 2 * empty if order > turn else drawn >= 2 * empty
            else:
                ok = empty == 0
            if not ok:
                problems.append(
                    f"seat {p} has {empty} empty cabin(s) and {drawn} drawn families while the family deck lasts: "
                    "each empty cabin draws two and is filled in phase 1 (C8, C16)"
                )
        return last, problems

    # ------------------------------------------------------------------ building

    def complete(self, position: DreamCruisePosition, rng_state: int) -> DreamCruisePosition:
        """The whole table of a sound seat's view: the unseen cards dealt into its hidden
        places in id order (``from_position`` deals them anew with ``resample``)."""
        table, _ = self._decode(position)
        return self._encode(self._filled(table))

    def _encode(self, t: _Table) -> DreamCruisePosition:
        """The description of a decoded whole table (names for ids), no generator state."""
        return msgspec.structs.replace(self._describe_data(self._snapshot_of(t, 0), None), rng=None)

    def snapshot(self, position: DreamCruisePosition, rng_state: int) -> DreamCruiseStateData:
        """The snapshot of a sound whole-table description, round, turn and last round derived."""
        table, _ = self._decode(position)
        return self._snapshot_of(table, rng_state)

    def _snapshot_of(self, t: _Table, rng_state: int) -> DreamCruiseStateData:
        phase = _PHASES[t.phase]
        rnd = len(t.seats[0].earlier) + 1
        turn = 0 if t.to_act is None else (t.to_act - t.first) % self.n
        last = self._history_problems(t, phase, rnd, turn)[0]
        game = self.dream_cruise
        seats = [
            SeatData(
                families=list(s.cabins),
                figures_left=list(s.waiting),
                additions=list(s.additions),
                addition_guests=[sorted(g) for g in s.addition_guests],
                location=s.location,
                activity_cards=list(s.slots),
                location_guests=[sorted(g) for g in s.spot_guests],
                captain=s.captain,
                played=s.earlier + ([s.location] if s.location >= 0 else []),
                points_pile=list(s.pile),
                hand=sorted(_cards(s.hand)),
                known=sorted(s.known),
                drawn=list(_cards(s.drawn)),
            )
            for s in t.seats
        ]
        return DreamCruiseStateData(
            schema_version=SCHEMA_VERSION,
            game="dream_cruise",
            players=self.n,
            route_points=list(game.route_points),
            sea_ship_draw=game.sea_ship_draw,
            additions=self.nadd,
            difficulty=game.difficulty,
            cards=game.cards.digest,
            rng=t.rng if t.rng is not None else f"{rng_state & 0xFFFFFFFFFFFFFFFF:016x}",
            phase=phase,  # type: ignore[arg-type]
            current_player=-1 if t.to_act is None else t.to_act,
            round=rnd,
            start_player=t.start,
            first_player=t.first,
            turn=turn,
            final_round=last,
            seats=seats,
            display=[SetData(list(_cards(cards)), taken) for cards, taken in t.display],
            family_deck=list(_cards(t.family_deck)),
            family_discard=list(t.family_discard),
            family_box=list(_cards(t.family_box)),
            location_deck=list(_cards(t.location_deck)),
            location_discard=list(t.location_discard),
            ship_deck=list(_cards(t.ship_deck)),
            ship_discard=list(t.ship_discard),
            jana_pile=list(_cards(t.jana_pile)),
            jana_locations=list(t.jana_locations),
        )

    # ------------------------------------------------------------------ the compact text

    def text(self, position: DreamCruisePosition) -> str:
        """The compact one-line text (docs/dream_cruise.md, "Setting up a position")."""
        fl, ll, sl = (self._labeller(k) for k in range(3))
        drawn_label = fl if position.phase == "boarding" else ll
        seat_texts = []
        for s in position.seats:
            cabins = ".".join(f"{fl(c.family)}:{c.waiting}" if c.family else "-" for c in s.cabins)
            additions = ".".join(
                (sl(a.card) + _guest_text(a.guests)) if a.card else ("-" + _guest_text(a.guests)) for a in s.additions
            )
            if s.location is None:
                location = "-"
            else:
                spots = []
                for k, (card, guests) in enumerate(
                    ((None, s.top_guests), (s.bottom_card, s.bottom_guests), (s.second_card, s.second_guests))
                ):
                    mark = "*" if s.captain == SPOT_NAMES[k] else ""
                    head = "" if k == 0 else (sl(card) if card else "-")
                    spots.append(head + _guest_text(guests) + mark)
                location = ll(s.location) + ":".join(spots)
            hand = _hand_text(s.hand, sl, s.known)
            seat_texts.append(
                ",".join(
                    (
                        cabins,
                        additions,
                        location,
                        _list_text(s.earlier_locations, ll),
                        _list_text(s.points_pile, fl),
                        hand,
                        _list_text(s.drawn, drawn_label),
                    )
                )
            )
        if position.phase != "entertainment" and not position.display:
            display = "-"
        else:
            display = "/".join(_set_text(d, sl) for d in position.display)
        start = str(position.start_player) + (f">{position.order_from}" if position.order_from is not None else "")
        jana = "-"
        if position.jana is not None:
            jana = _list_text(position.jana.pile, fl) + "," + _list_text(position.jana.locations, ll)
        fields = (
            position.phase,
            "-" if position.to_act is None else str(position.to_act),
            start,
            "*" if position.seat is None else str(position.seat),
            "/".join(seat_texts),
            display,
            ",".join(
                (
                    _list_text(position.family_deck, fl),
                    _list_text(position.family_discard, fl),
                    _list_text(position.family_box, fl),
                )
            ),
            _list_text(position.location_deck, ll) + "," + _list_text(position.location_discard, ll),
            _list_text(position.ship_deck, sl) + "," + _list_text(position.ship_discard, sl),
            jana,
            position.rng or "-",
        )
        return " ".join(fields)

    def _labeller(self, kind: int) -> Any:
        labels = self.labels[kind]
        ids = self.ids[kind]

        def label(name: str) -> str:
            x = ids.get(name)
            return labels[x] if x is not None else name

        return label

    def read(self, text: str) -> DreamCruisePosition:
        """The description a compact text gives; InvalidPositionError naming every problem."""
        reader = _Reader(self)
        built = reader.read(text)
        if reader.problems:
            raise InvalidPositionError(reader.problems, f"{self.game.title} position")
        try:
            return msgspec.convert(built, type=DreamCruisePosition, strict=True)
        except msgspec.ValidationError as exc:
            raise InvalidPositionError([f"not a description: {exc}"], f"{self.game.title} position") from None


# ---------------------------------------------------------------------- text helpers

_FIELDS = (
    "phase",
    "seat to act",
    "start player",
    "whose view",
    "seats",
    "display",
    "families",
    "location cards",
    "ship cards",
    "Jana",
    "generator state",
)


def _guest_text(guests: list[CabinName]) -> str:
    return "=" + "".join(_CABIN_LETTER[CABINS.index(g)] for g in guests) if guests else ""


def _set_text(shown: DisplaySetPosition, label: Any) -> str:
    """A display set: ``@k`` taken by seat k (its cards are in that hand), else ``?N`` N
    unseen cards, its cards joined by ``+``, or ``-`` for none."""
    if shown.taken_by is not None:
        return f"@{shown.taken_by}" + (
            _set_text(msgspec.structs.replace(shown, taken_by=None), label) if shown.cards else ""
        )
    if isinstance(shown.cards, int):
        return f"?{shown.cards}"
    return "+".join(label(x) for x in shown.cards) or "-"


def _hand_text(hand: list[str] | int, label: Any, known: list[str]) -> str:
    """A hand: its cards (``!`` after a known one); counted, its known cards with ``!`` and
    ``?N`` for the N unseen others (``?N`` alone when none is known)."""
    if isinstance(hand, int) and known:
        return ".".join(label(x) + "!" for x in known) + f".?{max(0, hand - len(known))}"
    return _list_text(hand, label, known)


def _list_text(cards: list[str] | int, label: Any, known: list[str] | None = None) -> str:
    """Cards as labels joined by ``.`` (``!`` after a known hand card), ``?N`` for N
    unseen ones, ``-`` for none."""
    if isinstance(cards, int):
        return f"?{cards}"
    marks = set(known or ())
    return ".".join(label(x) + ("!" if x in marks else "") for x in cards) or "-"


class _Reader:
    """Reads a compact text into a mapping of the description, collecting every problem."""

    def __init__(self, rules: DreamCruisePositions) -> None:
        self.rules = rules
        self.problems: list[str] = []

    def card(self, kind: int, label: str, where: str) -> str:
        x = self.rules.by_label[kind].get(label.lower())
        if x is None:
            self.problems.append(f"{where}: {label!r} is no {_KIND_WORDS[kind]} label of this card set")
            return label or "?"
        return self.rules.names[kind][x]

    def count(self, text: str, most: int, where: str) -> int:
        if not text.isdigit() or len(text) > 3 or int(text) > most:
            self.problems.append(f"{where}: {text!r} is not a count of 0..{most}")
            return 0
        return int(text)

    def cards(self, kind: int, text: str, where: str, most: int = 96) -> list[str] | int:
        """``-``, ``?N`` or labels joined by ``.``."""
        if text == "-":
            return []
        if text.startswith("?"):
            return self.count(text[1:], most, where)
        return [self.card(kind, label, where) for label in text.split(".")]

    def seat_number(self, text: str, where: str) -> int:
        return self.count(text, 3, where)

    def guests(self, text: str, where: str) -> tuple[str, list[str], bool]:
        """``<head>[=<cabin letters>][*]``: the head, the guests' cabins, the captain mark."""
        captain = text.endswith("*")
        text = text.removesuffix("*")
        head, _, letters = text.partition("=")
        cabins: list[str] = []
        for ch in letters:
            if ch not in _CABIN_LETTER:
                self.problems.append(f"{where}: {ch!r} is no cabin letter (i, o, b)")
            else:
                cabins.append(CABINS[_CABIN_LETTER.index(ch)])
        return head, cabins, captain

    def parts(self, text: str, sep: str, count: int, where: str) -> list[str]:
        parts = text.split(sep)
        if len(parts) != count:
            self.problems.append(f"{where}: {len(parts)} part(s) separated by {sep!r}, not {count}")
            return (parts + ["-"] * count)[:count]
        return parts

    def seat(self, text: str, p: int, phase: str) -> dict[str, Any]:
        who = f"seat {p}"
        if len(text.split(",")) != 7:  # nothing of it can be told apart: one problem, not seven
            self.parts(text, ",", 7, who)
            return {}
        cabins_t, additions_t, location_t, earlier_t, pile_t, hand_t, drawn_t = text.split(",")
        cabins: list[dict[str, Any]] = []
        for c, part in enumerate(self.parts(cabins_t, ".", 3, f"{who} cabins")):
            if part == "-":
                cabins.append({})
                continue
            label, _, waiting = part.partition(":")
            cabins.append(
                {
                    "family": self.card(0, label, f"{who} {CABINS[c]} cabin"),
                    "waiting": self.count(waiting, 6, f"{who} {CABINS[c]} cabin"),
                }
            )
        additions = []
        for j, part in enumerate(additions_t.split(".")):
            head, guests, _ = self.guests(part, f"{who} addition {j + 1}")
            space: dict[str, Any] = {"guests": guests}
            if head != "-":
                space["card"] = self.card(2, head, f"{who} addition {j + 1}")
            additions.append(space)
        seat: dict[str, Any] = {"cabins": cabins, "additions": additions}
        if location_t != "-":
            spots = self.parts(location_t, ":", 3, f"{who} location")
            names = ("top", "bottom", "second")
            for k, part in enumerate(spots):
                head, guests, captain = self.guests(part, f"{who} location {names[k]}")
                if k == 0:
                    seat["location"] = self.card(1, head, f"{who} location")
                elif head != "-":
                    seat[f"{names[k]}_card"] = self.card(2, head, f"{who} location {names[k]}")
                seat[f"{names[k]}_guests"] = guests
                if captain:
                    seat["captain"] = SPOT_NAMES[k]
        seat["earlier_locations"] = self.cards(1, earlier_t, f"{who} earlier location cards")
        seat["points_pile"] = self.cards(0, pile_t, f"{who} points pile")
        seat["hand"], seat["known"] = self.hand(hand_t, f"{who} hand")
        seat["drawn"] = self.cards(0 if phase == "boarding" else 1, drawn_t, f"{who} drawn cards", 6)
        return seat

    def hand(self, text: str, where: str) -> tuple[list[str] | int, list[str]]:
        """A hand and its known cards: labels (``!`` after a known one) separated by ``.``,
        ``-`` for none; counted, ``?N`` last for the N unseen cards beside the known ones."""
        parts = [] if text == "-" else text.split(".")
        count: int | None = None
        if parts and parts[-1].startswith("?"):
            count = self.count(parts.pop()[1:], 96, where)
        for x in parts:
            if x.startswith("?"):
                self.problems.append(f"{where}: {x!r}: a hand gives one count of unseen cards, last")
        parts = [x for x in parts if not x.startswith("?")]
        names = [self.card(2, x.removesuffix("!"), where) for x in parts]
        known = [name for name, x in zip(names, parts, strict=True) if x.endswith("!")]
        if count is None:
            return names, known
        for x in parts:
            if not x.endswith("!"):
                self.problems.append(
                    f"{where}: {x!r} beside a count of unseen cards: only known cards (marked '!') are named there"
                )
        return count + len(known), known

    def display_set(self, text: str, k: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if text.startswith("@"):
            out["taken_by"] = self.seat_number(text[1:2], f"display set {k}")
            text = text[2:]
        if text.startswith("?"):
            out["cards"] = self.count(text[1:], 2, f"display set {k}")
        elif text not in ("", "-"):
            out["cards"] = [self.card(2, label, f"display set {k}") for label in text.split("+")]
        return out

    def read(self, text: str) -> dict[str, Any]:
        fields = text.split()
        if len(fields) != len(_FIELDS):
            self.problems.append(
                f"the text has {len(fields)} field(s) separated by spaces; a position has {len(_FIELDS)}: "
                + ", ".join(_FIELDS)
            )
            return {}
        phase, to_act, start, view, seats_t, display_t, fam_t, loc_t, ship_t, jana_t, rng = fields
        if phase not in _PHASES:
            self.problems.append(f"phase: {phase!r} is none of {', '.join(_PHASES)}")
            phase = "set_sail"
        out: dict[str, Any] = {"phase": phase}
        out["to_act"] = None if to_act == "-" else self.seat_number(to_act, "seat to act")
        start_t, _, order_t = start.partition(">")
        out["start_player"] = self.seat_number(start_t, "start player")
        if order_t:
            out["order_from"] = self.seat_number(order_t, "start player's turn order")
        out["seat"] = None if view == "*" else self.seat_number(view, "whose view")
        seat_texts = seats_t.split("/")
        if len(seat_texts) > 4:
            self.problems.append(f"seats: {len(seat_texts)} seats, a game has at most 4")
            seat_texts = seat_texts[:4]
        out["seats"] = [self.seat(s, p, phase) for p, s in enumerate(seat_texts)]
        if display_t != "-":
            sets = display_t.split("/")
            if len(sets) > 5:
                self.problems.append(f"display: {len(sets)} sets, at most 5")
                sets = sets[:5]
            out["display"] = [self.display_set(s, k) for k, s in enumerate(sets)]
        deck, discard, box = self.parts(fam_t, ",", 3, "families")
        out["family_deck"] = self.cards(0, deck, "the family deck")
        out["family_discard"] = self.cards(0, discard, "the family discard pile")
        out["family_box"] = self.cards(0, box, "the box")
        for kind, part, name in ((1, loc_t, "location"), (2, ship_t, "ship")):
            deck, discard = self.parts(part, ",", 2, f"{name} cards")
            out[f"{name}_deck"] = self.cards(kind, deck, f"the {name} deck")
            out[f"{name}_discard"] = self.cards(kind, discard, f"the {name} discard pile")
        if jana_t != "-":
            pile, locations = self.parts(jana_t, ",", 2, "Jana")
            out["jana"] = {"pile": self.cards(0, pile, "Jana's pile"), "locations": self.cards(1, locations, "Jana")}
        if rng != "-":
            if not re.fullmatch(r"[0-9a-f]{16}", rng):
                self.problems.append(f"generator state: {rng[:40]!r} is not 16 lower-case hex digits")
            else:
                out["rng"] = rng
        return out


def _cards(zone: Zone) -> list[int]:
    """A filled zone's cards (a whole table has no counts left)."""
    return zone if isinstance(zone, list) else []


def _cabins(bits: list[int]) -> list[CabinName]:
    return [("inner", "oceanview", "balcony")[c] for c in bits]


def _spot_name(spot: int) -> SpotName | None:
    return None if spot < 0 else ("location top", "location bottom", "second sea slot")[spot]


def _guest_ids(guests: list[CabinName], where: str, problems: list[str]) -> list[int]:
    cabins = [CABINS.index(g) for g in guests]
    if len(set(cabins)) != len(cabins):
        problems.append(f"{where} has two guests of one cabin: one figure per colour per activity")
    return sorted(set(cabins))


def _empty_table() -> _Table:
    return _Table(None, 0, None, 0, 0, [], [], [], [], [], [], [], [], [], [], [], None)
