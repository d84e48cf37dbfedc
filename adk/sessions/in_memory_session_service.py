"""InMemorySessionService: the SQLite session service on a private in-memory database.

Runs on: activity and process side.

Same code as `SqliteSessionService` (one implementation); the database lives as
long as the instance and is visible only through its single shared connection.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from ..platform import uuid as platform_uuid
from . import sqlite_session_service as _sqlite
from .base_session_service import GetSessionConfig, ListSessionsResponse
from .session import Session
from .sqlite_session_service import MEMORY_PATH, SqliteSessionService

logger = logging.getLogger(__name__)
_DEPRECATED = "Deprecated. Please migrate to the async method."


class InMemorySessionService(SqliteSessionService):
    """Sessions kept in memory, for tests and single-process use."""

    def __init__(self) -> None:
        super().__init__(MEMORY_PATH)

    # google-adk 2.13's deprecated synchronous forms (they warn, as there)

    def create_session_sync(
        self,
        *,
        app_name: str,
        user_id: str,
        state: dict[str, Any] | None = None,
        session_id: str | None = None,
    ) -> Session:
        logger.warning(_DEPRECATED)
        create = functools.partial(
            _sqlite._create_session,
            app_name,
            user_id,
            session_id or platform_uuid.new_uuid(),
            dict(state or {}),
        )
        return self._transact("BEGIN IMMEDIATE", create)

    def get_session_sync(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        config: GetSessionConfig | None = None,
    ) -> Session | None:
        logger.warning(_DEPRECATED)
        get = functools.partial(_sqlite._get_session, app_name, user_id, session_id, config)
        return self._transact("BEGIN", get)

    def list_sessions_sync(
        self, *, app_name: str, user_id: str | None = None
    ) -> ListSessionsResponse:
        logger.warning(_DEPRECATED)
        listed = functools.partial(_sqlite._list_sessions, app_name, user_id)
        return ListSessionsResponse(sessions=self._transact("BEGIN", listed))

    def delete_session_sync(self, *, app_name: str, user_id: str, session_id: str) -> None:
        logger.warning(_DEPRECATED)
        delete = functools.partial(_sqlite._delete_session, app_name, user_id, session_id)
        self._transact("BEGIN IMMEDIATE", delete)
