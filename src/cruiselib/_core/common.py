"""What every game core's ``apply`` shares: turning its argument into an action id.

Compiled with the cores (``common.pxd``); the cores cimport these functions, so the
checks run as C calls. Nothing here knows a game's rules.
"""

try:  # pragma: no cover - depends on whether Cython is installed
    import cython
except ImportError:  # pragma: no cover
    from cruiselib._core import _cython_shim as cython

import numpy

from cruiselib.errors import IllegalMoveError


def action_id(action, player, current, game, num_actions):
    """The in-range action id that ``apply(action, player)`` asks for.

    ``action`` is an action id (int or numpy integer) or one of the game's move objects;
    ``player``, when not None, must be ``current`` (the seat to decide, -1 once the game
    is over). Raises IllegalMoveError naming the problem.
    """
    if type(action) is int:
        try:
            a = action
        except OverflowError:
            raise IllegalMoveError(f"action {action} is out of range 0..{num_actions - 1}") from None
    elif isinstance(action, bool):
        raise IllegalMoveError(f"an action id is an int, not {action!r}")
    elif isinstance(action, (int, numpy.integer)):
        try:
            a = int(action)
        except OverflowError:
            raise IllegalMoveError(f"action {action} is out of range 0..{num_actions - 1}") from None
    elif game is not None:
        a = game.move_to_action(action)
    else:
        raise IllegalMoveError(f"not an action: {action!r}")
    if player is not None and not _same_seat(player, current):
        if current < 0:
            raise IllegalMoveError(f"seat {player!r} cannot move: the game is over")
        raise IllegalMoveError(f"seat {player!r} cannot move: seat {current} is to decide")
    if a < 0 or a >= num_actions:
        raise IllegalMoveError(f"action {a} is out of range 0..{num_actions - 1}")
    return a


def _same_seat(player, current):
    """Whether ``player`` (an int or numpy integer, never a bool) is seat ``current``."""
    if type(player) is int:
        return player == current
    if isinstance(player, bool) or not isinstance(player, numpy.integer):
        return False
    return int(player) == current


def query_id(action, game, num_actions):
    """The action id that ``is_legal(action)`` asks about, or -1 if it names no action.

    Takes what ``apply`` takes: an action id (int or numpy integer) or one of the game's
    move objects. An id out of range, or a move of the game that no action encodes, is
    simply not legal (-1); anything else is not an action at all (IllegalMoveError).
    """
    if type(action) is int:
        return action if 0 <= action < num_actions else -1
    if isinstance(action, bool):
        raise IllegalMoveError(f"an action id is an int, not {action!r}")
    if isinstance(action, numpy.integer):
        a = int(action)
        return a if 0 <= a < num_actions else -1
    if game is not None and isinstance(action, game.move_classes):
        try:
            return game.move_to_action(action)
        except IllegalMoveError:
            return -1
    raise IllegalMoveError(f"not an action id or a move of this game: {action!r}")


def illegal_message(game, action, current, reason):
    """The message of an IllegalMoveError for a well-formed action that is not legal now."""
    label = f" ({game.action_to_move(action)})" if game is not None else ""
    who = f" for seat {current}" if current >= 0 else ""
    return f"action {action}{label} is not legal{who} now: {reason}"


def check_signals():
    """Run pending signal handlers: Ctrl-C raises KeyboardInterrupt here.

    Long loops of the compiled core call this between games; compiled code does not run
    Python's signal handlers otherwise. Interpreted Python runs them by itself.
    """
    if cython.compiled:
        PyErr_CheckSignals()
    return 0
