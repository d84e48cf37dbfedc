"""Sessions: conversations, their events and scoped state. Mirrors `google.adk.sessions`.

Runs on: activity and process side.
"""

from ._watch import Appended, SessionWatch
from .base_session_service import BaseSessionService, GetSessionConfig, ListSessionsResponse
from .in_memory_session_service import InMemorySessionService
from .session import Session
from .sqlite_session_service import AlreadyExistsError, SqliteSessionService
from .state import State

__all__ = [
    "AlreadyExistsError",
    "Appended",
    "BaseSessionService",
    "GetSessionConfig",
    "InMemorySessionService",
    "ListSessionsResponse",
    "Session",
    "SessionWatch",
    "SqliteSessionService",
    "State",
]
