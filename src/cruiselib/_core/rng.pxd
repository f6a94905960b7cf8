# Shared random-number kernel: splitmix64 (Steele, Lea, Flood 2014).
cdef unsigned long long MIX1
cdef unsigned long long MIX2
cdef unsigned long long MASK64
cpdef unsigned long long mix64(unsigned long long z) noexcept nogil
cpdef unsigned long long seed_state(object seed) except? 0
