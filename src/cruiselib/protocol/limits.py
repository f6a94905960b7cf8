"""The protocol's version and limits, and the check of an engine's or a server's bounds.

Every bound a client can meet is here, with the error code a reply carries when it is
reached (:data:`ERROR_CODES`); docs/protocol.md lists them.
"""

from __future__ import annotations

from typing import Final

from cruiselib.errors import InvalidOptionError

__all__ = [
    "DEFAULT_ITERATIONS",
    "ERROR_CODES",
    "MAX_BOTS_PER_GAME",
    "MAX_CONFIGURATIONS",
    "MAX_GAMES",
    "MAX_HINTS",
    "MAX_ITERATIONS",
    "MAX_LINE",
    "MAX_PLY",
    "MAX_QUEUE_BYTES",
    "MAX_SECONDS",
    "MAX_SESSION_PLY",
    "PROTOCOL",
    "SEARCH_SLOT_WAIT",
    "SUPPORTED_VERSIONS",
    "VERSION",
    "check_limits",
]

PROTOCOL: Final = "cruiselib-engine"
VERSION: Final = 1
"""The protocol version: raised for any change an existing client could notice."""
SUPPORTED_VERSIONS: Final = (1,)

MAX_LINE: Final = 1 << 20
"""The longest request line, in bytes without its newline (1 MiB)."""
MAX_GAMES: Final = 1000
"""The most games one session keeps open at once."""
MAX_ITERATIONS: Final = 1_000_000
"""The largest iteration budget of one search (``bot`` and ``hint``), also the cap of a
search given a time budget alone: it bounds the search tree's memory."""
MAX_SECONDS: Final = 60.0
"""The longest one search runs, in seconds, whatever its budget (an iteration budget
alone is cut off here too)."""
MAX_CONFIGURATIONS: Final = 32
"""The most distinct game configurations (name and options) an engine's GameCache keeps
alive, and by default the most one engine's open games may use: a game with
a custom component set may be about a megabyte. A game's default configuration (no options) is
always available and not counted."""
MAX_PLY: Final = 20_000
"""The most actions one game holds (its history): a ``load`` of a longer game is refused,
an ``apply`` or ``bot`` beyond it fails with ``game_too_long``. Real games are far shorter
(OpenSpiel declares at most 268 to 1,600 actions for these games); the bound keeps a
game's memory and the time of its ``undo``, ``save`` and ``load`` bounded."""
MAX_SESSION_PLY: Final = 1_000_000
"""The most actions the open games of one session hold together (``Engine``'s
``max_session_ply``): a ``new``, ``load`` or ``apply`` beyond it fails with
``too_many_actions``."""
SEARCH_SLOT_WAIT: Final = 10.0
"""How long a search waits for a server-wide search slot before it fails with ``busy``."""
MAX_QUEUE_BYTES: Final = 4 * MAX_LINE
"""The most bytes of request lines ``serve`` reads ahead while it answers (each line
counts 64 bytes more): beyond it, it stops reading stdin until lines are answered."""
_LINE_OVERHEAD: Final = 64  # bytes a queued line counts beyond its length
_MAX_PENDING_CANCELS: Final = 4096  # cancels seen by interrupt and not yet answered
MAX_HINTS: Final = 100
"""The most moves one ``hint`` lists."""
MAX_BOTS_PER_GAME: Final = 16
"""Bots kept per game (the least recently used beyond these is dropped)."""
DEFAULT_ITERATIONS: Final = 2000
"""A search bot's iteration budget when a request gives none (the library's default)."""
_MAX_ALIASES: Final = 4  # option spellings kept per configuration in a GameCache

ERROR_CODES: Final = {
    "bad_json": "the line is not JSON (or not UTF-8)",
    "bad_request": "valid JSON, but not a request: not an object, no or an ill-typed cmd, "
    "a field missing, ill-typed, out of range or unknown",
    "unknown_command": "cmd names no command of this protocol version",
    "line_too_long": f"the line is longer than {MAX_LINE} bytes; it was skipped",
    "unsupported_version": "hello asked for a protocol version this engine does not speak",
    "unknown_game": "no open game has this game_id",
    "too_many_games": f"the session already has {MAX_GAMES} open games",
    "too_many_configurations": "the session's open games use as many distinct game configurations (name and "
    f"options) as it may ({MAX_CONFIGURATIONS} by default), or the server's are all in use: close some (or use a "
    "configuration already open, or the game's default options)",
    "game_too_long": f"the game would hold more than {MAX_PLY:,} actions (a load, an apply or a bot's move)",
    "too_many_actions": f"the session's open games would hold more than {MAX_SESSION_PLY:,} actions together "
    "(by default): close some",
    "bad_option": "a game name, game option, seat, bot name, bot option or budget that is unknown or out of range",
    "illegal_move": "the action or move text is not legal in this position",
    "wrong_seat": "the seat guard: the request names a seat that is not to move",
    "game_over": "the game is over: there is no move to make, choose or hint",
    "nothing_to_undo": "undo went back further than the game's history",
    "invalid_state": "a snapshot or record that cannot be loaded, or a record asked of a "
    "game that does not know its deal",
    "invalid_position": "a described position (new with position) that cannot be set up: the error's problems "
    "name every one",
    "cancelled": "a cancel request stopped this search (or its client went away): the game is unchanged",
    "busy": f"the server's search slots stayed busy for {SEARCH_SLOT_WAIT:g} s: try again later",
    "internal": "a bug in the engine: the request failed, the session goes on",
}
"""Every error code a reply may carry, with what it means."""


def check_limits(**limits: object) -> None:
    """InvalidOptionError unless every limit given is an int >= 1 (an engine's or a
    server's bounds: games, configurations, connections, ...)."""
    for what, value in limits.items():
        if type(value) is not int or value < 1:
            raise InvalidOptionError(f"{what} must be an int >= 1, not {value!r}")
