"""Exceptions raised by cruiselib.

Every error derives from :class:`CruiseError`, which derives from :class:`ValueError`,
so ``except ValueError`` also catches them. A method that raises leaves the state it
was called on unchanged.
"""

from __future__ import annotations

__all__ = ["CruiseError", "IllegalMoveError", "InvalidOptionError", "InvalidStateError", "SearchCancelled"]


class CruiseError(ValueError):
    """Base class of every cruiselib error."""


class IllegalMoveError(CruiseError):
    """An action or move that is not legal in the current state (or not for this seat)."""


class InvalidStateError(CruiseError):
    """A serialized state that cannot be loaded: malformed, truncated, tampered or foreign."""


class InvalidOptionError(CruiseError):
    """A game option, seat index or argument that is out of range or unknown."""


class SearchCancelled(CruiseError):
    """A search stopped before its budget ran out because its ``cancel`` event was set
    (``bot.choose(state, cancel=event)``); the state it searched is unchanged."""
