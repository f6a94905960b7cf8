"""What the environment tests share: every game and player count, from the registry."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

import cruiselib
from cruiselib._registry import game_class


def configurations() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game's example configurations, plus ``{"players": n}`` for each
    seat count they leave out: every game and every player count."""
    found = []
    for name in cruiselib.games():
        cls = game_class(name)
        counts = set()
        for options in cls.example_configurations:
            found.append((name, dict(options)))
            counts.add(cruiselib.make(name, **options).num_players)
        found.extend((name, {"players": n}) for n in cls.player_counts if n not in counts)
    return found


CONFIGURATIONS = configurations()
IDS = [f"{name}-" + "-".join(f"{k}={v}" for k, v in options.items()) for name, options in CONFIGURATIONS]


def sample(mask: npt.NDArray[Any], rnd: random.Random) -> int:
    """A uniformly random action among those ``mask`` marks legal."""
    legal = np.flatnonzero(mask)
    return int(legal[rnd.randrange(len(legal))])


def illegal_action(mask: npt.NDArray[Any]) -> int:
    """An action id in range that ``mask`` does not mark legal."""
    return int(np.flatnonzero(np.asarray(mask) == 0)[0])
