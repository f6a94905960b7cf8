"""The output directory of a run: one run at a time holds it (run.lock), and a resume uses a
checkpoint only if it is its job's (anything else is played again, said in a warning)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import tracemalloc
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cruiselib
from cruiselib.arena import results
from cruiselib.arena.backends import SerialBackend
from cruiselib.arena.cli import study_main
from cruiselib.arena.plan import Job, expand, load_spec
from cruiselib.arena.play import JobRows
from cruiselib.arena.results import CheckpointError, games_to_lists, read_job_rows
from cruiselib.arena.runner import LOCK_NAME, OutDirInUseError, run

# A game whose default table has two seats (the counts below are of 2-player games), asked
# of the registry.
GAME = next(name for name in cruiselib.games() if cruiselib.make(name).num_players == 2)
SPEC: dict[str, Any] = {"kind": "study", "game": GAME, "games": 40, "shard": 20, "seed": 3}
# Two cells on the same deals: their jobs differ only by the game options.
PAIRED: dict[str, Any] = SPEC | {"grid": {"variant": ["standard", "bow_to_rear"]}, "shard": 40}

# A run whose backend says it started (the file argv[3]) and then waits for the file argv[4]
# (at most 60 s) before it plays: the directory stays locked meanwhile.
WAITING_RUN = """
import sys, time
from pathlib import Path
from cruiselib.arena.backends import SerialBackend
from cruiselib.arena.runner import run

spec, out, ready, go = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])

class Waits:
    name = "waits"

    def run_jobs(self, jobs):
        ready.write_text("")
        deadline = time.monotonic() + 60
        while not go.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        yield from SerialBackend().run_jobs(jobs)

result = run(spec, out, backend=Waits(), progress=False)
print(result.summary["games"])
"""


FLAGS = ("--backend", "serial", "--no-progress", "--no-report")


def start_waiting_run(tmp_path: Path, spec_file: Path, out: Path) -> tuple[subprocess.Popen[str], Path]:
    """A run in another process, holding ``out`` until the returned file exists."""
    ready, go = tmp_path / "ready", tmp_path / "go"
    process = subprocess.Popen(
        [sys.executable, "-c", WAITING_RUN, str(spec_file), str(out), str(ready), str(go)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not ready.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"the first run did not start: {process.communicate()}")
        time.sleep(0.02)
    return process, go


def spec_file(tmp_path: Path, spec: dict[str, Any] = SPEC) -> Path:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    return path


def without_seconds(rows: Any) -> dict[str, list[Any]]:
    return {name: values for name, values in games_to_lists(rows).items() if name != "seconds"}


# --------------------------------------------------------------------------- the lock


def test_a_second_run_in_a_directory_in_use_is_refused(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    spec, out = spec_file(tmp_path), tmp_path / "out"
    first, go = start_waiting_run(tmp_path, spec, out)
    try:
        second = subprocess.run(
            [sys.executable, "-m", "cruiselib.arena", "study", "--spec", str(spec), "--out", str(out), *FLAGS],
            capture_output=True,
            text=True,
            timeout=60,
        )
        go.write_text("")
        output, errors = first.communicate(timeout=60)
    finally:
        first.kill()
    assert second.returncode == 2, second
    holder = f"pid {first.pid} on host {socket.gethostname()}, started "
    assert f"cruiselib study: error: {out} is in use by another run ({holder}" in second.stderr
    assert "wait for it to end, or give another directory" in second.stderr
    assert first.returncode == 0, errors
    assert output.split() == ["40"]
    assert pq.read_table(out / "games.parquet").num_rows == 40
    assert sorted(path.name for path in out.iterdir()) == ["games.parquet", "jobs", "spec.json", "summary.json"]


def test_a_run_in_this_process_is_refused_while_another_holds_the_directory(tmp_path: Path) -> None:
    refusals: list[OutDirInUseError] = []

    class RunsAgain:
        name = "runs-again"

        def run_jobs(self, jobs: Sequence[Job]) -> Iterator[tuple[Job, JobRows]]:
            with pytest.raises(OutDirInUseError) as refused:
                run(SPEC, tmp_path, backend="serial", progress=False)
            refusals.append(refused.value)
            yield from SerialBackend().run_jobs(jobs)

    result = run(SPEC, tmp_path, backend=RunsAgain(), progress=False)
    assert result.game_count == 40
    assert f"{tmp_path} is in use by another run (pid {os.getpid()} on host" in str(refusals[0])
    assert not (tmp_path / LOCK_NAME).exists()  # let go at the end
    assert run(SPEC, tmp_path, backend="serial", progress=False).resumed == 2


def test_the_lock_of_a_killed_run_is_taken_over(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    spec, out = spec_file(tmp_path), tmp_path / "out"
    first, _ = start_waiting_run(tmp_path, spec, out)
    record = json.loads((out / LOCK_NAME).read_text())
    assert record["pid"] == first.pid and record["host"] == socket.gethostname()
    first.send_signal(signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
    first.communicate(timeout=30)
    assert (out / LOCK_NAME).exists()  # left behind, but no longer locked
    with caplog.at_level(logging.INFO, logger="cruiselib.arena"):
        result = run(spec, out, backend="serial", progress=False)
    assert result.game_count == 40 and result.played == 2
    assert f"taking over the lock of pid {first.pid}" in caplog.text
    assert not (out / LOCK_NAME).exists()


# --------------------------------------------------------------------------- checkpoints


def finished_run(out: Path, spec: dict[str, Any] = PAIRED) -> dict[str, Any]:
    """Run ``spec`` into ``out`` and return its summary."""
    return run(spec, out, backend="serial", progress=False).summary


def resume(out: Path, spec: dict[str, Any] = PAIRED) -> Any:
    return run(spec, out, backend="serial", progress=False)


def test_a_checkpoint_of_another_job_is_played_again(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    summary = finished_run(tmp_path)
    jobs = tmp_path / "jobs"
    shutil.copyfile(jobs / "000001.npz", jobs / "000000.npz")  # cell 1's games as cell 0's
    with caplog.at_level(logging.WARNING, logger="cruiselib.arena"):
        again = resume(tmp_path)
    assert again.summary == summary
    assert (again.resumed, again.played, again.replayed) == (1, 1, 1)
    path = jobs / "000000.npz"
    assert f"{path}: it is the checkpoint of job '000001', not '000000': playing job 000000 again" in caplog.text
    assert read_job_rows(path, expand(load_spec(PAIRED))[0]).job == 0  # written again, as its own


def test_a_checkpoint_of_the_same_job_of_another_spec_is_played_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    other = PAIRED | {"grid": {"variant": ["bow_to_rear", "standard"]}}  # job 0 is the other variant's
    finished_run(tmp_path / "other", other)
    summary = finished_run(tmp_path / "out")
    shutil.copyfile(tmp_path / "other" / "jobs" / "000000.npz", tmp_path / "out" / "jobs" / "000000.npz")
    with caplog.at_level(logging.WARNING, logger="cruiselib.arena"):
        again = resume(tmp_path / "out")
    assert again.summary == summary and again.replayed == 1
    assert "it is the checkpoint of another job 000000" in caplog.text


def npy(array: np.ndarray[Any, Any], header: dict[str, Any] | None = None) -> bytes:
    """A .npy file of ``array``, or one whose header says ``header`` instead."""
    if header is None:
        return npy_bytes(array)
    text = repr(header).encode()
    text += b" " * (63 - (10 + len(text)) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text + array.tobytes()


def npy_bytes(array: np.ndarray[Any, Any]) -> bytes:
    import io

    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def rewrite(path: Path, change: dict[str, bytes | None]) -> None:
    """Rewrite the .npz at ``path`` with some members replaced (None: removed)."""
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    for name, data in change.items():
        if data is None:
            members.pop(name, None)
        else:
            members[name] = data
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "junk":
        path.write_bytes(b"not a checkpoint\n" * 100)
    elif how == "flipped byte":
        with zipfile.ZipFile(path) as archive:
            offset = archive.getinfo("scores.npy").header_offset + 200
        path.write_bytes(data[:offset] + bytes([data[offset] ^ 0xFF]) + data[offset + 1 :])
    elif how == "huge array":  # a header claiming 8 GB of scores in a file of a few bytes
        rewrite(
            path,
            {"scores.npy": npy(np.zeros(4, np.int32), {"descr": "<i4", "fortran_order": False, "shape": (10**9, 2)})},
        )
    elif how == "pickled":
        rewrite(
            path, {"scores.npy": npy(np.zeros(1, np.int32), {"descr": "|O", "fortran_order": False, "shape": (20, 2)})}
        )
    elif how == "other dtype":
        rewrite(path, {"length.npy": npy_bytes(np.zeros(20, np.int64))})
    elif how == "other size":
        rewrite(path, {"deal.npy": npy_bytes(np.arange(19, dtype=np.int64))})
    elif how == "other deals":
        rewrite(path, {"deal.npy": npy_bytes(np.arange(1, 21, dtype=np.int64))})
    elif how == "bad wins":
        rewrite(path, {"wins.npy": npy_bytes(np.full((20, 2), 7, np.int8))})
    elif how == "extra member":
        rewrite(path, {"other.npy": npy_bytes(np.zeros(1))})
    elif how == "missing member":
        rewrite(path, {"seconds.npy": None})
    elif how == "bad record":
        rewrite(path, {"meta.npy": npy_bytes(np.frombuffer(b"{not json", np.uint8))})
    elif how == "older cruiselib":  # as write_job_rows wrote it before checkpoints named their job
        rewrite(path, {"meta.npy": None})
    elif how == "directory":
        path.unlink()
        path.mkdir()
    else:  # pragma: no cover
        raise AssertionError(how)


DAMAGES = {
    "truncated": "cannot be read",
    "empty": "cannot be read",
    "junk": "cannot be read",
    "flipped byte": "Bad CRC-32",
    "huge array": "scores.npy has shape (1000000000, 2), not (20, 2)",
    "pickled": "scores.npy holds object, not int32",
    "other dtype": "length.npy holds int64, not int32",
    "other size": "deal.npy has shape (19,), not (20,)",
    "other deals": "its deals are not job 000000's",
    "bad wins": "its wins are not all 0 or 1",
    "extra member": "not a job checkpoint",
    "missing member": "it lacks seconds.npy",
    "bad record": "its identity record is not JSON",
    "older cruiselib": "it has no identity record (a checkpoint of an older cruiselib)",
}


@pytest.mark.parametrize("how", DAMAGES)
def test_a_damaged_checkpoint_is_played_again(tmp_path: Path, caplog: pytest.LogCaptureFixture, how: str) -> None:
    summary = finished_run(tmp_path, SPEC)
    path = tmp_path / "jobs" / "000000.npz"
    damage(path, how)
    with caplog.at_level(logging.WARNING, logger="cruiselib.arena"):
        again = resume(tmp_path, SPEC)
    assert again.summary == summary
    assert (again.resumed, again.replayed) == (1, 1)
    (line,) = caplog.messages
    assert line.startswith(f"{path}: ") and line.endswith(": playing job 000000 again")
    assert DAMAGES[how] in line
    assert read_job_rows(path, expand(load_spec(SPEC))[0]).games == 20  # whole again


def test_a_checkpoint_claiming_a_huge_array_allocates_nothing_of_it(tmp_path: Path) -> None:
    run(SPEC, tmp_path, backend="serial", progress=False)
    path = tmp_path / "jobs" / "000000.npz"
    job = expand(load_spec(SPEC))[0]
    damage(path, "huge array")
    tracemalloc.start()
    try:
        for checked in (job, None):  # with and without the job that bounds the sizes
            with pytest.raises(CheckpointError):
                read_job_rows(path, checked)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10_000_000


def test_a_fifo_is_not_waited_on(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    run(SPEC, tmp_path, backend="serial", progress=False)
    path = tmp_path / "jobs" / "000000.npz"
    path.unlink()
    os.mkfifo(path)
    with pytest.raises(CheckpointError, match="not a regular file"):
        read_job_rows(path, expand(load_spec(SPEC))[0])


def test_random_damage_never_escapes_as_anything_but_a_checkpoint_error(tmp_path: Path) -> None:
    run(SPEC, tmp_path, backend="serial", progress=False)
    path = tmp_path / "jobs" / "000000.npz"
    job = expand(load_spec(SPEC))[0]
    good = path.read_bytes()
    rng = np.random.default_rng(1)
    for trial in range(300):
        data = bytearray(good)
        if trial % 3 == 0:
            data = data[: int(rng.integers(len(data)))]
        else:
            for at in rng.integers(len(data), size=int(rng.integers(1, 4))):
                data[at] = int(rng.integers(256))
        path.write_bytes(bytes(data))
        for checked in (job, None):
            with contextlib.suppress(CheckpointError):
                read_job_rows(path, checked)


def test_the_command_says_how_many_jobs_were_resumed_and_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    argv = ["--spec", str(spec_file(tmp_path)), "--out", str(tmp_path / "out"), *FLAGS]
    assert study_main(argv) == 0
    assert "resumed" not in capsys.readouterr().out
    damage(tmp_path / "out" / "jobs" / "000001.npz", "junk")
    with caplog.at_level(logging.WARNING, logger="cruiselib.arena"):
        assert study_main(argv) == 0
    assert "1 of 2 jobs resumed, 1 played again over a refused checkpoint\nwrote " in capsys.readouterr().out
    assert f"{tmp_path / 'out' / 'jobs' / '000001.npz'}: cannot be read" in caplog.text


def test_job_checkpoints_written_without_a_job_still_read(tmp_path: Path) -> None:
    job = expand(load_spec(SPEC))[0]
    rows = SerialBackend().run_jobs([job])
    _, part = next(iter(rows))
    path = results.write_job_rows(part, tmp_path / job.id)
    assert read_job_rows(path).games == 20
    with pytest.raises(CheckpointError, match="no identity record"):
        read_job_rows(path, job)


def test_the_checkpoint_of_every_kind_of_job_is_taken_back(tmp_path: Path) -> None:
    assert set(results.JOB_DTYPES) == set(results.JOB_ARRAYS)
    bots = [{"name": "random"}, {"name": "greedy"}]
    specs = [
        SPEC,
        {"kind": "tournament", "game": GAME, "participants": bots, "games": 4, "shard": 1},
        {"kind": "tournament", "game": GAME, "participants": bots, "games": 3, "mirror": False},
        {"kind": "study", "game": GAME, "bots": bots, "games": 3},
    ]
    for number, spec in enumerate(specs):
        jobs = expand(load_spec(spec))
        for job, part in SerialBackend().run_jobs(jobs):
            path = results.write_job_rows(part, tmp_path / f"{number}-{job.id}", job, "digest")
            back = read_job_rows(path, job, "digest")
            for name in results.JOB_ARRAYS:
                assert np.array_equal(getattr(back, name), getattr(part, name)), name
            with pytest.raises(CheckpointError, match="another run's spec"):
                read_job_rows(path, job, "another digest")
