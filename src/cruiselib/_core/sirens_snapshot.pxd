# Types for sirens_snapshot.py (Cython pure-Python mode). Keep in step with
# sirens_snapshot.py and sirens_snapshot.pyi. The core's classes are cimported, so the checks
# read and write their C fields directly.
cimport cython
from .sirens cimport (
    MAXC, NSHIP, NSLOT, SIDE_MAX, HAND, PH_PICK, PH_MAIN, PH_AFTER, PH_CREW, PH_OVER,
    RUM_HELD, RUM_SPENT, OCTO_HELD, SHIP_IN_PLAY, SHIP_REMOVED, CREW_WON, CREW_REMOVED,
    SirensCore, SirensRules, crew_destination,
)


# the raw state: set_raw is these writers in order
cpdef set_raw(SirensCore st, dict raw)
@cython.locals(R=SirensRules, p=cython.int, n=cython.int, i=cython.int, k=cython.int, j=cython.int,
               s=cython.int, c=cython.int, total=cython.int)
cdef _put_cards(SirensCore st, object hands, object piles, object sides, object removed)
@cython.locals(k=cython.int, v=cython.int)
cdef _put_ships(SirensCore st, object ships)
@cython.locals(p=cython.int, r=cython.int, t=cython.int, v=cython.int)
cdef _put_tokens(SirensCore st, object rum, object octopus, object crew)
cdef _put_turn(SirensCore st, int phase, int start, int turn, int cur, int passes)
@cython.locals(p=cython.int)
cdef _put_picks(SirensCore st, object picks, object floors)
@cython.locals(k=cython.int)
cdef _put_pending(SirensCore st, object pending)
cdef _finish(SirensCore st, unsigned long long rng)

# checking a snapshot: load_checked runs these sections in order
@cython.locals(crew_in_play=cython.int, low=cython.int)
cpdef load_checked(SirensCore st, object d, bint history)
cdef str _zone_name(int z)
cdef int _place_checked(SirensCore st, int card, int z) except -1
@cython.locals(R=SirensRules, variant=cython.bint, c=cython.int, placed=cython.int, p=cython.int,
               n=cython.int, i=cython.int, k=cython.int, j=cython.int)
cdef _check_cards(SirensCore st, object d)
@cython.locals(R=SirensRules, variant=cython.bint, k=cython.int, v=cython.int, c=cython.int, z=cython.int,
               p=cython.int, r=cython.int, o=cython.int, t=cython.int, won=cython.int,
               crew_in_play=cython.int, removed_ships=cython.int)
cdef int _load_tokens(SirensCore st, object d) except -1
@cython.locals(R=SirensRules, need=cython.int, k=cython.int, top=cython.int, low=cython.int, i=cython.int,
               v=cython.int)
cdef int _check_removed(SirensCore st) except? -1  # a face value can be -1
@cython.locals(phase=cython.int, turn=cython.int, passes=cython.int, cur=cython.int, by_points=cython.bint,
               finished=cython.bint)
cdef _load_turn(SirensCore st, object d)
@cython.locals(R=SirensRules, p=cython.int, n=cython.int, f=cython.int)
cdef _load_picks(SirensCore st, object d)
@cython.locals(R=SirensRules, cur=cython.int, start=cython.int, s=cython.int, p=cython.int, top=cython.int, i=cython.int,
               c=cython.int, v=cython.int, j=cython.int, o=cython.int, above=cython.int)
cdef _check_pick_phase(SirensCore st)
@cython.locals(R=SirensRules, variant=cython.bint, p=cython.int, top=cython.int, above=cython.int,
               c=cython.int)
cdef _check_picks_done(SirensCore st)
@cython.locals(R=SirensRules, k=cython.int, src=cython.int, s=cython.int, c=cython.int, v=cython.int,
               t=cython.int)
cdef _load_pending(SirensCore st, object pending, int crew_in_play)
@cython.locals(phase=cython.int, p=cython.int, need=cython.int)
cdef _check_hand_sizes(SirensCore st)
@cython.locals(phase=cython.int, by_points=cython.bint, o=cython.int, k=cython.int)
cdef _check_unscored(SirensCore st, int low)
@cython.locals(thr=cython.int, j=cython.int, s=cython.int)
cdef bint _could_lose(SirensCore st, int ship, int v) noexcept nogil
@cython.locals(thr=cython.int)
cdef bint _side_scores(SirensCore st, int ship) noexcept nogil
