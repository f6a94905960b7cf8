"""The JSON Schemas in docs/schemas/ are the ones the code exports (regenerate with
``CRUISELIB_REGENERATE_SCHEMAS=1 pytest tests/test_schemas.py``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import cruiselib

SCHEMAS = Path(__file__).parent.parent / "docs" / "schemas"


@pytest.mark.parametrize("name", cruiselib.games())
def test_exported_schema_is_current(name: str) -> None:
    schemas = cruiselib.make(name).json_schemas()
    path = SCHEMAS / f"{name}.json"
    text = json.dumps(schemas, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("CRUISELIB_REGENERATE_SCHEMAS") == "1":
        path.write_text(text)
    assert path.read_text() == text


@pytest.mark.parametrize("name", cruiselib.games())
def test_a_saved_state_validates_against_its_schema_types(name: str) -> None:
    game = cruiselib.make(name)
    schema = game.json_schemas()["state"]
    data = json.loads(game.new_state(seed=1).to_json())
    definition = schema["$defs"][schema["$ref"].split("/")[-1]]
    assert set(data) <= set(definition["properties"]) and set(definition["required"]) <= set(data)
    assert data["schema_version"] == game.schema_version
