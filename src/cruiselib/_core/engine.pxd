# Types for engine.py (Cython pure-Python mode): the compiled game contract (docs/contract.md).
# Keep in step with engine.py and engine.pyi.
cimport cython
from .common cimport action_id, check_signals, illegal_message, query_id
from .rng cimport mix64

cdef unsigned long long GOLDEN
cdef unsigned long long MASK64
cdef unsigned long long CHOICE_SALT
cdef int SIGNAL_EVERY
cdef int MAX_HISTORY
cdef long long SMALL_BATCH
cdef signed char[::1] _NO_STOP
cdef object _INT16, _INT32, _INT8


cdef class CoreRules:
    cdef readonly int num_players
    cdef readonly int num_actions
    cdef readonly tuple action_ints
    cdef readonly tuple reasons
    cdef readonly int observation_size
    cdef readonly int info_state_size
    cdef readonly object observation_layout   # its TensorLayout (tensor_layout.py), or None
    cdef readonly object info_state_layout
    cdef readonly bint distinct_info_state
    cdef readonly object schema       # the game's Struct classes (_set_schema)
    cdef readonly str game_name       # the game's registered name (_set_schema)
    cpdef _set_schema(self, object schema, str game_name)


cdef class CoreState:
    cdef readonly CoreRules core_rules
    cdef public object game
    cdef unsigned long long rng
    cdef object origin
    cdef tuple history_root
    cdef object history_tail
    cdef int history_count

    # --- the contract: every game core overrides these --------------------------------
    cdef int c_current(self) noexcept nogil
    cdef int c_legal(self) noexcept nogil
    cdef int c_legal_at(self, int i) noexcept nogil
    cdef int c_check(self, int action) noexcept nogil
    cdef void c_do(self, int action) noexcept nogil
    cdef void c_copy_into(self, CoreState dst) noexcept
    cdef void c_deal(self, unsigned long long seed) noexcept nogil
    cdef int c_score(self, int seat) noexcept nogil
    cdef int c_winners_mask(self) noexcept nogil
    @cython.locals(n=cython.int)
    cdef int c_random_action(self, unsigned long long r) noexcept nogil
    cdef int c_rollout_action(self, unsigned long long r) noexcept nogil
    cdef int c_prior_action(self, unsigned long long r) noexcept nogil
    cdef void c_init_arrays(self) noexcept
    cdef void c_resample(self, int seat, bint recall) noexcept nogil
    cdef void c_observe(self, int seat, float[::1] out) noexcept nogil
    cdef void c_info_state(self, int seat, float[::1] out) noexcept nogil
    cdef void _setup(self, unsigned long long rng_state, int start_player) noexcept nogil
    # the Python-level half, for the wrapper
    cpdef object _view(self, int seat, bint recall)
    cpdef object _export(self)
    cpdef dict _get_raw(self)
    cdef _load_checked(self, object data, bint history)

    # --- written once --------------------------------------------------------------
    cpdef _new_game(self, unsigned long long rng_state, int start_player)
    @cython.locals(title=str)
    cpdef _load(self, object data, bint history=*)
    @cython.locals(r=cython.ulonglong)
    cdef int c_below(self, int n) noexcept nogil
    @cython.locals(new=CoreState)
    cdef CoreState c_empty(self)
    @cython.locals(n=cython.int, i=cython.int, ints=tuple)
    cpdef list legal_actions(self)
    @cython.locals(n=cython.int, i=cython.int, mv=cython.schar[::1])
    cpdef object action_mask(self)
    @cython.locals(a=cython.longlong)
    cpdef bint is_legal(self, object action)
    @cython.locals(a=cython.int, code=cython.int, current=cython.int)
    cpdef apply(self, object action, object player=*)
    @cython.locals(new=CoreState)
    cpdef CoreState clone(self)
    @cython.locals(p=cython.int)
    cpdef list scores(self)
    @cython.locals(p=cython.int, m=cython.int)
    cpdef list winners(self)
    cpdef int random_action(self, unsigned long long r) except -1
    cpdef int rollout_action(self, unsigned long long r) except -1
    cpdef int prior_action(self, unsigned long long r) except -2
    cpdef _start_history(self, object origin, object actions)
    cpdef _forget_history(self)
    @cython.locals(later=list, node=object)
    cpdef list _history(self)
    cpdef object _origin(self)
    cpdef _assign(self, CoreState other)
    cpdef int _seat(self, object player) except -1
    @cython.locals(new=CoreState)
    cpdef CoreState _resampled(self, int seat, unsigned long long rng, bint recall)
    cpdef object observation(self, object player, object out=*)
    cpdef object information_state(self, object player, object out=*)
    @cython.locals(seat=cython.int, size=cython.int, i=cython.int, buf=cython.float[::1], fresh=cython.bint)
    cdef object _tensor(self, object player, object out, bint info)
    @cython.locals(players=cython.int, actions=cython.longlong)
    cpdef object playouts(self, object n, object seed=*, object threads=*)
    cpdef _reseed(self, unsigned long long rng)
    @cython.locals(g=cython.longlong, total=cython.longlong, steps=cython.int, p=cython.int,
                   m=cython.int, r=cython.ulonglong, np=cython.int, stopped=cython.bint)
    cpdef long long c_playouts(self, CoreState work, bint from_here, long long first, long long count,
                               unsigned long long seed, short[:, ::1] scores, int[::1] lengths,
                               signed char[:, ::1] wins, signed char[::1] first_seats,
                               signed char[::1] stop) except -1


cdef object _FLOAT32
cdef object _tensor_buffer(object out, int size)
cdef str _bad_out(object out, int size)


@cython.locals(p=cython.int, m=cython.int, np=cython.int, steps=cython.int, r=cython.ulonglong)
cdef int _play_out(CoreState st, unsigned long long r, long long g, short[:, ::1] scores,
                   int[::1] lengths, signed char[:, ::1] wins, signed char[::1] first_seats) noexcept nogil
