# Types for atlantic_star_snapshot.py (Cython pure-Python mode). Keep in step with
# atlantic_star_snapshot.py and atlantic_star_snapshot.pyi. The core's classes are cimported,
# so the checks read and write their C fields and call its helpers (_value, _max_legs) directly.
cimport cython
from .atlantic_star cimport (
    MAXS, NSEA, MAXLEG, NCLASS, NFIELD, MAXP, HMAX, NPL, NPP, NAMT, AGENCY,
    PH_LOAN, PH_AGENCY, PH_OVER, Z_HAND, Z_AGENCY, Z_DECK, Z_DISC, Z_PLAQUE,
    AtlanticCore, AtlanticRules,
)


# the raw state: set_raw is these writers in order
cpdef set_raw(AtlanticCore st, dict raw)
@cython.locals(N=cython.int, p=cython.int, n=cython.int, i=cython.int, c=cython.int)
cdef _put_hands(AtlanticCore st, object hands, object known)
@cython.locals(n=cython.int, i=cython.int)
cdef _put_piles(AtlanticCore st, object agency, object deck, object discard)
@cython.locals(R=AtlanticRules, N=cython.int, p=cython.int, s=cython.int, c=cython.int,
               cls=cython.int, i=cython.int, j=cython.int, n=cython.int, pid=cython.int,
               value=cython.int, loan=cython.int, row=list)
cdef _put_seas(AtlanticCore st, list classes, list plaques)
@cython.locals(N=cython.int, p=cython.int)
cdef _put_money(AtlanticCore st, object money)
cdef _put_turn(AtlanticCore st, int phase, int start, int cur)
cdef _finish(AtlanticCore st, object rng)

# checking a snapshot: load_checked runs these sections in order
@cython.locals(placed=cython.int, total_left=cython.int)
cpdef load_checked(AtlanticCore st, object d, bint history)
@cython.locals(s=cython.int, pid=cython.int)
cdef str _zone_name(int z)
cdef int _place(AtlanticCore st, int card, int z) except -1
@cython.locals(R=AtlanticRules, N=cython.int, c=cython.int, i=cython.int, start=cython.int,
               board=list, col=list, hands=list, money=list)
cdef _check_configuration(AtlanticCore st, object d)
@cython.locals(R=AtlanticRules, N=cython.int, c=cython.int, p=cython.int, placed=cython.int)
cdef int _load_ship_zones(AtlanticCore st, object d) except -1
@cython.locals(N=cython.int, p=cython.int, n=cython.int, i=cython.int, c=cython.int,
               prev=cython.int, placed=cython.int, cards=list)
cdef int _check_hands(AtlanticCore st, list hands) except -1
@cython.locals(N=cython.int, p=cython.int, n=cython.int, hn=cython.int, i=cython.int,
               j=cython.int, c=cython.int, prev=cython.int, cards=list, hand=list)
cdef _check_known(AtlanticCore st, list hands, object known)
@cython.locals(i=cython.int, n=cython.int, m=cython.int)
cdef int _check_piles(AtlanticCore st, list agency, list deck, list discard) except -1
@cython.locals(R=AtlanticRules, s=cython.int, i=cython.int, c=cython.int, cls=cython.int,
               taken=cython.int, seas=list, classes=list, rows=list, row=list)
cdef _load_seas(AtlanticCore st, object d, int placed)
@cython.locals(cls=cython.int)
cdef int _check_sea_class(int s, object stars, int n, int taken) except -2
@cython.locals(R=AtlanticRules, N=cython.int, n=cython.int, i=cython.int, p=cython.int,
               pid=cython.int, value=cython.int, loan=cython.int, seen=cython.int,
               n_ops=cython.int, n_free=cython.int, prev=cython.int, prev_seat=cython.bint,
               is_seat=cython.bint, borrowed=cython.int, row=list)
cdef list _check_plaques(AtlanticCore st, int s, list plaques)
@cython.locals(R=AtlanticRules, N=cython.int, j=cython.int, pid=cython.int)
cdef int _check_operator(AtlanticCore st, int s, int i, object pl, int seen) except -1
@cython.locals(R=AtlanticRules, N=cython.int, S=cython.int, p=cython.int, k=cython.int,
               pid=cython.int, L=cython.int, j=cython.int, c=cython.int, staged=cython.int,
               raw=cython.int, full=cython.bint, amount=cython.int, loan=cython.int,
               value=cython.int, ships=list)
cdef int _check_voyage(AtlanticCore st, int s, int i, object pl, int seen) except -1
@cython.locals(R=AtlanticRules, N=cython.int, p=cython.int, amount=cython.int,
               spent=cython.int, total_left=cython.int, limit=cython.int, money=list,
               thousands=list)
cdef int _load_money(AtlanticCore st, object d) except -1
@cython.locals(R=AtlanticRules, N=cython.int, S=cython.int, p=cython.int, s=cython.int,
               loan=cython.int, staged=cython.int)
cdef _check_loans(AtlanticCore st)
@cython.locals(R=AtlanticRules, N=cython.int, S=cython.int, p=cython.int, s=cython.int,
               loan=cython.int, staged=cython.int, phase=cython.int, cur=cython.int,
               start=cython.int, rt=cython.int, pc=cython.int, expect=cython.int,
               any_loan=cython.int)
cdef _load_turn(AtlanticCore st, object d, int total_left)
