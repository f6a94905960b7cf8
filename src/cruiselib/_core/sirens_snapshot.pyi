# Type stub for the compiled module sirens_snapshot (sources: sirens_snapshot.py +
# sirens_snapshot.pxd). Keep in step with the Python-visible (cpdef) names of the .pxd.
from typing import Any, Final

from cruiselib._core.sirens import SirensCore

CREW_NAMES: Final[tuple[str, ...]]  # the core's, imported
PHASES: Final[tuple[str, ...]]

def set_raw(st: SirensCore, raw: dict[str, Any]) -> None: ...
def load_checked(st: SirensCore, d: Any, history: bool) -> None: ...
