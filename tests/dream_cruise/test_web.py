"""Dream Cruise on the web page: its catalog names the cards of the game's card set."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette", reason="needs the 'web' extra: pip install 'cruiselib[web]'")

import cruiselib
from cruiselib.web import catalog

# A surface over the public API, as tests/test_web.py (-m "not surface" leaves it out).
pytestmark = pytest.mark.surface


def test_the_catalog_names_the_families() -> None:
    game: Any = cruiselib.make("dream_cruise")
    assert [f["name"] for f in catalog("dream_cruise")["families"]] == [f.name for f in game.cards.families]
