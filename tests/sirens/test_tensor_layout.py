"""The observation tensor's layout is declared once, in the core
(``SirensRules._observation_layout``): the docs page's "Observation tensor" table lists its
fields in order, and the game derives its fields, shape and bounds from it (the
information state is the observation)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cruiselib.sirens import SirensGame
from cruiselib.sirens.cards import CardSet

PAGE = Path(__file__).resolve().parents[2] / "docs" / "sirens.md"


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


def test_the_docs_table_lists_the_layouts_fields_in_order() -> None:
    layout = SirensGame().rules.observation_layout
    assert layout is not None
    assert _doc_tables() == [layout.names()]


@pytest.mark.parametrize("variant", ["standard", "bow_to_rear"])
def test_the_game_derives_fields_and_bounds_from_the_layout(variant: str) -> None:
    game = SirensGame(variant=variant)
    layout = game.rules.observation_layout
    assert layout is not None and game.rules.info_state_layout is layout
    assert list(game.observation_fields()) == layout.names()
    assert list(game.information_state_fields()) == layout.names()
    assert game.observation_shape == game.information_state_shape == (layout.size,)
    # 15 entries per card of the set and 95 more: the size the docs give (875 for 52 cards).
    cards = len(CardSet.standard().cards)
    assert layout.size == 15 * cards + 95 == 875
    low, high = game.observation_bounds()
    field = game.observation_fields()["points"]
    assert low[field].tolist() == [0.0, 0.0] and high[field].tolist() == [5.0, 5.0]
