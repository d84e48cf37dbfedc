"""The SQLAlchemy async engines of a database-backed service, one per event loop.

Runs on: activity and process side (DatabaseSessionService, DatabaseMemoryService).

`create_engine` makes an engine as google-adk 2.13's DatabaseSessionService does
(its error texts, the URL's secrets redacted), with SQLite files in WAL mode and
writes under BEGIN IMMEDIATE. `LoopEngines` hands each event loop its engine:
asyncpg's connections belong to the loop that opened them.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

BUSY_TIMEOUT_SECONDS = 30.0
_ASYNC_DRIVERS = {
    "sqlite": "aiosqlite",
    "postgresql": "asyncpg",
    "mysql": "aiomysql",
    "mariadb": "asyncmy",
}


class LoopEngines:
    """Exactly one of `db_url` (kwargs go to `create_async_engine`) or `db_engine`
    (an AsyncEngine the caller owns, used as it is)."""

    def __init__(
        self, db_url: str | None, db_engine: AsyncEngine | None, kwargs: dict[str, Any]
    ) -> None:
        if (db_url is None) == (db_engine is None):
            raise ValueError("Exactly one of 'db_url' or 'db_engine' must be provided.")
        self._kwargs = dict(kwargs)
        self._owns = db_engine is None
        self._url = db_url
        self._by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncEngine] = (
            weakref.WeakKeyDictionary()
        )
        self._guard = threading.Lock()
        if db_engine is None:
            assert db_url is not None
            db_engine = create_engine(db_url, self._kwargs)
        self.db_engine: AsyncEngine = db_engine
        self.dialect: str = db_engine.dialect.name
        self._first: AsyncEngine | None = db_engine

    def get(self) -> AsyncEngine:
        """This event loop's engine. The first loop to ask gets the pooled engine;
        another loop (a sync Runner's thread) gets one of its own that pools nothing
        (each connection closed in its transaction's loop, none left behind when that
        loop ends). SQLite's (aiosqlite) work from any loop: one engine."""
        if self.dialect == "sqlite" or not self._owns:
            return self.db_engine
        loop = asyncio.get_running_loop()
        with self._guard:
            engine = self._by_loop.get(loop)
            if engine is None:
                if self._first is not None:
                    engine, self._first = self._first, None
                else:
                    assert self._url is not None
                    engine = create_engine(self._url, {**self._kwargs, "poolclass": NullPool})
                self._by_loop[loop] = engine
            return engine

    async def close(self) -> None:
        """Dispose of the engines made here that this loop can close."""
        if not self._owns:
            return
        current = None
        try:
            current = asyncio.get_running_loop()
        except RuntimeError:
            pass
        with self._guard:
            engines = [e for loop, e in self._by_loop.items() if loop is current]
            engines += [self.db_engine] if self.dialect == "sqlite" else []
        for engine in engines:
            await engine.dispose()


def create_engine(db_url: str, kwargs: dict[str, Any]) -> AsyncEngine:
    """As google-adk 2.13 creates it (its errors, with the URL's secrets redacted);
    SQLite files in WAL mode with a busy timeout, writes under BEGIN IMMEDIATE."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import StaticPool

    redacted = _redact(db_url)
    try:
        url = make_url(db_url)
        engine_kwargs = dict(kwargs)
        backend = url.get_backend_name()
        if backend == "sqlite":
            connect_args = dict(engine_kwargs.get("connect_args", {}))
            connect_args.setdefault("timeout", BUSY_TIMEOUT_SECONDS)
            if url.database in (None, "", ":memory:"):
                engine_kwargs.setdefault("poolclass", StaticPool)
                connect_args.setdefault("check_same_thread", False)
            engine_kwargs["connect_args"] = connect_args
        else:
            # not google-adk's pool_pre_ping (a round trip per call): `_run` retries
            # a call once on a dead pooled connection instead; pass it to have both
            engine_kwargs.setdefault("pool_pre_ping", False)
        engine = create_async_engine(db_url, **engine_kwargs)
    except Exception as error:
        if isinstance(error, sa.exc.ArgumentError):
            raise ValueError(f"Invalid database URL format or argument '{redacted}'.") from error
        if isinstance(error, sa.exc.InvalidRequestError):
            backend = make_url(db_url).get_backend_name()
            message = (
                f"Database URL '{redacted}' resolves to a synchronous driver, but this"
                " service requires an asynchronous one."
            )
            if backend in _ASYNC_DRIVERS:
                message += f" Use a '{backend}+{_ASYNC_DRIVERS[backend]}://' URL instead."
            raise ValueError(message) from error
        if isinstance(error, ImportError):
            raise ValueError(f"Database related module not found for URL '{redacted}'.") from error
        raise ValueError(f"Failed to create database engine for URL '{redacted}'") from error
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine, memory=url.database in (None, "", ":memory:"))
    return engine


def _configure_sqlite(engine: AsyncEngine, *, memory: bool) -> None:
    """Foreign keys on (as google-adk); WAL and synchronous=NORMAL for files (as the
    SQLite store: readers beside the writer, a killed process loses no commit);
    our own BEGIN: IMMEDIATE for writes, so writers queue on the busy timeout
    instead of failing when a read transaction upgrades."""

    @sa.event.listens_for(engine.sync_engine, "connect")
    def connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # no implicit BEGIN from the driver
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @sa.event.listens_for(engine.sync_engine, "begin")
    def begin(conn: sa.Connection) -> None:
        write = conn.get_execution_options().get("durable_adk_write", True)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _redact(db_url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        url = make_url(db_url)
        if url.query:
            url = url.set(query={k: "REDACTED" for k in url.query})
        return url.render_as_string(hide_password=True)
    except Exception:
        return "<unparseable database URL>"
