"""google_maps_grounding: Gemini's built-in Google Maps grounding (Vertex AI), as
google-adk 2.13 declares it.

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


class GoogleMapsGroundingTool(BaseTool):
    """A model built-in tool: Gemini grounds its answer with Google Maps."""

    def __init__(self) -> None:
        super().__init__(name="google_maps", description="google_maps")

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        if not gemini_or_check_off(llm_request):
            raise ValueError(f"Google maps tool is not supported for model {llm_request.model}")
        add_builtin(llm_request, types.Tool(google_maps=types.GoogleMaps()))


google_maps_grounding = GoogleMapsGroundingTool()
