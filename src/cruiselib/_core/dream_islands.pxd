# Types for dream_islands.py (Cython pure-Python mode). Keep in step with dream_islands.py
# and dream_islands.pyi.
cimport cython
from .engine cimport CoreRules, CoreState
from .rng cimport mix64

cdef enum:
    MAXP = 4          # seats
    NLOC = 9          # places a movable piece can stand: 0 airplane, 1..8 ring islands
    NEDGE = 10        # unit steps: 0 airplane->1, i i->i+1 (1..7), 8 8->1, 9 8->middle
    MID = 9           # the middle, as a destination
    PIECES = 6
    HAND = 3
    NMIS = 16         # mission cards per seat
    MAXN = 5          # highest number on a player board
    NFLOW = 2992      # flows of 2..5 unit steps over the 10 edges: C(11,2)+C(12,3)+C(13,4)+C(14,5)
    NCOVER = 2996     # NFLOW + one "cover without moving" action per number
    MAXLEGAL = 3016
    MAX_SCORE = 45    # I7: 2 x 16 missions + 3 for all 16 + middle points 3+2+2+1+1+1 (I1)

    PH_MOVE = 0
    PH_EXCHANGE = 1
    PH_OVER = 2
# Why an action is illegal: c_check's result, an index into REASONS (dream_islands.py).
cdef enum:
    R_LEGAL = 0
    R_GAME_OVER = 1
    R_WRONG_PHASE = 2
    R_NUMBER_COVERED = 3
    R_MUST_MOVE_ALL = 4
    R_TOO_FEW_PIECES = 5
    R_MISSION_NOT_IN_HAND = 6



cdef unsigned long long GOLDEN
cdef unsigned long long MASK64
cdef unsigned long long PK_HIGH
cdef int RANDOM_TRIES
cdef int ROUND_CAP


cdef class DreamIslandsRules(CoreRules):
    cdef readonly int max_rounds
    cdef readonly int round_limit    # max_rounds, or ROUND_CAP without a limit (I9, I15)
    cdef readonly int a_put, a_done
    cdef int a_cover[4]        # per number 2..5: the id of "cover it without moving"
    cdef int compositions[(NEDGE + 1) * (MAXN + 1)]  # [k * 6 + r]: compositions of r into k parts
    # Per action id (a cover): the pieces it moves per place (0 airplane .. 8, 9 middle),
    # its flow over the 10 edges, its number 2..5, and the per-place counts it takes away
    # and adds, packed 4 bits a place like DreamIslandsCore.packed_pieces.
    cdef signed char action_deltas[NCOVER * NEDGE]
    cdef signed char action_flows[NCOVER * NEDGE]
    cdef int action_numbers[NCOVER]
    cdef unsigned long long action_needs[NCOVER]
    cdef unsigned long long action_adds[NCOVER]
    cdef int run_table[256]    # [occupied islands]: bit k - 2 when a maximal run of k (2..5) exists
    cdef int flow_counts[4]    # per number 2..5: how many flows (moves that move pieces) it has
    # Where each field of the observation / information-state tensor starts (read from the
    # layouts by _read_offsets; the writers c_observe and c_info_state use them).
    cdef int o_pieces, o_middle, o_small_islands, o_covered, o_completed, o_hand_size
    cdef int o_pile_size, o_under, o_score, o_hand, o_under_pile, o_pile_unseen, o_phase
    cdef int o_current_player, o_end_triggered, o_last_round, o_rounds, o_hand_avoids
    cdef tuple view_types    # (SeatInfo, HandMemory, DreamIslandsView), on the first view
    cdef _read_offsets(self, object obs, object info)


cdef class DreamIslandsCore(CoreState):
    cdef readonly DreamIslandsRules rules
    cdef int players                 # seats in this game (rules.num_players)
    cdef int phase                   # PH_MOVE, PH_EXCHANGE or PH_OVER (PHASES)
    cdef int current_seat            # the seat whose turn it is (the last seat once over)
    cdef int rounds                  # complete rounds played
    cdef bint end_signalled          # I7: the current round is the last (end_triggered)
    cdef int pieces[MAXP * NLOC]     # [seat * NLOC + place]: its pieces on the airplane, islands 1..8
    cdef int place_total[NLOC]       # every seat's pieces per place
    cdef int movable_pieces[MAXP]    # per seat, its pieces not in the middle
    cdef unsigned long long packed_pieces[MAXP]  # pieces per place, 4 bits a place (SWAR legality test)
    cdef int small_islands[3]        # the seat on the small island worth 3, 2, 2 (-1: free)
    cdef int main_island[MAXP]       # per seat, its pieces on the main island
    cdef int middle_points[MAXP]     # per seat, its points from the middle (I1)
    cdef int middle_count            # pieces in the middle, every seat's (small and main islands)
    cdef int covered[MAXP]           # per seat, bit n - 2 when number n is under a shell (I2)
    cdef int hand[MAXP * HAND]       # [seat * HAND + i]: the mission ids in its hand, in hand order
    cdef int hand_size[MAXP]
    cdef int pile[MAXP * NMIS]       # [seat * NMIS + i]: its draw pile, bottom first (top drawn next)
    cdef int pile_size[MAXP]
    cdef int under_count[MAXP]       # per seat, the bottom cards of its pile it put under (I6)
    cdef int completed[MAXP]         # per seat, bit m when mission m is completed
    cdef int completed_count[MAXP]
    cdef int legal_ids[MAXLEGAL]     # c_legal's result
    # Scratch of the legal-move generation (_gen, _dfs): the flow so far, per edge the most
    # units the edges from it on can carry, the first id of the number, and the units edge 8
    # must at least carry to feed island 1.
    cdef int gen_flow[NEDGE]
    cdef int gen_capacity[NEDGE]
    cdef int gen_base, gen_feed1
    cdef int hand_memory[MAXP * HAND]  # I16: per seat, level k: missions at least k hand cards are none of
    cdef int levels[HAND]            # scratch: the levels of one seat (resample, views, tensors)
    cdef int deal_pool[NMIS]         # scratch of _deal_seat: a seat's cards by id, then sorted by class
    cdef int deal_class_size[HAND + 1]
    cdef int deal_class_at[HAND + 1]

    # the contract (engine.pxd)
    cdef void c_init_arrays(self) noexcept
    cdef int c_current(self) noexcept nogil
    cdef int c_legal_at(self, int i) noexcept nogil
    cdef void c_copy_into(self, CoreState dst) noexcept
    cdef int c_score(self, int p) noexcept nogil
    @cython.locals(p=cython.int, best=cython.int, key=cython.int, mask=cython.int)
    cdef int c_winners_mask(self) noexcept nogil

    cdef void _copy_into(self, DreamIslandsCore new) noexcept
    @cython.locals(i=cython.int, p=cython.int)
    cdef void _setup(self, unsigned long long rng_state, int start_player) noexcept nogil
    @cython.locals(i=cython.int, j=cython.int, tmp=cython.int, o=cython.int)
    cdef void _shuffle_pile(self, int p, int lo) noexcept nogil

    @cython.locals(o=cython.int, i=cython.int, c=cython.int, others=cython.int,
                   mask=cython.int, occ=cython.int)
    cdef int _mission_mask(self, int p) noexcept nogil
    @cython.locals(n=cython.int, number=cython.int, i=cython.int, j=cython.int, x=cython.int,
                   a=cython.int, b=cython.int, c=cython.int, o=cython.int)
    cdef int c_legal(self) noexcept nogil
    @cython.locals(o=cython.int, i=cython.int)
    cdef int _gen(self, int number, int n) noexcept nogil
    @cython.locals(u=cython.int, d=cython.int, hi=cython.int, lo=cython.int, k=cython.int)
    cdef int _dfs(self, int i, int rem, int rank, int n, int o) noexcept nogil
    @cython.locals(n=cython.int, total=cython.int, number=cython.int, t=cython.int, a=cython.int,
                   x=cython.ulonglong, z=cython.ulonglong, pk=cython.ulonglong)
    cdef int c_random_action(self, unsigned long long r) noexcept nogil
    @cython.locals(number=cython.int, v=cython.int, o=cython.int, i=cython.int, x=cython.int)
    cdef int c_check(self, int a) noexcept nogil
    @cython.locals(number=cython.int, v=cython.int, o=cython.int, d=cython.int, k=cython.int,
                   base=cython.int, h=cython.int, dn=cython.int, holds=cython.int)
    cdef void c_do(self, int a) noexcept nogil
    @cython.locals(mask=cython.int, i=cython.int, x=cython.int, p=cython.int)
    cdef int _complete_missions(self) noexcept nogil
    @cython.locals(i=cython.int, o=cython.int, p=cython.int)
    cdef void _put_under(self, int x) noexcept nogil

    # hand memory (I16), resampling, tensors, views
    @cython.locals(o=cython.int, h=cython.int, l1=cython.int, l2=cython.int, l3=cython.int, n1=cython.int,
                   n2=cython.int, n3=cython.int, g=cython.int, x=cython.int, k1=cython.int, k2=cython.int,
                   nd=cython.int)
    cdef void _remember(self, int p, int gone, int holds, int h_old) noexcept nogil
    @cython.locals(holds=cython.int, o=cython.int, k=cython.int, v=cython.int)
    cdef void _levels(self, int q, bint recall) noexcept nogil
    cdef int _hand_ways(self, int h, int x0, int x1, int x2) noexcept nogil
    @cython.locals(h=cython.int, oh=cython.int, op=cython.int, n=cython.int, t=cython.int, i=cython.int,
                   j=cython.int, c=cython.int, total=cython.int, r=cython.int, w=cython.int, x0=cython.int,
                   x1=cython.int, y0=cython.int, y1=cython.int, k=cython.int, m=cython.int, x=cython.int,
                   s=cython.int, free=cython.int)
    cdef void _deal_seat(self, int q) noexcept nogil
    @cython.locals(m=cython.int, o=cython.int, i=cython.int, k=cython.int, c=cython.int)
    cdef void _own_unseen(self, int p) noexcept nogil
    @cython.locals(o=cython.int, i=cython.int, j=cython.int, x=cython.int)
    cdef void _sort_hand(self, int p) noexcept nogil
    @cython.locals(q=cython.int, k=cython.int)
    cdef void c_resample(self, int seat, bint recall) noexcept nogil
    @cython.locals(n=cython.int, o=cython.int, r=cython.int, p=cython.int,
                   i=cython.int, c=cython.int, k=cython.int)
    cdef void c_observe(self, int seat, float[::1] out) noexcept nogil
    @cython.locals(n=cython.int, o=cython.int, r=cython.int, p=cython.int, k=cython.int, i=cython.int)
    cdef void c_info_state(self, int seat, float[::1] out) noexcept nogil
    @cython.locals(n=cython.int, p=cython.int, o=cython.int, c=cython.int, i=cython.int, h=cython.int,
                   a=cython.int, b=cython.int, k=cython.int, m=cython.int, cur=cython.int, seats=list,
                   hand=list, T=tuple, R=DreamIslandsRules)
    cpdef object _view(self, int seat, bint recall)
    @cython.locals(p=cython.int, last=cython.int)
    cdef void _finish_turn(self) noexcept nogil
    @cython.locals(p=cython.int)
    cdef void _draw(self) noexcept nogil

    cpdef int mission_mask(self, int seat)
    @cython.locals(n=cython.int)
    cpdef int count_moves(self, int number)

    @cython.locals(n=cython.int)
    cpdef object _export(self)
    cpdef dict _get_raw(self)
    cdef _load_checked(self, object d, bint history)   # dream_islands_snapshot.load_checked


cdef int _choose(int n, int k) noexcept nogil
@cython.locals(out=list, x=cython.int)
cdef list _bit_list(int mask)
@cython.locals(out=list, x=cython.int)
cdef list _covered_list(int mask)
