cimport cython
# Shared argument handling of every game core's public methods (common.py).
@cython.locals(a=cython.longlong)
cpdef long long action_id(object action, object player, int current, object game,
                          int num_actions) except -1
cpdef str illegal_message(object game, int action, int current, str reason)
