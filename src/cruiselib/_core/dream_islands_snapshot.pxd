# Types for dream_islands_snapshot.py (Cython pure-Python mode). Keep in step with
# dream_islands_snapshot.py and dream_islands_snapshot.pyi. The core's classes and enum
# constants are cimported, so the checks and the setter use its arrays at C speed.
cimport cython
from .dream_islands cimport (DreamIslandsCore, DreamIslandsRules, MAXP, NLOC, PIECES, HAND, NMIS, MAXN,
                             PH_MOVE, PH_EXCHANGE, PH_OVER)

cdef unsigned long long MASK64
cdef str _BAD

# the setter of the raw-state pair (the core's _get_raw is the getter)
@cython.locals(n=cython.int, i=cython.int, p=cython.int, ending=cython.bint)
cpdef set_raw(DreamIslandsCore core, dict raw)
@cython.locals(o=cython.int, i=cython.int, c=cython.int, cnt=cython.int, pts=cython.int,
               h=cython.int, k=cython.int, pk=cython.ulonglong, cu=cython.ulonglong)
cdef _set_seat(DreamIslandsCore core, int p, object row, int m, int covered, object hand, object pile, int known,
               int mask, object rows)
@cython.locals(i=cython.int)
cdef void _clear_seat(DreamIslandsCore core, int p) noexcept

# the loader
@cython.locals(R=DreamIslandsRules, n=cython.int, p=cython.int, k=cython.int, phase=cython.int,
               cur=cython.int, ending=cython.bint, masks=list, done=list, raw=dict)
cpdef load_checked(DreamIslandsCore core, object d, bint history)
@cython.locals(i=cython.int, s=cython.int)
cdef _check_small_islands(object small, int n)
@cython.locals(cnt=cython.int, i=cython.int, c=cython.int, m=cython.int)
cdef _check_pieces(int p, object row, object main, object small)
@cython.locals(mask=cython.int, b=cython.int, x=cython.int)
cdef int _covered_mask(int p, object numbers) except -1
@cython.locals(seen=cython.int, dup=cython.int, done=cython.int, kind=cython.int, k=cython.int,
               i=cython.int, x=cython.int, b=cython.int)
cdef int _check_missions(int p, object hand, object pile, object completed) except -1
@cython.locals(mid_n=cython.int, p=cython.int, i=cython.int)
cdef int _middle_count(object main, object small, int n) except -1
cdef int _phase(object name) except -1
cdef int _check_turn(int phase, long long rounds, int cur, int limit, int n, bint ending) except -2
cdef _check_hands(int phase, int cur, object hands, object piles, list covered, int n)
@cython.locals(mask=cython.int, i=cython.int, x=cython.int)
cdef _check_mover_hand(DreamIslandsCore core, int cur)
@cython.locals(h=cython.int, wider=cython.int, k=cython.int, mask=cython.longlong, free=cython.int,
               i=cython.int, x=cython.int)
cdef _memory_error(int p, object rows, object hand, int done)

# what the turns played allow
@cython.locals(p=cython.int, c=cython.int, have=cython.int, mask=cython.int, mid=cython.int,
               moved=cython.bint, t=cython.longlong, low=cython.longlong)
cdef _check_history(DreamIslandsCore core, int phase, int cur, long long rounds, bint ending)
@cython.locals(under=cython.longlong)
cdef _check_under(DreamIslandsCore core, int p, long long t, bint exchanging)
@cython.locals(o=cython.int, i=cython.int, mid=cython.int, mask=cython.int, far=cython.bint,
               dist=cython.longlong, need=cython.longlong, cycles=cython.longlong, steps=cython.longlong)
cdef int _check_steps(DreamIslandsCore core, int p, long long t, int c) except -1
