"""The game-independent API in one place: :class:`Game`, :class:`State` and :class:`Playouts`.

Every game subclasses :class:`Game` and combines :class:`State` with its compiled core
class. Each concern has a module of its own: ``_game`` (Game), ``_state`` (State),
``_notation`` (move texts), ``_playouts`` (Playouts), ``_threads`` (the batch runner) and
``_pure`` (the pure twin of a state class). This module gathers the names the game
packages import, and keeps the functions that pickles name by this module's path
(``_restore_state``, ``_make_game``) loadable.
"""

from __future__ import annotations

from cruiselib._game import Game
from cruiselib._game import _make_game as _make_game
from cruiselib._notation import NotationTemplate, normalize_move_text
from cruiselib._playouts import MAX_PLAYOUTS, Playouts
from cruiselib._state import State
from cruiselib._state import _restore_state as _restore_state

__all__ = ["MAX_PLAYOUTS", "Game", "NotationTemplate", "Playouts", "State", "normalize_move_text"]
