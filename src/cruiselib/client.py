"""A typed Python client of the engine protocol (docs/protocol.md).

>>> from cruiselib.client import EngineClient
>>> with EngineClient.local() as engine:          # or EngineClient.spawn(): a subprocess
...     game = engine.new("sirens", seed=7)
...     legal = engine.legal(game.game_id)
...     done = engine.apply(game.game_id, legal.moves[0])
...     done.seat == game.current_player
True

:meth:`EngineClient.spawn` starts ``python -m cruiselib serve`` and talks to it through
pipes; :meth:`EngineClient.local` answers in-process through :class:`cruiselib.protocol.Engine`
(the same requests and replies, without the pipes). Every method sends one request and
returns its typed reply (the Structs of :mod:`cruiselib.protocol`); an error reply raises
:class:`EngineError` (an :class:`~cruiselib.IllegalMoveError`, ``InvalidOptionError`` or
``InvalidStateError`` too where the code means one of those), and the engine goes on.
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from typing import IO, Any, Protocol, TypeVar

import msgspec

from cruiselib import protocol as p
from cruiselib.errors import CruiseError, IllegalMoveError, InvalidOptionError, InvalidPositionError, InvalidStateError
from cruiselib.protocol.stdio import _line_too_long

__all__ = [
    "EngineClient",
    "EngineError",
    "EngineExitedError",
    "EngineIllegalMoveError",
    "EngineOptionError",
    "EnginePositionError",
    "EngineStateError",
    "EngineTimeoutError",
]

R = TypeVar("R", bound=p.Reply)


class EngineError(CruiseError):
    """An error reply of the engine (``code`` is the protocol's error code), or a broken
    exchange with it."""

    def __init__(self, code: str, message: str, request_id: Any = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.request_id = request_id


class EngineIllegalMoveError(EngineError, IllegalMoveError):
    """``illegal_move``, ``wrong_seat``, ``game_over`` or ``nothing_to_undo``."""


class EngineOptionError(EngineError, InvalidOptionError):
    """``bad_option``: a game name, option, seat, bot or budget the engine refused."""


class EngineStateError(EngineError, InvalidStateError):
    """``invalid_state``: a snapshot or record the engine could not load or make."""


class EnginePositionError(EngineStateError, InvalidPositionError):
    """``invalid_position``: a described position the engine could not set up; ``problems``
    names every problem."""

    def __init__(self, code: str, message: str, request_id: Any = None, problems: Sequence[str] = ()) -> None:
        # Not the bases' __init__: InvalidPositionError's takes the problems, EngineError's the code.
        CruiseError.__init__(self, f"{code}: {message}")
        self.code, self.message, self.request_id = code, message, request_id
        self.problems = tuple(problems)


class EngineExitedError(EngineError):
    """The engine process ended (or its pipes closed) before it replied."""


class EngineTimeoutError(EngineError):
    """No reply within the client's timeout (the engine may still be working: its late
    reply is skipped when it comes, and :meth:`EngineClient.cancel` stops a search)."""


_ERRORS: dict[str, type[EngineError]] = {
    "illegal_move": EngineIllegalMoveError,
    "wrong_seat": EngineIllegalMoveError,
    "game_over": EngineIllegalMoveError,
    "nothing_to_undo": EngineIllegalMoveError,
    "bad_option": EngineOptionError,
    "invalid_state": EngineStateError,
    "invalid_position": EnginePositionError,
}


class Transport(Protocol):
    """Carries one request line to the engine and brings its reply line back."""

    def roundtrip(self, line: bytes) -> bytes: ...

    def close(self) -> None: ...


class LocalTransport:
    """An in-process :class:`~cruiselib.protocol.Engine`: no process, no pipes."""

    def __init__(self, engine: p.Engine | None = None) -> None:
        self.engine = engine if engine is not None else p.Engine()

    def roundtrip(self, line: bytes) -> bytes:
        if len(line) > p.MAX_LINE:
            return _line_too_long()
        return self.engine.handle_line(line)

    def close(self) -> None:
        self.engine.close()


class PipeTransport:
    """An engine subprocess (``python -m cruiselib serve`` by default), spoken to through
    its stdin and stdout; its stderr goes where ``stderr`` says (the parent's by default)."""

    def __init__(
        self,
        command: Sequence[str] | None = None,
        *,
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
        stderr: int | IO[Any] | None = None,
        poll: float = p.POLL_SECONDS,
    ) -> None:
        argv = list(command) if command is not None else [sys.executable, "-m", "cruiselib", "serve"]
        self.timeout = timeout
        self.poll = poll if os.name == "posix" else 0.0
        self.process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            bufsize=0,
            env=None if env is None else dict(env),
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in = self.process.stdin.fileno()
        self._out = self.process.stdout.fileno()
        if self.poll > 0:
            os.set_blocking(self._out, False)  # our own end of the pipe: read by polling first
        self._buffer = bytearray()
        #: Replies the engine owes: one per line sent, until read (a timed-out wait leaves
        #: its reply owed, to be skipped before the next one).
        self.owed = 0

    @property
    def pid(self) -> int:
        return self.process.pid

    def roundtrip(self, line: bytes) -> bytes:
        """Send one non-blank line and return its reply: the replies still owed to lines
        whose wait timed out come first, and are skipped."""
        self._write(line + b"\n")
        self.owed += 1
        while True:
            reply = self._read_line()
            self.owed -= 1
            if self.owed == 0:
                return reply

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._in, view) :]
        except (BrokenPipeError, OSError) as exc:
            raise EngineExitedError("engine_exited", f"the engine is gone ({exc})") from None

    def _read_line(self) -> bytes:
        buffer = self._buffer
        start = 0
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        while True:
            end = buffer.find(b"\n", start)
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                return line
            start = len(buffer)
            chunk = self._poll() if self.poll > 0 else None
            if chunk is None:
                if deadline is not None:
                    left = deadline - time.monotonic()
                    ready, _, _ = select.select([self._out], [], [], max(left, 0.0))
                    if not ready:
                        raise EngineTimeoutError("timeout", f"no reply within {self.timeout} s")
                elif self.poll > 0:
                    select.select([self._out], [], [])
                try:
                    chunk = os.read(self._out, 1 << 16)
                except BlockingIOError:  # woken with nothing to read after all
                    continue
            if not chunk:
                raise EngineExitedError("engine_exited", f"the engine ended (exit status {self.process.poll()})")
            buffer += chunk

    def _poll(self) -> bytes | None:
        """What the engine has written within ``poll`` seconds (b"" at its end), or None:
        a reply that comes this soon is read without sleeping and being woken."""
        deadline = time.perf_counter() + self.poll
        while True:
            try:
                return os.read(self._out, 1 << 16)
            except BlockingIOError:
                if time.perf_counter() >= deadline:
                    return None

    def close(self) -> None:
        """Close the engine's stdin (it ends at end of input) and wait for it, killing it
        after 5 seconds."""
        process = self.process
        if process.stdin is not None and not process.stdin.closed:
            with contextlib.suppress(OSError):  # already gone
                process.stdin.close()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a stuck engine
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


class EngineClient:
    """The protocol's commands as typed methods, over any :class:`Transport`."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self._next_id = 0
        self._encoder = msgspec.json.Encoder()
        self._decoders: dict[type[Any], msgspec.json.Decoder[Any]] = {}
        self._error_decoder = msgspec.json.Decoder(p.ErrorReply)

    @classmethod
    def spawn(
        cls,
        command: Sequence[str] | None = None,
        *,
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
        stderr: int | IO[Any] | None = None,
        poll: float = p.POLL_SECONDS,
    ) -> EngineClient:
        """Start an engine process (``python -m cruiselib serve`` with this interpreter, or
        ``command``). ``timeout``: seconds to wait for each reply (None: for ever); writing a
        request waits apart from it while the engine reads no more (it reads at most 4 MiB
        of lines ahead of a running search).
        ``poll``: seconds to poll for a reply before sleeping until it comes (POSIX; 0:
        sleep at once), which saves the wake-up on a quick reply (docs/protocol.md,
        "Latency")."""
        return cls(PipeTransport(command, timeout=timeout, env=env, stderr=stderr, poll=poll))

    @classmethod
    def local(cls, engine: p.Engine | None = None) -> EngineClient:
        """An in-process engine (for speed, and for tests without a process)."""
        return cls(LocalTransport(engine))

    @property
    def pid(self) -> int | None:
        """The engine process's id (None in-process)."""
        return self.transport.pid if isinstance(self.transport, PipeTransport) else None

    def __enter__(self) -> EngineClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the session: ``quit`` if the engine is still there, then close the transport."""
        with contextlib.suppress(EngineError):
            self.quit()
        self.transport.close()

    # ----------------------------------------------------------------- raw access

    def send_line(self, line: bytes | str) -> dict[str, Any]:
        """Send one line exactly as given (no id is added) and return the reply as a dict,
        whatever it says. For testing the engine with lines a client would never write."""
        data = line.encode() if isinstance(line, str) else bytes(line)
        if b"\n" in data or not data.strip():
            raise ValueError("one non-blank line without a newline (the engine ignores blank lines)")
        reply: dict[str, Any] = msgspec.json.decode(self.transport.roundtrip(data))
        return reply

    def call(self, command: p.Command, reply_type: type[R]) -> R:
        """Send ``command`` (its id set here) and return its reply as ``reply_type``;
        EngineError for an error reply; EngineTimeoutError (with this request's id) if
        the reply does not come in time: it is skipped when it comes, before the next
        reply (the transport counts the replies owed)."""
        self._next_id += 1
        command.id = self._next_id
        try:
            raw = self.transport.roundtrip(self._encoder.encode(command))
        except EngineTimeoutError as exc:
            raise EngineTimeoutError(exc.code, exc.message, command.id) from None
        decoder = self._decoders.get(reply_type)
        if decoder is None:
            decoder = self._decoders[reply_type] = msgspec.json.Decoder(reply_type)
        try:
            reply: R = decoder.decode(raw)
        except msgspec.DecodeError:
            raise self._error(raw) from None
        if not reply.ok:
            raise self._error(raw)
        if reply.id != command.id:
            raise EngineError("protocol", f"reply to request {reply.id!r} where {command.id} was expected")
        return reply

    def _error(self, raw: bytes) -> EngineError:
        try:
            reply = self._error_decoder.decode(raw)
        except msgspec.DecodeError:
            return EngineError("protocol", f"not a reply of this protocol: {raw[:200]!r}")
        code, message = reply.error.code, reply.error.message
        if code == "invalid_position":
            return EnginePositionError(code, message, reply.id, reply.error.problems or ())
        return _ERRORS.get(code, EngineError)(code, message, reply.id)

    # ----------------------------------------------------------------- commands

    def hello(self, version: int | None = p.VERSION) -> p.HelloReply:
        """The handshake: the engine's protocol, versions, library version, games and bots
        (``unsupported_version`` if it does not speak ``version``)."""
        return self.call(p.Hello(version=version), p.HelloReply)

    def ping(self) -> None:
        self.call(p.Ping(), p.Reply)

    def games(self) -> list[p.GameInfo]:
        """Every game with its default options, players and action count."""
        return self.call(p.Games(), p.GamesReply).games

    def bots(self) -> list[p.BotInfo]:
        """Every bot with its options and their defaults."""
        return self.call(p.Bots(), p.BotsReply).bots

    def new(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | str | None = None,
        start_player: int | None = None,
        player: int | None = None,
        position: str | None = None,
    ) -> p.NewReply:
        """A new game (its ``game_id`` is in the reply). ``player``: the seat this client
        plays; the replies about the game then name only what that seat may know of the
        other seats' moves, and ``apply``, ``hint`` and ``legal`` serve that seat alone.
        ``position``: a described position's compact text to start from instead of a deal
        (:class:`EnginePositionError` names every problem of one that cannot be set up)."""
        return self.call(
            p.New(
                game=game,
                options=dict(options or {}),
                seed=seed,
                start_player=start_player,
                player=player,
                position=position,
            ),
            p.NewReply,
        )

    def list_games(self) -> list[p.GameSummary]:
        """The session's open games."""
        return self.call(p.List(), p.ListReply).games

    def status(self, game_id: str) -> p.StatusReply:
        return self.call(p.Status(game_id=game_id), p.StatusReply)

    def view(self, game_id: str, seat: int, *, recall: bool = False) -> dict[str, Any]:
        """What ``seat`` sees, as the game's view (JSON object; the game's view schema)."""
        view: dict[str, Any] = self.call(p.View(game_id=game_id, seat=seat, recall=recall), p.ViewReply).view
        return view

    def legal(self, game_id: str, seat: int | None = None) -> p.LegalReply:
        """The legal action ids and move texts of the seat to move (none if ``seat`` is
        given and is not to move)."""
        return self.call(p.Legal(game_id=game_id, seat=seat), p.LegalReply)

    def apply(self, game_id: str, move: int | str, *, seat: int | None = None) -> p.ApplyReply:
        """Play an action id or a move's text; ``seat``: refuse unless it is that seat's turn."""
        if isinstance(move, str):
            return self.call(p.Apply(game_id=game_id, move=move, seat=seat), p.ApplyReply)
        return self.call(p.Apply(game_id=game_id, action=move, seat=seat), p.ApplyReply)

    def bot(
        self,
        game_id: str,
        bot: str = "ismcts",
        *,
        options: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        apply: bool = False,
        seat: int | None = None,
    ) -> p.BotReply:
        """A bot's move for the seat to move (played too with ``apply=True``), said to the
        game's ``player`` (else to every seat alike): ``action`` is None for a move that
        hides something from that player."""
        return self.call(
            p.BotCommand(
                game_id=game_id,
                bot=bot,
                options=dict(options or {}),
                seed=seed,
                iterations=iterations,
                seconds=seconds,
                apply=apply,
                seat=seat,
            ),
            p.BotReply,
        )

    def hint(
        self,
        game_id: str,
        *,
        bot: str = "ismcts",
        options: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        count: int = 3,
        seat: int | None = None,
    ) -> p.HintReply:
        """The best moves for the seat to move, with a bot's visits and values."""
        return self.call(
            p.Hint(
                game_id=game_id,
                bot=bot,
                options=dict(options or {}),
                seed=seed,
                iterations=iterations,
                seconds=seconds,
                count=count,
                seat=seat,
            ),
            p.HintReply,
        )

    def undo(self, game_id: str, count: int = 1) -> p.UndoReply:
        """Take back the last ``count`` actions (said as the bot's moves are)."""
        return self.call(p.Undo(game_id=game_id, count=count), p.UndoReply)

    def render(self, game_id: str, seat: int | None = None, *, compact: bool = False) -> str:
        """A plain-text picture as ``seat`` sees the game (all of it for None); ``compact``:
        at most 80 columns and 10 lines."""
        return self.call(p.Render(game_id=game_id, seat=seat, compact=compact), p.RenderReply).text

    def save(self, game_id: str, *, snapshot: bool = True, record: bool = True) -> p.SaveReply:
        """The game's snapshot (full state, hidden cards included) and record (JSON objects)."""
        return self.call(p.Save(game_id=game_id, snapshot=snapshot, record=record), p.SaveReply)

    def load(
        self,
        *,
        snapshot: Mapping[str, Any] | str | None = None,
        record: Mapping[str, Any] | str | None = None,
        game: str | None = None,
        options: Mapping[str, Any] | None = None,
        player: int | None = None,
    ) -> p.StatusReply:
        """A new game from a snapshot or a record (JSON objects or their text);
        ``player`` as for :meth:`new`."""
        command = p.Load(game=game, options=dict(options or {}), player=player)
        # Only the fields given: an empty Raw is not JSON (and not left out as a default).
        if snapshot is not None:
            command.snapshot = msgspec.Raw(msgspec.json.encode(snapshot))
        if record is not None:
            command.record = msgspec.Raw(msgspec.json.encode(record))
        return self.call(command, p.StatusReply)

    def close_game(self, game_id: str) -> None:
        self.call(p.Close(game_id=game_id), p.CloseReply)

    def quit(self) -> None:
        """Ask the engine to end (it replies, then exits)."""
        self.call(p.Quit(), p.Reply)

    def cancel(self, target: int | str | None = None) -> bool:
        """Stop the search of request ``target`` (default: whatever search runs), e.g. one
        whose wait raised EngineTimeoutError (its id is the error's ``request_id``);
        whether a search was stopped. The stopped request's reply (``cancelled``) is
        skipped like any late reply."""
        return self.call(p.Cancel(target=target), p.CancelReply).cancelled
