"""The docs page's tensor tables list the core's declared tensor fields, in order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.dream_islands.helpers import game

DOCS = Path(__file__).resolve().parents[2] / "docs" / "dream_islands.md"


def tables() -> list[list[str]]:
    """The field names of each table in the "Observation tensor" section, in order."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Observation tensor", 1)[1].split("\n## ", 1)[0]
    found: list[list[str]] = []
    rows: list[str] = []
    for line in section.splitlines():
        row = re.match(r"\| `([a-z_]+)` \|", line)
        if row:
            rows.append(row.group(1))
        elif rows:
            found.append(rows)
            rows = []
    if rows:
        found.append(rows)
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_docs_tables_list_the_layout_fields_in_order(players: int) -> None:
    g = game(players)
    observation, added = tables()
    obs_layout = g.rules.observation_layout
    info_layout = g.rules.info_state_layout
    assert obs_layout is not None and info_layout is not None
    assert obs_layout.names() == observation
    assert info_layout.names() == observation + added
    assert list(g.observation_fields()) == observation
    assert list(g.information_state_fields()) == observation + added
