"""The integer constants of the cores: their one home is the ``cdef enum`` blocks of each
core's ``.pxd`` (compile-time constants, so C arrays can be sized by them). The pure-Python
mode of a core and the Python wrappers read the same values from there.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from types import MappingProxyType

__all__ = ["enum_constants", "reason_table"]

_ENTRY = re.compile(r"^\s+([A-Z][A-Z0-9_]*)\s*=\s*(-?\d+)\s*(?:#.*)?$")


@cache
def enum_constants(core: str) -> MappingProxyType[str, int]:
    """Every ``NAME = value`` of the ``cdef enum`` blocks in ``_core/<core>.pxd``."""
    path = Path(__file__).with_name(f"{core}.pxd")
    values: dict[str, int] = {}
    inside = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("cdef enum"):
            inside = True
            continue
        if not inside or not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            inside = False
            continue
        entry = _ENTRY.match(line)
        if entry is None:  # a malformed enum line would silently lose a constant
            raise ValueError(f"{path.name}: cannot read the enum line {line.strip()!r}")
        values[entry.group(1)] = int(entry.group(2))
    return MappingProxyType(values)


def reason_table(reasons: dict[int, str]) -> tuple[str, ...]:
    """A core's ``REASONS``: the text of each reason code (the ``R_*`` names of its ``.pxd``
    enum, ``c_check``'s results) at its index. A code left out or doubled is an error here,
    so the texts and the codes cannot drift apart."""
    table = tuple(reasons.get(code, "") for code in range(len(reasons)))
    if sorted(reasons) != list(range(len(reasons))) or not all(table):
        raise ValueError(f"reason codes must be 0 .. n-1, each with a text: {sorted(reasons)}")
    return table
