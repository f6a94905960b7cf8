"""The tensors' layout is declared once, in the core (``_set_layout``): the docs page's
"Observation tensor" tables list its fields in order, and the game derives its fields and
bounds from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.atlantic_star.helpers import game

PAGE = Path(__file__).resolve().parents[2] / "docs" / "atlantic_star.md"


def _doc_tables() -> list[list[str]]:
    """The field names of each table of the page's "Observation tensor" section, in order."""
    section = PAGE.read_text(encoding="utf-8").split("## Observation tensor", 1)[1].split("\n## ", 1)[0]
    tables: list[list[str]] = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if cells[:1] == ["field"]:
            tables.append([])
        elif cells and cells[0].startswith("`"):
            tables[-1].append(cells[0].strip("`"))
    return tables


def test_the_docs_tables_list_the_layouts_fields_in_order() -> None:
    rules = game(4).rules
    obs, info = rules.observation_layout, rules.info_state_layout
    assert obs is not None and info is not None
    observation, known = _doc_tables()
    assert observation == obs.names()
    assert observation + known == info.names()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_game_derives_fields_and_bounds_from_the_layout(players: int) -> None:
    g = game(players)
    obs, info = g.rules.observation_layout, g.rules.info_state_layout
    assert obs is not None and info is not None
    assert list(g.observation_fields()) == obs.names()
    assert list(g.information_state_fields()) == info.names()
    assert g.observation_shape == (obs.size,)
    assert g.information_state_shape == (info.size,)
