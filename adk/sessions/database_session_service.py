"""DatabaseSessionService: sessions in a SQL database through SQLAlchemy's async engine.

Runs on: activity and process side.

google-adk 2.13's `DatabaseSessionService(db_url, **kwargs)`: SQLite
(`sqlite+aiosqlite:///path`), PostgreSQL (`postgresql+asyncpg://...`), MySQL
(`mysql+aiomysql://...`), in google-adk's V1 tables (`_db_schema.py`): a database
google-adk created opens here unchanged, and google-adk reads what we write.

Beyond google-adk, as the SQLite store (`sqlite_session_service.py`) does for the
engine: appends are idempotent by event id (a retried step's record replaces the
first attempt's in place, its state writes undone: `_undo.py`), events keep their
order of recording (`list_events` streams after a seq), `get_step_session` and
`retract_event` serve retried steps, steps' reads go through the event cache, and
the app's root agent is published for starters.

Every call is one transaction. An append locks its session's row first (SELECT ...
FOR UPDATE where the database has it; SQLite writes take BEGIN IMMEDIATE), so appends
to one session are serialized across processes, each numbered after the last, and
`app:`/`user:` rows are locked before they are read and rewritten: concurrent
writers of other sessions never lose each other's keys. Reads on PostgreSQL run in
REPEATABLE READ: one snapshot for the session row, its events and its scopes.

Not as google-adk: no StaleSessionError. The engine appends to one session from
parallel branches, and a retried step appends again; each append applies its own
delta to the stored state (google-adk refuses a session object loaded before another
append).
"""

from __future__ import annotations

import asyncio
import datetime
import json
import threading
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from adk.errors.already_exists_error import AlreadyExistsError
from adk.errors.session_not_found_error import SessionNotFoundError
from adk.events.event import Event
from adk.platform import time as platform_time
from adk.platform import uuid as platform_uuid

from . import _db_schema as schema
from . import _event_cache, _listen
from ._event_cache import EventCache
from ._sql_engines import LoopEngines
from ._undo import Held, restorations, stored_delta, undo_in
from ._watch import Listening
from .base_session_service import BaseSessionService, GetSessionConfig, ListSessionsResponse
from .session import Session
from .state import State

T = TypeVar("T")
Key = tuple[str, str, str]

_ROW_LOCKS = ("postgresql", "mysql", "mariadb")
_S, _E = schema.sessions, schema.events


class DatabaseSessionService(BaseSessionService):
    """Sessions, events and scoped state in a SQL database (google-adk's V1 tables)."""

    def __init__(
        self,
        db_url: str | None = None,
        db_engine: AsyncEngine | None = None,
        *,
        event_cache_bytes: int | None = None,
        **kwargs: Any,
    ) -> None:
        """As google-adk 2.13: exactly one of `db_url` (kwargs go to
        `create_async_engine`) or `db_engine` (an AsyncEngine the caller owns).

        `event_cache_bytes` (durable-adk): the estimated size of the decoded events
        the steps' reads keep (see `_event_cache.py`; default 64 MiB or
        `$DURABLE_ADK_EVENT_CACHE_MIB`); 0 turns the cache off.
        """
        self._engines = LoopEngines(db_url, db_engine, kwargs)
        self.db_engine: AsyncEngine = self._engines.db_engine
        self.dialect = self._engines.dialect
        self._listeners: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _listen.Listener] = (
            weakref.WeakKeyDictionary()
        )
        """The connection each loop's streams listen on (PostgreSQL): `appends_elsewhere`."""
        self._guard = threading.Lock()
        self._tables_ready = False
        self._readers: dict[tuple[AsyncEngine, str], AsyncEngine] = {}
        self._event_cache = EventCache(event_cache_bytes)

    @property
    def db_url(self) -> str:
        """The database's URL with its password hidden (for logs)."""
        return self.db_engine.url.render_as_string(hide_password=True)

    # --- engines and transactions ------------------------------------------------

    def _engine(self) -> AsyncEngine:
        return self._engines.get()

    async def prepare_tables(self) -> None:
        """Create what is missing (as google-adk: lazily before the first call; may be
        called early). Refuses, with SchemaError (a ValueError), a database in another
        schema: google-adk's V0, or durable-adk's earlier SQLite store."""
        if self._tables_ready:
            return
        async with self._engine().begin() as conn:
            if self.dialect == "postgresql":  # workers starting at once: one at a time
                await conn.execute(sa.text("SELECT pg_advisory_xact_lock(7305470581)"))
            await conn.run_sync(schema.prepare)
        self._tables_ready = True

    @asynccontextmanager
    async def _transaction(self, mode: str) -> AsyncIterator[AsyncConnection]:
        """One transaction: "write" (SQLite: BEGIN IMMEDIATE), "read" (one snapshot:
        REPEATABLE READ on PostgreSQL), or "single" (a read of one statement: no
        transaction around it on PostgreSQL, two round trips fewer)."""
        if not self._tables_ready:
            await self.prepare_tables()
        engine = self._engine()
        if mode != "write":
            engine = self._readers.get((engine, mode)) or self._reader(engine, mode)
        async with engine.begin() as conn:
            yield conn

    def _reader(self, engine: AsyncEngine, mode: str) -> AsyncEngine:
        """The engine's reads (the same pool, other options)."""
        options: dict[str, Any] = {"durable_adk_write": False}
        if self.dialect == "postgresql":
            options["isolation_level"] = "AUTOCOMMIT" if mode == "single" else "REPEATABLE READ"
        reader = engine.execution_options(**options)
        self._readers[(engine, mode)] = reader
        return reader

    async def _run(self, mode: str, fn: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """`fn` in a transaction; once more on a fresh connection when the pooled one
        turns out dead (the server restarted): what pool_pre_ping does, without a
        round trip per call. Every write here may run twice (appends are idempotent)."""
        try:
            async with self._transaction(mode) as conn:
                return await fn(conn)
        except sa.exc.DBAPIError as error:
            if not error.connection_invalidated:
                raise
        async with self._transaction(mode) as conn:
            return await fn(conn)

    async def _write(self, fn: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        return await self._run("write", fn)

    async def _read(self, fn: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        return await self._run("read", fn)

    async def _read_one(self, fn: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        return await self._run("single", fn)

    async def close(self) -> None:
        """Dispose of the engines this service created (as google-adk's `close`)."""
        await self._engines.close()

    async def __aenter__(self) -> DatabaseSessionService:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- sessions ------------------------------------------------------------------

    async def create_session(
        self,
        *,
        app_name: str,
        user_id: str,
        state: dict[str, Any] | None = None,
        session_id: str | None = None,
    ) -> Session:
        session_id = session_id or platform_uuid.new_uuid()
        initial = stored_delta(state or {})

        async def create(conn: AsyncConnection) -> Session:
            key = (app_name, user_id, session_id)
            if await _session_row(conn, key) is not None:
                raise AlreadyExistsError(f"Session with id {session_id} already exists.")
            now = _utc_now()
            await _ensure_scope_rows(conn, app_name, user_id, now)
            session_state = {k: v for k, v in initial.items() if _scope_of(k)[0] == "session"}
            try:
                await conn.execute(
                    _S.insert().values(
                        app_name=app_name,
                        user_id=user_id,
                        id=session_id,
                        state=session_state,
                        create_time=now,
                        update_time=now,
                        durable_revision=0,
                        durable_last_seq=0,
                    )
                )
            except sa.exc.IntegrityError as error:  # a concurrent create won the race
                raise AlreadyExistsError(f"Session with id {session_id} already exists.") from error
            scopes = _Scopes(conn, key, self.dialect, session_state)
            shared = {k: v for k, v in initial.items() if _scope_of(k)[0] != "session"}
            await scopes.load(shared)
            for name, value in shared.items():
                scopes.set(name, [value])
            await scopes.flush(now)
            merged = await _merged_state(conn, app_name, user_id, session_state)
            return Session(
                id=session_id,
                app_name=app_name,
                user_id=user_id,
                state=merged,
                last_update_time=_timestamp(now),
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
        key = (app_name, user_id, session_id)

        async def get(conn: AsyncConnection) -> Session | None:
            row = await _session_row(conn, key)
            if row is None:
                return None
            return Session(
                id=session_id,
                app_name=app_name,
                user_id=user_id,
                state=await _merged_state(conn, app_name, user_id, row.state),
                events=await _session_events(conn, key, config),
                last_update_time=_timestamp(row.update_time),
            )

        return await self._read(get)

    async def get_state(
        self, *, app_name: str, user_id: str, session_id: str
    ) -> dict[str, Any] | None:
        async def get(conn: AsyncConnection) -> dict[str, Any] | None:
            found = await conn.execute(_SESSION_VIEW, _params((app_name, user_id, session_id)))
            row = found.one_or_none()
            if row is None:
                return None
            return _merge(_loads(row.state), _loads(row.app_state), _loads(row.user_state))

        return await self._read_one(get)

    async def list_sessions(
        self, *, app_name: str, user_id: str | None = None
    ) -> ListSessionsResponse:
        async def listed(conn: AsyncConnection) -> list[Session]:
            query = sa.select(_S.c.user_id, _S.c.id, _S.c.state, _S.c.update_time).where(
                _S.c.app_name == app_name
            )
            if user_id is not None:
                query = query.where(_S.c.user_id == user_id)
            # google-adk 2.13's DatabaseSessionService: least recently updated first
            query = query.order_by(_S.c.update_time, _S.c.user_id, _S.c.id)
            rows = (await conn.execute(query)).all()
            app_state = await _scope_state(conn, "app", (app_name,))
            users: dict[str, dict[str, Any]] = {}
            result = []
            for row in rows:
                if row.user_id not in users:
                    users[row.user_id] = await _scope_state(conn, "user", (app_name, row.user_id))
                result.append(
                    Session(
                        id=row.id,
                        app_name=app_name,
                        user_id=row.user_id,
                        state=_merge(_loads(row.state), app_state, users[row.user_id]),
                        last_update_time=_timestamp(row.update_time),
                    )
                )
            return result

        return ListSessionsResponse(sessions=await self._read(listed))

    async def get_user_state(self, *, app_name: str, user_id: str) -> dict[str, Any]:
        async def get(conn: AsyncConnection) -> dict[str, Any]:
            found = await conn.execute(
                sa.select(_U.c.state).where(_U.c.app_name == app_name, _U.c.user_id == user_id)
            )
            row = found.one_or_none()
            return {} if row is None else dict(_loads(row.state) or {})

        return await self._read_one(get)

    async def list_app_names(self) -> list[str]:
        """durable-adk: every app that has sessions (for the CLI's `sessions`)."""

        async def query(conn: AsyncConnection) -> list[str]:
            rows = await conn.execute(sa.select(_S.c.app_name).distinct().order_by(_S.c.app_name))
            return [row[0] for row in rows]

        return await self._read_one(query)

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> None:
        async def delete(conn: AsyncConnection) -> None:
            await conn.execute(sa.delete(_E).where(*_events_of((app_name, user_id, session_id))))
            await conn.execute(sa.delete(_S).where(*_session_is((app_name, user_id, session_id))))

        await self._write(delete)

    async def set_app_root_agent(self, *, app_name: str, agent_name: str) -> None:
        async def upsert(conn: AsyncConnection) -> None:
            now = _utc_now()
            updated = await conn.execute(
                sa.update(schema.apps)
                .where(schema.apps.c.app_name == app_name)
                .values(root_agent=agent_name, update_time=now)
            )
            if updated.rowcount == 0:
                values = {"app_name": app_name, "root_agent": agent_name, "update_time": now}
                await _insert_ignoring_duplicate(conn, schema.apps, values)
                await conn.execute(
                    sa.update(schema.apps)
                    .where(schema.apps.c.app_name == app_name)
                    .values(root_agent=agent_name, update_time=now)
                )

        await self._write(upsert)

    async def get_app_root_agent(self, *, app_name: str) -> str | None:
        async def query(conn: AsyncConnection) -> str | None:
            found = await conn.execute(
                sa.select(schema.apps.c.root_agent).where(schema.apps.c.app_name == app_name)
            )
            value = found.scalar_one_or_none()
            return None if value is None else str(value)

        return await self._read_one(query)

    async def overwrite_state(self, key: Key, state: dict[str, Any]) -> None:
        """durable-adk (for `copy_sessions`): set the session's state, its app's and its
        user's to exactly the merged `state` given (`app:`/`user:` keys by prefix)."""

        async def overwrite(conn: AsyncConnection) -> None:
            query = sa.select(_S.c.state, _S.c.durable_revision).where(*_session_is(key))
            if self.dialect in _ROW_LOCKS:
                query = query.with_for_update()
            found = (await conn.execute(query)).one_or_none()
            if found is None:
                raise SessionNotFoundError(f"Session {key[2]} not found.")
            scopes = _Scopes(conn, key, self.dialect, {})
            await scopes.load([State.APP_PREFIX, State.USER_PREFIX])
            for scope in ("app", "user"):
                scopes._loaded[scope].clear()
                scopes._dirty.add(scope)
            for name, value in stored_delta(state).items():
                scopes.set(name, [value])
            await scopes.flush(_utc_now())
            await conn.execute(
                sa.update(_S)
                .where(*_session_is(key))
                .values(
                    state=scopes.session_state,
                    durable_revision=int(found.durable_revision or 0) + 1,
                )
            )

        await self._write(overwrite)

    # --- events --------------------------------------------------------------------

    async def _persist(self, session: Session, event: Event) -> tuple[int, int] | None:
        key = (session.app_name, session.user_id, session.id)
        try:
            return await self._write(lambda conn: self._persist_event(conn, key, event))
        except sa.exc.IntegrityError:
            # the same event inserted by a concurrent attempt since this one looked (its
            # row was not in the statement's snapshot): once more, it is found this time
            return await self._write(lambda conn: self._persist_event(conn, key, event))

    async def _persist_event(
        self, conn: AsyncConnection, key: Key, event: Event
    ) -> tuple[int, int] | None:
        """The event, its state delta (with its prior) and the session row, in one
        transaction; idempotent by event id (see SqliteSessionService's `_persist_event`).
        Returns its place (the session's last seq before it, its seq) when it is new."""
        data = event.model_dump(mode="json", exclude_none=True)
        head = _APPEND_HEAD_LOCKED if self.dialect in _ROW_LOCKS else _APPEND_HEAD
        row = (await conn.execute(head, _params(key, b_id=event.id))).one_or_none()
        if row is None:
            raise SessionNotFoundError(f"Session {key[2]} not found.")
        # the locked row's counter is current; MAX(seq) only for a session google-adk made
        last = int(row.durable_last_seq if row.durable_last_seq is not None else row.last_seq or 0)
        stored = None if row.found_id is None else _loads(row.event_data)
        update_time = _utc(event.timestamp)
        revision = int(row.durable_revision or 0) + 1
        if row.unnumbered:  # events google-adk wrote: numbered now, before this one
            last = await _number_foreign_events(conn, key, last, revision)
        if stored == data:  # the same record again: nothing changes
            if row.unnumbered:
                await _touch(
                    conn, key, revision=revision, last_seq=last, update_time=row.update_time
                )
            return None
        scopes = _Scopes(conn, key, self.dialect, _loads(row.state))
        delta = stored_delta(event.actions.state_delta)
        old_delta = {} if stored is None else _stored_event(stored).actions.state_delta
        await scopes.load({**old_delta, **delta})
        if stored is not None:  # the first attempt's writes undone, the new ones applied
            for name, held in restorations(old_delta, row.durable_prior, scopes.get).items():
                scopes.set(name, held)
        prior = json.dumps({k: scopes.get(k) for k in delta}, separators=(",", ":"))
        for name, value in delta.items():
            scopes.set(name, [value])
        columns = {
            "invocation_id": event.invocation_id,
            "timestamp": update_time,
            "event_data": data,
            "durable_prior": prior,
            "durable_revision": revision,
        }
        place = None
        if stored is not None:
            await conn.execute(
                _UPDATE_EVENT,
                _params(key, b_id=event.id, **{f"v_{k}": v for k, v in columns.items()}),
            )
        else:
            await conn.execute(
                _INSERT_EVENT,
                {
                    "id": event.id,
                    "app_name": key[0],
                    "user_id": key[1],
                    "session_id": key[2],
                    "durable_seq": last + 1,
                    **columns,
                },
            )
            place = (last, last + 1)
        await scopes.flush(_utc_now())
        await _touch(
            conn,
            key,
            revision=revision,
            last_seq=last if place is None else place[1],
            update_time=max(row.update_time, update_time),
            state=scopes.session_state if scopes.session_changed else None,
        )
        if self.dialect == "postgresql":  # streams elsewhere wake at the commit
            await _listen.notify(conn, key, last if place is None else place[1])
        return place

    @asynccontextmanager
    async def appends_elsewhere(
        self, *, app_name: str, user_id: str, session_id: str, on_append: Callable[[int], None]
    ) -> AsyncIterator[Listening]:
        """On PostgreSQL: LISTEN on the session's channel, which every append notifies
        at its commit, on the one connection this loop's streams share while any runs
        (`_listen.py`). Elsewhere: nothing to listen to."""
        if self.dialect != "postgresql":
            yield Listening()
            return
        if not self._tables_ready:
            await self.prepare_tables()
        loop, engine = asyncio.get_running_loop(), self._engine()
        with self._guard:
            listener = self._listeners.get(loop)
            if listener is None:
                listener = self._listeners[loop] = _listen.Listener(engine)
        async with listener.subscribe((app_name, user_id, session_id), on_append) as state:
            yield state

    async def get_step_session(
        self, *, app_name: str, user_id: str, session_id: str, event_ids: Sequence[str]
    ) -> Session | None:
        key = (app_name, user_id, session_id)
        ids = tuple(event_ids)

        async def step(conn: AsyncConnection) -> Session | None:
            session = await self._cached_session(conn, key)
            if session is None or not ids:
                return session
            rows = (await conn.execute(_STEP_PRIORS, _params(key, b_ids=list(ids)))).all()
            state = session.state
            for data, prior in rows:  # the latest first: each undoes onto what preceded it
                delta = _stored_event(_loads(data)).actions.state_delta
                current: Callable[[str], Held] = lambda k: [state[k]] if k in state else []  # noqa: E731
                undo_in(state, restorations(delta, prior, current))
            if rows:
                session.events = [e for e in session.events if e.id not in ids]
            return session

        return await self._read(step)

    async def retract_event(self, session: Session, event_id: str) -> None:
        key = (session.app_name, session.user_id, session.id)

        async def retract(conn: AsyncConnection) -> dict[str, Held] | None:
            query = sa.select(_S.c.state, _S.c.durable_revision).where(*_session_is(key))
            if self.dialect in _ROW_LOCKS:
                query = query.with_for_update()
            found = (await conn.execute(query)).one_or_none()
            if found is None:
                return None
            row = (
                await conn.execute(
                    sa.select(_E.c.event_data, _E.c.durable_prior).where(
                        *_events_of(key), _E.c.id == event_id
                    )
                )
            ).one_or_none()
            if row is None:
                return None
            scopes = _Scopes(conn, key, self.dialect, _loads(found.state))
            delta = _stored_event(_loads(row.event_data)).actions.state_delta
            await scopes.load(delta)
            undone = restorations(delta, row.durable_prior, scopes.get)
            for name, held in undone.items():
                scopes.set(name, held)
            await scopes.flush(_utc_now())
            await conn.execute(sa.delete(_E).where(*_events_of(key), _E.c.id == event_id))
            revision = int(found.durable_revision or 0) + 1
            touched: dict[str, Any] = {"durable_revision": revision, "durable_deleted": revision}
            if scopes.session_changed:
                touched["state"] = scopes.session_state
            await conn.execute(sa.update(_S).where(*_session_is(key)).values(**touched))
            if self.dialect == "postgresql":
                await _listen.notify(conn, key, 0)
            return undone

        undone = await self._write(retract)
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
        key = (app_name, user_id, session_id)
        query = sa.select(_E.c.durable_seq, _E.c.event_data).where(
            *_events_of(key), sa.or_(_E.c.durable_seq > after_seq, _E.c.durable_seq.is_(None))
        )
        if invocation_id is not None:
            query = query.where(_E.c.invocation_id == invocation_id)

        async def listed(conn: AsyncConnection) -> list[tuple[int, Event]] | None:
            rows = (await conn.execute(query.order_by(*_in_order()))).all()
            if any(seq is None for seq, _ in rows):
                return None  # events google-adk wrote: numbered first (a write)
            return [(int(seq), _stored_event(_loads(data))) for seq, data in rows]

        found = await self._read_one(listed)
        if found is None:

            async def number(conn: AsyncConnection) -> None:
                head = _APPEND_HEAD_LOCKED if self.dialect in _ROW_LOCKS else _APPEND_HEAD
                row = (await conn.execute(head, _params(key, b_id=""))).one_or_none()
                if row is not None:
                    last = row.durable_last_seq
                    last = int(last if last is not None else row.last_seq or 0)
                    revision = int(row.durable_revision or 0) + 1
                    last = await _number_foreign_events(conn, key, last, revision)
                    await _touch(
                        conn, key, revision=revision, last_seq=last, update_time=row.update_time
                    )

            await self._write(number)
            found = await self._read_one(listed)
        return found or []

    async def _cached_session(self, conn: AsyncConnection, key: Key) -> Session | None:
        """The session with its events from the cache (shared objects: see
        `_event_cache.py`), refreshed from the rows written since: one statement when
        nothing changed, two when something did."""
        row = (await conn.execute(_SESSION_VIEW, _params(key))).one_or_none()
        if row is None:
            self._event_cache.drop(key)
            return None
        revision = int(row.durable_revision or 0)
        marker = (row.create_time, row.update_time, revision)
        cache = self._event_cache
        with cache._lock:
            entry = cache._entries.get(key)
        if isinstance(entry, _Entry) and entry.marker == marker:
            cache.stats["hit"] += 1
            with cache._lock:
                if key in cache._entries:
                    cache._entries.move_to_end(key)
            events = list(entry.events)
        else:
            fresh = None
            if (
                isinstance(entry, _Entry)
                and entry.marker[0] == marker[0]  # the same session, not a recreated one
                and int(row.durable_deleted or 0) <= entry.revision  # nothing deleted since
            ):
                fresh = await _refreshed(conn, key, entry, marker)
            cache.stats["refresh" if fresh is not None else "load"] += 1
            if fresh is None:
                fresh = await _loaded(conn, key, marker)
            if fresh is not None:
                cache._store(key, entry, fresh)
                events = list(fresh.events)
            else:  # events google-adk wrote, not numbered yet: read, not cached
                events = await _session_events(conn, key, None)
        session = Session(
            id=key[2],
            app_name=key[0],
            user_id=key[1],
            state=_merge(_loads(row.state), _loads(row.app_state), _loads(row.user_state)),
            last_update_time=_timestamp(row.update_time),
        )
        session.events = events  # assigned, not validated: the shared objects themselves
        session._release_shared_events = cache.releaser(key)
        return session


# --- the event cache's entries ---------------------------------------------------------


@dataclass
class _Entry(_event_cache._Entry):
    marker: tuple[Any, ...] = ()
    """(create_time, update_time, revision) of the session row it was read at: a write
    by google-adk changes update_time without our revision, and is read in full."""


async def _refreshed(
    conn: AsyncConnection, key: Key, entry: _event_cache._Entry, marker: tuple[Any, ...]
) -> _Entry | None:
    """The entry brought up to date from the rows written since (none deleted: the
    caller checked); None when that is not enough (events google-adk wrote)."""
    rows = await conn.execute(_ROWS_SINCE, _params(key, b_rev=entry.revision))
    fresh = entry.copy_into(_Entry(marker[2], marker=marker))
    for seq, data in rows:
        if seq is None or not fresh.put(int(seq), _stored_event(_loads(data)), _encoded(data)):
            return None
    return fresh


async def _loaded(conn: AsyncConnection, key: Key, marker: tuple[Any, ...]) -> _Entry | None:
    entry = _Entry(marker[2], marker=marker)
    rows = await conn.execute(
        sa.select(_E.c.durable_seq, _E.c.event_data).where(*_events_of(key)).order_by(*_in_order())
    )
    for seq, data in rows:
        if seq is None:
            return None
        entry.put(int(seq), _stored_event(_loads(data)), _encoded(data))
    return entry


def _encoded(data: Any) -> str | bytes:
    """An event row's stored data, for the cache's estimate of its size (a JSONB value
    counts as none: the estimate is then the per-event overhead alone)."""
    return data if isinstance(data, str | bytes) else ""


# --- rows ------------------------------------------------------------------------------


def _session_is(key: Key) -> tuple[Any, ...]:
    return (_S.c.app_name == key[0], _S.c.user_id == key[1], _S.c.id == key[2])


def _events_of(key: Key) -> tuple[Any, ...]:
    return (_E.c.app_name == key[0], _E.c.user_id == key[1], _E.c.session_id == key[2])


def _in_order() -> tuple[Any, ...]:
    """Recorded order; events google-adk wrote (no seq yet) last, in its own order."""
    unnumbered = sa.case((_E.c.durable_seq.is_(None), 1), else_=0)
    return (unnumbered, _E.c.durable_seq, _E.c.timestamp, _E.c.id)


def _newest_first() -> tuple[Any, ...]:
    unnumbered = sa.case((_E.c.durable_seq.is_(None), 1), else_=0)
    return (unnumbered.desc(), _E.c.durable_seq.desc(), _E.c.timestamp.desc(), _E.c.id.desc())


def _params(key: Key, **more: Any) -> dict[str, Any]:
    return {"b_app": key[0], "b_user": key[1], "b_sid": key[2], **more}


def _bound_session() -> tuple[Any, ...]:
    return (
        _S.c.app_name == sa.bindparam("b_app"),
        _S.c.user_id == sa.bindparam("b_user"),
        _S.c.id == sa.bindparam("b_sid"),
    )


def _bound_events(table: Any = _E) -> tuple[Any, ...]:
    return (
        table.c.app_name == sa.bindparam("b_app"),
        table.c.user_id == sa.bindparam("b_user"),
        table.c.session_id == sa.bindparam("b_sid"),
    )


# Statements built once (their compiled forms cached by SQLAlchemy): the hot paths
# run them with parameters only.
_A, _U = schema.app_states, schema.user_states

_SESSION_VIEW = (
    sa.select(
        _S.c.state,
        _S.c.create_time,
        _S.c.update_time,
        _S.c.durable_revision,
        _S.c.durable_deleted,
        _A.c.state.label("app_state"),
        _U.c.state.label("user_state"),
    )
    .select_from(
        _S.outerjoin(_A, _A.c.app_name == _S.c.app_name).outerjoin(
            _U, sa.and_(_U.c.app_name == _S.c.app_name, _U.c.user_id == _S.c.user_id)
        )
    )
    .where(*_bound_session())
)
"""A session's row with its app's and user's state (one statement)."""

_ROWS_SINCE = (
    sa.select(_E.c.durable_seq, _E.c.event_data)
    .where(
        *_bound_events(),
        sa.or_(_E.c.durable_revision > sa.bindparam("b_rev"), _E.c.durable_seq.is_(None)),
    )
    .order_by(_E.c.durable_seq)
)


def _append_head() -> Any:
    found = _E.alias("found")
    last_seq = sa.select(sa.func.max(_E.c.durable_seq)).where(*_bound_events()).scalar_subquery()
    unnumbered = (
        sa.select(sa.func.count())
        .select_from(_E)
        .where(*_bound_events(), _E.c.durable_seq.is_(None))
        .scalar_subquery()
    )
    return (
        sa.select(
            _S.c.state,
            _S.c.update_time,
            _S.c.durable_revision,
            _S.c.durable_last_seq,
            last_seq.label("last_seq"),
            unnumbered.label("unnumbered"),
            found.c.id.label("found_id"),
            found.c.event_data,
            found.c.durable_prior,
        )
        .select_from(
            _S.outerjoin(
                found,
                sa.and_(
                    found.c.app_name == _S.c.app_name,
                    found.c.user_id == _S.c.user_id,
                    found.c.session_id == _S.c.id,
                    found.c.id == sa.bindparam("b_id"),
                ),
            )
        )
        .where(*_bound_session())
    )


_APPEND_HEAD = _append_head()
"""An append's first statement: the session row (locked: `_LOCKED`), its last seq, whether
google-adk wrote events it has not numbered yet, and the event's record if it has one."""
_APPEND_HEAD_LOCKED = _append_head().with_for_update(of=_S)

_INSERT_EVENT = _E.insert()

_STEP_PRIORS = (
    sa.select(_E.c.event_data, _E.c.durable_prior)
    .where(*_bound_events(), _E.c.id.in_(sa.bindparam("b_ids", expanding=True)))
    .order_by(*_newest_first())
)

_UPDATE_EVENT = (
    sa.update(_E)
    .where(*_bound_events(), _E.c.id == sa.bindparam("b_id"))
    .values(
        invocation_id=sa.bindparam("v_invocation_id"),
        timestamp=sa.bindparam("v_timestamp", type_=schema.Timestamp()),
        event_data=sa.bindparam("v_event_data", type_=schema.Json()),
        durable_prior=sa.bindparam("v_durable_prior"),
        durable_revision=sa.bindparam("v_durable_revision"),
    )
)


def _touch_statement(with_state: bool) -> Any:
    values: dict[str, Any] = {
        "durable_revision": sa.bindparam("v_revision"),
        "durable_last_seq": sa.bindparam("v_last_seq"),
        "update_time": sa.bindparam("v_update_time", type_=schema.Timestamp()),
    }
    if with_state:
        values["state"] = sa.bindparam("v_state", type_=schema.Json())
    return sa.update(_S).where(*_bound_session()).values(**values)


_TOUCH = _touch_statement(False)
_TOUCH_STATE = _touch_statement(True)


async def _touch(
    conn: AsyncConnection,
    key: Key,
    *,
    revision: int,
    last_seq: int,
    update_time: datetime.datetime,
    state: dict[str, Any] | None = None,
) -> None:
    """The session row's one write of an append (its state too when it changed)."""
    params = _params(key, v_revision=revision, v_last_seq=last_seq, v_update_time=update_time)
    if state is None:
        await conn.execute(_TOUCH, params)
    else:
        await conn.execute(_TOUCH_STATE, {**params, "v_state": state})


async def _session_row(conn: AsyncConnection, key: Key) -> Any:
    query = sa.select(_S.c.state, _S.c.create_time, _S.c.update_time, _S.c.durable_revision).where(
        *_session_is(key)
    )
    return (await conn.execute(query)).one_or_none()


async def _session_events(
    conn: AsyncConnection, key: Key, config: GetSessionConfig | None
) -> list[Event]:
    """Events in recorded order; `num_recent_events` falsy means no limit (as in ADK)."""
    query = sa.select(_E.c.event_data).where(*_events_of(key))
    if config is not None and config.after_timestamp is not None:
        query = query.where(_E.c.timestamp >= _utc(config.after_timestamp))
    if config is not None and config.num_recent_events:
        newest = query.order_by(*_newest_first()).limit(config.num_recent_events)
        rows = list((await conn.execute(newest)).all())
        rows.reverse()
    else:
        rows = list((await conn.execute(query.order_by(*_in_order()))).all())
    return [_stored_event(_loads(data)) for (data,) in rows]


async def _number_foreign_events(conn: AsyncConnection, key: Key, last: int, revision: int) -> int:
    """Number the events google-adk wrote (no seq) after the others, in its order
    (timestamp, id), at `revision`; the session's row is locked. Returns the last seq."""
    rows = await conn.execute(
        sa.select(_E.c.id)
        .where(*_events_of(key), _E.c.durable_seq.is_(None))
        .order_by(_E.c.timestamp, _E.c.id)
    )
    for (event_id,) in rows.all():
        last += 1
        await conn.execute(
            sa.update(_E)
            .where(*_events_of(key), _E.c.id == event_id)
            .values(durable_seq=last, durable_revision=revision)
        )
    return last


def _stored_event(data: dict[str, Any]) -> Event:
    return Event.model_validate(data)


def _loads(value: Any) -> Any:
    """A JSON column's value: decoded from text, or as JSONB gave it."""
    if isinstance(value, str | bytes):
        return json.loads(value)
    return {} if value is None else value


# --- scoped state ------------------------------------------------------------------------


def _scope_of(key: str) -> tuple[str, str]:
    for scope, prefix in (("app", State.APP_PREFIX), ("user", State.USER_PREFIX)):
        if key.startswith(prefix):
            return scope, key.removeprefix(prefix)
    return "session", key


def _merge(
    session_state: dict[str, Any], app_state: dict[str, Any], user_state: dict[str, Any]
) -> dict[str, Any]:
    return {
        **session_state,
        **{State.APP_PREFIX + k: v for k, v in app_state.items()},
        **{State.USER_PREFIX + k: v for k, v in user_state.items()},
    }


async def _scope_state(
    conn: AsyncConnection, scope: str, ids: tuple[str, ...], *, lock: bool = False
) -> dict[str, Any]:
    table = schema.app_states if scope == "app" else schema.user_states
    query = sa.select(table.c.state).where(table.c.app_name == ids[0])
    if scope == "user":
        query = query.where(table.c.user_id == ids[1])
    if lock:
        query = query.with_for_update()
    return dict(_loads((await conn.execute(query)).scalar_one_or_none()))


async def _merged_state(
    conn: AsyncConnection, app_name: str, user_id: str, session_state: Any
) -> dict[str, Any]:
    """Session keys plus `app:` and `user:` keys, with their prefixes."""
    app_state = await _scope_state(conn, "app", (app_name,))
    user_state = await _scope_state(conn, "user", (app_name, user_id))
    return _merge(_loads(session_state), app_state, user_state)


async def _ensure_scope_rows(
    conn: AsyncConnection, app_name: str, user_id: str, now: datetime.datetime
) -> None:
    """The app's and the user's state rows (google-adk's appends require them)."""
    for table, values in (
        (schema.app_states, {"app_name": app_name}),
        (schema.user_states, {"app_name": app_name, "user_id": user_id}),
    ):
        await _insert_ignoring_duplicate(conn, table, {**values, "state": {}, "update_time": now})


async def _insert_ignoring_duplicate(
    conn: AsyncConnection, table: sa.Table, values: dict[str, Any]
) -> None:
    name = conn.dialect.name
    if name in ("sqlite", "postgresql"):
        insert = sqlite.insert if name == "sqlite" else postgresql.insert
        await conn.execute(insert(table).values(**values).on_conflict_do_nothing())
    elif name in ("mysql", "mariadb"):
        await conn.execute(table.insert().prefix_with("IGNORE").values(**values))
    else:
        primary = [c == values[c.name] for c in table.primary_key.columns]
        if (await conn.execute(sa.select(*table.primary_key.columns).where(*primary))).first():
            return
        try:
            async with conn.begin_nested():
                await conn.execute(table.insert().values(**values))
        except sa.exc.IntegrityError:
            pass


class _Scopes:
    """The app, user and session state of one session (the session row already read,
    under its lock), each loaded on first use (its row locked) and written back once."""

    def __init__(self, conn: AsyncConnection, key: Key, dialect: str, session_state: Any):
        self._conn = conn
        self._key = key
        self._lock = dialect in _ROW_LOCKS
        self.session_state: dict[str, Any] = dict(_loads(session_state))
        self._loaded: dict[str, dict[str, Any]] = {"session": self.session_state}
        self._dirty: set[str] = set()

    @property
    def session_changed(self) -> bool:
        return "session" in self._dirty

    async def load(self, keys: Any) -> None:
        """Load (and lock) the scopes these keys live in; app before user, always."""
        needed = {_scope_of(k)[0] for k in keys}
        for scope in ("app", "user"):
            if scope in needed and scope not in self._loaded:
                ids = (self._key[0],) if scope == "app" else self._key[:2]
                self._loaded[scope] = await _scope_state(self._conn, scope, ids, lock=self._lock)

    def get(self, key: str) -> Held:
        scope, name = _scope_of(key)
        state = self._loaded[scope]
        return [state[name]] if name in state else []

    def set(self, key: str, held: Held) -> None:
        scope, name = _scope_of(key)
        state = self._loaded[scope]
        if held:
            state[name] = held[0]
        else:
            state.pop(name, None)
        self._dirty.add(scope)

    async def flush(self, now: datetime.datetime) -> None:
        """Write back the app and user scopes that changed (the caller writes the
        session row: once, with its other columns)."""
        app_name, user_id, _ = self._key
        for scope in sorted(self._dirty - {"session"}):
            table = schema.app_states if scope == "app" else schema.user_states
            ids = (
                {"app_name": app_name}
                if scope == "app"
                else {"app_name": app_name, "user_id": user_id}
            )
            where = [table.c[name] == value for name, value in ids.items()]
            state = self._loaded[scope]
            updated = await self._conn.execute(
                sa.update(table).where(*where).values(state=state, update_time=now)
            )
            if updated.rowcount == 0:  # a database where the row was never made
                await _insert_ignoring_duplicate(
                    self._conn, table, {**ids, "state": state, "update_time": now}
                )


# --- time ----------------------------------------------------------------------------------


def _utc(timestamp: float) -> datetime.datetime:
    """A POSIX timestamp as google-adk stores it: a naive UTC datetime."""
    return datetime.datetime.fromtimestamp(timestamp, tz=datetime.UTC).replace(tzinfo=None)


def _utc_now() -> datetime.datetime:
    return _utc(platform_time.get_time())


def _timestamp(value: datetime.datetime) -> float:
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.UTC)
    return value.timestamp()
