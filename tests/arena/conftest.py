"""The arena is Python over the core's public API, the same code on either core: its tests are
marked ``surface``, run on the compiled core and not again on the pure twin (whose playouts
the core's own tests compare game by game)."""

from __future__ import annotations

import pytest


def pytest_itemcollected(item: pytest.Item) -> None:
    item.add_marker(pytest.mark.surface)
