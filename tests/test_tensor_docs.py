"""Each game's docs page and its core's one tensor declaration agree: the "Observation
tensor" section's first table lists the observation layout's fields in order, and where the
information state differs, its next table lists the fields it adds (docs/contract.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import cruiselib
from tests.support import configuration_id, every_configuration

DOCS = Path(__file__).resolve().parents[1] / "docs"
CONFIGURATIONS = every_configuration()
pytestmark = pytest.mark.skipif(not DOCS.is_dir(), reason="needs docs/ beside the tests")


def tensor_tables(page: Path) -> list[list[str]]:
    """The field names (first column, in backticks) of each table of the page's
    "Observation tensor" section, in order."""
    section = page.read_text(encoding="utf-8").split("\n## Observation tensor\n", 1)[1].split("\n## ", 1)[0]
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


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=[configuration_id(n, o) for n, o in CONFIGURATIONS])
def test_the_docs_tables_list_the_layouts_fields_in_order(name: str, options: dict[str, Any]) -> None:
    game = cruiselib.make(name, **options)
    observation, information = game.rules.observation_layout, game.rules.info_state_layout
    assert observation is not None and information is not None
    tables = tensor_tables(DOCS / f"{name}.md")
    assert tables[0] == observation.names()
    if game.distinct_information_state:
        assert len(tables) == 2
        assert tables[0] + tables[1] == information.names()
    else:
        assert len(tables) == 1
        assert information.names() == observation.names()


def test_the_parser_reads_every_table(tmp_path: Path) -> None:
    """Two tables with prose between them are two lists; a table of the next section is none."""
    page = tmp_path / "page.md"
    page.write_text(
        "# x\n\n## Observation tensor\n\n| field | length |\n|---|---|\n| `a` | 1 |\n| `b` | 2 |\n\n"
        "text\n\n| field | length |\n|---|---|\n| `c` | 3 |\n\n## Next\n\n| `d` | 4 |\n",
        encoding="utf-8",
    )
    assert tensor_tables(page) == [["a", "b"], ["c"]]
