"""Worker processes end with their runner: a runner killed with SIGKILL (as the OOM killer
kills) leaves no worker and no resource tracker behind; a worker that dies is said in one line
before its jobs are played again."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

import pytest

from cruiselib.arena.backends import EXIT_ORPHANED, LocalBackend, _Lost
from cruiselib.arena.plan import Study, expand
from tests.support import ANY_GAME

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table in /proc")

RUNNER = textwrap.dedent(
    """
    import sys

    from cruiselib.arena.backends import LocalBackend
    from cruiselib.arena.plan import BotSpec, Study
    from cruiselib.arena.runner import run

    if __name__ == "__main__":
        # Far more games than the test waits for: the run is killed in the middle.
        spec = Study(game=sys.argv[1], players=(2,), bots=(BotSpec("greedy"),), games=1_000_000, shard=20)
        run(spec, None, backend=LocalBackend(2), progress=False)
    """
)


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, None if there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after the command, which may hold spaces
    return int(fields[1]), fields[0], int(fields[19])


def _children(pid: int) -> dict[int, int]:
    """pid -> start time of every process whose parent is ``pid``."""
    found: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[0] == pid:
                found[int(entry.name)] = stat[2]
    return found


def _alive(pid: int, started: int) -> bool:
    """Whether the process started then still runs (not a zombie, not a new one of the pid)."""
    stat = _stat(pid)
    return stat is not None and stat[2] == started and stat[1] not in ("Z", "X")


def test_a_runner_killed_with_sigkill_takes_its_workers_and_resource_tracker_along(tmp_path: Path) -> None:
    script = tmp_path / "runner.py"
    script.write_text(RUNNER)
    log = (tmp_path / "stderr").open("w")
    runner = subprocess.Popen(
        [sys.executable, str(script), ANY_GAME], stdout=subprocess.DEVNULL, stderr=log, start_new_session=True
    )
    try:
        # Two workers and the resource tracker, the workers playing (their CPU time grows).
        deadline = time.monotonic() + 60
        children: dict[int, int] = {}
        while time.monotonic() < deadline and len(children) < 3:
            assert runner.poll() is None, (tmp_path / "stderr").read_text()
            time.sleep(0.1)
            children = _children(runner.pid)
        assert len(children) >= 3, f"the runner started {children}"
        time.sleep(1.0)  # mid-run
        runner.send_signal(signal.SIGKILL)
        runner.wait(10)
        deadline = time.monotonic() + 5
        left = children
        while time.monotonic() < deadline and left:
            time.sleep(0.1)
            left = {pid: started for pid, started in left.items() if _alive(pid, started)}
        assert not left, f"still running after their runner was killed: {sorted(left)}"
    finally:
        # Whatever is left of this test's processes (all in the session it started) ends here.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(runner.pid, signal.SIGKILL)
        runner.wait(10)
        log.close()


def test_a_worker_whose_runner_is_already_gone_ends_at_once() -> None:
    # The worker checks, once its death signal is set, that its parent is still the runner:
    # here it is not (the pid given is not the parent's), as if the runner died just before.
    code = "import os; from cruiselib.arena.backends import _worker_init; _worker_init(os.getppid() + 1)"
    done = subprocess.run([sys.executable, "-c", code], timeout=60, check=False)
    assert done.returncode == EXIT_ORPHANED


def test_jobs_played_again_after_a_worker_died_are_said_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # What a broken pool left: the worker 4242 killed playing job 1 (its status file says
    # so), the worker 4243 ended by the pool itself, jobs 1 and 2 unfinished.
    jobs = expand(Study(game=ANY_GAME, games=4, shard=1, seed=1, players=(2,)))
    (tmp_path / "4242").write_text(f"{jobs[1].index:>20}\n")
    lost = _Lost(jobs[1:3], {4242: -signal.SIGKILL, 4243: -signal.SIGTERM}, tmp_path)
    with caplog.at_level(logging.WARNING, logger="cruiselib.arena"):
        assert LocalBackend(2)._after_loss(lost, Counter(), 0) == 0
    assert caplog.messages == [
        "a worker process died (killed by SIGKILL) playing job 000001: the unfinished jobs are played again on "
        "new workers (000001, 000002)"
    ]
