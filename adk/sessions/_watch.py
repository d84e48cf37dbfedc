"""Watching a session for new events appended through the same service instance.

Runs on: process side (client streams) and activity side (appends notify).

A durable-adk extension of the session service: a client stream in the process
that also runs the worker (the Runner, tests, benchmarks) wakes up as soon as
an event is recorded, and takes it without reading the store. Writers in other
processes are not seen here; streams learn of them from Temporal (client/_follow.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import threading
from collections.abc import Callable, Iterator

from adk.events.event import Event

SessionKey = tuple[str, str, str]
"""(app_name, user_id, session_id)."""


@dataclasses.dataclass(frozen=True)
class Appended:
    """An event newly recorded through the service, with its place in the session's order."""

    after_seq: int
    """The session's last sequence number before this event (0: none)."""
    seq: int
    event: Event


@dataclasses.dataclass(eq=False)
class Listening:
    """Whether the store tells a stream of appends made anywhere (`appends_elsewhere`):
    `alive` until its connection is lost."""

    alive: bool = False


class SessionWatch:
    """Set whenever an event of the watched session is appended (from any thread or loop)."""

    def __init__(self, appending: Callable[[], bool] = lambda: False) -> None:
        self._appending = appending
        self._loop = asyncio.get_running_loop()
        self._changed = False
        self._callbacks: list[Callable[[], None]] = []
        self._appended: list[Appended] = []
        self._unplaced = False
        """A change without a place (a replaced event) since the last `take()`."""

    @property
    def appending(self) -> bool:
        """Whether an append to the session through this service instance is under way
        (its notification will follow: a stream told of it elsewhere may wait for it)."""
        return self._appending()

    @property
    def is_set(self) -> bool:
        """Whether an event was appended (or replaced) since the last `take()`."""
        return self._changed

    def clear(self) -> None:
        """Forget earlier changes: call before reading what is recorded."""
        self.take()

    def take(self) -> list[Appended]:
        """Forget earlier changes (as `clear`) and return the events whose place
        the service reported, in the order they were appended. A stream that has
        read up to an event's `after_seq` may use them without reading. Empty
        when a change without a place (a replaced event) happened since the last
        call: the events handed over may be out of date, so read the store."""
        appended, self._appended = self._appended, []
        if self._unplaced:
            appended, self._unplaced = [], False
        self._changed = False
        return appended

    def on_change(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` (on the watcher's loop) at the next change, or soon if one
        happened since `clear()`; returns what cancels it. No task is created."""
        if self._changed:
            handle = self._loop.call_soon(callback)
            return handle.cancel
        self._callbacks.append(callback)

        def cancel() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

        return cancel

    async def changed(self) -> None:
        """Return once an event was appended since the last `clear()`."""
        if self._changed:
            return
        woken: asyncio.Future[None] = self._loop.create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        cancel = self.on_change(wake)
        try:
            await woken
        finally:
            cancel()

    def _set(self, appended: Appended | None) -> None:
        if appended is None:
            self._unplaced = True
        else:
            self._appended.append(appended)
        self._changed = True
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def _notify(self, appended: Appended | None) -> None:
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is self._loop:  # the usual case (a worker's activity): no self-pipe wake-up
            # at once, not soon: a stream told of this append otherwise (PostgreSQL's
            # notification) sees it handed over, rather than reading it (its callbacks
            # only resolve futures, so the appender runs none of the stream's code)
            self._set(appended)
            return
        with contextlib.suppress(RuntimeError):  # the watcher's loop has closed: nobody waits
            self._loop.call_soon_threadsafe(self._set, appended)


class SessionWatchers:
    """The watches of one service instance, by session."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watches: dict[SessionKey, set[SessionWatch]] = {}
        self._appending: dict[SessionKey, int] = {}

    @contextlib.contextmanager
    def appending(self, key: SessionKey) -> Iterator[None]:
        """Around an append to the session (see SessionWatch.appending)."""
        with self._lock:
            self._appending[key] = self._appending.get(key, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                left = self._appending[key] - 1
                if left:
                    self._appending[key] = left
                else:
                    del self._appending[key]

    @contextlib.contextmanager
    def watch(self, key: SessionKey) -> Iterator[SessionWatch]:
        watch = SessionWatch(lambda: key in self._appending)
        with self._lock:
            self._watches.setdefault(key, set()).add(watch)
        try:
            yield watch
        finally:
            with self._lock:
                watches = self._watches.get(key)
                if watches is not None:
                    watches.discard(watch)
                    if not watches:
                        del self._watches[key]

    def notify(self, key: SessionKey, appended: Appended | None = None) -> None:
        with self._lock:
            watches = list(self._watches.get(key, ()))
        for watch in watches:
            watch._notify(appended)
