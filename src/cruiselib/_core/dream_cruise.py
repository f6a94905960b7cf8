"""Dream Cruise: the whole rules engine (compiled by Cython, runs as Python too).

The rules and rulings C1 ... C29 are in ``docs/dream_cruise.md``; ruling ids are cited
where they apply. Types live in ``dream_cruise.pxd``. The classes extend the compiled game
contract (``engine.py``): the ``c_*`` methods below run without the GIL and allocate no
Python objects; moves are small ints. Views, the resampling of unseen cards and the
observation tensors are made here too, from the arrays.

Cards are ids in the order of the card set's lists (families, location cards, ship cards;
``cruiselib.dream_cruise.CardSet``). Cabins are colours: 0 inner (white), 1 oceanview
(orange), 2 balcony (blue). A seat's activity *spots*: 0 the top of its current location
card, 1 the bottom (a shore card's printed activity or the activity card covering it, or
a sea card's first activity-card slot), 2 a sea card's second slot, 3 + j addition space j.
Figures on a spot are a 3-bit set of cabin colours (one figure per colour per activity).

Action ids, in this order (NS ship cards, K addition spaces, NSPOT = 3 + K):

* ``a_board + f``     put drawn family f into the first empty cabin (phase 1, C17)
* ``a_keep + l``      keep drawn location card l (phase 2)
* ``a_take + k``      take display set k, set 0 being the face-down set (phase 3, C7)
* ``a_place + c * NSPOT + s``  a figure of cabin c's family onto spot s (phase 4)
* ``a_plan + x``      activity card x onto the current location card (first free place, C17)
* ``a_build + (x * NS + y) * (K + 1) + t``  build addition x paying hand card y; t = 0 into
  the first free space, t = 1 + j replacing space j when every space is built (C6, C17)
* ``a_captain + s * NS + y``  the captain onto location spot s, paying hand card y (C5)
* ``a_done``          end the own phase 4

Phase 4's builds are many (additions in hand x other hand cards x targets), so ``c_legal``
lists the placements and plans in the buffer and keeps builds and captains as counts over
the sorted hand; ``c_legal_at`` decodes them.
"""

try:  # pragma: no cover - depends on whether Cython is installed
    import cython
except ImportError:  # pragma: no cover
    from cruiselib._core import _cython_shim as cython

from cruiselib._core.tensor_layout import TensorField, TensorLayout

from .engine import CoreRules, CoreState
from .rng import SPLITMIX64 as _SPLITMIX64

if not cython.compiled:
    # The enum constants of the .pxd, their one home (compiled, they are C constants).
    from cruiselib._core.constants import enum_constants

    globals().update(enum_constants(__name__.rpartition(".")[2]))  # this module's own .pxd

MASK64 = _SPLITMIX64[3]

PHASES = ("boarding", "set_course", "entertainment", "set_sail", "over")
PRINTED_REMOVAL = (0, 0, 24, 12, 0)  # setup 5: family cards returned to the box, by player count
SOLO_DECK = 18  # C9: the solo family deck
DEFAULT_ROUTE_POINTS = (1, 3, 6, 9)  # C1: routes of 2, 3, 4, 5+ cards

# Reasons an action is illegal; c_check returns the index.
REASONS = (
    "legal",
    "the game is over",
    "it is not the time for this kind of action",
    "that card is not among the cards this player drew",
    "that set is not in the display (taken already, or no such set with this player count)",
    "the start player may not take the face-down set (C7)",
    "that cabin has no family with a figure left to place",
    "that activity is not in play: only the current location card, its activity cards and the "
    "built additions take figures (C4, C12)",
    "that activity is full",
    "a figure of that colour is already on that activity",
    "the family does not want that activity and the captain is not on it (C5)",
    "that card is not in the player's hand",
    "that card is not an activity card",
    "the current location card has no free place for an activity card (C18)",
    "that card is not an addition card",
    "the payment must be another card from the hand (C6)",
    "an addition space is free: a new addition goes into the first free space (C17)",
    "every addition space is built: the move must name the addition it replaces (C6, C17)",
    "the captain is already assigned this round",
    "the player has no current location card this round (C16)",
)


class DreamCruiseRules(CoreRules):
    """Immutable per-game tables: the options, the card data and the action layout."""

    def __init__(self, num_players, families, locations, ships, route_points, additions, sea_draw, difficulty):
        if not cython.compiled:
            self.f_members = [0] * MAXF
            self.f_points = [0] * MAXF
            self.f_wants = [0] * MAXF
            self.f_start = [0] * MAXF
            self.l_sea = [0] * MAXL
            self.l_region = [0] * MAXL
            self.l_ttype = [0] * MAXL
            self.l_tcap = [0] * MAXL
            self.l_btype = [0] * MAXL
            self.l_bcap = [0] * MAXL
            self.s_add = [0] * MAXS
            self.s_type = [0] * MAXS
            self.s_cap = [0] * MAXS
            self.route = [0] * 6
        # The game validated everything; these checks guard the C arrays themselves.
        if not (1 <= num_players <= MAXP and 1 <= additions <= MAXADD and 0 <= difficulty <= 3):
            raise ValueError("rules out of range")
        if not (len(families) <= MAXF and 1 <= len(locations) <= MAXL and 1 <= len(ships) <= MAXS):
            raise ValueError("card data out of range")
        if len(route_points) != 4:
            raise ValueError("route_points has 4 values")
        self.nf = len(families)
        self.nl = len(locations)
        self.ns = len(ships)
        self.nadd = additions
        self.nspot = 3 + additions
        self.sea_draw = bool(sea_draw)
        self.difficulty = difficulty
        self.solo = num_players == 1
        self.nsets = 3 if num_players == 1 else (5 if num_players == 4 else 4)  # C7
        self.view_types = None
        nstart = 0
        for f in range(self.nf):
            members, points, wants, start = families[f]
            if not (1 <= members <= MAXMEMBERS and 0 <= points <= 9 and 1 <= wants < 64 and -1 <= start <= 3):
                raise ValueError(f"family {f} out of range")
            self.f_members[f] = members
            self.f_points[f] = points
            self.f_wants[f] = wants
            self.f_start[f] = start
            nstart += start >= 0
        self.nstart = nstart
        for i in range(self.nl):
            sea, region, ttype, tcap, btype, bcap = locations[i]
            if sea:
                ok = region == -1 and btype == -1 and bcap == 0
            else:
                ok = 0 <= region < NREG and 0 <= btype < NTYPE and 1 <= bcap <= MAXCAP
            if not (ok and 0 <= ttype < NTYPE and 1 <= tcap <= MAXCAP):
                raise ValueError(f"location {i} out of range")
            self.l_sea[i] = 1 if sea else 0
            self.l_region[i] = region
            self.l_ttype[i] = ttype
            self.l_tcap[i] = tcap
            self.l_btype[i] = btype
            self.l_bcap[i] = bcap
        for i in range(self.ns):
            add, stype, cap = ships[i]
            if not (0 <= stype < NTYPE and 1 <= cap <= MAXCAP):
                raise ValueError(f"ship card {i} out of range")
            self.s_add[i] = 1 if add else 0
            self.s_type[i] = stype
            self.s_cap[i] = cap
        self.route[0] = 0
        self.route[1] = 0  # a card alone (a sea card alone too) is no route (C1)
        for i in range(4):
            if not 0 <= route_points[i] <= 99:
                raise ValueError("route points out of range")
            self.route[2 + i] = route_points[i]
        others = self.nf - nstart
        if self.solo:
            deck = min(SOLO_DECK, others - difficulty)
        else:
            deck = others - PRINTED_REMOVAL[num_players]
        if nstart != 12 or deck < 1:
            raise ValueError("too few families for this player count")
        self.deck_size = deck
        self.a_board = 0
        self.a_keep = self.nf
        self.a_take = self.a_keep + self.nl
        self.a_place = self.a_take + MAXSETS
        self.a_plan = self.a_place + NCAB * self.nspot
        self.a_build = self.a_plan + self.ns
        self.a_captain = self.a_build + self.ns * self.ns * (additions + 1)
        self.a_done = self.a_captain + 3 * self.ns
        obs, info = self._tensor_layouts(num_players)
        self._init_contract(num_players, self.a_done + 1, REASONS, obs, info)

    def _tensor_layouts(self, n):
        """The observation and information-state tensors (docs/dream_cruise.md, "Observation
        tensor"), declared once: each field's shape and range for this card set, player
        count and options. The writers' offsets ``o_*`` are read from them; ``c_observe``
        ends with Jana's 10 values, ``c_info_state`` with the known hands, which the
        layouts check. Counts keep the core's fixed scales, so those of cards the set has
        more of than the scale (sea cards, hand and pile sizes, families) pass 1."""
        ns, nf, nl = self.ns, self.nf, self.nl
        r = self._tensor_ranges(n)
        flag = (0.0, 1.0)
        obs = TensorLayout(
            (
                TensorField("cabins", (n, NCAB, 10), *flag, "occupied, members, figures left, points, wants"),
                TensorField("additions", (n, self.nadd, 11), *flag, "built, type, capacity, figures"),
                TensorField("location", (n, 44), *flag, "current location card and its 3 spots"),
                TensorField("routes", (n, 8), 0.0, r["routes"], "shore cards per region, sea cards, route points"),
                TensorField("counts", (n, 6), 0.0, r["counts"], "pile points and size, hand, drawn, score, placed"),
                TensorField("hand", ns, *flag, "own ship cards"),
                TensorField("drawn_families", nf, *flag, "own drawn families (phase 1)"),
                TensorField("drawn_locations", nl, *flag, "own drawn location cards (phase 2)"),
                TensorField("display", (MAXSETS, 3), *flag, "display sets: in play, taken, cards"),
                TensorField("display_cards", ns, *flag, "face-up display cards"),
                TensorField("family_discard", nf, *flag, "the family discard pile"),
                TensorField("location_discard", nl, *flag, "the location discard pile"),
                TensorField("ship_discard", ns, *flag, "the ship discard pile"),
                TensorField("decks", 3, 0.0, r["decks"], "family, location and ship deck sizes"),
                TensorField("phase", 5, *flag, "one-hot of PHASES"),
                TensorField("current_player", n, *flag, "the seat to decide"),
                TensorField("start_player", n, *flag, "the start-player token's holder"),
                TensorField("first_player", n, *flag, "the first seat of this round"),
                TensorField("round", 2, *flag, "final round, round / 40"),
                TensorField("jana", 10, 0.0, r["jana"], "solo: Jana's pile, route, location cards, points"),
            )
        )
        info = obs.extended(TensorField("known_hands", (n, ns), *flag, "hand cards taken face up, per seat"))
        self.o_cabins = obs.offset("cabins")
        self.o_additions = obs.offset("additions")
        self.o_location = obs.offset("location")
        self.o_routes = obs.offset("routes")
        self.o_counts = obs.offset("counts")
        self.o_hand = obs.offset("hand")
        self.o_drawn_families = obs.offset("drawn_families")
        self.o_drawn_locations = obs.offset("drawn_locations")
        self.o_display = obs.offset("display")
        self.o_display_cards = obs.offset("display_cards")
        self.o_family_discard = obs.offset("family_discard")
        self.o_location_discard = obs.offset("location_discard")
        self.o_ship_discard = obs.offset("ship_discard")
        self.o_decks = obs.offset("decks")
        self.o_phase = obs.offset("phase")
        self.o_current_player = obs.offset("current_player")
        self.o_start_player = obs.offset("start_player")
        self.o_first_player = obs.offset("first_player")
        self.o_round = obs.offset("round")
        self.o_jana = obs.offset("jana")
        self.o_known_hands = info.offset("known_hands")
        obs.check_end(self.o_jana + 10)  # _observe_table writes Jana's out[o_jana + 0 .. 9] last
        info.check_end(self.o_known_hands + n * ns)  # c_info_state: a hand of ns per seat
        return obs, info

    def _tensor_ranges(self, n):
        """The highs of the tensor fields whose values pass 0/1 flags, from the card data.
        Points: a seat's pile holds its three starting families (C21) and deck families;
        Jana's the families she starts with (C9) and deck families. A seat's kept location
        cards stay (C4), at most every card of a region and every sea card; its best routes:
        each region its best length, a sea card joining the routes that gain most from one,
        a card each (C1). Figures placed: one of each colour on each of the current location
        card's three activities at most and on each addition (C13), and no more than the
        cabins' families have members."""
        deck = self.deck_size  # families in play besides the starting ones (setup 5, C9)
        deck_points = []
        starting = [0, 0, 0, 0]
        members = 0
        for f in range(self.nf):
            if self.f_start[f] < 0:
                deck_points.append(self.f_points[f])
            else:
                starting[self.f_start[f]] += self.f_points[f]
            members = max(members, self.f_members[f])
        deck_points.sort(reverse=True)
        pile_points = max(starting) + sum(deck_points[:deck])
        jana_families = self.difficulty + deck if n == 1 else 0
        shore = [0] * NREG
        seas = 0
        for i in range(self.nl):
            if self.l_sea[i]:
                seas += 1
            else:
                shore[self.l_region[i]] += 1
        best = []
        joined = []
        for count in shore:
            b = max([self._pts(k) for k in range(count + 1)])
            best.append(b)
            j = b
            for k in range(1, count + 1):
                j = max(j, self._pts(k + 1))
            joined.append(j)
        gains = sorted([joined[i] - best[i] for i in range(NREG)], reverse=True)
        routes = sum(best) + sum(gains[:seas])
        longest = max(joined) if seas else max(best)  # Jana's one route (C28)
        placed = min(3 * (3 + self.nadd), 3 * members)
        jana = 0.0
        if n == 1:  # her families, her one route, her location cards (the player's discards), her pile's points
            jana = [jana_families / 20.0, longest / 9.0] + [c / 6.0 for c in shore]
            jana += [seas / 6.0, sum(deck_points[:jana_families]) / 100.0]
        return {
            "routes": ([c / 6.0 for c in shore] + [seas / 6.0, routes / 54.0]) * n,
            "counts": [
                pile_points / 100.0,
                (3 + deck) / 20.0,
                self.ns / 20.0,  # no hand limit: at most every ship card
                1.0,  # two families per empty cabin, or three location cards
                (pile_points + routes + placed // 2) / 100.0,  # the running score (C27)
                placed / 9.0,
            ]
            * n,
            "decks": [deck / 64.0, self.nl / 64.0, self.ns / 96.0],
            "jana": jana,
        }

    def route_points_of(self, regions, seas):
        """The sailing-route points (C1) of shore cards with these six region counts and
        ``seas`` sea cards: every region is one route; a route takes at most one sea card."""
        if len(regions) != NREG:
            raise ValueError("six region counts")
        for i in range(NREG):
            if not 0 <= regions[i] <= MAXL:
                raise ValueError("region count out of range")
        if not 0 <= seas <= MAXL:
            raise ValueError("sea count out of range")
        return self._routes(regions[0], regions[1], regions[2], regions[3], regions[4], regions[5], seas)

    def _routes(self, r0, r1, r2, r3, r4, r5, seas):
        """C1 as an exact optimum: each route takes 0 or 1 sea card independently, so the
        best total adds the ``seas`` largest positive gains of one more card to a route."""
        g0 = self._gain(r0)
        g1 = self._gain(r1)
        g2 = self._gain(r2)
        g3 = self._gain(r3)
        g4 = self._gain(r4)
        g5 = self._gain(r5)
        total = self._pts(r0) + self._pts(r1) + self._pts(r2) + self._pts(r3) + self._pts(r4) + self._pts(r5)
        while seas > 0:
            best = g0
            k = 0
            if g1 > best:
                best = g1
                k = 1
            if g2 > best:
                best = g2
                k = 2
            if g3 > best:
                best = g3
                k = 3
            if g4 > best:
                best = g4
                k = 4
            if g5 > best:
                best = g5
                k = 5
            if best <= 0:
                break
            total += best
            if k == 0:
                g0 = 0
            elif k == 1:
                g1 = 0
            elif k == 2:
                g2 = 0
            elif k == 3:
                g3 = 0
            elif k == 4:
                g4 = 0
            else:
                g5 = 0
            seas -= 1
        return total

    def _pts(self, cards):
        return self.route[cards if cards < 5 else 5]

    def _gain(self, cards):
        # A sea card joins a route of shore cards; with none it would be a route alone (C1).
        if cards == 0:
            return 0
        return self._pts(cards + 1) - self._pts(cards)


class DreamCruiseCore(CoreState):
    """One game position. Subclassed by :class:`cruiselib.dream_cruise.DreamCruiseState`."""

    def __init__(self, rules, game=None):
        CoreState.__init__(self, rules, game)
        self.rules = rules
        self.seats = rules.num_players
        self.phase_index = PH_OVER

    def c_init_arrays(self):
        if not cython.compiled:
            self.cabin_family = [-1] * (MAXP * NCAB)
            self.cabin_figures = [0] * (MAXP * NCAB)
            self.addition_card = [-1] * (MAXP * MAXADD)
            self.addition_guests = [0] * (MAXP * MAXADD)
            self.location_card = [-1] * MAXP
            self.activity_card1 = [-1] * MAXP
            self.activity_card2 = [-1] * MAXP
            self.location_guests = [0] * (MAXP * 3)
            self.captain_spot = [-1] * MAXP
            self.played = [0] * (MAXP * MAXL)
            self.played_n = [0] * MAXP
            self.region_cards = [0] * (MAXP * NREG)
            self.sea_cards = [0] * MAXP
            self.points_pile = [0] * (MAXP * MAXF)
            self.points_pile_n = [0] * MAXP
            self.pile_points = [0] * MAXP
            self.hand = [0] * (MAXP * MAXS)
            self.hand_n = [0] * MAXP
            self.known = [0] * (MAXP * MAXS)
            self.drawn = [0] * (MAXP * MAXDRAWN)
            self.drawn_n = [0] * MAXP
            self.display_cards = [0] * (MAXSETS * 2)
            self.display_n = [0] * MAXSETS
            self.display_taken_by = [-1] * MAXSETS
            self.family_deck = [0] * MAXF
            self.family_discard = [0] * MAXF
            self.family_box = [0] * MAXF
            self.jana_pile = [0] * MAXF
            self.location_deck = [0] * MAXL
            self.location_discard = [0] * MAXL
            self.jana_locations = [0] * MAXL
            self.ship_deck = [0] * MAXS
            self.ship_discard = [0] * MAXS
            self.legal_buf = [0] * MAXBUF
            self.hand_list = [0] * MAXS
            self.addition_at = [0] * MAXS
            self.captain_spots = [0] * 3
            self.pool = [0] * (MAXP * MAXS + MAXS)
            self.card_zone = [0] * (MAXF + MAXL + MAXS)

    # ------------------------------------------------------------------ setup

    def _setup(self, rng_state, start):
        """A new game (setup 1-10): the decks shuffled, the family deck cut to the player
        count (setup 5; solo C9), the starting families in the cabins (C21), then round 1,
        which skips boarding (C15)."""
        self.rng = rng_state & MASK64
        n = self.rules.num_players
        self.seats = n
        for i in range(MAXP * NCAB):
            self.cabin_family[i] = -1
            self.cabin_figures[i] = 0
        for i in range(MAXP * MAXADD):
            self.addition_card[i] = -1
            self.addition_guests[i] = 0
        for i in range(MAXP * 3):
            self.location_guests[i] = 0
        for i in range(MAXP * MAXS):
            self.hand[i] = 0
            self.known[i] = 0
        for p in range(MAXP):
            self.location_card[p] = -1
            self.activity_card1[p] = -1
            self.activity_card2[p] = -1
            self.captain_spot[p] = -1
            self.played_n[p] = 0
            self.sea_cards[p] = 0
            self.points_pile_n[p] = 0
            self.pile_points[p] = 0
            self.hand_n[p] = 0
            self.drawn_n[p] = 0
            for i in range(NREG):
                self.region_cards[p * NREG + i] = 0
        for i in range(MAXSETS):
            self.display_n[i] = 0
            self.display_taken_by[i] = -1
        self.start_seat = self.c_below(n) if start < 0 else start  # C24: drawn unless given
        # The families: the others shuffled, then the box takes what the player count leaves out.
        k = 0
        for f in range(self.rules.nf):
            if self.rules.f_start[f] < 0:
                self.family_deck[k] = f
                k += 1
            elif self.rules.f_start[f] < n:  # C21: seat k takes the starting families of letter A + k
                p = self.rules.f_start[f]
                for c in range(NCAB):
                    if self.cabin_family[p * NCAB + c] < 0:
                        self.cabin_family[p * NCAB + c] = f
                        self.cabin_figures[p * NCAB + c] = self.rules.f_members[f]
                        break
        self._shuffle(self.family_deck, k)
        # The deck is dealt from its end: the box takes the top cards (setup 5).
        self.family_box_n = 0
        for i in range(k - self.rules.deck_size):
            self.family_box[self.family_box_n] = self.family_deck[k - 1 - i]
            self.family_box_n += 1
        self.family_deck_n = self.rules.deck_size
        self.family_discard_n = 0
        self.jana_pile_n = 0
        self.jana_locations_n = 0
        for i in range(self.rules.difficulty if self.rules.solo else 0):
            # C9: Jana's extra families come from the cards left out of the 18.
            self.family_box_n -= 1
            self.jana_pile[self.jana_pile_n] = self.family_box[self.family_box_n]
            self.jana_pile_n += 1
        for i in range(self.rules.nl):
            self.location_deck[i] = i
        self.location_deck_n = self.rules.nl
        self._shuffle(self.location_deck, self.location_deck_n)
        self.location_discard_n = 0
        for i in range(self.rules.ns):
            self.ship_deck[i] = i
        self.ship_deck_n = self.rules.ns
        self._shuffle(self.ship_deck, self.ship_deck_n)
        self.ship_discard_n = 0
        self.last_round = False
        self.round_number = 0
        self._begin_round()

    def _shuffle(self, a, n):
        """Fisher-Yates over a[0:n], from the state's generator."""
        i = n - 1
        while i > 0:
            j = self.c_below(i + 1)
            t = a[i]
            a[i] = a[j]
            a[j] = t
            i -= 1

    def _refill(self, deck, discard, n):
        """An empty deck takes the n cards of its discard pile, shuffled; returns n."""
        for i in range(n):
            deck[i] = discard[i]
        self._shuffle(deck, n)
        return n

    # ------------------------------------------------------------------ the decks

    def _draw_family(self):
        """The top family card, or -1. Drawing from an empty deck makes this round the last
        (C8, C16), whether or not the discard pile refills it."""
        if self.family_deck_n == 0:
            self.last_round = True
            if self.family_discard_n == 0:
                return -1
            self.family_deck_n = self._refill(self.family_deck, self.family_discard, self.family_discard_n)
            self.family_discard_n = 0
        self.family_deck_n -= 1
        return self.family_deck[self.family_deck_n]

    def _draw_location(self):
        """The top location card, or -1 when deck and discard pile are both empty, which
        makes this round the last (C16, C20)."""
        if self.location_deck_n == 0:
            if self.location_discard_n == 0:
                self.last_round = True
                return -1
            self.location_deck_n = self._refill(self.location_deck, self.location_discard, self.location_discard_n)
            self.location_discard_n = 0
        self.location_deck_n -= 1
        return self.location_deck[self.location_deck_n]

    def _draw_ship(self):
        """The top ship card, or -1 when deck and discard pile are both empty (C16)."""
        if self.ship_deck_n == 0:
            if self.ship_discard_n == 0:
                return -1
            self.ship_deck_n = self._refill(self.ship_deck, self.ship_discard, self.ship_discard_n)
            self.ship_discard_n = 0
        self.ship_deck_n -= 1
        return self.ship_deck[self.ship_deck_n]

    # ------------------------------------------------------------------ round flow

    def _seat_at(self, turn):
        return (self.first_seat + turn) % self.seats

    def _empty_cabins(self, p):
        return (
            (self.cabin_family[p * NCAB] < 0)
            + (self.cabin_family[p * NCAB + 1] < 0)
            + (self.cabin_family[p * NCAB + 2] < 0)
        )

    def _begin_round(self):
        """Phase 1 (from round 2, C15): every seat with empty cabins draws two family cards
        per empty cabin, in turn order, then each decides in the same order (C14); in solo,
        Jana draws one card into her face-down points pile after the player (C9, C23)."""
        self.round_number += 1
        self.first_seat = self.start_seat
        self.phase_index = PH_BOARDING
        if self.round_number > 1:
            for t in range(self.seats):
                p = self._seat_at(t)
                k = 2 * self._empty_cabins(p)
                for i in range(k):
                    f = self._draw_family()
                    if f < 0:
                        break
                    self.drawn[p * MAXDRAWN + self.drawn_n[p]] = f
                    self.drawn_n[p] += 1
            if self.rules.solo:
                f = self._draw_family()
                if f >= 0:
                    self.jana_pile[self.jana_pile_n] = f
                    self.jana_pile_n += 1
        self._next_boarding(0)

    def _next_boarding(self, turn):
        while turn < self.seats:
            p = self._seat_at(turn)
            if self.drawn_n[p] > 0:
                if self._empty_cabins(p) > 0:
                    self.turn = turn
                    self.to_act = p
                    return
                self._discard_drawn_families(p)
            turn += 1
        self._begin_course()

    def _discard_drawn_families(self, p):
        for i in range(self.drawn_n[p]):
            self.family_discard[self.family_discard_n] = self.drawn[p * MAXDRAWN + i]
            self.family_discard_n += 1
        self.drawn_n[p] = 0

    def _begin_course(self):
        """Phase 2: every seat draws three location cards in turn order, then each keeps one
        in the same order (C14); a seat that drew none keeps none (C16)."""
        self.phase_index = PH_SET_COURSE
        for t in range(self.seats):
            p = self._seat_at(t)
            for i in range(3):
                x = self._draw_location()
                if x < 0:
                    break
                self.drawn[p * MAXDRAWN + self.drawn_n[p]] = x
                self.drawn_n[p] += 1
        self._next_course(0)

    def _next_course(self, turn):
        while turn < self.seats:
            p = self._seat_at(turn)
            if self.drawn_n[p] > 0:
                self.turn = turn
                self.to_act = p
                return
            turn += 1
        self._begin_draft()

    def _begin_draft(self):
        """Phase 3: the display, one face-down set first, then the face-up sets (C7)."""
        self.phase_index = PH_ENTERTAINMENT
        for k in range(MAXSETS):
            self.display_n[k] = 0
            self.display_taken_by[k] = -1
        for k in range(self.rules.nsets):
            for i in range(2):
                x = self._draw_ship()
                if x < 0:
                    break
                self.display_cards[k * 2 + self.display_n[k]] = x
                self.display_n[k] += 1
        self.turn = 0
        self.to_act = self.first_seat

    def _end_draft(self):
        # C25: the sets nobody took go to the discard pile now, not in phase 5 step 5.
        for k in range(self.rules.nsets):
            if self.display_taken_by[k] < 0:
                for i in range(self.display_n[k]):
                    self.ship_discard[self.ship_discard_n] = self.display_cards[k * 2 + i]
                    self.ship_discard_n += 1
                self.display_n[k] = 0
        self.phase_index = PH_SET_SAIL
        self.turn = 0
        self.to_act = self.first_seat

    def _disembark(self):
        """Phase 5: satisfied families to the points pile with every figure of their colour
        (step 1); in the final round the game ends here (C8). Else the figures on location
        and activity cards go to the supply (C11), the captain back, the activity cards on
        location cards to the discard pile; the location cards stay (C4)."""
        for p in range(self.seats):
            for c in range(NCAB):
                f = self.cabin_family[p * NCAB + c]
                if f >= 0 and self.cabin_figures[p * NCAB + c] == 0:
                    self.points_pile[p * MAXF + self.points_pile_n[p]] = f
                    self.points_pile_n[p] += 1
                    self.pile_points[p] += self.rules.f_points[f]
                    self.cabin_family[p * NCAB + c] = -1
                    m = ~(1 << c)
                    for s in range(3):
                        self.location_guests[p * 3 + s] &= m
                    for j in range(MAXADD):
                        self.addition_guests[p * MAXADD + j] &= m
        if self.last_round:
            self.phase_index = PH_OVER
            self.to_act = -1
            self.turn = 0
            return
        for p in range(self.seats):
            for s in range(3):
                self.location_guests[p * 3 + s] = 0
            self.captain_spot[p] = -1
            if self.activity_card1[p] >= 0:
                self.ship_discard[self.ship_discard_n] = self.activity_card1[p]
                self.ship_discard_n += 1
                self.activity_card1[p] = -1
            if self.activity_card2[p] >= 0:
                self.ship_discard[self.ship_discard_n] = self.activity_card2[p]
                self.ship_discard_n += 1
                self.activity_card2[p] = -1
            self.location_card[p] = -1
        self._begin_round()

    # ------------------------------------------------------------------ the contract

    def c_current(self):
        return -1 if self.phase_index == PH_OVER else self.to_act

    def c_copy_into(self, dst):
        self._copy_into(cython.cast(DreamCruiseCore, dst))

    def _placed(self, p):
        n = 0
        for s in range(3):
            n += _pop3(self.location_guests[p * 3 + s])
        for j in range(MAXADD):
            n += _pop3(self.addition_guests[p * MAXADD + j])
        return n

    def _route_score(self, p):
        o = p * NREG
        return self.rules._routes(
            self.region_cards[o],
            self.region_cards[o + 1],
            self.region_cards[o + 2],
            self.region_cards[o + 3],
            self.region_cards[o + 4],
            self.region_cards[o + 5],
            self.sea_cards[p],
        )

    def c_score(self, p):
        """Points pile, sailing routes (C1) and one point per two placed guests (C8): the
        final score once the game is over, the same count of the table before (C27)."""
        return self.pile_points[p] + self._route_score(p) + self._placed(p) // 2

    def _jana_score(self):
        """C9: Jana's points pile and her longest route only (a sea card may join it)."""
        return self._jana_pile_points() + self._jana_route()

    def c_winners_mask(self):
        """Once over: the most points; ties to the most hand cards, then to the first in the
        final round's turn order (C8), so one seat wins. Solo: the player wins only with
        more points than Jana, who wins ties (C9)."""
        if self.phase_index != PH_OVER:
            return 0
        if self.rules.solo:
            return 1 if self.c_score(0) > self._jana_score() else 0
        best = -1
        win = 0
        for t in range(self.seats):
            p = self._seat_at(t)
            key = self.c_score(p) * 128 + self.hand_n[p]
            if key > best:
                best = key
                win = p
        return 1 << win

    # ------------------------------------------------------------------ phase 4 spots

    def _spot(self, p, s):
        """Spot s of seat p packed as type | capacity << 4 | figures << 8, or -1 when that
        spot holds no activity now."""
        if s < 3:
            x = self.location_card[p]
            if x < 0:
                return -1
            if s == 0:
                return self.rules.l_ttype[x] | (self.rules.l_tcap[x] << 4) | (self.location_guests[p * 3] << 8)
            if s == 1:
                y = self.activity_card1[p]
                if y >= 0:
                    return self.rules.s_type[y] | (self.rules.s_cap[y] << 4) | (self.location_guests[p * 3 + 1] << 8)
                if self.rules.l_sea[x]:
                    return -1
                return self.rules.l_btype[x] | (self.rules.l_bcap[x] << 4) | (self.location_guests[p * 3 + 1] << 8)
            y = self.activity_card2[p]
            if y < 0:
                return -1
            return self.rules.s_type[y] | (self.rules.s_cap[y] << 4) | (self.location_guests[p * 3 + 2] << 8)
        if s - 3 >= self.rules.nadd:
            return -1
        y = self.addition_card[p * MAXADD + s - 3]
        if y < 0:
            return -1
        return self.rules.s_type[y] | (self.rules.s_cap[y] << 4) | (self.addition_guests[p * MAXADD + s - 3] << 8)

    def _check_place(self, p, c, s):
        f = self.cabin_family[p * NCAB + c]
        if f < 0 or self.cabin_figures[p * NCAB + c] == 0:
            return R_NO_FIGURE
        v = self._spot(p, s)
        if v < 0:
            return R_NO_SPOT
        occ = v >> 8
        if _pop3(occ) >= (v >> 4) & 15:
            return R_FULL
        if (occ >> c) & 1:
            return R_COLOUR
        if not ((self.rules.f_wants[f] >> (v & 15)) & 1) and not (s < 3 and self.captain_spot[p] == s):
            return R_WANT
        return 0

    def _check_plan(self, p, x):
        if not self.hand[p * MAXS + x]:
            return R_NOT_IN_HAND
        if self.rules.s_add[x]:
            return R_NOT_ACTIVITY
        l = self.location_card[p]
        if l < 0:
            return R_NO_LOCATION
        if self.rules.l_sea[l]:
            if self.activity_card2[p] >= 0:
                return R_NO_PLACE
        elif self.activity_card1[p] >= 0 or self.location_guests[p * 3 + 1] != 0 or self.captain_spot[p] == 1:
            return R_NO_PLACE  # one activity card per shore card; C18
        return 0

    def _free_space(self, p):
        for j in range(self.rules.nadd):
            if self.addition_card[p * MAXADD + j] < 0:
                return j
        return -1

    # ------------------------------------------------------------------ legal actions

    def c_legal(self):
        """The legal actions, ascending. Phase 4 keeps builds and captains as counts over
        the sorted hand (``hl``; ``al`` the hand positions of its additions)."""
        self.leg_nb = 0
        self.leg_nc = 0
        self.leg_done = 0
        n = 0
        if self.phase_index == PH_OVER:
            self.leg_n1 = 0
            return 0
        p = self.to_act
        if self.phase_index == PH_BOARDING or self.phase_index == PH_SET_COURSE:
            base = self.rules.a_board if self.phase_index == PH_BOARDING else self.rules.a_keep
            for i in range(self.drawn_n[p]):
                self.legal_buf[n] = base + self.drawn[p * MAXDRAWN + i]
                n += 1
            _sort_ints(self.legal_buf, n)  # insertion sort: at most 6
            self.leg_n1 = n
            return n
        if self.phase_index == PH_ENTERTAINMENT:
            for k in range(self.rules.nsets):
                if self.display_taken_by[k] < 0 and not (k == 0 and p == self.first_seat and not self.rules.solo):
                    self.legal_buf[n] = self.rules.a_take + k
                    n += 1
            self.leg_n1 = n
            return n
        for c in range(NCAB):
            if self.cabin_family[p * NCAB + c] >= 0 and self.cabin_figures[p * NCAB + c] > 0:
                for s in range(self.rules.nspot):
                    if self._check_place(p, c, s) == 0:
                        self.legal_buf[n] = self.rules.a_place + c * self.rules.nspot + s
                        n += 1
        h = 0
        a = 0
        plan = self.location_card[p] >= 0 and self._check_plan_place(p)
        for x in range(self.rules.ns):
            if self.hand[p * MAXS + x]:
                if self.rules.s_add[x]:
                    self.addition_at[a] = h
                    a += 1
                elif plan:
                    self.legal_buf[n] = self.rules.a_plan + x
                    n += 1
                self.hand_list[h] = x
                h += 1
        self.leg_n1 = n
        self.leg_h = h
        self.leg_a = a
        if a > 0 and h > 1:
            if self._free_space(p) >= 0:
                self.leg_t = 1
                self.leg_t0 = 0
            else:
                self.leg_t = self.rules.nadd
                self.leg_t0 = 1
            self.leg_nb = a * (h - 1) * self.leg_t
        k = 0
        if self.captain_spot[p] < 0 and h > 0:
            for s in range(3):
                if self._spot(p, s) >= 0:
                    self.captain_spots[k] = s
                    k += 1
            self.leg_nc = k * h
        self.leg_done = 1
        return n + self.leg_nb + self.leg_nc + 1

    def _check_plan_place(self, p):
        """Whether the current location card has a place for an activity card (C17, C18)."""
        l = self.location_card[p]
        if self.rules.l_sea[l]:
            return self.activity_card2[p] < 0
        return self.activity_card1[p] < 0 and self.location_guests[p * 3 + 1] == 0 and self.captain_spot[p] != 1

    def c_rollout_action(self, r):
        """The search's rollout policy (docs/dream_cruise.md, "Rollout policy"): uniformly
        random playouts spend the sailing phase on builds and captains and end it while
        guests could still go ashore, so a playout's result says little. This one, except
        one move in eight taken at random to keep the playouts varied, sends a guest to an
        activity whenever one can go (a random placement), else plans an activity card or
        ends the phase, one or the other at random; the other phases are random."""
        n = self.c_legal()
        if self.phase_index != PH_SET_SAIL or (r & 7) == 0:
            return self.c_legal_at(((r >> 32) * n) >> 32)
        a = self._random_placement(r)
        if a >= 0:
            return a
        plans = self.leg_n1
        if plans > 0 and (r & 8):
            return self.legal_buf[((r >> 32) * plans) >> 32]
        return self.rules.a_done

    def c_prior_action(self, r):
        """The rollout policy's own choice, without its random moves (docs/dream_cruise.md,
        "Rollout policy"): in phase 4, a guest placement (one at random) when one is legal;
        -1 otherwise, where the policy has no preference."""
        if self.phase_index != PH_SET_SAIL:
            return -1
        self.c_legal()
        return self._random_placement(r)

    def _random_placement(self, r):
        """A random guest placement among the legal actions just listed (they come first,
        before the activity plans), for the random value r; -1 if there is none."""
        places = 0
        while places < self.leg_n1 and self.legal_buf[places] < self.rules.a_plan:
            places += 1
        if places == 0:
            return -1
        return self.legal_buf[((r >> 32) * places) >> 32]

    def c_legal_at(self, i):
        if i < self.leg_n1:
            return self.legal_buf[i]
        j = i - self.leg_n1
        if j < self.leg_nb:
            block = (self.leg_h - 1) * self.leg_t
            xi = j // block
            r = j - xi * block
            yi = r // self.leg_t
            t = self.leg_t0 + r - yi * self.leg_t
            px = self.addition_at[xi]
            x = self.hand_list[px]
            y = self.hand_list[yi] if yi < px else self.hand_list[yi + 1]
            return self.rules.a_build + (x * self.rules.ns + y) * (self.rules.nadd + 1) + t
        j -= self.leg_nb
        if j < self.leg_nc:
            k = j // self.leg_h
            return self.rules.a_captain + self.captain_spots[k] * self.rules.ns + self.hand_list[j - k * self.leg_h]
        return self.rules.a_done

    def c_check(self, a):
        if self.phase_index == PH_OVER:
            return R_OVER
        p = self.to_act
        if a < self.rules.a_take:
            if a < self.rules.a_keep:
                if self.phase_index != PH_BOARDING:
                    return R_TIME
                x = a
            else:
                if self.phase_index != PH_SET_COURSE:
                    return R_TIME
                x = a - self.rules.a_keep
            for i in range(self.drawn_n[p]):
                if self.drawn[p * MAXDRAWN + i] == x:
                    return 0
            return R_NOT_DRAWN
        if a < self.rules.a_place:
            if self.phase_index != PH_ENTERTAINMENT:
                return R_TIME
            k = a - self.rules.a_take
            if k >= self.rules.nsets or self.display_taken_by[k] >= 0:
                return R_TAKEN
            if k == 0 and p == self.first_seat and not self.rules.solo:
                return R_START_FACE_DOWN
            return 0
        if self.phase_index != PH_SET_SAIL:
            return R_TIME
        if a < self.rules.a_plan:
            b = a - self.rules.a_place
            return self._check_place(p, b // self.rules.nspot, b % self.rules.nspot)
        if a < self.rules.a_build:
            return self._check_plan(p, a - self.rules.a_plan)
        if a < self.rules.a_captain:
            b = a - self.rules.a_build
            t = b % (self.rules.nadd + 1)
            b //= self.rules.nadd + 1
            x = b // self.rules.ns
            y = b % self.rules.ns
            if not self.hand[p * MAXS + x]:
                return R_NOT_IN_HAND
            if not self.rules.s_add[x]:
                return R_NOT_ADDITION
            if y == x or not self.hand[p * MAXS + y]:
                return R_PAYMENT
            if self._free_space(p) >= 0:
                return R_FREE_SPACE if t != 0 else 0
            return R_NO_FREE if t == 0 else 0
        if a < self.rules.a_done:
            b = a - self.rules.a_captain
            s = b // self.rules.ns
            y = b % self.rules.ns
            if self.captain_spot[p] >= 0:
                return R_CAPTAIN
            if self.location_card[p] < 0:
                return R_NO_LOCATION
            if self._spot(p, s) < 0:
                return R_NO_SPOT
            if not self.hand[p * MAXS + y]:
                return R_NOT_IN_HAND
            return 0
        return 0

    # ------------------------------------------------------------------ applying

    def _take_from_hand(self, p, x):
        self.hand[p * MAXS + x] = 0
        self.known[p * MAXS + x] = 0
        self.hand_n[p] -= 1

    def _to_hand(self, p, x, public):
        self.hand[p * MAXS + x] = 1
        self.known[p * MAXS + x] = 1 if public else 0
        self.hand_n[p] += 1

    def c_do(self, a):
        p = self.to_act
        if self.phase_index == PH_BOARDING:
            self._remove_drawn(p, a)
            for c in range(NCAB):
                if self.cabin_family[p * NCAB + c] < 0:  # C17: the first empty cabin
                    self.cabin_family[p * NCAB + c] = a
                    self.cabin_figures[p * NCAB + c] = self.rules.f_members[a]
                    break
            if self.drawn_n[p] == 0 or self._empty_cabins(p) == 0:
                self._discard_drawn_families(p)
                self._next_boarding(self.turn + 1)
            return
        if self.phase_index == PH_SET_COURSE:
            x = a - self.rules.a_keep
            self._remove_drawn(p, x)
            for i in range(self.drawn_n[p]):
                y = self.drawn[p * MAXDRAWN + i]
                if self.rules.solo:  # C9: Jana collects the discarded location cards
                    self.jana_locations[self.jana_locations_n] = y
                    self.jana_locations_n += 1
                else:
                    self.location_discard[self.location_discard_n] = y
                    self.location_discard_n += 1
            self.drawn_n[p] = 0
            self.location_card[p] = x
            self.played[p * MAXL + self.played_n[p]] = x
            self.played_n[p] += 1
            if self.rules.l_sea[x]:
                self.sea_cards[p] += 1
                if self.rules.sea_draw:  # C2 (option): a kept sea card brings one ship card
                    y = self._draw_ship()
                    if y >= 0:
                        self._to_hand(p, y, False)
            else:
                self.region_cards[p * NREG + self.rules.l_region[x]] += 1
            self._next_course(self.turn + 1)
            return
        if self.phase_index == PH_ENTERTAINMENT:
            k = a - self.rules.a_take
            for i in range(self.display_n[k]):
                self._to_hand(p, self.display_cards[k * 2 + i], k != 0)  # C26: face-up sets are seen by all
            self.display_n[k] = 0
            self.display_taken_by[k] = p
            if k == 0:
                self.start_seat = p  # C19: the token at once; this round's order stays
            self.turn += 1
            if self.turn == self.seats:
                self._end_draft()
            else:
                self.to_act = self._seat_at(self.turn)
            return
        if a < self.rules.a_plan:
            b = a - self.rules.a_place
            c = b // self.rules.nspot
            s = b - c * self.rules.nspot
            self.cabin_figures[p * NCAB + c] -= 1
            if s < 3:
                self.location_guests[p * 3 + s] |= 1 << c
            else:
                self.addition_guests[p * MAXADD + s - 3] |= 1 << c
            return
        if a < self.rules.a_build:
            x = a - self.rules.a_plan
            self._take_from_hand(p, x)
            if self.rules.l_sea[self.location_card[p]] and self.activity_card1[p] >= 0:
                self.activity_card2[p] = x
            else:
                self.activity_card1[p] = x
            return
        if a < self.rules.a_captain:
            b = a - self.rules.a_build
            t = b % (self.rules.nadd + 1)
            b //= self.rules.nadd + 1
            x = b // self.rules.ns
            y = b % self.rules.ns
            self._take_from_hand(p, x)
            self._take_from_hand(p, y)
            self.ship_discard[self.ship_discard_n] = y
            self.ship_discard_n += 1
            j = self._free_space(p) if t == 0 else t - 1
            if t != 0:  # C6: the replaced addition is discarded, its guests to the supply
                self.ship_discard[self.ship_discard_n] = self.addition_card[p * MAXADD + j]
                self.ship_discard_n += 1
            self.addition_card[p * MAXADD + j] = x
            self.addition_guests[p * MAXADD + j] = 0
            return
        if a < self.rules.a_done:
            b = a - self.rules.a_captain
            y = b % self.rules.ns
            self._take_from_hand(p, y)
            self.ship_discard[self.ship_discard_n] = y
            self.ship_discard_n += 1
            self.captain_spot[p] = b // self.rules.ns
            return
        self.turn += 1
        if self.turn == self.seats:
            self._disembark()
        else:
            self.to_act = self._seat_at(self.turn)

    def _remove_drawn(self, p, x):
        o = p * MAXDRAWN
        for i in range(self.drawn_n[p]):
            if self.drawn[o + i] == x:
                self.drawn_n[p] -= 1
                self.drawn[o + i] = self.drawn[o + self.drawn_n[p]]
                return

    # ------------------------------------------------------------------ resampling

    def c_resample(self, seat, recall):
        """Deal anew, from ``self.rng``, every card ``seat`` cannot see, one Fisher-Yates
        shuffle per kind of card, each zone keeping its size: the families of the deck, the
        box, others' drawn cards and Jana's face-down pile; the location cards of the deck
        and others' drawn cards; the ship cards of the deck, the face-down set and others'
        hands. With ``recall``, the cards taken face up (known to all) stay in their hands;
        without it they are dealt too and nobody's hand is known any more. Discard piles,
        boards and the face-up display are public (C22).

        The result depends on ``view(seat, recall)`` and the generator alone: each pool is
        put in id order before its shuffle (the order the cards lay in is unseen), and the
        seat's own drawn cards come out sorted, as its view lists them (their order would
        reach the discard pile)."""
        n = self.seats
        # Families, then location cards: each zone's cards into the pool, one shuffle, back.
        self._shuffle(self.pool, self._by_id(self._family_zones(seat, False), self.rules.nf))
        self._family_zones(seat, True)
        self._shuffle(self.pool, self._by_id(self._location_zones(seat, False), self.rules.nl))
        self._location_zones(seat, True)
        self._sort_drawn(seat)
        # Ship cards: the deck, an untaken face-down set, the unknown cards of other hands.
        face_down = self.display_n[0] if self.phase_index == PH_ENTERTAINMENT and self.display_taken_by[0] < 0 else 0
        m = self._move(self.ship_deck, 0, self.ship_deck_n, 0, False)
        m = self._move(self.display_cards, 0, face_down, m, False)
        for p in range(n):
            if p != seat:
                self.legal_buf[p] = 0
                for x in range(self.rules.ns):
                    if self.hand[p * MAXS + x] and not (recall and self.known[p * MAXS + x]):
                        self.hand[p * MAXS + x] = 0
                        self.known[p * MAXS + x] = 0
                        self.pool[m] = x
                        m += 1
                        self.legal_buf[p] += 1
        self._shuffle(self.pool, self._by_id(m, self.rules.ns))
        m = self._move(self.ship_deck, 0, self.ship_deck_n, 0, True)
        m = self._move(self.display_cards, 0, face_down, m, True)
        for p in range(n):
            if p != seat:
                for i in range(self.legal_buf[p]):
                    self.hand[p * MAXS + self.pool[m]] = 1
                    m += 1
            if not recall:  # the own record too: view(seat) without recall does not show it
                for x in range(self.rules.ns):
                    self.known[p * MAXS + x] = 0

    def _by_id(self, m, size):
        """Put pool[0:m], distinct ids below ``size`` (at most 128), in ascending order by one
        pass over the ids (two 64-bit marks); returns m. Gathered zone by zone, the pool
        holds the cards in the order they lay in, which ``seat`` does not see: sorted, the
        shuffle that follows depends only on which cards are unseen."""
        one = 1
        lo = 0
        hi = 0
        for i in range(m):
            x = self.pool[i]
            if x < 64:
                lo |= one << x
            else:
                hi |= one << (x - 64)
        k = 0
        for x in range(size):
            if ((lo >> x) & 1) if x < 64 else ((hi >> (x - 64)) & 1):
                self.pool[k] = x
                k += 1
        return k

    def _sort_drawn(self, p):
        """Seat p's drawn cards in ascending order (insertion sort, at most MAXDRAWN)."""
        o = p * MAXDRAWN
        for i in range(1, self.drawn_n[p]):
            x = self.drawn[o + i]
            j = i
            while j > 0 and self.drawn[o + j - 1] > x:
                self.drawn[o + j] = self.drawn[o + j - 1]
                j -= 1
            self.drawn[o + j] = x

    def _move(self, a, off, n, m, back):
        """Copy a[off:off + n] to pool[m:m + n] (or back, with ``back``); returns m + n."""
        for i in range(n):
            if back:
                a[off + i] = self.pool[m + i]
            else:
                self.pool[m + i] = a[off + i]
        return m + n

    def _family_zones(self, seat, back):
        """The hidden families to ``seat``, in pool order: the deck, the box, Jana's face-down
        pile until the end (C9), the families others drew and choose from."""
        m = self._move(self.family_deck, 0, self.family_deck_n, 0, back)
        m = self._move(self.family_box, 0, self.family_box_n, m, back)
        m = self._move(self.jana_pile, 0, self.jana_pile_n if self.phase_index != PH_OVER else 0, m, back)
        if self.phase_index == PH_BOARDING:
            for p in range(self.seats):
                if p != seat:
                    m = self._move(self.drawn, p * MAXDRAWN, self.drawn_n[p], m, back)
        return m

    def _location_zones(self, seat, back):
        """The hidden location cards to ``seat``: the deck, the cards others drew (phase 2)."""
        m = self._move(self.location_deck, 0, self.location_deck_n, 0, back)
        if self.phase_index == PH_SET_COURSE:
            for p in range(self.seats):
                if p != seat:
                    m = self._move(self.drawn, p * MAXDRAWN, self.drawn_n[p], m, back)
        return m

    # ------------------------------------------------------------------ tensors

    def c_observe(self, seat, out):
        """Seat ``seat``'s observation: the fields ``DreamCruiseRules`` declares
        (``observation_layout``, docs "Observation tensor"), each from its offset ``o_*``;
        seats in turn order from ``seat``. Made only of what view(seat) shows."""
        self._observe_boards(seat, out)
        self._observe_seats(seat, out)
        self._observe_table(seat, out)

    def _observe_boards(self, seat, out):
        """``cabins``, ``additions`` and ``location``: each seat's ship board and current
        location card, seats in turn order from ``seat``."""
        n = self.seats
        for r in range(n):  # cabins: occupied, members / 6, figures left / 6, points / 9, wants
            p = (seat + r) % n
            for c in range(NCAB):
                f = self.cabin_family[p * NCAB + c]
                b = self.rules.o_cabins + (r * NCAB + c) * 10
                if f >= 0:
                    out[b] = 1.0
                    out[b + 1] = self.rules.f_members[f] / 6.0
                    out[b + 2] = self.cabin_figures[p * NCAB + c] / 6.0
                    out[b + 3] = self.rules.f_points[f] / 9.0
                    for t in range(NTYPE):
                        if (self.rules.f_wants[f] >> t) & 1:
                            out[b + 4 + t] = 1.0
        for r in range(n):  # additions: built, type, capacity / 3, figures per colour
            p = (seat + r) % n
            for j in range(self.rules.nadd):
                _observe_spot(self._spot(p, 3 + j), self.rules.o_additions + (r * self.rules.nadd + j) * 11, out)
        for r in range(n):  # current location: has, sea, region, 3 spots (active, type, cap, figures, captain)
            p = (seat + r) % n
            b = self.rules.o_location + r * 44
            x = self.location_card[p]
            if x >= 0:
                out[b] = 1.0
                if self.rules.l_sea[x]:
                    out[b + 1] = 1.0
                else:
                    out[b + 2 + self.rules.l_region[x]] = 1.0
                for s in range(3):
                    k = b + 8 + s * 12
                    _observe_spot(self._spot(p, s), k, out)
                    if self.captain_spot[p] == s:
                        out[k + 11] = 1.0

    def _observe_seats(self, seat, out):
        """``routes`` and ``counts`` of every seat, then ``seat``'s own ``hand`` and drawn cards."""
        n = self.seats
        for r in range(n):  # routes: shore cards per region / 6, sea cards / 6, route points / 54
            p = (seat + r) % n
            b = self.rules.o_routes + r * 8
            for k in range(NREG):
                out[b + k] = self.region_cards[p * NREG + k] / 6.0
            out[b + 6] = self.sea_cards[p] / 6.0
            out[b + 7] = self._route_score(p) / 54.0
        for r in range(n):  # counts: pile points / 100, pile / 20, hand / 20, drawn / 6, score / 100, placed / 9
            p = (seat + r) % n
            b = self.rules.o_counts + r * 6
            out[b] = self.pile_points[p] / 100.0
            out[b + 1] = self.points_pile_n[p] / 20.0
            out[b + 2] = self.hand_n[p] / 20.0
            out[b + 3] = self.drawn_n[p] / 6.0
            out[b + 4] = self.c_score(p) / 100.0
            out[b + 5] = self._placed(p) / 9.0
        for x in range(self.rules.ns):  # own hand
            if self.hand[seat * MAXS + x]:
                out[self.rules.o_hand + x] = 1.0
        for i in range(self.drawn_n[seat]):  # own drawn families (phase 1) or location cards (phase 2)
            x = self.drawn[seat * MAXDRAWN + i]
            if self.phase_index == PH_BOARDING:
                out[self.rules.o_drawn_families + x] = 1.0
            else:
                out[self.rules.o_drawn_locations + x] = 1.0

    def _observe_table(self, seat, out):
        """The display, the discard piles, the decks, the phase, the seats' roles, the round
        and Jana (solo)."""
        n = self.seats
        o = self.rules.o_display
        for k in range(MAXSETS):  # display sets: in play, taken, cards / 2
            if k < self.rules.nsets and self.phase_index == PH_ENTERTAINMENT:
                out[o + 3 * k] = 1.0
                if self.display_taken_by[k] >= 0:
                    out[o + 3 * k + 1] = 1.0
                out[o + 3 * k + 2] = self.display_n[k] / 2.0
        for k in range(1, self.rules.nsets):  # the face-up cards of the display
            for i in range(self.display_n[k]):
                out[self.rules.o_display_cards + self.display_cards[k * 2 + i]] = 1.0
        for i in range(self.family_discard_n):  # the discard piles (C22)
            out[self.rules.o_family_discard + self.family_discard[i]] = 1.0
        for i in range(self.location_discard_n):
            out[self.rules.o_location_discard + self.location_discard[i]] = 1.0
        for i in range(self.ship_discard_n):
            out[self.rules.o_ship_discard + self.ship_discard[i]] = 1.0
        o = self.rules.o_decks
        out[o] = self.family_deck_n / 64.0
        out[o + 1] = self.location_deck_n / 64.0
        out[o + 2] = self.ship_deck_n / 96.0
        out[self.rules.o_phase + self.phase_index] = 1.0
        if self.phase_index != PH_OVER:  # the seats' roles, one-hot, relative to seat
            out[self.rules.o_current_player + (self.to_act - seat + n) % n] = 1.0
        out[self.rules.o_start_player + (self.start_seat - seat + n) % n] = 1.0
        out[self.rules.o_first_player + (self.first_seat - seat + n) % n] = 1.0
        o = self.rules.o_round
        if self.last_round:
            out[o] = 1.0
        out[o + 1] = (self.round_number if self.round_number < 40 else 40) / 40.0
        o = self.rules.o_jana
        if self.rules.solo:  # Jana: pile size / 20, route / 9, shore cards per region / 6, sea cards / 6, pile
            out[o] = self.jana_pile_n / 20.0
            if self.phase_index == PH_OVER:  # her pile's points, shown at the end (C9)
                out[o + 9] = self._jana_pile_points() / 100.0
            out[o + 1] = self._jana_route() / 9.0
            for i in range(self.jana_locations_n):
                x = self.jana_locations[i]
                if self.rules.l_sea[x]:
                    out[o + 8] += 1.0 / 6.0
                else:
                    out[o + 2 + self.rules.l_region[x]] += 1.0 / 6.0

    def _jana_route(self):
        """The points of Jana's longest route: her most shore cards of one region, plus a
        sea card if she has one (C1, C9, C28)."""
        longest = 0
        seas = 0
        for k in range(NREG):
            c = 0
            for i in range(self.jana_locations_n):
                x = self.jana_locations[i]
                if self.rules.l_sea[x]:
                    seas = 1
                elif self.rules.l_region[x] == k:
                    c += 1
            if c > longest:
                longest = c
        if longest > 0:
            longest += seas
        return self.rules._pts(longest)

    def _jana_pile_points(self):
        pts = 0
        for i in range(self.jana_pile_n):
            pts += self.rules.f_points[self.jana_pile[i]]
        return pts

    def c_info_state(self, seat, out):
        """The observation, then per seat (in turn order from ``seat``) the hand cards every
        seat saw it take face up (the display's face-up sets)."""
        n = self.seats
        self.c_observe(seat, out)
        o = self.rules.o_known_hands
        for r in range(n):
            p = (seat + r) % n
            for x in range(self.rules.ns):
                if self.known[p * MAXS + x]:
                    out[o + r * self.rules.ns + x] = 1.0

    # ------------------------------------------------------------------ views

    def _view(self, seat, recall):
        """The DreamCruiseView of ``seat`` (checked by the caller), made from the arrays;
        with ``recall`` it lists the hand cards of every seat known to all."""
        T = self.rules.view_types
        if T is None:  # the Struct classes, looked up once in the schema the game handed in
            S = self.rules.schema
            T = self.rules.view_types = (S.SeatView, S.CurrentLocation, S.DisplaySet, S.JanaView, S.DreamCruiseView)
        n = self.seats
        seats = []
        for p in range(n):
            location = None
            if self.location_card[p] >= 0:
                location = T[1](
                    card=self.location_card[p],
                    activity_cards=[self.activity_card1[p], self.activity_card2[p]],
                    guests=[
                        _colours(self.location_guests[p * 3]),
                        _colours(self.location_guests[p * 3 + 1]),
                        _colours(self.location_guests[p * 3 + 2]),
                    ],
                    captain=self.captain_spot[p],
                )
            seats.append(
                T[0](
                    seat=p,
                    families=[self.cabin_family[p * NCAB + c] for c in range(NCAB)],
                    figures_left=[self.cabin_figures[p * NCAB + c] for c in range(NCAB)],
                    additions=[self.addition_card[p * MAXADD + j] for j in range(self.rules.nadd)],
                    addition_guests=[_colours(self.addition_guests[p * MAXADD + j]) for j in range(self.rules.nadd)],
                    location=location,
                    played=[self.played[p * MAXL + i] for i in range(self.played_n[p])],
                    points_pile=[self.points_pile[p * MAXF + i] for i in range(self.points_pile_n[p])],  # C29: face up
                    hand_size=self.hand_n[p],
                    drawn_size=self.drawn_n[p],
                    route_points=self._route_score(p),
                    score=self.c_score(p),
                )
            )
        display = []
        if self.phase_index == PH_ENTERTAINMENT:
            for k in range(self.rules.nsets):
                display.append(
                    T[2](
                        face_down=k == 0,
                        cards=[] if k == 0 else [self.display_cards[k * 2 + i] for i in range(self.display_n[k])],
                        size=self.display_n[k],
                        taken_by=self.display_taken_by[k],
                    )
                )
        jana = None
        if self.rules.solo:
            jana = T[3](
                pile_size=self.jana_pile_n,
                locations=[self.jana_locations[i] for i in range(self.jana_locations_n)],
                route_points=self._jana_route(),
                score=self._jana_score() if self.phase_index == PH_OVER else None,
                # Her pile is turned up to score it (C23): the view shows it then.
                pile=[self.jana_pile[i] for i in range(self.jana_pile_n)] if self.phase_index == PH_OVER else None,
            )
        memory = None
        if recall:
            memory = [[x for x in range(self.rules.ns) if self.known[p * MAXS + x]] for p in range(n)]
        cur = self.c_current()
        return T[4](
            player=seat,
            players=n,
            phase=PHASES[self.phase_index],
            current_player=cur,
            round=self.round_number,
            final_round=self.last_round,
            start_player=self.start_seat,
            first_player=self.first_seat,
            seats=seats,
            hand=[x for x in range(self.rules.ns) if self.hand[seat * MAXS + x]],
            drawn=sorted([self.drawn[seat * MAXDRAWN + i] for i in range(self.drawn_n[seat])]),
            display=display,
            family_deck=self.family_deck_n,
            family_box=self.family_box_n,
            location_deck=self.location_deck_n,
            ship_deck=self.ship_deck_n,
            family_discard=[self.family_discard[i] for i in range(self.family_discard_n)],
            location_discard=[self.location_discard[i] for i in range(self.location_discard_n)],
            ship_discard=[self.ship_discard[i] for i in range(self.ship_discard_n)],
            jana=jana,
            legal_actions=self.legal_actions() if cur == seat else [],
            recall=memory,
        )

    # ------------------------------------------------------------------ queries

    def jana_score(self):
        """Jana's points (C9): her points pile and her longest route; 0 outside solo."""
        return self._jana_score() if self.rules.solo else 0

    def route_points(self, seat):
        """Seat ``seat``'s sailing-route points now (C1)."""
        return self._route_score(self._seat(seat))

    def placement_count(self):
        """How many guest placements the seat to act has (phase 4; else 0)."""
        if self.phase_index != PH_SET_SAIL:
            return 0
        p = self.to_act
        n = 0
        for c in range(NCAB):
            if self.cabin_family[p * NCAB + c] >= 0 and self.cabin_figures[p * NCAB + c] > 0:
                for s in range(self.rules.nspot):
                    if self._check_place(p, c, s) == 0:
                        n += 1
        return n

    @property
    def phase_name(self):
        return PHASES[self.phase_index]

    # ------------------------------------------------------------------ copying

    def _copy_into(self, new):
        new.rules = self.rules
        new.game = self.game
        new.rng = self.rng
        new.seats = self.seats
        new.phase_index = self.phase_index
        new.round_number = self.round_number
        new.start_seat = self.start_seat
        new.first_seat = self.first_seat
        new.turn = self.turn
        new.to_act = self.to_act
        new.last_round = self.last_round
        new.family_deck_n = self.family_deck_n
        new.family_discard_n = self.family_discard_n
        new.family_box_n = self.family_box_n
        new.jana_pile_n = self.jana_pile_n
        new.location_deck_n = self.location_deck_n
        new.location_discard_n = self.location_discard_n
        new.jana_locations_n = self.jana_locations_n
        new.ship_deck_n = self.ship_deck_n
        new.ship_discard_n = self.ship_discard_n
        # Whole arrays at once: a memcpy compiled, a list copy in pure Python.
        new.cabin_family[:] = self.cabin_family
        new.cabin_figures[:] = self.cabin_figures
        new.addition_card[:] = self.addition_card
        new.addition_guests[:] = self.addition_guests
        new.location_card[:] = self.location_card
        new.activity_card1[:] = self.activity_card1
        new.activity_card2[:] = self.activity_card2
        new.location_guests[:] = self.location_guests
        new.captain_spot[:] = self.captain_spot
        new.played[:] = self.played
        new.played_n[:] = self.played_n
        new.region_cards[:] = self.region_cards
        new.sea_cards[:] = self.sea_cards
        new.points_pile[:] = self.points_pile
        new.points_pile_n[:] = self.points_pile_n
        new.pile_points[:] = self.pile_points
        new.hand[:] = self.hand
        new.hand_n[:] = self.hand_n
        new.known[:] = self.known
        new.drawn[:] = self.drawn
        new.drawn_n[:] = self.drawn_n
        new.display_cards[:] = self.display_cards
        new.display_n[:] = self.display_n
        new.display_taken_by[:] = self.display_taken_by
        new.family_deck[:] = self.family_deck
        new.family_discard[:] = self.family_discard
        new.family_box[:] = self.family_box
        new.jana_pile[:] = self.jana_pile
        new.location_deck[:] = self.location_deck
        new.location_discard[:] = self.location_discard
        new.jana_locations[:] = self.jana_locations
        new.ship_deck[:] = self.ship_deck
        new.ship_discard[:] = self.ship_discard

    # ------------------------------------------------------------------ raw access

    def _get_raw(self):
        """The full state as a dict of plain Python values (rendering, tests). Its inverse,
        which writes such a dict into a core, is ``dream_cruise_snapshot.set_raw`` (the
        loader's last step too)."""
        n = self.seats
        return {
            "rng": self.rng,
            "phase": self.phase_index,
            "cur": self.c_current(),
            "round": self.round_number,
            "start": self.start_seat,
            "first": self.first_seat,
            "turn": self.turn,
            "final": self.last_round,
            "cabins": [[self.cabin_family[p * NCAB + c] for c in range(NCAB)] for p in range(n)],
            "left": [[self.cabin_figures[p * NCAB + c] for c in range(NCAB)] for p in range(n)],
            "additions": [[self.addition_card[p * MAXADD + j] for j in range(self.rules.nadd)] for p in range(n)],
            "addition_guests": [
                [self.addition_guests[p * MAXADD + j] for j in range(self.rules.nadd)] for p in range(n)
            ],
            "location": [self.location_card[p] for p in range(n)],
            "slots": [[self.activity_card1[p], self.activity_card2[p]] for p in range(n)],
            "location_guests": [[self.location_guests[p * 3 + s] for s in range(3)] for p in range(n)],
            "captain": [self.captain_spot[p] for p in range(n)],
            "played": [[self.played[p * MAXL + i] for i in range(self.played_n[p])] for p in range(n)],
            "pile": [[self.points_pile[p * MAXF + i] for i in range(self.points_pile_n[p])] for p in range(n)],
            "hands": [[x for x in range(self.rules.ns) if self.hand[p * MAXS + x]] for p in range(n)],
            "known": [[x for x in range(self.rules.ns) if self.known[p * MAXS + x]] for p in range(n)],
            "drawn": [[self.drawn[p * MAXDRAWN + i] for i in range(self.drawn_n[p])] for p in range(n)],
            "display": [
                [self.display_cards[k * 2 + i] for i in range(self.display_n[k])] for k in range(self.rules.nsets)
            ],
            "taken": [self.display_taken_by[k] for k in range(self.rules.nsets)],
            "family_deck": [self.family_deck[i] for i in range(self.family_deck_n)],
            "family_discard": [self.family_discard[i] for i in range(self.family_discard_n)],
            "family_box": [self.family_box[i] for i in range(self.family_box_n)],
            "location_deck": [self.location_deck[i] for i in range(self.location_deck_n)],
            "location_discard": [self.location_discard[i] for i in range(self.location_discard_n)],
            "ship_deck": [self.ship_deck[i] for i in range(self.ship_deck_n)],
            "ship_discard": [self.ship_discard[i] for i in range(self.ship_discard_n)],
            "jana_pile": [self.jana_pile[i] for i in range(self.jana_pile_n)],
            "jana_locations": [self.jana_locations[i] for i in range(self.jana_locations_n)],
        }

    # ------------------------------------------------------------------ snapshots

    def _export(self):
        """The full state as a DreamCruiseStateData Struct (what :meth:`_load` reads back)."""
        S = self.rules.schema
        n = self.seats
        seats = []
        for p in range(n):
            seats.append(
                S.SeatData(
                    families=[self.cabin_family[p * NCAB + c] for c in range(NCAB)],
                    figures_left=[self.cabin_figures[p * NCAB + c] for c in range(NCAB)],
                    additions=[self.addition_card[p * MAXADD + j] for j in range(self.rules.nadd)],
                    addition_guests=[_colours(self.addition_guests[p * MAXADD + j]) for j in range(self.rules.nadd)],
                    location=self.location_card[p],
                    activity_cards=[self.activity_card1[p], self.activity_card2[p]],
                    location_guests=[_colours(self.location_guests[p * 3 + s]) for s in range(3)],
                    captain=self.captain_spot[p],
                    played=[self.played[p * MAXL + i] for i in range(self.played_n[p])],
                    points_pile=[self.points_pile[p * MAXF + i] for i in range(self.points_pile_n[p])],
                    hand=[x for x in range(self.rules.ns) if self.hand[p * MAXS + x]],
                    known=[x for x in range(self.rules.ns) if self.known[p * MAXS + x]],
                    drawn=[self.drawn[p * MAXDRAWN + i] for i in range(self.drawn_n[p])],
                )
            )
        display = []
        if self.phase_index == PH_ENTERTAINMENT:
            for k in range(self.rules.nsets):
                display.append(
                    S.SetData(
                        cards=[self.display_cards[k * 2 + i] for i in range(self.display_n[k])],
                        taken_by=self.display_taken_by[k],
                    )
                )
        return S.DreamCruiseStateData(
            schema_version=S.SCHEMA_VERSION,
            game=self.rules.game_name,
            players=n,
            route_points=[self.rules.route[2], self.rules.route[3], self.rules.route[4], self.rules.route[5]],
            sea_ship_draw=self.rules.sea_draw,
            additions=self.rules.nadd,
            difficulty=self.rules.difficulty,
            cards=self.game.cards.digest if self.game is not None else "",
            rng=f"{self.rng:016x}",  # serialize.RngText
            phase=PHASES[self.phase_index],
            current_player=self.c_current(),
            round=self.round_number,
            start_player=self.start_seat,
            first_player=self.first_seat,
            turn=self.turn,
            final_round=self.last_round,
            seats=seats,
            display=display,
            family_deck=[self.family_deck[i] for i in range(self.family_deck_n)],
            family_discard=[self.family_discard[i] for i in range(self.family_discard_n)],
            family_box=[self.family_box[i] for i in range(self.family_box_n)],
            location_deck=[self.location_deck[i] for i in range(self.location_deck_n)],
            location_discard=[self.location_discard[i] for i in range(self.location_discard_n)],
            ship_deck=[self.ship_deck[i] for i in range(self.ship_deck_n)],
            ship_discard=[self.ship_discard[i] for i in range(self.ship_discard_n)],
            jana_pile=[self.jana_pile[i] for i in range(self.jana_pile_n)],
            jana_locations=[self.jana_locations[i] for i in range(self.jana_locations_n)],
        )

    def _load_checked(self, d, history):
        """Check the decoded snapshot ``d`` and load it (the contract's ``_load``): the checks
        and the loading live in ``dream_cruise_snapshot`` (which cimports this module), its
        last step the raw-state setter ``set_raw``, the inverse of :meth:`_get_raw`."""
        from .dream_cruise_snapshot import load_checked

        load_checked(self, d, history)

    def _turn_of(self, p):
        return (p - self.first_seat + self.seats) % self.seats


def _observe_spot(v, b, out):
    """An activity spot (``_spot``'s packed value ``v``, -1 for none) at ``out[b:b + 11]``:
    holds one, its type one-hot, capacity / 3, a figure of each colour."""
    if v >= 0:
        out[b] = 1.0
        out[b + 1 + (v & 15)] = 1.0
        out[b + 7] = ((v >> 4) & 15) / 3.0
        for c in range(NCAB):
            if (v >> (8 + c)) & 1:
                out[b + 8 + c] = 1.0


def _pop3(m):
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1)


def _sort_ints(a, n):
    for i in range(1, n):
        x = a[i]
        j = i
        while j > 0 and a[j - 1] > x:
            a[j] = a[j - 1]
            j -= 1
        a[j] = x


def _colours(mask):
    """The cabins (colours) of a 3-bit figure set, ascending, as a new list."""
    out = []
    for c in range(3):
        if (mask >> c) & 1:
            out.append(c)
    return out
