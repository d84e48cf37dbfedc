"""Memory: mirrors `google.adk.memory` (names only: memory is not implemented yet).

Runs on: process side. `Runner(memory_service=...)` and an agent with a memory
tool raise NotImplementedError rather than run without memory.
"""

from typing import Any

from .._unported import unported_attribute
from .base_memory_service import BaseMemoryService
from .in_memory_memory_service import InMemoryMemoryService

__all__ = ["BaseMemoryService", "InMemoryMemoryService"]


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
