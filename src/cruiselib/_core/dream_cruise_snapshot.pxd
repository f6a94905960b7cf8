# Types for dream_cruise_snapshot.py (Cython pure-Python mode): checking and loading Dream
# Cruise snapshots, the raw-state setter. Keep in step with dream_cruise_snapshot.py and
# dream_cruise_snapshot.pyi. The core's classes are cimported, so their arrays are C here.
cimport cython
from .dream_cruise cimport (DreamCruiseCore, _pop3, MAXP, NCAB, MAXF, MAXL, MAXS, MAXADD, NREG, MAXSETS,
                            MAXDRAWN, PH_BOARDING, PH_SET_COURSE, PH_ENTERTAINMENT, PH_SET_SAIL, PH_OVER)

cdef enum:
    # card zones of a snapshot being loaded (card_zone): table zones, then per seat
    Z_DECK = 0
    Z_DISCARD = 1
    Z_BOX = 2
    Z_JANA = 3
    Z_DISPLAY = 4
    Z_SEAT = 16
    Z_CABIN = 0
    Z_PILE = 3
    Z_PLAYED = 4
    Z_HAND = 5
    Z_ADDITION = 6
    Z_ON_LOCATION = 10
    Z_DRAWN = 11


cdef str _BAD
cdef tuple _KINDS

# the raw state
@cython.locals(n=cython.int, phase=cython.int, k=cython.int)
cpdef set_raw(DreamCruiseCore core, dict raw)
@cython.locals(i=cython.int, p=cython.int, c=cython.int, j=cython.int, s=cython.int)
cdef void _clear_seats(DreamCruiseCore core) noexcept
@cython.locals(c=cython.int, j=cython.int, s=cython.int, i=cython.int, x=cython.int)
cdef _set_seat(DreamCruiseCore core, dict raw, int p)
@cython.locals(n=cython.int, x=cython.int)
cdef int _fill(int* arr, int off, object cards, int room) except -1
cdef int _bounded(Py_ssize_t k, int most) except -1

# the loader
@cython.locals(n=cython.int, phase=cython.int, p=cython.int, i=cython.int, k=cython.int, x=cython.int)
cpdef load_checked(DreamCruiseCore core, object d, bint history)
@cython.locals(n=cython.int, p=cython.int)
cdef dict _raw_of(DreamCruiseCore core, object d, int phase)
@cython.locals(n=cython.int, i=cython.int, k=cython.int, p=cython.int, f=cython.int, letter=cython.int,
               z=cython.int, x=cython.int)
cdef _check_places(DreamCruiseCore core, object d, int phase)
@cython.locals(z=cython.int, c=cython.int, f=cython.int, j=cython.int, x=cython.int)
cdef _check_seat_places(DreamCruiseCore core, object s, int p, int phase)
@cython.locals(size=cython.int, x=cython.int)
cdef int _claim(DreamCruiseCore core, int base, object cards, int zone) except -1

# the position
@cython.locals(n=cython.int, p=cython.int)
cdef _check_position(DreamCruiseCore core, object d, int phase, bint history)
@cython.locals(x=cython.int, s=cython.int, occ=cython.int, v=cython.int, c=cython.int, f=cython.int,
               out=cython.int, on_card=cython.bint)
cdef _check_seat_board(DreamCruiseCore core, int p, object played, bint history)
@cython.locals(taken=cython.int, k=cython.int, q=cython.int)
cdef _check_display(DreamCruiseCore core, bint history)
@cython.locals(t=cython.int)
cdef _check_seat_phase(DreamCruiseCore core, int p, int phase, bint history)
@cython.locals(n=cython.int, p=cython.int, t=cython.int, per_round=cython.int, avail=cython.int,
               drew=cython.int, jana=cython.int, piles=cython.int, demand=cython.int, e=cython.int,
               solo=cython.bint, last=cython.bint, ok=cython.bint)
cdef _check_last_round(DreamCruiseCore core, int phase)

# helpers
cdef int _kind(int base) noexcept
@cython.locals(p=cython.int, z=cython.int)
cdef str _zone_name(int base, int zone)
@cython.locals(m=cython.int, last=cython.int)
cdef int _colour_bits(object cabins) except -1
