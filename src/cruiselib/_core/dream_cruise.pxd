# Types for dream_cruise.py (Cython pure-Python mode). Keep in step with dream_cruise.py
# and dream_cruise.pyi.
cimport cython
from .engine cimport CoreRules, CoreState

cdef enum:
    MAXP = 4          # seats
    NCAB = 3          # cabins (colours) per ship board
    MAXF = 64         # family cards
    MAXL = 64         # location cards
    MAXS = 96         # ship cards
    MAXADD = 4        # addition spaces (C6 option: 1..4)
    NTYPE = 6         # activity types
    NREG = 6          # touristic regions
    MAXSETS = 5       # display sets (C7)
    MAXDRAWN = 6      # drawn cards a seat chooses from (2 per empty cabin, or 3 locations)
    MAXBUF = 128      # listed legal actions (phase 4: placements and plans)
    MAXCAP = 3        # guests an activity takes (one per colour)
    MAXMEMBERS = 6    # members of a family

    PH_BOARDING = 0
    PH_SET_COURSE = 1
    PH_ENTERTAINMENT = 2
    PH_SET_SAIL = 3
    PH_OVER = 4

    # reasons an action is illegal (indexes into REASONS)
    R_OVER = 1
    R_TIME = 2
    R_NOT_DRAWN = 3
    R_TAKEN = 4
    R_START_FACE_DOWN = 5
    R_NO_FIGURE = 6
    R_NO_SPOT = 7
    R_FULL = 8
    R_COLOUR = 9
    R_WANT = 10
    R_NOT_IN_HAND = 11
    R_NOT_ACTIVITY = 12
    R_NO_PLACE = 13
    R_NOT_ADDITION = 14
    R_PAYMENT = 15
    R_FREE_SPACE = 16
    R_NO_FREE = 17
    R_CAPTAIN = 18
    R_NO_LOCATION = 19


cdef unsigned long long MASK64


cdef class DreamCruiseRules(CoreRules):
    cdef readonly int nf, nl, ns, nadd, nspot, nsets, nstart, deck_size, difficulty
    cdef readonly bint sea_draw, solo
    cdef readonly int a_board, a_keep, a_take, a_place, a_plan, a_build, a_captain, a_done
    cdef int f_members[MAXF]
    cdef int f_points[MAXF]
    cdef int f_wants[MAXF]
    cdef int f_start[MAXF]
    cdef int l_sea[MAXL]
    cdef int l_region[MAXL]
    cdef int l_ttype[MAXL]
    cdef int l_tcap[MAXL]
    cdef int l_btype[MAXL]
    cdef int l_bcap[MAXL]
    cdef int s_add[MAXS]
    cdef int s_type[MAXS]
    cdef int s_cap[MAXS]
    cdef int route[6]
    cdef tuple view_types    # (SeatView, CurrentLocation, DisplaySet, JanaView, DreamCruiseView)
    # where each tensor field starts (the layouts of _tensor_layouts, read once)
    cdef int o_cabins, o_additions, o_location, o_routes, o_counts, o_hand, o_drawn_families
    cdef int o_drawn_locations, o_display, o_display_cards, o_family_discard, o_location_discard
    cdef int o_ship_discard, o_decks, o_phase, o_current_player, o_start_player, o_first_player
    cdef int o_round, o_jana, o_known_hands

    @cython.locals(g0=cython.int, g1=cython.int, g2=cython.int, g3=cython.int, g4=cython.int, g5=cython.int,
                   total=cython.int, best=cython.int, k=cython.int)
    cdef int _routes(self, int r0, int r1, int r2, int r3, int r4, int r5, int seas) noexcept nogil
    cdef int _pts(self, int cards) noexcept nogil
    cdef int _gain(self, int cards) noexcept nogil


cdef class DreamCruiseCore(CoreState):
    cdef readonly DreamCruiseRules rules
    # the position; per-seat arrays are indexed by seat (p), p * NCAB + cabin, p * MAXADD + space ...
    cdef int seats             # number of seats (players)
    cdef int phase_index       # PH_*: the index into PHASES
    cdef int round_number      # 1, 2, ...
    cdef int start_seat        # holds the start-player token (C19, C24); next round's first seat
    cdef int first_seat        # first in this round's turn order
    cdef int turn              # how many seats have had their turn in this phase (0 .. seats)
    cdef int to_act            # the seat to act (-1 once over)
    cdef bint last_round       # this round is the last (C8, C16, C20)
    cdef int cabin_family[MAXP * NCAB]      # the family in each cabin, -1 for empty
    cdef int cabin_figures[MAXP * NCAB]     # that family's figures not yet placed
    cdef int addition_card[MAXP * MAXADD]   # the ship card built on each addition space, -1 for none
    cdef int addition_guests[MAXP * MAXADD] # 3-bit set of the cabin colours with a guest on it
    cdef int location_card[MAXP]            # the current location card, -1 for none
    cdef int activity_card1[MAXP]           # activity card on it: a shore card's only / a sea card's first, or -1
    cdef int activity_card2[MAXP]           # a sea card's second activity card, or -1
    cdef int location_guests[MAXP * 3]      # 3-bit colour sets of the location spots 0..2
    cdef int captain_spot[MAXP]             # the location spot (0..2) the captain stands on, -1 for none
    cdef int played[MAXP * MAXL]            # location cards kept, in order (the last is the current one)
    cdef int played_n[MAXP]
    cdef int region_cards[MAXP * NREG]      # derived: kept shore cards per region
    cdef int sea_cards[MAXP]                # derived: kept sea cards
    cdef int points_pile[MAXP * MAXF]       # satisfied families
    cdef int points_pile_n[MAXP]
    cdef int pile_points[MAXP]              # derived: the points of the points pile
    cdef signed char hand[MAXP * MAXS]      # 1 for each ship card in the hand
    cdef int hand_n[MAXP]
    cdef signed char known[MAXP * MAXS]     # 1 for each hand card taken face up (seen by all, C26)
    cdef int drawn[MAXP * MAXDRAWN]         # drawn families (phase 1) or location cards (phase 2)
    cdef int drawn_n[MAXP]
    cdef int display_cards[MAXSETS * 2]     # the display's sets of two ship cards, set 0 face down (C7)
    cdef int display_n[MAXSETS]
    cdef int display_taken_by[MAXSETS]      # the seat that took each set, -1 for none
    cdef int family_deck[MAXF]              # decks and piles list bottom first: the last is drawn next
    cdef int family_discard[MAXF]
    cdef int family_box[MAXF]               # families out of play (setup 5)
    cdef int jana_pile[MAXF]                # solo: Jana's face-down points pile (C9)
    cdef int family_deck_n, family_discard_n, family_box_n, jana_pile_n
    cdef int location_deck[MAXL]
    cdef int location_discard[MAXL]
    cdef int jana_locations[MAXL]           # solo: the location cards Jana collected (C9)
    cdef int location_deck_n, location_discard_n, jana_locations_n
    cdef int ship_deck[MAXS]
    cdef int ship_discard[MAXS]
    cdef int ship_deck_n, ship_discard_n
    # scratch of c_legal / c_legal_at and resampling (not copied)
    cdef int legal_buf[MAXBUF]              # the listed legal actions (and resampling's per-seat counts)
    cdef int hand_list[MAXS]                # the hand's cards, ascending
    cdef int addition_at[MAXS]              # the positions in hand_list of its addition cards
    cdef int captain_spots[3]               # the location spots the captain may go to
    cdef int leg_n1, leg_nb, leg_nc, leg_done, leg_h, leg_a, leg_t, leg_t0  # listed, builds, captains ...
    cdef int pool[MAXP * MAXS + MAXS]       # resampling: the unseen cards of one kind
    cdef int card_zone[MAXF + MAXL + MAXS]  # loading (dream_cruise_snapshot): the zone of each card

    # the contract (engine.pxd)
    cdef void c_init_arrays(self) noexcept
    cdef int c_current(self) noexcept nogil
    @cython.locals(n=cython.int, p=cython.int, base=cython.int, i=cython.int, k=cython.int, c=cython.int,
                   s=cython.int, h=cython.int, a=cython.int, x=cython.int, plan=cython.bint)
    cdef int c_legal(self) noexcept nogil
    @cython.locals(j=cython.int, block=cython.int, xi=cython.int, r=cython.int, yi=cython.int, t=cython.int,
                   px=cython.int, x=cython.int, y=cython.int, k=cython.int)
    cdef int c_legal_at(self, int i) noexcept nogil
    @cython.locals(n=cython.int, a=cython.int, plans=cython.int)
    cdef int c_rollout_action(self, unsigned long long r) noexcept nogil
    cdef int c_prior_action(self, unsigned long long r) noexcept nogil
    @cython.locals(places=cython.int)
    cdef int _random_placement(self, unsigned long long r) noexcept nogil
    @cython.locals(p=cython.int, x=cython.int, i=cython.int, k=cython.int, b=cython.int, t=cython.int,
                   y=cython.int, s=cython.int)
    cdef int c_check(self, int a) noexcept nogil
    @cython.locals(p=cython.int, c=cython.int, x=cython.int, y=cython.int, i=cython.int, k=cython.int,
                   b=cython.int, s=cython.int, t=cython.int, j=cython.int)
    cdef void c_do(self, int a) noexcept nogil
    cdef void c_copy_into(self, CoreState dst) noexcept
    cdef int c_score(self, int p) noexcept nogil
    @cython.locals(best=cython.int, win=cython.int, t=cython.int, p=cython.int, key=cython.int)
    cdef int c_winners_mask(self) noexcept nogil
    @cython.locals(m=cython.int, p=cython.int, i=cython.int, x=cython.int, face_down=cython.int)
    cdef void c_resample(self, int seat, bint recall) noexcept nogil
    @cython.locals(one=cython.ulonglong, lo=cython.ulonglong, hi=cython.ulonglong, i=cython.int, x=cython.int,
                   k=cython.int)
    cdef int _by_id(self, int m, int size) noexcept nogil
    @cython.locals(o=cython.int, i=cython.int, j=cython.int, x=cython.int)
    cdef void _sort_drawn(self, int p) noexcept nogil
    @cython.locals(i=cython.int)
    cdef int _move(self, int* a, int off, int n, int m, bint back) noexcept nogil
    @cython.locals(m=cython.int, p=cython.int)
    cdef int _family_zones(self, int seat, bint back) noexcept nogil
    @cython.locals(m=cython.int, p=cython.int)
    cdef int _location_zones(self, int seat, bint back) noexcept nogil
    cdef void c_observe(self, int seat, float[::1] out) noexcept nogil
    @cython.locals(n=cython.int, r=cython.int, p=cython.int, c=cython.int, f=cython.int, b=cython.int,
                   t=cython.int, j=cython.int, x=cython.int, s=cython.int, k=cython.int)
    cdef void _observe_boards(self, int seat, float[::1] out) noexcept nogil
    @cython.locals(n=cython.int, r=cython.int, p=cython.int, b=cython.int, k=cython.int, x=cython.int,
                   i=cython.int)
    cdef void _observe_seats(self, int seat, float[::1] out) noexcept nogil
    @cython.locals(n=cython.int, o=cython.int, k=cython.int, i=cython.int, x=cython.int)
    cdef void _observe_table(self, int seat, float[::1] out) noexcept nogil
    @cython.locals(n=cython.int, o=cython.int, r=cython.int, p=cython.int, x=cython.int)
    cdef void c_info_state(self, int seat, float[::1] out) noexcept nogil

    # setup and round flow
    @cython.locals(n=cython.int, i=cython.int, p=cython.int, k=cython.int, f=cython.int, c=cython.int)
    cdef void _setup(self, unsigned long long rng_state, int start) noexcept nogil
    @cython.locals(i=cython.int, j=cython.int, t=cython.int)
    cdef void _shuffle(self, int* a, int n) noexcept nogil
    @cython.locals(i=cython.int)
    cdef int _refill(self, int* deck, int* discard, int n) noexcept nogil
    @cython.locals(i=cython.int)
    cdef int _draw_family(self) noexcept nogil
    @cython.locals(i=cython.int)
    cdef int _draw_location(self) noexcept nogil
    @cython.locals(i=cython.int)
    cdef int _draw_ship(self) noexcept nogil
    cdef int _seat_at(self, int turn) noexcept nogil
    cdef int _turn_of(self, int p) noexcept nogil
    cdef int _empty_cabins(self, int p) noexcept nogil
    @cython.locals(t=cython.int, p=cython.int, k=cython.int, i=cython.int, f=cython.int)
    cdef void _begin_round(self) noexcept nogil
    @cython.locals(p=cython.int)
    cdef void _next_boarding(self, int turn) noexcept nogil
    @cython.locals(i=cython.int)
    cdef void _discard_drawn_families(self, int p) noexcept nogil
    @cython.locals(t=cython.int, p=cython.int, i=cython.int, x=cython.int)
    cdef void _begin_course(self) noexcept nogil
    @cython.locals(p=cython.int)
    cdef void _next_course(self, int turn) noexcept nogil
    @cython.locals(k=cython.int, i=cython.int, x=cython.int)
    cdef void _begin_draft(self) noexcept nogil
    @cython.locals(k=cython.int, i=cython.int)
    cdef void _end_draft(self) noexcept nogil
    @cython.locals(p=cython.int, c=cython.int, f=cython.int, m=cython.int, s=cython.int, j=cython.int)
    cdef void _disembark(self) noexcept nogil

    # phase 4 and scoring
    @cython.locals(n=cython.int, s=cython.int, j=cython.int)
    cdef int _placed(self, int p) noexcept nogil
    @cython.locals(o=cython.int)
    cdef int _route_score(self, int p) noexcept nogil
    cdef int _jana_score(self) noexcept nogil
    @cython.locals(longest=cython.int, seas=cython.int, k=cython.int, c=cython.int, i=cython.int, x=cython.int)
    cdef int _jana_route(self) noexcept nogil
    @cython.locals(pts=cython.int, i=cython.int)
    cdef int _jana_pile_points(self) noexcept nogil
    @cython.locals(x=cython.int, y=cython.int)
    cdef int _spot(self, int p, int s) noexcept nogil
    @cython.locals(f=cython.int, v=cython.int, occ=cython.int)
    cdef int _check_place(self, int p, int c, int s) noexcept nogil
    @cython.locals(l=cython.int)
    cdef int _check_plan(self, int p, int x) noexcept nogil
    @cython.locals(l=cython.int)
    cdef bint _check_plan_place(self, int p) noexcept nogil
    @cython.locals(j=cython.int)
    cdef int _free_space(self, int p) noexcept nogil
    cdef void _take_from_hand(self, int p, int x) noexcept nogil
    cdef void _to_hand(self, int p, int x, bint public) noexcept nogil
    @cython.locals(o=cython.int, i=cython.int)
    cdef void _remove_drawn(self, int p, int x) noexcept nogil

    cdef void _copy_into(self, DreamCruiseCore new) noexcept
    # the wrapper's half of the contract (engine.pxd)
    cpdef object _view(self, int seat, bint recall)
    cpdef object _export(self)
    cpdef dict _get_raw(self)
    cdef _load_checked(self, object d, bint history)


@cython.locals(c=cython.int)
cdef inline void _observe_spot(int v, int b, float[::1] out) noexcept nogil
cdef int _pop3(int m) noexcept nogil
@cython.locals(i=cython.int, j=cython.int, x=cython.int)
cdef void _sort_ints(int* a, int n) noexcept nogil
