"""splitmix64: the small, fast generator whose 64-bit state lives inside each game state.

A state advances by a fixed odd constant (``state += GOLDEN``) and each draw is
``mix64(state)``, so the generator is one integer, trivially serialized and cloned.
Bounded draws use the multiply-shift reduction ``((r >> 32) * n) >> 32`` (bias below
2**-32 for the small ranges used by the engines).
"""

import hashlib

GOLDEN = 0x9E3779B97F4A7C15
MASK64 = 0xFFFFFFFFFFFFFFFF


MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
# The constants as Python ints, for the cores that inline the step or the mix (compiled,
# MIX1, MIX2 and MASK64 are C globals of this module, which no other module can cimport).
SPLITMIX64 = (GOLDEN, MIX1, MIX2, MASK64)


def mix64(z):
    """The splitmix64 output function (a bijection on 64-bit integers)."""
    # Typed as unsigned 64-bit when compiled, so the masks cost nothing there.
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def seed_state(seed):
    """Turn a user seed (int, str or bytes) into a 64-bit generator state."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str, bytes)):
        raise TypeError("seed must be an int, str or bytes")
    if isinstance(seed, int):
        return mix64(seed & 0xFFFFFFFFFFFFFFFF) ^ mix64((seed >> 64) & 0xFFFFFFFFFFFFFFFF)
    data = seed.encode() if isinstance(seed, str) else seed
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")
