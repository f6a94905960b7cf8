"""Running a batch of playouts in the compiled core on one or several threads."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import numpy.typing as npt

from cruiselib.errors import InvalidOptionError

__all__ = ["run_batch"]


def run_batch(
    source: Any,
    new_work: Any,
    from_here: bool,
    n: int,
    base: int,
    scores: npt.NDArray[np.int16],
    lengths: npt.NDArray[np.int32],
    wins: npt.NDArray[np.int8],
    first_seats: npt.NDArray[np.int8],
    threads: int,
) -> int:
    """Games 0..n-1 of a batch in the core, on ``threads`` threads (contiguous ranges)."""
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= 256:
        raise InvalidOptionError(f"threads must be an int from 1 to 256, not {threads!r}")
    stop = np.zeros(1, dtype=np.int8)
    threads = min(int(threads), max(n, 1))
    if threads == 1:
        return int(source.c_playouts(new_work(), from_here, 0, n, base, scores, lengths, wins, first_seats, stop))
    from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

    cuts = [n * k // threads for k in range(threads + 1)]
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="cruiselib-playouts") as pool:
        futures = [
            pool.submit(
                source.c_playouts,
                new_work(),
                from_here,
                lo,
                hi - lo,
                base,
                scores[lo:hi],
                lengths[lo:hi],
                wins[lo:hi],
                first_seats[lo:hi],
                stop,
            )
            for lo, hi in itertools.pairwise(cuts)
        ]
        try:
            # Signals reach the main thread only: it waits in short steps so Ctrl-C lands
            # here, then tells the workers to stop after their current game.
            while wait(futures, timeout=0.05, return_when=FIRST_EXCEPTION).not_done:
                pass
        except BaseException:
            stop[0] = 1
            wait(futures)
            raise
        return sum(int(f.result()) for f in futures)
