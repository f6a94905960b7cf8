"""A rule-based Atlantic Star bot: plays the way a careful beginner would.

Every heuristic is described in docs/atlantic_star.md, "Rule-based bot". In short: a
plaque is worth the victory points it can expect to keep once every voyage of its sea is
staged (its rank among the plaques there and the ones still to come, judged by how well
the others have sailed so far); the bot charters the ship that raises the voyage its hand
builds best the most for the price, refreshes the agency when nothing on offer helps and
the pack promises more, stages a voyage when no charter would improve it any more (or the
hand cannot grow), picks the class that pays best for its value, keeps the cards that
suit a sea still to sail, and borrows when the marks are worth more than the points the
plaque may lose by it.

It decides from ``state.view(seat, recall=True)``, the legal actions and the game's card
data and options only; it never looks at hidden cards and never applies a move.
"""

from __future__ import annotations

import math
import random
from typing import Any

from cruiselib.atlantic_star._sizes import NAMT, NKEEP, NSEA  # the action layout's sizes, as the core defines them
from cruiselib.atlantic_star.ships import SEAS
from cruiselib.bots._types import Candidate

__all__ = ["RuleBot"]

# --- tuning (docs/atlantic_star.md, "Rule-based bot", says what each one means) ---------
FILL = 4.5  # points a leg still to cover is expected to bring
BONUS_ODDS = 0.6  # chance, per leg still to cover, that the voyage will earn its bonus
PRIOR_PER_LEG = 6.0  # the others' voyage value per leg, before any voyage is seen
PRIOR_WEIGHT = 2.0  # how many voyages that prior counts for
SPREAD = 2.0  # spread of the others' voyage values: SPREAD * sqrt(legs) + 1
MARK_VALUE = 0.35  # victory points 1,000 marks are worth when money matches the need
TEMPO = 0.15  # staging a finished voyage beats waiting for nothing
LOAN_MARGIN = 0.5  # a loan must bring this many points more than it costs
REFRESH_PRICE = 1.5  # thousands: the price a ship from a refreshed agency is assumed to cost
VOYAGE_SLACK = 2  # voyages this much below the sea's best are not weighed for their kept cards
REFRESH_GATE = 1.0  # a charter gaining this many points is taken without refreshing
CACHE = 50_000  # entries of the card-data caches before they start afresh

Opts = tuple[tuple[int, int], ...]  # the legs of one sea a ship suits: (leg bit, value)


class _Tables:
    """What the bot reads once per game from its card data and options."""

    def __init__(self, game: Any) -> None:
        rules = game.rules
        self.game = game
        self.players: int = game.num_players
        self.sets: int = game.sets
        self.plaques_per_sea = self.players * self.sets
        self.board: tuple[tuple[int, ...], ...] = tuple(tuple(c) for c in game.board)
        self.legs: tuple[int, ...] = tuple(int(rules.sea_legs(s)) for s in range(NSEA))
        self.ops: list[list[int]] = [
            [int(rules.operator_value(k, s)) for k in range(int(game.num_operators))] for s in range(NSEA)
        ]
        self.a_refresh = int(rules.a_refresh)
        self.a_charter = int(rules.a_charter)
        self.a_voyage = int(rules.a_voyage)
        self.keep = [tuple(rules.keep_slots(c)) for c in range(NKEEP)]
        ships = game.ships.ships
        self.nships = len(ships)
        self.index: dict[str, int] = dict(game.ships.index)
        self.opts: list[list[Opts]] = []
        for s, sea_name in enumerate(SEAS):
            row: list[Opts] = []
            for ship in ships:
                if ship.mail:  # 1 on any leg (A4)
                    row.append(tuple((1 << leg, 1) for leg in range(self.legs[s])))
                else:
                    row.append(tuple((1 << (e.leg - 1), e.value) for e in ship.legs if e.sea == sea_name))
            self.opts.append(row)
        self.useful = [[c for c in range(self.nships) if self.opts[s][c]] for s in range(NSEA)]
        # Per sea, the ships that suit it grouped by what they offer there (one estimate each).
        self.groups: list[list[tuple[Opts, list[int]]]] = []
        for s in range(NSEA):
            by: dict[Opts, list[int]] = {}
            for c in self.useful[s]:
                by.setdefault(self.opts[s][c], []).append(c)
            self.groups.append(list(by.items()))
        self.pop = [bin(m).count("1") for m in range(64)]
        self.binom = [[math.comb(n, k) for k in range(n + 1)] for n in range(13)]
        # Card-data caches kept from one decision to the next (a hand changes slowly):
        # assignments and potential of a set of cards per sea.
        self._dp: dict[tuple[int, tuple[int, ...]], dict[int, int]] = {}
        self._pot: dict[tuple[int, tuple[int, ...], int], float] = {}
        self._one: dict[tuple[int, tuple[int, ...], int], tuple[float, list[float]]] = {}
        self._useful: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        self._split: dict[int, list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
        # Board caches: what a plaque of a value is worth depends only on its sea's
        # plaques, class and the estimate of the others (the sea's "context").
        self.fields: dict[tuple[int, int, int], list[float]] = {}
        self.classes: dict[tuple[int, float], tuple[float, int]] = {}
        self.bases: dict[int, float] = {}
        self._contexts: dict[tuple[Any, ...], int] = {}
        self.futures: dict[tuple[Any, ...], float] = {}

    def context(self, key: tuple[Any, ...]) -> int:
        """A small id for a sea's context (cheaper to hash than the context itself)."""
        got = self._contexts.get(key)
        if got is None:
            got = self._contexts[key] = len(self._contexts)
        return got

    def trim(self) -> None:
        """Start the caches afresh once they grow large (a long session of games)."""
        sizes = (self._dp, self._pot, self._one, self._useful, self.fields, self.classes, self.futures)
        if max(len(c) for c in sizes) > CACHE:
            self._dp.clear()
            self._pot.clear()
            self._one.clear()
            self._useful.clear()
            self.fields.clear()
            self.classes.clear()
            self.bases.clear()
            self._contexts.clear()
            self.futures.clear()

    def useful_of(self, s: int, cards: tuple[int, ...]) -> tuple[int, ...]:
        """The cards (sorted by id) that suit some leg of ``s``: only they change its voyage."""
        key = (s, cards)
        got = self._useful.get(key)
        if got is None:
            opts = self.opts[s]
            got = self._useful[key] = tuple(c for c in cards if opts[c])
        return got

    def dp(self, s: int, useful: tuple[int, ...]) -> dict[int, int]:
        """The best total of suited entries per set of covered legs of ``s`` (A5), for
        the ``useful`` cards of a hand."""
        key = (s, useful)
        got = self._dp.get(key)
        if got is None:
            got = _extend(self.dp(s, useful[:-1]), self.opts[s][useful[-1]]) if useful else {0: 0}
            self._dp[key] = got
        return got

    def split(self, size: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Per voyage keep code, (the hand slots played, the slots kept) of a hand of ``size``."""
        got = self._split.get(size)
        if got is None:
            got = self._split[size] = [
                (tuple(i for i in range(size) if i not in keep), tuple(i for i in keep if i < size))
                for keep in self.keep
            ]
        return got

    def potential(self, s: int, useful: tuple[int, ...], size: int) -> float:
        """The value a voyage in ``s`` can still expect from a hand of ``size`` cards with
        these ``useful`` ones: each leg still to cover brings FILL while the hand has room
        to charter for it (legs + 2 cards, A6), and the bonus comes with BONUS_ODDS per
        missing leg."""
        key = (s, useful, size)
        got = self._pot.get(key)
        if got is not None:
            return got
        L = self.legs[s]
        room = L + 2 - size
        pop = self.pop
        # The best total per number of covered legs; the full cover alone earns the bonus.
        top = [-1] * (L + 1)
        for m, v in self.dp(s, useful).items():
            k = pop[m]
            if v > top[k]:
                top[k] = v
        best = float(top[L] + L) if top[L] >= 0 else 0.0
        for covered in range(L):
            v = top[covered]
            if v < 0:
                continue
            k = L - covered
            val = v + k * FILL + L * BONUS_ODDS**k if k <= room else v + max(0, room) * FILL
            if val > best:
                best = val
        self._pot[key] = best
        return best

    def one_more(self, s: int, useful: tuple[int, ...], size: int) -> tuple[float, list[float]]:
        """For a hand of ``size`` cards with these ``useful`` ones and one more card: (the
        potential if that card suits no leg of ``s``, per leg l the potential less the
        value if it suits leg l). So ``potential`` with one more ship is max(first,
        second[l] + w over its entries (l, w)) without building its assignments: a ship
        sails one leg, so its assignments are the best of those of its entries alone."""
        key = (s, useful, size)
        got = self._one.get(key)
        if got is not None:
            return got
        L = self.legs[s]
        room = L + 2 - size - 1
        pop = self.pop
        full = (1 << L) - 1
        # What a set of covered legs adds to its total, by the number of legs it covers.
        const = []
        for covered in range(L + 1):
            k = L - covered
            if k == 0:
                const.append(float(L))
            elif k <= room:
                const.append(k * FILL + L * BONUS_ODDS**k)
            else:
                const.append(max(0, room) * FILL)
        dp = self.dp(s, useful)
        first = -1e9
        per_leg = [-1e9] * L
        for m, v in dp.items():
            c = v + const[pop[m]]
            if c > first:
                first = c
            if pop[m] < L:
                free = full & ~m
                for leg in range(L):
                    if free >> leg & 1:
                        c = v + const[pop[m] + 1]
                        if c > per_leg[leg]:
                            per_leg[leg] = c
        got = self._one[key] = (first, per_leg)
        return got


def _extend(dp: dict[int, int], o: Opts) -> dict[int, int]:
    """``dp`` (best total of suited entries per set of covered legs) with one more card."""
    if not o:
        return dp
    new = dict(dp)
    for m, v in dp.items():
        for bit, w in o:
            if not m & bit:
                nm = m | bit
                if new.get(nm, -1) < v + w:
                    new[nm] = v + w
    return new


def _voyage_value(dp: dict[int, int], legs: int) -> int:
    """A5: the value of playing exactly ``legs`` cards whose assignments are ``dp``."""
    value = max(dp.values())
    full = (1 << legs) - 1
    if full in dp and dp[full] + legs > value:
        value = dp[full] + legs
    return value


class _Turn:
    """One decision: the view, read once, and the estimates built from it."""

    def __init__(self, t: _Tables, view: Any, seat: int) -> None:
        self.t = t
        self.seat = seat
        self.view = view
        self.hand: tuple[int, ...] = tuple(x.id for x in view.hand)
        self.money: int = view.money[seat] // 1000
        mine = [0] * NSEA
        self.values: list[list[int]] = []  # per sea, the plaques' values, top first
        self.own: dict[tuple[int, int], int] = {}  # (sea, voyage) -> own plaque's value
        self.stars: list[int] = []  # per sea, its class (0-based), -1 before its first voyage
        self.staged = [0] * NSEA
        seen, seen_n = 0.0, 0
        for s, sea in enumerate(view.seas):
            row = []
            for p in sea.plaques:
                row.append(p.value)
                if p.seat is not None:
                    self.staged[s] += 1
                    if p.seat == seat:
                        mine[s] += 1
                        self.own[(s, p.voyage)] = p.value
                    else:
                        seen += (p.value + p.loan // 1000) / t.legs[s]
                        seen_n += 1
            self.values.append(row)
            self.stars.append(-1 if sea.stars is None else sea.stars - 1)
        self.todo = tuple(t.sets - mine[s] for s in range(NSEA))
        self.free = [c - 1 for c in view.free_classes]
        # The others' voyages: as good, per leg, as the ones already on the board.
        per_leg = (PRIOR_PER_LEG * PRIOR_WEIGHT + seen) / (PRIOR_WEIGHT + seen_n)
        self.mu = [per_leg * t.legs[s] for s in range(NSEA)]
        self.sd = [SPREAD * math.sqrt(t.legs[s]) + 1.0 for s in range(NSEA)]
        need = max(0, sum(t.legs[s] * self.todo[s] for s in range(NSEA)) - len(self.hand))
        # 1,000 marks are worth more while the money is short of the ships still needed.
        self.mark = MARK_VALUE * max(0.25, min(3.0, need / max(1.0, float(self.money))))
        # Each sea's context: everything the worth of a new plaque there depends on.
        t.trim()  # (before the ids are handed out: trimming forgets them)
        self.ctx = [
            t.context(
                (
                    s,
                    self.stars[s],
                    tuple(self.values[s]),
                    self.staged[s],
                    self.mu[s],
                    () if self.stars[s] >= 0 else tuple(self.free),
                )
            )
            for s in range(NSEA)
        ]
        self.board_id = t.context(tuple(self.ctx))
        # What the field distribution of a new plaque depends on: the plaques above it
        # (or the operators of a sea not yet sailed), how many are to come, the others' skill.
        self.fctx = [
            t.context((s, tuple(self.values[s]) if self.stars[s] >= 0 else (), self.staged[s], self.mu[s]))
            for s in range(NSEA)
        ]
        self.bases = [self.base(s) for s in range(NSEA)]

    # --- what a plaque is worth ----------------------------------------------------

    def fields(self, s: int, value: int, skip: int = -1) -> list[float]:
        """P(final field = i), i = 0..5, of a plaque of ``value`` placed in ``s`` now (or,
        with ``skip`` = the index of an own plaque, of that plaque re-ranked at ``value``):
        below every plaque there of equal or higher value (A7) and below each plaque
        still to come with a higher value, each with the chance the others' spread gives."""
        t = self.t
        key = (self.fctx[s], value, skip)
        got = t.fields.get(key)
        if got is not None:
            return got
        if skip >= 0:
            existing = [v for i, v in enumerate(self.values[s]) if i != skip]
            n = t.plaques_per_sea - self.staged[s]
        else:
            existing = self.values[s] if self.stars[s] >= 0 else t.ops[s]
            n = t.plaques_per_sea - self.staged[s] - 1
        above = 0
        for v in existing:
            if v >= value:
                above += 1
        q = 0.5 * math.erfc((value + 0.5 - self.mu[s]) / (self.sd[s] * math.sqrt(2.0)))
        out = [0.0] * 6
        row = t.binom[n]
        for k in range(n + 1):
            out[min(5, above + k)] += row[k] * q**k * (1.0 - q) ** (n - k)
        t.fields[key] = out
        return out

    def evp(self, s: int, value: int, cls: int, skip: int = -1) -> float:
        """Expected victory points of that plaque in class ``cls``."""
        f = self.fields(s, value, skip)
        pts = self.t.board[cls]
        return f[0] * pts[0] + f[1] * pts[1] + f[2] * pts[2] + f[3] * pts[3] + f[4] * pts[4] + f[5] * pts[5]

    def best_class(self, s: int, value: float) -> tuple[float, int]:
        """(expected points, class) of a voyage of ``value`` in ``s``: in its class, or in
        the free class that pays best (values between integers interpolated)."""
        key = (self.ctx[s], value)
        got = self.t.classes.get(key)
        if got is not None:
            return got
        v = min(60, int(value))
        frac = value - v if v < 60 else 0.0
        f = self.fields(s, v)
        if frac:  # the field distribution between the two integer values
            g = self.fields(s, v + 1)
            f = [a + frac * (b - a) for a, b in zip(f, g, strict=True)]
        classes = [self.stars[s]] if self.stars[s] >= 0 else self.free
        best = (-1.0, -1)
        board = self.t.board
        for c in classes:
            pts = board[c]
            e = f[0] * pts[0] + f[1] * pts[1] + f[2] * pts[2] + f[3] * pts[3] + f[4] * pts[4] + f[5] * pts[5]
            if e > best[0]:
                best = (e, c)
        self.t.classes[key] = best
        return best

    # --- what a hand is worth --------------------------------------------------------

    def base(self, s: int) -> float:
        """Expected points of a voyage in ``s`` built from nothing."""
        got = self.t.bases.get(self.ctx[s])
        if got is None:
            L = self.t.legs[s]
            got = self.t.bases[self.ctx[s]] = self.best_class(s, min(60.0, L * FILL + L * BONUS_ODDS**L))[0]
        return got

    def gain(self, s: int, useful: tuple[int, ...], size: int) -> float:
        """How much more than ``base(s)`` a voyage in ``s`` can expect from a hand."""
        return self.best_class(s, self.t.potential(s, useful, size))[0] - self.base(s)

    def future(self, cards: tuple[int, ...], todo: tuple[int, ...], extra: int = -1) -> float:
        """Expected points of the voyages still to sail (``todo`` per sea) with ``cards``
        (and the ship ``extra``) in hand: the hand builds the sea it suits best, the others
        start from nothing."""
        t = self.t
        key = (self.board_id, cards, todo, extra)
        got = t.futures.get(key)
        if got is not None:
            return got
        n = len(cards) + (extra >= 0)
        legs = t.legs
        bases = self.bases
        total = 0.0
        gain = -100.0 if any(todo) else 0.0  # (a hand that fits no sea cannot occur)
        for s in range(NSEA):
            k = todo[s]
            if k:
                b = bases[s]
                total += b * k
                if n <= legs[s] + 2:
                    u = t.useful_of(s, cards)
                    if extra >= 0:  # one ship more (see one_more)
                        pot, per_leg = t.one_more(s, u, n - 1)
                        for bit, w in t.opts[s][extra]:
                            if per_leg[bit.bit_length() - 1] + w > pot:
                                pot = per_leg[bit.bit_length() - 1] + w
                    else:
                        pot = t.potential(s, u, n)
                    g = self.best_class(s, pot)[0] - b
                    if g > gain:
                        gain = g
        got = t.futures[key] = total + gain
        return got


class RuleBot:
    """Plays Atlantic Star like a careful beginner; each heuristic in docs/atlantic_star.md, "Rule-based bot"."""

    name = "rules"

    def __init__(self, seed: int | None = None) -> None:
        self._rnd = random.Random(seed)
        self._tables: _Tables | None = None

    def _tables_for(self, game: Any) -> _Tables:
        t = self._tables
        if t is None or t.game is not game:
            t = self._tables = _Tables(game)
        return t

    def choose(self, state: Any) -> int:
        """A legal action for the seat to move (ties broken by the bot's generator)."""
        scored = self._score(state)
        top = max(v for _, v in scored)
        best = [a for a, v in scored if v >= top - 1e-9]
        return best[0] if len(best) == 1 else self._rnd.choice(best)

    def analyse(self, state: Any) -> list[Candidate]:
        """Every legal action with its score, best first: the expected victory points it adds
        to what the seat's remaining voyages are expected to bring (see the docs page)."""
        game = state.game
        scored = sorted(self._score(state), key=lambda av: (-av[1], av[0]))
        return [Candidate(action=a, move=str(game.action_to_move(a)), visits=0, value=v) for a, v in scored]

    # ------------------------------------------------------------------ scoring

    def _score(self, state: Any) -> list[tuple[int, float]]:
        t = self._tables_for(state.game)
        seat = state.current_player
        view = state.view(seat, recall=True)
        turn = _Turn(t, view, seat)
        hand = turn.hand
        todo = turn.todo
        now = turn.future(hand, todo)
        out: list[tuple[int, float]] = []
        agency = [a.ship.id if a.ship is not None else -1 for a in view.agency]
        loans: list[int] = []
        refresh = False
        voyages: list[int] = []
        for a in view.legal_actions:
            if a < t.a_refresh:
                loans.append(a)
            elif a == t.a_refresh:
                refresh = True
            elif a < t.a_voyage:
                space = a - t.a_charter
                after = turn.future(hand, todo, agency[space])
                out.append((a, after - now - turn.mark * (3 - space)))
            else:
                voyages.append(a)
        if voyages:
            out.extend(self._voyages(turn, voyages, now))
        if refresh:
            # A ship on offer worth taking makes the refresh pointless: only its fee counts.
            offer = max((v for a, v in out if a < t.a_voyage), default=0.0)
            stage = max((v for a, v in out if a >= t.a_voyage), default=-1e9)
            if offer >= REFRESH_GATE:
                score = max(offer, stage) - 2 * turn.mark
            else:
                score = self._refresh(turn, view, now, stage)
            out.append((t.a_refresh, score))
        if loans:
            follow = max((v for _, v in out), default=0.0)
            out.extend((a, follow + g) for a, g in self._loans(turn, loans))
        return out

    @staticmethod
    def _voyages(turn: _Turn, actions: list[int], now: float) -> list[tuple[int, float]]:
        """A voyage is worth its plaque's expected points plus what the voyages left are
        expected to bring with the kept cards. The kept cards are weighed for the voyages
        whose value is within VOYAGE_SLACK of the sea's best (the others are worse
        voyages: scored as if their kept cards brought nothing, a lower bound)."""
        t = turn.t
        hand = turn.hand
        split = t.split(len(hand))
        groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for a in actions:
            r, code = divmod(a - t.a_voyage, NKEEP)
            s, cls = divmod(r, 5)
            got = groups.get((s, code))
            if got is None:
                groups[(s, code)] = [(a, cls)]
            else:
                got.append((a, cls))
        value: dict[tuple[int, int], int] = {}
        best = [-1] * NSEA
        for s, code in groups:
            played = tuple(hand[i] for i in split[code][0])
            v = value[(s, code)] = _voyage_value(t.dp(s, t.useful_of(s, played)), t.legs[s])
            if v > best[s]:
                best[s] = v
        out = []
        for (s, code), members in groups.items():
            v = value[(s, code)]
            left = tuple(k - (i == s) for i, k in enumerate(turn.todo))
            if v >= best[s] - VOYAGE_SLACK:
                rest = turn.future(tuple(hand[i] for i in split[code][1]), left)
            else:
                rest = sum(turn.bases[i] * k for i, k in enumerate(left))
            f = turn.fields(s, v)
            for a, cls in members:
                pts = t.board[cls]
                e = f[0] * pts[0] + f[1] * pts[1] + f[2] * pts[2] + f[3] * pts[3] + f[4] * pts[4] + f[5] * pts[5]
                out.append((a, e + rest + TEMPO - now))
        return out

    @staticmethod
    def _refresh(turn: _Turn, view: Any, now: float, stage: float) -> float:
        """What 2,000 marks for four new ships are expected to bring: the best of the four
        ships drawn from the pack (the ships no seat can see), judged for the voyage the
        hand builds best at an average price, or the best voyage the hand can stage now
        (``stage``) if that is better; less the fee."""
        t = turn.t
        hand, todo = turn.hand, turn.todo
        fee = 2 * turn.mark
        size = len(hand)
        target, best = -1, -1e9
        for s in range(NSEA):
            if todo[s] and size + 1 <= t.legs[s] + 2:
                g = turn.gain(s, t.useful_of(s, hand), size)
                if g > best:
                    target, best = s, g
        if target < 0:  # no charter can follow: the refresh only delays the voyage
            return stage - fee
        index = t.index
        seen = {x.id for x in view.discard}
        seen.update(index[name] for sea in view.seas for p in sea.plaques for name in p.ships)
        seen.update(hand)
        for a in view.agency:
            if a.ship is not None:
                seen.add(a.ship.id)
        for row in view.known or ():
            for x in row:
                seen.add(x.id)
        n = t.nships - len(seen)
        if n <= 0:
            return stage - fee
        u = t.useful_of(target, hand)
        total = sum(turn.base(s) * todo[s] for s in range(NSEA))
        cost = REFRESH_PRICE * turn.mark
        first, per_leg = t.one_more(target, u, size)
        base = turn.base(target)
        # A ship that suits no leg of the target only takes a place in the hand.
        blank = max(stage, total + turn.best_class(target, first)[0] - base - now - cost)
        values = []
        useful = 0
        for o, ships in t.groups[target]:
            count = 0
            for c in ships:
                if c not in seen:
                    count += 1
            if not count:
                continue
            useful += count
            # A ship sails one leg: the best of its entries (exact, see one_more).
            pot = first
            for bit, w in o:
                if per_leg[bit.bit_length() - 1] + w > pot:
                    pot = per_leg[bit.bit_length() - 1] + w
            values.append((max(stage, total + turn.best_class(target, pot)[0] - base - now - cost), count))
        # E[the best of 4 draws] (with replacement, close enough) over the sorted gains,
        # the n - useful blanks among them.
        values.append((blank, n - useful))
        values.sort()
        exp = 0.0
        i = 0
        for g, count in values:
            j = i + count
            exp += g * ((j / n) ** 4 - (i / n) ** 4)
            i = j
        return exp - fee

    @staticmethod
    def _loans(turn: _Turn, loans: list[int]) -> list[tuple[int, float]]:
        """A loan brings its marks and costs the points its plaque may lose by the lower
        value (its chance of being passed by the voyages still to come)."""
        t = turn.t
        out = []
        for a in loans:
            r, amt = divmod(a, NAMT)
            s, k = divmod(r, t.sets)
            amount = amt + 1
            value = turn.own.get((s, k), -1)
            if value < 0:  # (a legal loan always has its plaque)
                out.append((a, -100.0))
                continue
            idx = next(i for i, p in enumerate(turn.view.seas[s].plaques) if p.seat == turn.seat and p.voyage == k)
            cls = turn.stars[s]
            loss = turn.evp(s, value, cls, idx) - turn.evp(s, value - amount, cls, idx)
            out.append((a, amount * turn.mark - loss - LOAN_MARGIN))
        return out
