"""cruiselib.openspiel on Atlantic Star against hostile input: a board or ship set given as
no file (tests/test_openspiel_hostile.py holds what every game shares)."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from tests.test_openspiel_hostile import (  # noqa: E402
    check_bad_parameter,
)

# A surface over the public API, as tests/test_openspiel_hostile.py (-m "not surface" leaves it out).
pytestmark = pytest.mark.surface


@pytest.mark.parametrize(("params", "message"), [({"board": 5}, "board"), ({"ships": 5}, "ships")])
def test_bad_python_parameters_raise_invalid_option(params: dict[str, Any], message: str) -> None:
    check_bad_parameter("atlantic_star", params, message)
