"""PostgreSQL's LISTEN/NOTIFY: a stream in any process wakes when a session's event is
recorded.

Runs on: activity side (appends notify, in their transaction) and process side
(client streams listen).

Each append (or replacement) of a session's event runs `pg_notify` on the session's
channel inside its transaction, so PostgreSQL delivers it at commit, and only to
the connections listening on that channel: a stream hears of the append about a
millisecond after it commits, whichever worker made it and whether or not its
activity has ended. The payload is the event's seq (a hint: the stream reads the
store after its cursor either way). Nothing is stored; a notification nobody listens
for costs the append one statement.

The streams of one service instance (per event loop) share one connection, which
listens on their sessions' channels while any stream runs (a server streaming to
many users holds one connection, not one per stream).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ._watch import Listening

log = logging.getLogger(__name__)

Key = tuple[str, str, str]

NOTIFY = sa.text("SELECT pg_notify(:channel, :seq)")


def channel(key: Key) -> str:
    """The session's channel: a fixed-length name (identifiers stop at 63 bytes)."""
    digest = hashlib.sha256("\x1f".join(key).encode()).hexdigest()[:40]
    return f"durable_adk_{digest}"


async def notify(conn: AsyncConnection, key: Key, seq: int) -> None:
    """Within the append's transaction: delivered at its commit, never if it rolls back."""
    await conn.execute(NOTIFY, {"channel": channel(key), "seq": str(seq)})


class Listener:
    """One connection of an engine, listening on the channels its streams subscribe to."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._lock = asyncio.Lock()
        self._conn: AsyncConnection | None = None
        self._raw: Any = None
        self._subscribers: dict[str, dict[Listening, Callable[[int], None]]] = {}
        self._closing: asyncio.Future[None] | None = None

    @contextlib.asynccontextmanager
    async def subscribe(
        self, key: Key, on_append: Callable[[int], None]
    ) -> AsyncIterator[Listening]:
        """Call `on_append(seq)` at each notification of the session while inside. Yields
        a Listening, not alive when the connection could not be had or is lost later
        (the caller falls back on its other wake-ups)."""
        name = channel(key)
        state = Listening()
        try:
            async with self._lock:
                if self._raw is None:
                    await self._connect()
                subscribers = self._subscribers.setdefault(name, {})
                if not subscribers:
                    await self._raw.add_listener(name, self._heard)
                subscribers[state] = on_append
        except Exception as error:  # the database is away: the stream has other wake-ups
            log.warning("Not listening for appends (%s); streams wake on activity ends", error)
            yield state
            return
        state.alive = True
        try:
            yield state
        finally:
            state.alive = False
            await self._unsubscribe(name, state)

    async def _connect(self) -> None:
        conn = await self.engine.connect()
        try:
            raw = (await conn.get_raw_connection()).driver_connection
            assert raw is not None
            raw.add_termination_listener(self._lost)
        except BaseException:
            await conn.close()
            raise
        self._conn, self._raw = conn, raw

    async def _unsubscribe(self, name: str, state: Listening) -> None:
        async with self._lock:
            subscribers = self._subscribers.get(name, {})
            subscribers.pop(state, None)
            if subscribers or self._raw is None:
                return
            del self._subscribers[name]
            with contextlib.suppress(Exception):
                await self._raw.remove_listener(name, self._heard)
            if not self._subscribers:  # the last stream ended: the connection goes back
                await self._close()

    async def _close(self) -> None:
        conn, raw, self._conn, self._raw = self._conn, self._raw, None, None
        with contextlib.suppress(Exception):
            raw.remove_termination_listener(self._lost)
        if conn is not None:
            await _close_quietly(conn)

    def _heard(self, _conn: Any, _pid: int, name: str, payload: str) -> None:
        seq = int(payload) if payload.isdigit() else 0
        for on_append in list(self._subscribers.get(name, {}).values()):
            on_append(seq)

    def _lost(self, _conn: Any) -> None:
        log.warning("Lost the connection listening for appends; streams wake on activity ends")
        for subscribers in self._subscribers.values():
            for state in subscribers:
                state.alive = False
        self._subscribers.clear()  # later streams connect again
        conn, self._conn, self._raw = self._conn, None, None
        if conn is not None:  # back to the pool, which drops it
            self._closing = asyncio.ensure_future(_close_quietly(conn))


async def _close_quietly(conn: AsyncConnection) -> None:
    with contextlib.suppress(Exception):
        await conn.close()
