"""load_memory: the tool the model calls to search the user's long-term memory.

Runs on: activity side (the tool-call activity searches the worker's memory
service; the request processing runs in the model step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from google.genai import types
from pydantic import BaseModel, Field

from ..memory.memory_entry import MemoryEntry
from .function_tool import FunctionTool

if TYPE_CHECKING:
    from ..models.llm_request import LlmRequest
    from .tool_context import ToolContext


class LoadMemoryResponse(BaseModel):
    memories: list[MemoryEntry] = Field(default_factory=list)


async def load_memory(query: str, tool_context: ToolContext) -> LoadMemoryResponse:
    """Loads the memory for the current user.

    Args:
      query: The query to load the memory for.

    Returns:
      A list of memory results.
    """
    found = await tool_context.search_memory(query)
    return LoadMemoryResponse(memories=found.memories)


class LoadMemoryTool(FunctionTool):
    """Searches the user's memory (only the text parts of memories are used)."""

    def __init__(self) -> None:
        super().__init__(load_memory)

    def _get_declaration(self) -> types.FunctionDeclaration | None:
        return types.FunctionDeclaration(
            name=self.name,
            description=self.description,
            parameters_json_schema={
                "type": "object",
                "properties": {"query": {"type": "string"}},
                "required": ["query"],
            },
        )

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        await super().process_llm_request(tool_context=tool_context, llm_request=llm_request)
        llm_request.append_instructions(
            [
                """
You have memory. You can use it to answer questions. If any questions need
you to look up the memory, you should call load_memory function with a query.
"""
            ]
        )


load_memory_tool = LoadMemoryTool()
