"""The session store a worker, the CLI or a client opens: one setting for all of them.

Runs on: process side.

`--db`, else `$DURABLE_ADK_SESSION_DB`: a database URL (`sqlite+aiosqlite:///path`,
`postgresql+asyncpg://user:pass@host/db`, any URL with `://`) opens a
DatabaseSessionService (google-adk's tables); a file path, or nothing, the SQLite
store (`SqliteSessionService`, default `$DURABLE_ADK_DATA_DIR/sessions.db`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .base_session_service import BaseSessionService

if TYPE_CHECKING:
    from .database_session_service import DatabaseSessionService
    from .sqlite_session_service import SqliteSessionService

ENV = "DURABLE_ADK_SESSION_DB"


def is_url(target: str) -> bool:
    return "://" in target


def open_session_service(
    target: str | None = None,
) -> SqliteSessionService | DatabaseSessionService:
    """The store `target` (or `$DURABLE_ADK_SESSION_DB`) names; ValueError when unusable."""
    target = target or os.environ.get(ENV) or None
    if target is not None and is_url(target):
        from .database_session_service import DatabaseSessionService

        return DatabaseSessionService(target)
    from .sqlite_session_service import SqliteSessionService

    return SqliteSessionService(target) if target else SqliteSessionService()


def describe(store: BaseSessionService) -> str:
    """Where a store keeps its sessions, for logs (a URL's password hidden)."""
    url = getattr(store, "db_url", None)
    if url is not None:
        return str(url)
    return str(getattr(store, "db_path", type(store).__name__))


async def check(store: BaseSessionService) -> None:
    """Reach the store now (a database's tables ready), so a wrong URL or a server that
    is down is reported at start, not at the first invocation."""
    prepare = getattr(store, "prepare_tables", None)
    if prepare is not None:
        await prepare()
