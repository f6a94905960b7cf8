cimport cython
from cpython.exc cimport PyErr_CheckSignals
# Shared argument handling of every game core's public methods (common.py).
@cython.locals(a=cython.longlong)
cpdef long long action_id(object action, object player, int current, object game,
                          int num_actions) except -1
cdef bint _same_seat(object player, int current) except -1
cpdef long long query_id(object action, object game, int num_actions) except -2
cpdef str illegal_message(object game, int action, int current, str reason)
cpdef int check_signals() except -1
