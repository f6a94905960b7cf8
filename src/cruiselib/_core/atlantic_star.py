"""Atlantic Star: the whole rules engine (compiled by Cython, runs as Python too).

Rulebook: shared ``charter.txt``; rulings A1 ... A8 (shared ``RULINGS.md``) and A9 ...
(``docs/atlantic_star.md``) are cited where they apply. Types live in
``atlantic_star.pxd``. Nothing here allocates Python objects on the hot path
(``_legal``/``_check``/``_do``/``_value``/``run_playouts``); moves are small ints.

Money is counted in thousands of marks. Seas are 0 Baltic, 1 Mediterranean, 2 Atlantic,
3 Pacific; a class index c is the (c + 1)★ class.

Action ids, for S plaque sets per seat (S = 2 with 2-3 players, else 1):

* ``a_loan + (sea * S + k) * 10 + (amount - 1)``  loan ``amount`` thousand against the
  seat's k-th voyage in ``sea``
* ``a_refresh``                                  replace the four agency ships (2,000)
* ``a_charter + space``                           charter the ship on agency space 0..3
  (prices 3,000 / 2,000 / 1,000 / 0)
* ``a_voyage + (sea * 5 + class) * 37 + keep``    stage a voyage in ``sea`` in that class,
  playing every hand card except the ``keep`` set

Hands are kept sorted by ship id; ``keep`` names hand slots: 0 keeps nothing, 1 + i keeps
slot i, 9 + j * (j - 1) / 2 + i keeps slots i < j. For a hand of h cards the codes keeping
k cards form one contiguous range, so the legal voyage actions of a sea and class are too.

Plaque ids per sea: seat * 2 + k for the seat's k-th voyage there, 12 + j for package
operator set j (A3).
"""

try:  # pragma: no cover - depends on whether Cython is installed
    import cython
except ImportError:  # pragma: no cover
    from cruiselib._core import _cython_shim as cython

import numpy

from cruiselib._core.common import action_id, check_signals, illegal_message, query_id
from cruiselib._core.rng import mix64
from cruiselib.errors import IllegalMoveError

if not cython.compiled:
    MAXS = 256
    NSEA = 4
    MAXLEG = 6
    NMASK = 64
    NCLASS = 5
    NFIELD = 6
    MAXP = 6
    HMAX = 8
    NKEEP = 37
    NPL = 14
    NPP = 12
    NAMT = 10
    AGENCY = 4
    MAXLEGAL = 1024
    PH_LOAN = 0
    PH_MAIN = 1
    PH_OVER = 2

GOLDEN = 0x9E3779B97F4A7C15
MASK64 = 0xFFFFFFFFFFFFFFFF

# Python-visible copies of the layout constants (the enum names are C-only when compiled).
LIMITS = {
    "max_ships": 256,
    "seas": 4,
    "classes": 5,
    "fields": 6,
    "max_players": 6,
    "max_hand": 8,
    "keep_codes": 37,
    "agency": 4,
}
PHASES = ("loan", "agency", "over")
LEGS = (3, 4, 5, 6)  # A1
# A3 (published): package operator values per sea, by operator set.
OPERATORS = {
    2: ((13, 18, 23, 28), (17, 22, 27, 32)),
    3: (),
    4: ((13, 18, 23, 28), (17, 22, 27, 32)),
    5: ((15, 20, 25, 30),),
    6: (),
}

# Reasons an action is illegal; _check returns the index.
REASONS = (
    "legal",
    "the game is over",
    "a loan is only possible as the first thing in a turn (loan, refresh, then charter or voyage)",
    "the seat has not staged that voyage",
    "the seat already borrowed against a voyage in that sea (once per sea)",
    "all six fields of that class are full: no more loans there",
    "a loan may not exceed the voyage's value",
    "refreshing the agency costs 2,000 marks",
    "that agency space is empty",
    "the seat cannot pay that charter fee",
    "the hand would exceed every remaining voyage's legs + 2",
    "the seat has already staged all its voyages in that sea",
    "the hand size does not fit that sea (legs <= hand <= legs + 2)",
    "the voyage must keep exactly hand size - legs cards, from slots the hand has",
    "that sea's voyages take place in another class",
    "that class is already taken by another sea",
)


class AtlanticRules:
    """Immutable per-game tables: ship values per (sea, leg), board, operators, action layout."""

    def __init__(self, players, mail, entries, board, digest):
        if not cython.compiled:
            self.legs = [0] * NSEA
            self.table = [0] * (NCLASS * NFIELD)
            self.op_val = [0] * (2 * NSEA)
            self.w = [0] * (MAXS * NSEA * MAXLEG)
            self.suit = [0] * (MAXS * NSEA)
            self.pop = [0] * NMASK
            self.keep_a = [0] * NKEEP
            self.keep_b = [0] * NKEEP
            self.keep_k = [0] * NKEEP
        if not (2 <= players <= MAXP):
            raise ValueError("2 to 6 players")
        if not (0 < len(mail) <= MAXS and len(entries) == len(mail)):
            raise ValueError("ship tables out of range")
        if len(board) != NCLASS or any(len(col) != NFIELD for col in board):
            raise ValueError("the board has 5 classes of 6 fields")
        self.num_players = players
        self.sets = 2 if players <= 3 else 1
        self.start_money = 36 if players <= 3 else 18
        self.num_ops = NFIELD - players * self.sets
        self.num_ships = len(mail)
        self.digest = digest
        self._fill(list(mail), list(entries), list(board))
        self.a_loan = 0
        self.a_refresh = NSEA * self.sets * NAMT
        self.a_charter = self.a_refresh + 1
        self.a_voyage = self.a_charter + AGENCY
        self.num_actions = self.a_voyage + NSEA * NCLASS * NKEEP
        self.action_ints = tuple(range(self.num_actions))

    def _fill(self, mail, entries, board):
        for s in range(NSEA):
            self.legs[s] = LEGS[s]
        for c in range(NCLASS):
            for i in range(NFIELD):
                self.table[c * NFIELD + i] = board[c][i]
        ops = OPERATORS[self.num_players]
        for j in range(len(ops)):
            for s in range(NSEA):
                self.op_val[j * NSEA + s] = ops[j][s]
        for c in range(self.num_ships):
            for s in range(NSEA):
                self.suit[c * NSEA + s] = 0
                for l in range(MAXLEG):
                    self.w[(c * NSEA + s) * MAXLEG + l] = 0
            if mail[c]:
                # Mail ships sail any leg of any sea for 1 point (rulebook "Voyage Worth").
                for s in range(NSEA):
                    self.suit[c * NSEA + s] = (1 << self.legs[s]) - 1
                    for l in range(self.legs[s]):
                        self.w[(c * NSEA + s) * MAXLEG + l] = 1
            else:
                for e in entries[c]:
                    s = e[0]
                    l = e[1]
                    self.suit[c * NSEA + s] |= 1 << l
                    self.w[(c * NSEA + s) * MAXLEG + l] = e[2]
        for i in range(NMASK):
            nf = 0
            for j in range(MAXLEG):
                if i & (1 << j):
                    nf += 1
            self.pop[i] = nf
        # keep codes (see the module docstring)
        self.keep_k[0] = 0
        self.keep_a[0] = -1
        self.keep_b[0] = -1
        for i in range(HMAX):
            self.keep_k[1 + i] = 1
            self.keep_a[1 + i] = i
            self.keep_b[1 + i] = -1
        for j in range(1, HMAX):
            for i in range(j):
                code = 9 + j * (j - 1) // 2 + i
                self.keep_k[code] = 2
                self.keep_a[code] = i
                self.keep_b[code] = j

    # Python-level accessors (not hot)
    def sea_legs(self, sea):
        return self.legs[sea]

    def points_at(self, cls, field):
        return self.table[cls * NFIELD + field]

    def operator_value(self, op_set, sea):
        return self.op_val[op_set * NSEA + sea]

    def ship_value(self, ship, sea, leg):
        return self.w[(ship * NSEA + sea) * MAXLEG + leg]

    def ship_suited(self, ship, sea, leg):
        return bool(self.suit[ship * NSEA + sea] & (1 << leg))

    def keep_slots(self, code):
        """The hand slots a keep code keeps, as a tuple."""
        if self.keep_k[code] == 0:
            return ()
        if self.keep_k[code] == 1:
            return (self.keep_a[code],)
        return (self.keep_a[code], self.keep_b[code])


def keep_code(slots):
    """The keep code of a tuple of 0, 1 or 2 distinct hand slots (any order); -1 if none."""
    s = sorted(slots)
    if len(s) == 0:
        return 0
    if len(s) == 1:
        return 1 + s[0] if 0 <= s[0] < HMAX else -1
    if len(s) == 2 and 0 <= s[0] < s[1] < HMAX:
        return 9 + s[1] * (s[1] - 1) // 2 + s[0]
    return -1


class AtlanticCore:
    """One game position. Subclassed by :class:`cruiselib.atlantic_star.AtlanticStarState`."""

    def __init__(self, rules, game=None):
        self._init_arrays()
        self.rules = rules
        self.game = game

    def _init_arrays(self):
        if not cython.compiled:
            self.money = [0] * MAXP
            self.hand = [0] * (MAXP * HMAX)
            self.hand_n = [0] * MAXP
            self.agency = [0] * AGENCY
            self.deck = [0] * MAXS
            self.disc = [0] * MAXS
            self.sea_class = [0] * NSEA
            self.class_sea = [0] * NCLASS
            self.rank = [0] * (NSEA * NFIELD)
            self.rank_n = [0] * NSEA
            self.pval = [0] * (NSEA * NPL)
            self.ploan = [0] * (NSEA * NPL)
            self.pcards = [0] * (NSEA * NPP * MAXLEG)
            self.done = [0] * (MAXP * NSEA)
            self.loaned = [0] * (MAXP * NSEA)
            self.left = [0] * MAXP
            self.buf = [0] * MAXLEGAL
            self.vc = [0] * MAXLEG
            self.vleg = [0] * MAXLEG
            self.dpa = [0] * NMASK
            self.dpb = [0] * NMASK

    # ------------------------------------------------------------------ setup

    def _below(self, n):
        """A uniform draw in [0, n) from the state's own generator."""
        self.rng = (self.rng + GOLDEN) & MASK64
        r = mix64(self.rng)
        return ((r >> 32) * n) >> 32

    def _shuffle_deck(self):
        i = self.deck_n - 1
        while i > 0:
            j = self._below(i + 1)
            tmp = self.deck[i]
            self.deck[i] = self.deck[j]
            self.deck[j] = tmp
            i -= 1

    def _draw(self):
        """The top card of the pack; an empty pack is first refilled from the shuffled
        discard pile (rulebook "Changing the Ships"). -1 if both are empty."""
        if self.deck_n == 0:
            for i in range(self.disc_n):
                self.deck[i] = self.disc[i]
            self.deck_n = self.disc_n
            self.disc_n = 0
            self._shuffle_deck()
            if self.deck_n == 0:
                return -1
        self.deck_n -= 1
        return self.deck[self.deck_n]

    def _setup(self, rng_state, start_player):
        """Deal a new game. start_player < 0: drawn from the seed."""
        R = self.rules
        self.rng = rng_state & MASK64
        for p in range(MAXP):
            self.money[p] = R.start_money if p < R.num_players else 0
            self.hand_n[p] = 0
            self.left[p] = NSEA * R.sets if p < R.num_players else 0
            for s in range(NSEA):
                self.done[p * NSEA + s] = 0
                self.loaned[p * NSEA + s] = 0
        for s in range(NSEA):
            self.sea_class[s] = -1
            self.rank_n[s] = 0
            for i in range(NPL):
                self.pval[s * NPL + i] = 0
                self.ploan[s * NPL + i] = 0
        for i in range(NCLASS):
            self.class_sea[i] = -1
        for i in range(R.num_ships):
            self.deck[i] = i
        self.deck_n = R.num_ships
        self.disc_n = 0
        self._shuffle_deck()
        # The top four cards go on the spaces from 3,000 down to 0 marks, in order.
        for i in range(AGENCY):
            self.agency[i] = self._draw()
        if start_player < 0:
            start_player = self._below(R.num_players)
        self.start = start_player
        self.cur = start_player
        self.phase = PH_LOAN

    # ------------------------------------------------------------------ queries

    @property
    def current_player(self):
        """The seat to decide now, or -1 once the game is over."""
        return -1 if self.phase == PH_OVER else self.cur

    @property
    def is_over(self):
        return self.phase == PH_OVER

    @property
    def phase_name(self):
        return PHASES[self.phase]

    def _points(self, seat):
        total = 0
        for s in range(NSEA):
            c = self.sea_class[s]
            if c < 0:
                continue
            for i in range(self.rank_n[s]):
                pid = self.rank[s * NFIELD + i]
                if pid < NPP and (pid >> 1) == seat:
                    total += self.rules.table[c * NFIELD + i]
        return total

    def scores(self):
        """Victory points of each seat from the fields its plaques occupy now (A2, A8)."""
        return [self._points(p) for p in range(self.rules.num_players)]

    def _winners_mask(self):
        """Bit mask of the winning seats: most points, then most money, else shared (A8)."""
        best = -1
        nb = 0
        for p in range(self.rules.num_players):
            v = self._points(p) * 1000000 + self.money[p]
            if v > best:
                best = v
                nb = 1 << p
            elif v == best:
                nb |= 1 << p
        return nb

    def winners(self):
        """The winning seats (a shared win lists several), or () while running (A8)."""
        if self.phase != PH_OVER:
            return ()
        m = self._winners_mask()
        out = []
        for p in range(self.rules.num_players):
            if m & (1 << p):
                out.append(p)
        return tuple(out)

    def _max_legs(self, seat):
        """Legs of the longest voyage the seat still has to stage (0 if none)."""
        m = 0
        for s in range(NSEA):
            if self.done[seat * NSEA + s] < self.rules.sets and self.rules.legs[s] > m:
                m = self.rules.legs[s]
        return m

    # ------------------------------------------------------------------ legal moves

    def _legal(self):
        """Write the sorted legal action ids into self.buf; return their count."""
        R = self.rules
        n = 0
        if self.phase == PH_OVER:
            return 0
        p = self.cur
        if self.phase == PH_LOAN:
            for s in range(NSEA):
                # Once per sea (even when sailed twice) and none in a full class.
                if self.loaned[p * NSEA + s] or self.rank_n[s] >= NFIELD:
                    continue
                for k in range(self.done[p * NSEA + s]):
                    m = self.pval[s * NPL + p * 2 + k]
                    if m > NAMT:
                        m = NAMT
                    base = R.a_loan + (s * R.sets + k) * NAMT
                    for amt in range(m):
                        self.buf[n] = base + amt
                        n += 1
        if self.money[p] >= 2:
            self.buf[n] = R.a_refresh
            n += 1
        hn = self.hand_n[p]
        maxl = self._max_legs(p)
        if hn + 1 <= maxl + 2:  # A6
            for i in range(AGENCY):
                if self.agency[i] >= 0 and self.money[p] >= AGENCY - 1 - i:
                    self.buf[n] = R.a_charter + i
                    n += 1
        for s in range(NSEA):
            if self.done[p * NSEA + s] >= R.sets:
                continue
            L = R.legs[s]
            if hn < L or hn > L + 2:
                continue
            if hn == L:
                lo = 0
                cnt = 1
            elif hn == L + 1:
                lo = 1
                cnt = hn
            else:
                lo = 9
                cnt = hn * (hn - 1) // 2
            for c in range(NCLASS):
                if self.sea_class[s] == c or (self.sea_class[s] < 0 and self.class_sea[c] < 0):
                    base = R.a_voyage + (s * NCLASS + c) * NKEEP + lo
                    for code in range(cnt):
                        self.buf[n] = base + code
                        n += 1
        return n

    def _random_action(self, r):
        """A uniformly random legal action, from the 64-bit random value r."""
        n = self._legal()
        return self.buf[((r >> 32) * n) >> 32]

    def legal_actions(self):
        """The legal action ids, sorted ascending (empty once the game is over)."""
        n = self._legal()
        ints = self.rules.action_ints
        return [ints[self.buf[i]] for i in range(n)]

    def action_mask(self):
        """An int8 array of shape (num_actions,): 1 where the action is legal."""
        mask = numpy.zeros(self.rules.num_actions, dtype=numpy.int8)
        n = self._legal()
        mv = mask
        for i in range(n):
            mv[self.buf[i]] = 1
        return mask

    def _check(self, a):
        """0 if action a is legal now, else an index into REASONS. Never mutates."""
        R = self.rules
        if self.phase == PH_OVER:
            return 1
        p = self.cur
        if a < R.a_refresh:  # loan
            if self.phase != PH_LOAN:
                return 2
            r = a - R.a_loan
            amt = r % NAMT + 1
            r = r // NAMT
            k = r % R.sets
            s = r // R.sets
            if k >= self.done[p * NSEA + s]:
                return 3
            if self.loaned[p * NSEA + s]:
                return 4
            if self.rank_n[s] >= NFIELD:
                return 5
            if amt > self.pval[s * NPL + p * 2 + k]:
                return 6
            return 0
        if a == R.a_refresh:
            return 0 if self.money[p] >= 2 else 7
        if a < R.a_voyage:  # charter
            i = a - R.a_charter
            if self.agency[i] < 0:
                return 8
            if self.money[p] < AGENCY - 1 - i:
                return 9
            if self.hand_n[p] + 1 > self._max_legs(p) + 2:
                return 10
            return 0
        r = a - R.a_voyage
        code = r % NKEEP
        r = r // NKEEP
        c = r % NCLASS
        s = r // NCLASS
        if self.done[p * NSEA + s] >= R.sets:
            return 11
        L = R.legs[s]
        hn = self.hand_n[p]
        if hn < L or hn > L + 2:
            return 12
        kk = R.keep_k[code]
        if kk != hn - L or R.keep_a[code] >= hn or R.keep_b[code] >= hn:
            return 13
        if self.sea_class[s] >= 0:
            if self.sea_class[s] != c:
                return 14
        elif self.class_sea[c] >= 0:
            return 15
        return 0

    def is_legal(self, action):
        """Whether ``action`` (an action id or a move, as ``apply`` takes) is legal now.

        An id out of range is not legal; an object that is no action raises IllegalMoveError.
        """
        a = query_id(action, self.game, self.rules.num_actions)
        return a >= 0 and self._check(a) == 0

    def apply(self, action, player=None):
        """Apply an action id or a move. Raises IllegalMoveError and leaves the state as it was.

        ``player``, when given, must be the seat to move (a guard for servers and UIs).
        """
        current = -1 if self.phase == PH_OVER else self.cur
        a = action_id(action, player, current, self.game, self.rules.num_actions)
        code = self._check(a)
        if code != 0:
            raise IllegalMoveError(illegal_message(self.game, a, current, REASONS[code]))
        self._do(a)

    # ------------------------------------------------------------------ voyages

    def _fill_played(self, seat, sea, code):
        """Put the hand cards a voyage plays (all but the keep set) into self.vc."""
        R = self.rules
        ka = R.keep_a[code]
        kb = R.keep_b[code]
        n = 0
        for i in range(self.hand_n[seat]):
            if i != ka and i != kb:
                self.vc[n] = self.hand[seat * HMAX + i]
                n += 1
        return n

    def _dp(self, sea, L, t):
        """A5: fill the assignment tables for the L cards in self.vc on the legs of ``sea``.

        An optimal assignment by dynamic programming over the subsets of legs: card i goes
        to a free leg of a mask with i legs taken. ``dpa`` allows unsuited legs (worth 0),
        ``dpb`` only suited legs (-1 = impossible). Entries of masks with at most t legs
        depend only on cards 0..t-1: with t > 0 they are kept from the previous call (the
        caller changed only cards t and later).
        """
        R = self.rules
        full = (1 << L) - 1
        if t == 0:
            for m in range(full + 1):
                self.dpa[m] = -1
                self.dpb[m] = -1
            self.dpa[0] = 0
            self.dpb[0] = 0
        else:
            for m in range(full + 1):
                if R.pop[m] > t:
                    self.dpa[m] = -1
                    self.dpb[m] = -1
        for m in range(full):
            i = R.pop[m]
            if i < t:
                continue
            va = self.dpa[m]
            vb = self.dpb[m]
            c = self.vc[i]
            base = (c * NSEA + sea) * MAXLEG
            su = R.suit[c * NSEA + sea]
            for l in range(L):
                bit = 1 << l
                if m & bit:
                    continue
                nm = m | bit
                w = R.w[base + l]
                if va + w > self.dpa[nm]:
                    self.dpa[nm] = va + w
                if vb >= 0 and (su & bit) and vb + w > self.dpb[nm]:
                    self.dpb[nm] = vb + w
        # A voyage with every leg properly covered earns the bonus (A1): max(dpa, dpb + L).
        if self.dpb[full] >= 0 and self.dpb[full] + L > self.dpa[full]:
            return self.dpb[full] + L
        return self.dpa[full]

    def _value(self, sea, L, assign):
        """A5: the best value of the L cards in self.vc on the legs of ``sea`` (see _dp).
        With ``assign``, self.vleg receives the card sailing each leg."""
        R = self.rules
        full = (1 << L) - 1
        value = self._dp(sea, L, 0)
        bonus = value != self.dpa[full]
        if assign:
            # Walk back: card i sat on a leg l of the mask whose predecessor explains dp.
            m = full
            i = L - 1
            while i >= 0:
                c = self.vc[i]
                base = (c * NSEA + sea) * MAXLEG
                su = R.suit[c * NSEA + sea]
                for l in range(L):
                    bit = 1 << l
                    if not (m & bit):
                        continue
                    w = R.w[base + l]
                    if bonus:
                        if (
                            (su & bit)
                            and self.dpb[m ^ bit] >= 0
                            and self.dpb[m ^ bit] + w == self.dpb[m]
                        ):
                            break
                    elif self.dpa[m ^ bit] >= 0 and self.dpa[m ^ bit] + w == self.dpa[m]:
                        break
                self.vleg[l] = c
                m = m ^ (1 << l)
                i -= 1
        return value

    def best_voyage_code(self, seat, sea):
        """(value, keep code) of the best voyage ``seat`` can stage in ``sea`` with its hand,
        over every choice of cards (every legs-card subset of the hand); (-1, -1) if the hand
        size does not fit the sea (A6)."""
        L = self.rules.legs[sea]
        hn = self.hand_n[seat]
        if hn < L or hn > L + 2:
            return (-1, -1)
        kk = hn - L
        # Visit the keep sets in an order where consecutive played sets share long
        # prefixes (pairs in lexicographic order, single slots from the last down), so that
        # _dp recomputes only the tail; the result is exact either way (ties: lowest code).
        self._bv_best = -1
        self._bv_code = -1
        self._bv_first = 1
        if kk == 0:
            self._bv_try(seat, sea, 0)
        elif kk == 1:
            i = hn - 1
            while i >= 0:
                self._bv_try(seat, sea, 1 + i)
                i -= 1
        else:
            for i in range(hn - 1):
                for j in range(i + 1, hn):
                    self._bv_try(seat, sea, 9 + j * (j - 1) // 2 + i)
        best = self._bv_best
        bc = self._bv_code
        return (best, bc)

    def _bv_try(self, seat, sea, code):
        """One candidate of best_voyage_code: play all but the keep set ``code``."""
        R = self.rules
        L = R.legs[sea]
        n = 0
        t = -1
        for i in range(self.hand_n[seat]):
            if i != R.keep_a[code] and i != R.keep_b[code]:
                c = self.hand[seat * HMAX + i]
                if t < 0 and self.vc[n] != c:
                    t = n
                self.vc[n] = c
                n += 1
        if t < 0:
            t = L
        if self._bv_first:
            t = 0
            self._bv_first = 0
        v = self._dp(sea, L, t)
        if v > self._bv_best or (v == self._bv_best and code < self._bv_code):
            self._bv_best = v
            self._bv_code = code

    def voyage_detail(self, seat, sea, code):
        """(value, bonus earned, cards by leg, kept cards) of a voyage; not hot."""
        L = self.rules.legs[sea]
        n = self._fill_played(seat, sea, code)
        if n != L:
            raise ValueError("the keep code does not fit the hand and sea")
        value = self._value(sea, L, True)
        by_leg = []
        raw = 0
        for i in range(L):
            by_leg.append(self.vleg[i])
            raw += self.rules.ship_value(self.vleg[i], sea, i)
        kept = []
        for i in self.rules.keep_slots(code):
            kept.append(self.hand[seat * HMAX + i])
        return (value, value != raw, by_leg, kept)

    def value_of(self, cards, sea):
        """(value, bonus earned, cards by leg) of playing ``cards`` (ship ids) in ``sea`` (A5)."""
        L = self.rules.legs[sea]
        if len(cards) != L:
            raise ValueError(f"a voyage in that sea plays exactly {L} ships")
        for i in range(L):
            self.vc[i] = cards[i]
        value = self._value(sea, L, True)
        by_leg = []
        raw = 0
        for i in range(L):
            by_leg.append(self.vleg[i])
            raw += self.rules.ship_value(self.vleg[i], sea, i)
        return (value, value != raw, by_leg)

    # ------------------------------------------------------------------ applying

    def _insert(self, sea, pid):
        """Rank a plaque: below every plaque of equal or higher value (A7)."""
        n = self.rank_n[sea]
        v = self.pval[sea * NPL + pid]
        i = 0
        while i < n and self.pval[sea * NPL + self.rank[sea * NFIELD + i]] >= v:
            i += 1
        j = n
        while j > i:
            self.rank[sea * NFIELD + j] = self.rank[sea * NFIELD + j - 1]
            j -= 1
        self.rank[sea * NFIELD + i] = pid
        self.rank_n[sea] = n + 1

    def _remove(self, sea, pid):
        n = self.rank_n[sea]
        i = 0
        while i < n and self.rank[sea * NFIELD + i] != pid:
            i += 1
        for j in range(i, n - 1):
            self.rank[sea * NFIELD + j] = self.rank[sea * NFIELD + j + 1]
        self.rank_n[sea] = n - 1

    def _end_turn(self):
        """Next seat clockwise that still has voyages to stage (A9); the end when none (A8)."""
        total = 0
        for p in range(self.rules.num_players):
            total += self.left[p]
        if total == 0:
            self.phase = PH_OVER
            return
        p = self.cur
        for i in range(self.rules.num_players):
            p = p + 1
            if p == self.rules.num_players:
                p = 0
            if self.left[p] > 0:
                break
        self.cur = p
        self.phase = PH_LOAN

    def _do(self, a):
        R = self.rules
        p = self.cur
        if a < R.a_refresh:  # loan: value -1 per 1,000, re-ranked as a later arrival (A7)
            r = a - R.a_loan
            amt = r % NAMT + 1
            r = r // NAMT
            k = r % R.sets
            s = r // R.sets
            pid = p * 2 + k
            self._remove(s, pid)
            self.pval[s * NPL + pid] -= amt
            self.ploan[s * NPL + pid] += amt
            self._insert(s, pid)
            self.money[p] += amt
            self.loaned[p * NSEA + s] = 1
            self.phase = PH_MAIN
        elif a == R.a_refresh:
            # All four ships go to the discard pile, then four new ones fill the spaces.
            self.money[p] -= 2
            for i in range(AGENCY):
                if self.agency[i] >= 0:
                    self.disc[self.disc_n] = self.agency[i]
                    self.disc_n += 1
                    self.agency[i] = -1
            for i in range(AGENCY):
                self.agency[i] = self._draw()
            self.phase = PH_MAIN
        elif a < R.a_voyage:  # charter: the dearer ships move one space on, refill 3,000
            i = a - R.a_charter
            c = self.agency[i]
            self.money[p] -= AGENCY - 1 - i
            j = self.hand_n[p]
            while j > 0 and self.hand[p * HMAX + j - 1] > c:
                self.hand[p * HMAX + j] = self.hand[p * HMAX + j - 1]
                j -= 1
            self.hand[p * HMAX + j] = c
            self.hand_n[p] += 1
            j = i
            while j > 0:
                self.agency[j] = self.agency[j - 1]
                j -= 1
            self.agency[0] = self._draw()
            self._end_turn()
        else:  # voyage
            r = a - R.a_voyage
            code = r % NKEEP
            r = r // NKEEP
            cls = r % NCLASS
            s = r // NCLASS
            L = R.legs[s]
            self._fill_played(p, s, code)
            value = self._value(s, L, True)
            if self.sea_class[s] < 0:
                # The first voyage in a sea chooses the class; the package operators'
                # plaques come on the board first (A3).
                self.sea_class[s] = cls
                self.class_sea[cls] = s
                for j in range(R.num_ops):
                    self.pval[s * NPL + NPP + j] = R.op_val[j * NSEA + s]
                    self.ploan[s * NPL + NPP + j] = 0
                    self._insert(s, NPP + j)
            pid = p * 2 + self.done[p * NSEA + s]
            self.pval[s * NPL + pid] = value
            self.ploan[s * NPL + pid] = 0
            for i in range(L):
                self.pcards[(s * NPP + pid) * MAXLEG + i] = self.vleg[i]
            self._insert(s, pid)
            self.done[p * NSEA + s] += 1
            self.left[p] -= 1
            # The played ships leave the game; the kept ones stay (still sorted).
            j = 0
            for i in range(self.hand_n[p]):
                if i == R.keep_a[code] or i == R.keep_b[code]:
                    self.hand[p * HMAX + j] = self.hand[p * HMAX + i]
                    j += 1
            self.hand_n[p] = j
            self._end_turn()

    # ------------------------------------------------------------------ copying

    def _copy_into(self, new):
        new.rules = self.rules
        new.game = self.game
        new.rng = self.rng
        new.phase = self.phase
        new.cur = self.cur
        new.start = self.start
        for i in range(MAXP):
            new.money[i] = self.money[i]
            new.hand_n[i] = self.hand_n[i]
            new.left[i] = self.left[i]
        for i in range(MAXP * HMAX):
            new.hand[i] = self.hand[i]
        for i in range(AGENCY):
            new.agency[i] = self.agency[i]
        new.deck_n = self.deck_n
        for i in range(self.deck_n):
            new.deck[i] = self.deck[i]
        new.disc_n = self.disc_n
        for i in range(self.disc_n):
            new.disc[i] = self.disc[i]
        for i in range(NSEA):
            new.sea_class[i] = self.sea_class[i]
            new.rank_n[i] = self.rank_n[i]
        for i in range(NCLASS):
            new.class_sea[i] = self.class_sea[i]
        for i in range(NSEA * NFIELD):
            new.rank[i] = self.rank[i]
        for i in range(NSEA * NPL):
            new.pval[i] = self.pval[i]
            new.ploan[i] = self.ploan[i]
        for i in range(NSEA * NPP * MAXLEG):
            new.pcards[i] = self.pcards[i]
        for i in range(MAXP * NSEA):
            new.done[i] = self.done[i]
            new.loaned[i] = self.loaned[i]

    def clone(self):
        """An independent copy (same class, same game)."""
        cls = type(self)
        new = cls.__new__(cls)
        if not cython.compiled:
            new._init_arrays()
        self._copy_into(new)
        return new

    # ------------------------------------------------------------------ raw access
    # Used by the Python layer for serialization, views and resampling; not hot.

    def _get_raw(self):
        """A dict of plain Python values describing the full state (money in thousands)."""
        R = self.rules
        N = R.num_players
        seas = []
        for s in range(NSEA):
            plaques = []
            for i in range(self.rank_n[s]):
                pid = self.rank[s * NFIELD + i]
                cards = []
                if pid < NPP:
                    cards = [self.pcards[(s * NPP + pid) * MAXLEG + j] for j in range(R.legs[s])]
                plaques.append((pid, self.pval[s * NPL + pid], self.ploan[s * NPL + pid], cards))
            seas.append({"class": self.sea_class[s], "plaques": plaques})
        return {
            "rng": self.rng,
            "phase": self.phase,
            "start": self.start,
            "cur": self.cur,
            "money": [self.money[p] for p in range(N)],
            "hands": [[self.hand[p * HMAX + i] for i in range(self.hand_n[p])] for p in range(N)],
            "agency": [self.agency[i] for i in range(AGENCY)],
            "deck": [self.deck[i] for i in range(self.deck_n)],
            "discard": [self.disc[i] for i in range(self.disc_n)],
            "seas": seas,
        }

    def _set_raw(self, raw):
        """Load a raw dict (already validated by the Python layer) and derive the rest."""
        R = self.rules
        N = R.num_players
        self.rng = raw["rng"] & MASK64
        self.phase = raw["phase"]
        self.start = raw["start"]
        self.cur = raw["cur"]
        for p in range(MAXP):
            self.money[p] = raw["money"][p] if p < N else 0
            self.hand_n[p] = 0
            self.left[p] = NSEA * R.sets if p < N else 0
            for s in range(NSEA):
                self.done[p * NSEA + s] = 0
                self.loaned[p * NSEA + s] = 0
        for p in range(N):
            hand = raw["hands"][p]
            self.hand_n[p] = len(hand)
            for i in range(len(hand)):
                self.hand[p * HMAX + i] = hand[i]
        for i in range(AGENCY):
            self.agency[i] = raw["agency"][i]
        deck = raw["deck"]
        self.deck_n = len(deck)
        for i in range(len(deck)):
            self.deck[i] = deck[i]
        disc = raw["discard"]
        self.disc_n = len(disc)
        for i in range(len(disc)):
            self.disc[i] = disc[i]
        for i in range(NCLASS):
            self.class_sea[i] = -1
        for s in range(NSEA):
            sea = raw["seas"][s]
            self.sea_class[s] = sea["class"]
            if sea["class"] >= 0:
                self.class_sea[sea["class"]] = s
            for i in range(NPL):
                self.pval[s * NPL + i] = 0
                self.ploan[s * NPL + i] = 0
            plaques = sea["plaques"]
            self.rank_n[s] = len(plaques)
            for i in range(len(plaques)):
                pid, value, loan, cards = plaques[i]
                self.rank[s * NFIELD + i] = pid
                self.pval[s * NPL + pid] = value
                self.ploan[s * NPL + pid] = loan
                if pid < NPP:
                    p = pid >> 1
                    self.done[p * NSEA + s] += 1
                    self.left[p] -= 1
                    if loan > 0:
                        self.loaned[p * NSEA + s] = 1
                    for j in range(len(cards)):
                        self.pcards[(s * NPP + pid) * MAXLEG + j] = cards[j]

    def _new_game(self, rng_state, start_player):
        self._setup(rng_state, start_player)

    def loan_limit(self, seat, sea, k):
        """Largest loan (thousands) the seat may take against its k-th voyage in sea now,
        ignoring whose turn and which phase it is; 0 if none."""
        if k >= self.done[seat * NSEA + sea] or self.loaned[seat * NSEA + sea]:
            return 0
        if self.rank_n[sea] >= NFIELD:
            return 0
        return min(NAMT, self.pval[sea * NPL + seat * 2 + k])

    def plaques_left(self, seat):
        return self.left[seat]

    def _get_agency(self, space):
        return self.agency[space]

    def _plaque_value(self, sea, pid):
        return self.pval[sea * NPL + pid]


def run_playouts(rules, n, seed, scores, lengths, wins, start_player):
    """Play n uniformly random games entirely in the core; return the total action count.

    Game g is dealt from the generator state ``mix64(seed + g)`` so that any game of a
    batch can be replayed alone; the random choices use a separate stream.
    """
    st = AtlanticCore(rules, None)
    r = mix64(seed ^ 0x5851F42D4C957F2D)
    n_actions = 0
    for g in range(n):
        check_signals()  # Ctrl-C stops a long batch between two games
        st._setup(mix64((seed + g) & MASK64), start_player)
        steps = 0
        while st.phase != PH_OVER:
            r = (r + GOLDEN) & MASK64
            st._do(st._random_action(mix64(r)))
            steps += 1
        wm = st._winners_mask()
        for p in range(rules.num_players):
            scores[g, p] = st._points(p)
            wins[g, p] = 1 if wm & (1 << p) else 0
        lengths[g] = steps
        n_actions += steps
    return n_actions
