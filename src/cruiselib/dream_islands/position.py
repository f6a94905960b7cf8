"""Dream Islands positions from descriptions: a whole table, or what one seat sees.

A description (:class:`DreamIslandsPosition`) says where every piece stands, which numbers
lie under each seat's shells, each seat's completed missions, hand and draw pile, whose
turn it is and the phase. What only history fixes is derived: the rounds played (when left
out, the fewest that the shells, pieces and missions allow), the hand memory of I16 (the
table's facts, unless given), the end signal and the scores. The compact text is
documented on the game's page (docs/dream_islands.md, "Setting up a position").

Every check of the snapshot loader (``dream_islands_snapshot.load_checked``) is made here
too, in the game's words, and all of them at once: a description without problems always
loads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, get_args

import msgspec
from msgspec import Meta

from cruiselib.dream_islands.moves import MISSIONS
from cruiselib.dream_islands.schema import ROUND_CAP, DreamIslandsStateData
from cruiselib.errors import InvalidPositionError
from cruiselib.positions import PositionRules
from cruiselib.serialize import RngText

if TYPE_CHECKING:
    from cruiselib.dream_islands.game import DreamIslandsGame, DreamIslandsState

__all__ = ["DreamIslandsPosition", "DreamIslandsPositions", "SeatPosition"]

PIECES: Final = 6  # pieces of a colour (I8)
HAND: Final = 3  # cards in a full hand (I6)
NMIS: Final = 16  # missions of a colour (I4)
ALL_MISSIONS: Final = (1 << NMIS) - 1
SMALL_VALUES: Final = (3, 2, 2)  # the small middle islands (I1)
ROUNDS_SEARCHED: Final = 160
"""Rounds tried when a description leaves them out. A seat's steps repeat their pattern
every 16 turns (4 sets of shells take 56 steps, 0 modulo the 8-island ring), and 6 pieces
are at most 54 steps from the start, so every position that fits some count of rounds
fits one below this."""

MissionName = Literal[
    "exactly 2 pieces on one island",
    "exactly 3 pieces on one island",
    "exactly 4 pieces on one island",
    "exactly 5 pieces on one island",
    "on exactly 2 consecutive islands",
    "on exactly 3 consecutive islands",
    "on exactly 4 consecutive islands",
    "on exactly 5 consecutive islands",
    "majority on island 1",
    "majority on island 2",
    "majority on island 3",
    "majority on island 4",
    "majority on island 5",
    "majority on island 6",
    "majority on island 7",
    "majority on island 8",
]
"""A mission card by its name, as move texts name it (ids in ``MISSIONS`` order)."""

_NAME_TO_ID: Final = {name: i for i, name in enumerate(get_args(MissionName))}
if tuple(get_args(MissionName)) != MISSIONS:  # pragma: no cover - a guard for whoever renames missions
    raise RuntimeError("MissionName must list cruiselib.dream_islands.MISSIONS in order")

Count = Annotated[int, Meta(ge=0, le=PIECES)]
Seat = Annotated[int, Meta(ge=0, le=3)]
Number = Annotated[int, Meta(ge=2, le=5)]
Missions = Annotated[list[MissionName], Meta(max_length=NMIS)]
CardCount = Annotated[int, Meta(ge=0, le=NMIS)]


class SeatPosition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One seat at the table: its pieces, shells and mission cards.

    A card the describing seat cannot see is given as a count: another seat's hand and
    pile, and the seat's own pile above the cards it put under it itself."""

    airplane: Annotated[Count, Meta(description="pieces on the airplane")]
    islands: Annotated[
        list[Count], Meta(min_length=8, max_length=8, description="pieces on islands 1..8 (8 is the heart island)")
    ]
    main_island: Annotated[
        Count, Meta(description="pieces on the main middle island (the small ones are listed apart)")
    ]
    shells: Annotated[
        list[Number], Meta(max_length=4, description="the numbers 2..5 covered by a shell on the player board (I2)")
    ]
    completed: Annotated[Missions, Meta(description="completed missions, face up on the discard pile")]
    hand: Annotated[
        Annotated[list[MissionName], Meta(max_length=HAND)] | Annotated[int, Meta(ge=0, le=HAND)],
        Meta(description="the missions in hand, or how many (hidden from the describing seat)"),
    ]
    pile: Annotated[
        Missions | CardCount,
        Meta(
            description="the draw pile above the cards the seat put under it, next drawn first; or its size "
            "(a seat never sees the order of its own pile, I6)"
        ),
    ]
    under: Annotated[
        Missions | CardCount,
        Meta(
            description="the cards the seat put under its pile itself (I6, I11), still there, next drawn first; "
            "or how many (another seat's)"
        ),
    ]
    memory: Annotated[
        Annotated[list[Missions], Meta(max_length=HAND)] | None,
        Meta(
            description="what play has shown everybody of the hand (I16): the k-th list holds missions of which "
            "at least k of its cards are none, one list per card; None: only what the table shows now (I13)"
        ),
    ] = None


class DreamIslandsPosition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Dream Islands position as a person describes it: the whole table (``seat`` None),
    or what seat ``seat`` sees, every card hidden from it given as a count. Seat 0 is the
    start player (I8)."""

    seat: Annotated[Seat | None, Meta(description="whose view this is; None: the whole table")]
    seats: Annotated[list[SeatPosition], Meta(min_length=2, max_length=4, description="every seat, in turn order")]
    small_islands: Annotated[
        list[Seat | None],
        Meta(min_length=3, max_length=3, description="the seat on the small middle islands worth 3, 2, 2 (None: free)"),
    ]
    turn: Annotated[Seat | None, Meta(description="the seat to decide; None once the game is over")]
    phase: Annotated[
        Literal["move", "exchange", "over"],
        Meta(description="move: cover a number and move (A, B); exchange: put cards under or draw (C, I6); over"),
    ]
    rounds: Annotated[
        Annotated[int, Meta(ge=0, le=ROUND_CAP)] | None,
        Meta(description="complete rounds played; None: the fewest the shells, pieces and missions allow"),
    ] = None
    rng: Annotated[
        RngText | None, Meta(description="the generator state for future chance (whole table only); None: a seed's")
    ] = None


@dataclass
class _SeatCards:
    """A seat of a description in numbers: mission ids, ``None`` for what is a count."""

    row: list[int]  # the airplane, then islands 1..8
    main: int
    middle: int  # main island and small islands
    shells: list[int]
    completed: list[int]
    done_mask: int
    hand: list[int] | None
    hand_size: int
    top: list[int] | None
    top_size: int
    under: list[int] | None
    under_size: int
    memory: list[int] | None  # masks, one per card

    @property
    def pile_size(self) -> int:
        return self.top_size + self.under_size


def _ids(names: list[MissionName]) -> list[int]:
    return [_NAME_TO_ID[x] for x in names]


def _names(ids: list[int]) -> list[MissionName]:
    names: list[MissionName] = [get_args(MissionName)[x] for x in ids]
    return names


def _mask(ids: list[int]) -> int:
    mask = 0
    for x in ids:
        mask |= 1 << x
    return mask


def _ids_of(mask: int) -> list[int]:
    return [x for x in range(NMIS) if (mask >> x) & 1]


def _size(value: list[MissionName] | int) -> int:
    """How many cards a zone given as its cards or as a count holds."""
    return len(value) if isinstance(value, list) else value


def _quote(x: int) -> str:
    return f"'{MISSIONS[x]}'"


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


class DreamIslandsPositions(PositionRules[DreamIslandsPosition]):
    """Descriptions, compact texts and set-up of Dream Islands positions (I1..I16)."""

    position_type = DreamIslandsPosition
    recall = True  # a seat's view holds the hand memory (I16, I17): the deal keeps it
    game: DreamIslandsGame

    # ------------------------------------------------------------------ describe

    def describe(self, state: DreamIslandsState, seat: int | None) -> DreamIslandsPosition:
        """The whole table from the snapshot, or what ``seat`` sees from its view."""
        if seat is not None:
            return self._describe_view(state, seat)
        data = state._to_data()
        n = data.players
        seats = []
        for p in range(n):
            pile = list(reversed(data.piles[p]))  # next drawn first
            cut = len(pile) - data.known[p]
            default = self._default_memory(
                data.phase == "exchange" and p == data.current_player,
                self._holds(data.pieces, p),
                _mask(data.completed[p]),
                len(data.hands[p]),
            )
            memory = None if list(data.hand_avoids[p]) == default else [_names(_ids_of(m)) for m in data.hand_avoids[p]]
            seats.append(
                SeatPosition(
                    airplane=data.pieces[p][0],
                    islands=list(data.pieces[p][1:]),
                    main_island=data.main_island[p],
                    shells=list(data.covered[p]),
                    completed=_names(list(data.completed[p])),
                    hand=_names(list(data.hands[p])),
                    pile=_names(pile[:cut]),
                    under=_names(pile[cut:]),
                    memory=memory,
                )
            )
        return DreamIslandsPosition(
            seat=None,
            seats=seats,
            small_islands=[s if s >= 0 else None for s in data.small_islands],
            turn=None if data.phase == "over" else data.current_player,
            phase=data.phase,
            rounds=data.rounds,
            rng=data.rng,
        )

    def _describe_view(self, state: DreamIslandsState, seat: int) -> DreamIslandsPosition:
        """What ``seat`` sees now and remembers: ``view(seat, recall=True)``, its hand
        memory (what play has shown everybody of each hand, I16) given where it says more
        than the table shows now (I13)."""
        view = state.view(seat, recall=True)
        assert view.recall is not None  # asked for
        pieces = [[info.airplane, *info.islands] for info in view.seats]
        seats = []
        for info in view.seats:
            own = info.seat == seat
            held = sum(1 for s in view.small_islands if s == info.seat)
            default = self._default_memory(
                view.phase == "exchange" and info.seat == view.current_player,
                self._holds(pieces, info.seat),
                _mask(list(info.completed)),
                info.hand_size,
            )
            remembered = [_mask(list(level)) for level in view.recall[info.seat].avoid]
            memory = None if remembered == default else [_names(list(level)) for level in view.recall[info.seat].avoid]
            seats.append(
                SeatPosition(
                    airplane=info.airplane,
                    islands=list(info.islands),
                    main_island=info.middle - held,
                    shells=list(info.covered),
                    completed=_names(list(info.completed)),
                    hand=_names(list(view.hand)) if own else info.hand_size,
                    pile=info.pile_size - info.under,
                    under=_names(list(view.under_pile)) if own else info.under,
                    memory=memory,
                )
            )
        return DreamIslandsPosition(
            seat=seat,
            seats=seats,
            small_islands=[s if s >= 0 else None for s in view.small_islands],
            turn=None if view.phase == "over" else view.current_player,
            phase=view.phase,
            rounds=view.rounds,
        )

    # ------------------------------------------------------------------ rules used by the checks

    def _holds(self, pieces: list[list[int]], p: int) -> int:
        """I4: the missions that hold for seat p with the pieces ``pieces`` (per seat the
        airplane, then islands 1..8), as a mask (bit m for mission m)."""
        row = pieces[p]
        n = len(pieces)
        mask = 0
        occupied = 0
        for i in range(1, 9):
            own = row[i]
            if 2 <= own <= 5:
                mask |= 1 << (own - 2)  # exactly 2..5 pieces on one island
            if own:
                occupied |= 1 << (i - 1)
            others = sum(pieces[q][i] for q in range(n) if q != p)
            if own > others and (n != 2 or own >= others + 2):
                mask |= 1 << (7 + i)  # majority on island i
        return mask | (int(self.game.rules.run_bits(occupied)) << 4)  # runs of exactly 2..5 (the core's own)

    @staticmethod
    def _default_memory(exchanging: bool, holds: int, done: int, hand_size: int) -> list[int]:
        """What the table shows of a hand (I13): in the mover's exchange, none of its cards
        is a mission that holds now; otherwise nothing."""
        level = holds & ~done & ALL_MISSIONS if exchanging else 0
        return [level] * hand_size

    # ------------------------------------------------------------------ problems

    def problems(self, position: DreamIslandsPosition) -> list[str]:
        """Every problem of ``position``, in the game's terms (see the module docstring)."""
        n = self.game.num_players
        found: list[str] = []
        if len(position.seats) != n:
            return [f"the game has {n} seats, the description {len(position.seats)}"]
        view = position.seat
        if view is not None and view >= n:
            found.append(f"seat {view} does not play in a {n}-player game")
            view = None
        if view is not None and position.rng is not None:
            found.append("a seat's view gives no generator state: only the whole table knows its future")
        seats = [self._seat_cards(position, p, found) for p in range(n)]
        sound_pieces = self._check_board(position, seats, found)
        sound_shells = self._check_shells(seats, found)
        sound_turn = self._check_turn(position, found)
        if any(s is None for s in seats):
            return found
        cards = [s for s in seats if s is not None]
        self._check_missions(position, cards, found)
        pieces = [s.row for s in cards]
        if sound_turn:
            self._check_hands(position, cards, pieces if sound_pieces else None, found)
        if sound_pieces and sound_shells and sound_turn:
            self._check_history(position, cards, found)
        return found

    def _seat_cards(self, position: DreamIslandsPosition, p: int, found: list[str]) -> _SeatCards | None:
        """Seat p in numbers, after checking what is given as cards and what as counts."""
        s = position.seats[p]
        view = position.seat
        whole = view is None or view >= len(position.seats)
        own = whole or view == p
        shown = {"hand": own, "pile": whole, "under": own}
        sound = True
        for field, listed in shown.items():
            value = getattr(s, field)
            if listed and not isinstance(value, list):
                who = "a whole table lists every card" if whole else f"seat {p} sees it"
                found.append(f"seat {p}'s {self._zone(field)} is given as a count, but {who}: list its cards")
                sound = False
            elif not listed and isinstance(value, list):
                why = (
                    f"seat {view} sees only how many there are"
                    if field != "pile" or view != p
                    else (f"seat {p} never sees the order of its own pile (I6)")
                )
                found.append(f"seat {p}'s {self._zone(field)} is listed, but {why}: give its size")
                sound = False
        if not sound:
            return None
        hand = _ids(s.hand) if isinstance(s.hand, list) else None
        top = _ids(s.pile) if isinstance(s.pile, list) else None
        under = _ids(s.under) if isinstance(s.under, list) else None
        completed = _ids(s.completed)
        return _SeatCards(
            row=[s.airplane, *s.islands],
            main=s.main_island,
            middle=s.main_island + sum(1 for x in position.small_islands if x == p),
            shells=list(s.shells),
            completed=completed,
            done_mask=_mask(completed),
            hand=hand,
            hand_size=_size(s.hand),
            top=top,
            top_size=_size(s.pile),
            under=under,
            under_size=_size(s.under),
            memory=None if s.memory is None else [_mask(_ids(level)) for level in s.memory],
        )

    @staticmethod
    def _zone(field: str) -> str:
        return {"hand": "hand", "pile": "pile", "under": "cards put under its pile"}[field]

    def _check_board(self, position: DreamIslandsPosition, seats: list[_SeatCards | None], found: list[str]) -> bool:
        """I1, I8: six pieces a seat, the small islands filled in order, the main island after them."""
        n = self.game.num_players
        sound = True
        small = position.small_islands
        for i, s in enumerate(small):
            if s is not None and s >= n:
                found.append(f"seat {s} on the small island worth {SMALL_VALUES[i]} does not play in a {n}-player game")
                sound = False
        if (small[0] is None and small[1] is not None) or (small[1] is None and small[2] is not None):
            found.append("the small islands fill in order, worth 3, then 2, then 2 (I1)")
            sound = False
        for p, d in enumerate(position.seats):
            on_small = sum(1 for x in small if x == p)
            total = d.airplane + sum(d.islands) + d.main_island + on_small
            if total != PIECES:
                found.append(f"seat {p} has {total} pieces, not {PIECES}")
                sound = False
        main = sum(d.main_island for d in position.seats)
        if main and small[2] is None:
            found.append("pieces reach the main island only after the three small islands are taken (I1)")
            sound = False
        return sound

    @staticmethod
    def _check_shells(seats: list[_SeatCards | None], found: list[str]) -> bool:
        sound = True
        for p, s in enumerate(seats):
            if s is not None and len(set(s.shells)) != len(s.shells):
                found.append(f"seat {p} covers a number with two shells: {s.shells}")
                sound = False
        return sound

    def _check_turn(self, position: DreamIslandsPosition, found: list[str]) -> bool:
        n = self.game.num_players
        if position.phase == "over":
            if position.turn is not None:
                found.append(f"the game is over, yet it is seat {position.turn}'s turn")
                return False
            return True
        if position.turn is None:
            found.append(f"the game runs ({position.phase}), so a seat is to decide: give the turn")
            return False
        if position.turn >= n:
            found.append(f"seat {position.turn} is to decide but does not play in a {n}-player game")
            return False
        return True

    def _check_missions(self, position: DreamIslandsPosition, seats: list[_SeatCards], found: list[str]) -> None:
        """I4, I6: each seat's 16 missions each exactly once (or, where counts are given,
        the counts add up), completed ones told apart from the rest."""
        for p, s in enumerate(seats):
            where: dict[int, list[str]] = {}
            for zone, cards in (
                ("completed", s.completed),
                ("in its hand", s.hand),
                ("in its pile", s.top),
                ("under its pile", s.under),
            ):
                for x in cards or []:
                    where.setdefault(x, []).append(zone)
            for x, zones in sorted(where.items()):
                if len(zones) > 1:
                    places = " and ".join(dict.fromkeys(zones))
                    twice = "twice " if len(set(zones)) == 1 else ""
                    found.append(f"seat {p}'s {_quote(x)} is {twice}{places}")
            known = len(where)
            hidden = sum(
                size
                for cards, size in ((s.hand, s.hand_size), (s.top, s.top_size), (s.under, s.under_size))
                if cards is None
            )
            if hidden == 0:
                missing = [x for x in range(NMIS) if x not in where]
                if missing:
                    found.append(
                        f"seat {p}'s {', '.join(_quote(x) for x in missing)} "
                        f"{'is' if len(missing) == 1 else 'are'} nowhere: every mission is completed, in the hand "
                        "or in the pile"
                    )
            elif known + hidden != NMIS and all(len(z) == 1 for z in where.values()):
                parts = [f"{len(s.completed)} completed"]
                parts += [f"{s.hand_size} in hand", f"{s.top_size} in the pile", f"{s.under_size} put under the pile"]
                found.append(f"seat {p} has {known + hidden} missions ({', '.join(parts)}), not {NMIS}")

    def _check_hands(
        self,
        position: DreamIslandsPosition,
        seats: list[_SeatCards],
        pieces: list[list[int]] | None,
        found: list[str],
    ) -> None:
        """I2, I5, I6, I12, I13, I16: hands, the exchange, the shells at the start of a turn
        and the hand memory."""
        cur = position.turn
        exchange = position.phase == "exchange"
        for p, s in enumerate(seats):
            if exchange and p == cur:
                if s.hand_size == 0:
                    found.append(
                        f"seat {p} exchanges with an empty hand: with nothing to put under, the draw happens at "
                        "once (I12)"
                    )
            elif s.hand_size != HAND and s.pile_size > 0:
                found.append(
                    f"seat {p} holds {_plural(s.hand_size, 'card')} while its pile has "
                    f"{_plural(s.pile_size, 'card')}: a hand is filled up to 3 (I6)"
                )
        if cur is not None and position.phase == "move" and len(seats[cur].shells) == 4:
            found.append(f"seat {cur} starts its turn with all four numbers covered: the shells come off first (I2)")
        if cur is not None and exchange and not seats[cur].shells:
            found.append(f"seat {cur} exchanges without having covered a number: the exchange comes after it (I6)")
        if pieces is None:
            return
        for p, s in enumerate(seats):
            holds = self._holds(pieces, p) & ~s.done_mask
            mover = exchange and p == cur
            if mover and s.hand is not None:
                for x in s.hand:
                    if (holds >> x) & 1:
                        found.append(
                            f"seat {p} holds {_quote(x)} in its exchange, but it holds after its move and would "
                            "have been completed (I5, I13)"
                        )
            elif mover:
                free = NMIS - len(s.completed) - bin(holds).count("1")
                if free < s.hand_size:
                    found.append(
                        f"seat {p} holds {_plural(s.hand_size, 'card')} in its exchange, but only {free} of its "
                        "missions still to do do not hold now: it would hold one that would have been completed "
                        "(I5, I13)"
                    )
            if s.memory is not None:
                allowed = ALL_MISSIONS & ~s.done_mask & ~(holds if mover else 0)
                found.extend(self._memory_problems(p, s.memory, s.hand, s.hand_size, s.done_mask, allowed))

    @staticmethod
    def _memory_problems(
        p: int, memory: list[int], hand: list[int] | None, hand_size: int, done: int, allowed: int
    ) -> list[str]:
        """I16: one list per card, each inside the one before, no completed mission, true of
        the hand; of a hand given as a count, true of some hand of the missions it may hold
        (``allowed``: not completed, in the mover's exchange none that holds, I13)."""
        if len(memory) != hand_size:
            return [
                f"seat {p}'s memory has {_plural(len(memory), 'list')}: one per card in its hand ({hand_size}) (I16)"
            ]
        found = []
        wider = ALL_MISSIONS
        for k, level in enumerate(memory, start=1):
            if level & done:
                found.append(
                    f"seat {p}'s memory list {k} names completed {', '.join(_quote(x) for x in _ids_of(level & done))}"
                    ": no hand holds a completed mission (I16)"
                )
            if level & ~wider:
                found.append(
                    f"seat {p}'s memory list {k} names {', '.join(_quote(x) for x in _ids_of(level & ~wider))} that "
                    f"list {k - 1} does not: what {k} cards are not, {k - 1} of them are not either (I16)"
                )
            if hand is not None:
                outside = sum(1 for x in hand if not (level >> x) & 1)
                if level and outside < k:
                    found.append(
                        f"seat {p}'s memory says {k} or more cards of its hand are none of list {k}, but "
                        f"{outside} {'is' if outside == 1 else 'are'} (I16)"
                    )
            elif level and bin(allowed & ~level).count("1") < k:
                free = bin(allowed & ~level).count("1")
                found.append(
                    f"seat {p}'s memory says {k} or more cards of its hand are none of list {k}, but only {free} of "
                    f"the missions its hand may hold {'is' if free == 1 else 'are'} not in it (I16)"
                )
            wider = level
        return found

    # ------------------------------------------------------------------ what the turns played allow

    def _ending(self, position: DreamIslandsPosition, seats: list[_SeatCards]) -> bool:
        """I7: a seat completed all 16 missions, or 6 or more pieces stand in the middle."""
        return any(len(s.completed) == NMIS for s in seats) or sum(s.middle for s in seats) >= 6

    def _check_history(self, position: DreamIslandsPosition, seats: list[_SeatCards], found: list[str]) -> None:
        """What the rounds played allow (given, or the fewest that fit)."""
        if position.rounds is not None:
            found.extend(self._round_problems(position, seats, position.rounds))
            return
        rounds = self._fewest_rounds(position, seats)
        if rounds is not None:
            return
        best: tuple[int, int, list[str]] | None = None
        for r in self._candidate_rounds(position):
            problems = self._round_problems(position, seats, r)
            if best is None or len(problems) < best[0]:
                best = (len(problems), r, problems)
        assert best is not None
        _, r, problems = best
        found.append(
            "no count of rounds played fits the shells, pieces and missions; the closest, "
            f"{r}, leaves these problems: " + "; ".join(problems)
        )

    def _candidate_rounds(self, position: DreamIslandsPosition) -> list[int]:
        limit = int(self.game.rules.round_limit)
        candidates = list(range(min(limit, ROUNDS_SEARCHED) + 1))
        return [*candidates, limit] if limit > ROUNDS_SEARCHED else candidates

    def _fewest_rounds(self, position: DreamIslandsPosition, seats: list[_SeatCards]) -> int | None:
        for r in self._candidate_rounds(position):
            if not self._round_problems(position, seats, r):
                return r
        return None

    def _round_problems(self, position: DreamIslandsPosition, seats: list[_SeatCards], rounds: int) -> list[str]:
        """The problems of ``rounds`` complete rounds played with this position (I2, I3,
        I5, I6, I7, I8, I9, I15, I16), as the snapshot loader checks them."""
        found: list[str] = []
        limit = int(self.game.rules.round_limit)
        limit_name = (
            f"the round limit of {limit} rounds (I9)" if self.game.max_rounds else "the round counter's cap (I15)"
        )
        over = position.phase == "over"
        ending = self._ending(position, seats)
        if over:
            if rounds > limit:
                found.append(f"{rounds} rounds played: the game ends after {limit_name} at the latest")
            if rounds < 1:
                found.append("a game is over only after a complete round (I7)")
            if not ending and rounds != limit:
                found.append(
                    "the game is over, but no seat completed all 16 missions, fewer than 6 pieces stand in the "
                    f"middle and {rounds} rounds are not {limit_name} (I7)"
                )
        elif rounds >= limit:
            found.append(f"{rounds} rounds played reach {limit_name}: the game would be over")
        cur = position.turn if position.turn is not None else -1
        low = 0
        for p, s in enumerate(seats):
            moved = not over and (p < cur or (p == cur and position.phase == "exchange"))
            turns = rounds + 1 if moved else rounds
            mid = self._seat_round_problems(position, p, s, turns, found)
            if moved:
                low += max(0, mid - 5)  # at most 5 pieces arrive in one turn
            else:
                low += mid
                if ending and not over and len(s.completed) == NMIS:
                    found.append(
                        f"seat {p} has not moved in this round but completed its last mission: the end came in an "
                        "earlier round, and the game would be over (I7)"
                    )
        if ending and not over and low >= 6:
            found.append(
                "6 pieces stood in the middle before this round's moves: the end came in an earlier round, and "
                "the game would be over (I7)"
            )
        return found

    def _seat_round_problems(
        self, position: DreamIslandsPosition, p: int, s: _SeatCards, turns: int, found: list[str]
    ) -> int:
        """Seat p after ``turns`` turns: shells, steps, missions and cards put under; returns
        its pieces in the middle."""
        t_text = _plural(turns, "turn")
        if position.phase == "move" and p == position.turn:
            shells = turns % 4  # all four come off as this turn starts (I2)
        else:
            shells = 0 if turns == 0 else (turns - 1) % 4 + 1
        if len(s.shells) != shells:
            found.append(
                f"seat {p} has {_plural(len(s.shells), 'shell')} on its board after {t_text}, not {shells}: every "
                "turn covers one number, and all four come off when the next turn starts (I2)"
            )
            shells = -1  # the steps below cannot be counted
        if turns == 0 and s.memory is not None and any(s.memory):
            found.append(
                f"seat {p} has not moved yet, so play has shown nothing of its hand: its memory is empty (I16)"
            )
        if len(s.completed) > HAND * turns:
            found.append(
                f"seat {p} completed {_plural(len(s.completed), 'mission')} in {t_text}: at most the 3 in hand "
                "a turn (I5)"
            )
        exchanging = position.phase == "exchange" and p == position.turn
        if s.under_size + (s.hand_size if exchanging else 0) > HAND * turns:
            held = f" and holds {s.hand_size} in its exchange" if exchanging else ""
            found.append(
                f"seat {p} put {_plural(s.under_size, 'card')} under its pile{held} in {t_text}: at most the 3 in "
                "hand a turn (I6)"
            )
        if s.row[0] > PIECES - 1:
            found.append(
                f"seat {p} has {s.row[0]} pieces on the airplane: its sixth piece starts on island {p + 1} and no "
                "piece returns to the airplane (I8)"
            )
        elif shells >= 0:
            self._check_steps(p, s, turns, shells, found)
        return s.middle

    @staticmethod
    def _check_steps(p: int, s: _SeatCards, turns: int, shells: int, found: list[str]) -> None:
        """I3, I8: every turn moved its whole number while a piece could move, so the
        pieces stand where the covered numbers take them, up to whole laps of the ring."""
        dist = 9 * s.middle + sum(i * s.row[i] for i in range(1, 9))
        far = s.middle > 0 or any(s.row[i] for i in range(p + 1, 9))
        # The sixth piece started on island p + 1: a piece on it or beyond saves p + 1
        # steps, one behind it 7 - p (a lap less); modulo 8 they agree.
        need = dist - (p + 1) if far else dist + 7 - p
        steps = 14 * ((turns - shells) // 4) + sum(s.shells)
        movable = sum(s.row)
        if steps < need or (movable > 0 and (steps - need) % 8 != 0):
            found.append(
                f"seat {p}'s pieces are {need} steps (plus whole laps of the ring) from where they started, but "
                f"the numbers it covered in {_plural(turns, 'turn')} add up to {steps} steps (I3, I8)"
            )

    # ------------------------------------------------------------------ set-up

    def complete(self, position: DreamIslandsPosition, rng_state: int) -> DreamIslandsPosition:
        """The seat's view with every hidden card placed: the cards the seat cannot see in
        id order, a hidden hand first from the missions that do not hold (in a mover's
        exchange, I13) and then from those in the fewest lists of its memory (I16), which
        stays as given. ``from_position`` deals them anew at random, keeping the memory
        (resample with recall)."""
        view = position.seat
        seats = []
        pieces = [[d.airplane, *d.islands] for d in position.seats]
        for p, d in enumerate(position.seats):
            if p == view:
                seen = set(_ids(d.completed))
                for zone in (d.hand, d.under):
                    seen.update(_ids(zone) if isinstance(zone, list) else [])
                seats.append(msgspec.structs.replace(d, pile=_names([x for x in range(NMIS) if x not in seen])))
                continue
            done = _mask(_ids(d.completed))
            rest = [x for x in range(NMIS) if not (done >> x) & 1]
            holds = self._holds(pieces, p) if position.phase == "exchange" and p == position.turn else 0
            levels = [_mask(_ids(level)) for level in d.memory or []]
            # The hand takes missions that do not hold, then those the memory rules out
            # least: if any hand is true of the memory, this one is (problems() checked).
            rest.sort(key=lambda x: ((holds >> x) & 1, sum((m >> x) & 1 for m in levels)))
            hand_size, top_size = _size(d.hand), _size(d.pile)
            hand, top, under = rest[:hand_size], rest[hand_size : hand_size + top_size], rest[hand_size + top_size :]
            seats.append(msgspec.structs.replace(d, hand=_names(hand), pile=_names(top), under=_names(under)))
        return msgspec.structs.replace(position, seat=None, seats=seats)

    def snapshot(self, position: DreamIslandsPosition, rng_state: int) -> DreamIslandsStateData:
        """The snapshot of a sound whole table: rounds (when left out) and the hand memory
        (when not given) derived, piles bottom first as the engine keeps them."""
        n = self.game.num_players
        seats = [self._seat_cards(position, p, []) for p in range(n)]
        cards = [s for s in seats if s is not None]
        rounds = position.rounds if position.rounds is not None else self._fewest_rounds(position, cards)
        assert rounds is not None and len(cards) == n  # problems() passed
        pieces = [s.row for s in cards]
        memory = []
        for p, s in enumerate(cards):
            exchanging = position.phase == "exchange" and p == position.turn
            default = self._default_memory(exchanging, self._holds(pieces, p), s.done_mask, s.hand_size)
            memory.append(s.memory if s.memory is not None else default)
        return DreamIslandsStateData(
            schema_version=3,
            game="dream_islands",
            players=n,
            max_rounds=self.game.max_rounds or 0,
            rng=position.rng or f"{rng_state:016x}",
            phase=position.phase,
            current_player=-1 if position.turn is None else position.turn,
            rounds=rounds,
            pieces=pieces,
            small_islands=[-1 if s is None else s for s in position.small_islands],
            main_island=[s.main for s in cards],
            covered=[sorted(s.shells) for s in cards],
            hands=[list(s.hand or []) for s in cards],
            piles=[list(reversed((s.top or []) + (s.under or []))) for s in cards],
            known=[s.under_size for s in cards],
            hand_avoids=memory,
            completed=[sorted(s.completed) for s in cards],
        )

    # ------------------------------------------------------------------ compact text

    def text(self, position: DreamIslandsPosition) -> str:
        """The one-line text (docs/dream_islands.md, "Setting up a position")."""
        seats = position.seats

        def cards(value: list[MissionName] | int) -> str:
            if isinstance(value, int):
                return f"?{value}"
            return ",".join(str(_NAME_TO_ID[x]) for x in value) or "-"

        def pile(d: SeatPosition) -> str:
            top, under = cards(d.pile), cards(d.under)
            return top if under in ("-", "?0") else f"{top}|{under}"

        def memory(d: SeatPosition) -> str:
            if d.memory is None:
                return "-"
            return ";".join(",".join(str(_NAME_TO_ID[x]) for x in level) or "." for level in d.memory)

        fields = [
            "/".join("".join(map(str, [d.airplane, *d.islands, d.main_island])) for d in seats),
            "".join("-" if s is None else str(s) for s in position.small_islands),
            "/".join("".join(map(str, d.shells)) or "-" for d in seats),
            "/".join(cards(d.completed) for d in seats),
            "/".join(cards(d.hand) for d in seats),
            "/".join(pile(d) for d in seats),
            "-" if position.turn is None else str(position.turn),
            position.phase,
            "?" if position.rounds is None else str(position.rounds),
            "*" if position.seat is None else str(position.seat),
        ]
        tail = []
        if any(d.memory is not None for d in seats) or position.rng is not None:
            tail.append("-" if all(d.memory is None for d in seats) else "/".join(memory(d) for d in seats))
        if position.rng is not None:
            tail.append(position.rng)
        return " ".join(fields + tail)

    def read(self, text: str) -> DreamIslandsPosition:
        """The description of a compact text; InvalidPositionError naming every field that
        does not read."""
        return _TextReader(self.game.num_players, f"{self.game.title} position").read(text)


# ---------------------------------------------------------------------- reading a text

_FIELDS: Final = (
    "pieces",
    "small islands",
    "shells",
    "completed",
    "hands",
    "piles",
    "turn",
    "phase",
    "rounds",
    "view",
    "memory",
    "generator",
)
_REQUIRED: Final = 10  # the memory and the generator state may be left out
_CARD_LIST = re.compile(r"(?:1[0-5]|[0-9])(?:,(?:1[0-5]|[0-9]))*")
_COUNT = re.compile(r"\?([0-9]{1,2})")
_FAILED: Final = object()  # a field part that did not read (its problem is noted)


class _TextReader:
    """Reads a compact text field by field, gathering every part that does not read."""

    def __init__(self, players: int, title: str) -> None:
        self.players = players
        self.title = title
        self.problems: list[str] = []

    def read(self, text: str) -> DreamIslandsPosition:
        fields = text.split()
        if not _REQUIRED <= len(fields) <= len(_FIELDS):
            raise InvalidPositionError(
                [
                    f"a position text has {_REQUIRED} to {len(_FIELDS)} fields separated by spaces "
                    f"({', '.join(_FIELDS)}), not {len(fields)}"
                ],
                self.title,
            )
        fields += ["-"] * (len(_FIELDS) - len(fields))
        pieces = self._per_seat(fields[0], "pieces", self._pieces)
        small = self._small(fields[1])
        shells = self._per_seat(fields[2], "shells", self._shells)
        completed = self._per_seat(fields[3], "completed missions", lambda t, w: self._cards(t, w, None))
        hands = self._per_seat(fields[4], "hand", lambda t, w: self._cards(t, w, HAND))
        piles = self._per_seat(fields[5], "pile", self._pile)
        turn = self._seat_or_none(fields[6], "turn", "-")
        phase = fields[7]
        if phase not in ("move", "exchange", "over"):
            self._bad("the phase", phase, "move, exchange or over")
        rounds = self._rounds(fields[8])
        view = self._seat_or_none(fields[9], "view", "*")
        memory = [None] * self.players if fields[10] == "-" else self._per_seat(fields[10], "memory", self._memory)
        rng = None if fields[11] == "-" else fields[11]
        if rng is not None and not re.fullmatch("[0-9a-f]{16}", rng):
            self._bad("the generator state", rng, "16 lower-case hex digits, or '-'")
        if self.problems:
            raise InvalidPositionError(self.problems, self.title)
        assert pieces and shells and completed and hands and piles and memory  # else a problem was noted
        seats = [
            {
                "airplane": pieces[p][0],
                "islands": pieces[p][1:9],
                "main_island": pieces[p][9],
                "shells": shells[p],
                "completed": completed[p],
                "hand": hands[p],
                "pile": piles[p][0],
                "under": piles[p][1] if piles[p][1] is not None else ([] if view in (None, p) else 0),
                "memory": memory[p],
            }
            for p in range(self.players)
        ]
        data = {"seat": view, "seats": seats, "small_islands": small, "turn": turn, "phase": phase}
        data.update({"rounds": rounds, "rng": rng})
        try:
            return msgspec.convert(data, type=DreamIslandsPosition)
        except msgspec.ValidationError as exc:  # what the fields' own checks leave to the schema
            raise InvalidPositionError([f"not a description: {exc}"], self.title) from None

    def _per_seat(self, text: str, field: str, parse: Any) -> list[Any] | None:
        parts = text.split("/")
        if len(parts) != self.players:
            self.problems.append(
                f"the {field} field {text[:40]!r} gives {_plural(len(parts), 'seat')} separated by '/', "
                f"the game has {self.players}"
            )
            return None
        values = [parse(part, f"seat {p}'s {field}") for p, part in enumerate(parts)]
        return None if any(v is _FAILED for v in values) else values

    def _bad(self, what: str, text: str, expected: str) -> object:
        self.problems.append(f"{what} {text[:40]!r} does not read: {expected}")
        return _FAILED

    def _pieces(self, text: str, what: str) -> object:
        if not re.fullmatch("[0-6]{10}", text):
            return self._bad(what, text, "10 digits 0..6: the airplane, islands 1..8 and the main island")
        return [int(c) for c in text]

    def _small(self, text: str) -> object:
        if not re.fullmatch("[0-3-]{3}", text):
            return self._bad("the small islands", text, "3 characters, the seat on each (worth 3, 2, 2) or '-'")
        return [None if c == "-" else int(c) for c in text]

    def _shells(self, text: str, what: str) -> object:
        if text == "-":
            return []
        if not re.fullmatch("[2-5]{1,4}", text):
            return self._bad(what, text, "the covered numbers 2..5 as digits, or '-'")
        return [int(c) for c in text]

    def _cards(self, text: str, what: str, most: int | None) -> object:
        """Mission ids, ``-`` for none, or (where ``most`` is given) ``?N`` for N hidden cards."""
        count = _COUNT.fullmatch(text) if most is not None else None
        if count is not None:
            hidden = int(count.group(1))
            if most is not None and hidden > most:
                return self._bad(what, text, f"at most {most} cards")
            return hidden
        if text == "-":
            return []
        if not _CARD_LIST.fullmatch(text):
            expected = "mission ids 0..15 separated by ','" + (", '?N' for N hidden" if most else "") + " or '-'"
            return self._bad(what, text, expected)
        ids = [int(x) for x in text.split(",")]
        if len(ids) > (most or NMIS):
            return self._bad(what, text, f"at most {most or NMIS} cards")
        return _names(ids)

    def _pile(self, text: str, what: str) -> object:
        top, _, under = text.partition("|")
        first = self._cards(top, f"{what} (above the cards put under)", NMIS)
        second = self._cards(under, f"{what} (put under)", NMIS) if under else None  # none: the seat's kind
        return _FAILED if _FAILED in (first, second) else (first, second)

    def _memory(self, text: str, what: str) -> object:
        if text == "-":
            return None
        levels = text.split(";")
        if len(levels) > HAND or not all(level == "." or _CARD_LIST.fullmatch(level) for level in levels):
            return self._bad(what, text, "up to 3 lists of mission ids separated by ';' ('.' an empty list), or '-'")
        return [[] if level == "." else _names([int(x) for x in level.split(",")]) for level in levels]

    def _seat_or_none(self, text: str, what: str, none: str) -> int | None:
        if text == none:
            return None
        if not re.fullmatch("[0-3]", text):
            self._bad(f"the {what}", text, f"a seat 0..3 or {none!r}")
            return None
        return int(text)

    def _rounds(self, text: str) -> int | None:
        if text == "?":
            return None
        if not re.fullmatch("[0-9]{1,10}", text) or int(text) > ROUND_CAP:
            self._bad("the rounds", text, f"the complete rounds played (at most {ROUND_CAP}), or '?' to derive them")
            return None
        return int(text)
