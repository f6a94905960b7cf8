"""Exceptions raised by cruiselib.

Every error derives from :class:`CruiseError`, which derives from :class:`ValueError`,
so ``except ValueError`` also catches them. A method that raises leaves the state it
was called on unchanged.
"""

from __future__ import annotations

__all__ = [
    "CruiseError",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidStateError",
    "SearchCancelled",
]


class CruiseError(ValueError):
    """Base class of every cruiselib error."""


class IllegalMoveError(CruiseError):
    """An action or move that is not legal in the current state (or not for this seat)."""


class InvalidStateError(CruiseError):
    """A serialized state that cannot be loaded: malformed, truncated, tampered or foreign."""


class InvalidPositionError(InvalidStateError):
    """A described position that cannot be set up (``game.from_position``): ``problems``
    names every problem found, each in the game's own terms, and nothing was built."""

    def __init__(self, problems: list[str] | tuple[str, ...], title: str = "position") -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        count = len(self.problems)
        super().__init__(f"cannot set up this {title}: {count} problem{'s' if count != 1 else ''}\n{lines}")


class InvalidOptionError(CruiseError):
    """A game option, seat index or argument that is out of range or unknown."""


class SearchCancelled(CruiseError):
    """A search stopped before its budget ran out because its ``cancel`` event was set
    (``bot.choose(state, cancel=event)``); the state it searched is unchanged."""
