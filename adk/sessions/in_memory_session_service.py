"""InMemorySessionService: the SQLite session service on a private in-memory database.

Runs on: activity and process side.

Same code as `SqliteSessionService` (one implementation); the database lives as
long as the instance and is visible only through its single shared connection.
"""

from __future__ import annotations

from .sqlite_session_service import MEMORY_PATH, SqliteSessionService


class InMemorySessionService(SqliteSessionService):
    """Sessions kept in memory, for tests and single-process use."""

    def __init__(self) -> None:
        super().__init__(MEMORY_PATH)
