"""The engine protocol: JSON lines on stdin/stdout, one engine serving many games.

``cruiselib serve`` (or ``python -m cruiselib serve``) reads one JSON request object a
line and writes one JSON reply a line, in order. The protocol is specified in
docs/protocol.md; this package is its implementation, one concern a module:

- :mod:`~cruiselib.protocol.limits`: the version, every limit and error code, and
  :func:`check_limits`.
- :mod:`~cruiselib.protocol.messages`: the request Structs (a tagged union on ``"cmd"``)
  and the reply Structs, which :mod:`cruiselib.client` shares, so both ends agree on one
  schema; :func:`is_search`.
- :mod:`~cruiselib.protocol.engine`: :class:`Engine`, the protocol without any I/O.
  ``handle_line(bytes) -> bytes`` answers one request line (what the server loop calls);
  ``handle(dict) -> dict`` does the same for Python objects. Nothing a client sends makes
  it raise: every failure is an error reply (``{"ok": false, "error": {"code": ...,
  "message": ...}}``) and the session goes on. The engine decodes, hands the request to
  its command's handler and encodes the reply; the handlers are in
  :mod:`~cruiselib.protocol.info_commands` (``hello``, ``ping``, ``games``, ``bots``),
  :mod:`~cruiselib.protocol.game_commands` (``new``, ``list``, ``status``, ``view``,
  ``render``, ``save``, ``load``, ``close``) and :mod:`~cruiselib.protocol.move_commands`
  (``legal``, ``apply``, ``bot``, ``hint``, ``undo``).
- :mod:`~cruiselib.protocol.open_games`: the open games of one session and their bounds;
  :mod:`~cruiselib.protocol.session`: one open game and the texts of its moves as each
  seat may know them; :mod:`~cruiselib.protocol.session_bots`: the bots kept in a game.
- :mod:`~cruiselib.protocol.cache`: :class:`GameCache`, the game objects, one per
  configuration, shared by the games of one engine or of many (a server's), with a cap on
  the configurations alive.
- :mod:`~cruiselib.protocol.searches`: the running searches and the ``cancel`` requests
  that stop them; :mod:`~cruiselib.protocol.failures`: the error replies.
- :mod:`~cruiselib.protocol.stdio`: :func:`serve`, the stdin/stdout loop, with the
  line-length cap read in bounded memory. A reader thread reads stdin while the main
  thread answers (so that ``cancel`` reaches a running search at once); the lines between
  them are bounded in bytes.

Every public name of ``limits``, ``messages``, ``engine``, ``cache`` and ``stdio`` is
importable from ``cruiselib.protocol``; the other modules are the engine's own parts.
"""

from __future__ import annotations

# The names in __all__ are the protocol's documented interface; the Structs and the other
# constants are re-exported beside them (``X as X``), so ``cruiselib.protocol.X`` names
# every public name of the modules.
from .cache import (
    GameCache,
)
from .engine import (
    Engine,
)
from .limits import (
    DEFAULT_ITERATIONS as DEFAULT_ITERATIONS,
)
from .limits import (
    ERROR_CODES,
    MAX_BOTS_PER_GAME,
    MAX_CONFIGURATIONS,
    MAX_GAMES,
    MAX_HINTS,
    MAX_ITERATIONS,
    MAX_LINE,
    MAX_PLY,
    MAX_QUEUE_BYTES,
    MAX_SECONDS,
    MAX_SESSION_PLY,
    PROTOCOL,
    SEARCH_SLOT_WAIT,
    VERSION,
    check_limits,
)
from .limits import (
    SUPPORTED_VERSIONS as SUPPORTED_VERSIONS,
)
from .messages import (
    COMMANDS,
    is_search,
)
from .messages import (
    Apply as Apply,
)
from .messages import (
    ApplyReply as ApplyReply,
)
from .messages import (
    BotCommand as BotCommand,
)
from .messages import (
    BotInfo as BotInfo,
)
from .messages import (
    BotReply as BotReply,
)
from .messages import (
    BotRequest as BotRequest,
)
from .messages import (
    Bots as Bots,
)
from .messages import (
    BotsReply as BotsReply,
)
from .messages import (
    Cancel as Cancel,
)
from .messages import (
    CancelReply as CancelReply,
)
from .messages import (
    Close as Close,
)
from .messages import (
    CloseReply as CloseReply,
)
from .messages import (
    Command as Command,
)
from .messages import (
    ErrorInfo as ErrorInfo,
)
from .messages import (
    ErrorReply as ErrorReply,
)
from .messages import (
    GameId as GameId,
)
from .messages import (
    GameInfo as GameInfo,
)
from .messages import (
    Games as Games,
)
from .messages import (
    GamesReply as GamesReply,
)
from .messages import (
    GameSummary as GameSummary,
)
from .messages import (
    Hello as Hello,
)
from .messages import (
    HelloReply as HelloReply,
)
from .messages import (
    Hint as Hint,
)
from .messages import (
    HintMove as HintMove,
)
from .messages import (
    HintReply as HintReply,
)
from .messages import (
    Id as Id,
)
from .messages import (
    Iterations as Iterations,
)
from .messages import (
    Legal as Legal,
)
from .messages import (
    LegalReply as LegalReply,
)
from .messages import (
    Limits as Limits,
)
from .messages import (
    List as List,
)
from .messages import (
    ListReply as ListReply,
)
from .messages import (
    Load as Load,
)
from .messages import (
    Name as Name,
)
from .messages import (
    New as New,
)
from .messages import (
    NewReply as NewReply,
)
from .messages import (
    Options as Options,
)
from .messages import (
    Ping as Ping,
)
from .messages import (
    Quit as Quit,
)
from .messages import (
    Render as Render,
)
from .messages import (
    RenderReply as RenderReply,
)
from .messages import (
    Reply as Reply,
)
from .messages import (
    Request as Request,
)
from .messages import (
    Save as Save,
)
from .messages import (
    SaveReply as SaveReply,
)
from .messages import (
    Seat as Seat,
)
from .messages import (
    Seconds as Seconds,
)
from .messages import (
    Seed as Seed,
)
from .messages import (
    Status as Status,
)
from .messages import (
    StatusReply as StatusReply,
)
from .messages import (
    Undo as Undo,
)
from .messages import (
    UndoReply as UndoReply,
)
from .messages import (
    View as View,
)
from .messages import (
    ViewReply as ViewReply,
)
from .stdio import (
    POLL_SECONDS as POLL_SECONDS,
)
from .stdio import (
    serve,
)

__all__ = [
    "COMMANDS",
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
    "VERSION",
    "Engine",
    "GameCache",
    "check_limits",
    "is_search",
    "serve",
]
