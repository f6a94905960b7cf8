"""The stdin/stdout loop of ``cruiselib serve``: request lines read in bounded memory (a
line longer than :data:`~cruiselib.protocol.MAX_LINE` is skipped unread), answered in
order by an :class:`~cruiselib.protocol.Engine`; while a search runs, a watcher thread
reads on so that a ``cancel`` reaches it at once.
"""

from __future__ import annotations

import os
import re
import select
import stat
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from typing import IO, Any, Final

import msgspec

from .engine import Engine
from .limits import _LINE_OVERHEAD, MAX_LINE, MAX_QUEUE_BYTES
from .messages import ErrorInfo, ErrorReply, is_search

__all__ = ["POLL_SECONDS", "serve"]

_DRAIN = 1 << 16


def _line_too_long() -> bytes:
    return msgspec.json.encode(
        ErrorReply(
            error=ErrorInfo(
                code="line_too_long", message=f"the line is longer than {MAX_LINE} bytes: it was skipped, unread"
            )
        )
    )


#: How long a side waiting on the protocol's pipe polls it before it sleeps, in seconds.
#: Most of a round trip through a pipe is the sleeping process's wake-up; a reply, or the
#: next request, that comes within the poll is read without one (docs/protocol.md,
#: "Latency"). ``cruiselib serve --poll-us N`` and ``EngineClient.spawn(poll=...)`` set it;
#: 0 sleeps at once. Only POSIX pipes and sockets are polled.
POLL_SECONDS: Final = 200e-6

_TOO_LONG: Final = b"\n"  # what a reader returns for a skipped long line (never a line itself)


class _StreamLines:
    """Request lines from any binary stream (``readline`` with the length cap)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream

    def readline(self) -> bytes | None:
        """The next line without its end; None at end of input; ``_TOO_LONG`` for a line
        longer than MAX_LINE, skipped to its end without keeping it."""
        line = self.stream.readline(MAX_LINE + 1)
        if not line:
            return None
        if line.endswith(b"\n"):
            return line[:-1]
        if len(line) > MAX_LINE:
            while True:
                rest = self.stream.readline(_DRAIN)
                if not rest or rest.endswith(b"\n"):
                    return _TOO_LONG
        return line  # the last line, without an end

    def close(self) -> None:
        pass


class _PolledLines:
    """Request lines from a POSIX pipe or socket, read through a buffer of their own: the
    descriptor is made non-blocking (restored by ``close``) and polled for up to ``poll``
    seconds before the reader sleeps in ``select``. The buffer never holds more than
    MAX_LINE + _DRAIN bytes: a longer line is dropped as it comes."""

    def __init__(self, fd: int, poll: float) -> None:
        self.fd = fd
        self.poll = poll
        self.buffer = bytearray()
        self.skipping = False  # inside a line longer than MAX_LINE
        self.was_blocking = os.get_blocking(fd)
        os.set_blocking(fd, False)
        self.out_fd: int | None = None  # the replies' descriptor, watched while the reader sleeps
        self.on_gone: Callable[[], None] | None = None
        self.poller: Any = None

    def watch_output(self, out_fd: int, on_gone: Callable[[], None]) -> None:
        """While the reader sleeps waiting for input, also watch ``out_fd`` (the replies'
        pipe or socket): once its reader has gone (an error or a hang-up), call
        ``on_gone`` (once). A client that closes only the engine's stdout is noticed while
        a search runs, not only at the end of input. POSIX ``poll`` only."""
        poll = getattr(select, "poll", None)
        if poll is None:  # pragma: no cover - not POSIX
            return
        self.poller = poll()
        self.poller.register(self.fd, select.POLLIN)
        self.poller.register(out_fd, select.POLLERR | select.POLLHUP)
        self.out_fd, self.on_gone = out_fd, on_gone

    def close(self) -> None:
        os.set_blocking(self.fd, self.was_blocking)  # the descriptor may be shared

    def _sleep(self) -> None:
        """Wait until the input is readable (or, when watched, the output is gone)."""
        out_fd = self.out_fd
        if out_fd is None:
            select.select([self.fd], [], [])
            return
        for fd, mask in self.poller.poll():
            if fd == out_fd and mask & (select.POLLERR | select.POLLHUP | select.POLLNVAL):
                self.poller.unregister(out_fd)  # once: a closed pipe stays readable as "gone"
                self.out_fd = None
                if self.on_gone is not None:
                    self.on_gone()

    def _chunk(self) -> bytes:
        deadline = 0.0
        while True:
            try:
                return os.read(self.fd, _DRAIN)
            except BlockingIOError:
                pass
            now = time.perf_counter()
            if not deadline:
                deadline = now + self.poll
            elif now >= deadline:
                self._sleep()

    def readline(self) -> bytes | None:
        """As :meth:`_StreamLines.readline`."""
        buffer = self.buffer
        searched = 0
        while True:
            end = buffer.find(b"\n", searched)
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                if self.skipping or len(line) > MAX_LINE:
                    self.skipping = False
                    return _TOO_LONG
                return line
            if len(buffer) > MAX_LINE:  # too long already: keep none of it
                self.skipping = True
                buffer.clear()
            searched = len(buffer)
            chunk = self._chunk()
            if not chunk:  # end of input: a last line without an end, if any
                line, skipped = bytes(buffer), self.skipping
                buffer.clear()
                self.skipping = False
                return _TOO_LONG if skipped else line or None
            buffer += chunk


def _reader(stdin: IO[bytes] | None, poll: float) -> _StreamLines | _PolledLines:
    """The polled reader for the process's own stdin when it is a pipe or a socket (POSIX),
    else the stream's readline."""
    if stdin is None:
        if poll > 0 and os.name == "posix":
            try:
                fd = sys.stdin.fileno()
                mode = os.fstat(fd).st_mode
            except (AttributeError, OSError, ValueError):  # no real stdin (replaced, closed)
                pass
            else:
                if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
                    return _PolledLines(fd, poll)
        return _StreamLines(sys.stdin.buffer)
    return _StreamLines(stdin)


_SKIP: Final = b""  # what _ServeInput.read returns for a blank line (never a request)
# A line that may be a search or a cancel spells "bot", "hint" or "cancel", or escapes one:
# one look tells the rest (the most requests) from them.
_MAYBE_SEARCH_OR_CANCEL: Final = re.compile(rb"bot|hint|cancel|\\u")


class _ServeInput:
    """The request lines of :func:`serve`, read where they cost least.

    Between searches the main thread reads its lines itself: the hot path (a ``ping``, an
    ``apply``) passes no line from thread to thread. While a search runs, a watcher thread
    reads on, so a ``cancel`` reaches :meth:`Engine.interrupt` at once; it keeps what it read
    (at most ``limit`` bytes of lines, one line always) for the main thread, which takes
    those first. Once the input has ended, the watcher looks instead whether the replies are
    still read (``out_fd``): when nobody reads them, it stops every search
    (:meth:`Engine.client_gone`).

    Only one thread is ever inside ``lines.readline``: the main thread reads only while
    the watcher is not reading (it waits for the watcher's line instead).
    """

    def __init__(self, lines: _StreamLines | _PolledLines, engine: Engine, limit: int, out_fd: int | None) -> None:
        self.lines = lines
        self.engine = engine
        self.limit = limit
        self.out_fd = out_fd
        self.cond = threading.Condition()
        self.kept: deque[bytes | None] = deque()  # read by the watcher, not yet taken
        self.size = 0  # bytes in ``kept``
        self.watching = False  # a search runs: the watcher reads
        self.reading = False  # the watcher is inside lines.readline()
        self.ended = False  # the end of input was read
        self.gone = False  # nobody reads the replies any more
        self.closed = False
        self.thread: threading.Thread | None = None
        #: Whether the line ``next`` returned last may be a search or a cancel.
        self.special = False

    def read(self) -> bytes | None:
        """One line from the input: a request, ``_TOO_LONG``, ``_SKIP`` for a blank line,
        or None at the end of input (also for a broken stdin)."""
        try:
            line = self.lines.readline()
        except Exception:  # pragma: no cover - a broken stdin: end the session as at its end
            traceback.print_exc(file=sys.stderr)
            return None
        if line is None or line is _TOO_LONG:
            return line
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line.strip():
            return _SKIP
        self.special = _MAYBE_SEARCH_OR_CANCEL.search(line) is not None
        if self.special:
            self.engine.interrupt(line)
        return line

    def next(self) -> bytes | None:
        """The next request line (or ``_TOO_LONG``), None at the end of input."""
        while True:
            # The watcher reads only while a search runs (``watching``, set by this thread):
            # unless it is reading now or kept lines, this thread alone may read (the hot
            # path, without the lock).
            if self.reading or self.kept or self.ended:
                with self.cond:
                    while not self.kept and self.reading:
                        self.cond.wait()
                    if self.kept:
                        line = self.kept.popleft()
                        self.size -= _LINE_OVERHEAD + (len(line) if line is not None else 0)
                        self.cond.notify_all()
                        if line is None:
                            self.ended = True
                        else:
                            self.special = _MAYBE_SEARCH_OR_CANCEL.search(line) is not None
                        return line
                    if self.ended:
                        return None
            line = self.read()
            if line is None:
                with self.cond:
                    self.ended = True
                return None
            if line is not _SKIP:
                return line

    def watch(self) -> _Watch:
        """A context in which the watcher reads on (around a search)."""
        return _Watch(self)

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.watching = False
            self.cond.notify_all()

    def _start(self) -> None:
        with self.cond:
            self.watching = True
            self.cond.notify_all()
        if self.thread is None:
            self.thread = threading.Thread(target=self._watcher, name="cruiselib-serve-watcher", daemon=True)
            self.thread.start()

    def _stop(self) -> None:
        with self.cond:
            self.watching = False
            self.cond.notify_all()

    def _watcher(self) -> None:
        while True:
            with self.cond:
                while not self.closed and not (
                    self.watching and ((self.ended and not self.gone) or (not self.ended and self.size < self.limit))
                ):
                    self.cond.wait()
                if self.closed:
                    return
                ended = self.ended
                if not ended:
                    self.reading = True
            if ended:
                # Nothing more to read: while the search runs, look whether anyone still
                # reads its reply.
                if self.out_fd is not None and _reader_gone(self.out_fd, timeout=_WATCH_SECONDS):
                    with self.cond:
                        self.gone = True
                    self.engine.client_gone()
                elif self.out_fd is None:
                    with self.cond:
                        while self.watching and not self.closed:
                            self.cond.wait()
                continue
            line = self.read()
            with self.cond:
                self.reading = False
                if line is not _SKIP:
                    self.kept.append(line)
                    self.size += _LINE_OVERHEAD + (len(line) if line is not None else 0)
                    if line is None:
                        self.ended = True
                self.cond.notify_all()


class _Watch:
    """``with serve_input.watch():`` the watcher reads while the block runs."""

    __slots__ = ("input",)

    def __init__(self, serve_input: _ServeInput) -> None:
        self.input = serve_input

    def __enter__(self) -> None:
        self.input._start()

    def __exit__(self, *exc: object) -> None:
        self.input._stop()


#: How often ``serve`` looks, after the end of its input, whether its replies are still read.
_WATCH_SECONDS: Final = 0.1


def _reader_gone(fd: int, timeout: float) -> bool:
    """Whether the other end of the pipe or socket ``fd`` writes to has been closed (POSIX:
    poll reports an error or a hang-up); False where that cannot be told."""
    poll = getattr(select, "poll", None)
    if poll is None:  # pragma: no cover - not POSIX
        time.sleep(timeout)
        return False
    poller = poll()
    poller.register(fd, select.POLLERR | select.POLLHUP)
    try:
        events = poller.poll(timeout * 1000)
    except (OSError, ValueError):  # pragma: no cover - a descriptor closed under us
        return True
    return any(mask & (select.POLLERR | select.POLLHUP | select.POLLNVAL) for _, mask in events)


def _watchable(stream: IO[bytes]) -> int | None:
    """The descriptor of ``stream`` if it is a pipe or socket (whose reader can go away)."""
    try:
        fd = stream.fileno()
        mode = os.fstat(fd).st_mode
    except (AttributeError, OSError, ValueError):  # an in-memory stream
        return None
    return fd if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) else None


def serve(
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    engine: Engine | None = None,
    *,
    poll: float = POLL_SECONDS,
    queue_bytes: int = MAX_QUEUE_BYTES,
) -> int:
    """Answer request lines from ``stdin`` (default: the process's) on ``stdout`` until
    ``quit`` or end of input; returns the exit status (0).

    While a search runs, a thread reads ``stdin`` on, so that a ``cancel`` stops it at once
    (``Engine.interrupt``); up to ``queue_bytes`` of lines are read ahead
    (:data:`MAX_QUEUE_BYTES`), then that thread waits. Between searches the main thread
    reads its requests itself (no hand-over between threads on the hot path). At the end of input
    the lines read are answered in order, then ``serve`` returns; but if the replies' pipe
    or socket loses its reader meanwhile (the client is gone), every search still to come
    or running is stopped (answered ``cancelled``, to nobody) and ``serve`` ends at once.

    While it runs, ``sys.stdout`` points at stderr, so that nothing but replies reaches
    the real stdout. A line longer than :data:`MAX_LINE` bytes is skipped in bounded
    memory and answered with ``line_too_long``; blank lines are ignored. Ctrl-C
    (KeyboardInterrupt) passes to the caller at once (the search runs in the main thread).
    ``poll``: seconds to poll the process's stdin for the next request before sleeping,
    when it is a pipe (:data:`POLL_SECONDS`).
    """
    out = stdout if stdout is not None else sys.stdout.buffer
    engine = engine if engine is not None else Engine()
    lines = _reader(stdin, poll)
    out_fd = _watchable(out)
    if isinstance(lines, _PolledLines) and out_fd is not None:
        lines.watch_output(out_fd, engine.client_gone)  # a client that closed only our stdout
    requests = _ServeInput(lines, engine, queue_bytes, out_fd)
    saved = sys.stdout
    if stdout is None:
        sys.stdout = sys.stderr
    try:
        while not engine.finished:
            line = requests.next()
            if line is None:
                return 0
            if line is _TOO_LONG:
                out.write(_line_too_long() + b"\n")
            elif requests.special and is_search(line):
                with requests.watch():
                    reply = engine.handle_line(line)
                out.write(reply + b"\n")
            else:
                out.write(engine.handle_line(line) + b"\n")
            out.flush()
        return 0
    finally:
        sys.stdout = saved
        engine.cancel_all()
        requests.close()
        if not requests.reading:
            lines.close()
