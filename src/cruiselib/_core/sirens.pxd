# Types for sirens.py (Cython pure-Python mode). Keep in step with sirens.py and sirens.pyi.
cimport cython
from .engine cimport CoreRules, CoreState

cdef enum:
    MAXC = 64        # cards in a card set
    MAXF = 32        # distinct faces (value, crew icon) in a card set
    NSHIP = 5
    NSLOT = 10       # slot = ship * 2 + side (side = the seat whose side it is)
    SIDE_MAX = 5     # cards per side (rulebook "Card limit")
    HAND = 4
    MAXLEGAL = 512   # bound on legal actions at once: 4*10 plays + 45*9 octopus + 5 rum + 1

    PH_PICK = 0
    PH_MAIN = 1
    PH_AFTER = 2
    PH_CREW = 3
    PH_OVER = 4

    RUM_HELD = -1
    RUM_SPENT = -2
    OCTO_HELD = -1
    SHIP_IN_PLAY = -1
    SHIP_REMOVED = 2
    CREW_WON = 5     # crew[t] == CREW_WON + seat: won by that seat
    CREW_REMOVED = 7

# Why an action is illegal: c_check's result, an index into REASONS (sirens.py).
cdef enum:
    R_LEGAL = 0
    R_GAME_OVER = 1
    R_WRONG_PHASE = 2
    R_FACE_NOT_IN_HAND = 3
    R_SHIP_NOT_IN_PLAY = 4
    R_SIDE_FULL = 5
    R_OCTOPUS_USED = 6
    R_NO_CARD_TO_MOVE = 7
    R_SAME_PLACE = 8
    R_RUM_USED = 9
    R_PASS_NOT_ALLOWED = 10
    R_CREW_CANNOT_MOVE_THERE = 11
    R_CANNOT_PICK = 12
    R_END_TOO_EARLY = 13


cdef unsigned long long MASK64
cdef unsigned long long GOLDEN, MIX1, MIX2
cdef unsigned long long BIT64
cdef unsigned int BIT32
cdef unsigned int MASK32
cdef int DEBRUIJN32[32]
cdef unsigned long long RECIP[11]     # NSLOT + 1
cdef object _snapshot                 # the sirens_snapshot module, imported on the first load


cdef inline int _popcount(unsigned int m) noexcept nogil
cdef inline int _div(unsigned long long k, int n) noexcept nogil
cdef inline int _select4(unsigned int m, int k) noexcept nogil
cdef inline int _select(unsigned int m, int k) noexcept nogil


cdef class SirensRules(CoreRules):
    cdef readonly int num_faces
    cdef readonly int num_cards
    cdef readonly bint variant
    cdef readonly int a_play, a_octo, a_rum, a_end, a_pass, a_crew, a_pick
    cdef readonly str digest
    cdef int face_val[MAXF]
    cdef bint face_crew[MAXF]
    cdef int card_face[MAXC]
    cdef int card_emblem[MAXC]
    cdef int ship_val[NSHIP]
    cdef int min_won[NSHIP]      # fewest cards a won ship card takes out of play
    # offsets of the observation tensor's fields, read from its layout (_observation_layout)
    cdef readonly int o_seat, o_phase, o_decide, o_turn, o_hand, o_pile, o_sides, o_removed, o_octo
    cdef readonly int o_hand_n, o_pile_n, o_side_n, o_totals, o_thr, o_status, o_rum, o_crew
    cdef readonly int o_choice, o_points, o_rum_held, o_octo_held, o_passes, o_picks
    cdef double inv_cards
    # the immutable parts of views, made on first use (_view_tables)
    cdef tuple card_infos        # CardInfo per card * 3 + (0 no octopus, 1 seat 0's, 2 seat 1's)
    cdef tuple crew_infos        # CrewInfo per token * 8 + place (0..4 ship, 5/6 won, 7 removed)
    cdef tuple ship_ints
    cdef object ship_type, view_type

    @cython.locals(c=cython.int, f=cython.int, t=cython.int, v=cython.int)
    cpdef _view_tables(self)


cdef class SirensCore(CoreState):
    cdef readonly SirensRules rules
    # whose move: the phase (PH_*), the seat whose turn it is, the seat to decide now (the
    # turn player, or during a crew choice the owner of the played-on side, S5), the seat
    # that started, consecutive passes (S4)
    cdef int phase, turn, to_decide, start_player, passes
    cdef int ships_in_play                   # ship cards still in play
    # the cards: a slot is ship * 2 + side (the side of that seat); arrays of rows with counts
    cdef int slot_cards[NSLOT * SIDE_MAX]    # each slot's cards in the order played
    cdef int slot_count[NSLOT]
    cdef int slot_sum[NSLOT]                 # the sum of each slot's card values
    cdef int hand[2 * HAND]                  # each seat's hand (in the variant, in pick order)
    cdef int hand_count[2]
    cdef int pile[2 * MAXC]                  # the draw piles, top last (standard: one shared)
    cdef int pile_count[2]
    cdef int removed[MAXC]                   # cards out of play with their ship card (S6)
    cdef int removed_count
    # the tokens
    cdef int ship_status[NSHIP]              # SHIP_IN_PLAY, the seat that won it, SHIP_REMOVED
    cdef int mugs_on[NSHIP]                  # rum mugs on each ship card (+3 each, S6)
    cdef int rum_mug[2]                      # ship each seat's rum mug is on, RUM_HELD, RUM_SPENT
    cdef int crew[2]                         # captain, mate: ship 0..4, CREW_WON + seat, CREW_REMOVED
    cdef int octopus[2]                      # card each seat's octopus sits on, OCTO_HELD
    cdef int points[2]                       # victory points (S8)
    cdef int picks[2]                        # starting cards picked (variant, S9)
    cdef int pick_floor[2]                   # face of the last pick: picks go up (S14)
    # a crew decision waiting in PH_CREW (S5): the ship card played on, its side, the source
    # ship of an octopus move (-1: a card played from the hand), whether a card is drawn
    # after it, the token that moves (0 captain, 1 mate), and its two destinations
    cdef int pending_ship, pending_side, pending_source, pending_draw, pending_token
    cdef int crew_choice[2]
    cdef int legal_buf[MAXLEGAL]             # c_legal's actions
    # bookkeeping kept up to date by the play path (_derive recomputes it from the arrays)
    cdef unsigned int open_mask              # slots in play with room (bit = slot)
    cdef unsigned int slot_face_set[NSLOT]   # faces on each slot (bit = face)
    cdef int slot_face_count[NSLOT]          # how many
    cdef int open_count                      # how many open slots
    cdef int open_at[NSLOT]                  # the open slots in order
    cdef int open_rank[NSLOT]                # an open slot's place among them
    cdef int faces_all, faces_open           # slot_face_count summed over all slots, over open ones
    cdef unsigned int hand_face_set[2]       # faces in each hand
    cdef int hand_face_count[2]              # how many
    cdef int octopus_slot[2]                 # slot of the card each octopus sits on, -1 held
    # scratch of the fast random-action path (_main_count fills it for _main_kth): open
    # slots, plays, octopus moves and rum mug moves counted
    cdef int kth_open, kth_plays, kth_octopus_moves, kth_rum_moves
    cdef int pinned_slot, pinned_face_count  # the slot under the opponent's octopus (S7)
    cdef unsigned int pinned_face_set        # and its movable faces
    cdef int load_zone[MAXC]   # scratch of sirens_snapshot's checks: where each card was seen

    # the contract (engine.pxd)
    cdef void c_init_arrays(self) noexcept
    cdef int c_current(self) noexcept nogil
    cdef int c_legal_at(self, int i) noexcept nogil
    cdef int c_score(self, int seat) noexcept nogil
    cdef int c_winners_mask(self) noexcept nogil
    cdef void c_copy_into(self, CoreState dst) noexcept
    @cython.locals(i=cython.int, p=cython.int)
    cdef void _copy_into(self, SirensCore new) noexcept

    # hidden information: resample, view, observation tensor
    @cython.locals(opp=cython.int)
    cdef void c_resample(self, int seat, bint recall) noexcept nogil
    @cython.locals(F=cython.int, f=cython.int, c=cython.int, above=cython.int, cnt=cython.int[MAXC])
    cdef int _lowest_floor(self, int p) noexcept nogil
    @cython.locals(n=cython.int, i=cython.int, j=cython.int, c=cython.int, k=cython.int, f=cython.int,
                   F=cython.int, picks=cython.int, floor=cython.int, above=cython.int, m=cython.int,
                   have=cython.int, r=cython.int, pool=cython.int[MAXC], cnt=cython.int[MAXC])
    cdef void _repick(self, int opp) noexcept nogil
    @cython.locals(n=cython.int, i=cython.int, j=cython.int, c=cython.int, m=cython.ulonglong,
                   pool=cython.int[MAXC])
    cdef void _redeal(self, int p, int q) noexcept nogil
    @cython.locals(R=SirensRules, infos=tuple, n=cython.int, m=cython.ulonglong,
                   i=cython.int, k=cython.int, o0=cython.int, o1=cython.int, a=cython.int,
                   b=cython.int, cur=cython.int, hand=list, ships=list, removed=list,
                   pile_sizes=list, legal=list)
    cpdef object _view(self, int seat, bint recall)
    @cython.locals(R=SirensRules, n=cython.int, i=cython.int, c=cython.int, st=cython.int,
                   rc=cython.int, s=cython.int, o0=cython.int, o1=cython.int, crew=list,
                   side0=list, side1=list)
    cdef object _view_ship(self, int k, tuple infos)
    @cython.locals(opp=cython.int, nc=cython.int, i=cython.int, s=cython.int, r=cython.int,
                   b=cython.int, k=cython.int, rc=cython.int, st=cython.int, t=cython.int,
                   v=cython.int)
    cdef void c_observe(self, int seat, float[::1] out) noexcept nogil
    @cython.locals(i=cython.int, j=cython.int, c=cython.int, p=cython.int, e=cython.int)
    cdef void _setup(self, unsigned long long rng_state, int start_player) noexcept nogil

    @cython.locals(n=cython.int, i=cython.int, j=cython.int, k=cython.int, f=cython.int,
                   s=cython.int, d=cython.int, nf=cython.int, nopen=cython.int, c=cython.int,
                   base=cython.int, F=cython.int, opp_octo=cython.int,
                   fs=cython.int[SIDE_MAX], opens=cython.int[NSLOT], main=cython.bint)
    cdef int c_legal(self) noexcept nogil
    @cython.locals(s=cython.int, i=cython.int, p=cython.int)
    cdef void _derive(self) noexcept nogil
    @cython.locals(n=cython.int, k=cython.int, s=cython.int)
    cdef int c_random_action(self, unsigned long long r) noexcept nogil
    cdef bint _has_main(self) noexcept nogil
    @cython.locals(i=cython.int, s=cython.int, c=cython.int, d=cython.int, opp_octo=cython.int)
    cdef bint _seat_has_main(self, int p) noexcept nogil
    @cython.locals(f=cython.int, s=cython.int, d=cython.int, r=cython.int, k=cython.int,
                   i=cython.int)
    cdef int c_check(self, int a) noexcept nogil
    @cython.locals(i=cython.int, have=cython.int, above=cython.int, c=cython.int)
    cdef bint _pick_ok(self, int f) noexcept nogil
    @cython.locals(i=cython.int, f=cython.int, s=cython.int, d=cython.int, r=cython.int,
                   k=cython.int, c=cython.int)
    cdef void c_do(self, int a) noexcept nogil

    # a snapshot: written by _export, checked and loaded by sirens_snapshot
    cdef _load_checked(self, object d, bint history)
    @cython.locals(p=cython.int, i=cython.int, j=cython.int, k=cython.int, R=SirensRules)
    cpdef object _export(self)
    cpdef dict _get_raw(self)


# the play path: functions of a state, called directly (sirens.py)
cdef inline int _pile_of(SirensCore self, int seat) noexcept nogil
@cython.locals(i=cython.int, best=cython.int, bi=cython.int, c=cython.int, same=cython.int,
               eq=cython.int, better=cython.int)
cdef inline int _take_from_hand(SirensCore self, int seat, int f) noexcept nogil
@cython.locals(i=cython.int, best=cython.int, bi=cython.int, c=cython.int, n=cython.int,
               opp_octo=cython.int, nf=cython.int)
cdef inline int _take_from_slot(SirensCore self, int s, int f) noexcept nogil
@cython.locals(i=cython.int, best=cython.int, bi=cython.int)
cdef inline int _take_from_pile(SirensCore self, int p, int f) noexcept nogil
@cython.locals(f=cython.int)
cdef inline void _place(SirensCore self, int s, int c) noexcept nogil
@cython.locals(t=cython.int, k0=cython.int, k1=cython.int, in_play=cython.int)
cdef inline void _resolve(SirensCore self, int ship, int side, int card, int src, int draw) noexcept nogil
cdef inline void _finish_placement(SirensCore self, int ship, int src, int draw) noexcept nogil
# for sirens_snapshot, which cimports it (an inline function cannot be)
cdef int crew_destination(SirensCore self, int ship, int direction, int token) noexcept nogil
@cython.locals(k=cython.int)
cdef inline int _crew_dest(SirensCore self, int ship, int direction, int token) noexcept nogil
@cython.locals(k=cython.int)
cdef inline int _next_alive(SirensCore self, int ship, int direction) noexcept nogil
@cython.locals(thr=cython.int, s0=cython.int, s1=cython.int, w=cython.int)
cdef inline bint _check_score(SirensCore self, int ship) noexcept nogil
@cython.locals(i=cython.int, j=cython.int, s=cython.int, c=cython.int, t=cython.int,
               p=cython.int)
cdef inline void _score_ship(SirensCore self, int ship, int winner) noexcept nogil
cdef inline void _end_main(SirensCore self) noexcept nogil
cdef inline void _next_turn(SirensCore self) noexcept nogil
@cython.locals(p=cython.int, c=cython.int, f=cython.int)
cdef inline void _draw(SirensCore self) noexcept nogil
@cython.locals(i=cython.int, m=cython.uint)
cdef inline void _hand_faces(SirensCore self, int p) noexcept nogil
@cython.locals(s=cython.int, n=cython.int)
cdef inline void _open_list(SirensCore self) noexcept nogil
@cython.locals(i=cython.int, m=cython.uint)
cdef inline void _slot_faces(SirensCore self, int s) noexcept nogil
@cython.locals(n=cython.int, i=cython.int, s=cython.int, c=cython.int, o=cython.int,
               f=cython.int, nopen=cython.int, faces=cython.int, held=cython.int)
cdef inline int _main_count(SirensCore self) noexcept nogil
@cython.locals(s=cython.int, i=cython.int, nf=cython.int, m=cython.uint, nopen=cython.int,
               dests=cython.int)
cdef inline int _main_kth(SirensCore self, int k) noexcept nogil
@cython.locals(z=cython.ulonglong)
cdef inline int _below(SirensCore self, int n) noexcept nogil
@cython.locals(F=cython.int, f=cython.int, p=cython.int, i=cython.int, need=cython.int,
               above=cython.int, m=cython.uint, n=cython.int, cnt=cython.int[MAXF])
cdef inline int _pick_kth(SirensCore self, unsigned long long r) noexcept nogil
@cython.locals(out=list, c=cython.int, i=cython.int)
cdef list _infos_in_id_order(tuple infos, unsigned long long m, int n)
@cython.locals(i=cython.int, j=cython.int, c=cython.int)
cdef inline void _sort_hand(SirensCore self, int p) noexcept nogil
@cython.locals(i=cython.int, c=cython.int, m=cython.ulonglong)
cdef inline void _sort_pile(SirensCore self, int p) noexcept nogil
@cython.locals(i=cython.int, j=cython.int, tmp=cython.int)
cdef inline void _shuffle(SirensCore self, int p) noexcept nogil
