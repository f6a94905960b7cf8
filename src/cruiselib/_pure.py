"""The pure twin of a state class: the same class rebuilt over the pure-Python core
(what ``Game.pure_twin`` plays with)."""

from __future__ import annotations

import types

from cruiselib import _core

__all__ = ["pure_class"]


def pure_class(cls: type, done: dict[type, type]) -> type:
    """``cls`` rebuilt over the pure-Python core: every class of the compiled core in its
    ancestry is replaced by its pure twin, every Python class above it is made again with
    the same namespace (so any subclass of a state class has a twin too)."""
    if cls in done:
        return done[cls]
    module = cls.__module__
    if module.startswith(f"{_core.__name__}.") and not module.startswith(f"{_core.PURE_PACKAGE}."):
        twin: type = getattr(_core.pure_module(module.rsplit(".", 1)[1]), cls.__name__)
    elif cls is object or not any(base.__module__.startswith(f"{_core.__name__}.") for base in cls.__mro__):
        twin = cls  # a plain mixin such as State: shared as it is
    else:
        namespace = {
            k: v
            for k, v in vars(cls).items()
            if k not in ("__dict__", "__weakref__") and not isinstance(v, types.MemberDescriptorType)
        }
        twin = type(cls.__name__, tuple(pure_class(b, done) for b in cls.__bases__), namespace)
        twin.__qualname__ = cls.__qualname__
    done[cls] = twin
    return twin
