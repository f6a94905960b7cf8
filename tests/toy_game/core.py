"""The Toy Duel core: the rules on the core contract, in pure Python.

A game defined outside cruiselib cannot extend the compiled base classes (a Python class
does not override their C-level methods), so this core extends the base classes of the
pure-Python engine, ``cruiselib._core.pure_module("engine")``: the same contract, the
same written-once code (``apply``, ``clone``, playouts, tensors, resampling), run as Python.

The rules T1 ... T5 are in the package docstring (``tests/toy_game/__init__.py``).
Cards are ids 0 .. 11 of values 1 .. 12; a hand is a 12-bit mask; the action of playing
card k is k.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cruiselib._core import pure_module
from cruiselib.errors import InvalidStateError

if TYPE_CHECKING:
    from cruiselib._core.engine import CoreRules as _StubRules
    from cruiselib._core.engine import CoreState as _StubState

    class CoreRules(_StubRules):
        pass

    class CoreState(_StubState):
        """The stub of the pure engine's state, with the contract's generator fields."""

        rng: int

        def c_below(self, n: int) -> int: ...

else:
    _engine = pure_module("engine")
    CoreRules = _engine.CoreRules
    CoreState = _engine.CoreState

CARDS = 12
HAND = 4
PLAYERS = 2
REASONS = (
    "legal",
    "the game is over",
    "that card is not in the player's hand (T2)",
    "the follower must beat the led card when it can (T2)",
)
# The observation tensor's parts (ToyDuelGame._observation_layout names them).
LAYOUT = (("hand", CARDS), ("led", CARDS), ("played", CARDS), ("points", 2), ("hand_size", 2), ("stock", 1))
OBSERVATION_SIZE = sum(n for _, n in LAYOUT)
TOTAL_POINTS = CARDS * (CARDS + 1) // 2
_BAD = "invalid Toy Duel state: "


def value(card: int) -> int:
    """The value of card ``card`` (T1)."""
    return card + 1


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, ascending."""
    return [k for k in range(CARDS) if (mask >> k) & 1]


class ToyDuelRules(CoreRules):
    """The tables of one configuration: two seats, twelve actions."""

    def __init__(self, num_players: int) -> None:
        if num_players != PLAYERS:
            raise ValueError("Toy Duel is a game for 2 players")
        self._init_contract(num_players, CARDS, REASONS, OBSERVATION_SIZE)


class ToyDuelCore(CoreState):
    """One Toy Duel position."""

    def __init__(self, rules: ToyDuelRules, game: Any = None) -> None:
        CoreState.__init__(self, rules, game)

    # ================================================================== the core contract
    # The c_* methods engine.py asks of every core.

    def c_init_arrays(self) -> None:
        self.hands = [0, 0]  # a mask per seat
        self.points = [0, 0]
        self.stock: list[int] = []  # face down, bottom first: the last card is drawn next
        self.played = 0  # cards of finished tricks (face up)
        self.led = -1  # the card led in the running trick, or -1
        self.leader = 0
        self.cur = 0  # -1 once the game is over
        self.buf = [0] * CARDS

    def c_current(self) -> int:
        return self.cur

    def c_legal(self) -> int:
        n = 0
        if self.cur < 0:
            return 0
        hand = self.hands[self.cur]
        beating = hand >> (self.led + 1) if self.led >= 0 else 0
        for k in range(CARDS):
            if (hand >> k) & 1 and (not beating or k > self.led):
                self.buf[n] = k
                n += 1
        return n

    def c_legal_at(self, i: int) -> int:
        return self.buf[i]

    def c_check(self, a: int) -> int:
        if self.cur < 0:
            return 1
        hand = self.hands[self.cur]
        if not (hand >> a) & 1:
            return 2
        if self.led >= 0 and a < self.led and hand >> (self.led + 1):
            return 3
        return 0

    def c_do(self, a: int) -> None:
        p = self.cur
        self.hands[p] &= ~(1 << a)
        if self.led < 0:  # T2: the leader plays, the other seat follows
            self.led = a
            self.cur = 1 - p
            return
        # T3: the higher card takes the trick and both values.
        winner = p if a > self.led else self.leader
        self.points[winner] += value(a) + value(self.led)
        self.played |= (1 << a) | (1 << self.led)
        self.led = -1
        # T4: the winner draws first, then the other seat; the winner leads.
        for seat in (winner, 1 - winner):
            if self.stock:
                self.hands[seat] |= 1 << self.stock.pop()
        self.leader = winner
        self.cur = winner if self.hands[winner] else -1  # T5: no card left, the game ends

    def c_deal(self, seed: int) -> None:
        self._setup(seed, -1)

    def c_score(self, p: int) -> int:
        return self.points[p]

    def c_winners_mask(self) -> int:
        # T5: the most points wins; equal points are a draw (no winner).
        if self.cur >= 0 or self.points[0] == self.points[1]:
            return 0
        return 1 if self.points[0] > self.points[1] else 2

    def c_copy_into(self, dst: Any) -> None:
        dst.hands = list(self.hands)
        dst.points = list(self.points)
        dst.stock = list(self.stock)
        dst.played = self.played
        dst.led = self.led
        dst.leader = self.leader
        dst.cur = self.cur
        dst.rng = self.rng

    def c_resample(self, s: int, recall: bool) -> None:
        # What seat s cannot see: the other hand and the stock's order. Every card played
        # is face up, so remembering play adds nothing (recall changes nothing).
        other = 1 - s
        pool = cards_of(self.hands[other]) + self.stock
        for i in range(len(pool) - 1, 0, -1):
            j = self.c_below(i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        size = bin(self.hands[other]).count("1")
        self.hands[other] = sum(1 << k for k in pool[:size])
        self.stock = pool[size:]

    def c_observe(self, s: int, out: Any) -> None:
        # LAYOUT's order: per-seat parts list the observer first.
        o = 0
        for k in range(CARDS):
            out[o + k] = (self.hands[s] >> k) & 1
            out[o + CARDS + k] = 1.0 if k == self.led else 0.0
            out[o + 2 * CARDS + k] = (self.played >> k) & 1
        o = 3 * CARDS
        out[o] = self.points[s] / TOTAL_POINTS
        out[o + 1] = self.points[1 - s] / TOTAL_POINTS
        out[o + 2] = bin(self.hands[s]).count("1") / HAND
        out[o + 3] = bin(self.hands[1 - s]).count("1") / HAND
        out[o + 4] = len(self.stock) / HAND

    # ================================================================ private core methods
    # The core contract's Python-level half (engine.CoreState declares each): the deal, the
    # view, the snapshot out and in, the raw fields for render. The engine writes the rest
    # once: _new_game masks the seed and calls _setup; _load wraps stray errors of a
    # malformed snapshot and calls _load_checked. The Struct classes come from the schema
    # the game hands in (rules.schema, CoreRules._set_schema).

    def _setup(self, rng_state: int, start: int) -> None:
        """T1: a new deal from the generator state; ``start`` is a seat or -1 (drawn)."""
        self.rng = rng_state
        deck = list(range(CARDS))
        for i in range(CARDS - 1, 0, -1):
            j = self.c_below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        self.hands = [sum(1 << k for k in deck[:HAND]), sum(1 << k for k in deck[HAND : 2 * HAND])]
        self.stock = deck[2 * HAND :]
        self.points = [0, 0]
        self.played = 0
        self.led = -1
        self.leader = self.c_below(PLAYERS) if start < 0 else start
        self.cur = self.leader

    def _view(self, seat: int, recall: bool) -> Any:
        """What ``seat`` sees, a ToyDuelView (every card played is face up: ``recall`` adds
        nothing)."""
        return self.core_rules.schema.ToyDuelView(
            player=seat,
            current_player=self.cur,
            leader=self.leader,
            led=self.led,
            hand=cards_of(self.hands[seat]),
            opponent_hand_size=bin(self.hands[1 - seat]).count("1"),
            stock_size=len(self.stock),
            played=cards_of(self.played),
            points=list(self.points),
            legal_actions=self.legal_actions() if seat == self.cur else [],
        )

    def _export(self) -> Any:
        """The full position, a ToyDuelStateData without its record (the wrapper adds it)."""
        schema = self.core_rules.schema
        return schema.ToyDuelStateData(
            schema_version=schema.SCHEMA_VERSION,
            game=self.core_rules.game_name,
            **self._fields(),
        )

    def _fields(self) -> dict[str, Any]:
        return {
            "rng": self.core_rules.schema.rng_to_text(self.rng),
            "current_player": self.cur,
            "leader": self.leader,
            "led": self.led,
            "hands": [cards_of(h) for h in self.hands],
            "stock": list(self.stock),
            "played": cards_of(self.played),
            "points": list(self.points),
        }

    def _load_checked(self, d: Any, history: bool) -> None:
        """Load a decoded snapshot, checking what the rules allow (InvalidStateError);
        every position the checks allow is one play reaches, so ``history`` adds nothing."""
        seen = 0
        places = [*d.hands, d.stock, d.played, [d.led] if d.led >= 0 else []]
        for cards in places:
            for k in cards:
                if (seen >> k) & 1:
                    raise InvalidStateError(f"{_BAD}card {k} is in two places (T1)")
                seen |= 1 << k
        if seen != (1 << CARDS) - 1:
            raise InvalidStateError(f"{_BAD}cards {cards_of(~seen & ((1 << CARDS) - 1))} are nowhere (T1)")
        for cards in (*d.hands, d.played):
            if list(cards) != sorted(cards):
                raise InvalidStateError(f"{_BAD}hands and played cards are listed in ascending order")
        sizes = [len(h) for h in d.hands]
        follower = 1 - d.leader
        if len(d.stock) % 2 or len(d.played) % 2:
            raise InvalidStateError(f"{_BAD}cards leave the stock and the table two at a time (T3, T4)")
        if sizes[d.leader] + (1 if d.led >= 0 else 0) != sizes[follower]:
            raise InvalidStateError(f"{_BAD}hands of {sizes} cards with the leader seat {d.leader} (T2, T4)")
        if d.stock and sizes[follower] != HAND:
            raise InvalidStateError(f"{_BAD}while the stock has cards, hands are refilled to {HAND} (T4)")
        over = not any(sizes) and d.led < 0
        expected = -1 if over else (follower if d.led >= 0 else d.leader)
        if d.current_player != expected:
            raise InvalidStateError(f"{_BAD}current_player must be {expected}, not {d.current_player}")
        if sum(d.points) != sum(value(k) for k in d.played):
            raise InvalidStateError(f"{_BAD}the points must add up to the values of the cards played (T3)")
        self.hands = [sum(1 << k for k in h) for h in d.hands]
        self.stock = list(d.stock)
        self.played = sum(1 << k for k in d.played)
        self.points = list(d.points)
        self.led = d.led
        self.leader = d.leader
        self.cur = expected
        self.rng = int(d.rng, 16)

    def _get_raw(self) -> dict[str, Any]:
        """Every field, for render."""
        return {**self._fields(), "rng": self.rng, "over": self.cur < 0}
