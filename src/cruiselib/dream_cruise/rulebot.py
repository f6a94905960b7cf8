"""A rule-based Dream Cruise bot: plays the way a careful beginner would.

Every heuristic is described in docs/dream_cruise.md, "Rule-based bot". In short: in
phase 4 the bot plans the round as a beginner does, family by family, the ones it can
satisfy first, each guest on the activity the other families need least; it plays an
activity card, builds an addition or sends the captain only when that lets more guests
(or a whole family) go than the card is worth in hand; it keeps the location card that
takes most of its guests this round and lengthens a sailing route, takes the display set
that helps most now and later, and boards the families it can satisfy soonest for their
points.

It decides from ``state.view(seat, recall=True)``, the legal actions and the game's card
data and options only; it never looks at hidden cards and never applies a move.
"""

from __future__ import annotations

import random
from typing import Any

from cruiselib.bots._types import Candidate
from cruiselib.dream_cruise.cards import GENERAL as GENERAL_TYPES
from cruiselib.dream_cruise.cards import TYPES

__all__ = ["RuleBot"]

# Bits of the general activity types (sports, culture, rest); the others are location types.
GENERAL = sum(1 << TYPES.index(name) for name in GENERAL_TYPES)

# --- tuning (docs/dream_cruise.md, "Rule-based bot", says what each one means) -------------
PROGRESS = 0.6  # share of a family's points credited per guest sent, member by member
NEW_FAMILY = 1.5  # a satisfied family frees its cabin for a new one (before the last round)
GUEST_END = 0.5  # in the last round a guest still placed at the end is half a point (C8)
CARD = 0.3  # what a ship card in hand is worth (a later activity, a payment)
CARD_WANTED = 0.2  # more for an activity or addition of a type a family on board wants
CARD_LAST = 0.05  # in the last round a hand card only breaks ties (C8)
ADDITION_GUEST = 0.8  # a guest an addition will take in a later round
ADDITION_FAMILIES = 0.45  # families per round still to come that will want an addition's type
ROUTE = 1.0  # a route point (C1)
ROUTE_LATER = 0.3  # share of the next card's route gain credited to a longer route
START = 0.3  # the start-player token (first choice of the display next round)
FACE_DOWN_CARD = 0.75  # an unseen card of the face-down set
FAMILY_MARGIN = 1.5  # a family may take this much longer than its guests over its activities
SOURCE_GENERAL = 0.9  # activities of one general type a round offers a family (location, cards)
SOURCE_LOCATION = 0.35  # activities of one location type a round offers (shore excursions)


def _pop(m: int) -> int:
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1)


class _Tables:
    """What the bot reads once per game from its card data and options."""

    def __init__(self, game: Any) -> None:
        rules = game.rules
        self.game = game
        fams, locs, ships = game.cards.packed()
        self.fam: tuple[tuple[int, int, int, int], ...] = fams  # members, points, wants, start
        self.loc: tuple[tuple[int, int, int, int, int, int], ...] = locs  # sea, region, top, cap, bottom, cap
        self.ship: tuple[tuple[int, int, int], ...] = ships  # addition, type, capacity
        self.players: int = game.num_players
        self.route_table: tuple[int, ...] = tuple(game.route_points)
        self.nadd = int(rules.nadd)
        self.nspot = int(rules.nspot)
        self.ns = int(rules.ns)
        self.a_board = int(rules.a_board)
        self.a_keep = int(rules.a_keep)
        self.a_take = int(rules.a_take)
        self.a_place = int(rules.a_place)
        self.a_plan = int(rules.a_plan)
        self.a_build = int(rules.a_build)
        self.a_captain = int(rules.a_captain)
        self.a_done = int(rules.a_done)

    def route_points(self, counts: list[int], seas: int) -> int:
        """C1: every region one route; each route may take one sea card (the best ones)."""
        table = self.route_table

        def pts(n: int) -> int:
            return 0 if n < 2 else table[min(n, 5) - 2]

        total = 0
        gains = []
        for n in counts:
            total += pts(n)
            gains.append(pts(n + 1) - pts(n))
        gains.sort(reverse=True)
        for g in gains[:seas]:
            if g > 0:
                total += g
        return total


class _Round:
    """One seat's phase-4 position as the bot models it: the activities (spots) it can use,
    the captain, its families, and what each guest is worth."""

    __slots__ = ("cabins", "captain", "spots")

    def __init__(self, spots: list[list[int] | None], captain: int, cabins: list[list[float]]) -> None:
        self.spots = spots  # per spot: [type, capacity, figures mask] or None
        self.captain = captain  # spot of the captain, -1 on the bridge
        self.cabins = cabins  # per cabin: [cabin, wants, left, per-guest worth, completion worth]

    def copy(self) -> _Round:
        spots = [None if s is None else list(s) for s in self.spots]
        return _Round(spots, self.captain, [list(c) for c in self.cabins])

    def value(self) -> float:
        """What the guests still to send are worth this round, planned as a beginner does:
        the families that can all go first (fewest guests left, then most points), each
        guest onto the usable activity the families after it need least."""
        spots = self.spots
        free = [0 if s is None else s[1] - _pop(s[2]) for s in spots]
        usable: list[list[int]] = []
        for cab in self.cabins:
            c, wants, left = int(cab[0]), int(cab[1]), cab[2]
            if left <= 0:
                usable.append([])
                continue
            u = []
            for i, s in enumerate(spots):
                if (
                    s is not None
                    and free[i] > 0
                    and not (s[2] >> c) & 1
                    and ((wants >> s[0]) & 1 or (i == self.captain and i < 3))
                ):
                    u.append(i)
            usable.append(u)
        order = sorted(
            (k for k in range(len(self.cabins)) if usable[k]),
            key=lambda k: (self.cabins[k][2] > len(usable[k]), self.cabins[k][2], -self.cabins[k][4]),
        )
        total = 0.0
        for j, k in enumerate(order):
            cab = self.cabins[k]
            left = int(cab[2])
            cand = [i for i in usable[k] if free[i] > 0]
            if len(cand) > left:
                later = order[j + 1 :]
                cand.sort(key=lambda i: (sum(1 for q in later if i in usable[q]), -free[i]))
                cand = cand[:left]
            for i in cand:
                free[i] -= 1
            total += len(cand) * cab[3]
            if len(cand) == left:
                total += cab[4]
        return total

    def place(self, k: int, s: int) -> float:
        """Send a guest of cabin entry ``k`` to spot ``s``: what that guest brings now."""
        cab = self.cabins[k]
        spot = self.spots[s]
        assert spot is not None
        spot[2] |= 1 << int(cab[0])
        cab[2] -= 1
        return cab[3] + (cab[4] if cab[2] == 0 else 0.0)


class _Turn:
    """One decision: the view, read once, and the estimates built from it."""

    def __init__(self, t: _Tables, view: Any, seat: int) -> None:
        self.t = t
        self.view = view
        self.seat = seat
        self.me = view.seats[next(i for i, sv in enumerate(view.seats) if sv.seat == seat)]
        self.hand: list[int] = list(view.hand)
        self.final: bool = view.final_round
        # Rounds still to come after this one: the family deck empties at about two cards
        # per satisfied family, and about one family per seat is satisfied each round.
        self.rounds_left = 0.0 if self.final else view.family_deck / (2.0 * max(1, t.players)) + 0.5
        self.wanted = 0  # the types some family on board still wants
        for cab, f in enumerate(self.me.families):
            if f >= 0 and self.me.figures_left[cab] > 0:
                self.wanted |= t.fam[f][2]
        self._card_worth: dict[int, float] = {}

    # --- the worth of things ---------------------------------------------------------

    def guest_worth(self, f: int) -> tuple[float, float]:
        """(worth of one guest sent, worth of the family's completion) of family ``f``."""
        members, points, _, _ = self.t.fam[f]
        if self.final:
            # Only a satisfied family scores its card; a guest left placed is half a point,
            # but a satisfied family's guests leave the play area (phase 5 step 1).
            return (GUEST_END, points - GUEST_END * members)
        return (PROGRESS * points / max(1, members), (1.0 - PROGRESS) * points + NEW_FAMILY)

    def card_worth(self, x: int) -> float:
        """What ship card ``x`` is worth kept in hand."""
        got = self._card_worth.get(x)
        if got is None:
            wanted = (self.wanted >> self.t.ship[x][1]) & 1
            got = CARD_LAST if self.final else CARD + (CARD_WANTED if wanted else 0.0)
            self._card_worth[x] = got
        return got

    def addition_worth(self, x: int) -> float:
        """What addition ``x`` brings in the rounds still to come: a guest of each family
        that wants its type (a family's guest stays there until the family is satisfied,
        C13), the families on board now and those still to board, fewer with a capacity
        of 1 (the cabins' families overlap)."""
        _, typ, cap = self.t.ship[x]
        families = _pop_wanting(self, typ) + ADDITION_FAMILIES * self.rounds_left
        return ADDITION_GUEST * families * min(1.0, (cap + 1) / 3)

    # --- the round model ---------------------------------------------------------------

    def cabins(self) -> list[list[float]]:
        out = []
        me = self.me
        for cab, f in enumerate(me.families):
            if f >= 0 and me.figures_left[cab] > 0:
                g, done = self.guest_worth(f)
                out.append([cab, self.t.fam[f][2], me.figures_left[cab], g, done])
        return out

    def model(self, location: int = -2) -> _Round:
        """The seat's spots now, or with location card ``location`` (phase 2) instead."""
        t = self.t
        me = self.me
        spots: list[list[int] | None] = [None] * t.nspot
        captain = -1
        if location == -2:
            loc = me.location
            if loc is not None:
                sea, _, top, tcap, bot, bcap = t.loc[loc.card]
                spots[0] = [top, tcap, _bits(loc.guests[0])]
                a1, a2 = loc.activity_cards
                if a1 >= 0:
                    spots[1] = [t.ship[a1][1], t.ship[a1][2], _bits(loc.guests[1])]
                elif not sea:
                    spots[1] = [bot, bcap, _bits(loc.guests[1])]
                if a2 >= 0:
                    spots[2] = [t.ship[a2][1], t.ship[a2][2], _bits(loc.guests[2])]
                captain = loc.captain
        elif location >= 0:
            sea, _, top, tcap, bot, bcap = t.loc[location]
            spots[0] = [top, tcap, 0]
            if not sea:
                spots[1] = [bot, bcap, 0]
        for j, x in enumerate(me.additions):
            if x >= 0:
                spots[3 + j] = [t.ship[x][1], t.ship[x][2], _bits(me.addition_guests[j])]
        return _Round(spots, captain, self.cabins())

    def plan_card(self, r: _Round, x: int, sea: bool) -> bool:
        """Put activity card ``x`` on the location card of model ``r`` (C17, C18); False
        when it has no place for one."""
        spot = [self.t.ship[x][1], self.t.ship[x][2], 0]
        if sea:
            if r.spots[1] is None:
                r.spots[1] = spot
                return True
            if r.spots[2] is None:
                r.spots[2] = spot
                return True
            return False
        if r.spots[1] is not None and r.spots[1][2] == 0 and r.captain != 1:
            r.spots[1] = spot
            return True
        return False


def _bits(cabins: list[int]) -> int:
    m = 0
    for c in cabins:
        m |= 1 << c
    return m


def _pop_wanting(turn: _Turn, typ: int) -> int:
    """How many families on board (with guests still to send) want ``typ``."""
    n = 0
    for cab, f in enumerate(turn.me.families):
        if f >= 0 and turn.me.figures_left[cab] > 0 and (turn.t.fam[f][2] >> typ) & 1:
            n += 1
    return n


class RuleBot:
    """Plays Dream Cruise like a careful beginner; each heuristic in docs/dream_cruise.md, "Rule-based bot"."""

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
        """A legal action for the seat to decide (ties broken by the bot's generator)."""
        scored = self._score(state)
        top = max(v for _, v in scored)
        best = [a for a, v in scored if v >= top - 1e-9]
        return best[0] if len(best) == 1 else self._rnd.choice(best)

    def analyse(self, state: Any) -> list[Candidate]:
        """Every legal action with its score (the points it is expected to bring, see the
        docs page), best first."""
        game = state.game
        scored = sorted(self._score(state), key=lambda av: (-av[1], av[0]))
        return [Candidate(action=a, move=str(game.action_to_move(a)), visits=0, value=v) for a, v in scored]

    # ------------------------------------------------------------------ scoring

    def _score(self, state: Any) -> list[tuple[int, float]]:
        t = self._tables_for(state.game)
        seat = state.current_player
        view = state.view(seat, recall=True)
        turn = _Turn(t, view, seat)
        actions = list(view.legal_actions)
        phase = view.phase
        if phase == "boarding":
            return [(a, self._family(turn, a - t.a_board)) for a in actions]
        if phase == "set_course":
            return [(a, self._location(turn, a - t.a_keep)) for a in actions]
        if phase == "entertainment":
            return [(a, self._display(turn, a - t.a_take)) for a in actions]
        return self._sail(turn, actions)

    # --- phase 1 ----------------------------------------------------------------------

    @staticmethod
    def _family(turn: _Turn, f: int) -> float:
        """A family is worth its points per round it will take (its guests over the
        activities a round offers its wanted types: general types more than location
        types, and the seat's own additions), if it can be satisfied in the rounds left
        (reckoned with a margin). In the last round: its points if it can all go at once,
        else half a point per guest placed."""
        t = turn.t
        members, points, wants, _ = t.fam[f]
        rate = 0.0
        for typ in range(6):
            if (wants >> typ) & 1:
                rate += SOURCE_GENERAL if (GENERAL >> typ) & 1 else SOURCE_LOCATION
        for x in turn.me.additions:
            if x >= 0 and (wants >> t.ship[x][1]) & 1:
                rate += 1.0
        rate = min(3.0, rate)
        rounds = members / max(0.5, rate)
        if turn.final:
            done = min(1.0, rate / members) ** 2
            return points * done + GUEST_END * min(float(members), rate) * (1.0 - done)
        reach = min(1.0, (turn.rounds_left + 1.0) / (FAMILY_MARGIN * rounds))
        return points * reach / max(1.0, rounds)

    # --- phase 2 ----------------------------------------------------------------------

    @staticmethod
    def _location(turn: _Turn, loc: int) -> float:
        """A location card is worth what it lets the families do this round (with the best
        of the hand's activity cards planned on it) and the route points it adds (C1)."""
        t = turn.t
        sea, region, *_ = t.loc[loc]
        r = turn.model(loc)
        value = r.value()
        best_card = 0.0
        for x in set(turn.hand):
            if not t.ship[x][0]:
                r2 = r.copy()
                if turn.plan_card(r2, x, bool(sea)):
                    g = r2.value() - value - turn.card_worth(x)
                    if g > best_card:
                        best_card = g
        counts = [0] * 6
        seas = 0
        for y in turn.me.played:
            s2, reg, *_ = t.loc[y]
            if s2:
                seas += 1
            else:
                counts[reg] += 1
        before = t.route_points(counts, seas)
        if sea:
            seas += 1
        else:
            counts[region] += 1
        after = t.route_points(counts, seas)
        later = 0.0
        if not turn.final and not sea:
            more = list(counts)
            more[region] += 1
            later = ROUTE_LATER * (t.route_points(more, seas) - after)
        return value + best_card + ROUTE * (after - before) + later

    # --- phase 3 ----------------------------------------------------------------------

    def _display(self, turn: _Turn, k: int) -> float:
        """A display set is worth its cards in hand, plus the best use one of them (or both
        activity cards, on a sea card) has this round: an activity card that lets more
        guests go on the location card, an addition worth building (paid with the other
        card or the cheapest hand card). The face-down set: two average cards and the
        start-player token."""
        view = turn.view
        if k == 0:
            return 2 * FACE_DOWN_CARD + (0.0 if turn.final else START)
        cards = list(view.display[k].cards)
        t = turn.t
        keep = sum(turn.card_worth(x) for x in cards)
        loc = turn.me.location
        if loc is None:
            return keep
        sea = bool(t.loc[loc.card][0])
        r = turn.model()
        base = r.value()
        free = [j for j, y in enumerate(turn.me.additions) if y < 0]
        cheapest = min((turn.card_worth(y) for y in turn.hand), default=None)
        best = 0.0
        for i, x in enumerate(cards):
            r2 = r.copy()
            if t.ship[x][0]:
                pays = [turn.card_worth(y) for j, y in enumerate(cards) if j != i]
                if cheapest is not None:
                    pays.append(cheapest)
                if not free or not pays:
                    continue
                r2.spots[3 + free[0]] = [t.ship[x][1], t.ship[x][2], 0]
                use = r2.value() - base + turn.addition_worth(x) - turn.card_worth(x) - min(pays)
            elif turn.plan_card(r2, x, sea):
                use = r2.value() - base - turn.card_worth(x)
            else:
                continue
            best = max(best, use)
        if sea and len(cards) == 2 and not any(t.ship[x][0] for x in cards):
            r2 = r.copy()
            if turn.plan_card(r2, cards[0], sea) and turn.plan_card(r2, cards[1], sea):
                best = max(best, r2.value() - base - keep)
        return keep + best

    # --- phase 4 ----------------------------------------------------------------------

    def _sail(self, turn: _Turn, actions: list[int]) -> list[tuple[int, float]]:
        """Every action scored by what the round is worth after it, less the cards it spends."""
        t = turn.t
        r = turn.model()
        loc = turn.me.location
        sea = loc is not None and bool(t.loc[loc.card][0])
        cab_index = {int(c[0]): k for k, c in enumerate(r.cabins)}
        out: list[tuple[int, float]] = []
        plans: dict[int, float] = {}
        builds: dict[tuple[int, int], float] = {}
        captains: dict[int, float] = {}
        for a in actions:
            if a == t.a_done:
                out.append((a, 0.0))
            elif a < t.a_plan:
                c, s = divmod(a - t.a_place, t.nspot)
                r2 = r.copy()
                now = r2.place(cab_index[c], s)
                out.append((a, now + r2.value()))
            elif a < t.a_build:
                x = a - t.a_plan
                got = plans.get(x)
                if got is None:
                    r2 = r.copy()
                    turn.plan_card(r2, x, sea)
                    got = plans[x] = r2.value() - turn.card_worth(x)
                out.append((a, got))
            elif a < t.a_captain:
                xy, rep = divmod(a - t.a_build, t.nadd + 1)
                x, y = divmod(xy, t.ns)
                key = (x, rep)
                got = builds.get(key)
                if got is None:
                    r2 = r.copy()
                    j = rep - 1 if rep else next(i for i, z in enumerate(turn.me.additions) if z < 0)
                    old = turn.me.additions[j]
                    r2.spots[3 + j] = [t.ship[x][1], t.ship[x][2], 0]
                    got = r2.value() + turn.addition_worth(x) - turn.card_worth(x)
                    if old >= 0:
                        got -= turn.addition_worth(old)
                    builds[key] = got
                out.append((a, got - turn.card_worth(y)))
            else:
                s, y = divmod(a - t.a_captain, t.ns)
                got = captains.get(s)
                if got is None:
                    r2 = r.copy()
                    r2.captain = s
                    got = captains[s] = r2.value()
                out.append((a, got - turn.card_worth(y)))
        return out
