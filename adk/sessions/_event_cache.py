"""EventCache: decoded events of recently read sessions, refreshed from what changed.

Runs on: activity and process side (inside SqliteSessionService's read transactions).

A step of a long session used to read and decode every event of it (3,000 events:
about 0.15 s a step). The cache keeps each session's decoded events and, on the
next read, decodes only what changed since: a read costs the same at turn 300 as
at turn 1.

Nothing it did not see can slip by. The database keeps a store-wide revision
counter (table `event_revisions`) that triggers bump on every insert, content
update (`data`) and delete of an event row, by any writer of the file, this
version of the code or another: each event row keeps the revision it was last
written at, and each session row the revision of its last event write. A read
compares the session's revision with the entry's:

- equal: nothing changed, the cached events are served without reading a row;
- greater: the rows written since (`revision >` the entry's) are decoded and
  appended, or replace the cached event of the same seq; then the session's row
  count must equal the entry's length, or something was deleted (a retracted
  event, a deleted and recreated session) and the session is read in full.

Revisions are store-wide, so a recreated session can never match an old entry
by accident.

Cached Event objects are shared, not copied: copying 3,000 events costs as much
as decoding them. The engine's own code reads them and never mutates them
(request building copies each content it sends). Where code we do not own can
reach a step's session (`ReadonlyContext.session` for tools, callbacks and
instruction providers; the invocation context handed to plugins), `release`
drops the session from the cache first, so what that code does to the objects
stays with its own step. The public `get_session` never hands out cached objects.

Memory is bounded by an estimate of the decoded events' size: an LRU over
sessions holding at most `max_bytes` (64 MiB by default, or
`$DURABLE_ADK_EVENT_CACHE_MIB`). A decoded event costs
about 5.5 KiB of Python objects plus its encoded length (measured with
tracemalloc: 5.6 KiB for a 372-byte function call, 24 KiB for 20 KB of text), so
each counts `EVENT_OVERHEAD` plus the length of its stored data.
"""

from __future__ import annotations

import collections
import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from adk.events.event import Event

if TYPE_CHECKING:
    from .session import Session

DEFAULT_MAX_BYTES = 64 * 2**20
"""About 12,000 small events (a long session of 3,000 holds 16 MiB: bench/long_session.py)."""

BUDGET_ENV = "DURABLE_ADK_EVENT_CACHE_MIB"


def default_max_bytes() -> int:
    """`$DURABLE_ADK_EVENT_CACHE_MIB` (0 turns the cache off), else `DEFAULT_MAX_BYTES`."""
    setting = os.environ.get(BUDGET_ENV, "").strip()
    if not setting:
        return DEFAULT_MAX_BYTES
    try:
        mib = float(setting)
    except ValueError:
        mib = -1.0
    if not mib >= 0:
        raise ValueError(f"{BUDGET_ENV} must be a number of MiB (0 or more), not {setting!r}.")
    return int(mib * 2**20)


EVENT_OVERHEAD = 5 * 1024
"""The estimated size of a decoded event beyond its encoded length."""

E = TypeVar("E", bound="_Entry")

Key = tuple[str, str, str]
"""(app_name, user_id, session_id)"""

_BUMP = "UPDATE event_revisions SET revision = revision + 1"
_NOW = "(SELECT revision FROM event_revisions)"


def _revise(row: str) -> str:
    """Trigger body: bump the store's revision, stamp it on the row and its session."""
    return (
        f"{_BUMP};"
        f" UPDATE sessions SET revision = {_NOW}"
        f" WHERE app_name = {row}.app_name AND user_id = {row}.user_id AND id = {row}.session_id;"
    )


SCHEMA = (
    """CREATE TABLE IF NOT EXISTS event_revisions (
        id INTEGER PRIMARY KEY CHECK (id = 0), revision INTEGER NOT NULL)""",
    "INSERT OR IGNORE INTO event_revisions (id, revision) VALUES (0, 0)",
    """CREATE INDEX IF NOT EXISTS events_by_revision
        ON events (app_name, user_id, session_id, revision)""",
    f"""CREATE TRIGGER IF NOT EXISTS events_revised_on_insert AFTER INSERT ON events
        BEGIN {_revise("NEW")}
        UPDATE events SET revision = {_NOW} WHERE seq = NEW.seq; END""",
    f"""CREATE TRIGGER IF NOT EXISTS events_revised_on_update AFTER UPDATE OF data ON events
        BEGIN {_revise("NEW")}
        UPDATE events SET revision = {_NOW} WHERE seq = NEW.seq; END""",
    f"""CREATE TRIGGER IF NOT EXISTS events_revised_on_delete AFTER DELETE ON events
        BEGIN {_revise("OLD")} END""",
)
"""Additive: a table, an index, triggers, and the columns below (added when missing)."""

COLUMNS = (
    ("sessions", "revision", "INTEGER NOT NULL DEFAULT 0"),
    ("events", "revision", "INTEGER NOT NULL DEFAULT 0"),
)

_EVENTS_WHERE = "app_name = ? AND user_id = ? AND session_id = ?"


def create_schema(conn: sqlite3.Connection) -> None:
    """Add the revision columns, table, index and triggers (idempotent)."""
    for table, column, kind in COLUMNS:
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if column not in present:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    for statement in SCHEMA:
        conn.execute(statement)


@dataclass
class _Entry:
    revision: int
    events: list[Event] = field(default_factory=list)
    seqs: dict[int, int] = field(default_factory=dict)
    """seq -> position in `events`"""
    last_seq: int = 0
    released: bool = False
    """Its objects were handed to code we do not own: nothing derived from it is kept."""
    sizes: list[int] = field(default_factory=list)
    """The estimated size of each event (see `EVENT_OVERHEAD`), by position."""
    size: int = 0
    """Their sum."""

    def put(self, seq: int, event: Event, data: str | bytes) -> bool:
        """Replace the event at `seq`, or append it (decoded from `data`); False if it
        cannot go last."""
        size = EVENT_OVERHEAD + len(data)
        position = self.seqs.get(seq)
        if position is not None:
            self.events[position] = event
            self.size += size - self.sizes[position]
            self.sizes[position] = size
            return True
        if seq <= self.last_seq:
            return False
        self.seqs[seq] = len(self.events)
        self.events.append(event)
        self.sizes.append(size)
        self.size += size
        self.last_seq = seq
        return True

    def copy_into(self, fresh: E) -> E:
        """`fresh` (a new entry at a later revision) holding this entry's events."""
        fresh.events, fresh.seqs, fresh.last_seq = list(self.events), dict(self.seqs), self.last_seq
        fresh.sizes, fresh.size = list(self.sizes), self.size
        return fresh


class EventCache:
    """Per store instance: session key -> its decoded events at a revision (LRU)."""

    def __init__(self, max_bytes: int | None = None) -> None:
        self.max_bytes = default_max_bytes() if max_bytes is None else max_bytes
        self._entries: collections.OrderedDict[Key, _Entry] = collections.OrderedDict()
        self._size = 0
        self._lock = threading.Lock()  # `release` comes from the event loop's thread
        self.stats = collections.Counter[str]()
        """hit / refresh / load / evict counts, for tests and benchmarks."""

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size(self) -> int:
        """The estimated bytes held, over all sessions."""
        return self._size

    def events(self, conn: sqlite3.Connection, key: Key) -> list[Event] | None:
        """The session's events in recorded order (a new list of shared objects), read
        inside the caller's transaction; None when the session does not exist."""
        row = conn.execute(
            "SELECT revision FROM sessions WHERE app_name = ? AND user_id = ? AND id = ?", key
        ).fetchone()
        if row is None:
            self.drop(key)
            return None
        revision = int(row[0])
        with self._lock:
            entry = self._entries.get(key)
        if entry is not None and entry.revision == revision:
            self.stats["hit"] += 1
            with self._lock:
                if key in self._entries:
                    self._entries.move_to_end(key)
            return list(entry.events)
        fresh = _refreshed(conn, key, entry, revision) if entry is not None else None
        self.stats["refresh" if fresh is not None else "load"] += 1
        if fresh is None:
            fresh = _loaded(conn, key, revision)
        self._store(key, entry, fresh)
        return list(fresh.events)

    def drop(self, key: Key) -> None:
        with self._lock:
            entry = self._entries.pop(key, None)
            if entry is not None:
                entry.released = True
                self._size -= entry.size
                self.stats["evict"] += 1

    def releaser(self, key: Key) -> Callable[[], None]:
        """What `release` calls for a session served from this cache."""
        return lambda: self.drop(key)

    def _store(self, key: Key, old: _Entry | None, entry: _Entry) -> None:
        with self._lock:
            if old is not None and old.released:
                return  # released while this read refreshed it: it holds handed-out objects
            current = self._entries.pop(key, None)
            if current is not None:
                self._size -= current.size
            if entry.size > self.max_bytes:
                return  # too big to keep: read in full each time
            self._entries[key] = entry
            self._size += entry.size
            while self._size > self.max_bytes:
                _, evicted = self._entries.popitem(last=False)
                self._size -= evicted.size
                self.stats["evict"] += 1


def _refreshed(conn: sqlite3.Connection, key: Key, entry: _Entry, revision: int) -> _Entry | None:
    """The entry brought up to `revision` from the rows written since; None when that is
    not enough (rows were deleted): then the session is read in full."""
    rows = conn.execute(
        f"SELECT seq, data FROM events WHERE {_EVENTS_WHERE} AND revision > ? ORDER BY seq",
        (*key, entry.revision),
    ).fetchall()
    fresh = entry.copy_into(_Entry(revision))
    for seq, data in rows:
        if not fresh.put(seq, Event.model_validate_json(data), data):
            return None
    (count,) = conn.execute(f"SELECT COUNT(*) FROM events WHERE {_EVENTS_WHERE}", key).fetchone()
    return fresh if count == len(fresh.events) else None


def _loaded(conn: sqlite3.Connection, key: Key, revision: int) -> _Entry:
    entry = _Entry(revision)
    rows = conn.execute(f"SELECT seq, data FROM events WHERE {_EVENTS_WHERE} ORDER BY seq", key)
    for seq, data in rows.fetchall():
        entry.put(seq, Event.model_validate_json(data), data)
    return entry


def release(session: Session) -> Session:
    """Let the cache forget the session's shared events before code we do not own can
    reach them (see the module docstring). Returns the session."""
    releaser = session._release_shared_events
    if releaser is not None:
        session._release_shared_events = None
        releaser()
    return session
