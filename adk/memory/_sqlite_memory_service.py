"""SqliteMemoryService: google.adk's persistent keyword memory in a SQLite file.

Runs on: activity side. Every worker on a host can share one file (WAL, a busy
timeout), the session store's or another: it is the memory the worker uses by
default (`python -m worker --memory`). The tables are google-adk 2.13's, so a
file either writes can be read by the other. Search is SQLite's FTS5 (bm25
ranking) when the build has it, else a LIKE scan ranked by matched words.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import sqlite3
import threading
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar
from urllib.parse import unquote, urlparse

from google.genai import types

from ..platform import time as platform_time
from . import _utils
from ._words import split_script_runs
from .base_memory_service import BaseMemoryService, SearchMemoryResponse
from .memory_entry import MemoryEntry

if TYPE_CHECKING:
    from ..events.event import Event
    from ..sessions.session import Session

T = TypeVar("T")

_SCHEMA_VERSION = "1"
_DEFAULT_MAX_RESULTS = 50
_DEFAULT_MAX_EVENT_BYTES = 262_144
_BUSY_TIMEOUT_MS = 3_000
_UNKNOWN_SESSION_ID = "__unknown_session_id__"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS adk_memory_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS memory_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_name TEXT NOT NULL,
  user_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  author TEXT NOT NULL,
  timestamp REAL NOT NULL,
  content_json TEXT NOT NULL,
  search_text TEXT NOT NULL,
  UNIQUE(app_name, user_id, session_id, event_id)
);
CREATE INDEX IF NOT EXISTS idx_memory_events_scope
  ON memory_events(app_name, user_id, timestamp DESC);
"""

_FTS = """
CREATE VIRTUAL TABLE IF NOT EXISTS memory_events_fts USING fts5(
  search_text, content='memory_events', content_rowid='id', tokenize='unicode61');
CREATE TRIGGER IF NOT EXISTS memory_events_ai AFTER INSERT ON memory_events BEGIN
  INSERT INTO memory_events_fts(rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER IF NOT EXISTS memory_events_ad AFTER DELETE ON memory_events BEGIN
  INSERT INTO memory_events_fts(memory_events_fts, rowid, search_text)
    VALUES('delete', old.id, old.search_text);
END;
CREATE TRIGGER IF NOT EXISTS memory_events_au AFTER UPDATE OF search_text ON memory_events BEGIN
  INSERT INTO memory_events_fts(memory_events_fts, rowid, search_text)
    VALUES('delete', old.id, old.search_text);
  INSERT INTO memory_events_fts(rowid, search_text) VALUES (new.id, new.search_text);
END;
"""

_UPSERT = """
INSERT INTO memory_events (
  app_name, user_id, session_id, event_id, author, timestamp, content_json, search_text
) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT(app_name, user_id, session_id, event_id) DO UPDATE SET
  author=excluded.author, timestamp=excluded.timestamp,
  content_json=excluded.content_json, search_text=excluded.search_text
"""

_COLUMNS = "memory_events.id, session_id, event_id, author, timestamp, content_json"


class SqliteMemoryService(BaseMemoryService):
    """A persistent local memory in SQLite. Events without an id are keyed by a hash
    of their author, time and content, so adding them again changes nothing."""

    def __init__(
        self,
        db_path: str | Path,
        *,
        fts: Literal["auto", "on", "off"] = "auto",
        max_event_bytes: int = _DEFAULT_MAX_EVENT_BYTES,
        max_results: int = _DEFAULT_MAX_RESULTS,
    ) -> None:
        """`db_path`: a file path or a `sqlite:///` URL (`:memory:` for one in the
        process). `fts`: use FTS5 ("auto": when the build has it). `max_event_bytes`:
        how much of an event's text is indexed. `max_results`: per search."""
        self._db_path, self._connect_to, self._uri = _parse_db_path(db_path)
        if self._db_path != ":memory:":
            path = Path(self._db_path)
            if path.exists() and path.is_dir():
                raise ValueError(f"db_path {self._db_path} is a directory.")
            path.parent.mkdir(parents=True, exist_ok=True)
        if fts not in ("auto", "on", "off"):
            raise ValueError("fts must be one of: auto, on, off.")
        if max_event_bytes <= 0:
            raise ValueError("max_event_bytes must be positive.")
        if max_results <= 0:
            raise ValueError("max_results must be positive.")
        self.db_path = self._db_path
        """The database file (or `:memory:`)."""
        self._fts_mode = fts
        self._max_event_bytes = max_event_bytes
        self._max_results = max_results
        self._conn: sqlite3.Connection | None = None
        self._fts = False
        self._lock = threading.Lock()

    async def close(self) -> None:
        """Close the database connection (opened again on the next use)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

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
            row
            for event in events
            if (row := self._row(app_name, user_id, session_id or _UNKNOWN_SESSION_ID, event))
        ]
        if rows:
            await self._run(lambda conn: conn.executemany(_UPSERT, rows))

    def _row(self, app_name: str, user_id: str, session_id: str, event: Event) -> tuple | None:  # type: ignore[type-arg]
        return event_row(app_name, user_id, session_id, event, self._max_event_bytes)

    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        if not query or not query.strip():
            return SearchMemoryResponse()
        tokens = query_tokens(query)
        if not tokens:
            return SearchMemoryResponse()

        def search(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
            if self._fts:
                match = " OR ".join('"' + token.replace('"', '""') + '"' for token in tokens)
                return conn.execute(
                    f"SELECT {_COLUMNS} FROM memory_events_fts"
                    " JOIN memory_events ON memory_events.id = memory_events_fts.rowid"
                    " WHERE memory_events.app_name = ? AND memory_events.user_id = ?"
                    " AND memory_events_fts.search_text MATCH ?"
                    " ORDER BY bm25(memory_events_fts), memory_events.timestamp DESC LIMIT ?",
                    (app_name, user_id, match, self._max_results),
                ).fetchall()
            patterns = [f"%{like_escaped(token)}%" for token in tokens]
            like = " OR ".join(["search_text LIKE ? ESCAPE '\\'"] * len(tokens))
            score = " + ".join(
                ["(CASE WHEN search_text LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END)"] * len(tokens)
            )
            return conn.execute(
                f"SELECT {_COLUMNS} FROM memory_events WHERE app_name = ? AND user_id = ?"
                f" AND ({like}) ORDER BY ({score}) DESC, timestamp DESC LIMIT ?",
                (app_name, user_id, *patterns, *patterns, self._max_results),
            ).fetchall()

        rows = await self._run(search)
        return SearchMemoryResponse(memories=[memory_entry(row) for row in rows])

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        def call() -> T:
            with self._lock:
                conn = self._connection()
                with conn:  # one transaction: committed, or rolled back on error
                    return fn(conn)

        return await asyncio.to_thread(call)

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(self._connect_to, uri=self._uri, check_same_thread=False)
            try:
                conn.execute(f"PRAGMA busy_timeout={_BUSY_TIMEOUT_MS}")
                for pragma in ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL"):
                    try:
                        conn.execute(pragma)
                    except sqlite3.OperationalError:
                        pass
                self._fts = _create_schema(conn, self._fts_mode)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn


def _create_schema(conn: sqlite3.Connection, fts_mode: str) -> bool:
    """The tables (and FTS5 index when wanted and available); whether FTS5 is used."""
    conn.executescript(_SCHEMA)
    conn.execute(
        "INSERT OR IGNORE INTO adk_memory_metadata (key, value) VALUES (?, ?)",
        ("schema_version", _SCHEMA_VERSION),
    )
    (version,) = conn.execute(
        "SELECT value FROM adk_memory_metadata WHERE key = 'schema_version'"
    ).fetchone()
    if version != _SCHEMA_VERSION:
        raise RuntimeError(f"Unsupported schema version: {version}. Expected {_SCHEMA_VERSION}.")
    fts = False
    if fts_mode != "off":
        existed = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='memory_events_fts'"
        ).fetchone()
        try:
            conn.executescript(_FTS)
            if not existed:
                conn.execute("INSERT INTO memory_events_fts(memory_events_fts) VALUES('rebuild')")
            fts = True
        except sqlite3.OperationalError as error:
            if "no such module" not in str(error).lower():
                raise
            if fts_mode == "on":
                raise RuntimeError("FTS5 is not available in this SQLite build.") from error
    conn.commit()
    return fts


def _parse_db_path(db_path: str | Path) -> tuple[str, str, bool]:
    """(file path, what to connect to, whether that is a URI) for a path or a
    SQLAlchemy-style `sqlite:///relative.db` / `sqlite:////absolute.db` URL."""
    text = str(db_path).strip()
    if not text:
        raise ValueError("db_path must be set.")
    if not text.startswith(("sqlite:", "sqlite+aiosqlite:")):
        return text, text, False
    parsed = urlparse(text)
    path = unquote(parsed.path)
    if not path:
        return text, text, False
    path = path[1:] if path.startswith("/") else path
    if parsed.query:
        return path, f"file:{path}?{parsed.query}", True
    return path, path, False


ROW_COLUMNS = (
    "app_name",
    "user_id",
    "session_id",
    "event_id",
    "author",
    "timestamp",
    "content_json",
    "search_text",
)
"""The columns of `event_row`'s tuple, in its order."""


def event_row(
    app_name: str, user_id: str, session_id: str, event: Event, max_event_bytes: int
) -> tuple[str, str, str, str, str, float, str, str] | None:
    """An event's memory row (see ROW_COLUMNS), or None when it has no text. Events
    without an id are keyed by a hash of their author, time and content."""
    text = _event_text(event)
    if not text:
        return None
    # script runs split before lowercasing, as queries are ("İ".lower() is not Latin)
    search_text = split_script_runs(unicodedata.normalize("NFC", text)).lower()
    search_text = _truncated(search_text, max_event_bytes)
    timestamp = float(event.timestamp if event.timestamp is not None else platform_time.get_time())
    author = event.author or ""
    assert event.content is not None
    content_json = event.content.model_dump_json(exclude_none=True)
    event_id = (
        event.id or hashlib.sha256(f"{author}:{timestamp}:{content_json}".encode()).hexdigest()[:32]
    )
    return (app_name, user_id, session_id, event_id, author, timestamp, content_json, search_text)


def _event_text(event: Event) -> str:
    """The event's text parts (not thoughts), one line, space-joined."""
    if not event.content or not event.content.parts:
        return ""
    texts = [
        text
        for part in event.content.parts
        if part.text and not part.thought and (text := part.text.replace("\n", " ").strip())
    ]
    return " ".join(texts)


def _truncated(text: str, max_bytes: int) -> str:
    encoded = text.encode("utf-8")
    if len(encoded) <= max_bytes:
        return text
    return encoded[:max_bytes].decode("utf-8", errors="ignore")


def query_tokens(query: str) -> list[str]:
    """The query's distinct lowercased words, in order (script runs split)."""
    normalized = split_script_runs(unicodedata.normalize("NFC", query))
    tokens: list[str] = []
    for word in re.findall(r"[\w%]+", normalized):
        if word.lower() not in tokens:
            tokens.append(word.lower())
    return tokens


def like_escaped(word: str) -> str:
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def memory_entry(row: Sequence[Any]) -> MemoryEntry:
    id, session_id, event_id, author, timestamp, content_json = row
    return MemoryEntry(
        id=str(id),
        content=types.Content.model_validate_json(content_json),
        author=author or None,
        timestamp=_utils.format_timestamp(timestamp),
        custom_metadata={"session_id": session_id, "event_id": event_id},
    )
