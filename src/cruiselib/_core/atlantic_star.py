"""Atlantic Star: the whole rules engine (compiled by Cython, runs as Python too).

The rules and rulings A1 ... A14 are in ``docs/atlantic_star.md``; ruling ids are
cited where they apply. Types live in
``atlantic_star.pxd``. The core implements the compiled game contract (``engine.py``:
``c_legal``/``c_check``/``c_do``/``c_deal``/...); those and everything they call
(``_value``, ``_dp``, ...) hold no Python objects and run without the GIL, so the
generic playouts (``Game.playouts``, ``State.playouts``) run here in C. Moves are small ints.

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

What every seat knows (A13, A14): besides the table, which held ships are public, a bit
per hand slot (``known_mask``): a chartered ship is taken face up, so it is known until it is
played; ships a snapshot of schema version 2 put in a hand are not (it has no record);
once the game is over every hand is shown. Views, observation tensors and resampling are
built here from the C arrays (``view``, ``c_observe``, ``c_info_state``, ``c_resample``).
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

MASK64 = _SPLITMIX64[3]
_snapshot = None  # the atlantic_star_snapshot module, imported on the first load (it cimports this one)
# The rollout policy (c_rollout_action, docs/atlantic_star.md "Rollout policy"): a voyage
# worth this much a leg is staged; with no sea to build, a ship suiting a leg the hand has
# nothing for yet counts this much more; a sea's legs count toward building it by their
# best value above FOCUS_PAR; a charter worth less than REFRESH_BELOW half points (after
# its price) is refreshed away while the seat holds REFRESH_MONEY thousand marks; a seat
# with less than LOAN_BELOW thousand borrows.
PAR_PER_LEG = 6
UNCOVERED_BONUS = 2
FOCUS_PAR = 4
REFRESH_BELOW = 2
REFRESH_MONEY = 10
LOAN_BELOW = 8
# Scales of the observation tensor's counts (docs/atlantic_star.md, "Observation tensor"):
# money in thousands over the most a seat can hold (36 + four loans of 10), loans in
# thousands over 10, plaque values over the most a voyage is worth (Pacific 6 x 9 + 6),
# victory points over 100.
MONEY_SCALE = 76.0
LOAN_SCALE = 10.0
VALUE_SCALE = 60.0
POINTS_SCALE = 100.0

PHASES = ("loan", "agency", "over")
LEGS = (3, 4, 5, 6)  # A1
# Starting capital in thousands of marks: 2-3 players, 4-6 players (rulebook "Before Starting").
START_MONEY = (36, 18)
SEA_NAMES = ("Baltic", "Mediterranean", "Atlantic", "Pacific")
# A3 (published): package operator values per sea, by operator set.
OPERATORS = {
    2: ((13, 18, 23, 28), (17, 22, 27, 32)),
    3: (),
    4: ((13, 18, 23, 28), (17, 22, 27, 32)),
    5: ((15, 20, 25, 30),),
    6: (),
}

# Why an action is illegal, by c_check's code.
REASONS = reason_table(
    {
        R_LEGAL: "legal",
        R_GAME_OVER: "the game is over",
        R_LOAN_NOT_FIRST: (
            "a loan is only possible as the first thing in a turn (loan, refresh, then charter or voyage)"
        ),
        R_VOYAGE_NOT_STAGED: "the seat has not staged that voyage",
        R_ALREADY_BORROWED: "the seat already borrowed against a voyage in that sea (once per sea)",
        R_CLASS_FULL: "all six fields of that class are full: no more loans there",
        R_LOAN_ABOVE_VALUE: "a loan may not exceed the voyage's value",
        R_REFRESH_UNPAID: "refreshing the agency costs 2,000 marks",
        R_AGENCY_EMPTY: "that agency space is empty",
        R_CHARTER_UNPAID: "the seat cannot pay that charter fee",
        R_HAND_TOO_BIG: "the hand would exceed every remaining voyage's legs + 2",
        R_SEA_SAILED_OUT: "the seat has already staged all its voyages in that sea",
        R_HAND_SIZE_MISFITS: "the hand size does not fit that sea (legs <= hand <= legs + 2)",
        R_WRONG_KEEP: "the voyage must keep exactly hand size - legs cards, from slots the hand has",
        R_OTHER_CLASS: "that sea's voyages take place in another class",
        R_CLASS_TAKEN: "that class is already taken by another sea",
    }
)


class AtlanticRules(CoreRules):
    """Immutable per-game tables: ship values per (sea, leg), board, operators, action layout."""

    def __init__(self, players, mail, entries, board, digest):
        if not cython.compiled:
            self.legs = [0] * NSEA
            self.board_points = [0] * (NCLASS * NFIELD)
            self.operator_values = [0] * (2 * NSEA)
            self.worth = [0] * (MAXS * NSEA * MAXLEG)
            self.suited_legs = [0] * (MAXS * NSEA)
            self.best_worth = [0] * (MAXS * NSEA)
            self.leg_count = [0] * NMASK
            self.keep_first = [0] * NKEEP
            self.keep_second = [0] * NKEEP
            self.keep_count = [0] * NKEEP
        if not (2 <= players <= MAXP):
            raise ValueError("2 to 6 players")
        if not (0 < len(mail) <= MAXS and len(entries) == len(mail)):
            raise ValueError("ship tables out of range")
        if len(board) != NCLASS or any(len(col) != NFIELD for col in board):
            raise ValueError("the board has 5 classes of 6 fields")
        self.sets = 2 if players <= 3 else 1
        self.start_money = START_MONEY[0] if players <= 3 else START_MONEY[1]
        self.num_ops = NFIELD - players * self.sets
        self.num_ships = len(mail)
        self.digest = digest
        self.a_loan = 0
        self.a_refresh = NSEA * self.sets * NAMT
        self.a_charter = self.a_refresh + 1
        self.a_voyage = self.a_charter + AGENCY
        obs, info = self._set_layout(players, len(mail), board)
        # num_players (read by _fill), num_actions, action_ints, reasons and the tensor
        # layouts (engine.py): the information state adds the known hands (A14)
        self._init_contract(players, self.a_voyage + NSEA * NCLASS * NKEEP, REASONS, obs, info)
        self._fill(list(mail), list(entries), list(board))
        self.ship_infos = ()
        self.ship_names = ()
        self.agency_infos = ()

    def _set_layout(self, players, ships, board):
        """The observation and information-state tensors, declared once
        (docs/atlantic_star.md, "Observation tensor"): each field with its range, the
        rules' limits over the core's fixed scales. The writer's offsets (``o_*``) are read
        from them, and where the writer's arithmetic ends is checked against their sizes."""
        N = players
        M = ships
        S = self.sets
        # Money: the starting capital plus the loans, the only income: once per sea, at most
        # 10,000 each, and never on a seat's last voyage, so three with one set (A9).
        loans = NSEA if S == 2 else NSEA - 1
        money = self.start_money + loans * NAMT
        # Victory points: the seas sit in distinct classes, and a seat's voyages in one
        # sea take distinct fields of its class, so at most its top S fields each in the
        # best four classes (A2, A7).
        per_class = sorted((sum(column[:S]) for column in board), reverse=True)
        points = sum(per_class[:NSEA])
        obs = TensorLayout(
            (
                TensorField("seat", N, 0.0, 1.0, "one-hot: the observing seat"),
                TensorField("current_player", N, 0.0, 1.0, "one-hot: the seat to move (all 0 once over)"),
                TensorField("phase", len(PHASES), 0.0, 1.0, "one-hot: loan, agency, over"),
                TensorField("hand", M, 0.0, 1.0, "1 for each ship in the seat's hand"),
                # a hand holds at most HMAX ships (A6), the scale
                TensorField("hand_sizes", N, 0.0, 1.0, "ships in each seat's hand / 8"),
                TensorField("agency", (AGENCY, M), 0.0, 1.0, "per space, one-hot of its ship"),
                # the agency's four are turned up
                TensorField("deck_size", 1, 0.0, (M - AGENCY) / M, "ships in the pack / M"),
                TensorField("discard", M, 0.0, 1.0, "1 for each ship in the discard pile"),
                TensorField("board_ships", M, 0.0, 1.0, "1 for each ship played in a voyage"),
                TensorField("sea_class", (NSEA, NCLASS), 0.0, 1.0, "per sea, one-hot of its class"),
                TensorField("free_classes", NCLASS, 0.0, 1.0, "1 for each class no sea holds yet"),
                # Owner one-hot, then the value over the most a voyage is worth (60) and the
                # loan over the largest (10,000): both scales are those maxima.
                TensorField(
                    "plaques", (NSEA, NFIELD, PLQ), 0.0, 1.0, "per sea and field: owner one-hot, value / 60, loan / 10"
                ),
                TensorField("money", N, 0.0, money / MONEY_SCALE, "thousands of marks / 76"),
                # one loan per sea per seat, at most the scale
                TensorField("loans", (N, NSEA), 0.0, 1.0, "per seat and sea: thousands borrowed / 10"),
                TensorField("voyages_left", N, 0.0, 1.0, "voyages still to stage / (4 S)"),
                TensorField("scores", N, 0.0, points / POINTS_SCALE, "victory points / 100"),
            )
        )
        info = obs.extended(
            TensorField("known", (N, M), 0.0, 1.0, "per seat, 1 for each ship it is known to hold (A14)")
        )
        self.o_seat = obs.offset("seat")
        self.o_cur = obs.offset("current_player")
        self.o_phase = obs.offset("phase")
        self.o_hand = obs.offset("hand")
        self.o_hsize = obs.offset("hand_sizes")
        self.o_agency = obs.offset("agency")
        self.o_deck = obs.offset("deck_size")
        self.o_disc = obs.offset("discard")
        self.o_board = obs.offset("board_ships")
        self.o_class = obs.offset("sea_class")
        self.o_free = obs.offset("free_classes")
        self.o_plaque = obs.offset("plaques")
        self.o_money = obs.offset("money")
        self.o_loans = obs.offset("loans")
        self.o_left = obs.offset("voyages_left")
        self.o_scores = obs.offset("scores")
        self.o_known = info.offset("known")
        # Where the writers' last fields end, by their own arithmetic: c_observe's scores
        # are written at o_scores + seat (seats < N); c_info_state's known hands at
        # o_known + seat * M + ship (ships < M).
        obs.check_end(self.o_scores + N)
        info.check_end(self.o_known + (N - 1) * M + M)
        return obs, info

    def _set_view_types(self, ship_infos, agency_infos, ship_names):
        """The view's immutable parts, made once by the game after it handed in its schema
        (``_set_schema``): a ShipInfo per ship, an AgencyInfo per (space, ship) (space *
        ships + ship, then one per empty space), the ship names. The core builds views from
        them and the schema's AtlanticStarView, SeaInfo and PlaqueInfo (``view``)."""
        if self.schema is None:
            raise RuntimeError("hand in the schema (_set_schema) before the view's parts")
        if len(ship_infos) != self.num_ships or len(ship_names) != self.num_ships:
            raise ValueError("one ShipInfo and one name per ship")
        if len(agency_infos) != AGENCY * (self.num_ships + 1):
            raise ValueError("one AgencyInfo per agency space and ship, then per empty space")
        self.ship_infos = tuple(ship_infos)
        self.agency_infos = tuple(agency_infos)
        self.ship_names = tuple(ship_names)
        self.view_type = self.schema.AtlanticStarView
        self.sea_info = self.schema.SeaInfo
        self.plaque_info = self.schema.PlaqueInfo

    def _fill(self, mail, entries, board):
        for s in range(NSEA):
            self.legs[s] = LEGS[s]
        for c in range(NCLASS):
            for i in range(NFIELD):
                self.board_points[c * NFIELD + i] = board[c][i]
        ops = OPERATORS[self.num_players]
        for j in range(len(ops)):
            for s in range(NSEA):
                self.operator_values[j * NSEA + s] = ops[j][s]
        for c in range(self.num_ships):
            for s in range(NSEA):
                self.suited_legs[c * NSEA + s] = 0
                for l in range(MAXLEG):
                    self.worth[(c * NSEA + s) * MAXLEG + l] = 0
            if mail[c]:
                # Mail ships sail any leg of any sea for 1 point (rulebook "Voyage Worth").
                for s in range(NSEA):
                    self.suited_legs[c * NSEA + s] = (1 << self.legs[s]) - 1
                    for l in range(self.legs[s]):
                        self.worth[(c * NSEA + s) * MAXLEG + l] = 1
            else:
                for e in entries[c]:
                    s = e[0]
                    l = e[1]
                    self.suited_legs[c * NSEA + s] |= 1 << l
                    self.worth[(c * NSEA + s) * MAXLEG + l] = e[2]
            for s in range(NSEA):
                self.best_worth[c * NSEA + s] = 0
                for l in range(self.legs[s]):
                    if self.worth[(c * NSEA + s) * MAXLEG + l] > self.best_worth[c * NSEA + s]:
                        self.best_worth[c * NSEA + s] = self.worth[(c * NSEA + s) * MAXLEG + l]
        for i in range(NMASK):
            nf = 0
            for j in range(MAXLEG):
                if i & (1 << j):
                    nf += 1
            self.leg_count[i] = nf
        # keep codes (see the module docstring)
        self.keep_count[0] = 0
        self.keep_first[0] = -1
        self.keep_second[0] = -1
        for i in range(HMAX):
            self.keep_count[1 + i] = 1
            self.keep_first[1 + i] = i
            self.keep_second[1 + i] = -1
        for j in range(1, HMAX):
            for i in range(j):
                code = 9 + j * (j - 1) // 2 + i
                self.keep_count[code] = 2
                self.keep_first[code] = i
                self.keep_second[code] = j

    # Python-level accessors (not hot)
    def sea_legs(self, sea):
        return self.legs[sea]

    def operator_value(self, op_set, sea):
        return self.operator_values[op_set * NSEA + sea]

    def ship_value(self, ship, sea, leg):
        return self.worth[(ship * NSEA + sea) * MAXLEG + leg]

    def ship_suited(self, ship, sea, leg):
        return bool(self.suited_legs[ship * NSEA + sea] & (1 << leg))

    def keep_slots(self, code):
        """The hand slots a keep code keeps, as a tuple."""
        if self.keep_count[code] == 0:
            return ()
        if self.keep_count[code] == 1:
            return (self.keep_first[code],)
        return (self.keep_first[code], self.keep_second[code])


class AtlanticCore(CoreState):
    """One game position. Subclassed by :class:`cruiselib.atlantic_star.AtlanticStarState`."""

    def __init__(self, rules, game=None):
        CoreState.__init__(self, rules, game)
        self.rules = rules

    def c_init_arrays(self):
        if not cython.compiled:
            self.money = [0] * MAXP
            self.hand = [0] * (MAXP * HMAX)
            self.hand_size = [0] * MAXP
            self.known_mask = [0] * MAXP
            self.view_seas = None
            self.view_seas_fresh = 0
            self.agency = [0] * AGENCY
            self.deck = [0] * MAXS
            self.discard = [0] * MAXS
            self.sea_class = [0] * NSEA
            self.class_sea = [0] * NCLASS
            self.field_plaque = [0] * (NSEA * NFIELD)
            self.fields_taken = [0] * NSEA
            self.plaque_value = [0] * (NSEA * NPL)
            self.plaque_loan = [0] * (NSEA * NPL)
            self.plaque_ships = [0] * (NSEA * NPP * MAXLEG)
            self.voyages_staged = [0] * (MAXP * NSEA)
            self.borrowed = [0] * (MAXP * NSEA)
            self.voyages_left = [0] * MAXP
            self.buf = [0] * MAXLEGAL
            self.voyage_ships = [0] * MAXLEG
            self.voyage_legs = [0] * MAXLEG
            self.dp_any = [0] * NMASK
            self.dp_suited = [0] * NMASK
            self.cover = [0] * NSEA
            self.leg_best = [0] * (NSEA * MAXLEG)
            self.seen_in = [0] * MAXS
            self.turns = [0] * MAXP
            self.credit = [0] * MAXP

    # ------------------------------------------------------------------ setup

    def _shuffle_deck(self):
        i = self.deck_size - 1
        while i > 0:
            j = self.c_below(i + 1)
            tmp = self.deck[i]
            self.deck[i] = self.deck[j]
            self.deck[j] = tmp
            i -= 1

    def _draw(self):
        """The top card of the pack; an empty pack is first refilled from the shuffled
        discard pile (rulebook "Changing the Ships"). -1 if both are empty."""
        if self.deck_size == 0:
            for i in range(self.discard_size):
                self.deck[i] = self.discard[i]
            self.deck_size = self.discard_size
            self.discard_size = 0
            self._shuffle_deck()
            if self.deck_size == 0:
                return -1
        self.deck_size -= 1
        return self.deck[self.deck_size]

    def _setup(self, rng_state, start_player):
        """Deal a new game. start_player < 0: drawn from the seed."""
        self.rng = rng_state & MASK64
        for p in range(MAXP):
            self.money[p] = self.rules.start_money if p < self.rules.num_players else 0
            self.hand_size[p] = 0
            self.known_mask[p] = 0
            self.voyages_left[p] = NSEA * self.rules.sets if p < self.rules.num_players else 0
            for s in range(NSEA):
                self.voyages_staged[p * NSEA + s] = 0
                self.borrowed[p * NSEA + s] = 0
        for s in range(NSEA):
            self.sea_class[s] = -1
            self.fields_taken[s] = 0
            for i in range(NPL):
                self.plaque_value[s * NPL + i] = 0
                self.plaque_loan[s * NPL + i] = 0
        for i in range(NCLASS):
            self.class_sea[i] = -1
        for i in range(self.rules.num_ships):
            self.deck[i] = i
        self.deck_size = self.rules.num_ships
        self.discard_size = 0
        self.view_seas_fresh = 0
        self._shuffle_deck()
        # The top four cards go on the spaces from 3,000 down to 0 marks, in order.
        for i in range(AGENCY):
            self.agency[i] = self._draw()
        if start_player < 0:
            start_player = self.c_below(self.rules.num_players)
        self.start_seat = start_player
        self.current = start_player
        self.phase = PH_LOAN

    # ------------------------------------------------------------------ queries

    @property
    def phase_name(self):
        return PHASES[self.phase]

    def _points(self, seat):
        total = 0
        for s in range(NSEA):
            c = self.sea_class[s]
            if c < 0:
                continue
            for i in range(self.fields_taken[s]):
                pid = self.field_plaque[s * NFIELD + i]
                if pid < NPP and (pid >> 1) == seat:
                    total += self.rules.board_points[c * NFIELD + i]
        return total

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

    # ------------------------------------------------------------------ the contract (engine.py)

    def c_current(self):
        return -1 if self.phase == PH_OVER else self.current

    def c_legal_at(self, i):
        return self.buf[i]

    def c_score(self, seat):
        """Victory points from the fields the seat's plaques occupy now (A2, A8)."""
        return self._points(seat)

    def c_winners_mask(self):
        """The winning seats once the game is over (a shared win has several bits); 0
        while it runs (A8)."""
        if self.phase != PH_OVER:
            return 0
        return self._winners_mask()

    def c_copy_into(self, dst):
        self._copy_into(cython.cast(AtlanticCore, dst))

    def _max_legs(self, seat):
        """Legs of the longest voyage the seat still has to stage (0 if none)."""
        m = 0
        for s in range(NSEA):
            if self.voyages_staged[seat * NSEA + s] < self.rules.sets and self.rules.legs[s] > m:
                m = self.rules.legs[s]
        return m

    # ------------------------------------------------------------------ legal moves

    def c_legal(self):
        """Write the sorted legal action ids into self.buf; return their count."""
        n = 0
        if self.phase == PH_OVER:
            return 0
        p = self.current
        if self.phase == PH_LOAN:
            for s in range(NSEA):
                # Once per sea (even when sailed twice) and none in a full class.
                if self.borrowed[p * NSEA + s] or self.fields_taken[s] >= NFIELD:
                    continue
                for k in range(self.voyages_staged[p * NSEA + s]):
                    m = self.plaque_value[s * NPL + p * 2 + k]
                    if m > NAMT:
                        m = NAMT
                    base = self.rules.a_loan + (s * self.rules.sets + k) * NAMT
                    for amt in range(m):
                        self.buf[n] = base + amt
                        n += 1
        if self.money[p] >= 2:
            self.buf[n] = self.rules.a_refresh
            n += 1
        hn = self.hand_size[p]
        maxl = self._max_legs(p)
        if hn + 1 <= maxl + 2:  # A6
            for i in range(AGENCY):
                if self.agency[i] >= 0 and self.money[p] >= AGENCY - 1 - i:
                    self.buf[n] = self.rules.a_charter + i
                    n += 1
        for s in range(NSEA):
            if self.voyages_staged[p * NSEA + s] >= self.rules.sets:
                continue
            L = self.rules.legs[s]
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
                    base = self.rules.a_voyage + (s * NCLASS + c) * NKEEP + lo
                    for code in range(cnt):
                        self.buf[n] = base + code
                        n += 1
        return n

    def c_random_action(self, r):
        """A uniformly random legal action, from the 64-bit random value r (the contract's
        choice, read straight from the buffer)."""
        n = self.c_legal()
        return self.buf[((r >> 32) * n) >> 32]

    def c_rollout_action(self, r):
        """The search's rollout policy (docs/atlantic_star.md, "Rollout policy"): a cheap
        beginner's game, so that a playout's result says something about the position.
        Uniformly random playouts take loans and refreshes they do not need and stage
        voyages whatever they are worth; this one, except one move in eight taken at
        random to keep the playouts varied, borrows only when money runs short and only
        what keeps the plaque's rank, stages the best voyage of its hand once it is worth
        PAR_PER_LEG a leg (or less when the hand can take no more ships for that sea), in
        the class whose field its value is likely to reach pays most, and otherwise
        charters the ship that adds most to the sea its hand builds, less its price, or
        refreshes the agency when no ship on offer is worth a point after its price."""
        a = -1
        if (r & 7) != 0:
            a = self.c_prior_action(r)
        if a < 0:
            n = self.c_legal()
            a = self.buf[((r >> 32) * n) >> 32]
        return a

    def c_prior_action(self, r):
        """The rollout policy's own choice, without its random moves (docs/atlantic_star.md,
        "Rollout policy"): the loan, voyage, charter or refresh described in
        ``c_rollout_action``; -1 where it has none (no charter is legal and no voyage is
        worth staging)."""
        n = self.c_legal()
        p = self.current
        if self.phase == PH_LOAN and self.money[p] < LOAN_BELOW:
            a = self._policy_loan(p, n)
            if a >= 0:
                return a
        can_charter = 0
        for i in range(n):
            if self.rules.a_charter <= self.buf[i] < self.rules.a_voyage:
                can_charter = 1
                break
        a = self._policy_voyage(p, can_charter)
        if a >= 0 or not can_charter:
            return a
        return self._policy_charter(p, n)

    def _policy_voyage(self, p, can_charter):
        """The rollout policy's voyage: the best the hand can stage now, by value above par
        per leg, if it reaches par (or whatever it is worth when no charter is legal); -1
        for none."""
        hn = self.hand_size[p]
        best_s = -1
        best_code = -1
        best_v = 0
        best_surplus = -1000000
        for s in range(NSEA):
            if self.voyages_staged[p * NSEA + s] >= self.rules.sets:
                continue
            L = self.rules.legs[s]
            if hn < L or hn > L + 2:
                continue
            par = PAR_PER_LEG * L
            if hn == L + 2:
                par -= L  # the hand cannot grow for this sea any more
            if can_charter and self._voyage_bound(p, s) < par:
                continue  # no voyage of this hand reaches par: spare the exact search
            v = self._voyage_value(p, s)
            surplus = v - par
            if surplus > best_surplus:
                best_surplus = surplus
                best_s = s
                best_code = self._bv_code
                best_v = v
        if best_s >= 0 and (not can_charter or best_surplus >= 0):
            cls = self.sea_class[best_s]
            if cls < 0:
                # The field a voyage of this value per leg tends to reach, and the free
                # class that pays most there (ties to the higher class).
                L = self.rules.legs[best_s]
                f = (PAR_PER_LEG + 1) * 3 // 2 - best_v * 3 // (2 * L)
                if f < 0:
                    f = 0
                elif f > NFIELD - 1:
                    f = NFIELD - 1
                best_pay = -1
                for c in range(NCLASS):
                    if self.class_sea[c] < 0 and self.rules.board_points[c * NFIELD + f] >= best_pay:
                        best_pay = self.rules.board_points[c * NFIELD + f]
                        cls = c
            return self.rules.a_voyage + (best_s * NCLASS + cls) * NKEEP + best_code
        return -1

    def _policy_charter(self, p, n):
        """The rollout policy's charter (of the ``n`` legal actions in ``buf``): the agency
        ship that adds most to the sea the hand builds (or to any leg still to sail), less
        its price; a refresh when none is worth a point after its price."""
        hn = self.hand_size[p]
        # What each leg of each sea still to sail is covered with so far.
        for s in range(NSEA):
            if self.voyages_staged[p * NSEA + s] >= self.rules.sets or self.rules.legs[s] + 2 <= hn:
                self.cover[s] = -1  # sailed, or no room in the hand for this sea
                continue
            self.cover[s] = 0
            for i in range(hn):
                self.cover[s] |= self.rules.suited_legs[self.hand[p * HMAX + i] * NSEA + s]
            for l in range(self.rules.legs[s]):
                best = 0
                for i in range(hn):
                    g = self.rules.worth[(self.hand[p * HMAX + i] * NSEA + s) * MAXLEG + l]
                    if g > best:
                        best = g
                self.leg_best[s * MAXLEG + l] = best
        # The sea the hand builds: the most value above FOCUS_PAR on its legs (none while
        # no leg of any sea still to sail is above it).
        target = -1
        best_focus = 0
        for s in range(NSEA):
            if self.cover[s] < 0:
                continue
            f = 0
            for l in range(self.rules.legs[s]):
                if self.leg_best[s * MAXLEG + l] > FOCUS_PAR:
                    f += self.leg_best[s * MAXLEG + l] - FOCUS_PAR
            if f > best_focus:
                best_focus = f
                target = s
        # Each ship's gain in half points, less its price (doubled with 6,000 marks or less).
        best_a = -1
        best_gain = -1000000
        dear = 1 if self.money[p] > 6 else 2
        for i in range(AGENCY):
            c = self.agency[i]
            price = AGENCY - 1 - i
            if c < 0 or self.money[p] < price:
                continue
            gain = 0
            if target >= 0:
                # What the ship adds to the target sea's best value on one of its legs.
                su = self.rules.suited_legs[c * NSEA + target]
                for l in range(self.rules.legs[target]):
                    if su & (1 << l):
                        g = self.rules.worth[(c * NSEA + target) * MAXLEG + l] - self.leg_best[target * MAXLEG + l]
                        g *= 2
                        if g > gain:
                            gain = g
                gain -= dear * price
                if gain >= best_gain:  # ties to the cheaper space
                    best_gain = gain
                    best_a = self.rules.a_charter + i
                continue
            for s in range(NSEA):
                if self.cover[s] < 0:
                    continue
                su = self.rules.suited_legs[c * NSEA + s]
                for l in range(self.rules.legs[s]):
                    if su & (1 << l):
                        g = self.rules.worth[(c * NSEA + s) * MAXLEG + l]
                        if not (self.cover[s] & (1 << l)):
                            g += UNCOVERED_BONUS
                        if g > gain:
                            gain = g
            gain = 2 * gain - dear * price
            if gain >= best_gain:  # ties to the cheaper space
                best_gain = gain
                best_a = self.rules.a_charter + i
        # No ship worth a point after its price: a new agency, while money lasts.
        if best_gain < REFRESH_BELOW and self.money[p] >= REFRESH_MONEY:
            for i in range(n):
                if self.buf[i] == self.rules.a_refresh:
                    return self.rules.a_refresh
        return best_a

    def _policy_loan(self, p, n):
        """The rollout policy's loan (of the ``n`` legal actions in ``buf``): the largest
        that leaves one of the seat's plaques above the plaque ranked below it now (so
        its rank holds, A7), or -1 when none does."""
        best_a = -1
        best_amt = 0
        for i in range(n):
            a = self.buf[i]
            if a >= self.rules.a_refresh:
                break  # loans come first in the sorted list
            k = a - self.rules.a_loan
            amt = k % NAMT + 1
            k = k // NAMT
            sea = k // self.rules.sets
            pid = p * 2 + k % self.rules.sets
            below = -1
            j = 0
            while j < self.fields_taken[sea] and self.field_plaque[sea * NFIELD + j] != pid:
                j += 1
            if j + 1 < self.fields_taken[sea]:
                below = self.plaque_value[sea * NPL + self.field_plaque[sea * NFIELD + j + 1]]
            if self.plaque_value[sea * NPL + pid] - amt > below and amt > best_amt:
                best_amt = amt
                best_a = a
        return best_a

    def _voyage_bound(self, seat, sea):
        """An upper bound of the best voyage of the hand in ``sea`` (A5): the lower of two
        sums, the L best ship values (each ship at its best leg) and each leg's best value
        among the hand's ships, plus the bonus if every leg has a ship that suits it."""
        L = self.rules.legs[sea]
        for k in range(L):
            self.voyage_ships[k] = 0
        for i in range(self.hand_size[seat]):
            v = self.rules.best_worth[self.hand[seat * HMAX + i] * NSEA + sea]
            # Keep the L best values in voyage_ships, in descending order.
            k = L - 1
            if v <= self.voyage_ships[k]:
                continue
            while k > 0 and self.voyage_ships[k - 1] < v:
                self.voyage_ships[k] = self.voyage_ships[k - 1]
                k -= 1
            self.voyage_ships[k] = v
        total = 0
        for k in range(L):
            total += self.voyage_ships[k]
        # Each leg at its best ship of the hand: a second bound, the lower one counts; the
        # bonus only when every leg has a ship that suits it.
        by_leg = 0
        suits = 0
        for i in range(self.hand_size[seat]):
            suits |= self.rules.suited_legs[self.hand[seat * HMAX + i] * NSEA + sea]
        for l in range(L):
            best = 0
            for i in range(self.hand_size[seat]):
                v = self.rules.worth[(self.hand[seat * HMAX + i] * NSEA + sea) * MAXLEG + l]
                if v > best:
                    best = v
            by_leg += best
        if by_leg < total:
            total = by_leg
        return total + L if suits == (1 << L) - 1 else total

    def c_check(self, a):
        """R_LEGAL (0) if action a is legal now, else the code (R_*) of why not, its index
        into REASONS. Never mutates."""
        if self.phase == PH_OVER:
            return R_GAME_OVER
        p = self.current
        if a < self.rules.a_refresh:  # loan
            if self.phase != PH_LOAN:
                return R_LOAN_NOT_FIRST
            r = a - self.rules.a_loan
            amt = r % NAMT + 1
            r = r // NAMT
            k = r % self.rules.sets
            s = r // self.rules.sets
            if k >= self.voyages_staged[p * NSEA + s]:
                return R_VOYAGE_NOT_STAGED
            if self.borrowed[p * NSEA + s]:
                return R_ALREADY_BORROWED
            if self.fields_taken[s] >= NFIELD:
                return R_CLASS_FULL
            if amt > self.plaque_value[s * NPL + p * 2 + k]:
                return R_LOAN_ABOVE_VALUE
            return R_LEGAL
        if a == self.rules.a_refresh:
            return R_LEGAL if self.money[p] >= 2 else R_REFRESH_UNPAID
        if a < self.rules.a_voyage:  # charter
            i = a - self.rules.a_charter
            if self.agency[i] < 0:
                return R_AGENCY_EMPTY
            if self.money[p] < AGENCY - 1 - i:
                return R_CHARTER_UNPAID
            if self.hand_size[p] + 1 > self._max_legs(p) + 2:
                return R_HAND_TOO_BIG
            return R_LEGAL
        r = a - self.rules.a_voyage
        code = r % NKEEP
        r = r // NKEEP
        c = r % NCLASS
        s = r // NCLASS
        if self.voyages_staged[p * NSEA + s] >= self.rules.sets:
            return R_SEA_SAILED_OUT
        L = self.rules.legs[s]
        hn = self.hand_size[p]
        if hn < L or hn > L + 2:
            return R_HAND_SIZE_MISFITS
        kk = self.rules.keep_count[code]
        if kk != hn - L or self.rules.keep_first[code] >= hn or self.rules.keep_second[code] >= hn:
            return R_WRONG_KEEP
        if self.sea_class[s] >= 0:
            if self.sea_class[s] != c:
                return R_OTHER_CLASS
        elif self.class_sea[c] >= 0:
            return R_CLASS_TAKEN
        return R_LEGAL

    # ------------------------------------------------------------------ voyages

    def _fill_played(self, seat, sea, code):
        """Put the hand cards a voyage plays (all but the keep set) into self.voyage_ships."""
        ka = self.rules.keep_first[code]
        kb = self.rules.keep_second[code]
        n = 0
        for i in range(self.hand_size[seat]):
            if i != ka and i != kb:
                self.voyage_ships[n] = self.hand[seat * HMAX + i]
                n += 1
        return n

    def _dp(self, sea, L, t):
        """A5: fill the assignment tables for the L cards in self.voyage_ships on the legs of ``sea``.

        An optimal assignment by dynamic programming over the subsets of legs: card i goes
        to a free leg of a mask with i legs taken. ``dp_any`` allows unsuited legs (worth 0),
        ``dp_suited`` only suited legs (-1 = impossible). Entries of masks with at most t legs
        depend only on cards 0..t-1: with t > 0 they are kept from the previous call (the
        caller changed only cards t and later).
        """
        full = (1 << L) - 1
        if t == 0:
            for m in range(full + 1):
                self.dp_any[m] = -1
                self.dp_suited[m] = -1
            self.dp_any[0] = 0
            self.dp_suited[0] = 0
        else:
            for m in range(full + 1):
                if self.rules.leg_count[m] > t:
                    self.dp_any[m] = -1
                    self.dp_suited[m] = -1
        for m in range(full):
            i = self.rules.leg_count[m]
            if i < t:
                continue
            va = self.dp_any[m]
            vb = self.dp_suited[m]
            c = self.voyage_ships[i]
            base = (c * NSEA + sea) * MAXLEG
            su = self.rules.suited_legs[c * NSEA + sea]
            for l in range(L):
                bit = 1 << l
                if m & bit:
                    continue
                nm = m | bit
                w = self.rules.worth[base + l]
                if va + w > self.dp_any[nm]:
                    self.dp_any[nm] = va + w
                if vb >= 0 and (su & bit) and vb + w > self.dp_suited[nm]:
                    self.dp_suited[nm] = vb + w
        # A voyage with every leg properly covered earns the bonus (A1): max(dp_any, dp_suited + L).
        if self.dp_suited[full] >= 0 and self.dp_suited[full] + L > self.dp_any[full]:
            return self.dp_suited[full] + L
        return self.dp_any[full]

    def _value(self, sea, L, assign):
        """A5: the best value of the L cards in self.voyage_ships on the legs of ``sea`` (see _dp).
        With ``assign``, self.voyage_legs receives the card sailing each leg."""
        full = (1 << L) - 1
        value = self._dp(sea, L, 0)
        bonus = value != self.dp_any[full]
        if assign:
            # Walk back: card i sat on a leg l of the mask whose predecessor explains dp.
            m = full
            i = L - 1
            while i >= 0:
                c = self.voyage_ships[i]
                base = (c * NSEA + sea) * MAXLEG
                su = self.rules.suited_legs[c * NSEA + sea]
                for l in range(L):
                    bit = 1 << l
                    if not (m & bit):
                        continue
                    w = self.rules.worth[base + l]
                    if bonus:
                        if (
                            (su & bit)
                            and self.dp_suited[m ^ bit] >= 0
                            and self.dp_suited[m ^ bit] + w == self.dp_suited[m]
                        ):
                            break
                    elif self.dp_any[m ^ bit] >= 0 and self.dp_any[m ^ bit] + w == self.dp_any[m]:
                        break
                self.voyage_legs[l] = c
                m = m ^ (1 << l)
                i -= 1
        return value

    def best_voyage_code(self, seat, sea):
        """(value, keep code) of the best voyage ``seat`` can stage in ``sea`` with its hand,
        over every choice of cards (every legs-card subset of the hand); (-1, -1) if the hand
        size does not fit the sea (A6)."""
        best = self._voyage_value(seat, sea)
        return (best, self._bv_code)

    def _voyage_value(self, seat, sea):
        """best_voyage_code without the GIL: returns the value, leaves the code in _bv_code."""
        L = self.rules.legs[sea]
        hn = self.hand_size[seat]
        self._bv_best = -1
        self._bv_code = -1
        if hn < L or hn > L + 2:
            return -1
        kk = hn - L
        # Visit the keep sets in an order where consecutive played sets share long
        # prefixes (pairs in lexicographic order, single slots from the last down), so that
        # _dp recomputes only the tail; the result is exact either way (ties: lowest code).
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
        return self._bv_best

    def _bv_try(self, seat, sea, code):
        """One candidate of best_voyage_code: play all but the keep set ``code``."""
        L = self.rules.legs[sea]
        n = 0
        t = -1
        for i in range(self.hand_size[seat]):
            if i != self.rules.keep_first[code] and i != self.rules.keep_second[code]:
                c = self.hand[seat * HMAX + i]
                if t < 0 and self.voyage_ships[n] != c:
                    t = n
                self.voyage_ships[n] = c
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
            by_leg.append(self.voyage_legs[i])
            raw += self.rules.ship_value(self.voyage_legs[i], sea, i)
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
            self.voyage_ships[i] = cards[i]
        value = self._value(sea, L, True)
        by_leg = []
        raw = 0
        for i in range(L):
            by_leg.append(self.voyage_legs[i])
            raw += self.rules.ship_value(self.voyage_legs[i], sea, i)
        return (value, value != raw, by_leg)

    # ------------------------------------------------------------------ applying

    def _insert(self, sea, pid):
        """Rank a plaque: below every plaque of equal or higher value (A7)."""
        self.view_seas_fresh &= ~(1 << sea)  # the sea changed: its SeaInfo is made anew
        n = self.fields_taken[sea]
        v = self.plaque_value[sea * NPL + pid]
        i = 0
        while i < n and self.plaque_value[sea * NPL + self.field_plaque[sea * NFIELD + i]] >= v:
            i += 1
        j = n
        while j > i:
            self.field_plaque[sea * NFIELD + j] = self.field_plaque[sea * NFIELD + j - 1]
            j -= 1
        self.field_plaque[sea * NFIELD + i] = pid
        self.fields_taken[sea] = n + 1

    def _remove(self, sea, pid):
        n = self.fields_taken[sea]
        i = 0
        while i < n and self.field_plaque[sea * NFIELD + i] != pid:
            i += 1
        for j in range(i, n - 1):
            self.field_plaque[sea * NFIELD + j] = self.field_plaque[sea * NFIELD + j + 1]
        self.fields_taken[sea] = n - 1

    def _end_turn(self):
        """Next seat clockwise that still has voyages to stage (A9); the end when none (A8)."""
        total = 0
        for p in range(self.rules.num_players):
            total += self.voyages_left[p]
        if total == 0:
            self.phase = PH_OVER
            # Once the game is over nothing is hidden any more: every hand is shown (A14).
            for p in range(self.rules.num_players):
                self.known_mask[p] = (1 << self.hand_size[p]) - 1
            return
        p = self.current
        for i in range(self.rules.num_players):
            p = p + 1
            if p == self.rules.num_players:
                p = 0
            if self.voyages_left[p] > 0:
                break
        self.current = p
        self.phase = PH_LOAN

    def c_do(self, a):
        p = self.current
        if a < self.rules.a_refresh:  # loan: value -1 per 1,000, re-ranked as a later arrival (A7)
            r = a - self.rules.a_loan
            amt = r % NAMT + 1
            r = r // NAMT
            k = r % self.rules.sets
            s = r // self.rules.sets
            pid = p * 2 + k
            self._remove(s, pid)
            self.plaque_value[s * NPL + pid] -= amt
            self.plaque_loan[s * NPL + pid] += amt
            self._insert(s, pid)
            self.money[p] += amt
            self.borrowed[p * NSEA + s] = 1
            self.phase = PH_AGENCY
        elif a == self.rules.a_refresh:
            # All four ships go to the discard pile, then four new ones fill the spaces.
            self.money[p] -= 2
            for i in range(AGENCY):
                if self.agency[i] >= 0:
                    self.discard[self.discard_size] = self.agency[i]
                    self.discard_size += 1
                    self.agency[i] = -1
            for i in range(AGENCY):
                self.agency[i] = self._draw()
            self.phase = PH_AGENCY
        elif a < self.rules.a_voyage:  # charter: the dearer ships move one space on, refill 3,000
            i = a - self.rules.a_charter
            c = self.agency[i]
            self.money[p] -= AGENCY - 1 - i
            j = self.hand_size[p]
            while j > 0 and self.hand[p * HMAX + j - 1] > c:
                self.hand[p * HMAX + j] = self.hand[p * HMAX + j - 1]
                j -= 1
            self.hand[p * HMAX + j] = c
            self.hand_size[p] += 1
            # The ship was taken face up: its slot j is known; the slots above move up (A14).
            m = self.known_mask[p]
            self.known_mask[p] = (m & ((1 << j) - 1)) | ((m >> j) << (j + 1)) | (1 << j)
            j = i
            while j > 0:
                self.agency[j] = self.agency[j - 1]
                j -= 1
            self.agency[0] = self._draw()
            self._end_turn()
        else:  # voyage
            r = a - self.rules.a_voyage
            code = r % NKEEP
            r = r // NKEEP
            cls = r % NCLASS
            s = r // NCLASS
            L = self.rules.legs[s]
            self._fill_played(p, s, code)
            value = self._value(s, L, True)
            if self.sea_class[s] < 0:
                # The first voyage in a sea chooses the class; the package operators'
                # plaques come on the board first (A3).
                self.sea_class[s] = cls
                self.class_sea[cls] = s
                for j in range(self.rules.num_ops):
                    self.plaque_value[s * NPL + NPP + j] = self.rules.operator_values[j * NSEA + s]
                    self.plaque_loan[s * NPL + NPP + j] = 0
                    self._insert(s, NPP + j)
            pid = p * 2 + self.voyages_staged[p * NSEA + s]
            self.plaque_value[s * NPL + pid] = value
            self.plaque_loan[s * NPL + pid] = 0
            for i in range(L):
                self.plaque_ships[(s * NPP + pid) * MAXLEG + i] = self.voyage_legs[i]
            self._insert(s, pid)
            self.voyages_staged[p * NSEA + s] += 1
            self.voyages_left[p] -= 1
            # The played ships leave the game; the kept ones stay (still sorted), known
            # exactly when they were known before (A14).
            j = 0
            m = 0
            for i in range(self.hand_size[p]):
                if i == self.rules.keep_first[code] or i == self.rules.keep_second[code]:
                    self.hand[p * HMAX + j] = self.hand[p * HMAX + i]
                    if (self.known_mask[p] >> i) & 1:
                        m |= 1 << j
                    j += 1
            self.hand_size[p] = j
            self.known_mask[p] = m
            self._end_turn()

    # ------------------------------------------------------------------ copying

    def _copy_into(self, new):
        new.rules = self.rules
        new.game = self.game
        new.rng = self.rng
        new.phase = self.phase
        # The seas of the last view are immutable: a copy shares them (read together, as
        # _view writes them, in the state's critical section).
        if cython.compiled:
            with cython.critical_section(self):
                new.view_seas = self.view_seas
                new.view_seas_fresh = self.view_seas_fresh
        else:
            new.view_seas = self.view_seas
            new.view_seas_fresh = self.view_seas_fresh
        new.current = self.current
        new.start_seat = self.start_seat
        for i in range(MAXP):
            new.money[i] = self.money[i]
            new.hand_size[i] = self.hand_size[i]
            new.known_mask[i] = self.known_mask[i]
            new.voyages_left[i] = self.voyages_left[i]
        for i in range(MAXP * HMAX):
            new.hand[i] = self.hand[i]
        for i in range(AGENCY):
            new.agency[i] = self.agency[i]
        new.deck_size = self.deck_size
        for i in range(self.deck_size):
            new.deck[i] = self.deck[i]
        new.discard_size = self.discard_size
        for i in range(self.discard_size):
            new.discard[i] = self.discard[i]
        for i in range(NSEA):
            new.sea_class[i] = self.sea_class[i]
            new.fields_taken[i] = self.fields_taken[i]
        for i in range(NCLASS):
            new.class_sea[i] = self.class_sea[i]
        for i in range(NSEA * NFIELD):
            new.field_plaque[i] = self.field_plaque[i]
        for i in range(NSEA * NPL):
            new.plaque_value[i] = self.plaque_value[i]
            new.plaque_loan[i] = self.plaque_loan[i]
        for i in range(NSEA * NPP * MAXLEG):
            new.plaque_ships[i] = self.plaque_ships[i]
        for i in range(MAXP * NSEA):
            new.voyages_staged[i] = self.voyages_staged[i]
            new.borrowed[i] = self.borrowed[i]

    # ------------------------------------------------------------------ what a seat sees

    def view(self, player, *, recall=False):
        """What ``player`` may see (an AtlanticStarView): own hand, others' hand sizes,
        money, loans, the board, the agency, the discard pile and the pack size (A13).

        ``recall=True`` adds ``known``: per seat, the ships it is known to hold, as a seat
        that remembers every charter knows them (A14); None without recall.
        """
        return self._view(self._seat(player), recall)

    def _view(self, seat, recall):
        """The view, straight from the arrays (ShipInfo/AgencyInfo made once, on the rules)."""
        R = self.rules
        if R.view_type is None:
            raise RuntimeError("these rules have no view types: make them with the game's build_rules")
        N = R.num_players
        M = R.num_ships
        infos = R.ship_infos
        hand = []
        for i in range(self.hand_size[seat]):
            hand.append(infos[self.hand[seat * HMAX + i]])
        agency = []
        for i in range(AGENCY):
            c = self.agency[i]
            agency.append(R.agency_infos[i * M + c if c >= 0 else AGENCY * M + i])
        discard = []
        for i in range(self.discard_size):
            discard.append(infos[self.discard[i]])
        # The SeaInfo of a sea unchanged since the last view of this state (or of the state
        # it was copied from) is reused: _insert clears the sea's bit in view_seas_fresh. Views
        # only read a state, so threads may build them at once (without the GIL, too).
        if cython.compiled:
            with cython.critical_section(self):
                seas = self._current_seas()
        else:
            seas = self._current_seas()
        free = []
        for c in range(NCLASS):
            if self.class_sea[c] < 0:
                free.append(c + 1)
        money = []
        sizes = []
        left = []
        loans = []
        scores = []
        for p in range(N):
            money.append(self.money[p] * 1000)
            sizes.append(self.hand_size[p])
            left.append(self.voyages_left[p])
            row = []
            for s in range(NSEA):
                amount = 0
                for k in range(R.sets):
                    amount += self.plaque_loan[s * NPL + p * 2 + k]
                row.append(amount * 1000)
            loans.append(row)
            scores.append(self._points(p))
        legal = []
        cur = self.c_current()
        if cur == seat:
            n = self.c_legal()
            ints = R.action_ints
            for i in range(n):
                legal.append(ints[self.buf[i]])
        known = None
        if recall:
            known = []
            for p in range(N):
                row = []
                for i in range(self.hand_size[p]):
                    if (self.known_mask[p] >> i) & 1:
                        row.append(infos[self.hand[p * HMAX + i]])
                known.append(row)
        return R.view_type(
            player=seat,
            phase=PHASES[self.phase],
            current_player=cur,
            money=money,
            hand=hand,
            hand_sizes=sizes,
            agency=agency,
            deck_size=self.deck_size,
            discard=discard,
            seas=seas,
            free_classes=free,
            voyages_left=left,
            loans=loans,
            scores=scores,
            legal_actions=legal,
            known=known,
        )

    def _current_seas(self):
        """The SeaInfo of every sea, made anew where the sea's bit in view_seas_fresh is clear
        (the caller holds the state's critical section: view_seas and view_seas_fresh change together)."""
        if self.view_seas_fresh == (1 << NSEA) - 1:
            return list(self.view_seas)
        R = self.rules
        names = R.ship_names
        Plaque = R.plaque_info
        old = self.view_seas
        seas = []
        for s in range(NSEA):
            if (self.view_seas_fresh >> s) & 1:
                seas.append(old[s])
                continue
            cls = self.sea_class[s]
            L = R.legs[s]
            plaques = []
            for i in range(self.fields_taken[s]):
                pid = self.field_plaque[s * NFIELD + i]
                if pid < NPP:
                    ships = []
                    base = (s * NPP + pid) * MAXLEG
                    for j in range(L):
                        ships.append(names[self.plaque_ships[base + j]])
                    plaques.append(Plaque(
                        i + 1,
                        R.board_points[cls * NFIELD + i],
                        pid >> 1,
                        None,
                        pid & 1,
                        self.plaque_value[s * NPL + pid],
                        self.plaque_loan[s * NPL + pid] * 1000,
                        ships,
                    ))
                else:
                    value = self.plaque_value[s * NPL + pid]
                    plaques.append(Plaque(i + 1, R.board_points[cls * NFIELD + i], None, pid - NPP, 0, value, 0, []))
            full = self.fields_taken[s] == NFIELD
            seas.append(R.sea_info(SEA_NAMES[s], L, None if cls < 0 else cls + 1, plaques, full))
        self.view_seas = tuple(seas)
        self.view_seas_fresh = (1 << NSEA) - 1
        return seas

    def c_observe(self, seat, out):
        """Seat ``seat``'s observation tensor (docs/atlantic_star.md, "Observation tensor"):
        made only from what ``view(seat)`` shows; ``out`` is zeroed by the caller."""
        N = self.rules.num_players
        M = self.rules.num_ships
        out[self.rules.o_seat + seat] = 1.0
        if self.phase != PH_OVER:
            out[self.rules.o_cur + self.current] = 1.0
        out[self.rules.o_phase + self.phase] = 1.0
        for i in range(self.hand_size[seat]):
            out[self.rules.o_hand + self.hand[seat * HMAX + i]] = 1.0
        for i in range(AGENCY):
            c = self.agency[i]
            if c >= 0:
                out[self.rules.o_agency + i * M + c] = 1.0
        out[self.rules.o_deck] = self.deck_size / (1.0 * M)
        for i in range(self.discard_size):
            out[self.rules.o_disc + self.discard[i]] = 1.0
        for s in range(NSEA):
            cls = self.sea_class[s]
            if cls < 0:
                continue
            out[self.rules.o_class + s * NCLASS + cls] = 1.0
            L = self.rules.legs[s]
            for i in range(self.fields_taken[s]):
                pid = self.field_plaque[s * NFIELD + i]
                at = self.rules.o_plaque + (s * NFIELD + i) * PLQ
                if pid < NPP:
                    # Owners: seat p's k-th voyage is p * sets + k, then the operator sets.
                    out[at + (pid >> 1) * self.rules.sets + (pid & 1)] = 1.0
                    base = (s * NPP + pid) * MAXLEG
                    for j in range(L):
                        out[self.rules.o_board + self.plaque_ships[base + j]] = 1.0
                else:
                    out[at + N * self.rules.sets + pid - NPP] = 1.0
                out[at + NFIELD] = self.plaque_value[s * NPL + pid] / VALUE_SCALE
                out[at + NFIELD + 1] = self.plaque_loan[s * NPL + pid] / LOAN_SCALE
        for c in range(NCLASS):
            if self.class_sea[c] < 0:
                out[self.rules.o_free + c] = 1.0
        for p in range(N):
            out[self.rules.o_hsize + p] = self.hand_size[p] / (1.0 * HMAX)
            out[self.rules.o_money + p] = self.money[p] / MONEY_SCALE
            for s in range(NSEA):
                amount = 0
                for k in range(self.rules.sets):
                    amount += self.plaque_loan[s * NPL + p * 2 + k]
                out[self.rules.o_loans + p * NSEA + s] = amount / LOAN_SCALE
            out[self.rules.o_left + p] = self.voyages_left[p] / (1.0 * NSEA * self.rules.sets)
            out[self.rules.o_scores + p] = self._points(p) / POINTS_SCALE

    def c_info_state(self, seat, out):
        """The observation plus, per seat, the ships every seat knows it holds (A14)."""
        M = self.rules.num_ships
        self.c_observe(seat, out)
        for p in range(self.rules.num_players):
            for i in range(self.hand_size[p]):
                if (self.known_mask[p] >> i) & 1:
                    out[self.rules.o_known + p * M + self.hand[p * HMAX + i]] = 1.0

    def c_resample(self, seat, recall):
        """Deal anew, from ``self.rng``, every ship ``seat`` cannot see: the other hands
        (sizes kept) and the pack, uniformly (one Fisher-Yates shuffle of them all). With
        ``recall`` the ships every seat knows a hand holds stay there (A14) and only the
        rest is dealt. The discard pile, the agency and the board are public (A13).

        The ships to deal are shuffled from ship id order, not from the hidden order they
        lie in (the pack's order, which other hand holds which): the deal depends on which
        ships are unseen (what view(seat, recall) shows) and self.rng only."""
        N = self.rules.num_players
        M = self.rules.num_ships
        # self.buf (the legal actions' scratch, refilled by every c_legal) holds the ships
        # to deal from 0, a flag per ship id from MAXS and a hand being rebuilt from SCRATCH.
        for c in range(M):
            self.buf[MAXS + c] = 0
        for p in range(N):
            if p == seat:
                continue
            keep = self.known_mask[p] if recall else 0
            k = 0
            for i in range(self.hand_size[p]):
                c = self.hand[p * HMAX + i]
                if (keep >> i) & 1:
                    self.hand[p * HMAX + k] = c  # the known ships move to the front, sorted
                    k += 1
                else:
                    self.buf[MAXS + c] = 1
        for i in range(self.deck_size):
            self.buf[MAXS + self.deck[i]] = 1
        # The ships to deal in ship id order (a counting pass over the ids).
        n = 0
        for c in range(M):  # no branch on the flag: write, then keep or not
            self.buf[n] = c
            n += self.buf[MAXS + c]
        i = n - 1
        while i > 0:
            j = self.c_below(i + 1)
            c = self.buf[i]
            self.buf[i] = self.buf[j]
            self.buf[j] = c
            i -= 1
        at = 0
        for p in range(N):
            if p == seat:
                continue
            keep = self.known_mask[p] if recall else 0
            k = 0
            for i in range(self.hand_size[p]):
                k += (keep >> i) & 1
            u = self.hand_size[p] - k
            # The dealt ships, sorted (insertion sort: at most 8), merged with the known ones.
            for i in range(u):
                c = self.buf[at + i]
                j = i
                while j > 0 and self.buf[SCRATCH + j - 1] > c:
                    self.buf[SCRATCH + j] = self.buf[SCRATCH + j - 1]
                    j -= 1
                self.buf[SCRATCH + j] = c
            at += u
            for i in range(k):
                self.buf[SCRATCH + HMAX + i] = self.hand[p * HMAX + i]
            a = 0
            b = 0
            m = 0
            for i in range(self.hand_size[p]):
                if b == k or (a < u and self.buf[SCRATCH + a] < self.buf[SCRATCH + HMAX + b]):
                    self.hand[p * HMAX + i] = self.buf[SCRATCH + a]
                    a += 1
                else:
                    self.hand[p * HMAX + i] = self.buf[SCRATCH + HMAX + b]
                    m |= 1 << i
                    b += 1
            # A finished game shows every hand (A14).
            self.known_mask[p] = (1 << self.hand_size[p]) - 1 if self.phase == PH_OVER else m
        for i in range(self.deck_size):
            self.deck[i] = self.buf[at + i]

    # ------------------------------------------------------------------ raw access
    # Used by the Python layer (rendering, oracles, tests); not hot. The matching setter
    # is atlantic_star_snapshot.set_raw.

    def _get_raw(self):
        """A dict of plain Python values describing the full state (money in thousands)."""
        R = self.rules
        N = R.num_players
        seas = []
        for s in range(NSEA):
            plaques = []
            for i in range(self.fields_taken[s]):
                pid = self.field_plaque[s * NFIELD + i]
                cards = []
                if pid < NPP:
                    cards = [self.plaque_ships[(s * NPP + pid) * MAXLEG + j] for j in range(R.legs[s])]
                plaques.append((pid, self.plaque_value[s * NPL + pid], self.plaque_loan[s * NPL + pid], cards))
            seas.append({"class": self.sea_class[s], "plaques": plaques})
        return {
            "rng": self.rng,
            "phase": self.phase,
            "start": self.start_seat,
            "cur": self.current,
            "money": [self.money[p] for p in range(N)],
            "hands": [[self.hand[p * HMAX + i] for i in range(self.hand_size[p])] for p in range(N)],
            "known": self._known_lists(),
            "agency": [self.agency[i] for i in range(AGENCY)],
            "deck": [self.deck[i] for i in range(self.deck_size)],
            "discard": [self.discard[i] for i in range(self.discard_size)],
            "seas": seas,
        }

    def _known_lists(self):
        """Per seat, the held ships known to every seat (A14), sorted by ship id."""
        return [
            [self.hand[p * HMAX + i] for i in range(self.hand_size[p]) if (self.known_mask[p] >> i) & 1]
            for p in range(self.rules.num_players)
        ]

    # ------------------------------------------------------------------ loading

    def _load_checked(self, d, history):
        """Check the decoded AtlanticStarStateData ``d`` and load it:
        atlantic_star_snapshot.load_checked (the checks and their error texts live there,
        beside set_raw, the one way a full state is written into the core)."""
        global _snapshot
        if _snapshot is None:
            from . import atlantic_star_snapshot

            _snapshot = atlantic_star_snapshot
        _snapshot.load_checked(self, d, history)

    def _export(self):
        """The full state as an AtlanticStarStateData Struct (the hot half of to_json)."""
        R = self.rules
        schema = R.schema
        N = R.num_players
        Plaque = schema.Plaque
        seas = []
        for s in range(NSEA):
            plaques = []
            L = R.legs[s]
            for i in range(self.fields_taken[s]):
                pid = self.field_plaque[s * NFIELD + i]
                if pid < NPP:
                    plaques.append(Plaque(
                        seat=pid >> 1,
                        voyage=pid & 1,
                        value=self.plaque_value[s * NPL + pid],
                        loan=self.plaque_loan[s * NPL + pid] * 1000,
                        ships=[self.plaque_ships[(s * NPP + pid) * MAXLEG + j] for j in range(L)],
                    ))
                else:
                    plaques.append(Plaque(operator=pid - NPP, value=self.plaque_value[s * NPL + pid]))
            c = self.sea_class[s]
            seas.append(schema.SeaData(stars=None if c < 0 else c + 1, plaques=plaques))
        return schema.AtlanticStarStateData(
            schema_version=schema.SCHEMA_VERSION,
            game=R.game_name,
            players=N,
            ship_list=R.digest,
            board=[[R.board_points[c * NFIELD + i] for i in range(NFIELD)] for c in range(NCLASS)],
            rng="%016x" % self.rng,
            phase=PHASES[self.phase],
            start_player=self.start_seat,
            current_player=-1 if self.phase == PH_OVER else self.current,
            money=[self.money[p] * 1000 for p in range(N)],
            hands=[[self.hand[p * HMAX + i] for i in range(self.hand_size[p])] for p in range(N)],
            known=self._known_lists(),
            agency=[None if self.agency[i] < 0 else self.agency[i] for i in range(AGENCY)],
            deck=[self.deck[i] for i in range(self.deck_size)],
            discard=[self.discard[i] for i in range(self.discard_size)],
            seas=seas,
        )

    def _get_agency(self, space):
        """The ship on agency space ``space`` (-1: empty)."""
        return self.agency[space]

    def _sea_class(self, sea):
        """The class index of ``sea`` (-1: no voyage there yet)."""
        return self.sea_class[sea]

    def _plaque_value(self, sea, pid):
        return self.plaque_value[sea * NPL + pid]
