"""Build the compiled core.

Every module under ``src/cruiselib/_core`` that has a ``.pxd`` beside it is plain
Python (Cython pure-Python mode) and is compiled here. Set the environment variable
``CRUISELIB_PURE_PYTHON=1`` to skip compiling: the same sources then install as a
pure-Python package (``py3-none-any`` wheel), slower but identical in behaviour.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

CORE = Path("src") / "cruiselib" / "_core"


def _switch(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def pure_python_requested() -> bool:
    return _switch("CRUISELIB_PURE_PYTHON")


def checked_build_requested() -> bool:
    return _switch("CRUISELIB_CHECKED_BUILD")


# -fno-sanitize-recover makes the first out-of-bounds index fatal (a test cannot miss it).
SANITIZE = ["-fsanitize=bounds", "-fno-sanitize-recover=bounds"]


def extensions() -> list:  # type: ignore[type-arg]
    if pure_python_requested():
        return []
    from Cython.Build import cythonize
    from setuptools import Extension

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
    modules = sorted(p.with_suffix(".py") for p in CORE.glob("*.pxd") if p.with_suffix(".py").exists())
    exts = [
        Extension(
            "cruiselib._core." + path.stem,
            [str(path)],
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        )
        for path in modules
    ]
    return cythonize(
        exts,
        nthreads=os.cpu_count() or 1,  # translate the modules in parallel too
        language_level=3,
        # A checked build writes its C files elsewhere, so it never reuses a normal
        # build's (cythonize skips sources whose C file looks up to date).
        build_dir="build/checked" if checked else None,
        compiler_directives={
            "boundscheck": checked,
            "wraparound": checked,
            "initializedcheck": checked,
            "cdivision": True,
            "infer_types": True,
            "embedsignature": True,
            "freethreading_compatible": True,
        },
        include_path=["src"],
    )


# The extensions compile one per core at once (each core module is a large C file).
setup(ext_modules=extensions(), options={"build_ext": {"parallel": os.cpu_count() or 1}})
