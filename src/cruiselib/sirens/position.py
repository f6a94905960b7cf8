"""Sirens in Sight positions from descriptions: the whole table, or what one seat sees.

A description (:class:`SirensPosition`) names cards by their face, the way the table and
the move texts do: ``7``, ``-2a`` (``a``: the move-crew icon), and ``10*0`` for a card
beside a ship card carrying seat 0's octopus. Copies of a face are interchangeable (S12)
and, outside the variant's dealing, so are emblems (S1, S9; ruling S20): the builder numbers
the copies itself (:func:`_assign_ids`), so a rebuilt state is the original up to which copy
of a face lies where, and plays on exactly like it.

What history alone fixes is derived (ruling S21): the current seat (from the phase), the number of
passes once two ended the game, the picks and pick floors of the variant (S9, S14), the
cards out of play of a whole table (every card not elsewhere), the points. What a table
shows but history cannot give back is asked for: whose turn it is, the start player, and
whether the last turn was a pass (S4, S17).

The compact text and every problem's wording are documented on docs/sirens.md, "Setting
up a position".
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import Meta

from cruiselib.errors import InvalidPositionError
from cruiselib.positions import PositionRules
from cruiselib.serialize import RngText
from cruiselib.sirens.cards import EMBLEMS, MAX_CARDS, MAX_SHIP
from cruiselib.sirens.schema import MAX_PILE, Pending, SirensStateData

if TYPE_CHECKING:
    from cruiselib.sirens.game import SirensGame, SirensState

__all__ = ["CrewDecision", "SirensPosition", "SirensPositions"]

NSHIP = 5
SIDE_MAX = 5  # cards a side holds at most (S5)
HAND = 4  # cards in a hand (S3)
HELD, GONE = -1, -2  # a rum mug's place besides a ship card (the snapshot's codes)
IN_PLAY, REMOVED = -1, 2  # a ship card's status besides "won by seat p"
CREW_WON, CREW_REMOVED = 5, 7  # a crew token's place besides a ship card: 5 + seat, 7
PHASES = ("pick", "main", "after", "crew", "over")
TOKENS = ("captain", "mate")

Seat = Annotated[int, Meta(ge=0, le=1)]
ShipValue = Annotated[int, Meta(ge=1, le=MAX_SHIP, description="printed value of a ship card")]
CardLabel = Annotated[
    str,
    Meta(
        pattern=r"^-?[0-9]{1,2}a?(\*[01])?$",
        max_length=7,
        description="a card by its face: value, 'a' for the move-crew icon, '*0'/'*1' for the octopus on it",
    ),
]
HandCount = Annotated[int, Meta(ge=0, le=HAND, description="a hidden hand: how many cards it holds")]
PileCount = Annotated[int, Meta(ge=0, le=MAX_PILE, description="a hidden draw pile: how many cards it holds")]
ShipStatus = Literal["in play", "won by seat 0", "won by seat 1", "removed"]
CrewPlace = ShipValue | Literal["won by seat 0", "won by seat 1", "removed"]
RumPlace = ShipValue | Literal["held", "gone"]
Side = Annotated[list[CardLabel], Meta(max_length=SIDE_MAX)]


class CrewDecision(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The crew move waiting in the 'crew' phase (S5): a card with the move-crew icon went
    to ``side``'s side of ``ship`` (the last card there), whose crew token moves; the owner
    of that side decides where."""

    ship: ShipValue
    side: Annotated[int, Meta(ge=0, le=1, description="the seat whose side the card went to: it decides")]
    from_ship: Annotated[
        ShipValue | None,
        Meta(description="the ship card the octopus moved the card from; None: played from the hand (draw pending)"),
    ] = None


class SirensPosition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Sirens in Sight position: the whole table (``seat`` None) or what ``seat`` sees.

    Ship cards are listed from bow to rear (28 ... 36 in the standard set). A hidden hand or
    draw pile is given as a count; everything else by its cards.
    """

    seat: Annotated[Seat | None, Meta(description="None: the whole table; 0 or 1: what that seat sees")] = None
    phase: Annotated[
        Literal["pick", "main", "after", "crew", "over"],
        Meta(description="pick (variant), main, after (rum mug or end turn), crew (a crew decision), over"),
    ]
    turn: Annotated[int, Meta(ge=0, le=1, description="the seat whose turn it is (or was, once over)")]
    start_player: Annotated[int, Meta(ge=0, le=1, description="the seat that began the game")]
    last_turn_passed: Annotated[bool, Meta(description="the last turn was a pass: one more ends the game (S4)")] = False
    ships: Annotated[list[ShipStatus], Meta(min_length=NSHIP, max_length=NSHIP, description="bow to rear")]
    sides: Annotated[
        list[Annotated[list[Side], Meta(min_length=2, max_length=2)]],
        Meta(min_length=NSHIP, max_length=NSHIP, description="per ship card, seat 0's side then seat 1's, in order"),
    ]
    crew: Annotated[
        list[CrewPlace],
        Meta(min_length=2, max_length=2, description="the captain, then the mate: a ship card's value, or its fate"),
    ]
    rum: Annotated[
        list[RumPlace],
        Meta(min_length=2, max_length=2, description="per seat: held, the ship card it stands on, or gone (S6)"),
    ]
    hands: Annotated[
        list[Annotated[list[CardLabel], Meta(max_length=HAND)] | HandCount],
        Meta(min_length=2, max_length=2, description="per seat: its cards, or how many for a hidden hand"),
    ]
    piles: Annotated[
        list[Annotated[list[CardLabel], Meta(max_length=MAX_PILE)] | PileCount],
        Meta(
            min_length=1,
            max_length=2,
            description="the draw pile, top card first (the variant: one per seat), or its size when hidden",
        ),
    ]
    removed: Annotated[
        Annotated[list[CardLabel], Meta(max_length=MAX_CARDS)] | None,
        Meta(description="cards out of play; None (whole table only): every card not elsewhere"),
    ] = None
    points: Annotated[
        list[Annotated[int, Meta(ge=0, le=5)]],
        Meta(min_length=2, max_length=2, description="each seat's victory points, as the table gives them (S8)"),
    ]
    crew_move: Annotated[CrewDecision | None, Meta(description="the waiting crew decision ('crew' phase)")] = None
    rng: Annotated[
        RngText | None, Meta(description="whole table only: the generator state future chance comes from")
    ] = None


# ---------------------------------------------------------------------- the table in numbers

_LABEL = re.compile(r"^(-?[0-9]{1,3})(a?)(?:\*([01]))?$")


class _Table:
    """A description in numbers: faces (indices into the card set's faces) per zone, the
    octopuses as (ship, side, index), the ship cards, tokens and turn as snapshot codes."""

    def __init__(self) -> None:
        self.hands: list[list[int]] = [[], []]
        self.piles: list[list[int]] = []  # top first
        self.sides: list[list[list[int]]] = [[[], []] for _ in range(NSHIP)]
        self.removed: list[int] = []
        self.octopus: list[tuple[int, int, int] | None] = [None, None]
        self.status: list[int] = [IN_PLAY] * NSHIP
        self.rum: list[int] = [HELD, HELD]
        self.crew: list[int] = [1, 3]
        self.phase = 1
        self.turn = 0
        self.start = 0
        self.passed = False
        self.pending: tuple[int, int, int] | None = None  # ship, side, source ship or -1
        self.hidden_hands = [0, 0]  # a seat's view: the sizes of the hands it cannot see
        self.hidden_piles = [0, 0]  # ... and of the draw piles


class SirensPositions(PositionRules[SirensPosition]):
    """Positions of Sirens in Sight (docs/sirens.md, "Setting up a position")."""

    position_type: ClassVar[type[msgspec.Struct]] = SirensPosition

    def __init__(self, game: SirensGame) -> None:
        super().__init__(game)
        self.sirens = game
        cards = game.cards
        self.faces = cards.faces
        self.labels = [f"{f.value}{'a' if f.crew else ''}" for f in self.faces]
        self.face_of_label = {label: i for i, label in enumerate(self.labels)}
        self.values = [f.value for f in self.faces]
        self.crew_icon = [f.crew for f in self.faces]
        self.card_face = [cards.face_index[cards.face_of(c)] for c in range(len(cards.cards))]
        self.card_emblem = [EMBLEMS.index(c.emblem) for c in cards.cards]
        self.ship_values = list(cards.ships)
        self.ship_index = {v: k for k, v in enumerate(self.ship_values)}
        self.variant = game.variant == "bow_to_rear"
        self.copies = Counter(self.card_face)
        self.set_copies = [
            Counter(f for f, e in zip(self.card_face, self.card_emblem, strict=True) if e == p) for p in range(2)
        ]
        best = max(self.values)
        # The fewest cards a won ship card took out of play (S6): ceil(value / best card)
        # if five cards can reach it, else only 5 + 5 cards can have won it.
        self.min_won = [
            (v + best - 1) // best if best > 0 and v <= SIDE_MAX * best else 2 * SIDE_MAX for v in self.ship_values
        ]

    # ------------------------------------------------------------------ describe

    def describe(self, state: SirensState, seat: int | None) -> SirensPosition:
        d = state._to_data()
        label = self.labels
        face = self.card_face

        def on_table(c: int) -> str:
            marks = "".join(f"*{p}" for p in range(2) if d.octopus[p] == c)
            return label[face[c]] + marks

        def sorted_labels(cards: list[int]) -> list[str]:
            return [label[f] for f in sorted(face[c] for c in cards)]

        hands: list[list[str] | int] = [sorted_labels(h) for h in d.hands]
        piles: list[list[str] | int] = [[label[face[c]] for c in reversed(p)] for p in d.piles]
        if seat is not None:
            hands[1 - seat] = len(d.hands[1 - seat])
            if self.variant:  # the seat knows its own remaining cards, not their order (S9)
                piles[seat] = sorted_labels(d.piles[seat])
                piles[1 - seat] = len(d.piles[1 - seat])
            else:
                piles[0] = len(d.piles[0])
        status: list[ShipStatus] = [_SHIP_STATUS[s] for s in d.ships]
        pending = d.pending
        crew_move = None
        if pending is not None:
            source = None if pending.source < 0 else self.ship_values[pending.source]
            crew_move = CrewDecision(ship=self.ship_values[pending.ship], side=pending.side, from_ship=source)
        scores = state.scores()
        return SirensPosition(
            seat=seat,
            phase=d.phase,
            turn=d.turn,
            start_player=d.start_player,
            last_turn_passed=d.passes == 1,
            ships=status,
            sides=[[[on_table(c) for c in side] for side in ship] for ship in d.sides],
            crew=[self._crew_place(v) for v in d.crew],
            rum=["held" if r == HELD else "gone" if r == GONE else self.ship_values[r] for r in d.rum],
            hands=hands,
            piles=piles,
            removed=sorted_labels(d.removed),
            points=[int(scores[0]), int(scores[1])],
            crew_move=crew_move,
            rng=d.rng if seat is None else None,
        )

    def _crew_place(self, v: int) -> CrewPlace:
        if v < NSHIP:
            return self.ship_values[v]
        return "removed" if v == CREW_REMOVED else "won by seat 1" if v == CREW_WON + 1 else "won by seat 0"

    # ------------------------------------------------------------------ problems

    def problems(self, position: SirensPosition) -> list[str]:
        problems = _size_problems(position, self.ship_values)
        if problems:
            return problems
        try:  # a Struct made in Python skips its schema's bounds: check them as JSON would
            msgspec.convert(msgspec.to_builtins(position), type=SirensPosition, strict=True)
        except (msgspec.ValidationError, TypeError) as exc:
            return [f"not a description: {exc}"]
        table, problems = self._read_table(position)
        if problems:
            return problems
        if position.seat is not None:
            problems = self._view_problems(position, table)
            if problems:
                return problems
            table, problems = self._read_table(self.complete(position, 0))
            if problems:  # pragma: no cover - complete() fills only what the checks above allow
                return problems
        return self._table_problems(table, position.points)

    def _read_table(self, position: SirensPosition) -> tuple[_Table, list[str]]:
        """The description in numbers, and every problem of its parts taken one by one:
        labels, the shapes a whole table or a seat's view has, the cards' counts."""
        problems: list[str] = []
        t = _Table()
        seat = position.seat
        variant = self.variant
        if len(position.piles) != (2 if variant else 1):
            problems.append(
                f"the 'bow_to_rear' variant has a draw pile per seat, not {len(position.piles)}"
                if variant
                else f"this game has one shared draw pile, not {len(position.piles)}"
            )
        if seat is not None and position.rng is not None:
            problems.append("a seat's view gives no generator state: the hidden cards are dealt anew")

        def faces(labels: list[str], where: str, place: tuple[int, int] | None = None) -> list[int]:
            out = []
            for i, text in enumerate(labels):
                m = _LABEL.match(text)
                f = None if m is None else self.face_of_label.get(m.group(1) + m.group(2))
                if m is None or f is None:
                    problems.append(f"{where}: there is no card {text.partition('*')[0]!r} in the card set")
                    continue
                if m.group(3) is not None:
                    if place is None:
                        problems.append(f"{where}: card {text} carries an octopus, which sits only beside a ship card")
                    else:
                        p = int(m.group(3))
                        if t.octopus[p] is not None:
                            problems.append(f"seat {p}'s octopus sits on two cards (it has one octopus, S7)")
                        t.octopus[p] = (place[0], place[1], i)
                out.append(f)
            return out

        # Hands and piles: lists where the description sees them, counts where hidden.
        hidden_hands = t.hidden_hands
        for p in range(2):
            hand = position.hands[p]
            sees = seat is None or seat == p
            if isinstance(hand, int):
                if sees:
                    who = "a whole table" if seat is None else f"seat {seat}'s own view"
                    problems.append(f"seat {p}'s hand is given as a count ({hand}): {who} names its cards")
                hidden_hands[p] = hand
            else:
                if not sees:
                    problems.append(f"seat {p}'s hand is hidden from seat {seat}: give how many cards it holds")
                t.hands[p] = faces(hand, f"seat {p}'s hand")
        hidden_piles = t.hidden_piles
        for i, pile in enumerate(position.piles):
            name = "the draw pile" if len(position.piles) == 1 else f"seat {i}'s draw pile"
            sees = seat is None or (variant and seat == i)
            if isinstance(pile, int):
                if sees:
                    who = "a whole table" if seat is None else f"seat {seat}"
                    problems.append(f"{name} is given as a count ({pile}): {who} knows its cards")
                hidden_piles[i] = pile
                t.piles.append([])
            else:
                if not sees:
                    problems.append(f"{name} is hidden from seat {seat}: give how many cards it holds")
                t.piles.append(faces(pile, name))
        for k in range(NSHIP):
            for j in range(2):
                t.sides[k][j] = faces(position.sides[k][j], f"ship {self.ship_values[k]}, seat {j}'s side", (k, j))
        if position.removed is None:
            if seat is not None:
                problems.append(f"seat {seat}'s view lists the cards out of play: it saw them leave")
        else:
            t.removed = faces(position.removed, "the cards out of play")
        self._read_tokens(position, t, problems)
        if problems:
            return t, problems
        # How many copies of each face the description places, against the card set.
        placed = Counter(
            f for zone in (*t.hands, *t.piles, *(s for ship in t.sides for s in ship), t.removed) for f in zone
        )
        for f, n in sorted(placed.items()):
            if n > self.copies[f]:
                problems.append(f"there are {n} cards {self.labels[f]}: the card set has {self.copies[f]}")
        if variant:
            for p in range(2):
                own = Counter(t.hands[p]) + Counter(t.piles[p])
                for f, n in sorted(own.items()):
                    if n > self.set_copies[p][f]:
                        problems.append(
                            f"seat {p}'s hand and draw pile hold {n} cards {self.labels[f]}: "
                            f"its own set has {self.set_copies[p][f]} (S9)"
                        )
        if seat is None and position.removed is None and not problems:
            t.removed = sorted((self.copies - placed).elements())
        elif seat is None and not problems:
            for f in sorted(set(self.copies) - set(placed) | {f for f in placed if placed[f] < self.copies[f]}):
                missing = self.copies[f] - placed[f]
                problems.append(
                    f"{missing} card{'s' if missing > 1 else ''} {self.labels[f]} of the card set "
                    f"{'are' if missing > 1 else 'is'} nowhere (a whole table places every card)"
                )
        return t, problems

    def _read_tokens(self, position: SirensPosition, t: _Table, problems: list[str]) -> None:
        """The ship cards, crew tokens, rum mugs, phase and turn in numbers."""
        t.status = [_STATUS_CODE[s] for s in position.ships]
        for r, place in enumerate(position.rum):
            if place == "held":
                t.rum[r] = HELD
            elif place == "gone":
                t.rum[r] = GONE
            elif place in self.ship_index:
                t.rum[r] = self.ship_index[place]
            else:
                problems.append(f"seat {r}'s rum mug stands on ship {place}: there is no such ship card")
        for i, where in enumerate(position.crew):
            if isinstance(where, str):
                t.crew[i] = CREW_REMOVED if where == "removed" else CREW_WON + int(where[-1])
            elif where in self.ship_index:
                t.crew[i] = self.ship_index[where]
            else:
                problems.append(f"the {TOKENS[i]} stands on ship {where}: there is no such ship card")
        t.phase = PHASES.index(position.phase)
        t.turn = position.turn
        t.start = position.start_player
        t.passed = position.last_turn_passed
        move = position.crew_move
        if move is not None:
            source = -1
            if move.from_ship is not None:
                source = self.ship_index.get(move.from_ship, -2)
                if source == -2:
                    problems.append(f"the crew decision's card came from ship {move.from_ship}: there is no such ship")
            if move.ship not in self.ship_index:
                problems.append(f"the crew decision names ship {move.ship}: there is no such ship card")
            else:
                t.pending = (self.ship_index[move.ship], move.side, source)
        if (position.phase == "crew") != (move is not None):
            problems.append(
                "the phase is 'crew' but no crew decision is given"
                if move is None
                else f"a crew decision is given but the phase is {position.phase!r}: it waits only in the 'crew' phase"
            )

    def _view_problems(self, position: SirensPosition, t: _Table) -> list[str]:
        """A seat's view: the hidden cards it counts are exactly the ones it cannot see."""
        seat = position.seat
        assert seat is not None
        other = 1 - seat
        hidden_hands, hidden_piles = t.hidden_hands, t.hidden_piles
        seen = Counter(
            f for zone in (t.hands[seat], *t.piles, *(s for ship in t.sides for s in ship), t.removed) for f in zone
        )
        problems: list[str] = []
        if not self.variant:
            unseen = len(self.card_face) - sum(seen.values())
            counted = hidden_hands[other] + hidden_piles[0]
            if unseen != counted:
                problems.append(
                    f"seat {seat} sees {sum(seen.values())} of the {len(self.card_face)} cards, so {unseen} are hidden "
                    f"from it, but seat {other}'s hand and the draw pile hold {hidden_hands[other]} + {hidden_piles[0]}"
                )
            return problems
        # The variant (S9): the seat's own set is all in sight (its hand, its remaining
        # cards, the rest beside the ship cards or out of play); the other seat's hidden
        # hand and pile hold what of its set is not in sight.
        on_table = Counter(f for zone in (*(s for ship in t.sides for s in ship), t.removed) for f in zone)
        own = Counter(t.hands[seat]) + Counter(t.piles[seat])
        unseen = 0
        for f in range(len(self.faces)):
            own_out = self.set_copies[seat][f] - own[f]  # the seat's own cards of f in play or out
            if on_table[f] < own_out:
                problems.append(
                    f"seat {seat}'s own set has {self.set_copies[seat][f]} cards {self.labels[f]}, its hand and "
                    f"remaining cards hold {own[f]}, but only {on_table[f]} are beside the ship cards or out of play"
                )
                continue
            unseen += self.set_copies[other][f] - (on_table[f] - own_out)
        counted = hidden_hands[other] + hidden_piles[other]
        if not problems and unseen != counted:
            problems.append(
                f"{unseen} cards of seat {other}'s set are out of seat {seat}'s sight, but seat {other}'s hand "
                f"and draw pile hold {hidden_hands[other]} + {hidden_piles[other]}"
            )
        return problems

    # ------------------------------------------------------------------ the rules' checks

    def _table_problems(self, t: _Table, points_given: list[int]) -> list[str]:
        """Every rule a whole table breaks: the checks of the game's loader
        (_core/sirens_snapshot.py, load_checked), each in the game's terms."""
        problems: list[str] = []
        ships = self.ship_values
        values = self.values
        in_play = [s == IN_PLAY for s in t.status]
        ships_in_play = sum(in_play)
        for k in range(NSHIP):
            if not in_play[k] and (t.sides[k][0] or t.sides[k][1]):
                problems.append(f"ship {ships[k]} is out of play ({_SHIP_STATUS[t.status[k]]}) but has cards beside it")
        for p in range(2):
            r = t.rum[p]
            if r == GONE and ships_in_play == NSHIP:
                problems.append(
                    f"seat {p}'s rum mug is gone, but a rum mug leaves play only with a ship card it stood on "
                    "and every ship card is in play (S6)"
                )
            if r >= 0 and not in_play[r]:
                problems.append(f"seat {p}'s rum mug stands on ship {ships[r]}, which is out of play")
        crew_in_play = 0
        for i in range(2):
            v = t.crew[i]
            if v < NSHIP:
                if not in_play[v]:
                    problems.append(f"the {TOKENS[i]} stands on ship {ships[v]}, which is out of play")
                else:
                    crew_in_play += 1
        if t.crew[0] < NSHIP and t.crew[0] == t.crew[1]:
            problems.append(f"the captain and the mate both stand on ship {ships[t.crew[0]]}")
        won = [t.status.count(p) for p in range(2)]
        for p in range(2):
            tokens = t.crew.count(CREW_WON + p)
            if tokens > won[p]:
                problems.append(
                    f"seat {p} won {tokens} crew tokens but {won[p]} ship card{'s' if won[p] != 1 else ''}: "
                    "a crew token is won with the ship card it stands on (S6)"
                )
        if t.crew.count(CREW_REMOVED) > t.status.count(REMOVED):
            problems.append(
                f"{t.crew.count(CREW_REMOVED)} crew tokens are removed but {t.status.count(REMOVED)} ship cards: "
                "a token leaves play with the ship card removed after a tie (S6)"
            )
        points = [won[p] + t.crew.count(CREW_WON + p) for p in range(2)]
        if points != list(points_given):
            problems.append(
                f"the points are given as {points_given[0]}:{points_given[1]}, the table makes them "
                f"{points[0]}:{points[1]} (a point per ship card and crew token won, S8)"
            )
        if points[0] >= 4 and points[1] >= 4:
            problems.append(f"both seats have 4 points or more ({points[0]}:{points[1]}): the game ends at 4 (S8)")
        # The removed cards went with the ship cards out of play (S6).
        need = sum(2 * SIDE_MAX if t.status[k] == REMOVED else self.min_won[k] for k in range(NSHIP) if not in_play[k])
        top = 2 * SIDE_MAX * (NSHIP - ships_in_play)
        if not need <= len(t.removed) <= top:
            problems.append(
                f"{len(t.removed)} cards are out of play, but the ship cards out of play took between "
                f"{need} and {top} cards with them (S6)"
            )
        # The turn, the picks, the crew decision and the hands are checked whatever the
        # above found: none of them reads a token's place that could be out of range.
        sums = [[sum(values[f] for f in side) for side in ship] for ship in t.sides]
        thresholds = [ships[k] + 3 * sum(1 for r in t.rum if r == k) for k in range(NSHIP)]
        counts = [[len(side) for side in ship] for ship in t.sides]
        problems += self._turn_problems(t, points, in_play, counts)
        if t.phase == 0:
            problems += self._pick_problems(t)
        else:  # (the picks and pick floors after the pick phase are derived: snapshot)
            problems += self._hand_problems(t)
        if t.phase == 3 and t.pending is not None:
            problems += self._pending_problems(t, in_play, sums, thresholds, counts, crew_in_play)
        if problems:  # a ship card's scoring is judged on an otherwise sound table
            return problems
        problems += self._unscored_problems(t, points, in_play, sums, thresholds, counts)
        return problems

    def _has_main(self, t: _Table, p: int, in_play: list[bool], counts: list[list[int]]) -> bool:
        """Whether seat p has a main action (S4): a card to play, or an octopus move (S7)."""
        if not any(in_play):
            return False
        if t.hands[p] or t.hidden_hands[p]:
            return True
        if t.octopus[p] is not None:
            return False
        blocked = t.octopus[1 - p]
        open_slots = [(k, j) for k in range(NSHIP) for j in range(2) if in_play[k] and counts[k][j] < SIDE_MAX]
        for k in range(NSHIP):
            for j in range(2):
                movable = any(blocked != (k, j, i) for i in range(counts[k][j]))
                if movable and any(slot != (k, j) for slot in open_slots):
                    return True
        return False

    def _turn_problems(self, t: _Table, points: list[int], in_play: list[bool], counts: list[list[int]]) -> list[str]:
        """The phase against the end of the game, the passes, the rum mug of 'after'."""
        problems: list[str] = []
        by_points = max(points) >= 4
        over = t.phase == 4
        by_passes = over and any(in_play) and not by_points
        finished = not any(in_play) or by_points
        if finished and not over:
            why = "no ship card is left in play" if not any(in_play) else f"a seat has {max(points)} points"
            problems.append(f"the phase is {PHASES[t.phase]!r}, but the game is over: {why} (S8)")
        if t.passed and t.phase != 1:
            problems.append("the last turn was a pass, so the phase is 'main' (a pass ends the turn at once, S4)")
        if t.phase == 2 and t.rum[t.turn] != HELD:
            problems.append(
                f"the phase is 'after', which comes only while the turn player, seat {t.turn}, holds its rum mug (S13)"
            )
        if t.passed and self._has_main(t, 1 - t.turn, in_play, counts):
            problems.append(
                f"the last turn was a pass, but seat {1 - t.turn} has a card to play or an octopus move (S4)"
            )
        if by_passes:
            for p in (1 - t.turn, t.turn):
                if self._has_main(t, p, in_play, counts):
                    problems.append(
                        "the game is over with ship cards in play and no seat at 4 points, so both seats passed "
                        f"(S4), but seat {p} has a card to play or an octopus move"
                    )
        return problems

    def _pick_problems(self, t: _Table) -> list[str]:
        """The pick phase of the variant (S9, S14, S15): nothing has happened yet."""
        if not self.variant:
            return ["only the 'bow_to_rear' variant has a pick phase (S9)"]
        problems: list[str] = []
        if any(side for ship in t.sides for side in ship) or t.removed:
            problems.append("no card is beside a ship card or out of play during the pick phase")
        if t.rum != [HELD, HELD] or t.octopus != [None, None]:
            problems.append("both rum mugs and both octopuses are held during the pick phase")
        start = t.start
        picks = [len(h) for h in t.hands]
        if t.turn != start:
            problems.append(f"the pick phase is seat {start}'s turn, the start player's (S9)")
        if picks[1 - start] and picks[start] < HAND:
            problems.append(f"seat {1 - start} has picked, but the start player seat {start} picks first (S9)")
        if picks == [HAND, HAND]:
            problems.append("both seats have picked 4 starting cards: the pick phase is over")
        cur = start if picks[start] < HAND else 1 - start
        if picks[cur] < HAND:
            floor = max(t.hands[cur], default=0)
            above = sum(1 for f in t.piles[cur] if f >= floor)
            if above < HAND - picks[cur]:
                problems.append(
                    f"seat {cur} picked up to {self.labels[floor]}, and its set has {above} cards left at or above "
                    f"it: too few to complete 4 starting cards in ascending order (S14)"
                )
        return problems

    def _pending_problems(
        self,
        t: _Table,
        in_play: list[bool],
        sums: list[list[int]],
        thresholds: list[int],
        counts: list[list[int]],
        crew_in_play: int,
    ) -> list[str]:
        """The waiting crew decision (S5, S6, S7): it follows the card just placed."""
        assert t.pending is not None
        k, side, src = t.pending
        ships = self.ship_values
        name = f"the crew decision on ship {ships[k]}"
        if not in_play[k] or k not in t.crew:
            return [f"{name}: the ship card is in play with a crew token on it"]
        problems: list[str] = []
        if src >= 0 and not in_play[src]:
            problems.append(f"{name}: the card came from ship {ships[src]}, which is out of play")
        n = counts[k][side]
        if n == 0:
            return [*problems, f"{name}: seat {side}'s side holds no card, so none was placed there"]
        f = t.sides[k][side][-1]
        v = self.values[f]
        mover = t.turn
        if not self.crew_icon[f]:
            problems.append(
                f"{name}: the last card on seat {side}'s side, {self.labels[f]}, has no move-crew icon (S5)"
            )
        if src >= 0 and t.octopus[mover] != (k, side, n - 1):
            problems.append(
                f"{name}: the card came by octopus, so seat {mover}'s octopus sits on it, "
                f"the last card on seat {side}'s side (S7)"
            )
        if src < 0 and (k, side, n - 1) in t.octopus:
            problems.append(f"{name}: the card was just played from the hand and carries no octopus")
        if src == k and counts[k][1 - side] >= SIDE_MAX:
            problems.append(f"{name}: the octopus cannot have moved the card from a side of 5 cards (S5)")
        t_k = thresholds[k]
        if sums[k][side] - v >= t_k or sums[k][1 - side] + (v if src == k else 0) >= t_k:
            problems.append(f"{name}: ship {ships[k]} had reached its threshold {t_k} before the card came (S6)")
        if src >= 0 and src != k and not self._could_lose(src, v, sums, thresholds, counts):
            problems.append(
                f"{name}: no side of ship {ships[src]} could have held the moved {self.labels[f]} without "
                "scoring before (S6)"
            )
        if problems:
            return problems
        token = 0 if t.crew[0] == k else 1
        sides = [self._crew_destination(t, in_play, k, d, token) for d in (-1, 1)]
        if sides[0] == sides[1] or sum(in_play) == crew_in_play:
            problems.append(f"{name}: the {TOKENS[token]} has only one place to go, so there is no decision (S5, S11)")
        return problems

    @staticmethod
    def _crew_destination(t: _Table, in_play: list[bool], ship: int, direction: int, token: int) -> int:
        """Where a crew token goes from ``ship`` in a direction (S2: a ring without gaps;
        S5: it skips the ship card holding the other token)."""

        def step(k: int) -> int:
            while True:
                k = (k + direction) % NSHIP
                if in_play[k]:
                    return k

        k = step(ship)
        return step(k) if t.crew[1 - token] == k else k

    def _could_lose(
        self, ship: int, v: int, sums: list[list[int]], thresholds: list[int], counts: list[list[int]]
    ) -> bool:
        """Whether ``ship`` could have held one more card of value v on a side without
        scoring (S6): be the source of an octopus move of that card."""
        thr = thresholds[ship]
        for j in range(2):
            if (
                counts[ship][j] < SIDE_MAX
                and sums[ship][j] + v < thr
                and sums[ship][1 - j] < thr
                and not (counts[ship][j] + 1 == SIDE_MAX and counts[ship][1 - j] == SIDE_MAX)
            ):
                return True
        return False

    def _hand_problems(self, t: _Table) -> list[str]:
        """A hand is full while its draw pile has cards (S4)."""
        problems = []
        hidden_hands, hidden_piles = t.hidden_hands, t.hidden_piles
        for p in range(2):
            need = HAND
            if (t.phase == 3 and p == t.turn and t.pending is not None and t.pending[2] < 0) or (
                t.phase == 4 and p == t.turn
            ):
                need = HAND - 1  # the draw is pending after the crew move, or the game ended (S4)
            q = p if self.variant else 0
            pile = len(t.piles[q]) + hidden_piles[q]
            held = len(t.hands[p]) + hidden_hands[p]
            if pile and held < need:
                name = "its draw pile" if self.variant else "the draw pile"
                problems.append(
                    f"seat {p} holds {held} card{'s' if held != 1 else ''}: while {name} has cards it holds {need} (S4)"
                )
        return problems

    def _unscored_problems(
        self,
        t: _Table,
        points: list[int],
        in_play: list[bool],
        sums: list[list[int]],
        thresholds: list[int],
        counts: list[list[int]],
    ) -> list[str]:
        """No ship card in play has reached its threshold or two full sides (S6), but for
        the ones a crew decision scores after it (S5) and the octopus' source once the
        destination's scoring ended the game (S5, S8)."""
        problems: list[str] = []
        ships = self.ship_values
        low = min((self.values[f] for f in t.removed), default=1 << 30)
        exception_used = False
        for k in range(NSHIP):
            thr = thresholds[k]
            full = counts[k][0] == SIDE_MAX and counts[k][1] == SIDE_MAX
            if not in_play[k] or not (sums[k][0] >= thr or sums[k][1] >= thr or full):
                continue
            if t.phase == 3 and t.pending is not None and k in (t.pending[0], t.pending[2]):
                continue
            why = (
                "both sides hold 5 cards"
                if full and max(sums[k]) < thr
                else f"seat {0 if sums[k][0] >= thr else 1}'s side totals {max(sums[k])}, the threshold is {thr}"
            )
            if t.phase == 4 and not exception_used:
                hidden_hands, hidden_piles = t.hidden_hands, t.hidden_piles
                pile = len(t.piles[t.turn if self.variant else 0]) + hidden_piles[t.turn if self.variant else 0]
                held = len(t.hands[t.turn]) + hidden_hands[t.turn]
                if (
                    max(points) >= 4
                    and t.octopus[t.turn] is None
                    and self._could_lose(k, low, sums, thresholds, counts)
                    and not (pile and held < HAND)
                ):
                    exception_used = True  # the source of the octopus move that ended the game
                    continue
            problems.append(f"ship {ships[k]} is in play but should have been scored: {why} (S6)")
        return problems

    # ------------------------------------------------------------------ building

    def complete(self, position: SirensPosition, rng_state: int) -> SirensPosition:
        """The seat's view with the cards it cannot see dealt into the hidden zones, lowest
        faces into the other seat's hand first (a fill that suits the pick phase too)."""
        seat = position.seat
        if seat is None:
            return position
        other = 1 - seat
        label = self.labels
        seen = Counter(
            self.face_of_label[_face_text(c)]
            for zone in (
                *(h for h in position.hands if not isinstance(h, int)),
                *(p for p in position.piles if not isinstance(p, int)),
                *(s for ship in position.sides for s in ship),
                position.removed or [],
            )
            for c in zone
        )
        hands = list(position.hands)
        piles = list(position.piles)
        hidden_hand = position.hands[other]
        assert isinstance(hidden_hand, int)
        if self.variant:
            own = Counter(self.face_of_label[_face_text(c)] for c in (*position.hands[seat], *position.piles[seat]))  # type: ignore[misc]
            table = seen - own
            unseen: list[int] = []
            for f in range(len(self.faces)):
                own_out = self.set_copies[seat][f] - own[f]
                unseen += [f] * max(0, self.set_copies[other][f] - max(0, table[f] - own_out))
        else:
            unseen = sorted((self.copies - seen).elements())
        hands[other] = [label[f] for f in unseen[:hidden_hand]]
        q = other if self.variant else 0
        piles[q] = [label[f] for f in unseen[hidden_hand:]]
        return msgspec.structs.replace(position, seat=None, hands=hands, piles=piles)

    def snapshot(self, position: SirensPosition, rng_state: int) -> SirensStateData:
        table, problems = self._read_table(position)
        assert not problems, problems
        t = table
        hands, piles, sides, removed, octopus = self._assign_ids(t)
        picking = t.phase == 0
        if picking:
            picks = [len(h) for h in t.hands]
            floors = [max(h, default=0) for h in t.hands]
            current = t.start if picks[t.start] < HAND else 1 - t.start
        else:
            picks = [HAND, HAND] if self.variant else [0, 0]
            floors = [self._lowest_floor(p) for p in range(2)] if self.variant else [0, 0]
            current = -1 if t.phase == 4 else t.pending[1] if t.pending is not None else t.turn
        points = [t.status.count(p) + t.crew.count(CREW_WON + p) for p in range(2)]
        ended_by_passes = t.phase == 4 and IN_PLAY in t.status and max(points) < 4
        pending = None
        if t.pending is not None:
            k, side, src = t.pending
            pending = Pending(ship=k, side=side, source=src, draw=src < 0)
        return SirensStateData(
            schema_version=2,
            game="sirens",
            variant=self.sirens.variant,  # type: ignore[arg-type]
            card_set=self.sirens.cards.digest,
            rng=position.rng if position.rng is not None else f"{rng_state & 0xFFFFFFFFFFFFFFFF:016x}",
            phase=PHASES[t.phase],  # type: ignore[arg-type]
            start_player=t.start,
            turn=t.turn,
            current_player=current,
            hands=hands,
            piles=piles,
            sides=sides,
            ships=list(t.status),
            rum=list(t.rum),
            crew=list(t.crew),
            octopus=octopus,
            removed=removed,
            passes=2 if ended_by_passes else 1 if t.passed else 0,
            picks=picks,
            pick_floor=floors,
            pending=pending,
            deal=None,
            history=[],
        )

    def _lowest_floor(self, p: int) -> int:
        """The lowest face a seat's fourth pick can have (S14): the pick floor the builder
        gives a seat after the pick phase, where it matters to no rule (S19)."""
        below = 0
        for f in range(len(self.faces)):
            below += self.set_copies[p][f]
            if self.set_copies[p][f] and below >= HAND:
                return f
        return len(self.faces) - 1  # pragma: no cover - a variant's set has 4 cards or more

    def _assign_ids(
        self, t: _Table
    ) -> tuple[list[list[int]], list[list[int]], list[list[list[int]]], list[int], list[int]]:
        """Card ids for the faces of a sound whole table: the copies of each face in id
        order go to the hands, the draw piles, the sides and the removed cards in turn
        (the variant: a seat's hand and pile from its own set first). So a hand holds the
        lowest ids of its faces and a pile in the pick phase waits in id order, as S12
        and S15 ask."""
        free: list[list[list[int]]] = [[[] for _ in self.faces] for _ in range(2)]
        for c, f in enumerate(self.card_face):
            free[self.card_emblem[c] if self.variant else 0][f].append(c)
        for lists in free:
            for ids in lists:
                ids.reverse()  # pop() takes the lowest id first

        def take(f: int, own: int | None) -> int:
            if own is not None and self.variant:
                return free[own][f].pop()
            pools = [p for p in (0, 1) if free[p][f]]
            best = min(pools, key=lambda p: free[p][f][-1])
            return free[best][f].pop()

        # A hand in ascending face order, lowest id first: the order picks make (S14).
        hands = [sorted((take(f, p) for f in t.hands[p]), key=lambda c: (self.card_face[c], c)) for p in range(2)]
        piles_top = [[take(f, i) for f in pile] for i, pile in enumerate(t.piles)]
        # S15: the sets wait in id order through the pick phase; else bottom first, as saved.
        piles = [sorted(p) for p in piles_top] if t.phase == 0 else [list(reversed(p)) for p in piles_top]
        sides = [[[take(f, None) for f in side] for side in ship] for ship in t.sides]
        removed = sorted(take(f, None) for f in t.removed)
        octopus = [-1 if o is None else sides[o[0]][o[1]][o[2]] for o in t.octopus]
        return hands, piles, sides, removed, octopus

    # ------------------------------------------------------------------ the compact text

    def text(self, position: SirensPosition) -> str:
        def cards(labels: list[str] | int) -> str:
            if isinstance(labels, int):
                return f"?{labels}"
            return ",".join(labels) or "-"

        table = []
        for k in range(NSHIP):
            status = position.ships[k]
            if status == "in play":
                table.append("|".join(cards(side) for side in position.sides[k]))
            else:
                table.append(_STATUS_TEXT[status])
        crew = ",".join(str(c) if isinstance(c, int) else _STATUS_TEXT[c] for c in position.crew)
        rum = "/".join(str(r) if isinstance(r, int) else "h" if r == "held" else "x" for r in position.rum)
        phase: str = position.phase
        move = position.crew_move
        if move is not None:
            phase = f"crew:{move.ship}/{move.side}" + (f":{move.from_ship}" if move.from_ship is not None else "")
        fields = [
            "/".join(table),
            crew,
            rum,
            "/".join(cards(h) for h in position.hands),
            "/".join(cards(p) for p in position.piles),
            "?" if position.removed is None else cards(position.removed),
            str(position.turn),
            phase,
            str(position.start_player),
            "pass" if position.last_turn_passed else "-",
            "/".join(map(str, position.points)),
            "all" if position.seat is None else str(position.seat),
        ]
        if position.rng is not None:
            fields.append(position.rng)
        return " ".join(fields)

    def read(self, text: str) -> SirensPosition:
        title = f"{self.game.title} position"
        problems: list[str] = []
        fields = text.replace("\u2693", "a").split()  # the move texts' icon reads as 'a'

        if not FIELDS_MIN <= len(fields) <= FIELDS_MAX:
            raise InvalidPositionError(
                [
                    f"a position text has {FIELDS_MIN} fields separated by spaces (and an optional generator "
                    f"state), not {len(fields)}: {' '.join(FIELD_NAMES)}"
                ],
                title,
            )
        (table, crew, rum, hands, piles, removed, turn, phase, start, passed, points, seat, *rest) = fields
        data: dict[str, Any] = {}

        def number(word: str, what: str, low: int, high: int) -> int | None:
            if not re.fullmatch(r"-?[0-9]{1,4}", word) or not low <= int(word) <= high:
                problems.append(f"{what}: {word[:20]!r} is not a number from {low} to {high}")
                return None
            return int(word)

        def card_list(word: str, what: str, hidden: int | None = None) -> list[str] | int:
            if word == "-":
                return []
            if word.startswith("?") and hidden is not None:
                n = number(word[1:], f"{what} (hidden cards)", 0, hidden)
                return 0 if n is None else n
            out = word.split(",")
            for label in out:
                if not re.fullmatch(r"-?[0-9]{1,2}a?(\*[01])?", label):
                    problems.append(
                        f"{what}: {label[:20]!r} is no card (a value, 'a' for the move-crew icon, "
                        "'*0'/'*1' for an octopus)"
                    )
                elif _face_text(label) not in self.face_of_label:
                    problems.append(f"{what}: there is no card {_face_text(label)!r} in the card set")
            return out

        ships = table.split("/")
        if len(ships) != NSHIP:
            problems.append(f"the table lists {len(ships)} ship cards separated by '/', not {NSHIP}")
        else:
            statuses: list[str] = []
            sides: list[list[list[str] | int]] = []
            for k, ship in enumerate(ships):
                name = f"ship {self.ship_values[k]}"
                if ship in _STATUS_OF_TEXT:
                    statuses.append(_STATUS_OF_TEXT[ship])
                    sides.append([[], []])
                    continue
                parts = ship.split("|")
                if len(parts) != 2:
                    problems.append(f"{name}: {ship[:40]!r} is neither two sides 'a|b' nor w0, w1 or x")
                    statuses.append("in play")
                    sides.append([[], []])
                    continue
                statuses.append("in play")
                sides.append([card_list(parts[j], f"{name}, seat {j}'s side") for j in range(2)])
            data["ships"], data["sides"] = statuses, sides
        crews = crew.split(",")
        if len(crews) != 2:
            problems.append(f"the crew field gives the captain and the mate separated by ',', not {crew[:40]!r}")
        else:
            data["crew"] = [
                _STATUS_OF_TEXT[c] if c in ("w0", "w1", "x") else number(c, f"the {TOKENS[i]}", 1, MAX_SHIP)
                for i, c in enumerate(crews)
            ]
        rums = rum.split("/")
        if len(rums) != 2:
            problems.append(f"the rum field gives seat 0's and seat 1's mug separated by '/', not {rum[:40]!r}")
        else:
            data["rum"] = [
                "held" if r == "h" else "gone" if r == "x" else number(r, f"seat {i}'s rum mug", 1, MAX_SHIP)
                for i, r in enumerate(rums)
            ]
        hand_words = hands.split("/")
        if len(hand_words) != 2:
            problems.append(f"the hands field gives two hands separated by '/', not {hands[:40]!r}")
        else:
            data["hands"] = [card_list(h, f"seat {i}'s hand", HAND) for i, h in enumerate(hand_words)]
        pile_words = piles.split("/")
        if len(pile_words) > 2:
            problems.append(f"the piles field gives one or two draw piles separated by '/', not {len(pile_words)}")
        else:
            data["piles"] = [card_list(p, "the draw pile", MAX_PILE) for p in pile_words]
        data["removed"] = None if removed == "?" else card_list(removed, "the cards out of play")
        data["turn"] = number(turn, "the turn", 0, 1)
        match = re.fullmatch(r"crew:([0-9]{1,4})/([01])(?::([0-9]{1,4}))?", phase)
        if match:
            data["phase"] = "crew"
            data["crew_move"] = {
                "ship": number(match.group(1), "the crew decision's ship", 1, MAX_SHIP),
                "side": int(match.group(2)),
                "from_ship": None
                if match.group(3) is None
                else number(match.group(3), "the octopus' source", 1, MAX_SHIP),
            }
        elif phase in ("pick", "main", "after", "over"):
            data["phase"] = phase
        else:
            problems.append(
                f"the phase {phase[:40]!r} is none of pick, main, after, over, crew:SHIP/SEAT, crew:SHIP/SEAT:FROM"
            )
        data["start_player"] = number(start, "the start player", 0, 1)
        if passed not in ("pass", "-"):
            problems.append(f"the passes field is 'pass' (the last turn was a pass) or '-', not {passed[:40]!r}")
        data["last_turn_passed"] = passed == "pass"
        point_words = points.split("/")
        if len(point_words) != 2:
            problems.append(f"the points field gives two seats' points separated by '/', not {points[:40]!r}")
        else:
            data["points"] = [number(p, f"seat {i}'s points", 0, 5) for i, p in enumerate(point_words)]
        data["seat"] = None if seat == "all" else number(seat, "the seat", 0, 1)
        if rest:
            if not re.fullmatch(r"[0-9a-f]{16}", rest[0]):
                problems.append(f"the generator state is 16 hex digits, not {rest[0][:40]!r}")
            else:
                data["rng"] = rest[0]
        if problems:
            raise InvalidPositionError(problems, title)
        # The fields read; their lists' sizes (a side of 6 cards, a hand of 5) in the
        # game's terms before the schema checks the rest.
        problems = _size_problems(SirensPosition(**data), self.ship_values)
        if problems:
            raise InvalidPositionError(problems, title)
        try:
            return msgspec.convert(data, type=SirensPosition, strict=True)
        except msgspec.ValidationError as exc:  # pragma: no cover - every field and size is checked above
            raise InvalidPositionError([f"not a description: {exc}"], title) from None


def _size_problems(position: SirensPosition, ships: list[int]) -> list[str]:
    """Every count out of range in a description (a Struct made in Python is not checked
    against its schema): sides of 5 cards, hands of 4, the seats, the lists' lengths;
    ``ships``, the printed values of the ship cards, bow to rear."""
    problems: list[str] = []

    def count(what: str, value: object, low: int, high: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            problems.append(f"{what} is {value!r}, not a number from {low} to {high}")

    def length(what: str, value: object, low: int, high: int, unit: str, rule: str = "") -> bool:
        if not isinstance(value, (list, tuple)):
            problems.append(f"{what} is a list, not {type(value).__name__}")
            return False
        if not low <= len(value) <= high:
            span = f"exactly {low}" if low == high else f"at most {high}" if low == 0 else f"{low} to {high}"
            problems.append(f"{what}: {len(value)} {unit}, {span}{rule}")
            return False
        return True

    if position.seat is not None:
        count("the seat", position.seat, 0, 1)
    count("the turn", position.turn, 0, 1)
    count("the start player", position.start_player, 0, 1)
    length("the ship cards", position.ships, NSHIP, NSHIP, "entries")
    if length("the sides", position.sides, NSHIP, NSHIP, "ship cards"):
        for k, ship in enumerate(position.sides):
            if length(f"the sides of ship {ships[k]}", ship, 2, 2, "sides"):
                for j, side in enumerate(ship):
                    length(f"seat {j}'s side of ship {ships[k]}", side, 0, SIDE_MAX, "cards", " (S5)")
    length("the crew", position.crew, 2, 2, "tokens")
    length("the rum mugs", position.rum, 2, 2, "entries")
    if length("the hands", position.hands, 2, 2, "entries"):
        for p, hand in enumerate(position.hands):
            if isinstance(hand, int):
                count(f"seat {p}'s hidden hand", hand, 0, HAND)
            else:
                length(f"seat {p}'s hand", hand, 0, HAND, "cards", " (S3)")
    if length("the draw piles", position.piles, 1, 2, "entries"):
        for i, pile in enumerate(position.piles):
            if isinstance(pile, int):
                count(f"draw pile {i}'s size", pile, 0, MAX_PILE)
            else:
                length(f"draw pile {i}", pile, 0, MAX_PILE, "cards")
    if position.removed is not None:
        length("the cards out of play", position.removed, 0, MAX_CARDS, "cards")
    if length("the points", position.points, 2, 2, "entries"):
        for p, points in enumerate(position.points):
            count(f"seat {p}'s points", points, 0, 5)
    return problems


def _face_text(label: str) -> str:
    """A card label without its octopus mark."""
    return label.partition("*")[0]


_SHIP_STATUS: dict[int, ShipStatus] = {IN_PLAY: "in play", 0: "won by seat 0", 1: "won by seat 1", REMOVED: "removed"}
_STATUS_CODE = {name: code for code, name in _SHIP_STATUS.items()}
_STATUS_TEXT = {"won by seat 0": "w0", "won by seat 1": "w1", "removed": "x"}
_STATUS_OF_TEXT: dict[str, Any] = {text: name for name, text in _STATUS_TEXT.items()}
FIELD_NAMES = (
    "table",
    "crew",
    "rum",
    "hands",
    "piles",
    "removed",
    "turn",
    "phase",
    "start",
    "passes",
    "points",
    "seat",
    "[rng]",
)
FIELDS_MIN = len(FIELD_NAMES) - 1
FIELDS_MAX = len(FIELD_NAMES)
