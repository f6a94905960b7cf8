"""Build the compiled core.

Every module under ``src/cruiselib/_core`` that has a ``.pxd`` beside it is plain
Python (Cython pure-Python mode) and is compiled here. Set the environment variable
``CRUISELIB_PURE_PYTHON=1`` to skip compiling: the same sources then install as a
pure-Python package (``py3-none-any`` wheel), slower but identical in behaviour.
``CRUISELIB_CHECKED_BUILD=1`` compiles with bounds checks and the C bounds sanitizer
(docs/packaging.md, "The checked build"). ``CRUISELIB_BUILD_ONLY=sirens,sirens_snapshot``
(names of core modules, comma-separated) rebuilds only those, for work on one core with
``build_ext --inplace``: the others' extension modules are left as they are.

A second install of the same checkout reuses the first one's work: the C that Cython
generated is kept while its inputs are unchanged (``fresh_c_file``), so setuptools finds
the extension modules under ``build/`` up to date and compiles nothing again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

CORE = Path("src") / "cruiselib" / "_core"
# Everything a checked build makes lives here (its C files, objects and extension modules),
# so a normal build never reuses a checked build's output, nor the other way round.
CHECKED_BUILD_BASE = Path("build") / "checked"
# One record per generated C file: the digest of its inputs and of the C itself.
STAMPS = "cython-stamps"


def _switch(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def pure_python_requested() -> bool:
    return _switch("CRUISELIB_PURE_PYTHON")


def checked_build_requested() -> bool:
    return _switch("CRUISELIB_CHECKED_BUILD")


# -fno-sanitize-recover makes the first out-of-bounds index fatal (a test cannot miss it).
SANITIZE = ["-fsanitize=bounds", "-fno-sanitize-recover=bounds"]


def core_modules(core: Path = CORE) -> list[Path]:
    """The core's compiled modules: each ``.py`` with a ``.pxd`` beside it, sorted (only
    those ``CRUISELIB_BUILD_ONLY`` names, where it is set)."""
    modules = sorted(p.with_suffix(".py") for p in core.glob("*.pxd") if p.with_suffix(".py").exists())
    only = {name.strip() for name in os.environ.get("CRUISELIB_BUILD_ONLY", "").split(",") if name.strip()}
    if only:
        unknown = only - {p.stem for p in modules}
        if unknown:
            raise SystemExit(f"CRUISELIB_BUILD_ONLY names no core module: {', '.join(sorted(unknown))}")
        modules = [p for p in modules if p.stem in only]
    return modules


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def input_digest(source: Path, settings: str) -> str:
    """What the C generated from ``source`` depends on, as one digest.

    The module's own ``.py`` and every ``.pxd`` (or ``.pxi``) of its directory, by content,
    and ``settings`` (the Cython version and directives). Every ``.pxd`` counts, not only
    the ones ``source`` cimports: a superset is safe and needs no parsing. File contents,
    never timestamps: Cython's own ``.pxd`` files (``libc.string``) are unpacked afresh into
    every isolated build environment, so judged by time they always look newer than the C,
    and every install would regenerate all of it and compile it again.
    """
    digest = hashlib.sha256(settings.encode())
    shared = sorted([*source.parent.glob("*.pxd"), *source.parent.glob("*.pxi")])
    for path in [source, *shared]:
        digest.update(path.name.encode() + b"\0" + _digest(path.read_bytes()).encode())
    return digest.hexdigest()


def _stamp_path(stamp_dir: Path, source: Path) -> Path:
    return stamp_dir / (source.stem + ".json")


def fresh_c_file(source: Path, c_file: Path, stamp_dir: Path, settings: str) -> bool:
    """True if ``c_file`` is what Cython generated from ``source`` as it is now.

    The record says which inputs made that C file and what it held; a C file changed or
    written by anyone else since then (even with the same inputs) does not count.
    """
    try:
        stamp = json.loads(_stamp_path(stamp_dir, source).read_text(encoding="utf-8"))
        c_text = c_file.read_bytes()
    except (OSError, ValueError):
        return False
    return (
        isinstance(stamp, dict)
        and stamp.get("inputs") == input_digest(source, settings)
        and stamp.get("c") == _digest(c_text)
    )


def record_c_file(source: Path, c_file: Path, stamp_dir: Path, settings: str) -> None:
    """Remember that ``c_file`` was just generated from ``source`` with ``settings``."""
    stamp_dir.mkdir(parents=True, exist_ok=True)
    stamp = {"inputs": input_digest(source, settings), "c": _digest(c_file.read_bytes())}
    _stamp_path(stamp_dir, source).write_text(json.dumps(stamp) + "\n", encoding="utf-8")


def split_fresh(
    sources: Sequence[Path], c_file_of: Callable[[Path], Path], stamp_dir: Path, settings: str
) -> tuple[list[Path], list[Path]]:
    """``(fresh, stale)``: the sources whose C is up to date, and those to cythonize."""
    fresh = [s for s in sources if fresh_c_file(s, c_file_of(s), stamp_dir, settings)]
    return fresh, [s for s in sources if s not in fresh]


def extensions() -> list[Any]:
    """The core's extension modules, cythonized where their C is not up to date."""
    if pure_python_requested():
        return []
    from importlib.metadata import version

    from Cython.Build import cythonize
    from setuptools import Extension  # type: ignore[import-untyped,unused-ignore]

    checked = checked_build_requested()
    if checked and os.name == "nt":
        raise SystemExit("CRUISELIB_CHECKED_BUILD needs GCC or Clang (-fsanitize=bounds)")
    if os.name == "nt":
        compile_args: list[str] = []
        link_args: list[str] = []
    elif checked:
        compile_args, link_args = ["-O1", "-g", "-fno-omit-frame-pointer", *SANITIZE], SANITIZE
    else:
        compile_args, link_args = ["-O3"], []
    directives = {
        "boundscheck": checked,
        "wraparound": checked,
        "initializedcheck": checked,
        "cdivision": True,
        "infer_types": True,
        "embedsignature": True,
        "freethreading_compatible": True,
    }
    # A checked build writes its C files elsewhere, so neither build reuses the other's.
    c_dir = CHECKED_BUILD_BASE if checked else None
    stamp_dir = (CHECKED_BUILD_BASE if checked else Path("build")) / STAMPS
    settings = json.dumps({"cython": version("Cython"), "language_level": 3, "directives": directives})

    def c_file_of(source: Path) -> Path:
        return (c_dir / source if c_dir else source).with_suffix(".c")

    def extension(name: str, source: Path) -> Any:
        return Extension(name, [str(source)], extra_compile_args=compile_args, extra_link_args=link_args)

    fresh, stale = split_fresh(core_modules(), c_file_of, stamp_dir, settings)
    if fresh:
        print("cruiselib: C up to date with its sources, not regenerated:", " ".join(s.stem for s in fresh))
    built = (
        cythonize(  # type: ignore[no-untyped-call]
            [extension("cruiselib._core." + s.stem, s) for s in stale],
            nthreads=os.cpu_count() or 1,  # translate the modules in parallel too
            language_level=3,
            build_dir=str(c_dir) if c_dir else None,
            force=True,  # split_fresh has judged them stale (by content, not by time)
            compiler_directives=directives,
            include_path=["src"],
        )
        if stale
        else []
    )
    for source in stale:
        record_c_file(source, c_file_of(source), stamp_dir, settings)
    reused = [extension("cruiselib._core." + s.stem, c_file_of(s)) for s in fresh]
    return sorted([*built, *reused], key=lambda ext: str(ext.name))


def build_options(checked: bool) -> dict[str, dict[str, Any]]:
    """The ``setup(options=...)`` of a normal or a checked build."""
    # The extensions compile one per core at once (each core module is a large C file).
    options: dict[str, dict[str, Any]] = {"build_ext": {"parallel": os.cpu_count() or 1}}
    if checked:
        options["build"] = {"build_base": str(CHECKED_BUILD_BASE)}
    return options


if __name__ == "__main__":  # setuptools runs this file as __main__; tests import its helpers
    from setuptools import setup  # type: ignore[import-untyped,unused-ignore]

    setup(ext_modules=extensions(), options=build_options(checked_build_requested()))
