"""The terminal's solo Dream Cruise: its choices say Dream Cruise's cards."""

from __future__ import annotations

import re

import pytest

from tests.test_terminal import scripted_game

pytestmark = pytest.mark.surface


def test_the_solo_choices_show_the_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solo Dream Cruise opens on keeping a location card: each choice says the card's
    region and activities, and ``show`` lists the drawn cards and what keeping one means."""
    transcript, _ = scripted_game("dream_cruise", {"players": 1}, monkeypatch)
    first = transcript[: transcript.index("seat 0, your move")]
    keeps = re.findall(r"\n\s+\d+  keep (.+)", first)
    assert len(keeps) == 3 and all(re.search(r"\(.+; top \w+ for \d", keep) for keep in keeps)
    shown = transcript[transcript.index("your move [1-3, help]: show") :]
    assert "drawn location cards (keep one: this round's location, then a route card):" in shown
    assert "i, o, b: the inner, oceanview and balcony cabins" in transcript  # the legend
