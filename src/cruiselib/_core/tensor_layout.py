"""The one convention for a core's observation and information-state tensors.

A core declares its tensor once, as a sequence of :class:`TensorField` (name, shape, range,
what it encodes), when its rules object is built for one configuration. Everything else is
derived from that declaration:

* the offsets the core's writer uses (``layout.offset("hand")``, read once into C ints);
* the tensor's size (``layout.size``), which the writer checks where it ends
  (:meth:`TensorLayout.check_end`) and the contract's buffers are allocated with;
* ``game.observation_fields()`` and ``game.information_state_fields()`` (:meth:`parts`);
* ``game.observation_bounds()`` (:meth:`ranges`);
* the table of each game's docs page, which a test compares with :meth:`names`.

So adding a field is one line in one place. This module is plain Python (not compiled):
it runs once per configuration, never on the play path.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from types import MappingProxyType
from typing import NamedTuple, Union

Bound = Union[float, Sequence[float]]
"""One side of a field's range: a number for every entry, or one number per entry."""


class TensorField(NamedTuple):
    """One part of a tensor: ``shape`` entries (an int, or a tuple read row-major), each
    within ``[low, high]``; ``encodes`` says what they hold (the docs' words)."""

    name: str
    shape: int | tuple[int, ...]
    low: Bound
    high: Bound
    encodes: str = ""

    @property
    def size(self) -> int:
        """The number of entries (the product of the shape)."""
        if isinstance(self.shape, int):
            return self.shape
        return math.prod(self.shape)


class TensorLayout:
    """An ordered, immutable tuple of fields with their derived offsets and the total size."""

    __slots__ = ("_offsets", "fields", "size")

    def __init__(self, fields: Iterable[TensorField]) -> None:
        self.fields: tuple[TensorField, ...] = tuple(fields)
        offsets: dict[str, int] = {}
        at = 0
        for field in self.fields:
            if field.name in offsets:
                raise ValueError(f"tensor field {field.name!r} declared twice")
            if field.size < 0:
                raise ValueError(f"tensor field {field.name!r} has a negative size ({field.shape!r})")
            offsets[field.name] = at
            at += field.size
        self._offsets = MappingProxyType(offsets)
        self.size: int = at

    def offset(self, name: str) -> int:
        """Where field ``name`` starts (KeyError for a name the layout does not declare)."""
        return self._offsets[name]

    def names(self) -> list[str]:
        """The fields' names, in order."""
        return [field.name for field in self.fields]

    def parts(self) -> list[tuple[str, int]]:
        """``(name, size)`` of each field, in order (what ``observation_fields()`` slices)."""
        return [(field.name, field.size) for field in self.fields]

    def ranges(self) -> dict[str, tuple[Bound, Bound]]:
        """``{name: (low, high)}`` of every field (what ``observation_bounds()`` is built from)."""
        return {field.name: (field.low, field.high) for field in self.fields}

    def extended(self, *more: TensorField) -> TensorLayout:
        """This layout followed by ``more`` (an information-state tensor that is the
        observation plus what perfect recall adds)."""
        return TensorLayout((*self.fields, *more))

    def check_end(self, end: int) -> None:
        """Raise if a writer that wrote its last field up to ``end`` does not fill the
        tensor exactly: the layout and the writer disagree (a bug of the core, not input)."""
        if end != self.size:
            raise RuntimeError(f"tensor writer ends at {end}, its layout declares {self.size} entries")

    def __len__(self) -> int:
        return len(self.fields)

    def __repr__(self) -> str:
        return f"TensorLayout({len(self.fields)} fields, {self.size} entries)"
