# Types for atlantic_star.py (Cython pure-Python mode). Keep in step with atlantic_star.py
# and atlantic_star.pyi.
cimport cython
from .engine cimport CoreRules, CoreState

cdef enum:
    MAXS = 256       # ship cards in a ship list
    NSEA = 4         # Baltic, Mediterranean, Atlantic, Pacific (A1)
    MAXLEG = 6       # legs of the longest voyage (Pacific)
    NMASK = 64       # 1 << MAXLEG
    NCLASS = 5       # 1★ .. 5★ (A2)
    NFIELD = 6       # ranked fields per class (A2)
    MAXP = 6         # seats
    HMAX = 8         # largest hand: Pacific 6 legs + 2 (A6)
    NKEEP = 37       # keep codes: keep nothing, one of 8 slots, two of 8 slots
    NPL = 14         # plaque ids per sea: seat * 2 + voyage (12), then 2 operator sets
    NPP = 12         # player plaque ids per sea
    NAMT = 10        # loan amounts 1,000 .. 10,000
    AGENCY = 4       # charter agency spaces, 3,000 .. 0 marks
    MAXLEGAL = 1024

    PH_LOAN = 0      # start of a turn: a loan is still possible
    PH_AGENCY = 1    # "agency": after a loan or a refresh
    PH_OVER = 2

    # zones of a ship while atlantic_star_snapshot checks a state: hands, agency spaces, pack, discard
    # pile, then plaques (Z_PLAQUE + sea * NPP + plaque id)
    Z_HAND = 1
    Z_AGENCY = 7
    Z_DECK = 11
    Z_DISC = 12
    Z_PLAQUE = 16

    PLQ = 8          # observation floats per board field: owner one-hot (6), value, loan
    SCRATCH = 512    # where c_resample rebuilds a hand in buf (the ships to deal and
                     # a flag per ship id, from MAXS, are below)

# Why an action is illegal: c_check's result, an index into REASONS (atlantic_star.py).
cdef enum:
    R_LEGAL = 0
    R_GAME_OVER = 1
    R_LOAN_NOT_FIRST = 2
    R_VOYAGE_NOT_STAGED = 3
    R_ALREADY_BORROWED = 4
    R_CLASS_FULL = 5
    R_LOAN_ABOVE_VALUE = 6
    R_REFRESH_UNPAID = 7
    R_AGENCY_EMPTY = 8
    R_CHARTER_UNPAID = 9
    R_HAND_TOO_BIG = 10
    R_SEA_SAILED_OUT = 11
    R_HAND_SIZE_MISFITS = 12
    R_WRONG_KEEP = 13
    R_OTHER_CLASS = 14
    R_CLASS_TAKEN = 15


cdef unsigned long long MASK64
cdef double MONEY_SCALE, LOAN_SCALE, VALUE_SCALE, POINTS_SCALE
cdef int PAR_PER_LEG, UNCOVERED_BONUS, FOCUS_PAR, REFRESH_BELOW, REFRESH_MONEY, LOAN_BELOW


cdef class AtlanticRules(CoreRules):
    cdef readonly int sets, num_ships, start_money, num_ops
    cdef readonly int a_loan, a_refresh, a_charter, a_voyage
    cdef readonly str digest
    cdef int legs[NSEA]                       # legs of each sea's voyages (A1)
    cdef int board_points[NCLASS * NFIELD]    # victory points of field i of class c: c * NFIELD + i (A2)
    cdef int operator_values[2 * NSEA]        # package operator set j's value in sea s: j * NSEA + s (A3)
    cdef int worth[MAXS * NSEA * MAXLEG]      # what ship c is worth on leg l of sea s: (c * NSEA + s) * MAXLEG + l
    cdef int suited_legs[MAXS * NSEA]         # a bit per leg of sea s ship c suits: c * NSEA + s
    cdef int best_worth[MAXS * NSEA]          # a ship's best value in a sea (the rollout policy's bound)
    cdef int leg_count[NMASK]                 # the legs (bits) set in a leg mask
    # keep codes (module docstring): how many hand slots each keeps, and which (-1: none)
    cdef int keep_count[NKEEP]
    cdef int keep_first[NKEEP]
    cdef int keep_second[NKEEP]
    # where the tensors' fields start, read from their layouts (_set_layout)
    cdef int o_seat, o_cur, o_phase, o_hand, o_hsize, o_agency, o_deck, o_disc, o_board
    cdef int o_class, o_free, o_plaque, o_money, o_loans, o_left, o_scores, o_known
    # the view's Structs and its immutable parts (_set_view_types)
    cdef readonly tuple ship_infos, agency_infos, ship_names
    cdef readonly object view_type, sea_info, plaque_info

    @cython.locals(c=cython.int, s=cython.int, l=cython.int, i=cython.int, j=cython.int,
                   code=cython.int, nf=cython.int)
    cdef void _fill(self, list mail, list entries, list board) except *


cdef class AtlanticCore(CoreState):
    cdef readonly AtlanticRules rules
    cdef int phase                 # PH_LOAN, PH_AGENCY or PH_OVER (PHASES: the public names)
    cdef int current               # the seat to move (the start seat once the game is over)
    cdef int start_seat            # the seat that took the first turn
    cdef int money[MAXP]           # per seat, thousands of marks
    cdef int hand[MAXP * HMAX]     # seat p's hand, sorted by ship id: p * HMAX + slot
    cdef int hand_size[MAXP]
    cdef int known_mask[MAXP]      # per seat, a bit per hand slot: that ship is known to all (A14)
    cdef tuple view_seas           # the SeaInfo of each sea in the last view (immutable, shared by copies)
    cdef int view_seas_fresh       # a bit per sea whose view_seas entry is current (_insert clears it)
    cdef int agency[AGENCY]        # the ship on each space, 3,000 .. 0 marks (-1: empty)
    cdef int deck[MAXS]            # the pack, its top last
    cdef int deck_size
    cdef int discard[MAXS]         # the discard pile
    cdef int discard_size
    cdef int sea_class[NSEA]       # each sea's class index (-1: no voyage yet)
    cdef int class_sea[NCLASS]     # the sea holding each class (-1: free)
    cdef int field_plaque[NSEA * NFIELD]  # the plaque id on each field of a sea's class, top first
    cdef int fields_taken[NSEA]    # plaques on each sea's fields
    # per sea and plaque id (seat * 2 + voyage, then NPP + operator set): s * NPL + id
    cdef int plaque_value[NSEA * NPL]     # the plaque's value (after its loan)
    cdef int plaque_loan[NSEA * NPL]      # thousands borrowed against it
    cdef int plaque_ships[NSEA * NPP * MAXLEG]  # a seat's voyage's ships by leg: (s * NPP + id) * MAXLEG + leg
    cdef int voyages_staged[MAXP * NSEA]  # per seat and sea: p * NSEA + s
    cdef int borrowed[MAXP * NSEA]        # per seat and sea: 1 if it borrowed there (once per sea)
    cdef int voyages_left[MAXP]           # per seat, voyages still to stage
    cdef int buf[MAXLEGAL]         # the legal actions (c_legal), and c_resample's scratch
    cdef int voyage_ships[MAXLEG]  # scratch: the ships of a voyage being valued (_value, _dp); the best values (_voyage_bound)
    cdef int voyage_legs[MAXLEG]   # scratch of _value: the leg each of them takes
    cdef int dp_any[NMASK]         # scratch of _dp: best value per mask of legs taken, any leg
    cdef int dp_suited[NMASK]      # scratch of _dp: the same, suited legs only (-1: impossible)
    cdef int cover[NSEA]     # scratch of c_rollout_action: legs the hand covers, per sea
    cdef int leg_best[NSEA * MAXLEG]  # scratch of c_rollout_action: the hand's best value per leg
    cdef int _bv_best, _bv_code, _bv_first  # scratch of _voyage_value: best value, its keep code, none yet
    # scratch of atlantic_star_snapshot's checks
    cdef int seen_in[MAXS]   # where each ship was seen (a zone code Z_*)
    cdef int turns[MAXP]     # turns each seat has had
    cdef int credit[MAXP]    # starting capital + loans (thousands)

    # the contract (engine.pxd)
    cdef void c_init_arrays(self) noexcept
    cdef int c_current(self) noexcept nogil
    cdef int c_legal_at(self, int i) noexcept nogil
    cdef int c_score(self, int seat) noexcept nogil
    cdef int c_winners_mask(self) noexcept nogil
    cdef void c_copy_into(self, CoreState dst) noexcept
    @cython.locals(i=cython.int)
    cdef void _copy_into(self, AtlanticCore new) noexcept
    @cython.locals(i=cython.int, p=cython.int, s=cython.int)
    cdef void _setup(self, unsigned long long rng_state, int start_player) noexcept nogil
    @cython.locals(i=cython.int, j=cython.int, tmp=cython.int)
    cdef void _shuffle_deck(self) noexcept nogil
    @cython.locals(i=cython.int)
    cdef int _draw(self) noexcept nogil

    @cython.locals(p=cython.int, s=cython.int, k=cython.int, m=cython.int, amt=cython.int,
                   n=cython.int, hn=cython.int, L=cython.int, maxl=cython.int, i=cython.int,
                   c=cython.int, base=cython.int, lo=cython.int, cnt=cython.int,
                   code=cython.int)
    cdef int c_legal(self) noexcept nogil
    @cython.locals(p=cython.int, s=cython.int, k=cython.int, m=cython.int, amt=cython.int,
                   hn=cython.int, L=cython.int, maxl=cython.int, i=cython.int, c=cython.int,
                   r=cython.int, code=cython.int, kk=cython.int)
    cdef int c_check(self, int a) noexcept nogil
    @cython.locals(p=cython.int, s=cython.int, k=cython.int, amt=cython.int, i=cython.int,
                   j=cython.int, c=cython.int, r=cython.int, code=cython.int, pid=cython.int,
                   L=cython.int, value=cython.int, cls=cython.int, m=cython.int)
    cdef void c_do(self, int a) noexcept nogil
    @cython.locals(i=cython.int, j=cython.int, n=cython.int, L=cython.int, ka=cython.int,
                   kb=cython.int)
    cdef int _fill_played(self, int seat, int sea, int code) noexcept nogil
    @cython.locals(m=cython.int, full=cython.int, i=cython.int, l=cython.int, c=cython.int,
                   base=cython.int, su=cython.int, va=cython.int, vb=cython.int, w=cython.int,
                   nm=cython.int, bit=cython.int)
    cdef int _dp(self, int sea, int L, int t) noexcept nogil
    @cython.locals(m=cython.int, full=cython.int, i=cython.int, l=cython.int, c=cython.int,
                   base=cython.int, su=cython.int, w=cython.int, bit=cython.int,
                   bonus=cython.bint, value=cython.int)
    cdef int _value(self, int sea, int L, bint assign) noexcept nogil
    @cython.locals(i=cython.int, j=cython.int, v=cython.int, n=cython.int)
    cdef void _insert(self, int sea, int pid) noexcept nogil
    @cython.locals(i=cython.int, j=cython.int, n=cython.int)
    cdef void _remove(self, int sea, int pid) noexcept nogil
    @cython.locals(i=cython.int, p=cython.int, total=cython.int)
    cdef void _end_turn(self) noexcept nogil
    @cython.locals(s=cython.int, i=cython.int, pid=cython.int, c=cython.int, total=cython.int)
    cdef int _points(self, int seat) noexcept nogil
    @cython.locals(s=cython.int, m=cython.int)
    cdef int _max_legs(self, int seat) noexcept nogil
    @cython.locals(i=cython.int, n=cython.int, t=cython.int, c=cython.int, v=cython.int,
                   L=cython.int)
    cdef void _bv_try(self, int seat, int sea, int code) noexcept nogil
    @cython.locals(n=cython.int)
    cdef int c_random_action(self, unsigned long long r) noexcept nogil
    @cython.locals(i=cython.int, p=cython.int, best=cython.int, nb=cython.int, v=cython.int)
    cdef int _winners_mask(self) noexcept nogil

    @cython.locals(R=AtlanticRules, N=cython.int, s=cython.int, i=cython.int, j=cython.int,
                   c=cython.int, p=cython.int, L=cython.int, pid=cython.int, seas=list,
                   plaques=list)
    cpdef object _export(self)
    cpdef dict _get_raw(self)  # its setter: atlantic_star_snapshot.set_raw
    # checked and loaded by atlantic_star_snapshot.load_checked
    cdef _load_checked(self, object d, bint history)
    @cython.locals(best=cython.int)
    cpdef tuple best_voyage_code(self, int seat, int sea)
    @cython.locals(hn=cython.int, L=cython.int, kk=cython.int, i=cython.int, j=cython.int)
    cdef int _voyage_value(self, int seat, int sea) noexcept nogil
    @cython.locals(n=cython.int, p=cython.int, can_charter=cython.bint, i=cython.int, a=cython.int)
    cdef int c_prior_action(self, unsigned long long r) noexcept nogil
    @cython.locals(hn=cython.int, s=cython.int, L=cython.int, v=cython.int, best_s=cython.int,
                   best_code=cython.int, best_v=cython.int, best_surplus=cython.int,
                   surplus=cython.int, par=cython.int, cls=cython.int, f=cython.int,
                   best_pay=cython.int, c=cython.int)
    cdef int _policy_voyage(self, int p, bint can_charter) noexcept nogil
    @cython.locals(hn=cython.int, i=cython.int, s=cython.int, f=cython.int, c=cython.int,
                   best_a=cython.int, best_gain=cython.int, dear=cython.int, price=cython.int,
                   gain=cython.int, su=cython.int, l=cython.int, g=cython.int, best=cython.int,
                   target=cython.int, best_focus=cython.int)
    cdef int _policy_charter(self, int p, int n) noexcept nogil
    @cython.locals(best_a=cython.int, best_amt=cython.int, i=cython.int, a=cython.int,
                   k=cython.int, amt=cython.int, sea=cython.int, pid=cython.int, below=cython.int,
                   j=cython.int)
    cdef int _policy_loan(self, int p, int n) noexcept nogil
    @cython.locals(a=cython.int, n=cython.int)
    cdef int c_rollout_action(self, unsigned long long r) noexcept nogil
    @cython.locals(L=cython.int, k=cython.int, i=cython.int, v=cython.int, total=cython.int,
                   by_leg=cython.int, l=cython.int, best=cython.int, suits=cython.int)
    cdef int _voyage_bound(self, int seat, int sea) noexcept nogil

    # what a seat sees (A13, A14)
    @cython.locals(R=AtlanticRules, N=cython.int, M=cython.int, i=cython.int, s=cython.int,
                   c=cython.int, p=cython.int, k=cython.int, amount=cython.int, n=cython.int,
                   cur=cython.int, infos=tuple, hand=list, agency=list, discard=list, seas=list,
                   free=list, money=list, sizes=list, left=list, loans=list, row=list,
                   scores=list, legal=list, ints=tuple)
    cpdef object _view(self, int seat, bint recall)
    @cython.locals(R=AtlanticRules, i=cython.int, j=cython.int, s=cython.int, cls=cython.int,
                   L=cython.int, pid=cython.int, base=cython.int, value=cython.int, full=cython.bint,
                   names=tuple, old=tuple, seas=list, plaques=list, ships=list)
    cdef list _current_seas(self)
    @cython.locals(N=cython.int, M=cython.int, i=cython.int, j=cython.int,
                   s=cython.int, c=cython.int, cls=cython.int, L=cython.int, pid=cython.int,
                   at=cython.int, base=cython.int, p=cython.int, k=cython.int, amount=cython.int)
    cdef void c_observe(self, int seat, float[::1] out) noexcept nogil
    @cython.locals(M=cython.int, p=cython.int, i=cython.int)
    cdef void c_info_state(self, int seat, float[::1] out) noexcept nogil
    @cython.locals(N=cython.int, M=cython.int, n=cython.int, p=cython.int, k=cython.int,
                   i=cython.int, c=cython.int, j=cython.int, at=cython.int, u=cython.int,
                   a=cython.int, b=cython.int, m=cython.int, keep=cython.int)
    cdef void c_resample(self, int seat, bint recall) noexcept nogil

