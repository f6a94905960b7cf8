"""Long calls stop on Ctrl-C, and absurd batch sizes are refused (issue: hardening).

The compiled core does not run Python's signal handlers by itself, so its playout loops
check for pending signals between games (``_core/common.py: check_signals``). These
tests send SIGINT to a child process in the middle of a long batch.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import cruiselib
from cruiselib._api import MAX_PLAYOUTS

GAMES = cruiselib.games()

pytestmark = pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process is POSIX")


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", GAMES)
def test_ctrl_c_stops_a_long_playout_batch(name: str, threads: int) -> None:
    child = textwrap.dedent(
        f"""
        import sys, cruiselib
        game = cruiselib.make({name!r})
        game.playouts(10, seed=0)  # warm: imports and tables
        print("ready", flush=True)
        try:
            game.playouts(10**7, seed=1, threads={threads})  # minutes of work in either core
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        print("finished", flush=True)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        # Let the batch get going inside the core, then press Ctrl-C.
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=20)  # a core that ignores SIGINT runs for minutes
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert out.strip() == "interrupted"
    assert proc.returncode == 3


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("n", [MAX_PLAYOUTS + 1, 10**12, 2**62, 2**64, -1, 2.0, "10", True, None])
def test_absurd_batch_sizes_are_refused(name: str, n: object) -> None:
    game = cruiselib.make(name)
    with pytest.raises(cruiselib.InvalidOptionError, match="n"):
        game.playouts(n, seed=0)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_numpy_batch_sizes_are_accepted(name: str) -> None:
    import numpy as np

    game = cruiselib.make(name)
    assert game.playouts(np.int64(3), seed=0).games == 3
