"""Sirens in Sight: a record of a game on a custom card set carries the set, and a snapshot
alone does not name it (``cruiselib.load_state`` needs the game)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

import cruiselib


def _twenty_cards() -> Any:
    """Sirens on the standard set's first 20 cards."""
    cards = cruiselib.make("sirens").cards
    return cruiselib.make("sirens", cards=msgspec.structs.replace(cards, name="twenty", cards=cards.cards[:20]))


def test_a_record_keeps_a_custom_card_set() -> None:
    game = _twenty_cards()
    state = game.new_state("a seed", start_player=1)
    state.apply(state.legal_actions()[0])
    record = state.record()
    assert record.start_player == 1 and "cards" in record.options
    again = cruiselib.replay(record.to_json())
    assert again == state and again.game == game


def test_load_state_refuses_a_snapshot_of_a_custom_card_set() -> None:
    with pytest.raises(cruiselib.InvalidStateError, match="custom card set"):
        cruiselib.load_state(_twenty_cards().new_state(1).to_json())
