"""Atlantic Star's enum constants as its .pxd declares them (tests/test_contract.py checks that
every core reads its constants from there)."""

from __future__ import annotations

from cruiselib._core import constants


def test_the_enum_constants_hold_the_printed_game() -> None:
    assert constants.enum_constants("atlantic_star")["NKEEP"] == 37
