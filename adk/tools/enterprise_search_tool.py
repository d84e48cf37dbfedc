"""enterprise_web_search: Gemini's built-in web grounding for enterprise compliance,
as google-adk 2.13 declares it.

Runs on: activity side (the model step's request building).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from google.genai import types

from .base_tool import BaseTool
from .google_search_tool import add_builtin, gemini_or_check_off

if TYPE_CHECKING:
    from ..models.llm_request import LlmRequest
    from .tool_context import ToolContext


class EnterpriseWebSearchTool(BaseTool):
    """A model built-in tool: web grounding for enterprise compliance (not Vertex AI
    Search)."""

    def __init__(self) -> None:
        super().__init__(name="enterprise_web_search", description="enterprise_web_search")

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        if not gemini_or_check_off(llm_request):
            raise ValueError(
                f"Enterprise Web Search tool is not supported for model {llm_request.model}"
            )
        add_builtin(llm_request, types.Tool(enterprise_web_search=types.EnterpriseWebSearch()))


enterprise_web_search_tool = EnterpriseWebSearchTool()
