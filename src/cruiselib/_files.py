"""Reading a component file (a card set, a ship list) named by a path from outside.

A path option reaches the engine from game strings and option dicts that someone else may
write (``cruiselib.make(game, cards=PATH)``, ``pyspiel.load_game("cruiselib_<game>(cards=PATH)")``),
so it is read defensively: only a regular file, never more than a fixed number of bytes, and
never by an ``open`` that can wait for ever. Every game's ``from_file`` reads through
:func:`read_component_file`, and every ``from_json`` decodes through
:func:`decode_component`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import msgspec

from cruiselib.errors import InvalidOptionError

__all__ = ["MAX_COMPONENT_FILE_BYTES", "decode_component", "read_component_file"]

_T = TypeVar("_T")

MAX_COMPONENT_FILE_BYTES = 1 << 20
"""The largest component file a game reads: 1 MiB. Every standard set is at most about
20 kB and the largest set any game takes stays under 100 kB: the limit leaves room for a
long description, while a path to a huge file or a device cannot exhaust memory."""

# O_NONBLOCK: a FIFO put in the file's place between the stat and the open cannot block the
# open (the descriptor is checked again after it); O_NOCTTY: a terminal never becomes ours.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOCTTY", 0)


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, for the error message."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "of another kind"


def read_component_file(path: object, *, what: str, limit: int) -> bytes:
    """The bytes of the file ``path``, which must be a regular file of at most ``limit`` bytes.

    ``what`` names the component in messages ("card set", "ship list"). The file is checked
    before it is opened (a device or a FIFO is never opened), opened without blocking,
    checked again through its descriptor, and read up to one byte past ``limit`` (a file
    that grows meanwhile is still refused). A directory, a device, a FIFO, a socket, a larger
    file, a missing or unreadable file, a path holding a NUL or a lone surrogate, and a path
    that is not a ``str`` or ``Path`` all raise InvalidOptionError.
    """
    if not isinstance(path, (str, Path)):
        raise InvalidOptionError(f"a {what}'s path is a str or a Path, not {type(path).__name__}")
    shown = repr(str(path))

    def refuse(why: str) -> InvalidOptionError:
        return InvalidOptionError(f"cannot read {what} {shown}: {why}")

    def check(info: os.stat_result) -> None:
        if not stat.S_ISREG(info.st_mode):
            raise refuse(f"it is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise refuse(f"the file has {info.st_size:,} bytes, more than a {what} may ({limit:,})")

    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:  # ValueError: a NUL or a lone surrogate in the path
        raise refuse(str(exc)) from None
    check(info)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except (OSError, ValueError) as exc:
        raise refuse(str(exc)) from None
    try:
        # The path may name another file by now: the descriptor's own kind and size decide
        # (before fdopen, which refuses a directory with an OSError of its own).
        check(os.fstat(fd))
        file = os.fdopen(fd, "rb", buffering=0)
    except BaseException as exc:
        os.close(fd)
        if isinstance(exc, OSError):
            raise refuse(str(exc)) from None
        raise
    with file:
        try:
            chunks: list[bytes] = []
            size = 0
            while size <= limit:
                chunk = file.read(limit + 1 - size)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        except OSError as exc:
            raise refuse(str(exc)) from None
    if size > limit:
        raise refuse(f"the file has more than {limit:,} bytes, more than a {what} may")
    return b"".join(chunks)


def decode_component(
    data: object, kind: type[_T], *, what: str, locate: Callable[[bytes, str], str] | None = None
) -> _T:
    """A component set of type ``kind`` decoded from JSON text or UTF-8 bytes and validated.

    Whatever ``data`` is, every problem is an InvalidOptionError naming ``what`` (``"card
    set"``): a str with a lone surrogate (no JSON text holds one), a value that is neither
    text nor bytes, malformed JSON, nesting deeper than the decoder follows, a set that
    fails validation (``locate(raw, message)`` may say which component the message is about).
    """
    if isinstance(data, str):
        try:
            raw = data.encode()
        except UnicodeEncodeError as exc:
            raise InvalidOptionError(
                f"invalid {what}: character {exc.start} ({data[exc.start]!r}) is a lone surrogate, not text"
            ) from None
    elif isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
    else:
        raise InvalidOptionError(f"a {what} is JSON text or bytes, not {type(data).__name__}")
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.ValidationError as exc:  # (a DecodeError too: test it first)
        message = str(exc)
        raise InvalidOptionError(f"invalid {what}: {locate(raw, message) if locate else message}") from None
    except msgspec.DecodeError as exc:
        raise InvalidOptionError(f"invalid {what}: {exc}") from None
    except RecursionError:
        raise InvalidOptionError(f"invalid {what}: nested deeper than the JSON decoder follows") from None
