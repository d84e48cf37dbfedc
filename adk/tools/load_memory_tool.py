"""load_memory: the tool that searches long-term memory (not implemented yet).

Runs on: process side. An agent with this tool raises NotImplementedError.
"""

from __future__ import annotations

from ..memory.base_memory_service import FEATURE
from ._unimplemented_tool import UnimplementedTool


class LoadMemoryTool(UnimplementedTool):
    """Lets the model search the user's memory."""

    feature = FEATURE

    def __init__(self) -> None:
        super().__init__(name="load_memory", description="Loads the memory for the current user.")


load_memory_tool = LoadMemoryTool()
