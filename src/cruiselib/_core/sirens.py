"""Sirens in Sight: the whole rules engine (compiled by Cython, runs as Python too).

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
from cruiselib.errors import InvalidStateError

from .engine import CoreRules, CoreState
from .rng import SPLITMIX64 as _SPLITMIX64

if not cython.compiled:
    # The enum constants of the .pxd, their one home (compiled, they are C constants).
    from cruiselib._core.constants import enum_constants

    _ENUM = enum_constants(__name__.rpartition(".")[2])  # this module's own .pxd
    MAXC = _ENUM["MAXC"]
    MAXF = _ENUM["MAXF"]
    NSHIP = _ENUM["NSHIP"]
    NSLOT = _ENUM["NSLOT"]
    SIDE_MAX = _ENUM["SIDE_MAX"]
    HAND = _ENUM["HAND"]
    MAXLEGAL = _ENUM["MAXLEGAL"]
    PH_PICK = _ENUM["PH_PICK"]
    PH_MAIN = _ENUM["PH_MAIN"]
    PH_AFTER = _ENUM["PH_AFTER"]
    PH_CREW = _ENUM["PH_CREW"]
    PH_OVER = _ENUM["PH_OVER"]
    RUM_HELD = _ENUM["RUM_HELD"]
    RUM_SPENT = _ENUM["RUM_SPENT"]
    OCTO_HELD = _ENUM["OCTO_HELD"]
    SHIP_IN_PLAY = _ENUM["SHIP_IN_PLAY"]
    SHIP_REMOVED = _ENUM["SHIP_REMOVED"]
    CREW_WON = _ENUM["CREW_WON"]
    CREW_REMOVED = _ENUM["CREW_REMOVED"]
    R_LEGAL = _ENUM["R_LEGAL"]
    R_GAME_OVER = _ENUM["R_GAME_OVER"]
    R_WRONG_PHASE = _ENUM["R_WRONG_PHASE"]
    R_FACE_NOT_IN_HAND = _ENUM["R_FACE_NOT_IN_HAND"]
    R_SHIP_NOT_IN_PLAY = _ENUM["R_SHIP_NOT_IN_PLAY"]
    R_SIDE_FULL = _ENUM["R_SIDE_FULL"]
    R_OCTOPUS_USED = _ENUM["R_OCTOPUS_USED"]
    R_NO_CARD_TO_MOVE = _ENUM["R_NO_CARD_TO_MOVE"]
    R_SAME_PLACE = _ENUM["R_SAME_PLACE"]
    R_RUM_USED = _ENUM["R_RUM_USED"]
    R_PASS_NOT_ALLOWED = _ENUM["R_PASS_NOT_ALLOWED"]
    R_CREW_CANNOT_MOVE_THERE = _ENUM["R_CREW_CANNOT_MOVE_THERE"]
    R_CANNOT_PICK = _ENUM["R_CANNOT_PICK"]
    R_END_TOO_EARLY = _ENUM["R_END_TOO_EARLY"]

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
_BAD = "invalid Sirens in Sight state: "

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
        # The observation tensor: offsets of its parts (observation_layout names them).
        self.o_seat = 0
        self.o_phase = 2
        self.o_decide = 7
        self.o_turn = 9
        self.o_hand = 11
        self.o_pile = self.o_hand + nc
        self.o_sides = self.o_pile + nc
        self.o_removed = self.o_sides + NSLOT * nc
        self.o_octo = self.o_removed + nc
        self.o_hand_n = self.o_octo + 2 * nc
        self.o_pile_n = self.o_hand_n + 2
        self.o_side_n = self.o_pile_n + 2
        self.o_totals = self.o_side_n + NSLOT
        self.o_thr = self.o_totals + NSLOT
        self.o_status = self.o_thr + NSHIP
        self.o_rum = self.o_status + 4 * NSHIP
        self.o_crew = self.o_rum + NSHIP
        self.o_choice = self.o_crew + 16
        self.o_points = self.o_choice + NSHIP
        self.o_rum_held = self.o_points + 2
        self.o_octo_held = self.o_rum_held + 2
        self.o_passes = self.o_octo_held + 2
        self.o_picks = self.o_passes + 1
        self._init_contract(2, self.a_pick + nf, REASONS, self.o_picks + 2)
        self.inv_cards = 1.0 / nc
        self.card_infos = None
        self.crew_infos = None

    def face_of(self, card):
        return self.card_face[card]

    def observation_parts(self):
        """The parts of a seat's observation tensor in order: (name, length) pairs."""
        nc = self.num_cards
        return [
            ("seat", 2), ("phase", 5), ("to_decide", 2), ("turn", 2),
            ("hand", nc), ("own_pile", nc), ("sides", NSLOT * nc), ("removed", nc), ("octopus", 2 * nc),
            ("hand_sizes", 2), ("pile_sizes", 2), ("side_counts", NSLOT), ("side_totals", NSLOT),
            ("thresholds", NSHIP), ("ship_status", 4 * NSHIP), ("rum", NSHIP), ("crew", 16),
            ("crew_choice", NSHIP), ("points", 2), ("rum_held", 2), ("octopus_held", 2),
            ("passes", 1), ("picks", 2),
        ]

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
            self.slot_n = [0] * NSLOT
            self.slot_sum = [0] * NSLOT
            self.hand = [0] * (2 * HAND)
            self.hand_n = [0] * 2
            self.pile = [0] * (2 * MAXC)
            self.pile_n = [0] * 2
            self.removed = [0] * MAXC
            self.ship_status = [0] * NSHIP
            self.rum_on = [0] * NSHIP
            self.rum = [0] * 2
            self.crew = [0] * 2
            self.octo = [0] * 2
            self.points = [0] * 2
            self.picks = [0] * 2
            self.pick_floor = [0] * 2
            self.crew_opt = [0] * 2
            self.buf = [0] * MAXLEGAL
            self.slot_fmask = [0] * NSLOT
            self.open_at = [0] * NSLOT
            self.open_rank = [0] * NSLOT
            self.slot_nf = [0] * NSLOT
            self.hand_fmask = [0] * 2
            self.hand_nf = [0] * 2
            self.octo_slot = [0] * 2
            self.zone = [0] * MAXC

    # ------------------------------------------------------------------ setup

    def _setup(self, rng_state, start_player):
        """Deal a new game (S3; S9 for the variant). start_player < 0: drawn from the seed."""
        self.rng = rng_state  # 64 bits: c_deal's seed, or _new_game's (which masks it)
        # An empty table, and its bookkeeping (what _derive would find): every slot open.
        for i in range(NSLOT):
            self.slot_n[i] = 0
            self.slot_sum[i] = 0
            self.slot_fmask[i] = 0
            self.slot_nf[i] = 0
            self.open_at[i] = i
            self.open_rank[i] = i
        self.open_mask = (1 << NSLOT) - 1
        self.n_open = NSLOT
        self.faces_all = 0
        self.faces_open = 0
        for i in range(NSHIP):
            self.ship_status[i] = SHIP_IN_PLAY
            self.rum_on[i] = 0
        self.n_alive = NSHIP
        for p in range(2):
            self.hand_n[p] = 0
            self.pile_n[p] = 0
            self.rum[p] = RUM_HELD
            self.octo[p] = OCTO_HELD
            self.points[p] = 0
            self.picks[p] = 0
            self.pick_floor[p] = 0
            self.octo_slot[p] = -1
        # S3: captain on 30 (ship 1), mate on 34 (ship 3).
        self.crew[0] = 1
        self.crew[1] = 3
        self.removed_n = 0
        self.passes = 0
        self.pend_ship = -1
        self.pend_side = -1
        self.pend_src = -1
        self.pend_draw = 0
        self.pend_token = -1
        if start_player < 0:
            start_player = _below(self, 2)
        self.start = start_player
        self.turn = start_player
        self.cur = start_player
        if self.rules.variant:
            # S9: seat 0 gets the emblem-0 set (seastar), seat 1 the emblem-1 set (shell);
            # the sets wait unshuffled in the piles while the seats pick.
            for c in range(self.rules.num_cards):
                e = self.rules.card_emblem[c]
                self.pile[e * MAXC + self.pile_n[e]] = c
                self.pile_n[e] += 1
            self.phase = PH_PICK
        else:
            for c in range(self.rules.num_cards):
                self.pile[c] = c
            self.pile_n[0] = self.rules.num_cards
            _shuffle(self, 0)
            # Four cards each, dealt alternately from the top, start player first.
            for j in range(HAND):
                for i in range(2):
                    p = (start_player + i) % 2
                    self.pile_n[0] -= 1
                    self.hand[p * HAND + self.hand_n[p]] = self.pile[self.pile_n[0]]
                    self.hand_n[p] += 1
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
        return -1 if self.phase == PH_OVER else self.cur

    def c_legal_at(self, i):
        return self.buf[i]

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
        return self._seat_has_main(self.cur)

    def _seat_has_main(self, p):
        """Whether seat p would have a main action now (S4: else it may only pass)."""
        if self.n_alive == 0:
            return False
        if self.hand_n[p] > 0:
            return True  # every ship in play has a side with room (5+5 would have scored)
        if self.octo[p] != OCTO_HELD:
            return False
        opp_octo = self.octo[1 - p]
        # A movable card exists and some other slot has room.
        for s in range(NSLOT):
            for i in range(self.slot_n[s]):
                c = self.slot_cards[s * SIDE_MAX + i]
                if c != opp_octo:
                    for d in range(NSLOT):
                        if d != s and self.ship_status[d >> 1] == SHIP_IN_PLAY and self.slot_n[d] < SIDE_MAX:
                            return True
                    break
        return False

    def c_legal(self):
        """Write the sorted legal action ids into self.buf; return their count."""
        n = 0
        F = self.rules.num_faces
        if not cython.compiled:
            fs = [0] * SIDE_MAX
            opens = [0] * NSLOT
        if self.phase == PH_MAIN:
            nopen = 0
            for s in range(NSLOT):
                if self.ship_status[s >> 1] == SHIP_IN_PLAY and self.slot_n[s] < SIDE_MAX:
                    opens[nopen] = s
                    nopen += 1
            # Play a card: one action per distinct face in hand (copies are interchangeable).
            nf = 0
            for i in range(self.hand_n[self.cur]):
                f = self.rules.card_face[self.hand[self.cur * HAND + i]]
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
                    self.buf[n] = base + opens[k]
                    n += 1
            # Octopus (S7): any card in play without the opponent's octopus, to another slot.
            if self.octo[self.cur] == OCTO_HELD:
                opp_octo = self.octo[1 - self.cur]
                for s in range(NSLOT):
                    nf = 0
                    for i in range(self.slot_n[s]):
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
                                self.buf[n] = base + d
                                n += 1
            main = n > 0
            if self.rum[self.cur] == RUM_HELD:
                for k in range(NSHIP):
                    if self.ship_status[k] == SHIP_IN_PLAY:
                        self.buf[n] = self.rules.a_rum + k
                        n += 1
            if not main:
                self.buf[n] = self.rules.a_pass
                n += 1
        elif self.phase == PH_AFTER:
            for k in range(NSHIP):
                if self.ship_status[k] == SHIP_IN_PLAY:
                    self.buf[n] = self.rules.a_rum + k
                    n += 1
            self.buf[n] = self.rules.a_end
            n += 1
        elif self.phase == PH_CREW:
            if self.crew_opt[0] < self.crew_opt[1]:
                self.buf[n] = self.rules.a_crew + self.crew_opt[0]
                self.buf[n + 1] = self.rules.a_crew + self.crew_opt[1]
            else:
                self.buf[n] = self.rules.a_crew + self.crew_opt[1]
                self.buf[n + 1] = self.rules.a_crew + self.crew_opt[0]
            n += 2
        elif self.phase == PH_PICK:
            # Faces still in the seat's set, from the floor upward (ascending picks, S9),
            # keeping enough cards at or above the face to complete the hand.
            for f in range(self.pick_floor[self.cur], F):
                if self._pick_ok(f):
                    self.buf[n] = self.rules.a_pick + f
                    n += 1
        return n

    def _derive(self):
        """Recompute the bookkeeping the play path keeps up to date (open slots, the faces
        on each slot and in each hand, where each octopus sits) from the arrays."""
        self.open_mask = 0
        self.n_open = 0
        self.faces_all = 0
        self.faces_open = 0
        for s in range(NSLOT):
            _slot_faces(self, s)
            self.faces_all += self.slot_nf[s]
            if self.ship_status[s >> 1] == SHIP_IN_PLAY and self.slot_n[s] < SIDE_MAX:
                self.open_mask |= 1 << s
                self.n_open += 1
                self.faces_open += self.slot_nf[s]
        _open_list(self)
        for p in range(2):
            _hand_faces(self, p)
            self.octo_slot[p] = -1
            if self.octo[p] >= 0:
                for s in range(NSLOT):
                    for i in range(self.slot_n[s]):
                        if self.slot_cards[s * SIDE_MAX + i] == self.octo[p]:
                            self.octo_slot[p] = s

    def c_random_action(self, r):
        """A uniformly random legal action, from the 64-bit random value r: the k-th of the
        sorted legal actions, k = ((r >> 32) * n) >> 32, found without listing them."""
        if self.phase == PH_MAIN:
            n = _main_count(self)
            return _main_kth(self, ((r >> 32) * n) >> 32)
        if self.phase == PH_AFTER:  # the rum mug on a ship card in play, or end the turn
            k = ((r >> 32) * (self.n_alive + 1)) >> 32
            for s in range(NSHIP):
                if self.ship_status[s] == SHIP_IN_PLAY:
                    if k == 0:
                        return self.rules.a_rum + s
                    k -= 1
            return self.rules.a_end
        if self.phase == PH_CREW:  # two destinations
            k = (r >> 32) >> 31
            if (self.crew_opt[0] < self.crew_opt[1]) == (k == 0):
                return self.rules.a_crew + self.crew_opt[0]
            return self.rules.a_crew + self.crew_opt[1]
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
            for i in range(self.hand_n[self.cur]):
                if self.rules.card_face[self.hand[self.cur * HAND + i]] == f:
                    break
            else:
                return R_FACE_NOT_IN_HAND
            if self.ship_status[s >> 1] != SHIP_IN_PLAY:
                return R_SHIP_NOT_IN_PLAY
            if self.slot_n[s] >= SIDE_MAX:
                return R_SIDE_FULL
            return R_LEGAL
        if a < self.rules.a_rum:  # octopus
            if self.phase != PH_MAIN:
                return R_WRONG_PHASE
            if self.octo[self.cur] != OCTO_HELD:
                return R_OCTOPUS_USED
            r = a - self.rules.a_octo
            d = r % NSLOT
            r = r // NSLOT
            f = r % self.rules.num_faces
            s = r // self.rules.num_faces
            if self.ship_status[s >> 1] != SHIP_IN_PLAY:
                return R_SHIP_NOT_IN_PLAY
            for i in range(self.slot_n[s]):
                if (self.rules.card_face[self.slot_cards[s * SIDE_MAX + i]] == f
                        and self.slot_cards[s * SIDE_MAX + i] != self.octo[1 - self.cur]):
                    break
            else:
                return R_NO_CARD_TO_MOVE
            if d == s:
                return R_SAME_PLACE
            if self.ship_status[d >> 1] != SHIP_IN_PLAY:
                return R_SHIP_NOT_IN_PLAY
            if self.slot_n[d] >= SIDE_MAX:
                return R_SIDE_FULL
            return R_LEGAL
        if a < self.rules.a_end:  # rum
            if self.phase != PH_MAIN and self.phase != PH_AFTER:
                return R_WRONG_PHASE
            if self.rum[self.cur] != RUM_HELD:
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
            return R_LEGAL if k == self.crew_opt[0] or k == self.crew_opt[1] else R_CREW_CANNOT_MOVE_THERE
        # pick
        if self.phase != PH_PICK:
            return R_WRONG_PHASE
        f = a - self.rules.a_pick
        if f < self.pick_floor[self.cur] or not self._pick_ok(f):
            return R_CANNOT_PICK
        return R_LEGAL

    def _pick_ok(self, f):
        """Whether the current seat may pick face f now: one is left, and enough cards of
        face >= f remain to finish the hand in ascending order (so picks never dead-end)."""
        have = 0
        above = 0
        for i in range(self.pile_n[self.cur]):
            c = self.rules.card_face[self.pile[self.cur * MAXC + i]]
            if c == f:
                have = 1
            if c >= f:
                above += 1
        return have == 1 and above >= HAND - self.picks[self.cur]

    # ------------------------------------------------------------------ applying

    def c_do(self, a):
        if a < self.rules.a_octo:  # play a card, then draw (S4)
            f = a // NSLOT
            s = a % NSLOT
            c = _take_from_hand(self, self.cur, f)
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
            self.octo[self.cur] = c
            self.octo_slot[self.cur] = d
            self.passes = 0
            _resolve(self, d >> 1, d & 1, c, s >> 1, 0)
        elif a < self.rules.a_end:  # rum mug (S4, S6): +3 to the threshold, once per game
            k = a - self.rules.a_rum
            self.rum[self.cur] = k
            self.rum_on[k] += 1
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
            self.crew[self.pend_token] = k
            self.phase = PH_MAIN
            self.cur = self.turn
            ship = self.pend_ship
            src = self.pend_src
            draw = self.pend_draw
            self.pend_ship = -1  # nothing pending any more (the play path keeps it so)
            self.pend_side = -1
            self.pend_src = -1
            self.pend_draw = 0
            self.pend_token = -1
            _finish_placement(self, ship, src, draw)
        else:  # pick a starting card (S9), ascending face order
            f = a - self.rules.a_pick
            c = _take_from_pile(self, self.cur, f)
            self.hand[self.cur * HAND + self.hand_n[self.cur]] = c
            self.hand_n[self.cur] += 1
            if not (self.hand_fmask[self.cur] >> f) & 1:
                self.hand_fmask[self.cur] |= BIT32 << f
                self.hand_nf[self.cur] += 1
            self.pick_floor[self.cur] = f
            self.picks[self.cur] += 1
            if self.picks[self.cur] == HAND:
                if self.cur == self.start:
                    self.cur = 1 - self.start
                else:
                    _shuffle(self, 0)
                    _shuffle(self, 1)
                    self.phase = PH_MAIN
                    self.cur = self.start
                    self.turn = self.start

    # ------------------------------------------------------------------ copying

    def _copy_into(self, new):
        new.rules = self.rules
        new.game = self.game
        new.rng = self.rng
        new.phase = self.phase
        new.turn = self.turn
        new.cur = self.cur
        new.start = self.start
        new.passes = self.passes
        new.n_alive = self.n_alive
        for i in range(NSLOT):
            new.slot_n[i] = self.slot_n[i]
            new.slot_sum[i] = self.slot_sum[i]
        for i in range(NSLOT * SIDE_MAX):
            new.slot_cards[i] = self.slot_cards[i]
        for i in range(2 * HAND):
            new.hand[i] = self.hand[i]
        for p in range(2):
            new.hand_n[p] = self.hand_n[p]
            new.pile_n[p] = self.pile_n[p]
            for i in range(self.pile_n[p]):
                new.pile[p * MAXC + i] = self.pile[p * MAXC + i]
            new.rum[p] = self.rum[p]
            new.crew[p] = self.crew[p]
            new.octo[p] = self.octo[p]
            new.points[p] = self.points[p]
            new.picks[p] = self.picks[p]
            new.pick_floor[p] = self.pick_floor[p]
            new.crew_opt[p] = self.crew_opt[p]
        for i in range(self.removed_n):
            new.removed[i] = self.removed[i]
        new.removed_n = self.removed_n
        for i in range(NSHIP):
            new.ship_status[i] = self.ship_status[i]
            new.rum_on[i] = self.rum_on[i]
        new.pend_ship = self.pend_ship
        new.pend_side = self.pend_side
        new.pend_src = self.pend_src
        new.pend_draw = self.pend_draw
        new.pend_token = self.pend_token
        new.open_mask = self.open_mask
        for i in range(NSLOT):
            new.open_at[i] = self.open_at[i]
            new.open_rank[i] = self.open_rank[i]
        new.n_open = self.n_open
        new.faces_all = self.faces_all
        new.faces_open = self.faces_open
        for i in range(NSLOT):
            new.slot_fmask[i] = self.slot_fmask[i]
            new.slot_nf[i] = self.slot_nf[i]
        for p in range(2):
            new.hand_fmask[p] = self.hand_fmask[p]
            new.hand_nf[p] = self.hand_nf[p]
            new.octo_slot[p] = self.octo_slot[p]

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
        if not cython.compiled:
            pool = [0] * MAXC
            cnt = [0] * MAXC
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
            # reads it after the picks: the lowest face a fourth pick of its set can have
            # (the loader's test, S14), the face of the set's fourth card in face order.
            F = self.rules.num_faces
            for f in range(F):
                cnt[f] = 0
            for c in range(self.rules.num_cards):
                cnt[self.rules.card_face[c]] += self.rules.card_emblem[c] == opp
            above = 0
            f = 0
            while True:  # ends: the set has at least HAND cards (SirensRules)
                above += cnt[f]
                if above >= HAND:
                    break
                f += 1
            self.pick_floor[opp] = f
            return
        # The pick phase (S14, S15): the other seat's picks so far are made anew as picking
        # makes them. Its set, hand and pile together, waits in card id order; each pick is
        # a uniform choice among the faces offered at that point (at or above the last
        # pick, with enough cards at or above it to finish the hand), taking the lowest card
        # id of that face (S12).
        n = 0
        for i in range(self.hand_n[opp]):
            pool[n] = self.hand[opp * HAND + i]
            n += 1
        for i in range(self.pile_n[opp]):
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
        picks = self.hand_n[opp]
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
        self.pile_n[opp] = n
        _hand_faces(self, opp)

    def _redeal(self, p, q):
        """Seat p's hand and pile q, shuffled together and dealt back at their sizes."""
        if not cython.compiled:
            pool = [0] * MAXC
        # The pool in card id order (a 64-bit set read upward), not in the hidden order
        # the cards lie in: the deal then depends on which cards are unseen and the
        # generator only.
        m = 0
        for i in range(self.pile_n[q]):
            m |= BIT64 << self.pile[q * MAXC + i]
        for i in range(self.hand_n[p]):
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
        for i in range(self.pile_n[q]):
            self.pile[q * MAXC + i] = pool[i]
        for i in range(self.hand_n[p]):
            self.hand[p * HAND + i] = pool[self.pile_n[q] + i]

    def _view(self, seat, recall):
        """Seat ``seat``'s view (a SirensView), built straight from the arrays. Lists are
        made at their final size (no appends): most of a view's cost is its ~40 lists.
        ``recall`` adds nothing: the table shows every public event (docs/sirens.md)."""
        R = self.rules
        if R.card_infos is None:
            R._view_tables()
        infos = R.card_infos
        # The own hand (and the own pile) in card id order: a 64-bit set, read upward.
        n = self.hand_n[seat]
        m = 0
        for i in range(n):
            m |= BIT64 << self.hand[seat * HAND + i]
        hand = [None] * n
        c = 0
        i = 0
        while m:
            if m & 1:
                hand[i] = infos[3 * c]
                i += 1
            m >>= 1
            c += 1
        own_pile = None
        if R.variant:
            n = self.pile_n[seat]
            m = 0
            for i in range(n):
                m |= BIT64 << self.pile[seat * MAXC + i]
            own_pile = [None] * n
            c = 0
            i = 0
            while m:
                if m & 1:
                    own_pile[i] = infos[3 * c]
                    i += 1
                m >>= 1
                c += 1
            pile_sizes = [self.pile_n[0], self.pile_n[1]]
        else:
            pile_sizes = [self.pile_n[0]]
        o0 = self.octo[0]
        o1 = self.octo[1]
        ships = [None] * NSHIP
        for k in range(NSHIP):
            st = self.ship_status[k]
            rc = (self.rum[0] == k) + (self.rum[1] == k)
            if self.crew[0] == k:
                crew = ["captain", "mate"] if self.crew[1] == k else ["captain"]
            else:
                crew = ["mate"] if self.crew[1] == k else []
            s = 2 * k
            n = self.slot_n[s]
            side0 = [None] * n
            for i in range(n):
                c = self.slot_cards[s * SIDE_MAX + i]
                side0[i] = infos[3 * c + (1 if c == o0 else 2 if c == o1 else 0)]
            s += 1
            n = self.slot_n[s]
            side1 = [None] * n
            for i in range(n):
                c = self.slot_cards[s * SIDE_MAX + i]
                side1[i] = infos[3 * c + (1 if c == o0 else 2 if c == o1 else 0)]
            ships[k] = R.ship_type(
                R.ship_ints[k], st == SHIP_IN_PLAY, st if st == 0 or st == 1 else None, st == SHIP_REMOVED,
                rc, R.ship_val[k] + 3 * rc, crew, [side0, side1], [self.slot_sum[s - 1], self.slot_sum[s]])
        n = self.removed_n
        removed = [None] * n
        for i in range(n):
            removed[i] = infos[3 * self.removed[i]]
        choice = None
        if self.phase == PH_CREW:
            a = R.ship_val[self.crew_opt[0]]
            b = R.ship_val[self.crew_opt[1]]
            choice = [a, b] if a < b else [b, a]
        cur = self.c_current()
        if cur == seat:
            n = self.c_legal()
            legal = [None] * n
            for i in range(n):
                legal[i] = R.action_ints[self.buf[i]]
        else:
            legal = []
        return R.view_type(
            player=seat,
            variant="bow_to_rear" if R.variant else "standard",
            phase=PHASES[self.phase],
            current_player=cur,
            turn_player=self.turn,
            hand=hand,
            hand_sizes=[self.hand_n[0], self.hand_n[1]],
            pile_sizes=pile_sizes,
            own_pile=own_pile,
            ships=ships,
            crew=[R.crew_infos[self.crew[0]], R.crew_infos[CREW_REMOVED + 1 + self.crew[1]]],
            points=[self.points[0], self.points[1]],
            rum_held=[self.rum[0] == RUM_HELD, self.rum[1] == RUM_HELD],
            octopus_held=[o0 == OCTO_HELD, o1 == OCTO_HELD],
            removed=removed,
            crew_choice=choice,
            passes=self.passes,
            picks=[self.picks[0], self.picks[1]],
            legal_actions=legal,
        )

    def c_observe(self, seat, out):
        """Seat ``seat``'s observation tensor (layout: SirensRules.observation_layout and
        docs/sirens.md): made only of what view(seat) shows, seats as own / other."""
        opp = 1 - seat
        nc = self.rules.num_cards
        out[self.rules.o_seat + seat] = 1.0
        out[self.rules.o_phase + self.phase] = 1.0
        if self.phase != PH_OVER:
            out[self.rules.o_decide + (0 if self.cur == seat else 1)] = 1.0
        out[self.rules.o_turn + (0 if self.turn == seat else 1)] = 1.0
        for i in range(self.hand_n[seat]):
            out[self.rules.o_hand + self.hand[seat * HAND + i]] = 1.0
        if self.rules.variant:
            for i in range(self.pile_n[seat]):
                out[self.rules.o_pile + self.pile[seat * MAXC + i]] = 1.0
        for s in range(NSLOT):
            # relative slot: ship * 2 + (0 own side, 1 other side)
            r = (s & ~1) | ((s & 1) ^ seat)
            b = self.rules.o_sides + r * nc
            for i in range(self.slot_n[s]):
                out[b + self.slot_cards[s * SIDE_MAX + i]] = 1.0
            out[self.rules.o_side_n + r] = self.slot_n[s]
            out[self.rules.o_totals + r] = self.slot_sum[s] * 0.1
        for i in range(self.removed_n):
            out[self.rules.o_removed + self.removed[i]] = 1.0
        if self.octo[seat] >= 0:
            out[self.rules.o_octo + self.octo[seat]] = 1.0
        if self.octo[opp] >= 0:
            out[self.rules.o_octo + nc + self.octo[opp]] = 1.0
        out[self.rules.o_hand_n] = self.hand_n[seat]
        out[self.rules.o_hand_n + 1] = self.hand_n[opp]
        if self.rules.variant:
            out[self.rules.o_pile_n] = self.pile_n[seat] * self.rules.inv_cards
            out[self.rules.o_pile_n + 1] = self.pile_n[opp] * self.rules.inv_cards
        else:
            out[self.rules.o_pile_n] = self.pile_n[0] * self.rules.inv_cards
            out[self.rules.o_pile_n + 1] = self.pile_n[0] * self.rules.inv_cards
        for k in range(NSHIP):
            rc = (self.rum[0] == k) + (self.rum[1] == k)
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
            out[self.rules.o_choice + self.crew_opt[0]] = 1.0
            out[self.rules.o_choice + self.crew_opt[1]] = 1.0
        out[self.rules.o_points] = self.points[seat]
        out[self.rules.o_points + 1] = self.points[opp]
        out[self.rules.o_rum_held] = 1.0 if self.rum[seat] == RUM_HELD else 0.0
        out[self.rules.o_rum_held + 1] = 1.0 if self.rum[opp] == RUM_HELD else 0.0
        out[self.rules.o_octo_held] = 1.0 if self.octo[seat] == OCTO_HELD else 0.0
        out[self.rules.o_octo_held + 1] = 1.0 if self.octo[opp] == OCTO_HELD else 0.0
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
            "start": self.start,
            "turn": self.turn,
            "cur": self.cur,
            "passes": self.passes,
            "hands": [[self.hand[p * HAND + i] for i in range(self.hand_n[p])] for p in range(2)],
            "piles": [[self.pile[p * MAXC + i] for i in range(self.pile_n[p])]
                      for p in range(2 if R.variant else 1)],
            "sides": [[[self.slot_cards[(2 * k + j) * SIDE_MAX + i]
                        for i in range(self.slot_n[2 * k + j])] for j in range(2)]
                      for k in range(NSHIP)],
            "ship_status": [self.ship_status[k] for k in range(NSHIP)],
            "rum": [self.rum[0], self.rum[1]],
            "crew": [self.crew[0], self.crew[1]],
            "octo": [self.octo[0], self.octo[1]],
            "removed": [self.removed[i] for i in range(self.removed_n)],
            "picks": [self.picks[0], self.picks[1]],
            "pick_floor": [self.pick_floor[0], self.pick_floor[1]],
            "pending": None if self.phase != PH_CREW else
            (self.pend_ship, self.pend_side, self.pend_src, self.pend_draw),
        }

    def _export(self):
        """The full state as a SirensStateData Struct (built here: the hot half of to_json)."""
        R = self.rules
        schema = R.schema
        pending = None
        if self.phase == PH_CREW:
            pending = schema.Pending(self.pend_ship, self.pend_side, self.pend_src, self.pend_draw != 0)
        return schema.SirensStateData(
            schema_version=schema.SCHEMA_VERSION,
            game=R.game_name,
            variant="bow_to_rear" if R.variant else "standard",
            card_set=R.digest,
            rng=schema.rng_to_text(self.rng),
            phase=PHASES[self.phase],
            start_player=self.start,
            turn=self.turn,
            current_player=-1 if self.phase == PH_OVER else self.cur,
            hands=[[self.hand[p * HAND + i] for i in range(self.hand_n[p])] for p in range(2)],
            piles=[[self.pile[p * MAXC + i] for i in range(self.pile_n[p])]
                   for p in range(2 if R.variant else 1)],
            sides=[[[self.slot_cards[(2 * k + j) * SIDE_MAX + i]
                     for i in range(self.slot_n[2 * k + j])] for j in range(2)]
                   for k in range(NSHIP)],
            ships=[self.ship_status[k] for k in range(NSHIP)],
            rum=[self.rum[0], self.rum[1]],
            crew=[self.crew[0], self.crew[1]],
            octopus=[self.octo[0], self.octo[1]],
            removed=[self.removed[i] for i in range(self.removed_n)],
            passes=self.passes,
            picks=[self.picks[0], self.picks[1]],
            pick_floor=[self.pick_floor[0], self.pick_floor[1]],
            pending=pending,
        )

    def _set_raw(self, raw):
        """Load a raw dict (already validated by the Python layer) and derive the rest."""
        R = self.rules
        self._reseed(raw["rng"])
        self.phase = raw["phase"]
        self.start = raw["start"]
        self.turn = raw["turn"]
        self.cur = raw["cur"]
        self.passes = raw["passes"]
        for p in range(2):
            hand = raw["hands"][p]
            self.hand_n[p] = len(hand)
            for i in range(len(hand)):
                self.hand[p * HAND + i] = hand[i]
            self.pile_n[p] = 0
            self.rum[p] = raw["rum"][p]
            self.crew[p] = raw["crew"][p]
            self.octo[p] = raw["octo"][p]
            self.picks[p] = raw["picks"][p]
            self.pick_floor[p] = raw["pick_floor"][p]
            self.points[p] = 0
        piles = raw["piles"]
        for p in range(len(piles)):
            self.pile_n[p] = len(piles[p])
            for i in range(len(piles[p])):
                self.pile[p * MAXC + i] = piles[p][i]
        self.n_alive = 0
        for k in range(NSHIP):
            self.ship_status[k] = raw["ship_status"][k]
            self.rum_on[k] = 0
            if self.ship_status[k] == SHIP_IN_PLAY:
                self.n_alive += 1
            elif self.ship_status[k] != SHIP_REMOVED:
                self.points[self.ship_status[k]] += 1
            for j in range(2):
                s = 2 * k + j
                cards = raw["sides"][k][j]
                self.slot_n[s] = len(cards)
                self.slot_sum[s] = 0
                for i in range(len(cards)):
                    self.slot_cards[s * SIDE_MAX + i] = cards[i]
                    self.slot_sum[s] += R.face_val[R.card_face[cards[i]]]
        for p in range(2):
            if self.rum[p] >= 0:
                self.rum_on[self.rum[p]] += 1
            if self.crew[p] == CREW_WON or self.crew[p] == CREW_WON + 1:
                self.points[self.crew[p] - CREW_WON] += 1
        removed = raw["removed"]
        self.removed_n = len(removed)
        for i in range(len(removed)):
            self.removed[i] = removed[i]
        self.pend_ship = -1
        self.pend_side = -1
        self.pend_src = -1
        self.pend_draw = 0
        self.pend_token = -1
        pending = raw["pending"]
        if pending is not None:
            self.pend_ship = pending[0]
            self.pend_side = pending[1]
            self.pend_src = pending[2]
            self.pend_draw = pending[3]
            self.pend_token = 0 if self.crew[0] == self.pend_ship else 1
            self.crew_opt[0] = _crew_dest(self, self.pend_ship, -1, self.pend_token)
            self.crew_opt[1] = _crew_dest(self, self.pend_ship, 1, self.pend_token)
        self._derive()

    def _zone_name(self, z):
        if z <= 2:
            return f"hands[{z - 1}]"
        if z <= 4:
            return f"piles[{z - 3}]"
        if z == 5:
            return "removed"
        return f"sides[{(z - 10) >> 1}][{(z - 10) & 1}]"

    def _place_checked(self, card, z):
        if card < 0 or card >= self.rules.num_cards:
            raise InvalidStateError(
                f"{_BAD}card {card} in {self._zone_name(z)} does not exist "
                f"(the card set has {self.rules.num_cards} cards)")
        if self.zone[card] != 0:
            raise InvalidStateError(
                f"{_BAD}card {card} appears twice ({self._zone_name(self.zone[card])} and {self._zone_name(z)})")
        self.zone[card] = z
        return 0

    def _load_checked(self, d, history):
        """Validate a decoded SirensStateData (header already checked) and load it
        (``history`` adds nothing: the checks below are all Sirens has).

        Every index is checked before it is used, so a tampered state raises
        InvalidStateError and never reaches the arrays. Derived values (sums, points,
        rum counts) are recomputed, not trusted. The sections in order, each relying on
        the ones before: the cards, the tokens and points, the removed cards, the turn,
        the picks, a pending crew decision, the hand sizes, and that nothing in play has
        already scored.
        """
        self._load_cards(d)
        crew_in_play = self._load_tokens(d)
        low = self._check_removed()
        self._load_turn(d)
        self._load_picks(d)
        self._load_pending(d.pending, crew_in_play)
        if self.phase != PH_PICK:
            self._check_hand_sizes()
        self._check_unscored(low)
        self.rng = int(d.rng, 16)
        self._derive()

    def _load_cards(self, d):
        """Place every card of the hands, piles, ship sides and removed cards: each exactly once (S1, S10)."""
        R = self.rules
        variant = R.variant
        for c in range(R.num_cards):
            self.zone[c] = 0
        # --- where every card is: exactly once (S1, S10) ---------------------------
        hands = d.hands
        piles = d.piles
        sides = d.sides
        if len(hands) != 2 or len(sides) != NSHIP or len(piles) != (2 if variant else 1):
            raise InvalidStateError(f"{_BAD}wrong number of hands, piles or ships")
        placed = 0
        for p in range(2):
            cards = hands[p]
            n = len(cards)
            if n > HAND:
                raise InvalidStateError(f"{_BAD}hands[{p}] holds more than 4 cards")
            for i in range(n):
                c = cards[i]
                self._place_checked(c, 1 + p)
                self.hand[p * HAND + i] = c
            self.hand_n[p] = n
            placed += n
            self.pile_n[p] = 0
        for p in range(len(piles)):
            cards = piles[p]
            n = len(cards)
            if n > R.num_cards:
                raise InvalidStateError(f"{_BAD}piles[{p}] is longer than the card set")
            for i in range(n):
                c = cards[i]
                self._place_checked(c, 3 + p)
                self.pile[p * MAXC + i] = c
            self.pile_n[p] = n
            placed += n
        for k in range(NSHIP):
            if len(sides[k]) != 2:
                raise InvalidStateError(f"{_BAD}sides[{k}] must have two sides")
            for j in range(2):
                s = 2 * k + j
                cards = sides[k][j]
                n = len(cards)
                if n > SIDE_MAX:
                    raise InvalidStateError(f"{_BAD}sides[{k}][{j}] holds more than 5 cards")
                self.slot_sum[s] = 0
                for i in range(n):
                    c = cards[i]
                    self._place_checked(c, 10 + s)
                    self.slot_cards[s * SIDE_MAX + i] = c
                    self.slot_sum[s] += R.face_val[R.card_face[c]]
                self.slot_n[s] = n
                placed += n
        cards = d.removed
        n = len(cards)
        for i in range(n):
            c = cards[i]
            self._place_checked(c, 5)
            self.removed[i] = c
        self.removed_n = n
        placed += n
        if placed != R.num_cards:
            missing = [c for c in range(R.num_cards) if self.zone[c] == 0]
            raise InvalidStateError(f"{_BAD}card(s) {missing[:8]} are nowhere")

    def _load_tokens(self, d):
        """Load the ship cards, rum mugs, octopuses and crew tokens and count the points; the
        number of crew tokens on ship cards in play."""
        R = self.rules
        variant = R.variant
        self.n_alive = 0
        for k in range(NSHIP):
            st = d.ships[k]
            if st < SHIP_IN_PLAY or st > SHIP_REMOVED:
                raise InvalidStateError(f"{_BAD}ships[{k}] must be -1, 0, 1 or 2")
            self.ship_status[k] = st
            self.rum_on[k] = 0
            if st == SHIP_IN_PLAY:
                self.n_alive += 1
            elif self.slot_n[2 * k] or self.slot_n[2 * k + 1]:
                raise InvalidStateError(f"{_BAD}ship {k} is out of play but has cards beside it")
        if variant:
            # S9: a seat only ever holds and draws cards of its own emblem set.
            for c in range(R.num_cards):
                z = self.zone[c]
                if z <= 4 and R.card_emblem[c] != (z - 1) % 2:
                    raise InvalidStateError(
                        f"{_BAD}{self._zone_name(z)} holds card {c} of the other seat's set (S9)")
        for p in range(2):
            r = d.rum[p]
            if r < RUM_SPENT or r >= NSHIP:
                raise InvalidStateError(f"{_BAD}rum[{p}] must be -2, -1 or a ship index")
            if r == RUM_SPENT and self.n_alive == NSHIP:
                raise InvalidStateError(
                    f"{_BAD}seat {p}'s rum mug left play with a ship card it stood on, "
                    "but every ship card is in play (S6)")
            if r >= 0:
                if self.ship_status[r] != SHIP_IN_PLAY:
                    raise InvalidStateError(f"{_BAD}seat {p}'s rum mug is on ship {r}, which is not in play")
                self.rum_on[r] += 1
            self.rum[p] = r
            o = d.octopus[p]
            if o < OCTO_HELD or o >= R.num_cards or (o >= 0 and self.zone[o] < 10):
                raise InvalidStateError(f"{_BAD}seat {p}'s octopus sits on card {o}, which is not in play")
            self.octo[p] = o
        if self.octo[0] >= 0 and self.octo[0] == self.octo[1]:
            raise InvalidStateError(f"{_BAD}both octopuses sit on the same card")
        self.points[0] = 0
        self.points[1] = 0
        for k in range(NSHIP):
            if self.ship_status[k] == 0 or self.ship_status[k] == 1:
                self.points[self.ship_status[k]] += 1
        crew_in_play = 0
        for t in range(2):
            v = d.crew[t]
            if v < 0 or v > CREW_REMOVED:
                raise InvalidStateError(f"{_BAD}crew[{t}] must be 0..7")
            if v < NSHIP:
                if self.ship_status[v] != SHIP_IN_PLAY:
                    raise InvalidStateError(f"{_BAD}the {CREW_NAMES[t]} stands on ship {v}, which is not in play")
                crew_in_play += 1
            self.crew[t] = v
        if self.crew[0] < NSHIP and self.crew[0] == self.crew[1]:
            raise InvalidStateError(f"{_BAD}captain and mate stand on the same ship card")
        for p in range(2):
            won = (self.crew[0] == CREW_WON + p) + (self.crew[1] == CREW_WON + p)
            if won > self.points[p]:  # every won token came with its own won ship card
                raise InvalidStateError(f"{_BAD}seat {p} holds more crew tokens than ship cards")
            self.points[p] += won
        removed_ships = 0
        for k in range(NSHIP):
            removed_ships += self.ship_status[k] == SHIP_REMOVED
        if (self.crew[0] == CREW_REMOVED) + (self.crew[1] == CREW_REMOVED) > removed_ships:
            raise InvalidStateError(f"{_BAD}more crew tokens removed than ship cards removed")
        if (self.points[0] >= 4 and self.points[1] >= 4) or self.points[0] > 5 or self.points[1] > 5:
            raise InvalidStateError(
                f"{_BAD}points {self.points[0]}:{self.points[1]} cannot happen: the game ends as soon as a "
                "seat has 4 (S8), and a scored ship card brings at most 2 (itself and one crew token)")
        return crew_in_play

    def _check_removed(self):
        """Each ship card out of play took its cards with it (S6): at most 5 + 5 per ship card,
        a tie exactly 5 + 5, a won one at least the fewest cards that reach its printed
        value (SirensRules.min_won). The lowest value among the removed cards."""
        R = self.rules
        need = 0
        for k in range(NSHIP):
            if self.ship_status[k] == SHIP_REMOVED:
                need += 2 * SIDE_MAX
            elif self.ship_status[k] != SHIP_IN_PLAY:
                need += R.min_won[k]
        top = 2 * SIDE_MAX * (NSHIP - self.n_alive)
        if self.removed_n < need or self.removed_n > top:
            raise InvalidStateError(
                f"{_BAD}{self.removed_n} removed cards do not fit the ship cards out of play: "
                f"they took between {need} and {top} cards with them (S6)")
        low = 1 << 30  # the lowest value among the removed cards
        for i in range(self.removed_n):
            v = R.face_val[R.card_face[self.removed[i]]]
            if v < low:
                low = v
        return low

    def _load_turn(self, d):
        """Load the phase, whose turn and decision, and the passes, and check them against
        the end of the game (S4, S8, S17)."""
        phase = PHASES.index(d.phase)
        self.phase = phase
        self.start = d.start_player
        self.turn = d.turn
        self.passes = d.passes
        if self.passes < 0 or self.passes > 2:
            raise InvalidStateError(f"{_BAD}passes must be 0, 1 or 2")
        cur = d.current_player
        by_points = self.points[0] >= 4 or self.points[1] >= 4
        finished = self.n_alive == 0 or by_points or self.passes == 2
        if (phase == PH_OVER) != finished:
            raise InvalidStateError(
                f"{_BAD}the game is over exactly when no ship is in play, a seat has 4 points, "
                "or both seats passed (S8)")
        if self.passes == 2 and (self.n_alive == 0 or by_points):
            raise InvalidStateError(
                f"{_BAD}a game ended by two passes still had ship cards in play and no seat with 4 points (S4)")
        if self.passes == 1 and phase != PH_MAIN:
            # S17: a main action resets the count, so one pass is pending only in the main
            # phase of the next seat's turn (a pass ends the turn at once, S13).
            raise InvalidStateError(f"{_BAD}one pending pass exists only in the main phase")
        if phase == PH_OVER:
            if cur != -1:
                raise InvalidStateError(f"{_BAD}current_player must be -1 once the game is over")
            cur = self.turn
        elif cur == -1:
            raise InvalidStateError(f"{_BAD}current_player is -1 but the game is not over")
        self.cur = cur
        pending = d.pending
        if (phase == PH_CREW) != (pending is not None):
            raise InvalidStateError(f"{_BAD}a pending crew decision exists exactly in the 'crew' phase")
        if (phase == PH_MAIN or phase == PH_AFTER) and cur != self.turn:
            raise InvalidStateError(f"{_BAD}in the main and after phases the seat to move is the turn player")
        if phase == PH_AFTER and self.rum[self.turn] != RUM_HELD:
            raise InvalidStateError(f"{_BAD}the 'after' phase exists only while the turn player holds the rum mug")
        # S4: a seat passes only without a main action, and nothing but a rum mug can have
        # happened since: the seat(s) that passed still have none.
        if self.passes >= 1 and self._seat_has_main(1 - self.turn):
            raise InvalidStateError(
                f"{_BAD}seat {1 - self.turn} passed but has a card to play or an octopus move (S4)")
        if self.passes == 2 and self._seat_has_main(self.turn):
            raise InvalidStateError(
                f"{_BAD}seat {self.turn} passed but has a card to play or an octopus move (S4)")

    def _load_picks(self, d):
        """Load the picks and pick floors of the 'bow_to_rear' variant (S9, S12, S14, S15)."""
        R = self.rules
        variant = R.variant
        phase = self.phase
        cur = self.cur
        for p in range(2):
            self.picks[p] = d.picks[p]
            self.pick_floor[p] = d.pick_floor[p]
            if self.picks[p] < 0 or self.picks[p] > HAND or self.pick_floor[p] < 0 or self.pick_floor[p] >= R.num_faces:
                raise InvalidStateError(f"{_BAD}picks and pick floors out of range")
        if phase == PH_PICK:
            if not variant:
                raise InvalidStateError(f"{_BAD}only the 'bow_to_rear' variant has a pick phase")
            for s in range(NSLOT):
                if self.slot_n[s]:
                    raise InvalidStateError(f"{_BAD}no card is in play during the pick phase")
            if self.removed_n:
                raise InvalidStateError(f"{_BAD}no card is in play during the pick phase")
            if self.picks[1 - self.start] and self.picks[self.start] < HAND:
                raise InvalidStateError(f"{_BAD}the start player picks first (S9)")
            if cur != (self.start if self.picks[self.start] < HAND else 1 - self.start) or self.turn != self.start:
                raise InvalidStateError(f"{_BAD}the seat picking must be the start player, then the other seat")
            for p in range(2):
                if self.picks[p] != self.hand_n[p]:
                    raise InvalidStateError(f"{_BAD}seat {p} picked {self.picks[p]} cards but holds {self.hand_n[p]}")
                top = 0
                for i in range(self.hand_n[p]):
                    c = self.hand[p * HAND + i]
                    v = R.card_face[c]
                    if v > top:
                        top = v
                    # S14: picks go in ascending face order; S12: each takes the lowest
                    # card id of its face still in the set.
                    if i > 0 and v < R.card_face[self.hand[p * HAND + i - 1]]:
                        raise InvalidStateError(f"{_BAD}seat {p}'s picks are not in ascending face order (S14)")
                    for j in range(i + 1, self.hand_n[p]):
                        o = self.hand[p * HAND + j]
                        if R.card_face[o] == v and o < c:
                            raise InvalidStateError(
                                f"{_BAD}seat {p} picked card {c} before card {o} of the same face (S12)")
                    for j in range(self.pile_n[p]):
                        o = self.pile[p * MAXC + j]
                        if R.card_face[o] == v and o < c:
                            raise InvalidStateError(
                                f"{_BAD}seat {p} picked card {c} while card {o} of the same face was left (S12)")
                if self.pick_floor[p] != top:
                    raise InvalidStateError(f"{_BAD}seat {p}'s pick floor must be the highest face picked")
                # S15: the sets wait unshuffled (in card id order) until both seats picked.
                for i in range(1, self.pile_n[p]):
                    if self.pile[p * MAXC + i - 1] > self.pile[p * MAXC + i]:
                        raise InvalidStateError(f"{_BAD}piles[{p}] must stay in card id order until the picks end")
            if self.rum[0] != RUM_HELD or self.rum[1] != RUM_HELD or self.octo[0] != OCTO_HELD \
                    or self.octo[1] != OCTO_HELD or self.passes:
                raise InvalidStateError(f"{_BAD}nothing happens before the picks are done")
            if self.picks[cur] < HAND:
                above = 0
                for i in range(self.pile_n[cur]):
                    above += R.card_face[self.pile[cur * MAXC + i]] >= self.pick_floor[cur]
                if above < HAND - self.picks[cur]:
                    raise InvalidStateError(f"{_BAD}seat {cur} cannot complete its hand in ascending order")
        else:
            for p in range(2):
                if self.picks[p] != (HAND if variant else 0):
                    raise InvalidStateError(
                        f"{_BAD}picks must be [4, 4] in the variant after the pick phase, [0, 0] otherwise")
                if not variant:
                    if self.pick_floor[p] != 0:
                        raise InvalidStateError(f"{_BAD}pick floors are [0, 0] outside the variant")
                    continue
                # The floor is the face of the seat's fourth pick: a face of its own set,
                # with at least 4 of its cards at or below it (S14).
                top = 0
                above = 0
                for c in range(R.num_cards):
                    if R.card_emblem[c] == p:
                        top += R.card_face[c] == self.pick_floor[p]
                        above += R.card_face[c] <= self.pick_floor[p]
                if top == 0 or above < HAND:
                    raise InvalidStateError(
                        f"{_BAD}seat {p}'s pick floor {self.pick_floor[p]} is no face its fourth pick can have (S14)")

    def _load_pending(self, pending, crew_in_play):
        """Load the pending crew decision of the 'crew' phase (S5, S6, S7), or none."""
        R = self.rules
        cur = self.cur
        self.pend_ship = -1
        self.pend_side = -1
        self.pend_src = -1
        self.pend_draw = 0
        self.pend_token = -1
        if pending is not None:
            k = pending.ship
            if k < 0 or k >= NSHIP or self.ship_status[k] != SHIP_IN_PLAY or (self.crew[0] != k and self.crew[1] != k):
                raise InvalidStateError(f"{_BAD}the pending crew move needs a crew token on a ship in play")
            if pending.side != cur:
                raise InvalidStateError(f"{_BAD}the owner of the played-on side decides the crew move (S5)")
            src = pending.source
            if src >= NSHIP or src < -1 or (src >= 0 and self.ship_status[src] != SHIP_IN_PLAY):
                raise InvalidStateError(f"{_BAD}the source ship of a pending octopus move is in play")
            if pending.draw != (src < 0):
                raise InvalidStateError(f"{_BAD}a played card draws after the crew move, an octopus move does not (S4)")
            # The placed card is the last one on its side and has the move-crew icon (S5).
            s = 2 * k + pending.side
            if self.slot_n[s] == 0:
                raise InvalidStateError(f"{_BAD}the pending crew move has no placed card")
            c = self.slot_cards[s * SIDE_MAX + self.slot_n[s] - 1]
            if not R.face_crew[R.card_face[c]]:
                raise InvalidStateError(f"{_BAD}card {c}, placed last, has no move-crew icon to move the crew (S5)")
            if src >= 0 and self.octo[self.turn] != c:
                raise InvalidStateError(f"{_BAD}the turn player's octopus must sit on the card it moved (S7)")
            if src < 0 and (self.octo[0] == c or self.octo[1] == c):
                raise InvalidStateError(f"{_BAD}a card just played from the hand carries no octopus")
            # Before the placement the ship card did not score (S6).
            v = R.face_val[R.card_face[c]]
            t = R.ship_val[k] + 3 * self.rum_on[k]
            if src == k and self.slot_n[s ^ 1] >= SIDE_MAX:
                raise InvalidStateError(f"{_BAD}the moved card cannot have come from a full side (S5 step 1)")
            if self.slot_sum[s] - v >= t or self.slot_sum[s ^ 1] + (v if src == k else 0) >= t:
                raise InvalidStateError(f"{_BAD}ship {k} would have been scored before the pending placement (S6)")
            if src >= 0 and src != k and not self._could_lose(src, v):
                raise InvalidStateError(
                    f"{_BAD}ship {src} cannot be where the moved card came from without having scored before (S6)")
            self.pend_ship = k
            self.pend_side = pending.side
            self.pend_src = src
            self.pend_draw = 1 if pending.draw else 0
            self.pend_token = 0 if self.crew[0] == k else 1
            self.crew_opt[0] = _crew_dest(self, k, -1, self.pend_token)
            self.crew_opt[1] = _crew_dest(self, k, 1, self.pend_token)
            if self.crew_opt[0] == self.crew_opt[1] or self.n_alive == crew_in_play:
                raise InvalidStateError(f"{_BAD}the pending crew move has no choice to make")

    def _check_hand_sizes(self):
        """After the picks a seat holds a full hand while its draw pile has cards (S4)."""
        phase = self.phase
        for p in range(2):
            # During a crew choice the turn player's draw may still be pending (S4); once
            # over, the seat that ended the game by playing a card drew none.
            need = HAND
            if (phase == PH_CREW and p == self.turn and self.pend_draw) or (phase == PH_OVER and p == self.turn):
                need = HAND - 1
            if self.pile_n[_pile_of(self, p)] and self.hand_n[p] < need:
                raise InvalidStateError(f"{_BAD}seat {p} must hold {need} cards while its draw pile has cards")

    def _check_unscored(self, low):
        """No ship card in play may already have scored (S6); ``low``, the lowest value among
        the removed cards."""
        phase = self.phase
        by_points = self.points[0] >= 4 or self.points[1] >= 4
        # Except in a crew decision the destination and the octopus' source (scored after
        # the crew move, S5 step 3), and once over the source of an octopus move whose
        # destination's scoring ended the game (S5: the source is then not checked).
        o = -1
        for k in range(NSHIP):
            if self.ship_status[k] != SHIP_IN_PLAY or not self._side_scores(k):
                continue
            if phase == PH_CREW and (k == self.pend_ship or k == self.pend_src):
                continue
            if phase == PH_OVER:
                # The octopus returned when its card's ship card scored; the mover drew
                # nothing; the moved card is a removed one whose leaving raised a side.
                if o >= 0 or not by_points or self.octo[self.turn] != OCTO_HELD or not self._could_lose(k, low):
                    raise InvalidStateError(
                        f"{_BAD}ship {k} is in play but would already have been scored: only the source of "
                        "the octopus move that ended the game stays unscored (S5, S6)")
                if self.pile_n[_pile_of(self, self.turn)] and self.hand_n[self.turn] < HAND:
                    raise InvalidStateError(f"{_BAD}an octopus move ended the game: seat {self.turn} drew no card")
                o = k
                continue
            raise InvalidStateError(f"{_BAD}ship {k} is in play but would already have been scored (S6)")

    def _crew_options(self, ship, token):
        """The two crew destinations (toward the bow, toward the rear) from ``ship``."""
        return (_crew_dest(self, ship, -1, token), _crew_dest(self, ship, 1, token))

    def _could_lose(self, ship, v):
        """Whether ship (in play) could have held one more card of value v on one of its
        sides without scoring (S6), i.e. be the source of an octopus move of that card."""
        thr = self.rules.ship_val[ship] + 3 * self.rum_on[ship]
        for j in range(2):
            s = 2 * ship + j
            if (self.slot_n[s] < SIDE_MAX and self.slot_sum[s] + v < thr and self.slot_sum[s ^ 1] < thr
                    and not (self.slot_n[s] + 1 == SIDE_MAX and self.slot_n[s ^ 1] == SIDE_MAX)):
                return True
        return False

    def _side_scores(self, ship):
        """Whether ship (in play) has a side at or over its threshold, or two full sides."""
        thr = self.rules.ship_val[ship] + 3 * self.rum_on[ship]
        return (self.slot_sum[2 * ship] >= thr or self.slot_sum[2 * ship + 1] >= thr
                or (self.slot_n[2 * ship] == SIDE_MAX and self.slot_n[2 * ship + 1] == SIDE_MAX))



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
    for i in range(self.hand_n[seat]):  # no branch on the face: which card matches is random
        c = self.hand[seat * HAND + i]
        eq = self.rules.card_face[c] == f
        same += eq
        better = eq & (c < best)
        best += (c - best) * better
        bi += (i - bi) * better
    self.hand_n[seat] -= 1
    self.hand[seat * HAND + bi] = self.hand[seat * HAND + self.hand_n[seat]]
    if same == 1:  # the last of its face
        self.hand_fmask[seat] &= ~(BIT32 << f)
        self.hand_nf[seat] -= 1
    return best


def _take_from_slot(self, s, f):
    """Remove and return the lowest-id movable card of face f from slot s."""
    best = -1
    bi = -1
    opp_octo = self.octo[1 - self.cur]
    n = self.slot_n[s]
    for i in range(n):
        c = self.slot_cards[s * SIDE_MAX + i]
        if self.rules.card_face[c] == f and c != opp_octo and (best < 0 or c < best):
            best = c
            bi = i
    for i in range(bi, n - 1):  # keep the order of the rest
        self.slot_cards[s * SIDE_MAX + i] = self.slot_cards[s * SIDE_MAX + i + 1]
    self.slot_n[s] = n - 1
    self.slot_sum[s] -= self.rules.face_val[f]
    nf = self.slot_nf[s]
    if (self.open_mask >> s) & 1:
        self.faces_open -= nf
    else:  # it had 5 cards; its ship card is in play (the octopus took a card from it)
        self.open_mask |= 1 << s
        self.n_open += 1
        _open_list(self)
    _slot_faces(self, s)
    self.faces_all += self.slot_nf[s] - nf
    self.faces_open += self.slot_nf[s]
    return best


def _take_from_pile(self, p, f):
    """Remove and return the lowest-id card of face f from pile p (variant picks): the
    first one, since the sets wait in card id order until the picks end (S15)."""
    bi = 0
    while self.rules.card_face[self.pile[p * MAXC + bi]] != f:
        bi += 1
    best = self.pile[p * MAXC + bi]
    for i in range(bi, self.pile_n[p] - 1):
        self.pile[p * MAXC + i] = self.pile[p * MAXC + i + 1]
    self.pile_n[p] -= 1
    return best


def _place(self, s, c):
    f = self.rules.card_face[c]
    self.slot_cards[s * SIDE_MAX + self.slot_n[s]] = c
    self.slot_n[s] += 1
    self.slot_sum[s] += self.rules.face_val[f]
    if not (self.slot_fmask[s] >> f) & 1:
        self.slot_fmask[s] |= BIT32 << f
        self.slot_nf[s] += 1
        self.faces_all += 1
        self.faces_open += 1  # the slot had room
    if self.slot_n[s] == SIDE_MAX:
        self.open_mask &= ~(1 << s)
        self.n_open -= 1
        self.faces_open -= self.slot_nf[s]
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
            if self.n_alive != in_play:  # S5: no move when ships in play == crew in play
                k0 = _crew_dest(self, ship, -1, t)
                k1 = _crew_dest(self, ship, 1, t)
                if k0 == k1:
                    self.crew[t] = k0  # one destination: nothing to decide
                else:
                    self.phase = PH_CREW
                    self.cur = side
                    self.pend_ship = ship
                    self.pend_side = side
                    self.pend_src = src
                    self.pend_draw = draw
                    self.pend_token = t
                    self.crew_opt[0] = k0
                    self.crew_opt[1] = k1
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
    thr = self.rules.ship_val[ship] + 3 * self.rum_on[ship]
    s0 = self.slot_sum[2 * ship]
    s1 = self.slot_sum[2 * ship + 1]
    if s0 >= thr:
        w = 0
    elif s1 >= thr:
        w = 1
    elif self.slot_n[2 * ship] == SIDE_MAX and self.slot_n[2 * ship + 1] == SIDE_MAX:
        if s0 > s1:
            w = 0
        elif s1 > s0:
            w = 1
        else:
            w = SHIP_REMOVED
    else:
        return False
    _score_ship(self, ship, w)
    if self.n_alive == 0 or self.points[0] >= 4 or self.points[1] >= 4:
        self.phase = PH_OVER
        return True
    return False


def _score_ship(self, ship, winner):
    self.ship_status[ship] = winner
    self.n_alive -= 1
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
        if self.rum[p] == ship:
            self.rum[p] = RUM_SPENT
    self.rum_on[ship] = 0
    for j in range(2):
        s = 2 * ship + j
        for i in range(self.slot_n[s]):
            c = self.slot_cards[s * SIDE_MAX + i]
            for p in range(2):
                if self.octo[p] == c:
                    self.octo[p] = OCTO_HELD  # S6: octopus returns to its owner
                    self.octo_slot[p] = -1
            self.removed[self.removed_n] = c
            self.removed_n += 1
        self.faces_all -= self.slot_nf[s]
        if (self.open_mask >> s) & 1:
            self.faces_open -= self.slot_nf[s]
            self.n_open -= 1
        self.slot_n[s] = 0
        self.slot_sum[s] = 0
        self.slot_fmask[s] = 0
        self.slot_nf[s] = 0
    self.open_mask &= ~(3 << (2 * ship))
    _open_list(self)


def _end_main(self):
    # S4: the rum mug may still be used after the main action.
    if self.rum[self.turn] == RUM_HELD:
        self.phase = PH_AFTER
        self.cur = self.turn
    else:
        _next_turn(self)


def _next_turn(self):
    self.turn = 1 - self.turn
    self.cur = self.turn
    self.phase = PH_MAIN


def _draw(self):
    p = _pile_of(self, self.turn)
    if self.pile_n[p] > 0 and self.hand_n[self.turn] < HAND:
        self.pile_n[p] -= 1
        c = self.pile[p * MAXC + self.pile_n[p]]
        self.hand[self.turn * HAND + self.hand_n[self.turn]] = c
        self.hand_n[self.turn] += 1
        f = self.rules.card_face[c]
        if not (self.hand_fmask[self.turn] >> f) & 1:
            self.hand_fmask[self.turn] |= BIT32 << f
            self.hand_nf[self.turn] += 1


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
    for i in range(self.hand_n[p]):
        m |= BIT32 << self.rules.card_face[self.hand[p * HAND + i]]
    self.hand_fmask[p] = m
    self.hand_nf[p] = _popcount(m)


def _slot_faces(self, s):
    """Recompute slot s's face set after a card left it."""
    m = 0
    for i in range(self.slot_n[s]):
        m |= BIT32 << self.rules.card_face[self.slot_cards[s * SIDE_MAX + i]]
    self.slot_fmask[s] = m
    self.slot_nf[s] = _popcount(m)


def _main_count(self):
    """Count the legal actions of a MAIN phase without listing them (fills the scratch
    fields that _main_kth reads). Same set and order as c_legal, from the bookkeeping:
    plays are faces in hand x open slots; octopus moves, per source slot, its movable
    faces x the open slots other than itself."""
    nopen = self.n_open
    self.sc_nopen = nopen
    self.sc_nplay = self.hand_nf[self.cur] * nopen
    self.sc_nocto = 0
    self.sc_oslot = -1
    if self.octo[self.cur] == OCTO_HELD:
        # The card under the opponent's octopus does not move (S7): its slot's movable
        # faces are those of its other cards.
        o = self.octo[1 - self.cur]
        s = self.octo_slot[1 - self.cur]
        if s >= 0:
            f = self.rules.card_face[o]
            i = 0  # other cards of its face there
            for c in range(self.slot_n[s]):
                i += self.rules.card_face[self.slot_cards[s * SIDE_MAX + c]] == f
            self.sc_oslot = s
            self.sc_omask = self.slot_fmask[s]
            self.sc_onf = self.slot_nf[s]
            if i == 1:  # its face moves only with another card of that face
                self.sc_omask &= ~(BIT32 << f)
                self.sc_onf -= 1
        # Movable faces summed over all slots, and over the open ones (an open source is
        # not its own destination): nopen destinations each, less one per open source.
        faces = self.faces_all
        held = self.faces_open
        if s >= 0:
            faces -= self.slot_nf[s] - self.sc_onf
            if (self.open_mask >> s) & 1:
                held -= self.slot_nf[s] - self.sc_onf
        self.sc_nocto = nopen * faces - held
    self.sc_nrum = self.n_alive if self.rum[self.cur] == RUM_HELD else 0
    n = self.sc_nplay + self.sc_nocto + self.sc_nrum
    if self.sc_nplay + self.sc_nocto == 0:
        n += 1  # pass
    return n


def _main_kth(self, k):
    """The k-th legal action (sorted order) of a MAIN phase, after _main_count."""
    nopen = self.sc_nopen
    if k < self.sc_nplay:
        i = _div(k, nopen)
        return self.rules.a_play + _select4(self.hand_fmask[self.cur], i) * NSLOT + self.open_at[k - i * nopen]
    k -= self.sc_nplay
    if k < self.sc_nocto:
        for s in range(NSLOT):
            dests = nopen - ((self.open_mask >> s) & 1)
            if s == self.sc_oslot:
                nf = self.sc_onf
                m = self.sc_omask
            else:
                nf = self.slot_nf[s]
                m = self.slot_fmask[s]
            if k >= nf * dests:
                k -= nf * dests
                continue
            i = _div(k, dests)
            k -= i * dests  # the k-th open slot other than s
            if (self.open_mask >> s) & 1 and k >= self.open_rank[s]:
                k += 1
            return self.rules.a_octo + (s * self.rules.num_faces + _select(m, i)) * NSLOT + self.open_at[k]
    k -= self.sc_nocto
    if k < self.sc_nrum:
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
    p = self.cur
    for i in range(self.pile_n[p]):
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


def _sort_hand(self, p):
    """Put seat p's hand in card id order (insertion sort of at most 4 cards)."""
    for i in range(1, self.hand_n[p]):
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
    for i in range(self.pile_n[p]):
        m |= BIT64 << self.pile[p * MAXC + i]
    i = 0
    c = 0
    while m:  # no branch on the bit: write, then keep or not (i <= c stays in p's row)
        self.pile[p * MAXC + i] = c
        i += m & 1
        m >>= 1
        c += 1


def _shuffle(self, p):
    i = self.pile_n[p] - 1
    while i > 0:
        j = _below(self, i + 1)
        tmp = self.pile[p * MAXC + i]
        self.pile[p * MAXC + i] = self.pile[p * MAXC + j]
        self.pile[p * MAXC + j] = tmp
        i -= 1
