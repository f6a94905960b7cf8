"""Dream Islands on the web page: its catalog holds what its drawer reads (the missions,
the small islands' values, I1, I4)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="needs the 'web' extra: pip install 'cruiselib[web]'")

from cruiselib.web import catalog

# A surface over the public API, as tests/test_web.py (-m "not surface" leaves it out).
pytestmark = pytest.mark.surface


def test_the_catalog_names_the_missions_and_the_small_islands() -> None:
    islands = catalog("dream_islands")
    assert islands["players"] == [2, 4] and len(islands["missions"]) == 16
    assert islands["small_island_values"] == [3, 2, 2]  # I1
