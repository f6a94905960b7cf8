"""The core's sizes the game package uses, read once from their one home, the ``cdef
enum`` of ``_core/atlantic_star.pxd`` (the core's constants, compiled or pure)."""

from __future__ import annotations

from cruiselib._core.constants import enum_constants

__all__ = ["AGENCY", "NAMT", "NKEEP", "NPP", "NSEA"]

# NSEA seas (A1); NKEEP voyage keep codes per sea and class; NAMT loan amounts 1,000 ..
# 10,000; NPP: plaque ids below it are seats' plaques; AGENCY charter agency spaces.
NSEA, NKEEP, NAMT, NPP, AGENCY = (
    enum_constants("atlantic_star")[name] for name in ("NSEA", "NKEEP", "NAMT", "NPP", "AGENCY")
)
