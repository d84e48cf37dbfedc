"""MemoryEntry: one remembered content, as a memory service returns it (google.adk's).

Runs on: activity side (tools and callbacks search memory in their activity).
"""

from __future__ import annotations

from typing import Any

from google.genai import types
from pydantic import BaseModel, Field


class MemoryEntry(BaseModel):
    """One memory: a content, who said it and when."""

    content: types.Content
    custom_metadata: dict[str, Any] = Field(default_factory=dict)
    id: str | None = None
    author: str | None = None
    timestamp: str | None = None
    """When the original content happened (ISO 8601, as sent to the model)."""
