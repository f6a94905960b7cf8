"""Sirens in Sight on the web page: the options its form offers (S9's variant)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="needs the 'web' extra: pip install 'cruiselib[web]'")

from cruiselib.web import catalog

# A surface over the public API, as tests/test_web.py (-m "not surface" leaves it out).
pytestmark = pytest.mark.surface


def test_the_form_offers_the_variant() -> None:
    assert catalog("sirens")["options"] == [
        {"name": "variant", "label": "variant", "choices": ["standard", "bow_to_rear"]}
    ]
