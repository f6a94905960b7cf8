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


def pure_python_requested() -> bool:
    return os.environ.get("CRUISELIB_PURE_PYTHON", "").strip().lower() not in ("", "0", "false", "no")


def extensions() -> list:  # type: ignore[type-arg]
    if pure_python_requested():
        return []
    from Cython.Build import cythonize
    from setuptools import Extension

    modules = sorted(p.with_suffix(".py") for p in CORE.glob("*.pxd") if p.with_suffix(".py").exists())
    exts = [
        Extension(
            "cruiselib._core." + path.stem,
            [str(path)],
            extra_compile_args=[] if os.name == "nt" else ["-O3"],
        )
        for path in modules
    ]
    return cythonize(
        exts,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "initializedcheck": False,
            "cdivision": True,
            "infer_types": True,
            "embedsignature": True,
            "freethreading_compatible": True,
        },
        include_path=["src"],
    )


setup(ext_modules=extensions())
