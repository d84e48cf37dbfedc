"""DatabaseMemoryService: keyword memory in a SQL database every host can share.

Runs on: activity side (tools and callbacks search memory inside their activity;
`add_session_to_memory` runs where it is called). durable-adk's own: google-adk
2.13 has no shared keyword memory (its SqliteMemoryService is one file on one
host; its Vertex AI services need Google Cloud). This is the same memory on
SQLAlchemy's async engine, so every worker of a deployment, on any host, reads and
writes one memory: PostgreSQL (`postgresql+asyncpg://…`), SQLite
(`sqlite+aiosqlite:///…`) and, through the same code, MySQL.

The tables are SqliteMemoryService's (google-adk 2.13's `memory_events` and
`adk_memory_metadata`): a SQLite file either service wrote opens in the other.
Adding an event again (same app, user, session and event id) replaces its row,
so adding a session after every turn costs no duplicates. A search matches
any of the query's words (case-insensitively, scripts split as SqliteMemoryService
splits them) in the events' text, ranked by how many words match, then newest
first: a scan of the user's rows within one app (an index on app, user and
time narrows it), which serves thousands of memories per user.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from ..sessions._sql_engines import LoopEngines
from ._sqlite_memory_service import (
    _DEFAULT_MAX_EVENT_BYTES,
    _DEFAULT_MAX_RESULTS,
    _SCHEMA_VERSION,
    _UNKNOWN_SESSION_ID,
    ROW_COLUMNS,
    event_row,
    like_escaped,
    memory_entry,
    query_tokens,
)
from .base_memory_service import BaseMemoryService, SearchMemoryResponse

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from ..events.event import Event
    from ..sessions.session import Session

_metadata = sa.MetaData()
_ID = sa.String(128)

EVENTS = sa.Table(
    "memory_events",
    _metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("app_name", _ID, nullable=False),
    sa.Column("user_id", _ID, nullable=False),
    sa.Column("session_id", _ID, nullable=False),
    sa.Column("event_id", _ID, nullable=False),
    sa.Column("author", sa.Text, nullable=False),
    sa.Column("timestamp", sa.Float, nullable=False),
    sa.Column("content_json", sa.Text, nullable=False),
    sa.Column("search_text", sa.Text, nullable=False),
    sa.UniqueConstraint("app_name", "user_id", "session_id", "event_id"),
    sa.Index("idx_memory_events_scope", "app_name", "user_id", "timestamp"),
)
METADATA = sa.Table(
    "adk_memory_metadata",
    _metadata,
    sa.Column("key", sa.String(128), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)
_KEY = ("app_name", "user_id", "session_id", "event_id")
_PREPARE_LOCK = 7305470582
"""PostgreSQL advisory lock taken while workers starting at once create the tables."""


class DatabaseMemoryService(BaseMemoryService):
    """Keyword memory in a SQL database (see the module docstring)."""

    def __init__(
        self,
        db_url: str | None = None,
        db_engine: AsyncEngine | None = None,
        *,
        max_event_bytes: int = _DEFAULT_MAX_EVENT_BYTES,
        max_results: int = _DEFAULT_MAX_RESULTS,
        **kwargs: Any,
    ) -> None:
        """Exactly one of `db_url` (kwargs go to SQLAlchemy's `create_async_engine`)
        or `db_engine` (an AsyncEngine the caller owns). `max_event_bytes`: how much
        of an event's text is searched. `max_results`: per search."""
        if max_event_bytes <= 0:
            raise ValueError("max_event_bytes must be positive.")
        if max_results <= 0:
            raise ValueError("max_results must be positive.")
        self._engines = LoopEngines(db_url, db_engine, kwargs)
        self.db_engine: AsyncEngine = self._engines.db_engine
        self._max_event_bytes = max_event_bytes
        self._max_results = max_results
        self._tables_ready = False

    @property
    def db_url(self) -> str:
        """The database's URL with its password hidden (for logs)."""
        return self.db_engine.url.render_as_string(hide_password=True)

    async def close(self) -> None:
        """Dispose of the engines this service created."""
        await self._engines.close()

    async def prepare_tables(self) -> None:
        """Create the tables if missing (lazily before the first call; may be called
        early, as the worker does to report a database it cannot use at start)."""
        if self._tables_ready:
            return
        async with self._engines.get().begin() as conn:
            if self._engines.dialect == "postgresql":
                await conn.execute(sa.text(f"SELECT pg_advisory_xact_lock({_PREPARE_LOCK})"))
            await conn.run_sync(_metadata.create_all)
            version = (
                await conn.execute(
                    sa.select(METADATA.c.value).where(METADATA.c.key == "schema_version")
                )
            ).scalar_one_or_none()
            if version is None:
                await conn.execute(
                    METADATA.insert().values(key="schema_version", value=_SCHEMA_VERSION)
                )
            elif version != _SCHEMA_VERSION:
                raise RuntimeError(
                    f"Unsupported schema version: {version}. Expected {_SCHEMA_VERSION}."
                )
        self._tables_ready = True

    async def add_session_to_memory(self, session: Session) -> None:
        await self.add_events_to_memory(
            app_name=session.app_name,
            user_id=session.user_id,
            events=session.events,
            session_id=session.id,
        )

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        rows = [
            dict(zip(ROW_COLUMNS, row, strict=True))
            for event in events
            if (
                row := event_row(
                    app_name,
                    user_id,
                    session_id or _UNKNOWN_SESSION_ID,
                    event,
                    self._max_event_bytes,
                )
            )
        ]
        if not rows:
            return
        await self.prepare_tables()
        async with self._engines.get().begin() as conn:
            await conn.execute(self._upsert(), rows)

    def _upsert(self) -> Any:
        """INSERT … replacing the row of the same app, user, session and event id."""
        dialect = self._engines.dialect
        replaced = ("author", "timestamp", "content_json", "search_text")
        if dialect in ("postgresql", "sqlite"):
            from sqlalchemy.dialects import postgresql, sqlite

            module: Any = postgresql if dialect == "postgresql" else sqlite
            insert = module.insert(EVENTS)
            return insert.on_conflict_do_update(
                index_elements=list(_KEY),
                set_={name: insert.excluded[name] for name in replaced},
            )
        if dialect in ("mysql", "mariadb"):
            from sqlalchemy.dialects import mysql

            insert = mysql.insert(EVENTS)
            return insert.on_duplicate_key_update(
                {name: insert.inserted[name] for name in replaced}
            )
        raise NotImplementedError(f"DatabaseMemoryService on {dialect!r} databases")

    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        if not query or not query.strip():
            return SearchMemoryResponse()
        tokens = query_tokens(query)
        if not tokens:
            return SearchMemoryResponse()
        matches = [
            EVENTS.c.search_text.like(f"%{like_escaped(token)}%", escape="\\") for token in tokens
        ]
        score = sum((sa.case((match, 1), else_=0) for match in matches), sa.literal(0))
        statement = (
            sa.select(
                EVENTS.c.id,
                EVENTS.c.session_id,
                EVENTS.c.event_id,
                EVENTS.c.author,
                EVENTS.c.timestamp,
                EVENTS.c.content_json,
            )
            .where(EVENTS.c.app_name == app_name, EVENTS.c.user_id == user_id, sa.or_(*matches))
            .order_by(score.desc(), EVENTS.c.timestamp.desc(), EVENTS.c.id.desc())
            .limit(self._max_results)
        )
        await self.prepare_tables()
        async with self._engines.get().connect() as conn:
            rows = (await conn.execute(statement)).all()
        return SearchMemoryResponse(memories=[memory_entry(row) for row in rows])
