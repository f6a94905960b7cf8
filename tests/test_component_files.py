"""Component files named by a path (Sirens and Dream Cruise card sets, Atlantic Star ship lists).

A path option can come from a game string someone else wrote, so every game reads it through
:func:`cruiselib._files.read_component_file`: only a regular file of at most 1 MiB, with an
open that cannot wait for a FIFO's writer. Each check runs through each game's ``from_file``
and ``cruiselib.make``; the OpenSpiel adapter passes the same paths through.

Tests that hand over a device first check that a file one byte over the limit is refused, so
that code reading a whole file fails there instead of reading ``/dev/zero`` until memory runs out.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import cruiselib
from cruiselib import _files
from cruiselib._files import MAX_COMPONENT_FILE_BYTES, read_component_file
from cruiselib.errors import InvalidOptionError
from tests.support import component_options

DEV_ZERO = Path("/dev/zero")


@dataclass(frozen=True)
class Component:
    """A game's component file: the option that names it and how it is loaded."""

    game: str
    option: str
    what: str  # as error messages name it
    limit: int  # the game's documented constant
    from_file: Callable[[Any], Any]
    standard_json: bytes

    def make(self, path: object) -> Any:
        return cruiselib.make(self.game, **{self.option: path})


def _component(game: str, option: str, cls: type) -> Component:
    """The component ``cls`` that option ``option`` of ``game`` takes: its messages name it
    by its class name in words (``ShipList``: "ship list"), and its module documents its
    size limit as ``MAX_..._FILE_BYTES``."""
    module = sys.modules[cls.__module__]
    limits = [getattr(module, n) for n in module.__all__ if n.startswith("MAX_") and n.endswith("_FILE_BYTES")]
    assert len(limits) == 1, f"{module.__name__} documents one MAX_..._FILE_BYTES"
    what = re.sub(r"(?<!^)(?=[A-Z])", " ", cls.__name__).lower()
    standard: Any = cls.standard()  # type: ignore[attr-defined]
    return Component(game, option, what, limits[0], cls.from_file, standard.to_json())  # type: ignore[attr-defined]


COMPONENTS = [_component(game, option, cls) for game, option, cls in component_options()]
"""Every registered game's component files."""


def test_component_files_are_found() -> None:
    # Every test below runs once per component found: finding none would pass them all.
    assert COMPONENTS


@pytest.fixture(params=COMPONENTS, ids=[f"{c.game}-{c.option}" for c in COMPONENTS])
def component(request: pytest.FixtureRequest) -> Component:
    c: Component = request.param
    return c


def padded(c: Component, path: Path, size: int) -> Path:
    """The standard set, padded with spaces (still valid JSON) to ``size`` bytes."""
    path.write_bytes(c.standard_json + b" " * (size - len(c.standard_json)))
    return path


def over_limit_message(c: Component) -> str:
    return rf"{c.limit + 1:,} bytes, more than a {c.what} may \({c.limit:,}\)"


def assert_reads_are_bounded(c: Component, tmp_path: Path, load: Callable[[Path], object]) -> None:
    """A file one byte over the limit is refused: reading it whole would load it (it is
    valid), so ``load`` checks the size before it reads, and a device cannot exhaust memory."""
    with pytest.raises(InvalidOptionError, match=over_limit_message(c)):
        load(padded(c, tmp_path / "over.json", c.limit + 1))


@contextmanager
def writer_for(fifo: Path) -> Iterator[None]:
    """Should anything open ``fifo`` for reading with a plain (blocking) open, become its
    writer for a moment, so that the open returns and a failing test ends instead of hanging."""
    done = threading.Event()

    def unblock() -> None:
        deadline = time.monotonic() + 10
        while not done.is_set() and time.monotonic() < deadline:
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                return
            except OSError:  # no reader yet
                time.sleep(0.01)

    helper = threading.Thread(target=unblock, daemon=True)
    helper.start()
    try:
        yield
    finally:
        done.set()
        helper.join()


# ---------------------------------------------------------------- each game's path option


def test_each_game_documents_the_shared_limit(component: Component) -> None:
    assert component.limit == MAX_COMPONENT_FILE_BYTES == 1 << 20
    assert len(component.standard_json) < component.limit // 10  # far above any real set


def test_a_file_one_byte_over_the_limit_is_refused(component: Component, tmp_path: Path) -> None:
    assert_reads_are_bounded(component, tmp_path, component.from_file)
    assert_reads_are_bounded(component, tmp_path, component.make)


def test_a_file_exactly_at_the_limit_loads(component: Component, tmp_path: Path) -> None:
    path = padded(component, tmp_path / "at_limit.json", component.limit)
    assert path.stat().st_size == component.limit
    assert component.from_file(path).to_json() == component.standard_json
    assert component.from_file(str(path)).to_json() == component.standard_json
    component.make(str(path))


def test_a_file_at_the_limit_fails_only_on_its_content(component: Component, tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_bytes(b"[" * component.limit)
    with pytest.raises(InvalidOptionError, match=f"invalid {component.what}"):
        component.from_file(path)


@pytest.mark.skipif(not DEV_ZERO.exists(), reason="no /dev/zero here")
def test_a_device_is_refused_before_it_is_read(component: Component, tmp_path: Path) -> None:
    assert_reads_are_bounded(component, tmp_path, component.make)
    message = f"cannot read {component.what} '/dev/zero': it is a device, not a regular file"
    with pytest.raises(InvalidOptionError, match=message):
        component.from_file(DEV_ZERO)
    with pytest.raises(InvalidOptionError, match=message):
        component.make("/dev/zero")


def test_a_directory_is_refused(component: Component, tmp_path: Path) -> None:
    with pytest.raises(InvalidOptionError, match="it is a directory, not a regular file"):
        component.from_file(tmp_path)
    with pytest.raises(InvalidOptionError, match="it is a directory, not a regular file"):
        component.make(str(tmp_path))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting_for_a_writer(component: Component, tmp_path: Path) -> None:
    fifo = tmp_path / "component.json"
    os.mkfifo(fifo)
    with writer_for(fifo), pytest.raises(InvalidOptionError, match="it is a FIFO, not a regular file"):
        component.make(fifo)
    with writer_for(fifo), pytest.raises(InvalidOptionError, match="it is a FIFO, not a regular file"):
        component.from_file(str(fifo))


@pytest.mark.parametrize("path", ["cards\x00.json", "\ud800.json"], ids=["nul", "lone_surrogate"])
def test_a_path_that_names_no_file_is_an_invalid_option(component: Component, path: str) -> None:
    with pytest.raises(InvalidOptionError, match=f"cannot read {component.what}"):
        component.from_file(path)
    with pytest.raises(InvalidOptionError, match=f"cannot read {component.what}"):
        component.make(path)


def test_a_missing_file_or_a_path_of_another_type_is_an_invalid_option(component: Component, tmp_path: Path) -> None:
    with pytest.raises(InvalidOptionError, match=f"cannot read {component.what} .*nope.json"):
        component.make(str(tmp_path / "nope.json"))
    with pytest.raises(InvalidOptionError, match=f"a {component.what}'s path is a str or a Path, not int"):
        component.from_file(42)


# ---------------------------------------------------------------- the OpenSpiel adapter


@pytest.mark.skipif(not DEV_ZERO.exists(), reason="no /dev/zero here")
def test_openspiel_passes_a_device_on_and_it_is_refused(component: Component, tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from cruiselib import openspiel as cos

    def load(path: Path | str) -> object:
        return cos.load_game(component.game, **{component.option: str(path)})

    assert_reads_are_bounded(component, tmp_path, load)
    with pytest.raises(InvalidOptionError, match="it is a device, not a regular file"):
        load("/dev/zero")
    with pytest.raises(InvalidOptionError, match="it is a device, not a regular file"):
        pyspiel.load_game(f"cruiselib_{component.game}({component.option}=/dev/zero)")


# ---------------------------------------------------------------- the shared reader itself


class PatchedOs:
    """The ``os`` module as the reader sees it, with some functions replaced (the real module,
    which pytest itself uses, stays as it is)."""

    def __init__(self, **replaced: Any) -> None:
        self.__dict__.update(replaced)

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)


def test_the_reader_returns_a_file_of_up_to_limit_bytes(tmp_path: Path) -> None:
    path = tmp_path / "f"
    for data in (b"", b"x", b"0123456789"):
        path.write_bytes(data)
        assert read_component_file(path, what="thing", limit=10) == data
    path.write_bytes(b"0123456789a")
    with pytest.raises(
        InvalidOptionError, match=r"cannot read thing '.*f': the file has 11 bytes, more than a thing may \(10\)"
    ):
        read_component_file(str(path), what="thing", limit=10)


def test_the_open_descriptor_is_checked_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The path may name another file after the first check: the descriptor's own fstat decides."""
    small = tmp_path / "small"
    small.write_bytes(b"x")
    small_info = os.stat(small)
    monkeypatch.setattr(_files, "os", PatchedOs(stat=lambda path: small_info))  # the first check passes
    with pytest.raises(InvalidOptionError, match="it is a directory, not a regular file"):
        read_component_file(tmp_path, what="thing", limit=10)
    big = tmp_path / "big"
    big.write_bytes(b"x" * 11)
    with pytest.raises(InvalidOptionError, match="the file has 11 bytes, more than a thing may"):
        read_component_file(big, what="thing", limit=10)


def test_a_file_that_grows_after_the_checks_is_read_only_one_byte_past_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grown = tmp_path / "grown"
    grown.write_bytes(b"x" * 1000)
    small = tmp_path / "small"
    small.write_bytes(b"x")
    small_info = os.stat(small)
    reads: list[int] = []
    real_fdopen = os.fdopen

    class CountingFile:
        def __init__(self, file: Any) -> None:
            self.file = file

        def __enter__(self) -> CountingFile:
            return self

        def __exit__(self, *exc: object) -> None:
            self.file.close()

        def read(self, size: int) -> bytes:
            data: bytes = self.file.read(size)
            reads.append(len(data))
            return data

    fake_os = PatchedOs(
        stat=lambda path: small_info,
        fstat=lambda fd: small_info,  # both checks see 1 byte
        fdopen=lambda *a, **k: CountingFile(real_fdopen(*a, **k)),
    )
    monkeypatch.setattr(_files, "os", fake_os)
    with pytest.raises(InvalidOptionError, match="the file has more than 10 bytes, more than a thing may"):
        read_component_file(grown, what="thing", limit=10)
    assert sum(reads) == 11
