"""InMemoryMemoryService: google.adk's keyword-matching memory (not implemented yet).

Runs on: process side.
"""

from __future__ import annotations

from .base_memory_service import BaseMemoryService


class InMemoryMemoryService(BaseMemoryService):
    """Memory kept in the process (its name only, for now)."""
