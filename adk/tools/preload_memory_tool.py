"""preload_memory: the memories relevant to the user's message, in every request.

Runs on: activity side (the model step's request building searches the worker's
memory service). The model never calls it: it only adds to the request.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from google.genai import types

from .base_tool import BaseTool

if TYPE_CHECKING:
    from ..memory.memory_entry import MemoryEntry
    from ..models.llm_request import LlmRequest
    from .tool_context import ToolContext

logger = logging.getLogger(__name__)


class PreloadMemoryTool(BaseTool):
    """Searches memory with the user's message and puts what it finds before that
    message, as past conversations (only the text parts of memories are used)."""

    def __init__(self) -> None:
        # never declared to the model: it only changes the request
        super().__init__(name="preload_memory", description="preload_memory")

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        content = tool_context.user_content
        query = (
            " ".join(part.text for part in (content.parts or []) if part.text and not part.thought)
            if content
            else ""
        )
        if not query:
            return
        try:
            response = await tool_context.search_memory(query)
        except Exception:  # as google.adk: a failed search leaves the request as it was
            logger.warning("Failed to preload memory (query length: %d)", len(query), exc_info=True)
            return
        lines: list[str] = []
        for memory in response.memories:
            if memory.timestamp:
                lines.append(f"Time: {memory.timestamp}")
            if text := _text(memory):
                lines.append(f"{memory.author}: {text}" if memory.author else text)
        if not lines:
            return
        joined = "\n".join(lines)
        memory_context = f"""The following content is from your previous conversations with the user.
They may be useful for answering the user's current query.
<PAST_CONVERSATIONS>
{joined}
</PAST_CONVERSATIONS>
"""
        llm_request._insert_transient_user_content(
            [types.Content(role="user", parts=[types.Part.from_text(text=memory_context)])]
        )


def _text(memory: MemoryEntry) -> str:
    parts = memory.content.parts or []
    return " ".join(part.text for part in parts if part.text)


preload_memory_tool = PreloadMemoryTool()
