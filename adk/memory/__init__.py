"""Memory: mirrors `google.adk.memory`.

Runs on: activity side (tools and callbacks use a memory service inside their
activity). InMemoryMemoryService keeps memories in one process; SqliteMemoryService
in a file every worker on the host shares (the worker's default);
DatabaseMemoryService (durable-adk's own) in a SQL database every host shares. The
Vertex AI services are not ported yet and raise NotImplementedError.
"""

from typing import Any

from .._unported import unported_attribute
from ._sqlite_memory_service import SqliteMemoryService
from .base_memory_service import BaseMemoryService
from .database_memory_service import DatabaseMemoryService
from .in_memory_memory_service import InMemoryMemoryService

__all__ = [
    "BaseMemoryService",
    "DatabaseMemoryService",
    "InMemoryMemoryService",
    "SqliteMemoryService",
]


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
