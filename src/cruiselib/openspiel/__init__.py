"""cruiselib's games as OpenSpiel games (the optional ``openspiel`` extra).

Importing this module registers with OpenSpiel every game of :func:`cruiselib.games` whose
class declares an OpenSpiel form (``Game.openspiel``, a :class:`cruiselib.integration.OpenSpielSpec`)
as ``cruiselib_<name>``, so both of these work (see docs/openspiel.md):

    import cruiselib.openspiel, pyspiel
    game = pyspiel.load_game("cruiselib_<game>", {"players": 2})
    game = cruiselib.openspiel.load_game("<game>", players=2, seed=7)

A game registered with :func:`cruiselib.register` later is registered by
:func:`register_games`, which :func:`load_game` and :func:`wrap_game` call first.

Chance mode: SAMPLED_STOCHASTIC. cruiselib's cores deal the cards and resolve every later
draw inside ``apply``, from a generator that is part of the state; there are no chance
nodes to expose without rewriting the cores (a draw has no action id, and the deal is one
joint shuffle). OpenSpiel's convention for such games is followed: the game object carries
the generator, so each new initial state is the next deal of its ``seed`` parameter (deal
k is game k of ``game.playouts(n, seed)``), and clones share the future draws of their
original.

Serialization: ``state.serialize()`` writes cruiselib's own JSON snapshot of the state in a
small versioned envelope that names the game, its parameters and the OpenSpiel history;
``game.deserialize_state(text)`` reads only that, validates all of it and refuses anything
else with ``InvalidStateError``. Nothing that comes in is ever unpickled (OpenSpiel's
default for Python games pickles the state's attributes).

``GAMES`` is :func:`games` (read anew on each access) and ``GAME_CLASSES`` the OpenSpiel
game class of each, by name (a live view): both follow cruiselib's registry.
"""

from __future__ import annotations

try:
    import pyspiel  # type: ignore[import-not-found,unused-ignore]  # noqa: F401  # no type information
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "cruiselib.openspiel needs OpenSpiel: pip install 'cruiselib[openspiel]' (open_spiel>=2.0.2)"
    ) from exc

from cruiselib.bots.openspiel import TimedISMCTS
from cruiselib.openspiel._game import OpenSpielGame
from cruiselib.openspiel._game import _unpickle_game as _unpickle_game  # pickles name it here
from cruiselib.openspiel._games import GameClasses, games, load_game, register_games, short_name, wrap_game
from cruiselib.openspiel._parameters import INT_MAX as INT_MAX
from cruiselib.openspiel._parameters import INT_MIN as INT_MIN
from cruiselib.openspiel._state import OpenSpielObserver, OpenSpielState
from cruiselib.openspiel._state import _unpickle_state as _unpickle_state  # pickles name it here
from cruiselib.openspiel._text import STATE_FORMAT, STATE_FORMAT_VERSION

__all__ = [
    "GAMES",
    "GAME_CLASSES",
    "STATE_FORMAT",
    "STATE_FORMAT_VERSION",
    "OpenSpielGame",
    "OpenSpielObserver",
    "OpenSpielState",
    "TimedISMCTS",
    "games",
    "load_game",
    "register_games",
    "short_name",
    "wrap_game",
]

GAME_CLASSES: GameClasses = GameClasses()
"""The OpenSpiel game class of each game of :func:`games`, by cruiselib name (a live view)."""


def __getattr__(name: str) -> tuple[str, ...]:
    # GAMES is read anew on each access, so it follows cruiselib's registry.
    if name == "GAMES":
        return games()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


register_games()
