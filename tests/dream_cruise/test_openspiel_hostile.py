"""cruiselib.openspiel on Dream Cruise against hostile input: a state of another option set,
and options out of range or of another type (tests/test_openspiel_hostile.py holds what every
game shares)."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from tests.test_openspiel_hostile import (  # noqa: E402
    check_another_configurations_state_is_refused,
    check_bad_parameter,
)

# A surface over the public API, as tests/test_openspiel_hostile.py (-m "not surface" leaves it out).
pytestmark = pytest.mark.surface


@pytest.mark.parametrize(
    ("made_with", "loaded_in", "differ"),
    [
        ({"players": 2, "additions": 1}, {"players": 2}, "additions"),
        ({"players": 1, "difficulty": 2}, {"players": 1}, "difficulty"),
        ({"players": 2, "route_points": (1, 3, 6, 10)}, {"players": 2}, "route_points"),
        ({"players": 2, "sea_ship_draw": True}, {"players": 2}, "sea_ship_draw"),
    ],
)
def test_another_configurations_state_is_refused(
    made_with: dict[str, Any], loaded_in: dict[str, Any], differ: str
) -> None:
    check_another_configurations_state_is_refused("dream_cruise", made_with, loaded_in, differ)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"additions": 2**40}, "additions"),
        ({"difficulty": -(2**63)}, "difficulty"),
        ({"sea_ship_draw": 1}, "sea_ship_draw"),
        ({"route_points": 5}, "route_points"),
    ],
)
def test_bad_python_parameters_raise_invalid_option(params: dict[str, Any], message: str) -> None:
    check_bad_parameter("dream_cruise", params, message)
