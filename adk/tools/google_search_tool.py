"""google_search: Gemini's built-in Google Search, declared as google-adk 2.13 declares it.

Runs on: activity side (the model step's request building). The model searches
by itself, inside the model call: there is no tool call to run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from google.genai import types

from ..utils.env_utils import is_env_enabled
from ..utils.model_name_utils import is_gemini_model
from .base_tool import BaseTool

if TYPE_CHECKING:
    from ..models.llm_request import LlmRequest
    from .tool_context import ToolContext

MODEL_ID_CHECK_OFF = "ADK_DISABLE_GEMINI_MODEL_ID_CHECK"


def gemini_or_check_off(llm_request: LlmRequest) -> bool:
    """Whether a Gemini built-in tool may be declared for the request's model."""
    return is_gemini_model(llm_request.model) or is_env_enabled(MODEL_ID_CHECK_OFF)


def add_builtin(llm_request: LlmRequest, tool: types.Tool) -> None:
    llm_request.config = llm_request.config or types.GenerateContentConfig()
    llm_request.config.tools = llm_request.config.tools or []
    llm_request.config.tools.append(tool)


class GoogleSearchTool(BaseTool):
    """A model built-in tool: Gemini searches Google itself.

    `bypass_multi_tools_limit`: with other tools or transfer targets in the agent,
    the search runs in an agent of its own (GoogleSearchAgentTool, swapped in by
    LlmAgent as google-adk 2.13 does). `model`: the model the request is sent to
    instead.
    """

    def __init__(self, *, bypass_multi_tools_limit: bool = False, model: str | None = None):
        super().__init__(name="google_search", description="google_search")
        self.bypass_multi_tools_limit = bypass_multi_tools_limit
        self.model = model

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        if self.model is not None:
            llm_request.model = self.model
        if not gemini_or_check_off(llm_request):
            raise ValueError(f"Google search tool is not supported for model {llm_request.model}")
        add_builtin(llm_request, types.Tool(google_search=types.GoogleSearch()))


google_search = GoogleSearchTool()
