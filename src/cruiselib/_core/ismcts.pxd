# Types for ismcts.py (Cython pure-Python mode): information-set MCTS over the game contract.
# Keep in step with ismcts.py and ismcts.pyi.
cimport cython
from libc.math cimport log, sqrt
from .common cimport check_signals
from .engine cimport CoreState
from .rng cimport mix64

cdef unsigned long long GOLDEN
cdef unsigned long long MASK64
cdef int SIGNAL_EVERY_ITERATIONS
cdef unsigned long long DEAL_SALT
cdef unsigned long long ROLLOUT_SALT
cdef unsigned long long PRIOR_SALT
cdef object _INT32


cdef class Search:
    cdef readonly CoreState root
    cdef CoreState work
    cdef readonly int seat
    cdef readonly double uct_c
    cdef readonly bint determinize
    cdef readonly bint recall
    cdef readonly double score_weight
    cdef readonly bint policy
    cdef readonly double prior_weight
    cdef object ret_array
    cdef double[::1] ret
    cdef unsigned long long rng
    cdef readonly long long iterations
    cdef readonly int nodes
    cdef readonly int capacity
    cdef int generation
    cdef object seen_array, first_child_array, next_sibling_array, action_array, mover_array
    cdef object visits_array, avail_array, path_array, total_array, where_array, untried_array
    cdef int[::1] seen
    cdef int[::1] where
    cdef int[::1] untried
    cdef object allowed_array
    cdef int[::1] allowed
    cdef readonly bint restricted
    cdef readonly int favoured
    cdef readonly double favour_weight
    cdef int[::1] first_child
    cdef int[::1] next_sibling
    cdef int[::1] action
    cdef int[::1] mover
    cdef int[::1] visits
    cdef int[::1] avail
    cdef int[::1] path
    cdef double[::1] total
    cdef object explore_array, inv_sqrt_array
    cdef double[::1] explore
    cdef double[::1] inv_sqrt

    @cython.locals(old=cython.int, k=cython.int, olds=tuple, fields=list)
    cpdef grow(self, int capacity)
    @cython.locals(chosen=list)
    cpdef restrict(self, actions)
    cpdef favour(self, action, weight)
    @cython.locals(done=cython.longlong, players=cython.int)
    cdef long long c_run(self, long long iterations) except -1
    @cython.locals(r=cython.ulonglong, node=cython.int, depth=cython.int,
                   current=cython.int, n=cython.int, gen=cython.int, c=cython.int,
                   untried=cython.int, best=cython.int, best_value=cython.double,
                   i=cython.int, a=cython.int, visits=cython.int, value=cython.double,
                   prior=cython.int, shortlist=cython.bint,
                   bias=cython.double, prior_open=cython.bint)
    cdef void _iterate(self, int players) noexcept nogil
    @cython.locals(c=cython.int)
    cdef int _add_child(self, int node, int a, int mover) noexcept nogil
    @cython.locals(d=cython.int, c=cython.int)
    cdef void _simulate_and_back_up(self, unsigned long long r, int depth, int players) noexcept nogil
    @cython.locals(m=cython.int, w=cython.double, scale=cython.double, p=cython.int, q=cython.int,
                   x=cython.double, r=cython.double, best=cython.double, margin=cython.double)
    cdef void _returns(self, int players) noexcept nogil
    @cython.locals(a=cython.int)
    cdef void _restamp(self) noexcept nogil
    @cython.locals(c=cython.int, v=cython.int)
    cpdef list children(self)
    @cython.locals(best=cython.int, best_key=cython.double, c=cython.int, v=cython.int, key=cython.double)
    cpdef int best(self, int final=*)


cdef double _reward(int winners, int seat, int players) noexcept nogil
cdef object _zeros(int n, bint real)
