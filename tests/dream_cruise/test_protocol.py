"""Dream Cruise through the engine protocol (docs/protocol.md): the game's options as
``games`` lists them. The protocol's checks common to every game are in
``tests/test_protocol.py``."""

from __future__ import annotations

import pytest

from cruiselib.client import EngineClient

pytestmark = pytest.mark.surface


def test_games_lists_the_dream_cruise_options() -> None:
    with EngineClient.local() as engine:
        games = {g.name: g for g in engine.games()}
    assert games["dream_cruise"].options["route_points"] == [1, 3, 6, 9]
