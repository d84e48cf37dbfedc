"""BuiltInCodeExecutor: the model runs the code itself (Gemini's code execution tool).

Runs on: activity side (the model step applies it to the request), as google-adk 2.13's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from google.genai import types

from .base_code_executor import BaseCodeExecutor

if TYPE_CHECKING:
    from ..models.llm_request import LlmRequest


class BuiltInCodeExecutor(BaseCodeExecutor):
    """Declares Gemini's built-in code execution tool; the model executes the code."""

    def execute_code(self, invocation_context: Any, code_execution_input: Any) -> Any:
        return None  # the model executes it

    def process_llm_request(self, llm_request: LlmRequest) -> None:
        from ..utils.env_utils import is_env_enabled
        from ..utils.model_name_utils import is_gemini_model

        if is_gemini_model(llm_request.model) or is_env_enabled(
            "ADK_DISABLE_GEMINI_MODEL_ID_CHECK"
        ):
            llm_request.config = llm_request.config or types.GenerateContentConfig()
            llm_request.config.tools = llm_request.config.tools or []
            llm_request.config.tools.append(types.Tool(code_execution=types.ToolCodeExecution()))
            return
        raise ValueError(
            f"Gemini code execution tool is not supported for model {llm_request.model}"
        )
