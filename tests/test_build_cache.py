"""setup.py reuses the generated C of an unchanged source, judged by content, not by time.

pip builds each install in a fresh isolated environment, which unpacks Cython's own ``.pxd``
files (``libc.string``) anew: judged by timestamps, every generated C file looked older
than its dependencies, so every install regenerated all of it and compiled the whole core
again. These tests run setup.py's helpers on a small core of their own in a temporary
directory; they need the source checkout (an installed wheel's test run has no setup.py).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest

SETUP_PY = Path(__file__).resolve().parents[1] / "setup.py"
if not SETUP_PY.exists():
    pytest.skip("setup.py is only in a source checkout", allow_module_level=True)

SETTINGS = '{"cython": "3.1.0"}'


@pytest.fixture(scope="module")
def setup_py() -> ModuleType:
    """setup.py as a module: imported under another name, it defines its helpers only."""
    spec = importlib.util.spec_from_file_location("cruiselib_setup_under_test", SETUP_PY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write_core(core: Path) -> None:
    core.mkdir(parents=True)
    (core / "tiny.py").write_text("def twice(x):\n    return 2 * x\n", encoding="utf-8")
    (core / "tiny.pxd").write_text("cpdef long twice(long x)\n", encoding="utf-8")
    (core / "other.py").write_text("def one():\n    return 1\n", encoding="utf-8")
    (core / "other.pxd").write_text("cpdef long one()\n", encoding="utf-8")
    (core / "plain.py").write_text("NAME = 'not compiled: no .pxd'\n", encoding="utf-8")


def _generate(setup_py: ModuleType, core: Path, stamps: Path, settings: str = SETTINGS) -> None:
    """Stand in for Cython: write every module's C and record it, as extensions() does."""
    for source in setup_py.core_modules(core):
        source.with_suffix(".c").write_text(f"/* from {source.read_text(encoding='utf-8')} */", encoding="utf-8")
        setup_py.record_c_file(source, source.with_suffix(".c"), stamps, settings)


def _stale(setup_py: ModuleType, core: Path, stamps: Path, settings: str = SETTINGS) -> list[str]:
    fresh, stale = setup_py.split_fresh(setup_py.core_modules(core), lambda s: s.with_suffix(".c"), stamps, settings)
    assert sorted(fresh + stale) == setup_py.core_modules(core)
    return [s.stem for s in stale]


def test_compiled_modules_are_those_with_a_pxd(setup_py: ModuleType, tmp_path: Path) -> None:
    _write_core(tmp_path / "core")
    assert [p.name for p in setup_py.core_modules(tmp_path / "core")] == ["other.py", "tiny.py"]


def test_unchanged_sources_reuse_their_c_even_when_newer(setup_py: ModuleType, tmp_path: Path) -> None:
    core, stamps = tmp_path / "core", tmp_path / "stamps"
    _write_core(core)
    assert _stale(setup_py, core, stamps) == ["other", "tiny"]  # nothing generated yet
    _generate(setup_py, core, stamps)
    assert _stale(setup_py, core, stamps) == []
    # Newer files with the same content, as in a fresh build environment: still up to date.
    future = core.stat().st_mtime + 3600
    for path in core.iterdir():
        os.utime(path, (future, future))
    assert _stale(setup_py, core, stamps) == []


def test_a_changed_source_regenerates_only_its_module(setup_py: ModuleType, tmp_path: Path) -> None:
    core, stamps = tmp_path / "core", tmp_path / "stamps"
    _write_core(core)
    _generate(setup_py, core, stamps)
    (core / "tiny.py").write_text("def twice(x):\n    return x + x\n", encoding="utf-8")
    assert _stale(setup_py, core, stamps) == ["tiny"]


def test_a_changed_pxd_regenerates_every_module(setup_py: ModuleType, tmp_path: Path) -> None:
    core, stamps = tmp_path / "core", tmp_path / "stamps"
    _write_core(core)
    _generate(setup_py, core, stamps)
    # Any module may cimport it: every module counts as depending on every .pxd.
    (core / "other.pxd").write_text("cpdef long one()\ncdef long two()\n", encoding="utf-8")
    assert _stale(setup_py, core, stamps) == ["other", "tiny"]


def test_other_cython_settings_regenerate(setup_py: ModuleType, tmp_path: Path) -> None:
    core, stamps = tmp_path / "core", tmp_path / "stamps"
    _write_core(core)
    _generate(setup_py, core, stamps)
    assert _stale(setup_py, core, stamps, settings='{"cython": "3.2.0"}') == ["other", "tiny"]


def test_a_c_file_changed_missing_or_unrecorded_is_regenerated(setup_py: ModuleType, tmp_path: Path) -> None:
    core, stamps = tmp_path / "core", tmp_path / "stamps"
    _write_core(core)
    _generate(setup_py, core, stamps)
    (core / "tiny.c").write_text("/* written by someone else */", encoding="utf-8")
    (core / "other.c").unlink()
    assert _stale(setup_py, core, stamps) == ["other", "tiny"]
    _generate(setup_py, core, stamps)
    (stamps / "tiny.json").write_text("not json", encoding="utf-8")
    assert _stale(setup_py, core, stamps) == ["tiny"]


def test_a_checked_build_has_a_build_directory_of_its_own(setup_py: ModuleType) -> None:
    # Otherwise setuptools would find the other build's extension modules up to date.
    assert setup_py.build_options(checked=True)["build"] == {"build_base": str(Path("build") / "checked")}
    assert "build" not in setup_py.build_options(checked=False)


def test_pure_python_build_compiles_nothing(
    setup_py: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CRUISELIB_PURE_PYTHON", "1")
    _write_core(tmp_path / "src" / "cruiselib" / "_core")
    assert setup_py.extensions() == []
    assert not list(tmp_path.rglob("*.c"))


def test_extensions_cythonize_once_per_content(
    setup_py: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With Cython itself: the second run leaves the C untouched, a changed source redoes it."""
    pytest.importorskip("Cython")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CRUISELIB_PURE_PYTHON", raising=False)
    monkeypatch.delenv("CRUISELIB_CHECKED_BUILD", raising=False)
    core = Path("src") / "cruiselib" / "_core"
    _write_core(core)
    tiny_c = core / "tiny.c"

    extensions = setup_py.extensions()
    assert [(e.name, e.sources) for e in extensions] == [
        ("cruiselib._core.other", [str(core / "other.c")]),
        ("cruiselib._core.tiny", [str(tiny_c)]),
    ]
    generated = tiny_c.stat().st_mtime_ns
    future = tiny_c.stat().st_mtime + 3600
    os.utime(core / "tiny.pxd", (future, future))  # newer, same content
    again = setup_py.extensions()
    assert [(e.name, e.sources) for e in again] == [(e.name, e.sources) for e in extensions]
    assert tiny_c.stat().st_mtime_ns == generated

    (core / "tiny.py").write_text("def twice(x):\n    return x + x\n", encoding="utf-8")
    other_generated = (core / "other.c").stat().st_mtime_ns
    setup_py.extensions()
    assert "return x + x" in tiny_c.read_text(encoding="utf-8")
    assert (core / "other.c").stat().st_mtime_ns == other_generated

    # The checked build writes its C under build/checked and leaves the normal C alone.
    monkeypatch.setenv("CRUISELIB_CHECKED_BUILD", "1")
    normal_c = tiny_c.read_bytes()
    checked = setup_py.extensions()
    assert [e.sources for e in checked] == [
        [str(Path("build") / "checked" / core / "other.c")],
        [str(Path("build") / "checked" / core / "tiny.c")],
    ]
    assert tiny_c.read_bytes() == normal_c
