"""url_context: Gemini's built-in URL reading, declared as google-adk 2.13 declares it.

Runs on: activity side (the model step's request building). The model reads the
URLs by itself, inside the model call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from google.genai import types

from .base_tool import BaseTool
from .google_search_tool import add_builtin, gemini_or_check_off

if TYPE_CHECKING:
    from ..models.llm_request import LlmRequest
    from .tool_context import ToolContext


class UrlContextTool(BaseTool):
    """A model built-in tool: Gemini reads the URLs in the conversation."""

    def __init__(self) -> None:
        super().__init__(name="url_context", description="url_context")

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        if not gemini_or_check_off(llm_request):
            raise ValueError(f"Url context tool is not supported for model {llm_request.model}")
        add_builtin(llm_request, types.Tool(url_context=types.UrlContext()))


url_context = UrlContextTool()
