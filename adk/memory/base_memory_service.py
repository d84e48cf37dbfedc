"""BaseMemoryService: google.adk's long-term memory interface.

Runs on: activity side. Tools and callbacks reach it through their context
(`search_memory`, `add_session_to_memory`, ...), inside the activity that runs
them; the workflow never sees a memory.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from .memory_entry import MemoryEntry

if TYPE_CHECKING:
    from ..events.event import Event
    from ..sessions.session import Session


class SearchMemoryResponse(BaseModel):
    """The memories a search found."""

    memories: list[MemoryEntry] = Field(default_factory=list)


class BaseMemoryService(ABC):
    """Ingests conversations as memories and searches them."""

    @abstractmethod
    async def add_session_to_memory(self, session: Session) -> None:
        """Remember the session's events (a session may be added many times)."""

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Remember these events too (a delta, not the whole session)."""
        raise NotImplementedError(
            "This memory service does not support adding event deltas. "
            "Call add_session_to_memory(session) to ingest the full session."
        )

    async def add_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        memories: Sequence[MemoryEntry],
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Write memories directly."""
        raise NotImplementedError(
            "This memory service does not support direct memory writes. "
            "Call add_events_to_memory(...) or add_session_to_memory(session) "
            "instead."
        )

    @abstractmethod
    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        """The user's memories that match the query."""

    async def delete_memory(
        self, *, app_name: str, user_id: str, memory_id: str | None = None
    ) -> None:
        """Forget one memory (its `MemoryEntry.id`)."""
        raise NotImplementedError(
            "This memory service does not support deleting individual memories."
        )
