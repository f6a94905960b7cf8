"""A rule-based Dream Islands bot: the play of a careful beginner, from the seat's view only.

A move's effect is fully known from the view (the board and the seat's own hand), so the
bot scores every legal move by its result: the missions it completes now and the middle
points it takes, then which of the cards it keeps (and of the cards it may still draw)
the seat could complete on its next turn, with the numbers its shells leave it. In the
exchange it puts under the pile the cards that are worth less than what it would draw
instead. docs/dream_islands.md, "Rule-based bot", explains each rule.
"""

from __future__ import annotations

import math
import random
from typing import Any

from cruiselib import _core
from cruiselib.bots._types import Candidate

__all__ = ["RuleBot"]

SMALL = _core.load("dream_islands").SMALL_VALUES  # I1: the first three arrivals in the middle

# Weights (docs/dream_islands.md, "Rule-based bot"), in victory points.
MISSION = 2.0  # I7: a completed mission
NEXT_TURN = 1.3  # a card in hand the seat can complete on its next turn
OPTIONS = 1.0  # per 16 missions still to do that the next turn could complete (a flexible position)
END_STAKE = 12.0  # ending the game (I7): the win it is expected to bring, or to cost
LAST_TURN_GAIN = 2.5  # what a seat is expected to add in its last turn
NUMBERS = (2, 3, 4, 5)


def _pack(counts: list[int]) -> int:
    c = 0
    for v, n in enumerate(counts):
        c |= n << (4 * v)
    return c


def _make_runs() -> list[int]:
    """runs[occupied islands bit set]: bit k - 2 when a maximal run of exactly k (2..5)
    occupied islands exists; the ring wraps 8 -> 1 and a full ring has no run (I4)."""
    out = [0] * 256
    for occ in range(1, 255):
        start = 0
        while (occ >> start) & 1:
            start += 1
        run = 0
        bits = 0
        for step in range(1, 9):
            if (occ >> ((start + step) % 8)) & 1:
                run += 1
            else:
                if 2 <= run <= 5:
                    bits |= 1 << (run - 2)
                run = 0
        out[occ] = bits
    return out


_RUNS = _make_runs()

# Caches of pure functions of a seat's own pieces (a config: the counts on the airplane,
# islands 1..8 and the middle, 4 bits each). There are C(15, 6) = 5005 configs, so these
# stay bounded, and every game shares them.
_OWN: dict[int, int] = {}
_NEXT: dict[int, tuple[int, ...]] = {}
_REACH: dict[int, tuple[int, int]] = {}
_PLAN_REACH: dict[int, tuple[int, int]] = {}
_ACTION: dict[int, tuple[int, int]] = {}
_ISLANDS = 0xFFFFFFFF0  # the nibbles of islands 1..8 in a config
_NIBBLE_BITS = {sum(((b >> i) & 1) << (4 * i) for i in range(4)): b for b in range(16)}


def _own_mask(c: int) -> int:
    """Missions 0..7 that hold for these pieces (I4): exact counts and maximal runs."""
    m = _OWN.get(c)
    if m is None:
        m = 0
        occ = 0
        for i in range(1, 9):
            n = (c >> (4 * i)) & 15
            if n:
                occ |= 1 << (i - 1)
                if 2 <= n <= 5:
                    m |= 1 << (n - 2)
        m |= _RUNS[occ] << 4
        _OWN[c] = m
    return m


def _successors(c: int) -> tuple[int, ...]:
    """The configs one step of one piece away (I1): airplane -> 1, i -> i + 1, 8 -> 1 or
    the middle; with no movable piece, the config itself (I3: the number is still covered)."""
    out = _NEXT.get(c)
    if out is None:
        nxt = []
        for v in range(9):
            if (c >> (4 * v)) & 15:
                base = c - (1 << (4 * v))
                nxt.append(base + (1 << (4 * (v + 1 if v < 8 else 1))))
                if v == 8:
                    nxt.append(base + (1 << 36))
        out = tuple(nxt) if nxt else (c,)
        _NEXT[c] = out
    return out


_HIGH = 0x8888888880  # the high bit of each island's nibble


def _most(a: int, b: int) -> int:
    """Per island, the larger of two packed counts (each at most 6, so the high bit of a
    nibble is free: (a | high) - b keeps it exactly where a >= b)."""
    ge = (((a | _HIGH) - b) & _HIGH) >> 3
    pick = ge * 15
    return (a & pick) | (b & ~pick & _ISLANDS)


def _reach(c: int, steps: int) -> tuple[int, int]:
    """Over every result of moving exactly ``steps`` steps (any split over the pieces, I3):
    the missions 0..7 some result fulfils, and per island the most pieces a result has
    there (packed like a config). A split is a sequence of single steps, each of one
    piece, so the results of n steps are those of n - 1 steps from each successor."""
    if steps == 0:
        return _own_mask(c), c & _ISLANDS
    key = c << 4 | steps
    r = _REACH.get(key)
    if r is None:
        mask = 0
        most = 0
        for s in _successors(c):
            m, counts = _reach(s, steps - 1)
            mask |= m
            most = _most(most, counts)
        r = (mask, most)
        _REACH[key] = r
    return r


def _reach_any(c: int, plan: int) -> tuple[int, int]:
    """:func:`_reach` over the numbers of ``plan`` (bit n for n steps)."""
    key = c << 6 | plan
    r = _PLAN_REACH.get(key)
    if r is None:
        mask = 0
        most = 0
        for steps in NUMBERS:
            if (plan >> steps) & 1:
                m, counts = _reach(c, steps)
                mask |= m
                most = _most(most, counts)
        r = (mask, most)
        _PLAN_REACH[key] = r
    return r


def _action(rules: Any, action: int) -> tuple[int, int]:
    """The number a cover action covers and the change it makes to the mover's config
    (a packed signed sum); the ids are the same for every player count."""
    r = _ACTION.get(action)
    if r is None:
        flow = rules.action_flow(action)
        d = 0
        for e in range(10):
            u = flow[e]
            if u:
                src = 8 if e >= 8 else e
                dst = 9 if e == 9 else (1 if e == 8 else e + 1)
                d += u * ((1 << (4 * dst)) - (1 << (4 * src)))
        r = (rules.action_number(action), d)
        _ACTION[action] = r
    return r


def _next_plan(covered: int) -> int:
    """The numbers the seat may cover on its next turn (bit n for n): the uncovered
    ones, or all four once every one is covered (I2)."""
    free = [n for n in NUMBERS if not (covered >> (n - 2)) & 1] or list(NUMBERS)
    return sum(1 << n for n in free)


_PLANS = [_next_plan(covered) for covered in range(16)]  # by covered numbers (bit n - 2)


class _Seat:
    """What one decision needs to know, read once from the view."""

    __slots__ = ("completed", "covered", "hand", "majority_add", "me", "pool", "pool_mask", "view")

    def __init__(self, view: Any) -> None:
        self.view = view
        self.me = view.player
        seats = view.seats
        mine = seats[self.me]
        self.completed = sum(1 << x for x in mine.completed)
        self.covered = sum(1 << (n - 2) for n in mine.covered)
        self.hand = sum(1 << x for x in view.hand)
        # What the seat's next draw comes from: the unseen rest of its pile, or once that
        # is drawn, the cards it put under it (I11).
        pool = view.pile_unseen or view.under_pile
        self.pool: int = len(pool)
        self.pool_mask: int = sum(1 << x for x in pool)
        # I4: a majority needs more own pieces than all others together, with 2 players
        # at least 2 more. Adding 8 - need to a count (4 bits, at most 6) sets its high
        # bit exactly when the count reaches need (capped at 7: out of reach).
        extra = 2 if view.players == 2 else 1
        add = 0
        for i in range(8):
            need = min(7, sum(s.islands[i] for s in seats if s.seat != self.me) + extra)
            add |= (8 - need) << (4 * (i + 1))
        self.majority_add = add

    def majority(self, counts: int) -> int:
        """Missions 8..15 that hold with these packed own counts on islands 1..8."""
        y = ((counts + self.majority_add) >> 7) & 0x11111111
        return (_NIBBLE_BITS[y & 0xFFFF] | _NIBBLE_BITS[y >> 16] << 4) << 8

    def holds(self, c: int) -> int:
        """Every mission that holds for the seat with pieces c, the others unmoved."""
        return _own_mask(c) | self.majority(c & _ISLANDS)

    def outlook(self, c: int, covered: int) -> int:
        """Missions the seat could complete on its next turn (the others unmoved)."""
        mask, most = _reach_any(c, _PLANS[covered])
        return mask | self.majority(most)

    def draw_worth(self, reach: int) -> float:
        """What a card drawn at random from the pool is worth, on average."""
        return NEXT_TURN * (reach & self.pool_mask).bit_count() / self.pool if self.pool else 0.0


class RuleBot:
    """Plays Dream Islands by plain rules of thumb; each heuristic in docs/dream_islands.md, "Rule-based bot"."""

    name = "rules"

    def __init__(self, seed: int | None = None) -> None:
        self._rnd = random.Random(seed)

    def choose(self, state: Any) -> int:
        """The best legal action for ``state.current_player`` (ties broken by the seed)."""
        return self._ranked(state)[0][0]

    def analyse(self, state: Any) -> list[Candidate]:
        """Every legal action with its heuristic score, best first."""
        game = state.game
        return [
            Candidate(action=a, move=str(game.action_to_move(a)), visits=0, value=v) for a, v in self._ranked(state)
        ]

    def _ranked(self, state: Any) -> list[tuple[int, float]]:
        view = state.view(state.current_player, recall=True)
        actions = view.legal_actions
        seat = _Seat(view)
        rules = state.game.rules
        if view.phase == "exchange":
            values = self._exchange_values(seat, rules, actions)
        else:
            values = self._move_values(seat, rules, actions)
        # Scores equal but for rounding tie, and the seeded generator orders ties.
        values = [round(v, 9) for v in values]
        keys = [self._rnd.random() for _ in actions]
        order = sorted(range(len(actions)), key=lambda i: (-values[i], keys[i]))
        return [(int(actions[i]), values[i]) for i in order]

    # ------------------------------------------------------------------ A + B: the move

    def _move_values(self, seat: _Seat, rules: Any, actions: list[int]) -> list[float]:
        view = seat.view
        me = seat.me
        mine = view.seats[me]
        c = _pack([mine.airplane, *mine.islands, mine.middle])
        middle = sum(s.middle for s in view.seats)
        scores = [s.score for s in view.seats]
        last_round = view.end_triggered or (view.max_rounds > 0 and view.rounds + 1 >= view.max_rounds)
        done_before = len(mine.completed)
        out = []
        for a in actions:
            number, delta = _action(rules, a)
            c2 = c + delta
            arrivals = (c2 >> 36) - (c >> 36)
            gain = 0.0
            for i in range(middle, middle + arrivals):
                gain += SMALL[i] if i < 3 else 1
            done = seat.hand & seat.holds(c2)  # I5: every card in hand that holds
            k = done.bit_count()
            gain += MISSION * k + (3 if done_before + k == 16 else 0)
            if last_round:
                out.append(gain)
                continue
            if middle + arrivals >= 6 or done_before + k == 16:  # I7: this move ends the game
                out.append(gain + self._end_value(scores, me, gain))
                continue
            reach = seat.outlook(c2, seat.covered | (1 << (number - 2)))
            draw = seat.draw_worth(reach)
            kept = (seat.hand & ~done & reach).bit_count()
            # A card the next turn cannot complete is swapped for a draw in the exchange
            # (I6), and the empty places of the hand are filled by draws.
            future = kept * max(NEXT_TURN, draw) + (3 - kept) * draw
            future += OPTIONS * (reach & ~(seat.completed | done)).bit_count() / 16
            out.append(gain + future)
        return out

    @staticmethod
    def _end_value(scores: list[int], me: int, gain: float) -> float:
        """Ending the game (I7): good when the seat stays ahead once the seats after it
        (seat n - 1 plays last) have had their last turn."""
        mine = scores[me] + gain
        best = max(s + (LAST_TURN_GAIN if p > me else 0.0) for p, s in enumerate(scores) if p != me)
        return END_STAKE * (2.0 / (1.0 + math.exp(-(mine - best) / 2.0)) - 1.0)

    # ------------------------------------------------------------------ C: the exchange

    def _exchange_values(self, seat: _Seat, rules: Any, actions: list[int]) -> list[float]:
        """Put a card under the pile when what replaces it is worth more (I6, I11)."""
        view = seat.view
        mine = view.seats[seat.me]
        c = _pack([mine.airplane, *mine.islands, mine.middle])
        reach = seat.outlook(c, seat.covered)
        draw = seat.draw_worth(reach)
        # The draws come from the top: the unseen rest of the pile first, then the cards
        # put under it, in order (I11). The card put under now is replaced by draw number
        # (3 - hand size) + 1.
        index = 3 - len(view.hand)
        unseen = len(view.pile_unseen)
        if index < unseen:
            replacement = draw
        elif index - unseen < len(view.under_pile):
            replacement = NEXT_TURN * ((reach >> view.under_pile[index - unseen]) & 1)
        else:
            replacement = None  # the card would come straight back
        out = []
        for a in actions:
            if a == rules.a_done:
                out.append(0.0)
            else:
                x = a - rules.a_put
                # Only a strictly better replacement is worth the exchange.
                out.append(0.0 if replacement is None else replacement - NEXT_TURN * ((reach >> x) & 1) - 0.01)
        return out
