"""Sessions: conversations, their events and scoped state. Mirrors `google.adk.sessions`.

Runs on: activity and process side. The store-backed services are imported
lazily: the workflow side imports this package for Session and State, and
must not pull in sqlite3 or SQLAlchemy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .._unported import unported_attribute
from ._watch import Appended, SessionWatch
from .base_session_service import BaseSessionService, GetSessionConfig, ListSessionsResponse
from .session import Session
from .state import State, StateSchemaError

if TYPE_CHECKING:
    from .database_session_service import DatabaseSessionService
    from .in_memory_session_service import InMemorySessionService
    from .sqlite_session_service import AlreadyExistsError, SqliteSessionService

_LAZY = {
    "AlreadyExistsError": ".sqlite_session_service",
    "DatabaseSessionService": ".database_session_service",
    "InMemorySessionService": ".in_memory_session_service",
    "SqliteSessionService": ".sqlite_session_service",
}

__all__ = [
    "AlreadyExistsError",
    "Appended",
    "BaseSessionService",
    "DatabaseSessionService",
    "GetSessionConfig",
    "InMemorySessionService",
    "ListSessionsResponse",
    "Session",
    "SessionWatch",
    "SqliteSessionService",
    "State",
    "StateSchemaError",
]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise unported_attribute(__name__, name)
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value
