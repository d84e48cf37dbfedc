"""preload_memory: puts relevant memories in every request (not implemented yet).

Runs on: process side. An agent with this tool raises NotImplementedError.
"""

from __future__ import annotations

from ..memory.base_memory_service import FEATURE
from ._unimplemented_tool import UnimplementedTool


class PreloadMemoryTool(UnimplementedTool):
    """Adds the memories relevant to the user's message to the system instruction."""

    feature = FEATURE

    def __init__(self) -> None:
        super().__init__(name="preload_memory", description="preload_memory")


preload_memory_tool = PreloadMemoryTool()
