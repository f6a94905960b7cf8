"""cruiselib.openspiel on Dream Islands against hostile input: a state of another round
limit, and a round limit beyond OpenSpiel's range (tests/test_openspiel_hostile.py holds what
every game shares)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from tests.test_openspiel_hostile import (  # noqa: E402
    check_another_configurations_state_is_refused,
    check_bad_parameter,
)

# A surface over the public API, as tests/test_openspiel_hostile.py (-m "not surface" leaves it out).
pytestmark = pytest.mark.surface


def test_another_round_limits_state_is_refused() -> None:
    check_another_configurations_state_is_refused(
        "dream_islands", {"players": 2, "max_rounds": 40}, {"players": 2}, "max_rounds"
    )


def test_a_round_limit_beyond_range_is_refused() -> None:
    check_bad_parameter("dream_islands", {"max_rounds": 2**40}, "max_rounds")
