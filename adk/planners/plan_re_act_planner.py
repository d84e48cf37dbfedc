"""PlanReActPlanner: plan, then act, with tagged reasoning (not implemented yet).

Runs on: process side. `LlmAgent(planner=PlanReActPlanner())` raises NotImplementedError.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._unimplemented import not_implemented
from .base_planner import FEATURE, BasePlanner

if TYPE_CHECKING:
    from google.genai import types

    from ..agents.callback_context import CallbackContext
    from ..agents.readonly_context import ReadonlyContext
    from ..models.llm_request import LlmRequest


class PlanReActPlanner(BasePlanner):
    """google.adk's Plan-ReAct planner (its name only, for now)."""

    def build_planning_instruction(
        self, readonly_context: ReadonlyContext, llm_request: LlmRequest
    ) -> str | None:
        raise not_implemented("PlanReActPlanner", FEATURE)

    def process_planning_response(
        self, callback_context: CallbackContext, response_parts: list[types.Part]
    ) -> list[types.Part] | None:
        raise not_implemented("PlanReActPlanner", FEATURE)
