# Type stub for the compiled module dream_cruise_snapshot (sources: dream_cruise_snapshot.py
# + .pxd). Keep in step with the Python-visible (def / cpdef) names of dream_cruise_snapshot.pxd.
from typing import Any

from cruiselib._core.dream_cruise import DreamCruiseCore

def set_raw(core: DreamCruiseCore, raw: dict[str, Any]) -> None: ...
def load_checked(core: DreamCruiseCore, d: Any, history: bool) -> None: ...
