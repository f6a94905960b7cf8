"""The compiled core: one module per game plus shared kernels.

Each module is plain Python written for Cython's pure-Python mode (types live in the
``.pxd`` beside it). A normal install compiles them; the same sources run unchanged as
Python. Setting the environment variable ``CRUISELIB_PURE_PYTHON=1`` before importing
cruiselib loads the Python sources even where compiled modules are installed (the test
suite runs in both modes this way).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import os
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

__all__ = ["MODULES", "PURE_PACKAGE", "compiled", "load", "pure_module", "pure_python_requested"]

# The shared kernels every game core cimports, in dependency order, and the tools built on
# the engine alone, for every game (the search, the batch environments).
KERNELS = ("rng", "common", "engine")
ENGINE_TOOLS = ("ismcts", "batch")


def _game_cores() -> tuple[str, ...]:
    """The game cores: every other module compiled from a ``.py`` with a ``.pxd`` beside it
    (as setup.py compiles them), so a new game's core needs no edit here."""
    here = Path(__file__).parent
    found = {p.stem for p in here.glob("*.pxd") if p.with_suffix(".py").exists()}
    return tuple(sorted(found - set(KERNELS) - set(ENGINE_TOOLS)))


# Dependency order: a module is loaded after the modules it cimports.
MODULES = (*KERNELS, *_game_cores(), *ENGINE_TOOLS)


def pure_python_requested() -> bool:
    """Whether ``CRUISELIB_PURE_PYTHON`` asks for the Python sources."""
    value = os.environ.get("CRUISELIB_PURE_PYTHON", "").strip().lower()
    return value not in ("", "0", "false", "no")


def _load_source(name: str) -> ModuleType:
    full = f"{__name__}.{name}"
    path = Path(__file__).with_name(name + ".py")
    spec = importlib.util.spec_from_file_location(full, path)
    if spec is None or spec.loader is None:  # pragma: no cover - the file ships with the package
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[full] = module
    spec.loader.exec_module(module)
    return module


def load(name: str) -> ModuleType:
    """Import core module ``name``, honouring the pure-Python switch."""
    full = f"{__name__}.{name}"
    if full in sys.modules:
        return sys.modules[full]
    if _PURE:
        return _load_source(name)
    return importlib.import_module(full)


_PURE = pure_python_requested()
if _PURE:
    for _name in MODULES:
        _load_source(_name)


# The pure twins live in a package of their own, ``cruiselib._core._pure``, whose modules
# are always loaded from the Python sources. The cores import each other relatively
# (``from .engine import ...``), so a pure copy's imports resolve to pure copies by
# themselves: no module of the compiled package is replaced, even for a moment.
PURE_PACKAGE = f"{__name__}._pure"


class _PureSourceFinder(importlib.abc.MetaPathFinder):
    """Finds ``cruiselib._core._pure.<name>`` as the source ``cruiselib/_core/<name>.py``."""

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if fullname == PURE_PACKAGE:
            spec = ModuleSpec(fullname, None, is_package=True)
            spec.submodule_search_locations = []
            return spec
        package, _, name = fullname.rpartition(".")
        if package != PURE_PACKAGE or name not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, Path(__file__).with_name(name + ".py"))


_FINDER = _PureSourceFinder()


def pure_module(name: str) -> ModuleType:
    """Core module ``name`` run from its Python source, beside the compiled one.

    Loaded as ``cruiselib._core._pure.<name>`` (with pure copies of the core modules it
    imports), so compiled and pure code can be measured side by side in one process. With
    the pure-Python switch on, this is ``load(name)``.
    """
    if _PURE:
        return load(name)
    if name not in MODULES:
        raise ImportError(f"no core module {name!r}")
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    return importlib.import_module(f"{PURE_PACKAGE}.{name}")


def _is_compiled(module: ModuleType) -> bool:
    return not str(getattr(module, "__file__", "")).endswith(".py")


compiled: bool = all(_is_compiled(load(name)) for name in MODULES)
