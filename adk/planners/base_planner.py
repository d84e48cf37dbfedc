"""BasePlanner: the planner interface of google.adk (planners are not implemented yet).

Runs on: process side. An LlmAgent given a planner raises NotImplementedError
at construction; the interface is here so that user planners still import.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from google.genai import types

    from ..agents.callback_context import CallbackContext
    from ..agents.readonly_context import ReadonlyContext
    from ..models.llm_request import LlmRequest

FEATURE = "planners (BasePlanner, BuiltInPlanner, PlanReActPlanner)"


class BasePlanner(abc.ABC):
    """A planner makes the agent plan its steps (google.adk's interface)."""

    @abc.abstractmethod
    def build_planning_instruction(
        self, readonly_context: ReadonlyContext, llm_request: LlmRequest
    ) -> str | None:
        """The planning instruction to append to the request, or None."""

    @abc.abstractmethod
    def process_planning_response(
        self, callback_context: CallbackContext, response_parts: list[types.Part]
    ) -> list[types.Part] | None:
        """The response parts after planning, or None to keep them."""
