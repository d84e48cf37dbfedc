"""BaseMemoryService: google.adk's long-term memory interface (not implemented yet).

Runs on: process side.
"""

from __future__ import annotations

from abc import ABC
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from .._unimplemented import not_implemented

if TYPE_CHECKING:
    from ..sessions.session import Session

FEATURE = "memory services (load_memory, preload_memory, Runner(memory_service=...))"


class SearchMemoryResponse(BaseModel):
    """What a memory search found."""

    memories: list[Any] = Field(default_factory=list)


class BaseMemoryService(ABC):  # noqa: B024 (as google.adk: every method has a body)
    """Stores sessions as memories and searches them (its interface only, for now)."""

    async def add_session_to_memory(self, session: Session) -> None:
        raise not_implemented(f"{type(self).__name__}.add_session_to_memory", FEATURE)

    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        raise not_implemented(f"{type(self).__name__}.search_memory", FEATURE)
