# Type stub for the compiled module atlantic_star_snapshot (sources: atlantic_star_snapshot.py
# + atlantic_star_snapshot.pxd). Keep in step with the Python-visible (cpdef) names of the .pxd.
from typing import Any

from cruiselib._core.atlantic_star import AtlanticCore

SEA_NAMES: tuple[str, str, str, str]

def set_raw(st: AtlanticCore, raw: dict[str, Any]) -> None: ...
def load_checked(st: AtlanticCore, d: Any, history: bool) -> None: ...
