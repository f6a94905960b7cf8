"""Dream Islands: the rules engine (compiled by Cython, runs as Python too).

The rules and rulings I1 ... I16 are in ``docs/dream_islands.md``; ruling ids are cited
where they apply. Types live in
``dream_islands.pxd``. The classes extend the compiled game contract (``engine.py``):
the generic public block (``legal_actions``, ``apply``, ``clone``, ``scores``,
``winners``, playouts ...) is written there against the ``c_*`` methods below, which
run without the GIL and allocate no Python objects; moves are small ints. Views, the
resampling of unseen cards (I13, and the hand memory of I16) and the observation tensors
are made here too, from the arrays. Checking and loading a snapshot is the work of
``dream_islands_snapshot.py`` (with ``set_raw``, the setter matching ``_get_raw`` here).

Movement as a flow (I1, I3). A piece moves along unit steps ("edges"):

* edge 0: airplane -> island 1, edges 1..7: island i -> island i + 1,
* edge 8: island 8 -> island 1 (the ring closes), edge 9: island 8 -> middle.

A split of the number N over the mover's pieces is a multiset of N edge uses, i.e. a
vector f[0..9] of non-negative ints summing to N. Two splits have the same result
exactly when they use the same multiset of edges: the result is the start minus the
boundary of f, and the boundary map is injective on flows of fewer than 8 units (the
only cycle of the board is the 8-edge ring). So the distinct moves of a number are the
compositions of N into 10 parts that the pieces can supply: at every place v the net
outflow out(v) - in(v) is at most the pieces standing there. A flow ending in the middle
uses edge 9 as its last step, so "entering the middle ends that piece's movement" holds.

Action ids (the same for every player count):

* ``a_cover[N - 2]``                cover N without moving (only with no movable piece, I3)
* ``a_cover[N - 2] + 1 + rank(f)``  cover N and move along flow f; rank is the position of f
                                    among the compositions of N into 10 parts, in
                                    lexicographic order of (f0, ..., f9)
* ``a_put + m``                     put mission m from the hand under the own draw pile (I6)
* ``a_done``                        end the exchange: draw up to 3 (I6)

Mission ids (I4; the same 16 for every colour): 0..3 exactly 2..5 own pieces on one ring
island; 4..7 own pieces on exactly 2..5 consecutive ring islands (a maximal run);
8..15 majority on island 1..8.
"""

try:  # pragma: no cover - depends on whether Cython is installed
    import cython
except ImportError:  # pragma: no cover
    from cruiselib._core import _cython_shim as cython

from cruiselib._core.constants import reason_table
from cruiselib._core.tensor_layout import TensorField, TensorLayout

from .engine import CoreRules, CoreState
from .rng import SPLITMIX64 as _SPLITMIX64
from .rng import mix64

if not cython.compiled:
    # The enum constants of the .pxd, their one home (compiled, they are C constants).
    from cruiselib._core.constants import enum_constants

    globals().update(enum_constants(__name__.rpartition(".")[2]))  # this module's own .pxd

GOLDEN, _, _, MASK64 = _SPLITMIX64  # the generator's constants have one home: rng.py
PK_HIGH = 0x888888888  # the high bit of each 4-bit place count (9 places)
RANDOM_TRIES = 256
# I15: the round counter is a C int. A game without a round limit still ends when it
# reaches this many complete rounds, so play never takes the counter past its range.
ROUND_CAP = 2147483647

_snapshot = None  # the module dream_islands_snapshot, once a state was loaded (_load_checked)

# The layout constants by name for Python code (the enum names are C-only when compiled).
LIMITS = {
    "players": MAXP,
    "places": NLOC,
    "edges": NEDGE,
    "pieces": PIECES,
    "hand": HAND,
    "missions": NMIS,
    "moves": NCOVER,
    "max_legal": MAXLEGAL,
    "rounds": ROUND_CAP,
    "score": MAX_SCORE,
}
PHASES = ("move", "exchange", "over")
SMALL_VALUES = (3, 2, 2)  # I1: the first three middle arrivals, in order

# Why an action is illegal, by c_check's code.
REASONS = reason_table(
    {
        R_LEGAL: "legal",
        R_GAME_OVER: "the game is over",
        R_WRONG_PHASE: "it is not the time for this kind of action",
        R_NUMBER_COVERED: "that number is already covered by a shell (I2)",
        R_MUST_MOVE_ALL: "the player has a movable piece: the whole number must be moved (I3)",
        R_TOO_FEW_PIECES: "the player has too few pieces where this move starts (I3)",
        R_MISSION_NOT_IN_HAND: "that mission card is not in the player's hand (I6)",
    }
)


def _compositions(total, parts):
    """Every composition of ``total`` into ``parts`` non-negative parts, lexicographic order."""
    if parts == 1:
        return [(total,)]
    out = []
    for u in range(total + 1):
        for rest in _compositions(total - u, parts - 1):
            out.append((u, *rest))
    return out


def flow_delta(flow):
    """The change of a seat's pieces per place (0 airplane, 1..8, 9 middle) made by a flow."""
    d = [0] * 10
    for e in range(10):
        u = flow[e]
        if u:
            src = 8 if e >= 8 else e
            dst = 9 if e == 9 else (1 if e == 8 else e + 1)
            d[src] -= u
            d[dst] += u
    return d


def _tensor_layouts(n):
    """The observation and information-state tensors of ``n`` seats (docs/dream_islands.md,
    "Observation tensor"). Per-seat fields list the seats in turn order from the observer.
    Every count is divided by the most it can be, so every entry lies in [0, 1]."""
    obs = TensorLayout(
        (
            TensorField("pieces", (n, NLOC), 0.0, 1.0, "per seat, its pieces on the airplane and islands 1-8 / 6"),
            TensorField("middle", n, 0.0, 1.0, "per seat, its pieces in the middle (small and main islands) / 6"),
            TensorField("small_islands", (3, n), 0.0, 1.0, "per small island (3, 2, 2), one-hot of its seat"),
            TensorField("covered", (n, 4), 0.0, 1.0, "per seat, 1 for each number 2..5 under a shell"),
            TensorField("completed", (n, NMIS), 0.0, 1.0, "per seat, 1 for each completed mission"),
            TensorField("hand_size", n, 0.0, 1.0, "per seat, cards in hand / 3"),
            TensorField("pile_size", n, 0.0, 1.0, "per seat, cards in the draw pile / 16"),
            TensorField("under", n, 0.0, 1.0, "per seat, cards it put under its pile still there / 16"),
            TensorField("score", n, 0.0, 1.0, "per seat, its score / 45 (the highest, I7, I1)"),
            TensorField("hand", NMIS, 0.0, 1.0, "1 for each mission in the observer's hand"),
            TensorField("under_pile", NMIS, 0.0, 1.0, "the observer's cards under its pile: 1 - i/16, i before it"),
            TensorField("pile_unseen", NMIS, 0.0, 1.0, "1 for each other mission in the observer's pile"),
            TensorField("phase", len(PHASES), 0.0, 1.0, "one-hot: move, exchange, over"),
            TensorField("current_player", n, 0.0, 1.0, "one-hot of the seat to decide (zero once over)"),
            TensorField("end_triggered", 1, 0.0, 1.0, "1 once the end was signalled (I7)"),
            TensorField("last_round", 1, 0.0, 1.0, "1 while the game runs in its last round (I7, I9, I15)"),
            TensorField("rounds", 1, 0.0, 1.0, "complete rounds played, min(rounds, 32) / 32"),
        )
    )
    info = obs.extended(
        TensorField(
            "hand_avoids",
            (n, HAND, NMIS),
            0.0,
            1.0,
            "per seat and k = 1..3, the missions at least k of its hand's cards are none of (I16)",
        )
    )
    return obs, info


class DreamIslandsRules(CoreRules):
    """Immutable per-game tables: player count, option values, the action layout."""

    def __init__(self, num_players, max_rounds):
        if not cython.compiled:
            self.a_cover = [0] * 4
            self.compositions = [0] * ((NEDGE + 1) * (MAXN + 1))
            self.action_deltas = [0] * (NCOVER * NEDGE)
            self.action_flows = [0] * (NCOVER * NEDGE)
            self.action_numbers = [0] * NCOVER
            self.run_table = [0] * 256
            self.action_needs = [0] * NCOVER
            self.action_adds = [0] * NCOVER
            self.flow_counts = [0] * 4
        if not (2 <= num_players <= MAXP and 0 <= max_rounds <= ROUND_CAP):
            raise ValueError("rules out of range")
        self.max_rounds = max_rounds
        self.view_types = None
        # I9 when set, else I15: the round after which the game ends in any case.
        self.round_limit = max_rounds if max_rounds > 0 else ROUND_CAP
        # compositions[k * 6 + r]: compositions of r into k non-negative parts, C(r + k - 1, k - 1).
        for k in range(NEDGE + 1):
            for r in range(MAXN + 1):
                if k == 0:
                    c = 1 if r == 0 else 0
                else:
                    c = 1
                    for j in range(1, k):
                        c = c * (r + j) // j
                self.compositions[k * (MAXN + 1) + r] = c
        a = 0
        for number in range(2, MAXN + 1):
            self.a_cover[number - 2] = a
            self.action_numbers[a] = number  # cover without moving: flow and delta all zero
            self.action_needs[a] = 0
            self.action_adds[a] = 0
            for e in range(NEDGE):
                self.action_flows[a * NEDGE + e] = 0
                self.action_deltas[a * NEDGE + e] = 0
            a += 1
            for flow in _compositions(number, NEDGE):
                self.action_numbers[a] = number
                d = flow_delta(flow)
                need = 0
                add = 0
                for e in range(NEDGE):
                    self.action_flows[a * NEDGE + e] = flow[e]
                    self.action_deltas[a * NEDGE + e] = d[e]
                    if e < NLOC:
                        if d[e] < 0:
                            need |= (-d[e]) << (4 * e)
                        else:
                            add |= d[e] << (4 * e)
                # Packed per-place counts, 4 bits a place (see DreamIslandsCore.packed_pieces).
                self.action_needs[a] = need
                self.action_adds[a] = add
                a += 1
            self.flow_counts[number - 2] = a - self.a_cover[number - 2] - 1
        if a != NCOVER:  # pragma: no cover - fixed by the board
            raise ValueError("action table size mismatch")
        self.a_put = NCOVER
        self.a_done = NCOVER + NMIS
        # The tensors, declared once (tensor_layout.py); the writers' offsets come from them.
        obs, info = _tensor_layouts(num_players)
        self._init_contract(num_players, self.a_done + 1, REASONS, obs, info)
        self._read_offsets(obs, info)
        # run_table[occupied islands]: bit k - 2 set when a maximal run of exactly k (2..5)
        # occupied islands exists; the ring wraps 8 -> 1, a full ring has no run (I4).
        for occ in range(256):
            bits = 0
            if occ != 255 and occ != 0:
                start = 0
                while (occ >> start) & 1:  # start just after an empty island
                    start += 1
                run = 0
                for step in range(1, 9):
                    i = (start + step) % 8
                    if (occ >> i) & 1:
                        run += 1
                    else:
                        if 2 <= run <= 5:
                            bits |= 1 << (run - 2)
                        run = 0
            self.run_table[occ] = bits

    def cover_action(self, number):
        """The id of "cover ``number`` without moving"; flows of that number follow it."""
        return self.a_cover[number - 2]

    def action_number(self, a):
        return self.action_numbers[a]

    def action_flow(self, a):
        """The edge flow (10 ints) of a cover action."""
        return tuple(self.action_flows[a * NEDGE + e] for e in range(NEDGE))

    def flow_rank(self, flow):
        """The lexicographic rank of a composition among those of the same total."""
        rem = 0
        for e in range(NEDGE):
            rem += flow[e]
        rank = 0
        for i in range(NEDGE - 1):
            for u in range(flow[i]):
                rank += self.compositions[(NEDGE - 1 - i) * (MAXN + 1) + rem - u]
            rem -= flow[i]
        return rank

    def run_bits(self, occ):
        return self.run_table[occ]

    def _read_offsets(self, obs, info):
        """Where each tensor field starts, from the layouts (the writers' ``o_*``), and a
        check that the writers' arithmetic for their last field ends where the layouts do."""
        n = self.num_players
        self.o_pieces = obs.offset("pieces")
        self.o_middle = obs.offset("middle")
        self.o_small_islands = obs.offset("small_islands")
        self.o_covered = obs.offset("covered")
        self.o_completed = obs.offset("completed")
        self.o_hand_size = obs.offset("hand_size")
        self.o_pile_size = obs.offset("pile_size")
        self.o_under = obs.offset("under")
        self.o_score = obs.offset("score")
        self.o_hand = obs.offset("hand")
        self.o_under_pile = obs.offset("under_pile")
        self.o_pile_unseen = obs.offset("pile_unseen")
        self.o_phase = obs.offset("phase")
        self.o_current_player = obs.offset("current_player")
        self.o_end_triggered = obs.offset("end_triggered")
        self.o_last_round = obs.offset("last_round")
        self.o_rounds = obs.offset("rounds")
        self.o_hand_avoids = info.offset("hand_avoids")
        obs.check_end(self.o_rounds + 1)  # c_observe: one entry for the rounds
        info.check_end(self.o_hand_avoids + n * HAND * NMIS)  # c_info_state: a plane per seat and level


class DreamIslandsCore(CoreState):
    """One game position. Subclassed by :class:`cruiselib.dream_islands.DreamIslandsState`."""

    def __init__(self, rules, game=None):
        CoreState.__init__(self, rules, game)
        self.rules = rules
        self.players = rules.num_players

    def c_init_arrays(self):
        if not cython.compiled:
            self.pieces = [0] * (MAXP * NLOC)
            self.place_total = [0] * NLOC
            self.movable_pieces = [0] * MAXP
            self.packed_pieces = [0] * MAXP
            self.small_islands = [0] * 3
            self.main_island = [0] * MAXP
            self.middle_points = [0] * MAXP
            self.covered = [0] * MAXP
            self.hand = [0] * (MAXP * HAND)
            self.hand_size = [0] * MAXP
            self.pile = [0] * (MAXP * NMIS)
            self.pile_size = [0] * MAXP
            self.under_count = [0] * MAXP
            self.completed = [0] * MAXP
            self.completed_count = [0] * MAXP
            self.legal_ids = [0] * MAXLEGAL
            self.gen_flow = [0] * NEDGE
            self.gen_capacity = [0] * NEDGE
            self.hand_memory = [0] * (MAXP * HAND)
            self.levels = [0] * HAND
            self.deal_pool = [0] * NMIS
            self.deal_class_size = [0] * (HAND + 1)
            self.deal_class_at = [0] * (HAND + 1)

    # ------------------------------------------------------------------ setup

    def _shuffle_pile(self, p, lo):
        """Shuffle pile[lo:] of seat p (Fisher-Yates)."""
        o = p * NMIS
        i = self.pile_size[p] - 1
        while i > lo:
            j = lo + self.c_below(i - lo + 1)
            tmp = self.pile[o + i]
            self.pile[o + i] = self.pile[o + j]
            self.pile[o + j] = tmp
            i -= 1

    def _setup(self, rng_state, start_player):
        """A new game (I8): 5 pieces on the airplane, the sixth of seat s on island s + 1;
        each seat shuffles its 16 missions and draws 3. Seat 0 is the start player."""
        self.rng = rng_state & MASK64
        self.players = self.rules.num_players
        for i in range(NLOC):
            self.place_total[i] = 0
        for i in range(3):
            self.small_islands[i] = -1
        self.middle_count = 0
        for p in range(MAXP):
            for i in range(NLOC):
                self.pieces[p * NLOC + i] = 0
            self.movable_pieces[p] = 0
            self.packed_pieces[p] = 0
            self.main_island[p] = 0
            self.middle_points[p] = 0
            self.covered[p] = 0
            self.hand_size[p] = 0
            self.pile_size[p] = 0
            self.under_count[p] = 0
            self.completed[p] = 0
            self.completed_count[p] = 0
        for i in range(MAXP * HAND):
            self.hand_memory[i] = 0
        for p in range(self.players):
            self.pieces[p * NLOC] = PIECES - 1
            self.pieces[p * NLOC + p + 1] = 1
            self.place_total[0] += PIECES - 1
            self.place_total[p + 1] += 1
            self.movable_pieces[p] = PIECES
            self.packed_pieces[p] = (PIECES - 1) | (1 << (4 * (p + 1)))
            for i in range(NMIS):
                self.pile[p * NMIS + i] = i
            self.pile_size[p] = NMIS
            self._shuffle_pile(p, 0)
            for i in range(HAND):
                self.pile_size[p] -= 1
                self.hand[p * HAND + i] = self.pile[p * NMIS + self.pile_size[p]]
            self.hand_size[p] = HAND
        self.current_seat = 0
        self.rounds = 0
        self.end_signalled = False
        self.phase = PH_MOVE

    # ------------------------------------------------------------------ the contract

    def c_current(self):
        return -1 if self.phase == PH_OVER else self.current_seat

    def c_legal_at(self, i):
        return self.legal_ids[i]

    def c_copy_into(self, dst):
        self._copy_into(cython.cast(DreamIslandsCore, dst))

    def c_score(self, p):
        """Victory points (I7): 2 per mission, middle-island points, 3 bonus for all 16."""
        return 2 * self.completed_count[p] + self.middle_points[p] + (3 if self.completed_count[p] == NMIS else 0)

    def c_winners_mask(self):
        """Once the game is over, every seat with the most points, ties broken by the most
        missions, a tie after that shared (I7); 0 while the game runs."""
        if self.phase != PH_OVER:
            return 0
        best = -1
        for p in range(self.players):
            key = self.c_score(p) * 32 + self.completed_count[p]
            if key > best:
                best = key
        mask = 0
        for p in range(self.players):
            if self.c_score(p) * 32 + self.completed_count[p] == best:
                mask |= 1 << p
        return mask

    # ------------------------------------------------------------------ queries

    @property
    def phase_name(self):
        return PHASES[self.phase]

    @property
    def end_triggered(self):
        """Whether the end was signalled (I7): the current round is the last."""
        return bool(self.end_signalled)

    # ------------------------------------------------------------------ missions

    def _mission_mask(self, p):
        """Bit m set when mission m holds for seat p now (I4)."""
        o = p * NLOC
        mask = 0
        occ = 0
        for i in range(1, NLOC):
            c = self.pieces[o + i]
            if c == 0:
                continue
            occ |= 1 << (i - 1)
            if c <= 5 and c >= 2:
                mask |= 1 << (c - 2)
            others = self.place_total[i] - c
            if self.players == 2:
                if c >= others + 2:  # I4: with 2 players, at least 2 more than the opponent
                    mask |= 1 << (7 + i)
            elif c > others:
                mask |= 1 << (7 + i)
        return mask | (self.rules.run_table[occ] << 4)

    def mission_mask(self, seat):
        """Bit m set when mission m (0..15) holds for ``seat`` in this position (I4)."""
        return self._mission_mask(seat)

    # ------------------------------------------------------------------ legal moves

    def _dfs(self, i, rem, rank, n, o):
        """Choose f[i] (then f[i+1] ...) of the flow; append every legal completion's id.

        Pruning keeps every branch alive to a leaf: f[i] <= pieces on place i plus f[i-1]
        (i >= 2); the units left after f[i] must fit downstream, where at most
        (8 - i) * f[i] + gen_capacity[i + 1] more can go; and enough units must be left for
        edge 8 to feed island 1 (gen_feed1).
        """
        if i == 0:
            hi = self.pieces[o]
        elif i == 1:
            hi = (self.pieces[o + 1] + self.gen_flow[0] + rem) >> 1  # f1 <= p1 + f0 + f8, f8 <= rem - f1
        else:
            hi = self.pieces[o + i] + self.gen_flow[i - 1]
            if hi > rem - self.gen_feed1:
                hi = rem - self.gen_feed1
        if hi > rem:
            hi = rem
        k = (NEDGE - 1 - i) * (MAXN + 1)
        lo = 0
        if i >= 1:
            # rem - u <= (8 - i) * u + cap[i + 1]  <=>  u >= (rem - cap[i + 1]) / (9 - i)
            lo = rem - self.gen_capacity[i + 1]
            if lo > 0:
                lo = (lo + 8 - i) // (9 - i)
                for u in range(lo):
                    rank += self.rules.compositions[k + rem - u]
            else:
                lo = 0
        if i == 7:
            # The last choice: f7 = u, then f8 in feed1..rem-u and f9 = rem - u - f8.
            # Place 8 can pass everything left on (the bound on lo), place 1 is fed by
            # f8 >= feed1 (f1 - f0 - f8 <= pieces on island 1); compositions[1][*] == 1.
            for u in range(lo, hi + 1):
                for d in range(self.gen_feed1, rem - u + 1):
                    self.legal_ids[n] = self.gen_base + rank + d
                    n += 1
                rank += self.rules.compositions[k + rem - u]
            return n
        for u in range(lo, hi + 1):
            self.gen_flow[i] = u
            if i == 1:
                self.gen_feed1 = u - self.gen_flow[0] - self.pieces[o + 1]
                if self.gen_feed1 < 0:
                    self.gen_feed1 = 0
            n = self._dfs(i + 1, rem - u, rank, n, o)
            rank += self.rules.compositions[k + rem - u]
        return n

    def _gen(self, number, n):
        """Append the ids of every distinct move of ``number`` for the current seat (I3)."""
        o = self.current_seat * NLOC
        self.gen_base = self.rules.a_cover[number - 2] + 1
        # gen_capacity[i]: most units edges i..9 can carry with nothing flowing into place i,
        # sum over places k >= i of (9 - k) * pieces on k.
        self.gen_capacity[9] = 0
        for i in range(8, 1, -1):
            self.gen_capacity[i] = self.gen_capacity[i + 1] + (9 - i) * self.pieces[o + i]
        self.gen_feed1 = 0
        return self._dfs(0, number, 0, n, o)

    def count_moves(self, number):
        """How many distinct moves ``number`` has for the current seat (a benchmark hook)."""
        n = self._gen(number, 0)
        return n

    def c_legal(self):
        """Write the sorted legal action ids into self.legal_ids; return their count."""
        n = 0
        if self.phase == PH_MOVE:
            for number in range(2, MAXN + 1):
                if (self.covered[self.current_seat] >> (number - 2)) & 1:
                    continue
                if self.movable_pieces[self.current_seat] == 0:
                    self.legal_ids[n] = self.rules.a_cover[number - 2]  # I3: covered, nothing moves
                    n += 1
                else:
                    n = self._gen(number, n)
        elif self.phase == PH_EXCHANGE:
            o = self.current_seat * HAND
            a = 99
            b = 99
            c = 99
            if self.hand_size[self.current_seat] > 0:
                a = self.hand[o]
            if self.hand_size[self.current_seat] > 1:
                b = self.hand[o + 1]
            if self.hand_size[self.current_seat] > 2:
                c = self.hand[o + 2]
            if a > b:
                a, b = b, a
            if b > c:
                b, c = c, b
            if a > b:
                a, b = b, a
            if a < 99:
                self.legal_ids[n] = self.rules.a_put + a
                n += 1
            if b < 99:
                self.legal_ids[n] = self.rules.a_put + b
                n += 1
            if c < 99:
                self.legal_ids[n] = self.rules.a_put + c
                n += 1
            self.legal_ids[n] = self.rules.a_done
            n += 1
        return n

    def c_random_action(self, r):
        """A uniformly random legal action, from the 64-bit random value r.

        Moving: rejection sampling over every flow of the uncovered numbers (uniform
        proposals, a packed legality test), falling back to the full list after
        RANDOM_TRIES misses; a mix of uniform draws over the legal moves is uniform.
        """
        if self.phase == PH_MOVE and self.movable_pieces[self.current_seat] > 0:
            total = 0
            for number in range(2, MAXN + 1):
                if not (self.covered[self.current_seat] >> (number - 2)) & 1:
                    total += self.rules.flow_counts[number - 2]
            pk = self.packed_pieces[self.current_seat] | PK_HIGH
            z = r
            a = 0
            for t in range(RANDOM_TRIES):
                z = mix64((z + GOLDEN) & MASK64)
                x = ((z >> 32) * total) >> 32
                for number in range(2, MAXN + 1):
                    if not (self.covered[self.current_seat] >> (number - 2)) & 1:
                        if x < self.rules.flow_counts[number - 2]:
                            a = self.rules.a_cover[number - 2] + 1 + x
                            break
                        x -= self.rules.flow_counts[number - 2]
                if (pk - self.rules.action_needs[a]) & PK_HIGH == PK_HIGH:
                    return a
        n = self.c_legal()
        return self.legal_ids[((r >> 32) * n) >> 32]

    def _random_actions(self, n, seed):
        """``n`` draws of the playouts' random choice in this position (a test hook)."""
        r = mix64(seed & MASK64)
        out = []
        for i in range(n):
            r = (r + GOLDEN) & MASK64
            out.append(self.c_random_action(mix64(r)))
        return out

    def c_check(self, a):
        """R_LEGAL (0) if action a is legal now, else the code (R_*) of why not, its index
        into REASONS. Never mutates."""
        if self.phase == PH_OVER:
            return R_GAME_OVER
        if a < self.rules.a_put:
            if self.phase != PH_MOVE:
                return R_WRONG_PHASE
            number = self.rules.action_numbers[a]
            if (self.covered[self.current_seat] >> (number - 2)) & 1:
                return R_NUMBER_COVERED
            if a == self.rules.a_cover[number - 2]:
                return R_LEGAL if self.movable_pieces[self.current_seat] == 0 else R_MUST_MOVE_ALL
            if ((self.packed_pieces[self.current_seat] | PK_HIGH) - self.rules.action_needs[a]) & PK_HIGH != PK_HIGH:
                return R_TOO_FEW_PIECES  # some place has fewer pieces than leave it
            return R_LEGAL
        if self.phase != PH_EXCHANGE:
            return R_WRONG_PHASE
        if a == self.rules.a_done:
            return R_LEGAL
        x = a - self.rules.a_put
        o = self.current_seat * HAND
        for i in range(self.hand_size[self.current_seat]):
            if self.hand[o + i] == x:
                return R_LEGAL
        return R_MISSION_NOT_IN_HAND

    # ------------------------------------------------------------------ applying

    def c_do(self, a):
        if a < self.rules.a_put:
            # A: cover the number (I2), move the pieces along the flow (I1, I3).
            number = self.rules.action_numbers[a]
            self.covered[self.current_seat] |= 1 << (number - 2)
            o = self.current_seat * NLOC
            base = a * NEDGE
            self.packed_pieces[self.current_seat] = (
                self.packed_pieces[self.current_seat] - self.rules.action_needs[a] + self.rules.action_adds[a]
            )
            for v in range(NLOC):
                d = self.rules.action_deltas[base + v]
                if d != 0:
                    self.pieces[o + v] += d
                    self.place_total[v] += d
            k = self.rules.action_deltas[base + MID]
            if k > 0:
                # I1: arrivals fill the small islands 3, 2, 2 in order, then the main island.
                self.movable_pieces[self.current_seat] -= k
                while k > 0:
                    if self.middle_count < 3:
                        self.small_islands[self.middle_count] = self.current_seat
                        self.middle_points[self.current_seat] += 3 if self.middle_count == 0 else 2
                    else:
                        self.main_island[self.current_seat] += 1
                        self.middle_points[self.current_seat] += 1
                    self.middle_count += 1
                    k -= 1
                if self.middle_count >= 6:
                    self.end_signalled = True  # I7
            # B: missions complete automatically (I5); the table learns about the hand (I16).
            h = self.hand_size[self.current_seat]
            dn = self.completed[self.current_seat]
            holds = self._complete_missions()
            self._remember(self.current_seat, self.completed[self.current_seat] & ~dn, holds, h)
            # C: exchange (I6); nothing to decide with an empty hand.
            if self.hand_size[self.current_seat] > 0:
                self.phase = PH_EXCHANGE
            else:
                self._finish_turn()
        elif a < self.rules.a_done:
            self._put_under(a - self.rules.a_put)
        else:
            self._finish_turn()

    def _complete_missions(self):
        """I5: every mission in the mover's hand that holds is completed. Returns the
        missions that hold (none of them is left in the hand: I13)."""
        p = self.current_seat
        mask = self._mission_mask(p)
        i = 0
        while i < self.hand_size[p]:
            x = self.hand[p * HAND + i]
            if (mask >> x) & 1:
                self.completed[p] |= 1 << x
                self.completed_count[p] += 1
                self.hand_size[p] -= 1
                # keep the order of the rest (the hand order is part of the state)
                while i < self.hand_size[p]:
                    self.hand[p * HAND + i] = self.hand[p * HAND + i + 1]
                    i += 1
                i = 0
            else:
                i += 1
        if self.completed_count[p] == NMIS:
            self.end_signalled = True  # I7: the last mission is done
        return mask

    def _put_under(self, x):
        """I6: mission x goes from the hand to the very bottom of the own draw pile."""
        p = self.current_seat
        o = p * HAND
        for i in range(self.hand_size[p]):
            if self.hand[o + i] == x:
                self.hand_size[p] -= 1
                while i < self.hand_size[p]:
                    self.hand[o + i] = self.hand[o + i + 1]
                    i += 1
                break
        o = p * NMIS
        i = self.pile_size[p]
        while i > 0:
            self.pile[o + i] = self.pile[o + i - 1]
            i -= 1
        self.pile[o] = x
        self.pile_size[p] += 1
        self.under_count[p] += 1
        # I16: nobody saw which card went, so at least k - 1 of those left are none of
        # level k: level k + 1 becomes level k.
        o = p * HAND
        self.hand_memory[o] = self.hand_memory[o + 1]
        self.hand_memory[o + 1] = self.hand_memory[o + 2]
        self.hand_memory[o + 2] = 0
        if self.hand_size[p] == 0:
            self._finish_turn()  # every card is under: only "draw" is left

    def _draw(self):
        """I6: draw from the top until the hand holds 3 (fewer when the pile is short)."""
        p = self.current_seat
        while self.hand_size[p] < HAND and self.pile_size[p] > 0:
            self.pile_size[p] -= 1
            self.hand[p * HAND + self.hand_size[p]] = self.pile[p * NMIS + self.pile_size[p]]
            self.hand_size[p] += 1
        if self.under_count[p] > self.pile_size[p]:
            self.under_count[p] = self.pile_size[p]

    def _finish_turn(self):
        self._draw()
        last = self.current_seat == self.players - 1
        if last:
            self.rounds += 1
            # I7: the round is finished with the last seat; I9: optional round limit; I15:
            # without one, the counter's cap.
            if self.end_signalled or self.rounds >= self.rules.round_limit:
                self.phase = PH_OVER
                return
        self.current_seat = 0 if last else self.current_seat + 1
        p = self.current_seat
        if self.covered[p] == 15:
            self.covered[p] = 0  # I2: all four covered at the start of the turn
        self.phase = PH_MOVE

    # ------------------------------------------------------------------ memory (I16)

    def _remember(self, p, gone, holds, h_old):
        """I16: what seat p's move shows the table about its hand. Before the move at least
        k of its ``h_old`` cards were none of level k (hand_memory[p * 3 + k - 1]); the cards
        ``gone`` (completed now, face up) left the hand; every card still in it is none of
        ``holds``, the missions that hold now (I5, I13)."""
        o = p * HAND
        h = self.hand_size[p]
        l1 = self.hand_memory[o]
        l2 = self.hand_memory[o + 1]
        l3 = self.hand_memory[o + 2]
        if gone != 0:
            # Old level j held for j cards; the completed cards outside it were among them,
            # so it still holds for n_j of the cards left. New level k is the widest old
            # level that holds for k cards (the levels shrink, so it implies the others).
            n1 = 1
            n2 = 2 if h_old >= 2 else 0
            n3 = 3 if h_old >= 3 else 0
            g = gone
            while g != 0:
                x = g & -g
                if not l1 & x:
                    n1 -= 1
                if not l2 & x:
                    n2 -= 1
                if not l3 & x:
                    n3 -= 1
                g ^= x
            k1 = l1 if n1 >= 1 else (l2 if n2 >= 1 else (l3 if n3 >= 1 else 0))
            k2 = l2 if n2 >= 2 else (l3 if n3 >= 2 else 0)
            l3 = l3 if n3 >= 3 else 0
            l1 = k1
            l2 = k2
        nd = ~self.completed[p]
        self.hand_memory[o] = (l1 | holds) & nd if h > 0 else 0
        self.hand_memory[o + 1] = (l2 | holds) & nd if h > 1 else 0
        self.hand_memory[o + 2] = (l3 | holds) & nd if h > 2 else 0

    def _levels(self, q, recall):
        """Into levels[k - 1], k = 1 .. seat q's hand size: missions that at least k of its
        hand's cards are none of (0 past the hand). What the table shows (I13: during its
        exchange the mover holds no mission that holds now) and, with ``recall``, what
        play showed earlier (I16, hand_memory)."""
        holds = 0
        if self.phase == PH_EXCHANGE and q == self.current_seat:
            holds = self._mission_mask(q)
        o = q * HAND
        for k in range(HAND):
            v = 0
            if k < self.hand_size[q]:
                v = holds
                if recall:
                    v = v | self.hand_memory[o + k]
                v = v & ~self.completed[q]
            self.levels[k] = v

    def _hand_ways(self, h, x0, x1, x2):
        """How many hands of h cards take x_t cards of class t (deal_class_size) and meet the levels:
        a card of class t is outside level t + 1 and so outside every later level (they
        shrink), inside the earlier ones; level k needs k cards of classes below k."""
        if x0 + x1 + x2 != h or (h < 3 and x2 > 0) or (h < 2 and x1 > 0):
            return 0
        if (h >= 1 and x0 < 1) or (h >= 2 and x0 + x1 < 2):
            return 0
        return (
            _choose(self.deal_class_size[0], x0)
            * _choose(self.deal_class_size[1], x1)
            * _choose(self.deal_class_size[2], x2)
        )

    def _deal_seat(self, q):
        """Deal seat q's hand and pile anew from the cards in them: the hand uniformly among
        the hands (in any order) that meet the levels (levels), the pile uniformly ordered.

        A card's class is the first level it is outside of (the hand size: inside all).
        A hand is a choice of how many cards of each class, then which: the counts are
        drawn with weight the number of hands they give, the cards uniformly in a class."""
        h = self.hand_size[q]
        oh = q * HAND
        op = q * NMIS
        # The cards are seat q's missions not completed (face up), read by id, not from the
        # hand and pile: their order there is unseen, and the deal must not depend on it.
        free = ~self.completed[q]
        n = 0
        for c in range(NMIS):
            if (free >> c) & 1:
                self.deal_pool[n] = c
                n += 1
        if self.levels[0] == 0:  # nothing known of the hand (the levels shrink): one shuffle of all
            i = n - 1
            while i > 0:
                j = self.c_below(i + 1)
                c = self.deal_pool[i]
                self.deal_pool[i] = self.deal_pool[j]
                self.deal_pool[j] = c
                i -= 1
            for i in range(n):
                if i < h:
                    self.hand[oh + i] = self.deal_pool[i]
                else:
                    self.pile[op + i - h] = self.deal_pool[i]
            return
        for t in range(HAND + 1):
            self.deal_class_size[t] = 0
        for i in range(n):
            c = self.deal_pool[i]
            t = 0
            while t < h and (self.levels[t] >> c) & 1:
                t += 1
            self.deal_class_size[t] += 1
        self.deal_class_at[0] = 0
        for t in range(HAND):
            self.deal_class_at[t + 1] = self.deal_class_at[t] + self.deal_class_size[t]
        for c in range(NMIS):  # the cards sorted by class, by id within one (counting sort)
            if not (free >> c) & 1:
                continue
            t = 0
            while t < h and (self.levels[t] >> c) & 1:
                t += 1
            self.deal_pool[self.deal_class_at[t]] = c
            self.deal_class_at[t] += 1
        for t in range(HAND + 1):
            self.deal_class_at[t] -= self.deal_class_size[t]
        total = 0
        for x0 in range(HAND + 1):
            for x1 in range(HAND + 1):
                total += self._hand_ways(h, x0, x1, h - x0 - x1) if h - x0 - x1 >= 0 else 0
        if total == 0:  # pragma: no cover - the real hand meets the levels
            return
        r = self.c_below(total)
        y0 = 0
        y1 = 0
        for x0 in range(HAND + 1):
            for x1 in range(HAND + 1):
                if h - x0 - x1 >= 0:
                    w = self._hand_ways(h, x0, x1, h - x0 - x1)
                    if r >= 0 and r < w:
                        y0 = x0
                        y1 = x1
                    r -= w
        # The chosen cards of each class to the front of its run (partial Fisher-Yates),
        # into the hand; the rest make the pile.
        k = 0
        m = 0
        for t in range(HAND + 1):
            x = y0 if t == 0 else (y1 if t == 1 else (h - y0 - y1 if t == 2 else 0))
            s = self.deal_class_at[t]
            for i in range(x):
                j = s + i + self.c_below(self.deal_class_size[t] - i)
                c = self.deal_pool[j]
                self.deal_pool[j] = self.deal_pool[s + i]
                self.deal_pool[s + i] = c
                self.hand[oh + k] = c
                k += 1
            for i in range(x, self.deal_class_size[t]):
                self.pile[op + m] = self.deal_pool[s + i]
                m += 1
        i = h - 1
        while i > 0:  # the hand in a uniformly random order
            j = self.c_below(i + 1)
            c = self.hand[oh + i]
            self.hand[oh + i] = self.hand[oh + j]
            self.hand[oh + j] = c
            i -= 1
        self._shuffle_pile(q, 0)

    def _own_unseen(self, p):
        """Seat p's own pile above the cards it put under, rebuilt in id order from what it
        sees (its missions neither completed, in hand nor put under): the order they lay in
        is unseen, and the shuffle that follows must not depend on it."""
        m = ~self.completed[p]
        o = p * HAND
        for i in range(self.hand_size[p]):
            m &= ~(1 << self.hand[o + i])
        o = p * NMIS
        k = self.under_count[p]
        for i in range(k):
            m &= ~(1 << self.pile[o + i])
        for c in range(NMIS):
            if (m >> c) & 1:
                self.pile[o + k] = c
                k += 1

    def _sort_hand(self, p):
        """Seat p's hand in ascending order, as its view lists it (the order is unseen)."""
        o = p * HAND
        for i in range(1, self.hand_size[p]):
            x = self.hand[o + i]
            j = i
            while j > 0 and self.hand[o + j - 1] > x:
                self.hand[o + j] = self.hand[o + j - 1]
                j -= 1
            self.hand[o + j] = x

    def c_resample(self, seat, recall):
        """Deal anew, from self.rng, every card ``seat`` cannot see: its own pile but the
        cards it put under it (they keep their order); every other seat's hand and pile
        from their cards, the counts kept, the hand meeting what the table knows of it
        (I13) and with ``recall`` what play showed (I16).

        The result depends on ``view(seat, recall)`` and the generator alone: the cards are
        gathered by id, never in the order they lay in; the own hand comes out sorted (its
        order is unseen and plays no part); every seat's memory becomes what that view
        shows of it (with ``recall`` the memory itself; without, the table's facts, which
        every hand, old or dealt anew, meets)."""
        for q in range(self.players):
            self._levels(q, recall)
            if q == seat:
                self._sort_hand(q)
                self._own_unseen(q)
                self._shuffle_pile(q, self.under_count[q])
            else:
                self._deal_seat(q)
            for k in range(HAND):
                self.hand_memory[q * HAND + k] = self.levels[k]

    # ------------------------------------------------------------------ tensors

    def c_observe(self, seat, out):
        """Seat ``seat``'s observation (the fields of _tensor_layouts, at the offsets read
        from it, docs "Observation tensor"); seats in turn order from ``seat``. Made only of
        what view(seat) shows."""
        n = self.players
        for r in range(n):  # pieces: airplane, islands 1..8, count / 6
            p = (seat + r) % n
            for i in range(NLOC):
                out[self.rules.o_pieces + r * NLOC + i] = self.pieces[p * NLOC + i] / 6.0
        for r in range(n):  # middle: own pieces there / 6
            p = (seat + r) % n
            c = self.main_island[p]
            for i in range(3):
                if self.small_islands[i] == p:
                    c += 1
            out[self.rules.o_middle + r] = c / 6.0
        for i in range(3):  # small islands 3, 2, 2: one-hot seat
            if self.small_islands[i] >= 0:
                out[self.rules.o_small_islands + i * n + (self.small_islands[i] - seat + n) % n] = 1.0
        for r in range(n):
            p = (seat + r) % n
            for i in range(4):  # covered numbers 2..5
                if (self.covered[p] >> i) & 1:
                    out[self.rules.o_covered + r * 4 + i] = 1.0
            for i in range(NMIS):  # completed missions
                if (self.completed[p] >> i) & 1:
                    out[self.rules.o_completed + r * NMIS + i] = 1.0
            # counts: hand / 3, pile / 16, put under / 16, score / MAX_SCORE
            out[self.rules.o_hand_size + r] = self.hand_size[p] / 3.0
            out[self.rules.o_pile_size + r] = self.pile_size[p] / 16.0
            out[self.rules.o_under + r] = self.under_count[p] / 16.0
            out[self.rules.o_score + r] = self.c_score(p) / (MAX_SCORE * 1.0)
        o = self.rules.o_hand
        for i in range(self.hand_size[seat]):  # own hand
            out[o + self.hand[seat * HAND + i]] = 1.0
        o = self.rules.o_under_pile
        k = self.under_count[seat]
        for i in range(k):  # own cards under the pile: 1 - i / 16 for the i-th drawn next
            out[o + self.pile[seat * NMIS + k - 1 - i]] = 1.0 - i / 16.0
        o = self.rules.o_pile_unseen
        for i in range(k, self.pile_size[seat]):  # the rest of the own pile
            out[o + self.pile[seat * NMIS + i]] = 1.0
        out[self.rules.o_phase + self.phase] = 1.0
        if self.phase != PH_OVER:
            out[self.rules.o_current_player + (self.current_seat - seat + n) % n] = 1.0
        if self.end_signalled:
            out[self.rules.o_end_triggered] = 1.0
        if self.phase != PH_OVER and (self.end_signalled or self.rounds + 1 >= self.rules.round_limit):
            out[self.rules.o_last_round] = 1.0  # the current round is the last
        out[self.rules.o_rounds] = (self.rounds if self.rounds < 32 else 32) / 32.0

    def c_info_state(self, seat, out):
        """The observation, then per seat (in turn order from ``seat``) and k = 1..3 a
        0/1 plane of the missions at least k of its hand's cards are none of (I16)."""
        n = self.players
        self.c_observe(seat, out)
        o = self.rules.o_hand_avoids
        for r in range(n):
            p = (seat + r) % n
            self._levels(p, True)
            for k in range(HAND):
                for i in range(NMIS):
                    if (self.levels[k] >> i) & 1:
                        out[o + (r * HAND + k) * NMIS + i] = 1.0

    # ------------------------------------------------------------------ views

    def _view(self, seat, recall):
        """The DreamIslandsView of ``seat`` (checked by the caller), made from the arrays;
        with ``recall`` it lists what play showed of every hand (I16)."""
        R = self.rules
        T = R.view_types
        if T is None:  # the Struct classes, looked up once in the schema the game handed in
            S = R.schema
            T = R.view_types = (S.SeatInfo, S.HandMemory, S.DreamIslandsView)
        seat_info = T[0]
        n = self.players
        seats = []
        for p in range(n):
            o = p * NLOC
            c = self.main_island[p]
            for i in range(3):
                if self.small_islands[i] == p:
                    c += 1
            seats.append(
                seat_info(
                    p,
                    self.pieces[o],
                    [
                        self.pieces[o + 1],
                        self.pieces[o + 2],
                        self.pieces[o + 3],
                        self.pieces[o + 4],
                        self.pieces[o + 5],
                        self.pieces[o + 6],
                        self.pieces[o + 7],
                        self.pieces[o + 8],
                    ],
                    c,
                    _covered_list(self.covered[p]),
                    _bit_list(self.completed[p]),
                    self.hand_size[p],
                    self.pile_size[p],
                    self.under_count[p],
                    self.c_score(p),
                )
            )
        o = seat * HAND
        h = self.hand_size[seat]
        a = self.hand[o] if h > 0 else 99
        b = self.hand[o + 1] if h > 1 else 99
        c = self.hand[o + 2] if h > 2 else 99
        if a > b:
            a, b = b, a
        if b > c:
            b, c = c, b
        if a > b:
            a, b = b, a
        if h == 3:
            hand = [a, b, c]
        elif h == 2:
            hand = [a, b]
        elif h == 1:
            hand = [a]
        else:
            hand = []
        o = seat * NMIS
        k = self.under_count[seat]
        m = 0
        for i in range(k, self.pile_size[seat]):
            m |= 1 << self.pile[o + i]
        cur = self.c_current()
        memory = None
        if recall:
            memory = []
            hand_memory = T[1]
            for p in range(n):
                self._levels(p, True)
                memory.append(hand_memory(p, [_bit_list(self.levels[i]) for i in range(self.hand_size[p])]))
        return T[2](
            player=seat,
            players=n,
            max_rounds=R.max_rounds,
            phase=PHASES[self.phase],
            current_player=cur,
            rounds=self.rounds,
            end_triggered=self.end_signalled,
            seats=seats,
            small_islands=[self.small_islands[0], self.small_islands[1], self.small_islands[2]],
            hand=hand,
            under_pile=[self.pile[o + k - 1 - i] for i in range(k)],
            pile_unseen=_bit_list(m),
            legal_actions=self.legal_actions() if cur == seat else [],
            recall=memory,
        )

    # ------------------------------------------------------------------ copying

    def _copy_into(self, new):
        new.rules = self.rules
        new.game = self.game
        new.rng = self.rng
        new.players = self.players
        new.phase = self.phase
        new.current_seat = self.current_seat
        new.rounds = self.rounds
        new.end_signalled = self.end_signalled
        new.middle_count = self.middle_count
        # Whole arrays at once: a memcpy compiled, a list copy in pure Python.
        new.pieces[:] = self.pieces
        new.place_total[:] = self.place_total
        new.small_islands[:] = self.small_islands
        new.hand[:] = self.hand
        new.hand_memory[:] = self.hand_memory
        new.pile[:] = self.pile
        new.movable_pieces[:] = self.movable_pieces
        new.packed_pieces[:] = self.packed_pieces
        new.main_island[:] = self.main_island
        new.middle_points[:] = self.middle_points
        new.covered[:] = self.covered
        new.hand_size[:] = self.hand_size
        new.pile_size[:] = self.pile_size
        new.under_count[:] = self.under_count
        new.completed[:] = self.completed
        new.completed_count[:] = self.completed_count

    # ------------------------------------------------------------------ raw access
    # Not hot: rendering, tests, and the loader's last step (dream_islands_snapshot.py).

    def _get_raw(self):
        """The full state as a dict of plain Python values: the getter of the raw-state
        pair, whose setter is ``dream_islands_snapshot.set_raw`` (derived values, such as
        the totals per place, are left out: the setter derives them)."""
        n = self.players
        return {
            "rng": self.rng,
            "phase": self.phase,
            "cur": self.current_seat,
            "rounds": self.rounds,
            "pieces": [[self.pieces[p * NLOC + i] for i in range(NLOC)] for p in range(n)],
            "small": [self.small_islands[i] for i in range(3)],
            "main": [self.main_island[p] for p in range(n)],
            "covered": [self.covered[p] for p in range(n)],
            "hands": [[self.hand[p * HAND + i] for i in range(self.hand_size[p])] for p in range(n)],
            "piles": [[self.pile[p * NMIS + i] for i in range(self.pile_size[p])] for p in range(n)],
            "known": [self.under_count[p] for p in range(n)],
            "done": [self.completed[p] for p in range(n)],
            "hand_avoids": [[self.hand_memory[p * HAND + k] for k in range(self.hand_size[p])] for p in range(n)],
        }

    def _export(self):
        """The full state as a DreamIslandsStateData Struct (built here: the hot half of
        ``to_json``; what :meth:`_load` reads back)."""
        schema = self.rules.schema
        n = self.players
        return schema.DreamIslandsStateData(
            schema_version=schema.SCHEMA_VERSION,
            game=self.rules.game_name,
            players=n,
            max_rounds=self.rules.max_rounds,
            rng=f"{self.rng:016x}",  # serialize.RngText
            phase=PHASES[self.phase],
            current_player=-1 if self.phase == PH_OVER else self.current_seat,
            rounds=self.rounds,
            pieces=[[self.pieces[p * NLOC + i] for i in range(NLOC)] for p in range(n)],
            small_islands=[self.small_islands[0], self.small_islands[1], self.small_islands[2]],
            main_island=[self.main_island[p] for p in range(n)],
            covered=[[i + 2 for i in range(4) if (self.covered[p] >> i) & 1] for p in range(n)],
            hands=[[self.hand[p * HAND + i] for i in range(self.hand_size[p])] for p in range(n)],
            piles=[[self.pile[p * NMIS + i] for i in range(self.pile_size[p])] for p in range(n)],
            known=[self.under_count[p] for p in range(n)],
            hand_avoids=[[self.hand_memory[p * HAND + k] for k in range(self.hand_size[p])] for p in range(n)],
            completed=[[i for i in range(NMIS) if (self.completed[p] >> i) & 1] for p in range(n)],
        )

    def _load_checked(self, d, history):
        """Check the decoded snapshot ``d`` and load it (the contract, engine.py): the work
        of ``dream_islands_snapshot.load_checked``, which ends by ``set_raw``."""
        global _snapshot
        if _snapshot is None:  # imported here, on the first load: it cimports this module
            from . import dream_islands_snapshot as _snapshot
        _snapshot.load_checked(self, d, history)


def _choose(n, k):
    """C(n, k) for k = 0 .. 3."""
    if k == 0:
        return 1
    if k == 1:
        return n
    if k == 2:
        return n * (n - 1) // 2
    return n * (n - 1) * (n - 2) // 6


def _bit_list(mask):
    """The set bits of a 16-bit mask, ascending, as a new list."""
    out = []
    for x in range(NMIS):
        if (mask >> x) & 1:
            out.append(x)
    return out


def _covered_list(mask):
    """The numbers 2..5 covered in a 4-bit mask, ascending, as a new list."""
    out = []
    for x in range(4):
        if (mask >> x) & 1:
            out.append(x + 2)
    return out
