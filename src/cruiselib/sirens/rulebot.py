"""A rule-based Sirens in Sight bot: the play of a careful beginner, from the seat's view only.

Every decision looks one action ahead on a small model of the table the seat sees (the
placement, the crew move and the scoring check of S5/S6 need nothing hidden) and scores
the result with a few plain rules of thumb; docs/sirens.md, "Rule-based bot", explains
each. Hidden cards are only counted: the cards the seat cannot see are the pool the
opponent's hand and the seat's next draw come from.
"""

from __future__ import annotations

import random
from math import comb
from typing import Any

from cruiselib.bots._types import Candidate
from cruiselib.sirens.cards import EMBLEMS

__all__ = ["RuleBot"]

# The weights of the evaluation (docs/sirens.md, "Rule-based bot"), in tenths of a
# victory point.
POINT = 10.0  # a victory point (S8)
WIN = 1000.0  # a finished game, far above any margin
THREAT = 7.0  # per point at stake: the opponent can take that ship card on its next turn
CHANCE = 3.0  # per point at stake: the seat can take that ship card on its next turn
FOLLOW = 0.2  # one action a turn: the best threat (chance) counts fully, each other one this much
PROGRESS = 4.0  # per point at stake: how far each side is on its way to the threshold
DECISIVE = 3.0  # a ship card that brings its taker to 4 points counts this many times
OCTOPUS = 1.5  # an octopus still in hand: a card can be moved later (S7)
RUM = 1.0  # a rum mug still in hand: a later answer to a threat (S4)
HAND = 0.3  # per card of the highest value kept in hand: strong cards finish ship cards
SIDE_MAX = 5  # cards a side holds (S5)
NONE = -(10**6)  # "no card"

_Terms = tuple[float, float, float]  # one ship card's part of an evaluation: threat, chance, progress
_Sums = tuple[float, float, float, float, float]  # see _add
_Tops = tuple[int, int, int]  # see _top_movable
# What every ship card's terms depend on besides the ship card (see _facts): the best
# card kept, a draw to come, what each octopus could move, both scores, who moves next.
_Facts = tuple[int, bool, _Tops | None, _Tops | None, int, int, bool]


class _Table:
    """The public table as the bot models it (slot = ship * 2 + seat, as in action ids)."""

    __slots__ = ("cards", "cnt", "crew", "dirty", "live", "octo", "pts", "rum", "thr", "tops", "tot")

    def __init__(self) -> None:
        self.thr: list[int] = []  # per ship card: its threshold (S6)
        self.live: list[bool] = []  # per ship card: in play
        self.tot: list[int] = []  # per slot: the side's sum
        self.cnt: list[int] = []  # per slot: the side's cards
        self.cards: list[list[tuple[int, bool, int]]] = []  # per slot: (value, crew icon, octopus seat or -1)
        self.crew: list[int] = []  # captain, mate: the ship card it stands on, -1 once off the table
        self.pts: list[int] = []
        self.octo: list[bool] = []  # per seat: octopus held
        self.rum: list[bool] = []  # per seat: rum mug held
        self.tops: list[_Tops | None] = [None, None]  # per seat: what its octopus could move, once known
        self.dirty = 0  # bit k: ship card k differs from the table the decision started from

    def copy(self) -> _Table:
        t = _Table.__new__(_Table)
        t.thr = self.thr[:]
        t.live = self.live[:]
        t.tot = self.tot[:]
        t.cnt = self.cnt[:]
        t.cards = self.cards[:]  # a slot's list is replaced, never changed in place
        t.crew = self.crew[:]
        t.pts = self.pts[:]
        t.octo = self.octo[:]
        t.rum = self.rum[:]
        t.tops = self.tops[:]
        t.dirty = self.dirty
        return t

    @property
    def over(self) -> bool:
        return max(self.pts) >= 4 or not any(self.live)  # S8

    def top(self, mover: int) -> _Tops:
        tops = self.tops[mover]
        if tops is None:
            tops = self.tops[mover] = _top_movable(self, mover)
        return tops

    def add(self, slot: int, card: tuple[int, bool, int]) -> None:
        self.cards[slot] = [*self.cards[slot], card]
        self.tot[slot] += card[0]
        self.cnt[slot] += 1
        self.dirty |= 1 << (slot >> 1)
        for mover in range(2):
            tops = self.tops[mover]
            if tops is not None and card[2] != 1 - mover:
                self.tops[mover] = _with_card(tops, card[0], slot)

    def take(self, slot: int, value: int, crew: bool, forbidden: int) -> None:
        """Remove a card of that face from the slot, not one carrying ``forbidden``'s octopus."""
        cards = self.cards[slot]
        for i, c in enumerate(cards):
            if c[0] == value and c[1] == crew and c[2] != forbidden:
                self.cards[slot] = cards[:i] + cards[i + 1 :]
                break
        self.tot[slot] -= value
        self.cnt[slot] -= 1
        self.dirty |= 1 << (slot >> 1)
        self.tops = [None, None]

    def token_on(self, ship: int) -> int:
        return 0 if self.crew[0] == ship else 1 if self.crew[1] == ship else -1

    def destinations(self, ship: int, token: int) -> tuple[int, int] | None:
        """Where the token on ``ship`` may go (S5, S2, S11); None when it stays."""
        if sum(self.live) == sum(1 for k in self.crew if k >= 0):
            return None  # S5: as many ship cards in play as tokens
        out = []
        for step in (-1, 1):
            k = self._next(ship, step)
            if self.crew[1 - token] == k:
                k = self._next(k, step)  # S5: the token skips the other one
            out.append(k)
        return (out[0], out[1])

    def _next(self, ship: int, step: int) -> int:
        k = ship
        for _ in range(5):
            k = (k + step) % 5  # S2: a ring without gaps
            if self.live[k]:
                return k
        return ship

    def scores(self, ship: int) -> bool:
        """Whether ``ship`` (in play) is scored now (S6)."""
        thr = self.thr[ship]
        a, b = 2 * ship, 2 * ship + 1
        return (
            self.tot[a] >= thr or self.tot[b] >= thr or (self.cnt[a] == SIDE_MAX and self.cnt[b] == SIDE_MAX)
        )

    def check(self, ship: int) -> None:
        """S6 on one ship card: threshold reached, or two full sides compared."""
        if not self.live[ship] or not self.scores(ship):
            return
        s0, s1 = self.tot[2 * ship], self.tot[2 * ship + 1]
        thr = self.thr[ship]
        winner = 0 if s0 >= thr else 1 if s1 >= thr else 0 if s0 > s1 else 1 if s1 > s0 else -1
        self.live[ship] = False
        self.dirty |= 1 << ship
        self.tops = [None, None]
        if winner >= 0:
            self.pts[winner] += 1
        for t in range(2):
            if self.crew[t] == ship:
                self.crew[t] = -1
                if winner >= 0:
                    self.pts[winner] += 1
        for s in (2 * ship, 2 * ship + 1):
            for c in self.cards[s]:
                if c[2] >= 0:
                    self.octo[c[2]] = True  # S6: an octopus goes back to its owner
            self.cards[s] = []
            self.tot[s] = 0
            self.cnt[s] = 0


def _top_movable(t: _Table, mover: int) -> _Tops:
    """What ``mover``'s octopus may move (S7: no card carrying the other seat's octopus):
    the highest card's value and slot, and the highest value on any other slot."""
    best, slot, second = NONE, -1, NONE
    other = 1 - mover
    cards = t.cards
    for s in range(10):
        m = NONE
        for c in cards[s]:
            if c[0] > m and c[2] != other:
                m = c[0]
        if m > best:
            best, slot, second = m, s, best
        elif m > second:
            second = m
    return best, slot, second


def _with_card(tops: _Tops, value: int, slot: int) -> _Tops:
    """:func:`_top_movable` after a movable card of ``value`` joined ``slot``."""
    best, where, second = tops
    if slot == where:
        return (value, where, second) if value > best else tops
    if value > best:
        return (value, slot, best)
    return (best, where, value) if value > second else tops


class _Context:
    """One decision: the starting table, the seat's hand, and the unseen cards counted."""

    __slots__ = (
        "after", "draw_ge", "draws", "facts", "hand", "maxv", "me", "op", "opp_ge", "ships", "slot_tops", "sums",
        "table", "top", "without",
    )

    def __init__(
        self, table: _Table, me: int, hand: list[int], opp_pool: list[int], opp_hand: int, draw_pool: list[int]
    ) -> None:
        self.table = table
        self.me = me
        self.op = 1 - me
        self.hand = hand
        self.draws = bool(draw_pool)
        self.maxv = max([*opp_pool, *draw_pool, *hand, 1])
        self.top = self.maxv + 1
        # opp_ge[r]: the chance that the opponent's hidden hand holds a card of value >= r
        # (its cards come from the pool without replacement); draw_ge[r]: the chance that
        # the seat's next draw is one. r runs 0 .. maxv + 1.
        self.opp_ge = self._at_least(opp_pool, opp_hand)
        self.draw_ge = self._at_least(draw_pool, 1)
        # Per set of table-wide facts (_facts) and of ship cards left out: the starting
        # table's terms summed up (rest).
        self.sums: dict[tuple[_Facts, int], _Sums] = {}
        self.ships: dict[tuple[Any, ...], _Terms] = {}  # see rest
        # Per card value played: the hand kept, its best card and its strength (HAND).
        self.after: dict[int, tuple[list[int], int, float]] = {}
        # The starting table's facts for a play (a draw to come, the opponent next).
        self.facts = _facts(self, table, hand, self.draws, True)
        self.slot_tops: list[tuple[int, int]] = []  # see tops_without
        self.without: dict[tuple[int, int], _Tops] = {}

    def tops_without(self, slot: int, value: int) -> _Tops:
        """What the opponent's octopus could move (:func:`_top_movable`) once a card of
        ``value`` left ``slot`` for good. While both octopuses are held no card carries
        one, so every card counts; per slot its two highest values are kept."""
        key = (slot, value)
        tops = self.without.get(key)
        if tops is not None:
            return tops
        if not self.slot_tops:
            for cards in self.table.cards:
                values = sorted((c[0] for c in cards), reverse=True)
                self.slot_tops.append((values[0] if values else NONE, values[1] if len(values) > 1 else NONE))
        best, where, second = NONE, -1, NONE
        for s, (first, next_) in enumerate(self.slot_tops):
            m = next_ if s == slot and value == first else first
            if m > best:
                best, where, second = m, s, best
            elif m > second:
                second = m
        tops = self.without[key] = (best, where, second)
        return tops

    def strength(self, hand: list[int]) -> float:
        return HAND * sum(v for v in hand if v > 0) / self.maxv

    def kept(self, value: int) -> tuple[list[int], int, float]:
        """The hand after playing a card of ``value``: the cards, the best one, its strength."""
        out = self.after.get(value)
        if out is None:
            hand = self.hand[:]
            hand.remove(value)
            out = self.after[value] = (hand, max(hand) if hand else NONE, self.strength(hand))
        return out

    def _at_least(self, pool: list[int], draws: int) -> list[float]:
        n = len(pool)
        draws = min(draws, n)
        out = [0.0] * (self.top + 1)
        if not draws:
            return out
        count = [0] * (self.top + 1)
        for v in pool:
            if v > 0:
                count[v] += 1
        ways = comb(n, draws)
        good = 0
        for r in range(self.top, 0, -1):
            good += count[r]
            out[r] = 1.0 - comb(n - good, draws) / ways  # hypergeometric: not one of them
        out[0] = 1.0
        return out

    def terms(
        self, g: _Facts, thr: int, stake: int, sm: int, tm: int, cm: int, so: int, to: int, co: int
    ) -> _Terms:
        """One ship card's part of the evaluation: the seat's side at slot ``sm`` holds
        ``cm`` cards summing to ``tm``, the opponent's at ``so`` ``co`` cards summing to
        ``to``; ``g`` are the table-wide facts (:func:`_facts`)."""
        best_hand, draws, op_top, my_top, pm, po, opp_next = g
        top = self.top
        maxv = self.maxv
        progress = 0.0
        # The opponent may take it on its turn: a card of its hidden hand reaches the
        # threshold, or its octopus moves the best card it may move to its side (S7).
        q = 0.0
        if co < SIDE_MAX:
            need = thr - to
            if need < 1:
                need = 1
            q = self.opp_ge[need] if need <= top else 0.0
            if op_top is not None and q < 1.0 and (op_top[0] if op_top[1] != so else op_top[2]) >= need:
                q = 1.0
            if to > 0 and need <= maxv * (SIDE_MAX - co):
                f = to / thr
                progress -= f * f
        # The seat may take it on its next turn: a card it keeps, the card it draws, or
        # its own octopus.
        p = 0.0
        if cm < SIDE_MAX:
            need = thr - tm
            if need < 1:
                need = 1
            if best_hand >= need:
                p = 1.0
            elif draws:
                p = self.draw_ge[need] if need <= top else 0.0
            if my_top is not None and p < 1.0 and (my_top[0] if my_top[1] != sm else my_top[2]) >= need:
                p = 1.0
            if tm > 0 and need <= maxv * (SIDE_MAX - cm):
                f = tm / thr
                progress += f * f
        # A ship card that brings its taker to 4 points ends the game (S8).
        lose = stake * DECISIVE if po + stake >= 4 else stake
        gain = stake * DECISIVE if pm + stake >= 4 else stake
        if opp_next:
            return lose * q, gain * p * (1.0 - q), stake * progress
        return 0.5 * lose * q * (1.0 - p), gain * p, stake * progress

    def ship_terms(self, t: _Table, k: int, g: _Facts) -> _Terms:
        sm, so = 2 * k + self.me, 2 * k + self.op
        stake = 1 + (t.crew[0] == k) + (t.crew[1] == k)
        return self.terms(g, t.thr[k], stake, sm, t.tot[sm], t.cnt[sm], so, t.tot[so], t.cnt[so])

    def rest(self, g: _Facts, skip: int) -> _Sums:
        """The starting table's ship cards in play but those of the bit set ``skip``,
        summed up under the facts ``g``. A ship card's terms depend on the octopuses only
        through the best card each may bring to its sides, so they are kept per ship card
        and those values, and shared by the many facts that agree on them."""
        key = (g, skip)
        sums = self.sums.get(key)
        if sums is None:
            t = self.table
            best_hand, draws, op_top, my_top, pm, po, opp_next = g
            threat = threat_max = chance = chance_max = progress = 0.0
            for k in range(5):
                if t.live[k] and not (skip >> k) & 1:
                    so, sm = 2 * k + self.op, 2 * k + self.me
                    op_b = None if op_top is None else op_top[0] if op_top[1] != so else op_top[2]
                    my_b = None if my_top is None else my_top[0] if my_top[1] != sm else my_top[2]
                    ship_key = (k, best_hand, draws, op_b, my_b, pm, po, opp_next)
                    terms = self.ships.get(ship_key)
                    if terms is None:
                        terms = self.ships[ship_key] = self.ship_terms(t, k, g)
                    x, y, z = terms
                    threat += x
                    if x > threat_max:
                        threat_max = x
                    chance += y
                    if y > chance_max:
                        chance_max = y
                    progress += z
            sums = self.sums[key] = (threat, threat_max, chance, chance_max, progress)
        return sums

    def value(self, g: _Facts, sums: _Sums, octo: list[bool], rum: list[bool], strength: float) -> float:
        """The evaluation from the summed terms of the ship cards and the tokens held."""
        threat, threat_max, chance, chance_max, progress = sums
        value = POINT * (g[4] - g[5]) + PROGRESS * progress
        value -= THREAT * (threat_max + FOLLOW * (threat - threat_max))
        value += CHANCE * (chance_max + FOLLOW * (chance - chance_max))
        value += OCTOPUS * (octo[self.me] - octo[self.op]) + RUM * (rum[self.me] - rum[self.op])
        return value + strength


def _add(sums: _Sums, terms: _Terms) -> _Sums:
    """Sums of threats and chances, their largest, and the progress, with one more ship card."""
    threat, threat_max, chance, chance_max, progress = sums
    x, y, z = terms
    return (
        threat + x,
        x if x > threat_max else threat_max,
        chance + y,
        y if y > chance_max else chance_max,
        progress + z,
    )


def _facts(ctx: _Context, t: _Table, hand: list[int], draws: bool, opp_next: bool) -> _Facts:
    """What every ship card's terms depend on besides the ship card itself."""
    return (
        max(hand) if hand else NONE,
        draws,
        t.top(ctx.op) if t.octo[ctx.op] else None,
        t.top(ctx.me) if t.octo[ctx.me] else None,
        t.pts[ctx.me],
        t.pts[ctx.op],
        opp_next,
    )


def _evaluate(t: _Table, ctx: _Context, hand: list[int], draws: bool, opp_next: bool = True) -> float:
    """The bot's score of a table for its seat (higher is better), before the opponent
    moves (``opp_next``) or before the seat does. ``hand``: the cards the seat keeps;
    ``draws``: whether it draws one before its next turn."""
    pm, po = t.pts[ctx.me], t.pts[ctx.op]
    if t.over:
        diff = pm - po
        return (WIN if diff > 0 else -WIN if diff < 0 else 0.0) + POINT * diff
    g = _facts(ctx, t, hand, draws, opp_next)
    # The ship cards the action left as they were keep the starting table's terms.
    sums = ctx.rest(g, t.dirty)
    for k in range(5):
        if t.live[k] and (t.dirty >> k) & 1:
            sums = _add(sums, ctx.ship_terms(t, k, g))
    return ctx.value(g, sums, t.octo, t.rum, ctx.strength(hand))


class RuleBot:
    """Plays Sirens in Sight by plain rules of thumb; each heuristic in docs/sirens.md, "Rule-based bot"."""

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

    # ------------------------------------------------------------------ scoring

    def _ranked(self, state: Any) -> list[tuple[int, float]]:
        view = state.view(state.current_player, recall=True)
        actions = view.legal_actions
        values = self._values(state.game, view, actions)
        # Scores equal but for rounding tie, and the seeded generator orders ties.
        values = [round(v, 9) for v in values]
        keys = [self._rnd.random() for _ in actions]
        order = sorted(range(len(actions)), key=lambda i: (-values[i], keys[i]))
        return [(int(actions[i]), values[i]) for i in order]

    def _values(self, game: Any, view: Any, actions: list[int]) -> list[float]:
        R = game.rules
        faces = game.cards.faces
        if view.phase == "pick":
            # The strongest starting hand: always the highest face offered (S9, S14).
            return [float(faces[a - R.a_pick].value) for a in actions]
        ctx = self._context(game, view)
        table = ctx.table
        if view.phase == "crew":
            own_turn = view.turn_player == view.player
            return [self._crew_value(ctx, a - R.a_crew, own_turn) for a in actions]
        if view.phase == "after":
            # The drawn card is in the hand already: nothing more comes before the next turn.
            return [
                _evaluate(table, ctx, ctx.hand, False) if a == R.a_end else self._rum_value(ctx, a - R.a_rum)
                for a in actions
            ]
        F = R.num_faces
        has_main = any(a < R.a_rum for a in actions)
        out = []
        for a in actions:
            if a < R.a_octo:
                f, slot = divmod(a - R.a_play, 10)
                out.append(self._play_value(ctx, faces[f].value, faces[f].crew, slot))
            elif a < R.a_rum:
                r, dst = divmod(a - R.a_octo, 10)
                src, f = divmod(r, F)
                out.append(self._octopus_value(ctx, src, faces[f].value, faces[f].crew, dst))
            elif a < R.a_end:
                # S13: the mug can wait for the "after" decision, when the drawn card is
                # known; only a pass (which ends the turn at once) makes it now or never.
                out.append(-WIN * 10 if has_main else self._rum_value(ctx, a - R.a_rum))
            else:  # pass
                out.append(_evaluate(table, ctx, ctx.hand, False))
        return out

    @staticmethod
    def _context(game: Any, view: Any) -> _Context:
        """The table, hand and unseen cards from the seat's view."""
        me = view.player
        t = _Table()
        seen = {c.id for c in view.hand}
        index = {}
        for k, ship in enumerate(view.ships):
            index[ship.value] = k
            t.thr.append(ship.threshold)
            t.live.append(ship.in_play)
            for side in ship.sides:
                t.cards.append([(c.value, c.crew, -1 if c.octopus is None else c.octopus) for c in side])
                seen.update(c.id for c in side)
            t.tot.extend(ship.totals)
            t.cnt.extend(len(side) for side in ship.sides)
        t.crew = [-1 if c.ship is None else index[c.ship] for c in view.crew]
        t.pts = list(view.points)
        t.octo = list(view.octopus_held)
        t.rum = list(view.rum_held)
        seen.update(c.id for c in view.removed)
        hand = [c.value for c in view.hand]
        cards = game.cards.cards
        if view.own_pile is not None:
            # S9: the opponent holds and draws cards of its own emblem set (S15), the seat
            # draws from its own pile, which the view lists.
            other = EMBLEMS[1 - me]
            opp_pool = [c.value for i, c in enumerate(cards) if c.emblem == other and i not in seen]
            draw_pool = [c.value for c in view.own_pile]
        else:
            opp_pool = [c.value for i, c in enumerate(cards) if i not in seen]
            draw_pool = opp_pool if view.pile_sizes[0] > 0 else []
        return _Context(t, me, hand, opp_pool, view.hand_sizes[1 - me], draw_pool)

    # ------------------------------------------------------------------ one action ahead

    def _play_value(self, ctx: _Context, value: int, crew: bool, slot: int) -> float:
        table = ctx.table
        hand, best, strength = ctx.kept(value)
        ship = slot >> 1
        tot, cnt = table.tot[slot] + value, table.cnt[slot] + 1
        if (
            (not crew or table.token_on(ship) < 0)
            and tot < table.thr[ship]
            and not (cnt == SIDE_MAX and table.cnt[slot ^ 1] == SIDE_MAX)
        ):
            # The common case, without a copy: one side changes, nothing is scored and no
            # token moves; every other ship card keeps its terms.
            g0 = ctx.facts
            op_top, my_top = g0[2], g0[3]
            if op_top is not None:
                op_top = _with_card(op_top, value, slot)
            if my_top is not None:
                my_top = _with_card(my_top, value, slot)
            g = g0 if (best, op_top, my_top) == (g0[0], g0[2], g0[3]) else (best, g0[1], op_top, my_top, *g0[4:])
            sm = 2 * ship + ctx.me
            so = sm ^ 1
            stake = 1 + (table.crew[0] == ship) + (table.crew[1] == ship)
            if slot == sm:
                terms = ctx.terms(g, table.thr[ship], stake, sm, tot, cnt, so, table.tot[so], table.cnt[so])
            else:
                terms = ctx.terms(g, table.thr[ship], stake, sm, table.tot[sm], table.cnt[sm], so, tot, cnt)
            return ctx.value(g, _add(ctx.rest(g, 1 << ship), terms), table.octo, table.rum, strength)
        t = table.copy()
        t.add(slot, (value, crew, -1))
        return self._resolve(t, ctx, slot, crew, -1, hand, ctx.draws)

    def _octopus_value(self, ctx: _Context, src: int, value: int, crew: bool, dst: int) -> float:
        table = ctx.table
        me, op = ctx.me, ctx.op
        ship, source = dst >> 1, src >> 1
        tot, cnt = table.tot[:], table.cnt[:]
        tot[src] -= value
        cnt[src] -= 1
        tot[dst] += value
        cnt[dst] += 1
        if (
            (not crew or table.token_on(ship) < 0)
            and tot[dst] < table.thr[ship]
            and not (cnt[dst] == SIDE_MAX and cnt[dst ^ 1] == SIDE_MAX)
            and tot[src] < table.thr[source]
        ):
            # The common case, without a copy: nothing is scored and no token moves. The
            # moved card now carries the seat's octopus, so the opponent's may no longer
            # move it.
            op_top = ctx.tops_without(src, value) if table.octo[op] else None
            g = (max(ctx.hand) if ctx.hand else NONE, False, op_top, None, table.pts[me], table.pts[op], True)
            sums = ctx.rest(g, (1 << ship) | (1 << source))
            for k in {ship, source}:
                stake = 1 + (table.crew[0] == k) + (table.crew[1] == k)
                sm, so = 2 * k + me, 2 * k + op
                sums = _add(sums, ctx.terms(g, table.thr[k], stake, sm, tot[sm], cnt[sm], so, tot[so], cnt[so]))
            octo = [False, False]
            octo[op] = table.octo[op]
            return ctx.value(g, sums, octo, table.rum, ctx.strength(ctx.hand))
        t = table.copy()
        t.take(src, value, crew, op)
        t.add(dst, (value, crew, me))
        t.octo[me] = False
        return self._resolve(t, ctx, dst, crew, source, ctx.hand, False)  # S7: no draw

    def _resolve(self, t: _Table, ctx: _Context, slot: int, crew: bool, src: int, hand: list[int],
                 draws: bool) -> float:
        """Finish a placement on ``slot`` (S5): the crew move, then the destination and the
        octopus' source scored."""
        ship = slot >> 1
        token = t.token_on(ship)
        if crew and token >= 0:
            dest = t.destinations(ship, token)
            if dest is not None:
                outcomes = []
                for k in sorted(set(dest)):
                    u = t.copy()
                    u.crew[token] = k
                    u.dirty |= (1 << k) | (1 << ship)
                    self._score_after(u, ship, src)
                    outcomes.append(_evaluate(u, ctx, hand, draws))
                # The side's owner decides (S5): the seat takes its best, the opponent is
                # expected to leave the seat the worst.
                return max(outcomes) if slot & 1 == ctx.me else min(outcomes)
        self._score_after(t, ship, src)
        return _evaluate(t, ctx, hand, draws)

    @staticmethod
    def _score_after(t: _Table, ship: int, src: int) -> None:
        t.check(ship)
        if src >= 0 and src != ship and not t.over:
            t.check(src)

    def _rum_value(self, ctx: _Context, ship: int) -> float:
        t = ctx.table.copy()
        t.thr[ship] += 3  # S6
        t.dirty |= 1 << ship
        t.rum[ctx.me] = False
        return _evaluate(t, ctx, ctx.hand, False)

    def _crew_value(self, ctx: _Context, to_ship: int, own_turn: bool) -> float:
        """The seat moves a crew token (S5): the move, then the scoring checks pending."""
        t = ctx.table.copy()
        token = self._moving_token(t, to_ship)
        src = t.crew[token]
        t.crew[token] = to_ship
        t.dirty |= (1 << src) | (1 << to_ship)
        # The card that caused the move lies on the token's former ship card; after an
        # octopus move its source may score too: every ship card that can is checked.
        t.check(src)
        for k in range(5):
            if not t.over:
                t.check(k)
        # In the opponent's turn the seat moves next; in its own turn the drawn card is
        # still to come.
        return _evaluate(t, ctx, ctx.hand, own_turn and ctx.draws, opp_next=own_turn)

    @staticmethod
    def _moving_token(t: _Table, to_ship: int) -> int:
        """The token the crew decision moves: the one that may go to ``to_ship``."""
        for token in range(2):
            k = t.crew[token]
            if k >= 0:
                dest = t.destinations(k, token)
                if dest is not None and to_ship in dest:
                    return token
        return 0
