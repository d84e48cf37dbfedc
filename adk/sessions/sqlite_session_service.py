"""SqliteSessionService: the session store on one SQLite file (stdlib `sqlite3`, WAL mode).

Runs on: activity and process side.

Several worker processes and CLI clients may share one file: every call is a
short transaction (writes take `BEGIN IMMEDIATE`), WAL lets readers run beside
the writer, and a busy timeout makes writers queue instead of failing. Each
service instance owns one connection, guarded by a `threading.Lock`; blocking
calls run in `asyncio.to_thread`, so an instance works from any event loop.

State scoping follows ADK: `app:` keys live in `app_states`, `user:` keys in
`user_states` (both stored without their prefix), `temp:` keys are never
stored, and the rest belong to the session. Readers get the merged view.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

from adk.errors.already_exists_error import AlreadyExistsError
from adk.errors.session_not_found_error import SessionNotFoundError
from adk.events.event import Event
from adk.platform import time as platform_time
from adk.platform import uuid as platform_uuid

from . import _event_cache
from ._event_cache import EventCache
from ._undo import Scopes, restorations, stored_delta, undo_in
from .base_session_service import (
    BaseSessionService,
    GetSessionConfig,
    ListSessionsResponse,
)
from .session import Session
from .state import State

MEMORY_PATH = ":memory:"
BUSY_TIMEOUT_SECONDS = 30.0

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS sessions (
        app_name TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL,
        state TEXT NOT NULL, create_time REAL NOT NULL, update_time REAL NOT NULL,
        PRIMARY KEY (app_name, user_id, id))""",
    """CREATE INDEX IF NOT EXISTS sessions_by_update_time
        ON sessions (app_name, update_time)""",
    """CREATE TABLE IF NOT EXISTS app_states (
        app_name TEXT NOT NULL PRIMARY KEY, state TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS user_states (
        app_name TEXT NOT NULL, user_id TEXT NOT NULL, state TEXT NOT NULL,
        PRIMARY KEY (app_name, user_id))""",
    """CREATE TABLE IF NOT EXISTS events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        app_name TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL,
        id TEXT NOT NULL, invocation_id TEXT NOT NULL, author TEXT NOT NULL,
        branch TEXT, timestamp REAL NOT NULL, data TEXT NOT NULL,
        UNIQUE (app_name, user_id, session_id, id))""",
    """CREATE INDEX IF NOT EXISTS events_by_session
        ON events (app_name, user_id, session_id, seq)""",
    """CREATE TABLE IF NOT EXISTS apps (
        app_name TEXT NOT NULL PRIMARY KEY, root_agent TEXT NOT NULL,
        update_time REAL NOT NULL)""",
)

_COLUMNS_ADDED = (("events", "prior", "TEXT"),)
"""Columns added after the first release: added to an existing file when it opens.
events.prior: the values the event's state delta overwrote (JSON {key: [value]}, [] for
a key that was absent), so a retried step's record can replace its first attempt's."""

_SESSION_WHERE = "app_name = ? AND user_id = ? AND id = ?"
_EVENTS_WHERE = "app_name = ? AND user_id = ? AND session_id = ?"

T = TypeVar("T")


def default_db_path() -> Path:
    """`$DURABLE_ADK_SESSION_DB`, else `$DURABLE_ADK_DATA_DIR/sessions.db`, else `./.data/`."""
    explicit = os.environ.get("DURABLE_ADK_SESSION_DB")
    if explicit and "://" in explicit:
        raise ValueError(
            f"DURABLE_ADK_SESSION_DB holds a database URL ({explicit.split('://')[0]}://...):"
            " open it with DatabaseSessionService (or adk.sessions.open_session_service),"
            " not the SQLite store, which takes a file path."
        )
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("DURABLE_ADK_DATA_DIR") or ".data") / "sessions.db"


_STORE_THREAD = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="adk-session-store")
"""One thread for every store in the process (each serialises on its own lock anyway)."""


class SqliteSessionService(BaseSessionService):
    """Sessions, events and scoped state in one SQLite database."""

    def __init__(
        self,
        db_path: str | os.PathLike[str] | None = None,
        *,
        synchronous: Literal["NORMAL", "FULL"] | None = None,
        event_cache_bytes: int | None = None,
    ) -> None:
        """Open (or create) the database at `db_path` (default: `default_db_path()`).

        `synchronous` is SQLite's setting for WAL mode. NORMAL (the default, as in
        Rails and Django's recommended settings) keeps every commit across a crash
        of the process (a killed worker loses nothing) and skips an fsync per
        commit; an OS crash or power cut may roll back the last commits. FULL
        fsyncs every commit (about 0.3 ms each, measured) and survives those too.
        Unset: `$DURABLE_ADK_SQLITE_SYNCHRONOUS`, else NORMAL.

        `event_cache_bytes`: the estimated size of the decoded events the steps' reads
        keep, over all sessions (see `_event_cache.py`; default 64 MiB or
        `$DURABLE_ADK_EVENT_CACHE_MIB`); 0 turns the cache off.
        """
        if synchronous is None:
            setting = os.environ.get("DURABLE_ADK_SQLITE_SYNCHRONOUS") or "NORMAL"
            synchronous = setting.upper()  # type: ignore[assignment]
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(
                f"SQLite synchronous must be NORMAL or FULL (DURABLE_ADK_SQLITE_SYNCHRONOUS),"
                f" not {synchronous!r}."
            )
        path = os.fspath(db_path) if db_path is not None else str(default_db_path())
        if path != MEMORY_PATH:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.db_path = path
        self._lock = threading.Lock()
        self._event_cache = EventCache(event_cache_bytes)
        self._conn: sqlite3.Connection | None = _connect(path, str(synchronous))

    def close(self) -> None:
        """Close the connection; later calls raise RuntimeError."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    async def create_session(
        self,
        *,
        app_name: str,
        user_id: str,
        state: dict[str, Any] | None = None,
        session_id: str | None = None,
    ) -> Session:
        session_id = session_id or platform_uuid.new_uuid()
        create = functools.partial(
            _create_session, app_name, user_id, session_id, dict(state or {})
        )
        return await self._write(create)

    async def get_session(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        config: GetSessionConfig | None = None,
    ) -> Session | None:
        get = functools.partial(_get_session, app_name, user_id, session_id, config)
        return await self._read(get)

    async def get_state(
        self, *, app_name: str, user_id: str, session_id: str
    ) -> dict[str, Any] | None:
        return await self._read(functools.partial(_get_state, app_name, user_id, session_id))

    async def list_sessions(
        self, *, app_name: str, user_id: str | None = None
    ) -> ListSessionsResponse:
        sessions = await self._read(functools.partial(_list_sessions, app_name, user_id))
        return ListSessionsResponse(sessions=sessions)

    async def get_user_state(self, *, app_name: str, user_id: str) -> dict[str, Any]:
        key = {"app_name": app_name, "user_id": user_id}
        return await self._read(functools.partial(_load_shared_state, table="user_states", key=key))

    async def list_app_names(self) -> list[str]:
        """durable-adk: every app that has sessions (for the CLI's `sessions`)."""

        def query(conn: sqlite3.Connection) -> list[str]:
            rows = conn.execute("SELECT DISTINCT app_name FROM sessions ORDER BY app_name")
            return [row[0] for row in rows.fetchall()]

        return await self._read(query)

    async def set_app_root_agent(self, *, app_name: str, agent_name: str) -> None:
        def upsert(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO apps (app_name, root_agent, update_time) VALUES (?, ?, ?)"
                " ON CONFLICT (app_name) DO UPDATE"
                " SET root_agent = excluded.root_agent, update_time = excluded.update_time",
                (app_name, agent_name, platform_time.get_time()),
            )

        await self._write(upsert)

    async def get_app_root_agent(self, *, app_name: str) -> str | None:
        def query(conn: sqlite3.Connection) -> str | None:
            row = conn.execute(
                "SELECT root_agent FROM apps WHERE app_name = ?", (app_name,)
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._read(query)

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> None:
        await self._write(functools.partial(_delete_session, app_name, user_id, session_id))

    async def _persist(self, session: Session, event: Event) -> tuple[int, int] | None:
        """The event and its state delta in one transaction.

        Idempotent by event id: a re-append keeps the original position, replaces
        the stored event and does not re-apply its state delta.
        """
        return await self._write(functools.partial(_persist_event, session, event))

    async def get_step_session(
        self, *, app_name: str, user_id: str, session_id: str, event_ids: Sequence[str]
    ) -> Session | None:
        key = (app_name, user_id, session_id)
        step = functools.partial(_get_step_session, key, tuple(event_ids), self._event_cache)
        return await self._read(step)

    async def retract_event(self, session: Session, event_id: str) -> None:
        key = (session.app_name, session.user_id, session.id)
        undone = await self._write(functools.partial(_retract_event, key, event_id))
        session.events = [e for e in session.events if e.id != event_id]
        undo_in(session.state, undone or {})

    async def list_events(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        after_seq: int = 0,
        invocation_id: str | None = None,
    ) -> list[tuple[int, Event]]:
        query = functools.partial(
            _list_events, app_name, user_id, session_id, after_seq, invocation_id
        )
        return await self._read(query)

    async def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        return await self._in_thread(functools.partial(self._transact, "BEGIN", fn))

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        return await self._in_thread(functools.partial(self._transact, "BEGIN IMMEDIATE", fn))

    async def _in_thread(self, call: Callable[[], T]) -> T:
        """On the store's own thread: slow sync tools in the default pool can't starve it."""
        return await asyncio.get_running_loop().run_in_executor(_STORE_THREAD, call)

    def _transact(self, begin: str, fn: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            if self._conn is None:
                raise RuntimeError(f"{type(self).__name__} is closed.")
            return _in_transaction(self._conn, begin, fn)


def _connect(path: str, synchronous: str) -> sqlite3.Connection:
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False
    )
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={synchronous}")  # one of two literals (checked)
        _in_transaction(conn, "BEGIN IMMEDIATE", _create_schema)
    except BaseException:
        conn.close()
        raise
    return conn


def _create_schema(conn: sqlite3.Connection) -> None:
    for statement in _SCHEMA:
        conn.execute(statement)
    for table, column, kind in _COLUMNS_ADDED:
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if column not in present:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    _event_cache.create_schema(conn)


def _in_transaction(
    conn: sqlite3.Connection, begin: str, fn: Callable[[sqlite3.Connection], T]
) -> T:
    conn.execute(begin)
    try:
        result = fn(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


# --- sessions ---------------------------------------------------------------


def _create_session(
    app_name: str, user_id: str, session_id: str, state: dict[str, Any], conn: sqlite3.Connection
) -> Session:
    if _session_row(conn, app_name, user_id, session_id) is not None:
        raise AlreadyExistsError(f"Session with id {session_id} already exists.")
    now = platform_time.get_time()
    conn.execute(
        "INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time)"
        " VALUES (?, ?, ?, '{}', ?, ?)",
        (app_name, user_id, session_id, now, now),
    )
    scopes = Scopes(conn, app_name, user_id, session_id)
    for name, value in stored_delta(state).items():
        scopes.set(name, [value])
    scopes.flush()
    row = _session_row(conn, app_name, user_id, session_id)
    assert row is not None
    merged = _merged_state(conn, app_name, user_id, row[0])
    return Session(
        id=session_id, app_name=app_name, user_id=user_id, state=merged, last_update_time=now
    )


def _get_session(
    app_name: str,
    user_id: str,
    session_id: str,
    config: GetSessionConfig | None,
    conn: sqlite3.Connection,
) -> Session | None:
    row = _session_row(conn, app_name, user_id, session_id)
    if row is None:
        return None
    session_state, update_time = row
    return Session(
        id=session_id,
        app_name=app_name,
        user_id=user_id,
        state=_merged_state(conn, app_name, user_id, session_state),
        events=_session_events(conn, app_name, user_id, session_id, config),
        last_update_time=update_time,
    )


def _get_state(
    app_name: str, user_id: str, session_id: str, conn: sqlite3.Connection
) -> dict[str, Any] | None:
    row = _session_row(conn, app_name, user_id, session_id)
    if row is None:
        return None
    return _merged_state(conn, app_name, user_id, row[0])


def _list_sessions(app_name: str, user_id: str | None, conn: sqlite3.Connection) -> list[Session]:
    sql = "SELECT user_id, id, state, update_time FROM sessions WHERE app_name = ?"
    params: list[Any] = [app_name]
    if user_id is not None:
        sql += " AND user_id = ?"
        params.append(user_id)
    # creation order, as google.adk lists (its in-memory dict, its database rows)
    rows = conn.execute(sql + " ORDER BY create_time, rowid", params).fetchall()
    return [
        Session(
            id=row_session_id,
            app_name=app_name,
            user_id=row_user_id,
            state=_merged_state(conn, app_name, row_user_id, json.loads(state)),
            last_update_time=update_time,
        )
        for row_user_id, row_session_id, state, update_time in rows
    ]


def _delete_session(app_name: str, user_id: str, session_id: str, conn: sqlite3.Connection) -> None:
    conn.execute(f"DELETE FROM events WHERE {_EVENTS_WHERE}", (app_name, user_id, session_id))
    conn.execute(f"DELETE FROM sessions WHERE {_SESSION_WHERE}", (app_name, user_id, session_id))


def _session_row(
    conn: sqlite3.Connection, app_name: str, user_id: str, session_id: str
) -> tuple[dict[str, Any], float] | None:
    row = conn.execute(
        f"SELECT state, update_time FROM sessions WHERE {_SESSION_WHERE}",
        (app_name, user_id, session_id),
    ).fetchone()
    return None if row is None else (json.loads(row[0]), row[1])


# --- events -----------------------------------------------------------------


def _persist_event(
    session: Session, event: Event, conn: sqlite3.Connection
) -> tuple[int, int] | None:
    """The event, its state delta (with the values it overwrites, its prior) and the
    session row's update time, in one transaction. Most events write no state: then
    no state is read or written.

    Idempotent by event id: re-appending the same event changes nothing. An event of
    the same id with other content (the record of a retried step) replaces the stored
    one in full, in place: the first record's writes are undone, the new ones applied.

    Returns the event's place when it is new: (the session's last seq before it, its seq).
    """
    key = (session.app_name, session.user_id, session.id)
    data = _dump_event(event)
    row = conn.execute(
        f"SELECT seq, data, prior FROM events WHERE {_EVENTS_WHERE} AND id = ?", (*key, event.id)
    ).fetchone()
    place = None
    if row is None or row[1] != data:
        scopes = Scopes(conn, *key)
        if row is not None:
            _undo(scopes, row[1], row[2])
        delta = stored_delta(event.actions.state_delta)
        prior = json.dumps({k: scopes.get(k) for k in delta}, separators=(",", ":"))
        for name, value in delta.items():
            scopes.set(name, [value])
        columns = (event.invocation_id, event.author, event.branch, event.timestamp, data, prior)
        if row is not None:
            conn.execute(
                "UPDATE events SET invocation_id = ?, author = ?, branch = ?, timestamp = ?,"
                " data = ?, prior = ? WHERE seq = ?",
                (*columns, row[0]),
            )
        else:
            last = conn.execute(f"SELECT MAX(seq) FROM events WHERE {_EVENTS_WHERE}", key)
            before = last.fetchone()[0] or 0
            inserted = conn.execute(
                "INSERT INTO events (app_name, user_id, session_id, id, invocation_id, author,"
                " branch, timestamp, data, prior) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*key, event.id, *columns),
            )
            assert inserted.lastrowid is not None
            place = (before, inserted.lastrowid)
        scopes.flush()
    _touch(conn, key, event.timestamp)  # raising rolls the whole append back
    return place


def _undo(scopes: Scopes, data: str, prior: str | None) -> None:
    """Undo a stored event's state writes (see _undo.py)."""
    delta = Event.model_validate_json(data).actions.state_delta
    for name, held in restorations(delta, prior, scopes.get).items():
        scopes.set(name, held)


def _touch(conn: sqlite3.Connection, key: tuple[str, str, str], timestamp: float) -> None:
    updated = conn.execute(
        f"UPDATE sessions SET update_time = MAX(update_time, ?) WHERE {_SESSION_WHERE}",
        (timestamp, *key),
    )
    if updated.rowcount == 0:
        raise SessionNotFoundError(f"Session {key[2]} not found.")


def _retract_event(
    key: tuple[str, str, str], event_id: str, conn: sqlite3.Connection
) -> dict[str, list[Any]] | None:
    """Delete a stored event and undo its state writes; what was undone, None if absent."""
    row = conn.execute(
        f"SELECT seq, data, prior FROM events WHERE {_EVENTS_WHERE} AND id = ?", (*key, event_id)
    ).fetchone()
    if row is None:
        return None
    scopes = Scopes(conn, *key)
    delta = Event.model_validate_json(row[1]).actions.state_delta
    undone = restorations(delta, row[2], scopes.get)
    for name, held in undone.items():
        scopes.set(name, held)
    scopes.flush()
    conn.execute("DELETE FROM events WHERE seq = ?", (row[0],))
    return undone


def _get_step_session(
    key: tuple[str, str, str],
    event_ids: tuple[str, ...],
    cache: EventCache,
    conn: sqlite3.Connection,
) -> Session | None:
    """The session without the given events, their state writes undone (see the method).

    Its events are the cache's shared objects (see `_event_cache.release`)."""
    session = _cached_session(key, cache, conn)
    if session is None or not event_ids:
        return session
    marks = ", ".join("?" * len(event_ids))
    rows = conn.execute(
        f"SELECT data, prior FROM events WHERE {_EVENTS_WHERE} AND id IN ({marks})"
        " ORDER BY seq DESC",
        (*key, *event_ids),
    ).fetchall()
    state = session.state
    for data, prior in rows:  # the latest first: each undoes onto what preceded it
        delta = Event.model_validate_json(data).actions.state_delta
        undo_in(state, restorations(delta, prior, lambda k: [state[k]] if k in state else []))
    if rows:  # only a retry's earlier attempt recorded any (a first attempt: nothing to drop)
        session.events = [e for e in session.events if e.id not in event_ids]
    return session


def _cached_session(
    key: tuple[str, str, str], cache: EventCache, conn: sqlite3.Connection
) -> Session | None:
    row = _session_row(conn, *key)
    events = cache.events(conn, key) if row is not None else None
    if row is None or events is None:
        return None
    session_state, update_time = row
    session = Session(
        id=key[2],
        app_name=key[0],
        user_id=key[1],
        state=_merged_state(conn, key[0], key[1], session_state),
        last_update_time=update_time,
    )
    session.events = events  # assigned, not validated: the shared objects themselves
    session._release_shared_events = cache.releaser(key)
    return session


def _session_events(
    conn: sqlite3.Connection,
    app_name: str,
    user_id: str,
    session_id: str,
    config: GetSessionConfig | None,
) -> list[Event]:
    """Events in recorded order; `num_recent_events` falsy means no limit (as in ADK)."""
    sql = f"SELECT seq, data FROM events WHERE {_EVENTS_WHERE}"
    params: list[Any] = [app_name, user_id, session_id]
    if config is not None and config.after_timestamp is not None:
        sql += " AND timestamp >= ?"
        params.append(config.after_timestamp)
    if config is not None and config.num_recent_events:
        sql = f"SELECT seq, data FROM ({sql} ORDER BY seq DESC LIMIT ?)"
        params.append(config.num_recent_events)
    rows = conn.execute(sql + " ORDER BY seq", params).fetchall()
    return [Event.model_validate_json(data) for _, data in rows]


def _list_events(
    app_name: str,
    user_id: str,
    session_id: str,
    after_seq: int,
    invocation_id: str | None,
    conn: sqlite3.Connection,
) -> list[tuple[int, Event]]:
    sql = f"SELECT seq, data FROM events WHERE {_EVENTS_WHERE} AND seq > ?"
    params: list[Any] = [app_name, user_id, session_id, after_seq]
    if invocation_id is not None:
        sql += " AND invocation_id = ?"
        params.append(invocation_id)
    rows = conn.execute(sql + " ORDER BY seq", params).fetchall()
    return [(seq, Event.model_validate_json(data)) for seq, data in rows]


def _dump_event(event: Event) -> str:
    return event.model_dump_json(exclude_none=True, by_alias=True)


# --- scoped state -----------------------------------------------------------


def _load_shared_state(conn: sqlite3.Connection, table: str, key: dict[str, str]) -> dict[str, Any]:
    where = " AND ".join(f"{column} = ?" for column in key)
    row = conn.execute(f"SELECT state FROM {table} WHERE {where}", tuple(key.values())).fetchone()
    return {} if row is None else json.loads(row[0])


def _merged_state(
    conn: sqlite3.Connection, app_name: str, user_id: str, session_state: dict[str, Any]
) -> dict[str, Any]:
    """Session keys plus `app:` and `user:` keys, with their prefixes."""
    app_state = _load_shared_state(conn, "app_states", {"app_name": app_name})
    user_key = {"app_name": app_name, "user_id": user_id}
    user_state = _load_shared_state(conn, "user_states", user_key)
    return {
        **session_state,
        **{State.APP_PREFIX + k: v for k, v in app_state.items()},
        **{State.USER_PREFIX + k: v for k, v in user_state.items()},
    }
