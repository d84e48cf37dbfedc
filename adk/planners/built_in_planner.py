"""BuiltInPlanner: the model's own thinking as a planner (not implemented yet).

Runs on: process side. Set `generate_content_config.thinking_config` on the
LlmAgent instead; `LlmAgent(planner=BuiltInPlanner(...))` raises NotImplementedError.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from google.genai import types

from .._unimplemented import not_implemented
from .base_planner import FEATURE, BasePlanner

if TYPE_CHECKING:
    from ..agents.callback_context import CallbackContext
    from ..agents.readonly_context import ReadonlyContext
    from ..models.llm_request import LlmRequest


class BuiltInPlanner(BasePlanner):
    """Uses the model's built-in thinking (google.adk's signature)."""

    thinking_config: types.ThinkingConfig

    def __init__(self, *, thinking_config: types.ThinkingConfig) -> None:
        self.thinking_config = thinking_config

    def apply_thinking_config(self, llm_request: LlmRequest) -> None:
        raise not_implemented("BuiltInPlanner.apply_thinking_config", FEATURE)

    def build_planning_instruction(
        self, readonly_context: ReadonlyContext, llm_request: LlmRequest
    ) -> str | None:
        raise not_implemented("BuiltInPlanner", FEATURE)

    def process_planning_response(
        self, callback_context: CallbackContext, response_parts: list[types.Part]
    ) -> list[types.Part] | None:
        raise not_implemented("BuiltInPlanner", FEATURE)
