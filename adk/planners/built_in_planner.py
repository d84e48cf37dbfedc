"""BuiltInPlanner: the model's own thinking as the planner (google-adk 2.13's).

Runs on: activity side (the model step applies its thinking config to the request).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from google.genai import types

from .base_planner import BasePlanner

if TYPE_CHECKING:
    from ..agents.callback_context import CallbackContext
    from ..agents.readonly_context import ReadonlyContext
    from ..models.llm_request import LlmRequest


class BuiltInPlanner(BasePlanner):
    """Sets the request's `thinking_config` (over the agent's generate_content_config)."""

    thinking_config: types.ThinkingConfig

    def __init__(self, *, thinking_config: types.ThinkingConfig) -> None:
        self.thinking_config = thinking_config

    def apply_thinking_config(self, llm_request: LlmRequest) -> None:
        if self.thinking_config:
            llm_request.config = llm_request.config or types.GenerateContentConfig()
            llm_request.config.thinking_config = self.thinking_config

    def build_planning_instruction(
        self, readonly_context: ReadonlyContext, llm_request: LlmRequest
    ) -> str | None:
        return None

    def process_planning_response(
        self, callback_context: CallbackContext, response_parts: list[types.Part]
    ) -> list[types.Part] | None:
        return None
