"""Sirens in Sight: schema version 2 and the integer ranges of the state, view and moves.

Every integer field carries the range the core's C ``int`` fields and the rules allow, so
nothing out of range reaches the core, and every state play reaches stays inside them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

import cruiselib
from cruiselib.serialize import JS_SAFE_INT
from cruiselib.sirens import SirensMove, SirensStateData, SirensView
from tests.sirens.helpers import small_set

GAME = cruiselib.make("sirens")
C_INT = 2**31 - 1


def _integers(node: Any, path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every integer schema under ``node`` with its path."""
    if isinstance(node, dict):
        if node.get("type") == "integer":
            yield path, node
        for key, value in node.items():
            yield from _integers(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _integers(value, f"{path}[{i}]")


@pytest.mark.parametrize("kind", ["state", "view", "move"])
def test_every_integer_field_has_a_range_that_fits_a_c_int(kind: str) -> None:
    schema = GAME.json_schemas()[kind]
    found = list(_integers(schema))
    assert found
    for path, node in found:
        assert "minimum" in node and "maximum" in node, f"{kind} {path} has no range"
        assert -C_INT <= node["minimum"] <= node["maximum"] <= C_INT, path


def _ranges(kind: type[msgspec.Struct]) -> dict[str, tuple[int, int]]:
    schema = msgspec.json.schema(kind)
    out = {}
    for path, node in _integers(schema):
        out[path.split(".properties.")[-1].split(".")[0] + "@" + path.split(".properties.")[0].split(".")[-1]] = (
            node["minimum"],
            node["maximum"],
        )
    return out


def test_the_ranges_are_the_rules() -> None:
    state = _ranges(SirensStateData)
    assert state["passes@SirensStateData"] == (0, 2)  # 2 once two passes ended the game (S4)
    assert state["removed@SirensStateData"] == (0, 63)  # card ids of a 64-card set
    assert state["octopus@SirensStateData"] == (-1, 63)
    assert state["pick_floor@SirensStateData"] == (0, 31)  # 32 faces
    view = _ranges(SirensView)
    assert view["points@SirensView"] == (0, 5)  # the game ends at 4; a ship card brings at most 2 (S8)
    assert view["threshold@ShipInfo"] == (1, 1005)
    assert view["legal_actions@SirensView"] == (0, 111 * 32 + 11)
    moves = _ranges(SirensMove)  # type: ignore[arg-type]
    assert moves["value@PlayCard"] == (-99, 99) and moves["to_ship@MoveCrew"] == (1, 999)


def test_schema_version_2_writes_the_generator_state_as_hex_text() -> None:
    state = GAME.new_state(seed=7)
    data = json.loads(state.to_json())
    assert data["schema_version"] == 2
    assert isinstance(data["rng"], str) and len(data["rng"]) == 16 and int(data["rng"], 16) == state._get_raw()["rng"]
    assert all(abs(v) <= JS_SAFE_INT for v in _numbers(data))
    assert GAME.load_state(state.to_json()) == state


def test_version_1_data_loads_through_the_migration() -> None:
    state = GAME.new_state(seed=7)
    v1 = {**json.loads(state.to_json()), "schema_version": 1, "rng": state._get_raw()["rng"]}
    for encoded in (json.dumps(v1), msgspec.msgpack.encode(v1), v1):
        assert GAME.load_state(encoded) == state
    with pytest.raises(cruiselib.InvalidStateError, match="passes"):  # still validated
        GAME.load_state({**v1, "passes": 3})


def _numbers(node: Any) -> Iterator[int]:
    if isinstance(node, bool):
        return
    if isinstance(node, int):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _numbers(value)
    elif isinstance(node, list):
        for value in node:
            yield from _numbers(value)


@pytest.mark.parametrize("variant", ["standard", "bow_to_rear"])
@pytest.mark.parametrize("n", [8, 12, 52])
def test_played_states_and_views_stay_inside_the_ranges(variant: str, n: int) -> None:
    # Views are built, not decoded: decoding each one with its type checks every range.
    game = cruiselib.make("sirens", variant=variant, cards=small_set(n) if n != 52 else None)
    view_decoder = msgspec.json.Decoder(SirensView)
    for seed in range(6):
        state = game.new_state(seed=seed)
        rnd = random.Random(seed)
        while True:
            for p in range(2):
                view_decoder.decode(msgspec.json.encode(state.view(p)))
            msgspec.json.decode(state.to_json(), type=SirensStateData)
            if state.is_over:
                break
            state.apply(rnd.choice(state.legal_actions()))
