"""Session: one conversation's state and events.

Runs on: activity and process side (loaded from the session store).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, alias_generators

from ..events.event import Event


class Session(BaseModel):
    """A conversation between a user and an app."""

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=alias_generators.to_camel,
        populate_by_name=True,
    )

    id: str
    app_name: str
    user_id: str
    state: dict[str, Any] = Field(default_factory=dict)
    """Merged view: session keys plus `app:` and `user:` keys."""
    events: list[Event] = Field(default_factory=list)
    last_update_time: float = 0.0
    _release_shared_events: Callable[[], None] | None = PrivateAttr(default=None)
    """Set when `events` holds a store cache's shared objects (see sessions/_event_cache.py)."""
