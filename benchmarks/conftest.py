"""Benchmark helpers: every benchmark runs on the compiled core and on its pure-Python twin
in the same process, grouped side by side (``--benchmark-group-by=group``)."""

from __future__ import annotations

import os
from typing import Any

# numpy's BLAS threads would only compete with the one core being measured.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cruiselib


def modes(name: str, **options: Any) -> dict[str, Any]:
    """The game on each core available here: {"compiled": game, "pure": twin}."""
    game = cruiselib.make(name, **options)
    if not cruiselib.compiled:
        return {"pure": game}
    return {"compiled": game, "pure": game.pure_twin()}
