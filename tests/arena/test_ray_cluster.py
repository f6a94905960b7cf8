"""Joining Ray: the address (``--ray-address``, ``RAY_ADDRESS``, the cluster ``ray start``
recorded), the line naming the cluster joined, and the failures said in one line within the
time allowed: nothing listening, a recorded cluster that died, a cluster that does not answer,
a cluster that wants an authentication token.

Most tests stand a fake ``ray`` module in for Ray's own where nothing but the call to
``ray.init`` matters, so they take milliseconds; the last starts a real cluster with
``ray start`` and is marked slow."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cruiselib.arena import backends
from cruiselib.arena.backends import RayBackend, RayConnectionError, make_backend
from cruiselib.arena.cli import study_main
from cruiselib.errors import InvalidOptionError
from tests.support import ANY_GAME

pytest.importorskip("ray")


class FakeRay:
    """What the backend calls of ``ray`` to join a cluster: ``init`` records its arguments
    (and raises ``fail`` if given), the cluster has ``nodes`` nodes of ``cpus`` CPUs."""

    def __init__(self, nodes: int = 1, cpus: int = 2, fail: BaseException | None = None) -> None:
        self.calls: list[dict[str, Any]] = []
        self.count, self.cpus, self.fail = nodes, cpus, fail
        self.initialized = False

    def is_initialized(self) -> bool:
        return self.initialized

    def init(self, **options: Any) -> None:
        self.calls.append(options)
        if self.fail is not None:
            raise self.fail
        self.initialized = True

    def nodes(self) -> list[dict[str, Any]]:
        return [{"Alive": True}] * self.count + [{"Alive": False}]  # a dead node is not counted

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": float(self.cpus)}

    def get_runtime_context(self) -> Any:
        return SimpleNamespace(gcs_address="127.0.0.1:51234")

    def shutdown(self) -> None:
        self.initialized = False


@pytest.fixture
def fake_ray(monkeypatch: pytest.MonkeyPatch) -> FakeRay:
    fake = FakeRay()
    monkeypatch.setattr(backends, "_import_ray", lambda: fake)
    return fake


@pytest.fixture(autouse=True)
def no_cluster(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No RAY_ADDRESS, Ray's temporary folder (where ``ray start`` records its cluster) a
    fresh one, and token authentication left as Ray would find it unset."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # so nothing turns it on in this process
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
    (tmp_path / "ray").mkdir()
    return tmp_path / "ray" / "ray_current_cluster"


def free_port() -> int:
    """A port nothing listens on (as that of a cluster that died)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def listening() -> Iterator[str]:
    """An address where something accepts connections and never answers them."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        yield f"127.0.0.1:{server.getsockname()[1]}"


def test_the_address_flag_reaches_ray_init(fake_ray: FakeRay, capsys: pytest.CaptureFixture[str]) -> None:
    fake_ray.fail = RuntimeError("the test stops here")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RayBackend, "_check_cluster", lambda self, address: None)
        argv = [ANY_GAME, "--games", "10", "--backend", "ray", "--ray-address", "10.1.2.3:6379", "--no-progress"]
        assert study_main([*argv, "--ray-timeout", "5"]) == 2
    assert [call["address"] for call in fake_ray.calls] == ["10.1.2.3:6379"]
    error = capsys.readouterr().err
    assert error == (
        "cruiselib study: error: could not join the Ray cluster at 10.1.2.3:6379: RuntimeError: the test stops here\n"
    )


def test_ray_address_comes_from_the_environment_as_for_ray(fake_ray: FakeRay, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAY_ADDRESS", "10.9.8.7:6379")
    monkeypatch.setattr(RayBackend, "_check_cluster", lambda self, address: None)
    notes: list[str] = []
    RayBackend(notify=notes.append).connect()
    assert fake_ray.calls[0]["address"] == "10.9.8.7:6379"
    assert notes == ["joined the Ray cluster at 10.9.8.7:6379 (from RAY_ADDRESS): 1 node, 2 CPUs"]


def test_the_line_names_the_cluster_joined_its_nodes_and_cpus(
    fake_ray: FakeRay, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(RayBackend, "_check_cluster", lambda self, address: None)
    fake_ray.count, fake_ray.cpus = 3, 24
    notes: list[str] = []
    backend = RayBackend(address="head:6379", notify=notes.append)
    backend.connect()
    backend.connect()  # once
    assert notes == ["joined the Ray cluster at head:6379: 3 nodes, 24 CPUs"]
    fake_ray.initialized, fake_ray.cpus = False, 0
    RayBackend(address="head:6379", notify=notes.append).connect()
    assert notes[-1] == (
        "joined the Ray cluster at head:6379: 3 nodes, 0 CPUs; no CPU yet: its tasks wait for one (ray status)"
    )


def test_a_local_ray_is_named_too(fake_ray: FakeRay) -> None:
    notes: list[str] = []
    RayBackend(num_cpus=2, notify=notes.append).connect()
    assert fake_ray.calls[0]["address"] == "local" and fake_ray.calls[0]["num_cpus"] == 2
    assert notes == ["started a local Ray at 127.0.0.1:51234: 1 node, 2 CPUs (it ends with this run)"]


def test_without_notify_the_lines_are_logged(fake_ray: FakeRay, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("INFO", logger="cruiselib.arena"):
        RayBackend().connect()
    assert caplog.messages == ["started a local Ray at 127.0.0.1:51234: 1 node, 2 CPUs (it ends with this run)"]


def test_a_recorded_cluster_that_died_is_said_and_a_local_ray_started(fake_ray: FakeRay, no_cluster: Path) -> None:
    # What `ray start` leaves when its cluster is killed without `ray stop`: ray.init would
    # try to reach it for minutes (20 tries of 40 s each), the run waiting at 0 games.
    dead = f"127.0.0.1:{free_port()}"
    no_cluster.write_text(dead)
    notes: list[str] = []
    start = time.monotonic()
    RayBackend(notify=notes.append).connect()
    assert time.monotonic() - start < 5
    assert fake_ray.calls[0]["address"] == "local"
    assert notes == [
        f"the Ray cluster recorded at {dead} by `ray start` ({no_cluster}) does not answer (nothing listens there "
        "(connection refused)): starting a local Ray instead (`ray stop --force` forgets the record)",
        "started a local Ray at 127.0.0.1:51234: 1 node, 2 CPUs (it ends with this run)",
    ]


def test_auto_with_a_recorded_cluster_that_died_stops_at_once(no_cluster: Path) -> None:
    dead = f"127.0.0.1:{free_port()}"
    no_cluster.write_text(dead)
    start = time.monotonic()
    with pytest.raises(RayConnectionError) as raised:
        RayBackend(address="auto").connect()
    assert time.monotonic() - start < 5
    assert str(raised.value) == (
        f"could not join the Ray cluster at {dead} (recorded by `ray start` on this machine): nothing listens there "
        "(connection refused): is it running? (ray status)"
    )


def test_auto_without_a_recorded_cluster_says_so() -> None:
    with pytest.raises(RayConnectionError, match=r"^no Ray cluster to join: 'auto' is the cluster `ray start` started"):
        RayBackend(address="auto").connect()


def test_an_address_nothing_listens_on_is_said_at_once() -> None:
    address = f"127.0.0.1:{free_port()}"
    start = time.monotonic()
    with pytest.raises(RayConnectionError) as raised:
        RayBackend(address=address).connect()
    assert time.monotonic() - start < 5
    assert str(raised.value) == (
        f"could not join the Ray cluster at {address}: nothing listens there (connection refused): "
        "is it running? (ray status)"
    )


def test_a_cluster_that_does_not_answer_is_given_up_on_after_the_time_allowed(
    fake_ray: FakeRay, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As a GCS that accepts connections and never answers: each of ray.init's tries waits 40 s.
    monkeypatch.setattr(RayBackend, "_check_cluster", lambda self, address: time.sleep(30))
    start = time.monotonic()
    with pytest.raises(RayConnectionError) as raised:
        RayBackend(address="head:6379", join_timeout=0.5).connect()
    assert time.monotonic() - start < 3
    assert str(raised.value) == "could not join the Ray cluster at head:6379 within 0.5 s: is it running? (ray status)"
    assert not fake_ray.calls  # ray.init never began


@pytest.mark.parametrize("mode", ["disabled", "token"])
def test_an_authentication_failure_is_one_line_saying_what_to_do(
    listening: str, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    import ray._raylet
    from ray.exceptions import AuthenticationError

    def refuses(address: str) -> Any:  # what Ray 2.60's GCS client raises, at once
        raise AuthenticationError("RPC error: InvalidAuthToken: Authentication token is missing or incorrect")

    monkeypatch.setattr(ray._raylet, "GcsClient", refuses, raising=False)
    monkeypatch.setenv("RAY_AUTH_MODE", mode)
    with pytest.raises(RayConnectionError) as raised:
        RayBackend(address=listening).connect()
    message = str(raised.value)
    assert "\n" not in message
    if mode == "token":
        assert message.startswith(f"the Ray cluster at {listening} refused this machine's authentication token: ")
    else:
        assert message.startswith(f"the Ray cluster at {listening} wants an authentication token ")
        assert "set RAY_AUTH_MODE=token and give the cluster's token in ~/.ray/auth_token" in message


def test_bad_ray_options_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="join_timeout must be a positive number"):
        RayBackend(join_timeout=0)
    with pytest.raises(InvalidOptionError, match=r"for the ray backend \(--backend ray\)"):
        make_backend("local", ray_address="auto")
    backend = make_backend("ray", ray_address="head:6379", ray_timeout=5)
    assert isinstance(backend, RayBackend) and backend.address == "head:6379" and backend.join_timeout == 5


def test_workers_do_not_size_a_cluster(fake_ray: FakeRay, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAY_ADDRESS", "head:6379")
    with pytest.raises(InvalidOptionError, match=r"num_cpus \(--workers\) sizes a local Ray: the Ray cluster at head"):
        RayBackend(num_cpus=2).connect()
    assert not fake_ray.calls


# --- a real cluster --------------------------------------------------------------------------


RAY_START = (sys.executable, "-m", "ray.scripts.scripts", "start")
"""``ray start`` of this Python's Ray (its ``ray`` script may not be on PATH)."""


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "cruiselib", "study", ANY_GAME, "--games", "20", "--players", "2"]
    return subprocess.run(
        [*command, "--backend", "ray", "--no-progress", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_a_cluster_with_token_authentication() -> None:
    """``ray start --head`` with a token, as Ray 2.60 starts one where a token exists; a run
    naming its address without RAY_AUTH_MODE=token is told what to set, at once, and joins
    with it."""
    token = secrets.token_hex(16)
    port = free_port()
    # A Ray folder of the test's own (short: Ray's socket paths must fit), so that nothing
    # of another Ray on this machine is touched or recorded over.
    folder = tempfile.mkdtemp(prefix="rt", dir="/tmp" if os.path.isdir("/tmp") else None)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")} | {"RAY_TMPDIR": folder}
    head = subprocess.Popen(
        [*RAY_START, "--head", "--block", f"--port={port}", "--num-cpus=1", "--include-dashboard=false"],
        env=env | {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        address = f"127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while backends._refusal(address, 1.0) is not None:
            assert head.poll() is None and time.monotonic() < deadline, "ray start did not start"
            time.sleep(0.5)
        start = time.monotonic()
        refused = _cli(env | {"RAY_ADDRESS": address})
        assert refused.returncode == 2, refused.stderr
        assert time.monotonic() - start < 15  # not ray.init's 20 tries
        assert f"cruiselib study: error: the Ray cluster at {address} wants an authentication token " in refused.stderr
        assert "Traceback" not in refused.stderr
        joined = _cli(env | {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}, "--ray-address", address)
        assert joined.returncode == 0, joined.stderr
        assert f"joined the Ray cluster at {address}: 1 node, 1 CPU\n" in joined.stderr
    finally:
        head.send_signal(signal.SIGTERM)  # ray start --block ends the processes it started
        try:
            head.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
