"""Sirens in Sight: the rules engine (compiled by Cython, runs as Python too): the rules,
the observation tensor, views and resampling. Checking and loading a snapshot, and
writing a raw state (``set_raw``, the inverse of ``_get_raw``), live in
``sirens_snapshot.py``.

The rules and rulings S1 ... S18 are in ``docs/sirens.md``; ruling ids are cited where
they apply. Types live in ``sirens.pxd``. The classes extend the compiled game contract
(``engine.py``); nothing on the play path (``c_legal``/``c_check``/``c_do``/
``c_random_action``) allocates Python objects or needs the GIL; moves are small ints.

Action ids, for a card set with F faces (a face is a distinct (value, crew icon) pair,
numbered in ascending (value, crew) order):

* ``a_play + face * 10 + slot``            play a card of that face to a slot
* ``a_octo + (src * F + face) * 10 + dst``  octopus: move a card of that face from src to dst
* ``a_rum + ship``                          put the rum mug on a ship card
* ``a_end``                                 end the turn without using the rum mug
* ``a_pass``                                pass: no legal main action (S4)
* ``a_crew + ship``                         move the crew token to that ship (S5 step 2)
* ``a_pick + face``                         pick a starting card ("bow to rear", S9)

A slot is ``ship * 2 + side`` where ship 0..4 runs bow to rear and side is the seat
whose side of the ship card it is.
"""

try:  # pragma: no cover - depends on whether Cython is installed
    import cython
except ImportError:  # pragma: no cover
    from cruiselib._core import _cython_shim as cython

from cruiselib._core.constants import reason_table
from cruiselib._core.tensor_layout import TensorField, TensorLayout

from .engine import CoreRules, CoreState
from .rng import SPLITMIX64 as _SPLITMIX64

if not cython.compiled:
    # The enum constants of the .pxd, their one home (compiled, they are C constants).
    from cruiselib._core.constants import enum_constants

    globals().update(enum_constants(__name__.rpartition(".")[2]))  # this module's own .pxd

# The generator's step and output mix (rng.py), inlined in _below: every playout's deal
# draws through it, and a call of CoreState.c_below per draw costs a few % of a playout.
GOLDEN, MIX1, MIX2, MASK64 = _SPLITMIX64
BIT64 = 1  # a 64-bit one, for 64-bit sets of card ids
BIT32 = 1  # an unsigned 32-bit one, for sets of faces (up to 32)
MASK32 = 0xFFFFFFFF
RECIP = [0, 4294967296, 2147483648, 1431655766, 1073741824, 858993460, 715827883, 613566757,
         536870912, 477218589, 429496730]  # ceil(2**32 / n) for n = 1..10
DEBRUIJN32 = [0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
              31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9]

PHASES = ("pick", "main", "after", "crew", "over")
CREW_NAMES = ("captain", "mate")
_snapshot = None  # the sirens_snapshot module, imported on the first load (it cimports this one)

# Why an action is illegal, by c_check's code.
REASONS = reason_table(
    {
        R_LEGAL: "legal",
        R_GAME_OVER: "the game is over",
        R_WRONG_PHASE: "it is not the time for this kind of action",
        R_FACE_NOT_IN_HAND: "the player holds no card of that face",
        R_SHIP_NOT_IN_PLAY: "that ship card is not in play",
        R_SIDE_FULL: "that side of the ship card already holds 5 cards",
        R_OCTOPUS_USED: "the player's octopus is already in use",
        R_NO_CARD_TO_MOVE: (
            "no card of that face on that side can be moved (none there, or it carries the opponent's octopus)"
        ),
        R_SAME_PLACE: "the octopus must move the card to another place",
        R_RUM_USED: "the player's rum mug is already used",
        R_PASS_NOT_ALLOWED: "passing is only allowed when no card can be played and the octopus cannot be used",
        R_CREW_CANNOT_MOVE_THERE: "the crew token cannot move there",
        R_CANNOT_PICK: (
            "that face cannot be picked: none left, below the last pick (picks go in ascending face order), "
            "or too few cards above it to finish the hand"
        ),
        R_END_TOO_EARLY: "end the turn is only possible after the main action",
    }
)


def _popcount(m):
    """The number of set bits of the 32-bit m (SWAR: no loop, no table)."""
    m = m - ((m >> 1) & 0x55555555)
    m = (m & 0x33333333) + ((m >> 2) & 0x33333333)
    m = (m + (m >> 4)) & 0x0F0F0F0F
    return ((m * 0x01010101) & MASK32) >> 24


def _div(k, n):
    """k // n for 0 <= k < 2**16 and 1 <= n <= 10 (NSLOT): a multiply by the rounded-up
    reciprocal, exact there, instead of a division."""
    return (k * RECIP[n]) >> 32


def _select4(m, k):
    """_select for 0 <= k <= 3 (a hand has at most 4 faces), without a loop whose length
    is random."""
    m &= m - (k >= 1)  # drops the lowest set bit when k >= 1, else keeps m
    m &= m - (k >= 2)
    m &= m - (k >= 3)
    return DEBRUIJN32[(((m & (~m + 1)) * 0x077CB531) & MASK32) >> 27]


def _select(m, k):
    """The index of the k-th set bit of the 32-bit m, counting from the lowest (k = 0)."""
    while k > 0:
        m &= m - 1  # drop the lowest set bit
        k -= 1
    # The lowest set bit's index: its power of two times a de Bruijn sequence puts a
    # distinct 5-bit pattern in the top bits.
    return DEBRUIJN32[(((m & (~m + 1)) * 0x077CB531) & MASK32) >> 27]


class SirensRules(CoreRules):
    """Immutable per-game tables: card faces, ship values, option flags, action layout."""

    def __init__(self, face_values, face_crew, card_face, card_emblem, ship_values, variant, digest):
        if not cython.compiled:
            self.face_val = [0] * MAXF
            self.face_crew = [False] * MAXF
            self.card_face = [0] * MAXC
            self.card_emblem = [0] * MAXC
            self.ship_val = [0] * NSHIP
            self.min_won = [0] * NSHIP
        nf = len(face_values)
        nc = len(card_face)
        # S3: each seat is dealt a hand of 4, so a set has at least 8 cards; the arrays hold
        # MAXC cards and the face masks of the fast path MAXF faces.
        if not (0 < nf <= MAXF and len(face_crew) == nf and 2 * HAND <= nc <= MAXC
                and len(card_emblem) == nc and len(ship_values) == NSHIP):
            raise ValueError("card tables out of range")
        for i in range(nc):
            if not (0 <= card_face[i] < nf and 0 <= card_emblem[i] <= 1):
                raise ValueError("card tables out of range")
        if variant:
            # S9: each seat picks 4 starting cards from its own emblem set.
            n0 = 0
            for i in range(nc):
                n0 += card_emblem[i] == 0
            if n0 < HAND or nc - n0 < HAND:
                raise ValueError("card tables out of range")
        self.num_faces = nf
        self.num_cards = nc
        for i in range(nf):
            self.face_val[i] = face_values[i]
            self.face_crew[i] = bool(face_crew[i])
        for i in range(nc):
            self.card_face[i] = card_face[i]
            self.card_emblem[i] = card_emblem[i]
        for i in range(NSHIP):
            self.ship_val[i] = ship_values[i]
        # The fewest cards a won ship card takes out of play (S6): a side reaching the
        # printed value needs ceil(value / best card) cards, at most 5 of them; otherwise
        # only 5 + 5 cards can win it. The loader checks the removed cards against this.
        best = 0
        for i in range(nf):
            if self.face_val[i] > best:
                best = self.face_val[i]
        for i in range(NSHIP):
            self.min_won[i] = 2 * SIDE_MAX
            if best > 0 and self.ship_val[i] <= SIDE_MAX * best:
                self.min_won[i] = (self.ship_val[i] + best - 1) // best
        self.variant = bool(variant)
        self.digest = digest
        self.a_play = 0
        self.a_octo = nf * NSLOT
        self.a_rum = self.a_octo + nf * NSLOT * NSLOT
        self.a_end = self.a_rum + NSHIP
        self.a_pass = self.a_end + 1
        self.a_crew = self.a_pass + 1
        self.a_pick = self.a_crew + NSHIP
        # The observation tensor, declared once (_observation_layout); the writer's offsets
        # are read from it, and c_observe's last field (picks: own, other) ends the tensor.
        layout = self._observation_layout()
        self.o_seat = layout.offset("seat")
        self.o_phase = layout.offset("phase")
        self.o_decide = layout.offset("to_decide")
        self.o_turn = layout.offset("turn")
        self.o_hand = layout.offset("hand")
        self.o_pile = layout.offset("own_pile")
        self.o_sides = layout.offset("sides")
        self.o_removed = layout.offset("removed")
        self.o_octo = layout.offset("octopus")
        self.o_hand_n = layout.offset("hand_sizes")
        self.o_pile_n = layout.offset("pile_sizes")
        self.o_side_n = layout.offset("side_counts")
        self.o_totals = layout.offset("side_totals")
        self.o_thr = layout.offset("thresholds")
        self.o_status = layout.offset("ship_status")
        self.o_rum = layout.offset("rum")
        self.o_crew = layout.offset("crew")
        self.o_choice = layout.offset("crew_choice")
        self.o_points = layout.offset("points")
        self.o_rum_held = layout.offset("rum_held")
        self.o_octo_held = layout.offset("octopus_held")
        self.o_passes = layout.offset("passes")
        self.o_picks = layout.offset("picks")
        layout.check_end(self.o_picks + 2)
        # The information state is the observation: the table shows every public event.
        self._init_contract(2, self.a_pick + nf, REASONS, layout)
        self.inv_cards = 1.0 / nc
        self.card_infos = None
        self.crew_infos = None

    def face_of(self, card):
        return self.card_face[card]

    def _observation_layout(self):
        """The observation tensor of this configuration, field by field with its range
        (docs/sirens.md, "Observation tensor"; seats as own / other). The ranges follow
        the card set and the variant and hold every observation play can reach."""
        nc = self.num_cards
        values = sorted([self.face_val[self.card_face[c]] for c in range(nc)])
        # A side holds at most SIDE_MAX cards (S5), so its sum lies between the sum of the
        # lowest SIDE_MAX values that are negative and of the highest that are positive.
        lowest = sum([v for v in values[:SIDE_MAX] if v < 0])
        highest = sum([v for v in values[-SIDE_MAX:] if v > 0])
        # The standard game draws from one pile of the cards not dealt (S16); in the variant
        # a seat's pile is its own set of half the cards, whole while it picks (S9).
        variant = self.variant
        pile = nc // 2 if variant else nc - 2 * HAND
        ships = [float(self.ship_val[k]) for k in range(NSHIP)]
        return TensorLayout([
            TensorField("seat", 2, 0.0, 1.0, "one-hot: the seat observing"),
            TensorField("phase", len(PHASES), 0.0, 1.0, "one-hot: pick, main, after, crew, over"),
            TensorField("to_decide", 2, 0.0, 1.0, "own, other: 1 for the seat to decide (both 0 once over)"),
            TensorField("turn", 2, 0.0, 1.0, "own, other: 1 for the turn player"),
            TensorField("hand", nc, 0.0, 1.0, "1 per card id in the own hand"),
            TensorField("own_pile", nc, 0.0, 1.0 if variant else 0.0, "variant: 1 per card id left in the own pile"),
            TensorField("sides", (NSLOT, nc), 0.0, 1.0, "per ship card, own side then other side: 1 per card id"),
            TensorField("removed", nc, 0.0, 1.0, "1 per removed card id"),
            TensorField("octopus", (2, nc), 0.0, 1.0, "own octopus, then the other's: 1 at its card id"),
            TensorField("hand_sizes", 2, 0.0, HAND, "own, other: cards in hand"),
            TensorField("pile_sizes", 2, 0.0, float(pile) / float(nc),
                        "own, other: cards in the pile each seat draws from / C"),
            TensorField("side_counts", NSLOT, 0.0, SIDE_MAX, "cards per side, in the order of sides"),
            TensorField("side_totals", NSLOT, lowest * 0.1, highest * 0.1, "each side's sum of values x 0.1"),
            # Printed value + 3 per rum mug on it, each seat's one mug at most (S3, S6).
            TensorField("thresholds", NSHIP, [v * 0.1 for v in ships], [(v + 6) * 0.1 for v in ships],
                        "per ship card: printed value + 3 per rum mug, x 0.1"),
            TensorField("ship_status", (NSHIP, 4), 0.0, 1.0, "one-hot: in play, won by own, won by other, removed"),
            TensorField("rum", NSHIP, 0.0, 2.0, "rum mugs on each ship card"),
            TensorField("crew", (2, CREW_REMOVED + 1), 0.0, 1.0,
                        "captain, then mate, one-hot: on ship card 0-4, won by own, won by other, removed"),
            TensorField("crew_choice", NSHIP, 0.0, 1.0, "during a crew decision: the two ship cards offered"),
            # The game ends as soon as a seat has 4 (S8); a scored ship card brings at most 2.
            TensorField("points", 2, 0.0, 5.0, "own, other"),
            TensorField("rum_held", 2, 0.0, 1.0, "own, other: 1 while the rum mug is unused"),
            TensorField("octopus_held", 2, 0.0, 1.0, "own, other: 1 while the octopus is off the table"),
            TensorField("passes", 1, 0.0, 2.0, "consecutive passes (two end the game, S4)"),
            TensorField("picks", 2, 0.0, HAND if variant else 0.0, "own, other: starting cards picked (S9)"),
        ])

    def _view_tables(self):
        """The immutable parts of every view, made once: a frozen CardInfo per card and
        octopus (none, seat 0's, seat 1's), a CrewInfo per token and place, the schema's
        Struct classes, the ship values as Python ints."""
        schema = self.schema
        emblems = ("seastar", "shell")
        infos = []
        for c in range(self.num_cards):
            f = self.card_face[c]
            for o in (None, 0, 1):
                infos.append(schema.CardInfo(c, self.face_val[f], self.face_crew[f], emblems[self.card_emblem[c]], o))
        crews = []
        for t in range(2):
            for v in range(CREW_REMOVED + 1):
                crews.append(schema.CrewInfo(
                    CREW_NAMES[t], self.ship_val[v] if v < NSHIP else None,
                    v - CREW_WON if v == CREW_WON or v == CREW_WON + 1 else None, v == CREW_REMOVED))
        self.ship_ints = tuple([self.ship_val[k] for k in range(NSHIP)])
        self.ship_type = schema.ShipInfo
        self.view_type = schema.SirensView
        self.crew_infos = tuple(crews)
        self.card_infos = tuple(infos)






class SirensCore(CoreState):
    """One game position. Subclassed by :class:`cruiselib.sirens.SirensState`."""

    def __init__(self, rules, game=None):
        CoreState.__init__(self, rules, game)
        self.rules = rules

    def c_init_arrays(self):
        if not cython.compiled:
            self.slot_cards = [0] * (NSLOT * SIDE_MAX)
            self.slot_count = [0] * NSLOT
            self.slot_sum = [0] * NSLOT
            self.hand = [0] * (2 * HAND)
            self.hand_count = [0] * 2
            self.pile = [0] * (2 * MAXC)
            self.pile_count = [0] * 2
            self.removed = [0] * MAXC
            self.ship_status = [0] * NSHIP
            self.mugs_on = [0] * NSHIP
            self.rum_mug = [0] * 2
            self.crew = [0] * 2
            self.octopus = [0] * 2
            self.points = [0] * 2
            self.picks = [0] * 2
            self.pick_floor = [0] * 2
            self.crew_choice = [0] * 2
            self.legal_buf = [0] * MAXLEGAL
            self.slot_face_set = [0] * NSLOT
            self.open_at = [0] * NSLOT
            self.open_rank = [0] * NSLOT
            self.slot_face_count = [0] * NSLOT
            self.hand_face_set = [0] * 2
            self.hand_face_count = [0] * 2
            self.octopus_slot = [0] * 2
            self.load_zone = [0] * MAXC

    # ------------------------------------------------------------------ setup

    def _setup(self, rng_state, start_player):
        """Deal a new game (S3; S9 for the variant). start_player < 0: drawn from the seed."""
        self.rng = rng_state  # 64 bits: c_deal's seed, or _new_game's (which masks it)
        # An empty table, and its bookkeeping (what _derive would find): every slot open.
        for i in range(NSLOT):
            self.slot_count[i] = 0
            self.slot_sum[i] = 0
            self.slot_face_set[i] = 0
            self.slot_face_count[i] = 0
            self.open_at[i] = i
            self.open_rank[i] = i
        self.open_mask = (1 << NSLOT) - 1
        self.open_count = NSLOT
        self.faces_all = 0
        self.faces_open = 0
        for i in range(NSHIP):
            self.ship_status[i] = SHIP_IN_PLAY
            self.mugs_on[i] = 0
        self.ships_in_play = NSHIP
        for p in range(2):
            self.hand_count[p] = 0
            self.pile_count[p] = 0
            self.rum_mug[p] = RUM_HELD
            self.octopus[p] = OCTO_HELD
            self.points[p] = 0
            self.picks[p] = 0
            self.pick_floor[p] = 0
            self.octopus_slot[p] = -1
        # S3: captain on 30 (ship 1), mate on 34 (ship 3).
        self.crew[0] = 1
        self.crew[1] = 3
        self.removed_count = 0
        self.passes = 0
        self.pending_ship = -1
        self.pending_side = -1
        self.pending_source = -1
        self.pending_draw = 0
        self.pending_token = -1
        if start_player < 0:
            start_player = _below(self, 2)
        self.start_player = start_player
        self.turn = start_player
        self.to_decide = start_player
        if self.rules.variant:
            # S9: seat 0 gets the emblem-0 set (seastar), seat 1 the emblem-1 set (shell);
            # the sets wait unshuffled in the piles while the seats pick.
            for c in range(self.rules.num_cards):
                e = self.rules.card_emblem[c]
                self.pile[e * MAXC + self.pile_count[e]] = c
                self.pile_count[e] += 1
            self.phase = PH_PICK
        else:
            for c in range(self.rules.num_cards):
                self.pile[c] = c
            self.pile_count[0] = self.rules.num_cards
            _shuffle(self, 0)
            # Four cards each, dealt alternately from the top, start player first.
            for j in range(HAND):
                for i in range(2):
                    p = (start_player + i) % 2
                    self.pile_count[0] -= 1
                    self.hand[p * HAND + self.hand_count[p]] = self.pile[self.pile_count[0]]
                    self.hand_count[p] += 1
            self.phase = PH_MAIN
        _hand_faces(self, 0)
        _hand_faces(self, 1)

    # ------------------------------------------------------------------ queries

    @property
    def turn_player(self):
        """The seat whose turn it is (differs from current_player during a crew choice)."""
        return self.turn

    @property
    def phase_name(self):
        return PHASES[self.phase]

    # ------------------------------------------------------------------ the contract (engine.py)

    def c_current(self):
        return -1 if self.phase == PH_OVER else self.to_decide

    def c_legal_at(self, i):
        return self.legal_buf[i]

    def c_score(self, seat):
        """Victory points: ship cards plus crew tokens (S8)."""
        return self.points[seat]

    def c_winners_mask(self):
        """The seat with more points once the game is over; nobody after a draw (S8)."""
        if self.phase != PH_OVER or self.points[0] == self.points[1]:
            return 0
        return 1 if self.points[0] > self.points[1] else 2

    def c_copy_into(self, dst):
        self._copy_into(cython.cast(SirensCore, dst))

    # ------------------------------------------------------------------ legal moves

    def _has_main(self):
        """Whether the current seat has a main action (a card to play or an octopus move)."""
        return self._seat_has_main(self.to_decide)

    def _seat_has_main(self, p):
        """Whether seat p would have a main action now (S4: else it may only pass)."""
        if self.ships_in_play == 0:
            return False
        if self.hand_count[p] > 0:
            return True  # every ship in play has a side with room (5+5 would have scored)
        if self.octopus[p] != OCTO_HELD:
            return False
        opp_octo = self.octopus[1 - p]
        # A movable card exists and some other slot has room.
        for s in range(NSLOT):
            for i in range(self.slot_count[s]):
                c = self.slot_cards[s * SIDE_MAX + i]
                if c != opp_octo:
                    for d in range(NSLOT):
                        if d != s and self.ship_status[d >> 1] == SHIP_IN_PLAY and self.slot_count[d] < SIDE_MAX:
                            return True
                    break
        return False

    def c_legal(self):
        """Write the sorted legal action ids into self.legal_buf; return their count."""
        n = 0
        F = self.rules.num_faces
        if not cython.compiled:
            fs = [0] * SIDE_MAX
            opens = [0] * NSLOT
        if self.phase == PH_MAIN:
            nopen = 0
            for s in range(NSLOT):
                if self.ship_status[s >> 1] == SHIP_IN_PLAY and self.slot_count[s] < SIDE_MAX:
                    opens[nopen] = s
                    nopen += 1
            # Play a card: one action per distinct face in hand (copies are interchangeable).
            nf = 0
            for i in range(self.hand_count[self.to_decide]):
                f = self.rules.card_face[self.hand[self.to_decide * HAND + i]]
                j = nf
                while j > 0 and fs[j - 1] > f:
                    fs[j] = fs[j - 1]
                    j -= 1
                if j > 0 and fs[j - 1] == f:
                    while j < nf:  # undo the shift: duplicate face
                        fs[j] = fs[j + 1]
                        j += 1
                    continue
                fs[j] = f
                nf += 1
            for i in range(nf):
                base = self.rules.a_play + fs[i] * NSLOT
                for k in range(nopen):
                    self.legal_buf[n] = base + opens[k]
                    n += 1
            # Octopus (S7): any card in play without the opponent's octopus, to another slot.
            if self.octopus[self.to_decide] == OCTO_HELD:
                opp_octo = self.octopus[1 - self.to_decide]
                for s in range(NSLOT):
                    nf = 0
                    for i in range(self.slot_count[s]):
                        c = self.slot_cards[s * SIDE_MAX + i]
                        if c == opp_octo:
                            continue
                        f = self.rules.card_face[c]
                        j = nf
                        while j > 0 and fs[j - 1] > f:
                            fs[j] = fs[j - 1]
                            j -= 1
                        if j > 0 and fs[j - 1] == f:
                            while j < nf:
                                fs[j] = fs[j + 1]
                                j += 1
                            continue
                        fs[j] = f
                        nf += 1
                    for i in range(nf):
                        base = self.rules.a_octo + (s * F + fs[i]) * NSLOT
                        for k in range(nopen):
                            d = opens[k]
                            if d != s:
                                self.legal_buf[n] = base + d
                                n += 1
            main = n > 0
            if self.rum_mug[self.to_decide] == RUM_HELD:
                for k in range(NSHIP):
                    if self.ship_status[k] == SHIP_IN_PLAY:
                        self.legal_buf[n] = self.rules.a_rum + k
                        n += 1
            if not main:
                self.legal_buf[n] = self.rules.a_pass
                n += 1
        elif self.phase == PH_AFTER:
            for k in range(NSHIP):
                if self.ship_status[k] == SHIP_IN_PLAY:
                    self.legal_buf[n] = self.rules.a_rum + k
                    n += 1
            self.legal_buf[n] = self.rules.a_end
            n += 1
        elif self.phase == PH_CREW:
            if self.crew_choice[0] < self.crew_choice[1]:
                self.legal_buf[n] = self.rules.a_crew + self.crew_choice[0]
                self.legal_buf[n + 1] = self.rules.a_crew + self.crew_choice[1]
            else:
                self.legal_buf[n] = self.rules.a_crew + self.crew_choice[1]
                self.legal_buf[n + 1] = self.rules.a_crew + self.crew_choice[0]
            n += 2
        elif self.phase == PH_PICK:
            # Faces still in the seat's set, from the floor upward (ascending picks, S9),
            # keeping enough cards at or above the face to complete the hand.
            for f in range(self.pick_floor[self.to_decide], F):
                if self._pick_ok(f):
                    self.legal_buf[n] = self.rules.a_pick + f
                    n += 1
        return n

    def _derive(self):
        """Recompute the bookkeeping the play path keeps up to date (open slots, the faces
        on each slot and in each hand, where each octopus sits) from the arrays."""
        self.open_mask = 0
        self.open_count = 0
        self.faces_all = 0
        self.faces_open = 0
        for s in range(NSLOT):
            _slot_faces(self, s)
            self.faces_all += self.slot_face_count[s]
            if self.ship_status[s >> 1] == SHIP_IN_PLAY and self.slot_count[s] < SIDE_MAX:
                self.open_mask |= 1 << s
                self.open_count += 1
                self.faces_open += self.slot_face_count[s]
        _open_list(self)
        for p in range(2):
            _hand_faces(self, p)
            self.octopus_slot[p] = -1
            if self.octopus[p] >= 0:
                for s in range(NSLOT):
                    for i in range(self.slot_count[s]):
                        if self.slot_cards[s * SIDE_MAX + i] == self.octopus[p]:
                            self.octopus_slot[p] = s

    def c_random_action(self, r):
        """A uniformly random legal action, from the 64-bit random value r: the k-th of the
        sorted legal actions, k = ((r >> 32) * n) >> 32, found without listing them."""
        if self.phase == PH_MAIN:
            n = _main_count(self)
            return _main_kth(self, ((r >> 32) * n) >> 32)
        if self.phase == PH_AFTER:  # the rum mug on a ship card in play, or end the turn
            k = ((r >> 32) * (self.ships_in_play + 1)) >> 32
            for s in range(NSHIP):
                if self.ship_status[s] == SHIP_IN_PLAY:
                    if k == 0:
                        return self.rules.a_rum + s
                    k -= 1
            return self.rules.a_end
        if self.phase == PH_CREW:  # two destinations
            k = (r >> 32) >> 31
            if (self.crew_choice[0] < self.crew_choice[1]) == (k == 0):
                return self.rules.a_crew + self.crew_choice[0]
            return self.rules.a_crew + self.crew_choice[1]
        if self.phase == PH_PICK:
            return self.rules.a_pick + _pick_kth(self, r)
        return -1  # the game is over: nothing to choose (random_action refuses before)

    def _fast_legal(self):
        """Every legal action as _main_kth lists them (a test oracle for the fast path)."""
        if self.phase != PH_MAIN:
            return self.legal_actions()
        n = _main_count(self)
        return [_main_kth(self, k) for k in range(n)]

    def c_check(self, a):
        """R_LEGAL (0) if action a is legal now, else the code (R_*) of why not, its index
        into REASONS. Never mutates."""
        if self.phase == PH_OVER:
            return R_GAME_OVER
        if a < self.rules.a_octo:  # play a card
            if self.phase != PH_MAIN:
                return R_WRONG_PHASE
            f = a // NSLOT
            s = a % NSLOT
            for i in range(self.hand_count[self.to_decide]):
                if self.rules.card_face[self.hand[self.to_decide * HAND + i]] == f:
                    break
            else:
                return R_FACE_NOT_IN_HAND
            if self.ship_status[s >> 1] != SHIP_IN_PLAY:
                return R_SHIP_NOT_IN_PLAY
            if self.slot_count[s] >= SIDE_MAX:
                return R_SIDE_FULL
            return R_LEGAL
        if a < self.rules.a_rum:  # octopus
            if self.phase != PH_MAIN:
                return R_WRONG_PHASE
            if self.octopus[self.to_decide] != OCTO_HELD:
                return R_OCTOPUS_USED
            r = a - self.rules.a_octo
            d = r % NSLOT
            r = r // NSLOT
            f = r % self.rules.num_faces
            s = r // self.rules.num_faces
            if self.ship_status[s >> 1] != SHIP_IN_PLAY:
                return R_SHIP_NOT_IN_PLAY
            for i in range(self.slot_count[s]):
                if (self.rules.card_face[self.slot_cards[s * SIDE_MAX + i]] == f
                        and self.slot_cards[s * SIDE_MAX + i] != self.octopus[1 - self.to_decide]):
                    break
            else:
                return R_NO_CARD_TO_MOVE
            if d == s:
                return R_SAME_PLACE
            if self.ship_status[d >> 1] != SHIP_IN_PLAY:
                return R_SHIP_NOT_IN_PLAY
            if self.slot_count[d] >= SIDE_MAX:
                return R_SIDE_FULL
            return R_LEGAL
        if a < self.rules.a_end:  # rum
            if self.phase != PH_MAIN and self.phase != PH_AFTER:
                return R_WRONG_PHASE
            if self.rum_mug[self.to_decide] != RUM_HELD:
                return R_RUM_USED
            if self.ship_status[a - self.rules.a_rum] != SHIP_IN_PLAY:
                return R_SHIP_NOT_IN_PLAY
            return R_LEGAL
        if a == self.rules.a_end:
            return R_LEGAL if self.phase == PH_AFTER else R_END_TOO_EARLY
        if a == self.rules.a_pass:
            if self.phase != PH_MAIN:
                return R_WRONG_PHASE
            return R_PASS_NOT_ALLOWED if self._has_main() else R_LEGAL
        if a < self.rules.a_pick:  # crew
            if self.phase != PH_CREW:
                return R_WRONG_PHASE
            k = a - self.rules.a_crew
            return R_LEGAL if k == self.crew_choice[0] or k == self.crew_choice[1] else R_CREW_CANNOT_MOVE_THERE
        # pick
        if self.phase != PH_PICK:
            return R_WRONG_PHASE
        f = a - self.rules.a_pick
        if f < self.pick_floor[self.to_decide] or not self._pick_ok(f):
            return R_CANNOT_PICK
        return R_LEGAL

    def _pick_ok(self, f):
        """Whether the current seat may pick face f now: one is left, and enough cards of
        face >= f remain to finish the hand in ascending order (so picks never dead-end)."""
        have = 0
        above = 0
        for i in range(self.pile_count[self.to_decide]):
            c = self.rules.card_face[self.pile[self.to_decide * MAXC + i]]
            if c == f:
                have = 1
            if c >= f:
                above += 1
        return have == 1 and above >= HAND - self.picks[self.to_decide]

    # ------------------------------------------------------------------ applying

    def c_do(self, a):
        if a < self.rules.a_octo:  # play a card, then draw (S4)
            f = a // NSLOT
            s = a % NSLOT
            c = _take_from_hand(self, self.to_decide, f)
            _place(self, s, c)
            self.passes = 0
            _resolve(self, s >> 1, s & 1, c, -1, 1)
        elif a < self.rules.a_rum:  # octopus (S7): no card is drawn
            r = a - self.rules.a_octo
            d = r % NSLOT
            r = r // NSLOT
            f = r % self.rules.num_faces
            s = r // self.rules.num_faces
            c = _take_from_slot(self, s, f)
            _place(self, d, c)
            self.octopus[self.to_decide] = c
            self.octopus_slot[self.to_decide] = d
            self.passes = 0
            _resolve(self, d >> 1, d & 1, c, s >> 1, 0)
        elif a < self.rules.a_end:  # rum mug (S4, S6): +3 to the threshold, once per game
            k = a - self.rules.a_rum
            self.rum_mug[self.to_decide] = k
            self.mugs_on[k] += 1
            if self.phase == PH_AFTER:
                _next_turn(self)
        elif a == self.rules.a_end:
            _next_turn(self)
        elif a == self.rules.a_pass:  # S4: two passes in a row end the game
            self.passes += 1
            if self.passes >= 2:
                self.phase = PH_OVER
            else:
                _next_turn(self)
        elif a < self.rules.a_pick:  # crew destination chosen by the side's owner (S5 step 2)
            k = a - self.rules.a_crew
            self.crew[self.pending_token] = k
            self.phase = PH_MAIN
            self.to_decide = self.turn
            ship = self.pending_ship
            src = self.pending_source
            draw = self.pending_draw
            self.pending_ship = -1  # nothing pending any more (the play path keeps it so)
            self.pending_side = -1
            self.pending_source = -1
            self.pending_draw = 0
            self.pending_token = -1
            _finish_placement(self, ship, src, draw)
        else:  # pick a starting card (S9), ascending face order
            f = a - self.rules.a_pick
            c = _take_from_pile(self, self.to_decide, f)
            self.hand[self.to_decide * HAND + self.hand_count[self.to_decide]] = c
            self.hand_count[self.to_decide] += 1
            if not (self.hand_face_set[self.to_decide] >> f) & 1:
                self.hand_face_set[self.to_decide] |= BIT32 << f
                self.hand_face_count[self.to_decide] += 1
            self.pick_floor[self.to_decide] = f
            self.picks[self.to_decide] += 1
            if self.picks[self.to_decide] == HAND:
                if self.to_decide == self.start_player:
                    self.to_decide = 1 - self.start_player
                else:
                    _shuffle(self, 0)
                    _shuffle(self, 1)
                    self.phase = PH_MAIN
                    self.to_decide = self.start_player
                    self.turn = self.start_player

    # ------------------------------------------------------------------ copying

    def _copy_into(self, new):
        new.rules = self.rules
        new.game = self.game
        new.rng = self.rng
        new.phase = self.phase
        new.turn = self.turn
        new.to_decide = self.to_decide
        new.start_player = self.start_player
        new.passes = self.passes
        new.ships_in_play = self.ships_in_play
        for i in range(NSLOT):
            new.slot_count[i] = self.slot_count[i]
            new.slot_sum[i] = self.slot_sum[i]
        for i in range(NSLOT * SIDE_MAX):
            new.slot_cards[i] = self.slot_cards[i]
        for i in range(2 * HAND):
            new.hand[i] = self.hand[i]
        for p in range(2):
            new.hand_count[p] = self.hand_count[p]
            new.pile_count[p] = self.pile_count[p]
            for i in range(self.pile_count[p]):
                new.pile[p * MAXC + i] = self.pile[p * MAXC + i]
            new.rum_mug[p] = self.rum_mug[p]
            new.crew[p] = self.crew[p]
            new.octopus[p] = self.octopus[p]
            new.points[p] = self.points[p]
            new.picks[p] = self.picks[p]
            new.pick_floor[p] = self.pick_floor[p]
            new.crew_choice[p] = self.crew_choice[p]
        for i in range(self.removed_count):
            new.removed[i] = self.removed[i]
        new.removed_count = self.removed_count
        for i in range(NSHIP):
            new.ship_status[i] = self.ship_status[i]
            new.mugs_on[i] = self.mugs_on[i]
        new.pending_ship = self.pending_ship
        new.pending_side = self.pending_side
        new.pending_source = self.pending_source
        new.pending_draw = self.pending_draw
        new.pending_token = self.pending_token
        new.open_mask = self.open_mask
        for i in range(NSLOT):
            new.open_at[i] = self.open_at[i]
            new.open_rank[i] = self.open_rank[i]
        new.open_count = self.open_count
        new.faces_all = self.faces_all
        new.faces_open = self.faces_open
        for i in range(NSLOT):
            new.slot_face_set[i] = self.slot_face_set[i]
            new.slot_face_count[i] = self.slot_face_count[i]
        for p in range(2):
            new.hand_face_set[p] = self.hand_face_set[p]
            new.hand_face_count[p] = self.hand_face_count[p]
            new.octopus_slot[p] = self.octopus_slot[p]

    # ------------------------------------------------------------------ hidden information
    # What a seat sees (docs/sirens.md, "Views and hidden information"): the table, its own
    # hand, every hand and pile size, the removed cards, and in the variant its own
    # remaining cards but not their order. Hidden: the other hand, every pile order, and
    # during the pick phase the other seat's picks.

    def c_resample(self, seat, recall):
        """Deal anew, from self.rng, every card ``seat`` cannot see (uniformly; the other
        seat's picks the way picking makes them). ``recall`` changes nothing: perfect recall
        knows no more than the table shows (docs/sirens.md).

        The deal depends on the unseen cards as a set, never on the hidden order they lie
        in: every pool is put in card id order before it is shuffled. The other seat's
        pick floor, hidden after the picks, is set to a canonical value, and the own hand
        is put in card id order as the view shows it (its order matters to no rule)."""
        opp = 1 - seat
        if not self.rules.variant:
            # One shared pile: the other hand and the pile are one unseen pool (S16).
            _sort_hand(self, seat)
            self._redeal(opp, 0)
            _hand_faces(self, opp)
            return
        if self.phase != PH_PICK:
            # Each seat's own set (S9): its own pile is known as a set, not in order; the
            # other seat's hand and pile are one unseen pool. (During the picks the hands
            # stay in pick order, which the loader checks.)
            _sort_hand(self, seat)
            _sort_pile(self, seat)
            _shuffle(self, seat)
            self._redeal(opp, opp)
            _hand_faces(self, opp)
            # The other seat's floor (the face of its fourth pick) is hidden and no rule
            # reads it after the picks: a canonical value.
            self.pick_floor[opp] = self._lowest_floor(opp)
            return
        self._repick(opp)

    def _lowest_floor(self, p):
        """The lowest face a fourth pick of seat p's set can have (the loader's test, S14):
        the face of the set's fourth card in face order."""
        if not cython.compiled:
            cnt = [0] * MAXF
        F = self.rules.num_faces
        for f in range(F):
            cnt[f] = 0
        for c in range(self.rules.num_cards):
            cnt[self.rules.card_face[c]] += self.rules.card_emblem[c] == p
        above = 0
        f = 0
        while True:  # ends: the set has at least HAND cards (SirensRules)
            above += cnt[f]
            if above >= HAND:
                break
            f += 1
        return f

    def _repick(self, opp):
        """c_resample in the pick phase (S14, S15): the other seat's picks so far are made
        anew as picking makes them. Its set, hand and pile together, waits in card id
        order; each pick is a uniform choice among the faces offered at that point (at or
        above the last pick, with enough cards at or above it to finish the hand), taking
        the lowest card id of that face (S12)."""
        if not cython.compiled:
            pool = [0] * MAXC
            cnt = [0] * (MAXF + 1)
        n = 0
        for i in range(self.hand_count[opp]):
            pool[n] = self.hand[opp * HAND + i]
            n += 1
        for i in range(self.pile_count[opp]):
            pool[n] = self.pile[opp * MAXC + i]
            n += 1
        for i in range(1, n):  # insertion sort: at most 32 cards
            c = pool[i]
            j = i
            while j > 0 and pool[j - 1] > c:
                pool[j] = pool[j - 1]
                j -= 1
            pool[j] = c
        F = self.rules.num_faces
        picks = self.hand_count[opp]
        floor = 0
        for k in range(picks):
            for f in range(F + 1):
                cnt[f] = 0
            for i in range(n):
                cnt[self.rules.card_face[pool[i]]] += 1
            # cnt[f] becomes the number of cards of face >= f; a face is offered when it
            # is present, at or above the floor, and leaves enough cards to finish.
            above = 0
            m = 0
            for f in range(F - 1, floor - 1, -1):
                have = cnt[f]
                above += have
                cnt[f] = 0
                if have > 0 and above >= HAND - k:
                    cnt[f] = 1
                    m += 1
            if m == 0:
                break  # never: the real picks were made from these cards
            r = self.c_below(m)
            f = floor
            while True:
                if cnt[f]:
                    if r == 0:
                        break
                    r -= 1
                f += 1
            floor = f
            for i in range(n):  # the lowest card id of that face: the first in id order
                if self.rules.card_face[pool[i]] == f:
                    self.hand[opp * HAND + k] = pool[i]
                    for j in range(i, n - 1):
                        pool[j] = pool[j + 1]
                    n -= 1
                    break
        self.pick_floor[opp] = floor
        for i in range(n):
            self.pile[opp * MAXC + i] = pool[i]
        self.pile_count[opp] = n
        _hand_faces(self, opp)

    def _redeal(self, p, q):
        """Seat p's hand and pile q, shuffled together and dealt back at their sizes."""
        if not cython.compiled:
            pool = [0] * MAXC
        # The pool in card id order (a 64-bit set read upward), not in the hidden order
        # the cards lie in: the deal then depends on which cards are unseen and the
        # generator only.
        m = 0
        for i in range(self.pile_count[q]):
            m |= BIT64 << self.pile[q * MAXC + i]
        for i in range(self.hand_count[p]):
            m |= BIT64 << self.hand[p * HAND + i]
        n = 0
        c = 0
        while m:  # no branch on the bit (a random pattern): write, then keep or not
            pool[n] = c
            n += m & 1
            m >>= 1
            c += 1
        i = n - 1
        while i > 0:  # Fisher-Yates: every order equally likely
            j = self.c_below(i + 1)
            c = pool[i]
            pool[i] = pool[j]
            pool[j] = c
            i -= 1
        for i in range(self.pile_count[q]):
            self.pile[q * MAXC + i] = pool[i]
        for i in range(self.hand_count[p]):
            self.hand[p * HAND + i] = pool[self.pile_count[q] + i]

    def _view(self, seat, recall):
        """Seat ``seat``'s view (a SirensView), built straight from the arrays. Lists are
        made at their final size (no appends): most of a view's cost is its ~40 lists.
        ``recall`` adds nothing: the table shows every public event (docs/sirens.md)."""
        R = self.rules
        if R.card_infos is None:
            R._view_tables()
        infos = R.card_infos
        # The own hand (and the own pile) in card id order: a 64-bit set, read upward.
        n = self.hand_count[seat]
        m = 0
        for i in range(n):
            m |= BIT64 << self.hand[seat * HAND + i]
        hand = _infos_in_id_order(infos, m, n)
        own_pile = None
        if R.variant:
            n = self.pile_count[seat]
            m = 0
            for i in range(n):
                m |= BIT64 << self.pile[seat * MAXC + i]
            own_pile = _infos_in_id_order(infos, m, n)
            pile_sizes = [self.pile_count[0], self.pile_count[1]]
        else:
            pile_sizes = [self.pile_count[0]]
        o0 = self.octopus[0]
        o1 = self.octopus[1]
        ships = [None] * NSHIP
        for k in range(NSHIP):
            ships[k] = self._view_ship(k, infos)
        n = self.removed_count
        removed = [None] * n
        for i in range(n):
            removed[i] = infos[3 * self.removed[i]]
        choice = None
        if self.phase == PH_CREW:
            a = R.ship_val[self.crew_choice[0]]
            b = R.ship_val[self.crew_choice[1]]
            choice = [a, b] if a < b else [b, a]
        cur = self.c_current()
        if cur == seat:
            n = self.c_legal()
            legal = [None] * n
            for i in range(n):
                legal[i] = R.action_ints[self.legal_buf[i]]
        else:
            legal = []
        return R.view_type(
            player=seat,
            variant="bow_to_rear" if R.variant else "standard",
            phase=PHASES[self.phase],
            current_player=cur,
            turn_player=self.turn,
            hand=hand,
            hand_sizes=[self.hand_count[0], self.hand_count[1]],
            pile_sizes=pile_sizes,
            own_pile=own_pile,
            ships=ships,
            crew=[R.crew_infos[self.crew[0]], R.crew_infos[CREW_REMOVED + 1 + self.crew[1]]],
            points=[self.points[0], self.points[1]],
            rum_held=[self.rum_mug[0] == RUM_HELD, self.rum_mug[1] == RUM_HELD],
            octopus_held=[o0 == OCTO_HELD, o1 == OCTO_HELD],
            removed=removed,
            crew_choice=choice,
            passes=self.passes,
            picks=[self.picks[0], self.picks[1]],
            legal_actions=legal,
        )

    def _view_ship(self, k, infos):
        """Ship card k as a view shows it (a ShipInfo): its cards with their octopuses."""
        R = self.rules
        o0 = self.octopus[0]
        o1 = self.octopus[1]
        st = self.ship_status[k]
        rc = (self.rum_mug[0] == k) + (self.rum_mug[1] == k)
        if self.crew[0] == k:
            crew = ["captain", "mate"] if self.crew[1] == k else ["captain"]
        else:
            crew = ["mate"] if self.crew[1] == k else []
        s = 2 * k
        n = self.slot_count[s]
        side0 = [None] * n
        for i in range(n):
            c = self.slot_cards[s * SIDE_MAX + i]
            side0[i] = infos[3 * c + (1 if c == o0 else 2 if c == o1 else 0)]
        s += 1
        n = self.slot_count[s]
        side1 = [None] * n
        for i in range(n):
            c = self.slot_cards[s * SIDE_MAX + i]
            side1[i] = infos[3 * c + (1 if c == o0 else 2 if c == o1 else 0)]
        return R.ship_type(
            R.ship_ints[k], st == SHIP_IN_PLAY, st if st == 0 or st == 1 else None, st == SHIP_REMOVED,
            rc, R.ship_val[k] + 3 * rc, crew, [side0, side1], [self.slot_sum[s - 1], self.slot_sum[s]])

    def c_observe(self, seat, out):
        """Seat ``seat``'s observation tensor (layout: SirensRules._observation_layout and
        docs/sirens.md): made only of what view(seat) shows, seats as own / other."""
        opp = 1 - seat
        nc = self.rules.num_cards
        out[self.rules.o_seat + seat] = 1.0
        out[self.rules.o_phase + self.phase] = 1.0
        if self.phase != PH_OVER:
            out[self.rules.o_decide + (0 if self.to_decide == seat else 1)] = 1.0
        out[self.rules.o_turn + (0 if self.turn == seat else 1)] = 1.0
        for i in range(self.hand_count[seat]):
            out[self.rules.o_hand + self.hand[seat * HAND + i]] = 1.0
        if self.rules.variant:
            for i in range(self.pile_count[seat]):
                out[self.rules.o_pile + self.pile[seat * MAXC + i]] = 1.0
        for s in range(NSLOT):
            # relative slot: ship * 2 + (0 own side, 1 other side)
            r = (s & ~1) | ((s & 1) ^ seat)
            b = self.rules.o_sides + r * nc
            for i in range(self.slot_count[s]):
                out[b + self.slot_cards[s * SIDE_MAX + i]] = 1.0
            out[self.rules.o_side_n + r] = self.slot_count[s]
            out[self.rules.o_totals + r] = self.slot_sum[s] * 0.1
        for i in range(self.removed_count):
            out[self.rules.o_removed + self.removed[i]] = 1.0
        if self.octopus[seat] >= 0:
            out[self.rules.o_octo + self.octopus[seat]] = 1.0
        if self.octopus[opp] >= 0:
            out[self.rules.o_octo + nc + self.octopus[opp]] = 1.0
        out[self.rules.o_hand_n] = self.hand_count[seat]
        out[self.rules.o_hand_n + 1] = self.hand_count[opp]
        if self.rules.variant:
            out[self.rules.o_pile_n] = self.pile_count[seat] * self.rules.inv_cards
            out[self.rules.o_pile_n + 1] = self.pile_count[opp] * self.rules.inv_cards
        else:
            out[self.rules.o_pile_n] = self.pile_count[0] * self.rules.inv_cards
            out[self.rules.o_pile_n + 1] = self.pile_count[0] * self.rules.inv_cards
        for k in range(NSHIP):
            rc = (self.rum_mug[0] == k) + (self.rum_mug[1] == k)
            out[self.rules.o_thr + k] = (self.rules.ship_val[k] + 3 * rc) * 0.1
            out[self.rules.o_rum + k] = rc
            st = self.ship_status[k]
            if st == SHIP_IN_PLAY:
                out[self.rules.o_status + 4 * k] = 1.0
            elif st == SHIP_REMOVED:
                out[self.rules.o_status + 4 * k + 3] = 1.0
            else:
                out[self.rules.o_status + 4 * k + (1 if st == seat else 2)] = 1.0
        for t in range(2):
            v = self.crew[t]
            if v == CREW_WON or v == CREW_WON + 1:
                v = CREW_WON if v - CREW_WON == seat else CREW_WON + 1
            out[self.rules.o_crew + 8 * t + v] = 1.0
        if self.phase == PH_CREW:
            out[self.rules.o_choice + self.crew_choice[0]] = 1.0
            out[self.rules.o_choice + self.crew_choice[1]] = 1.0
        out[self.rules.o_points] = self.points[seat]
        out[self.rules.o_points + 1] = self.points[opp]
        out[self.rules.o_rum_held] = 1.0 if self.rum_mug[seat] == RUM_HELD else 0.0
        out[self.rules.o_rum_held + 1] = 1.0 if self.rum_mug[opp] == RUM_HELD else 0.0
        out[self.rules.o_octo_held] = 1.0 if self.octopus[seat] == OCTO_HELD else 0.0
        out[self.rules.o_octo_held + 1] = 1.0 if self.octopus[opp] == OCTO_HELD else 0.0
        out[self.rules.o_passes] = self.passes
        out[self.rules.o_picks] = self.picks[seat]
        out[self.rules.o_picks + 1] = self.picks[opp]

    # ------------------------------------------------------------------ raw access
    # Used by the Python layer for serialization, views and resampling; not hot.

    def _get_raw(self):
        """A dict of plain Python values describing the full state."""
        R = self.rules
        return {
            "rng": self.rng,
            "phase": self.phase,
            "start": self.start_player,
            "turn": self.turn,
            "cur": self.to_decide,
            "passes": self.passes,
            "hands": [[self.hand[p * HAND + i] for i in range(self.hand_count[p])] for p in range(2)],
            "piles": [[self.pile[p * MAXC + i] for i in range(self.pile_count[p])]
                      for p in range(2 if R.variant else 1)],
            "sides": [[[self.slot_cards[(2 * k + j) * SIDE_MAX + i]
                        for i in range(self.slot_count[2 * k + j])] for j in range(2)]
                      for k in range(NSHIP)],
            "ship_status": [self.ship_status[k] for k in range(NSHIP)],
            "rum": [self.rum_mug[0], self.rum_mug[1]],
            "crew": [self.crew[0], self.crew[1]],
            "octo": [self.octopus[0], self.octopus[1]],
            "removed": [self.removed[i] for i in range(self.removed_count)],
            "picks": [self.picks[0], self.picks[1]],
            "pick_floor": [self.pick_floor[0], self.pick_floor[1]],
            "pending": None if self.phase != PH_CREW else
            (self.pending_ship, self.pending_side, self.pending_source, self.pending_draw),
        }

    def _export(self):
        """The full state as a SirensStateData Struct (built here: the hot half of to_json)."""
        R = self.rules
        schema = R.schema
        pending = None
        if self.phase == PH_CREW:
            pending = schema.Pending(self.pending_ship, self.pending_side, self.pending_source, self.pending_draw != 0)
        return schema.SirensStateData(
            schema_version=schema.SCHEMA_VERSION,
            game=R.game_name,
            variant="bow_to_rear" if R.variant else "standard",
            card_set=R.digest,
            rng=schema.rng_to_text(self.rng),
            phase=PHASES[self.phase],
            start_player=self.start_player,
            turn=self.turn,
            current_player=-1 if self.phase == PH_OVER else self.to_decide,
            hands=[[self.hand[p * HAND + i] for i in range(self.hand_count[p])] for p in range(2)],
            piles=[[self.pile[p * MAXC + i] for i in range(self.pile_count[p])]
                   for p in range(2 if R.variant else 1)],
            sides=[[[self.slot_cards[(2 * k + j) * SIDE_MAX + i]
                     for i in range(self.slot_count[2 * k + j])] for j in range(2)]
                   for k in range(NSHIP)],
            ships=[self.ship_status[k] for k in range(NSHIP)],
            rum=[self.rum_mug[0], self.rum_mug[1]],
            crew=[self.crew[0], self.crew[1]],
            octopus=[self.octopus[0], self.octopus[1]],
            removed=[self.removed[i] for i in range(self.removed_count)],
            passes=self.passes,
            picks=[self.picks[0], self.picks[1]],
            pick_floor=[self.pick_floor[0], self.pick_floor[1]],
            pending=pending,
        )

    def _load_checked(self, d, history):
        """Check the decoded SirensStateData ``d`` and load it: sirens_snapshot.load_checked
        (the checks and their error texts live there, beside set_raw, the one way a full
        state is written into the core)."""
        global _snapshot
        if _snapshot is None:
            from . import sirens_snapshot

            _snapshot = sirens_snapshot
        _snapshot.load_checked(self, d, history)

    def _crew_options(self, ship, token):
        """The two crew destinations (toward the bow, toward the rear) from ``ship``."""
        return (_crew_dest(self, ship, -1, token), _crew_dest(self, ship, 1, token))

# ---------------------------------------------------------------------- the play path
# Module-level functions of a state (not methods): compiled, they are called directly
# and inlined instead of through the class's method table.

def _pile_of(self, seat):
    # Standard game: one shared draw pile. Variant (S9): each seat draws from its own.
    return seat if self.rules.variant else 0


def _take_from_hand(self, seat, f):
    """Remove and return the lowest-id card of face f from seat's hand."""
    best = MAXC
    bi = -1
    same = 0  # cards of face f in the hand
    for i in range(self.hand_count[seat]):  # no branch on the face: which card matches is random
        c = self.hand[seat * HAND + i]
        eq = self.rules.card_face[c] == f
        same += eq
        better = eq & (c < best)
        best += (c - best) * better
        bi += (i - bi) * better
    self.hand_count[seat] -= 1
    self.hand[seat * HAND + bi] = self.hand[seat * HAND + self.hand_count[seat]]
    if same == 1:  # the last of its face
        self.hand_face_set[seat] &= ~(BIT32 << f)
        self.hand_face_count[seat] -= 1
    return best


def _take_from_slot(self, s, f):
    """Remove and return the lowest-id movable card of face f from slot s."""
    best = -1
    bi = -1
    opp_octo = self.octopus[1 - self.to_decide]
    n = self.slot_count[s]
    for i in range(n):
        c = self.slot_cards[s * SIDE_MAX + i]
        if self.rules.card_face[c] == f and c != opp_octo and (best < 0 or c < best):
            best = c
            bi = i
    for i in range(bi, n - 1):  # keep the order of the rest
        self.slot_cards[s * SIDE_MAX + i] = self.slot_cards[s * SIDE_MAX + i + 1]
    self.slot_count[s] = n - 1
    self.slot_sum[s] -= self.rules.face_val[f]
    nf = self.slot_face_count[s]
    if (self.open_mask >> s) & 1:
        self.faces_open -= nf
    else:  # it had 5 cards; its ship card is in play (the octopus took a card from it)
        self.open_mask |= 1 << s
        self.open_count += 1
        _open_list(self)
    _slot_faces(self, s)
    self.faces_all += self.slot_face_count[s] - nf
    self.faces_open += self.slot_face_count[s]
    return best


def _take_from_pile(self, p, f):
    """Remove and return the lowest-id card of face f from pile p (variant picks): the
    first one, since the sets wait in card id order until the picks end (S15)."""
    bi = 0
    while self.rules.card_face[self.pile[p * MAXC + bi]] != f:
        bi += 1
    best = self.pile[p * MAXC + bi]
    for i in range(bi, self.pile_count[p] - 1):
        self.pile[p * MAXC + i] = self.pile[p * MAXC + i + 1]
    self.pile_count[p] -= 1
    return best


def _place(self, s, c):
    f = self.rules.card_face[c]
    self.slot_cards[s * SIDE_MAX + self.slot_count[s]] = c
    self.slot_count[s] += 1
    self.slot_sum[s] += self.rules.face_val[f]
    if not (self.slot_face_set[s] >> f) & 1:
        self.slot_face_set[s] |= BIT32 << f
        self.slot_face_count[s] += 1
        self.faces_all += 1
        self.faces_open += 1  # the slot had room
    if self.slot_count[s] == SIDE_MAX:
        self.open_mask &= ~(1 << s)
        self.open_count -= 1
        self.faces_open -= self.slot_face_count[s]
        _open_list(self)


def _resolve(self, ship, side, card, src, draw):
    """S5: resolve a placement on ``ship`` (card limit was checked before)."""
    # One test for the rare case (a move-crew icon on a ship card with a token), not two
    # unpredictable ones.
    if self.rules.face_crew[self.rules.card_face[card]] & ((self.crew[0] == ship) | (self.crew[1] == ship)):
        t = -1
        if self.crew[0] == ship:
            t = 0
        elif self.crew[1] == ship:
            t = 1
        if t >= 0:
            in_play = (self.crew[0] < NSHIP) + (self.crew[1] < NSHIP)
            if self.ships_in_play != in_play:  # S5: no move when ships in play == crew in play
                k0 = _crew_dest(self, ship, -1, t)
                k1 = _crew_dest(self, ship, 1, t)
                if k0 == k1:
                    self.crew[t] = k0  # one destination: nothing to decide
                else:
                    self.phase = PH_CREW
                    self.to_decide = side
                    self.pending_ship = ship
                    self.pending_side = side
                    self.pending_source = src
                    self.pending_draw = draw
                    self.pending_token = t
                    self.crew_choice[0] = k0
                    self.crew_choice[1] = k1
                    return
    _finish_placement(self, ship, src, draw)


def _finish_placement(self, ship, src, draw):
    # S5 step 3: destination first, then the octopus' source ship.
    if _check_score(self, ship):
        return
    if src >= 0 and src != ship and _check_score(self, src):
        return
    if draw:
        _draw(self)  # S4: drawn after the placement fully resolved
    _end_main(self)


def crew_destination(self, ship, direction, token):
    """Where the crew token ``token`` on ``ship`` goes, toward the bow (direction -1) or
    the rear (+1): _crew_dest, not inlined, for sirens_snapshot (which cimports it)."""
    return _crew_dest(self, ship, direction, token)


def _crew_dest(self, ship, direction, token):
    # S2: the ring closes and removed ship cards leave no gap; S5: skip the other token.
    k = _next_alive(self, ship, direction)
    if self.crew[1 - token] == k:
        k = _next_alive(self, k, direction)
    return k


def _next_alive(self, ship, direction):
    k = ship
    while True:
        k = (k + direction + NSHIP) % NSHIP
        if self.ship_status[k] == SHIP_IN_PLAY:
            return k


def _check_score(self, ship):
    """S6 on one ship card; returns True when the game ended (S8)."""
    if self.ship_status[ship] != SHIP_IN_PLAY:
        return False
    thr = self.rules.ship_val[ship] + 3 * self.mugs_on[ship]
    s0 = self.slot_sum[2 * ship]
    s1 = self.slot_sum[2 * ship + 1]
    if s0 >= thr:
        w = 0
    elif s1 >= thr:
        w = 1
    elif self.slot_count[2 * ship] == SIDE_MAX and self.slot_count[2 * ship + 1] == SIDE_MAX:
        if s0 > s1:
            w = 0
        elif s1 > s0:
            w = 1
        else:
            w = SHIP_REMOVED
    else:
        return False
    _score_ship(self, ship, w)
    if self.ships_in_play == 0 or self.points[0] >= 4 or self.points[1] >= 4:
        self.phase = PH_OVER
        return True
    return False


def _score_ship(self, ship, winner):
    self.ship_status[ship] = winner
    self.ships_in_play -= 1
    if winner != SHIP_REMOVED:
        self.points[winner] += 1
    for t in range(2):
        if self.crew[t] == ship:
            if winner == SHIP_REMOVED:
                self.crew[t] = CREW_REMOVED
            else:
                self.crew[t] = CREW_WON + winner
                self.points[winner] += 1
    for p in range(2):
        if self.rum_mug[p] == ship:
            self.rum_mug[p] = RUM_SPENT
    self.mugs_on[ship] = 0
    for j in range(2):
        s = 2 * ship + j
        for i in range(self.slot_count[s]):
            c = self.slot_cards[s * SIDE_MAX + i]
            for p in range(2):
                if self.octopus[p] == c:
                    self.octopus[p] = OCTO_HELD  # S6: octopus returns to its owner
                    self.octopus_slot[p] = -1
            self.removed[self.removed_count] = c
            self.removed_count += 1
        self.faces_all -= self.slot_face_count[s]
        if (self.open_mask >> s) & 1:
            self.faces_open -= self.slot_face_count[s]
            self.open_count -= 1
        self.slot_count[s] = 0
        self.slot_sum[s] = 0
        self.slot_face_set[s] = 0
        self.slot_face_count[s] = 0
    self.open_mask &= ~(3 << (2 * ship))
    _open_list(self)


def _end_main(self):
    # S4: the rum mug may still be used after the main action.
    if self.rum_mug[self.turn] == RUM_HELD:
        self.phase = PH_AFTER
        self.to_decide = self.turn
    else:
        _next_turn(self)


def _next_turn(self):
    self.turn = 1 - self.turn
    self.to_decide = self.turn
    self.phase = PH_MAIN


def _draw(self):
    p = _pile_of(self, self.turn)
    if self.pile_count[p] > 0 and self.hand_count[self.turn] < HAND:
        self.pile_count[p] -= 1
        c = self.pile[p * MAXC + self.pile_count[p]]
        self.hand[self.turn * HAND + self.hand_count[self.turn]] = c
        self.hand_count[self.turn] += 1
        f = self.rules.card_face[c]
        if not (self.hand_face_set[self.turn] >> f) & 1:
            self.hand_face_set[self.turn] |= BIT32 << f
            self.hand_face_count[self.turn] += 1


def _open_list(self):
    """The open slots in order (open_at) and each open slot's place among them (open_rank),
    after open_mask changed: the k-th open slot without counting bits."""
    n = 0
    for s in range(NSLOT):  # no branch: which slots are open changes from call to call
        self.open_rank[s] = n  # (read only for open slots)
        self.open_at[n] = s  # kept only if s is open: the next open slot overwrites it
        n += (self.open_mask >> s) & 1


def _hand_faces(self, p):
    m = 0
    for i in range(self.hand_count[p]):
        m |= BIT32 << self.rules.card_face[self.hand[p * HAND + i]]
    self.hand_face_set[p] = m
    self.hand_face_count[p] = _popcount(m)


def _slot_faces(self, s):
    """Recompute slot s's face set after a card left it."""
    m = 0
    for i in range(self.slot_count[s]):
        m |= BIT32 << self.rules.card_face[self.slot_cards[s * SIDE_MAX + i]]
    self.slot_face_set[s] = m
    self.slot_face_count[s] = _popcount(m)


def _main_count(self):
    """Count the legal actions of a MAIN phase without listing them (fills the scratch
    fields that _main_kth reads). Same set and order as c_legal, from the bookkeeping:
    plays are faces in hand x open slots; octopus moves, per source slot, its movable
    faces x the open slots other than itself."""
    nopen = self.open_count
    self.kth_open = nopen
    self.kth_plays = self.hand_face_count[self.to_decide] * nopen
    self.kth_octopus_moves = 0
    self.pinned_slot = -1
    if self.octopus[self.to_decide] == OCTO_HELD:
        # The card under the opponent's octopus does not move (S7): its slot's movable
        # faces are those of its other cards.
        o = self.octopus[1 - self.to_decide]
        s = self.octopus_slot[1 - self.to_decide]
        if s >= 0:
            f = self.rules.card_face[o]
            i = 0  # other cards of its face there
            for c in range(self.slot_count[s]):
                i += self.rules.card_face[self.slot_cards[s * SIDE_MAX + c]] == f
            self.pinned_slot = s
            self.pinned_face_set = self.slot_face_set[s]
            self.pinned_face_count = self.slot_face_count[s]
            if i == 1:  # its face moves only with another card of that face
                self.pinned_face_set &= ~(BIT32 << f)
                self.pinned_face_count -= 1
        # Movable faces summed over all slots, and over the open ones (an open source is
        # not its own destination): nopen destinations each, less one per open source.
        faces = self.faces_all
        held = self.faces_open
        if s >= 0:
            faces -= self.slot_face_count[s] - self.pinned_face_count
            if (self.open_mask >> s) & 1:
                held -= self.slot_face_count[s] - self.pinned_face_count
        self.kth_octopus_moves = nopen * faces - held
    self.kth_rum_moves = self.ships_in_play if self.rum_mug[self.to_decide] == RUM_HELD else 0
    n = self.kth_plays + self.kth_octopus_moves + self.kth_rum_moves
    if self.kth_plays + self.kth_octopus_moves == 0:
        n += 1  # pass
    return n


def _main_kth(self, k):
    """The k-th legal action (sorted order) of a MAIN phase, after _main_count."""
    nopen = self.kth_open
    if k < self.kth_plays:
        i = _div(k, nopen)
        return self.rules.a_play + _select4(self.hand_face_set[self.to_decide], i) * NSLOT + self.open_at[k - i * nopen]
    k -= self.kth_plays
    if k < self.kth_octopus_moves:
        for s in range(NSLOT):
            dests = nopen - ((self.open_mask >> s) & 1)
            if s == self.pinned_slot:
                nf = self.pinned_face_count
                m = self.pinned_face_set
            else:
                nf = self.slot_face_count[s]
                m = self.slot_face_set[s]
            if k >= nf * dests:
                k -= nf * dests
                continue
            i = _div(k, dests)
            k -= i * dests  # the k-th open slot other than s
            if (self.open_mask >> s) & 1 and k >= self.open_rank[s]:
                k += 1
            return self.rules.a_octo + (s * self.rules.num_faces + _select(m, i)) * NSLOT + self.open_at[k]
    k -= self.kth_octopus_moves
    if k < self.kth_rum_moves:
        for s in range(NSHIP):
            if self.ship_status[s] == SHIP_IN_PLAY:
                if k == 0:
                    return self.rules.a_rum + s
                k -= 1
    return self.rules.a_pass


def _below(self, n):
    """A uniform draw in [0, n) from the state's generator: CoreState.c_below's draw (the
    same splitmix64 step and multiply-shift, so the same values), inlined for the deal."""
    self.rng = (self.rng + GOLDEN) & MASK64
    z = self.rng
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    z ^= z >> 31
    return ((z >> 32) * n) >> 32


def _pick_kth(self, r):
    """The face of the k-th offered pick (ascending, as c_legal lists them), for the 64-bit
    random value r: one count of the seat's remaining set instead of one per face."""
    if not cython.compiled:
        cnt = [0] * MAXF
    F = self.rules.num_faces
    for f in range(F):
        cnt[f] = 0
    p = self.to_decide
    for i in range(self.pile_count[p]):
        cnt[self.rules.card_face[self.pile[p * MAXC + i]]] += 1
    need = HAND - self.picks[p]
    above = 0  # cards at or above face f
    m = 0  # the offered faces (see _pick_ok)
    n = 0
    for f in range(F - 1, self.pick_floor[p] - 1, -1):
        above += cnt[f]
        if cnt[f] > 0 and above >= need:
            m |= BIT32 << f
            n += 1
    return _select(m, ((r >> 32) * n) >> 32)


def _infos_in_id_order(infos, m, n):
    """The CardInfo (no octopus) of each of the n cards of the 64-bit set m, in card id
    order: a list made at its final size."""
    out = [None] * n
    c = 0
    i = 0
    while m:
        if m & 1:
            out[i] = infos[3 * c]
            i += 1
        m >>= 1
        c += 1
    return out


def _sort_hand(self, p):
    """Put seat p's hand in card id order (insertion sort of at most 4 cards)."""
    for i in range(1, self.hand_count[p]):
        c = self.hand[p * HAND + i]
        j = i
        while j > 0 and self.hand[p * HAND + j - 1] > c:
            self.hand[p * HAND + j] = self.hand[p * HAND + j - 1]
            j -= 1
        self.hand[p * HAND + j] = c


def _sort_pile(self, p):
    """Put pile p in card id order (a 64-bit set read upward): resampling shuffles a pile
    from this order, so the hidden order it lay in does not matter."""
    m = 0
    for i in range(self.pile_count[p]):
        m |= BIT64 << self.pile[p * MAXC + i]
    i = 0
    c = 0
    while m:  # no branch on the bit: write, then keep or not (i <= c stays in p's row)
        self.pile[p * MAXC + i] = c
        i += m & 1
        m >>= 1
        c += 1


def _shuffle(self, p):
    i = self.pile_count[p] - 1
    while i > 0:
        j = _below(self, i + 1)
        tmp = self.pile[p * MAXC + i]
        self.pile[p * MAXC + i] = self.pile[p * MAXC + j]
        self.pile[p * MAXC + j] = tmp
        i -= 1
