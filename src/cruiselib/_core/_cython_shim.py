"""Stand-in for the ``cython`` module when Cython is not installed.

The core modules are written in Cython's pure-Python mode. Compiled, ``cython.compiled``
is a compile-time ``True``; run as plain Python without Cython installed, this module
provides the names they use: ``compiled``, ``cast`` and the ``nogil``/``gil`` blocks.
"""

compiled = False


class _Block:
    """``with cython.nogil:`` / ``with cython.gil:``: nothing to release in plain Python."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False


nogil = _Block()
gil = _Block()


def cast(kind: object, value: object) -> object:
    """``cython.cast(T, x)``: a no-op in plain Python."""
    return value
