"""Dream Cruise: the tensors' one declaration (the core's ``observation_layout`` and
``info_state_layout``, ``_core/tensor_layout.py``) and its docs page list the same fields
in the same order, and the game's fields and bounds come from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cruiselib.dream_cruise import DreamCruiseGame

DOCS = Path(__file__).resolve().parents[2] / "docs" / "dream_cruise.md"
pytestmark = pytest.mark.skipif(not DOCS.is_file(), reason="needs docs/ (not among a wheel's test sources)")


def _tables(text: str) -> list[list[str]]:
    """The field names (first column, in backticks) of each table of the "Observation
    tensor" section, in order."""
    section = text.split("\n## Observation tensor\n", 1)[1].split("\n## ", 1)[0]
    tables: list[list[str]] = []
    inside = False
    for line in section.splitlines():
        row = re.match(r"^\| `([a-z_]+)` \|", line)
        if row:
            if not inside:
                tables.append([])
                inside = True
            tables[-1].append(row.group(1))
        elif not line.startswith("|"):
            inside = False
    return tables


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_docs_tables_list_the_layouts_fields_in_order(players: int) -> None:
    game = DreamCruiseGame(players)
    observation, information = _tables(DOCS.read_text(encoding="utf-8"))
    layout = game.rules.observation_layout
    info = game.rules.info_state_layout
    assert layout is not None and info is not None
    assert observation == layout.names()
    assert observation + information == info.names()


@pytest.mark.parametrize("players", [1, 4])
def test_the_fields_and_sizes_are_the_layouts(players: int) -> None:
    game = DreamCruiseGame(players, additions=3)
    layout = game.rules.observation_layout
    info = game.rules.info_state_layout
    assert layout is not None and info is not None
    assert game.observation_shape == (layout.size,)
    assert game.information_state_shape == (info.size,)
    assert list(game.observation_fields()) == layout.names()
    assert list(game.information_state_fields()) == info.names()
