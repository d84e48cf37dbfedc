"""BaseTool: the interface every tool implements.

Runs on: activity side (tools run in the tool-call activity; declarations are
built in the model-step activity).
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING, Any

from google.genai import types

from .._unimplemented import not_implemented

if TYPE_CHECKING:
    from ..models.llm_request import LlmRequest
    from .tool_context import ToolContext


class BaseTool(abc.ABC):
    """A tool the model can call."""

    name: str
    description: str
    is_long_running: bool = False
    """The call returns at once; the final result arrives later."""
    activity_options: Any | None = None
    """durable-adk: Temporal activity options for this tool's calls (timeouts, retries)."""

    def __init__(
        self,
        *,
        name: str,
        description: str,
        is_long_running: bool = False,
        custom_metadata: dict[str, Any] | None = None,
        behavior: types.Behavior | None = None,
        response_scheduling: types.FunctionResponseScheduling | None = None,
    ) -> None:
        # behavior and response_scheduling steer non-blocking calls in live runs
        for setting, value in (
            ("behavior", behavior),
            ("response_scheduling", response_scheduling),
        ):
            if value is not None:
                raise not_implemented(f"{type(self).__name__}({setting}=...)", "live (bidi) runs")
        self.name = name
        self.description = description
        self.is_long_running = is_long_running
        self.custom_metadata = custom_metadata
        self.behavior = behavior
        self.response_scheduling = response_scheduling

    def _get_declaration(self) -> types.FunctionDeclaration | None:
        """The declaration sent to the model; None for tools the model does not call."""
        return None

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        raise NotImplementedError(f"{type(self).__name__} is not implemented")

    async def check_require_confirmation(
        self, args: dict[str, Any], tool_context: ToolContext
    ) -> bool:
        """Whether this call needs a human's approval before it runs."""
        return False

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        """Add this tool to the request (its declaration and dispatch entry)."""
        llm_request.append_tools([self])
