# Type stub for the compiled module dream_islands_snapshot (sources: dream_islands_snapshot.py
# + .pxd). Keep in step with the Python-visible (def / cpdef) names of dream_islands_snapshot.pxd.
from typing import Any

from cruiselib._core.dream_islands import DreamIslandsCore

def set_raw(core: DreamIslandsCore, raw: dict[str, Any]) -> None: ...
def load_checked(core: DreamIslandsCore, d: Any, history: bool) -> None: ...
