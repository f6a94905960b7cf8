"""What every game core's ``apply`` shares: turning its argument into an action id.

Compiled with the cores (``common.pxd``); the cores cimport these functions, so the
checks run as C calls. Nothing here knows a game's rules.
"""

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
    if player is not None and (type(player) is not int or player != current):
        if current < 0:
            raise IllegalMoveError(f"seat {player!r} cannot move: the game is over")
        raise IllegalMoveError(f"seat {player!r} cannot move: seat {current} is to decide")
    if a < 0 or a >= num_actions:
        raise IllegalMoveError(f"action {a} is out of range 0..{num_actions - 1}")
    return a


def illegal_message(game, action, current, reason):
    """The message of an IllegalMoveError for a well-formed action that is not legal now."""
    label = f" ({game.action_to_move(action)})" if game is not None else ""
    who = f" for seat {current}" if current >= 0 else ""
    return f"action {action}{label} is not legal{who} now: {reason}"
