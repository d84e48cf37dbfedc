"""Callbacks named in the YAML (`before_model_callbacks`, `after_tool_callbacks`)."""

from typing import Any

from adk.agents.callback_context import CallbackContext
from adk.models import LlmRequest
from adk.tools import BaseTool, ToolContext


def count_model_calls(callback_context: CallbackContext, llm_request: LlmRequest) -> None:
    """Counts the root's model calls in state (returns None: the call goes ahead)."""
    calls = callback_context.state.get("helpdesk_model_calls", 0)
    callback_context.state["helpdesk_model_calls"] = calls + 1


def note_tool_use(
    tool: BaseTool, args: dict[str, Any], tool_context: ToolContext, tool_response: Any
) -> dict | None:
    """Adds a note to a tool's dict result (the model sees the returned dict); None
    keeps the result as it is (transfer_to_agent's, for one, is None)."""
    if not isinstance(tool_response, dict):
        return None
    return {**tool_response, "note": f"{tool.name} ran for {tool_context.agent_name}"}
