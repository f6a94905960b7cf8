"""The protocol's error replies: :class:`ReplyError`, the failure a command raises to be
answered with an error code of its own; the code of each library exception; the reply to a
line that is not a valid request; and the reply to a bug in the engine.
"""

from __future__ import annotations

import difflib
import sys
import traceback
from typing import Any

import msgspec

from cruiselib.errors import CruiseError, IllegalMoveError, InvalidPositionError, InvalidStateError

from .messages import COMMANDS, ErrorInfo, ErrorReply, Id

__all__ = ["ReplyError", "error_code_of", "internal_error", "not_a_request"]


class ReplyError(Exception):
    """A request refused with an error reply of code ``code`` (one of
    :data:`~cruiselib.protocol.ERROR_CODES`): raised anywhere below a command's handler,
    answered by :meth:`~cruiselib.protocol.Engine.handle_line`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def error_code_of(exc: CruiseError) -> str:
    """The error code of a library exception a command raised."""
    if isinstance(exc, IllegalMoveError):
        return "illegal_move"
    if isinstance(exc, InvalidPositionError):
        return "invalid_position"
    if isinstance(exc, InvalidStateError):
        return "invalid_state"
    return "bad_option"


def internal_error(request_id: Any, exc: BaseException) -> ErrorReply:
    """The reply to a bug met while answering request ``request_id`` (``internal``); the
    traceback goes to stderr."""
    traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
    message = f"internal error ({type(exc).__name__}: {exc}); the session goes on"
    return ErrorReply(id=request_id, error=ErrorInfo(code="internal", message=message[:2000]))


def not_a_request(line: Any, exc: Exception) -> ErrorReply:
    """The error reply to a line that is not a valid request (``exc``: why the request
    decoder refused it), with the line's id if it has a valid one."""
    try:
        tree = msgspec.json.decode(line)
    except (msgspec.DecodeError, RecursionError, UnicodeError, TypeError) as bad:
        what = "JSON nested too deeply" if isinstance(bad, RecursionError) else str(bad)
        return ErrorReply(error=ErrorInfo(code="bad_json", message=f"not a JSON line: {what}"))
    if not isinstance(tree, dict):
        return ErrorReply(
            error=ErrorInfo(code="bad_request", message=f"a request is a JSON object, not {_json_type(tree)}")
        )
    request_id = tree.get("id")
    try:
        request_id = msgspec.convert(request_id, Id)
    except msgspec.ValidationError:
        request_id = None
    cmd = tree.get("cmd")
    if not isinstance(cmd, str):
        code, message = "bad_request", "a request needs a cmd: the command's name, a string"
    elif cmd not in COMMANDS:
        close = difflib.get_close_matches(cmd, COMMANDS, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        code, message = "unknown_command", f"unknown command {cmd[:64]!r}{hint} (commands: {', '.join(COMMANDS)})"
    else:
        code, message = "bad_request", f"bad {cmd} request: {exc}"
    return ErrorReply(id=request_id, error=ErrorInfo(code=code, message=message))


def _json_type(value: Any) -> str:
    """How a JSON value's type is named in an error message."""
    names: dict[type, str] = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean"}
    return "null" if value is None else names.get(type(value), type(value).__name__)
