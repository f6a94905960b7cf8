# Type stub for the compiled module rng (sources: rng.py + rng.pxd).
from typing import Final

GOLDEN: Final[int]
SPLITMIX64: Final[tuple[int, int, int, int]]

def mix64(z: int) -> int: ...
def seed_state(seed: int | str | bytes) -> int: ...
