# Types for batch.py (Cython pure-Python mode): many games stepped together, for the
# environments of cruiselib.envs. Keep in step with batch.py and batch.pyi.
cimport cython
from libc.math cimport exp, INFINITY
from libc.string cimport memset
from .engine cimport CoreState
from .rng cimport mix64

cdef unsigned long long GOLDEN
cdef unsigned long long MASK64
cdef unsigned long long CHOICE_SALT
cdef unsigned long long NEXT_DEAL_SALT
cdef int NEXT_STEP, SAME_STEP, DISABLED
cdef int NO_OPPONENTS, RANDOM_OPPONENTS, ROLLOUT_OPPONENTS
cdef int BAD_RANGE, BAD_ENDED, SKIP_LIMIT, LEGAL_CACHE
cdef int ILLEGAL_RAISE, ILLEGAL_LOSE, ILLEGAL_RANDOM
cdef double UNIT53


@cython.final  # no subclass: the loops call the cdef methods directly, not through a table
cdef class Batch:
    cdef list states
    cdef Py_ssize_t[::1] addresses
    cdef readonly int num_envs
    cdef readonly int num_players
    cdef readonly int num_actions
    cdef readonly int observation_size
    cdef readonly bint information_state
    cdef readonly int learner
    cdef readonly int opponents
    cdef readonly int autoreset
    cdef readonly int max_steps
    cdef readonly int illegal_action
    cdef readonly long long moves
    cdef readonly long long error_env
    cdef readonly int error_code
    cdef bint bound
    cdef unsigned long long[::1] deal_states
    cdef unsigned long long[::1] choices
    cdef int[::1] steps
    cdef signed char[::1] pending
    cdef signed char[::1] ended
    cdef float[:, ::1] observations
    cdef float[:, ::1] final_observations
    cdef signed char[:, ::1] masks
    cdef int[::1] seats
    cdef float[:, ::1] rewards
    cdef signed char[::1] terminated
    cdef signed char[::1] truncated
    cdef int[::1] legal_counts
    cdef int[:, ::1] legal_ids
    cdef int[::1] legal_n
    cdef signed char[::1] illegal

    @cython.locals(n=Py_ssize_t, rows=dict, finals=Py_ssize_t)
    cpdef bind(self, object observations, object final_observations, object masks, object seats,
               object rewards, object terminated, object truncated, object legal_counts,
               object deal_states, object choices, object steps, object pending, object ended,
               object legal_ids, object legal_n, object illegal=*)
    @cython.locals(i=Py_ssize_t, a=cython.longlong, code=cython.int)
    cpdef long long check(self, long long[::1] actions)
    @cython.locals(i=Py_ssize_t)
    cpdef step(self, long long[::1] actions, Py_ssize_t lo, Py_ssize_t hi)
    @cython.locals(i=Py_ssize_t)
    cpdef reset(self, unsigned long long[::1] deal_states, signed char[::1] which, bint every,
                Py_ssize_t lo, Py_ssize_t hi)
    @cython.locals(i=Py_ssize_t, n=cython.int, k=cython.int)
    cpdef sample(self, long long[::1] out, Py_ssize_t lo, Py_ssize_t hi)
    @cython.locals(i=Py_ssize_t, width=Py_ssize_t)
    cpdef legal(self, int[:, ::1] ids, int[::1] counts, int pad, Py_ssize_t lo, Py_ssize_t hi)
    @cython.locals(i=Py_ssize_t, width=Py_ssize_t)
    cpdef flat_legal(self, long long[:, ::1] index, long long stride, Py_ssize_t lo, Py_ssize_t hi)
    @cython.locals(i=Py_ssize_t, width=Py_ssize_t)
    cpdef choose(self, float[:, ::1] scores, double temperature, bint greedy, long long[::1] out,
                 Py_ssize_t lo, Py_ssize_t hi)
    cpdef CoreState state_at(self, Py_ssize_t i)

    @cython.locals(n=cython.int, lo=cython.int, hi=cython.int, mid=cython.int)
    cdef bint c_remembered(self, Py_ssize_t i, long long a) noexcept nogil
    cdef int c_legal_id(self, CoreState st, Py_ssize_t i, int k) noexcept nogil
    @cython.locals(n=cython.longlong, k=cython.longlong)
    cdef int c_pick(self, CoreState st, Py_ssize_t i) noexcept nogil
    @cython.locals(n=cython.longlong, m=cython.longlong, k=cython.longlong)
    cdef int c_list(self, CoreState st, Py_ssize_t i, int* row, Py_ssize_t width, int pad) noexcept nogil
    @cython.locals(n=cython.longlong, m=cython.longlong, k=cython.longlong)
    cdef void c_list_flat(self, CoreState st, Py_ssize_t i, long long* row, Py_ssize_t width,
                          long long base) noexcept nogil
    @cython.locals(n=cython.longlong, k=cython.int)
    cdef int c_choose_one(self, CoreState st, Py_ssize_t i, float* row, Py_ssize_t width,
                          double temperature, bint greedy) noexcept nogil
    @cython.locals(k=cython.int, best=cython.int, last=cython.int, top=cython.double, s=cython.double,
                   w=cython.double, total=cython.double, target=cython.double, acc=cython.double)
    cdef int c_weighted(self, Py_ssize_t i, float* row, int n, double temperature, bint greedy) noexcept nogil
    @cython.locals(n=cython.longlong)
    cdef bint c_allowed(self, CoreState st, Py_ssize_t i, long long a) noexcept nogil
    @cython.locals(actor=cython.int, n=cython.int, k=cython.int, row=cython.p_schar, ids=cython.p_int,
                   forfeit=cython.bint, checking=cython.bint)
    cdef void c_step_one(self, CoreState st, Py_ssize_t i, long long action) noexcept nogil
    cdef void c_forfeit(self, CoreState st, Py_ssize_t i, int actor) noexcept nogil
    @cython.locals(tries=cython.int)
    cdef void c_new_game(self, CoreState st, Py_ssize_t i, unsigned long long deal) noexcept nogil
    @cython.locals(c=cython.int, r=cython.ulonglong, a=cython.int)
    cdef void c_opponents(self, CoreState st, Py_ssize_t i) noexcept nogil
    @cython.locals(current=cython.int, over=cython.bint, done=cython.bint, observer=cython.int,
                   m=cython.int, p=cython.int)
    cdef void c_settle(self, CoreState st, Py_ssize_t i, int actor) noexcept nogil
    cdef void c_finish(self, CoreState st, Py_ssize_t i, int observer) noexcept nogil
    @cython.locals(n=cython.int, k=cython.int, a=cython.int, current=cython.int, row=cython.p_schar,
                   ids=cython.p_int)
    cdef void c_write(self, CoreState st, Py_ssize_t i, int observer, bint done) noexcept nogil
    @cython.locals(j=Py_ssize_t)
    cdef void c_observe_into(self, CoreState st, float[::1] out, int seat) noexcept nogil
    @cython.locals(p=cython.int)
    cdef void c_clear_rewards(self, Py_ssize_t i) noexcept nogil


cdef int _legal_at(CoreState st, int k) noexcept nogil
cdef inline unsigned long long _u64(unsigned long long x) noexcept nogil
cdef inline long long _i64(long long x) noexcept nogil
cdef inline double _f64(double x) noexcept nogil
cdef _check_range(bint bound, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t n, Py_ssize_t length)
