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
"""

from __future__ import annotations

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


@contextlib.asynccontextmanager
async def listening(
    engine: AsyncEngine, key: Key, on_append: Callable[[int], None]
) -> AsyncIterator[Listening]:
    """Call `on_append(seq)` at each notification of the session while inside. Yields a
    Listening, not alive when the connection could not be had or is lost later (the
    caller falls back on its other wake-ups). Holds one of the engine's connections."""
    channel_name = channel(key)
    state = Listening()

    def heard(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
        on_append(int(payload) if payload.isdigit() else 0)

    def lost(_conn: Any) -> None:
        state.alive = False
        log.warning("Lost the connection listening for appends; streams wake on activity ends")

    try:
        conn = await engine.connect()
        raw: Any = (await conn.get_raw_connection()).driver_connection
        await raw.add_listener(channel_name, heard)
        raw.add_termination_listener(lost)
    except Exception as error:  # the database is away: the stream has other wake-ups
        log.warning("Not listening for appends (%s); streams wake on activity ends", error)
        yield state
        return
    state.alive = True
    try:
        yield state
    finally:
        state.alive = False
        with contextlib.suppress(Exception):  # a dead connection is dropped with it
            raw.remove_termination_listener(lost)
            await raw.remove_listener(channel_name, heard)
        with contextlib.suppress(Exception):
            await conn.close()
