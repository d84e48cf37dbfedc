"""InMemoryMemoryService: google.adk's keyword-matching memory, kept in the process.

Runs on: activity side. For tests and the embedded Runner: a worker process's
memory is its own, so with several workers (or after a restart) use
SqliteMemoryService, which every worker on the host shares.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from . import _utils
from ._words import searchable_words, words_lower
from .base_memory_service import BaseMemoryService, SearchMemoryResponse
from .memory_entry import MemoryEntry

if TYPE_CHECKING:
    from ..events.event import Event
    from ..sessions.session import Session

_UNKNOWN_SESSION_ID = "__unknown_session_id__"
_MAX_SEARCH_RESULTS = 10

UserKey = tuple[str, str]


class InMemoryMemoryService(BaseMemoryService):
    """Keyword matching over remembered events: a search returns at most ten
    memories, those sharing the most words with the query (ties in the order
    they were remembered)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._session_events: dict[UserKey, dict[str, list[Event]]] = {}
        self._deleted_memory_ids: dict[UserKey, set[str]] = {}
        """Event ids deleted per user: a later add of their session skips them."""

    async def add_session_to_memory(self, session: Session) -> None:
        key = (session.app_name, session.user_id)
        with self._lock:
            deleted = self._deleted_memory_ids.get(key, set())
            self._session_events.setdefault(key, {})[session.id] = [
                event.model_copy(deep=True)
                for event in session.events
                if event.content and event.content.parts and event.id not in deleted
            ]

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        key = (app_name, user_id)
        with self._lock:
            deleted = self._deleted_memory_ids.get(key, set())
            sessions = self._session_events.setdefault(key, {})
            kept = sessions.setdefault(session_id or _UNKNOWN_SESSION_ID, [])
            known = {event.id for event in kept}
            for event in events:
                if not (event.content and event.content.parts):
                    continue
                if event.id not in known and event.id not in deleted:
                    kept.append(event.model_copy(deep=True))
                    known.add(event.id)

    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        with self._lock:  # a snapshot: writers may change the lists meanwhile
            snapshot = [
                list(events)
                for events in self._session_events.get((app_name, user_id), {}).values()
            ]
        query_words = words_lower(query)
        scored: list[tuple[int, MemoryEntry]] = []
        for events in snapshot:
            for event in events:
                if not event.content or not event.content.parts:
                    continue
                text = " ".join(part.text for part in event.content.parts if part.text)
                event_words = searchable_words(text)
                if not event_words:
                    continue
                lowered = unicodedata.normalize("NFC", text).lower()
                matched = sum(
                    1
                    for word in query_words
                    if word in event_words or (not word.isascii() and word in lowered)
                )
                if matched:
                    scored.append(
                        (
                            matched,
                            MemoryEntry(
                                id=event.id,
                                content=event.content.model_copy(deep=True),
                                author=event.author,
                                timestamp=_utils.format_timestamp(event.timestamp),
                            ),
                        )
                    )
        scored.sort(key=lambda item: -item[0])  # stable: equal counts keep their order
        return SearchMemoryResponse(memories=[memory for _, memory in scored[:_MAX_SEARCH_RESULTS]])

    async def delete_memory(
        self, *, app_name: str, user_id: str, memory_id: str | None = None
    ) -> None:
        if not memory_id:
            return
        key = (app_name, user_id)
        with self._lock:
            sessions = self._session_events.get(key, {})
            for session_id, events in sessions.items():
                kept = [event for event in events if event.id != memory_id]
                if len(kept) != len(events):
                    sessions[session_id] = kept
                    self._deleted_memory_ids.setdefault(key, set()).add(memory_id)
