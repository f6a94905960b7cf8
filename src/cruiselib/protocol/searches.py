"""The searches of one engine (``bot`` and ``hint`` with a search bot) and the ``cancel``
requests that stop them (:class:`Searches`): a cancel is seen as its line arrives, in the
server's reader thread, and answered later, in order.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from cruiselib.errors import SearchCancelled

from . import limits
from .failures import ReplyError
from .messages import Cancel

__all__ = ["PendingCancel", "RunningSearch", "Searches"]

_T = TypeVar("_T")


class RunningSearch:
    """A running search: the request's id, its cancel event and, once over, whether it was
    stopped (None while it runs)."""

    __slots__ = ("event", "request_id", "stopped")

    def __init__(self, request_id: Any) -> None:
        self.request_id = request_id
        self.event = threading.Event()
        self.stopped: bool | None = None


class PendingCancel:
    """A cancel request seen as it arrived (:meth:`Searches.seen`) and not yet answered: the
    search it stopped (``hit``), if any."""

    __slots__ = ("hit", "key", "target")

    def __init__(self, request: Cancel) -> None:
        # What matches the cancel seen with its answer: its id and its target, each with
        # its Python type (1 and "1" differ).
        self.key = (type(request.id), request.id, type(request.target), request.target)
        self.target = request.target
        self.hit: RunningSearch | None = None

    def matches(self, search: RunningSearch) -> bool:
        """Whether this cancel stops ``search``: any search without a target, else the one
        whose request id is the target (1 and 1.0, or "1" and 1, are not the same id)."""
        if self.target is None:
            return True
        target, rid = self.target, search.request_id
        return type(target) is type(rid) and bool(target == rid)

    def stop_first(self, running: list[RunningSearch]) -> None:
        """Stop the first search of ``running`` this cancel matches, if any (its ``hit``)."""
        for search in running:
            if self.matches(search):
                self.hit = search
                search.event.set()
                break


class Searches:
    """The searches running now and the cancels seen and not yet answered, guarded by one
    lock (cancels are seen in the server's reader thread); ``slots``: a server-wide bound
    on concurrent searches, acquired around each one."""

    def __init__(self, slots: threading.Semaphore | None = None) -> None:
        self.slots = slots
        self.running: list[RunningSearch] = []
        self._lock = threading.Lock()
        self._cancels: deque[PendingCancel] = deque()
        self._refuse = False  # set once the client is gone: every later search is cancelled

    def seen(self, request: Cancel) -> None:
        """A cancel request as it arrives: stop the search it names at once (or the next
        one to start, until the cancel is answered). Thread-safe."""
        pending = PendingCancel(request)
        with self._lock:
            pending.stop_first(self.running)
            self._cancels.append(pending)
            if len(self._cancels) > limits._MAX_PENDING_CANCELS:
                self._cancels.popleft()

    def answer(self, request: Cancel) -> bool:
        """Whether the cancel ``request`` stopped a search, as its reply says it. A cancel
        :meth:`seen` already acted then; one it did not see (an engine driven without a
        reader) stops a matching search still running, if any."""
        answered = PendingCancel(request)
        with self._lock:
            pending = next((c for c in self._cancels if c.key == answered.key), None)
            if pending is not None:
                self._cancels.remove(pending)
            else:
                pending = answered
                pending.stop_first(self.running)
        hit = pending.hit
        return hit is not None and hit.stopped is not False

    def stop_all(self, *, refuse_later: bool = False, forget_cancels: bool = False) -> None:
        """Stop every running search; ``refuse_later``: cancel every later one too (the
        client is gone); ``forget_cancels``: drop the cancels not yet answered. Thread-safe."""
        with self._lock:
            if refuse_later:
                self._refuse = True
            for search in self.running:
                search.event.set()
            if forget_cancels:
                self._cancels.clear()

    def run(self, request_id: Any, search: Callable[[threading.Event], _T]) -> _T:
        """``search(cancel)`` as the search of request ``request_id``: stopped by a matching
        cancel (SearchCancelled: ``cancelled``), run in a search slot if the server bounds
        them (``busy`` if none frees in time)."""
        running = RunningSearch(request_id)
        with self._lock:
            if self._refuse:
                running.event.set()
            for pending in self._cancels:  # a cancel that came before the search started
                if pending.hit is None and pending.matches(running):
                    pending.hit = running
                    running.event.set()
                    break
            self.running.append(running)
        try:
            result = self._in_slot(running, search)
        except SearchCancelled:
            running.stopped = True
            raise SearchCancelled("the search was cancelled: the game is unchanged") from None
        except BaseException:
            running.stopped = False
            raise
        finally:
            with self._lock:
                self.running.remove(running)
        running.stopped = False
        return result

    def _in_slot(self, running: RunningSearch, search: Callable[[threading.Event], _T]) -> _T:
        """``search`` run once a search slot is free (at once without slots)."""
        slots = self.slots
        if slots is not None:
            wait = limits.SEARCH_SLOT_WAIT
            deadline = time.monotonic() + wait
            while not slots.acquire(timeout=0.05):
                if running.event.is_set():
                    raise SearchCancelled("the search was cancelled before it started")
                if time.monotonic() >= deadline:
                    running.stopped = False
                    raise ReplyError("busy", f"no search slot freed within {wait:g} s: try again later")
        try:
            if running.event.is_set():
                raise SearchCancelled("the search was cancelled before it started")
            return search(running.event)
        finally:
            if slots is not None:
                slots.release()
