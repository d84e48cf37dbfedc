"""transfer_to_agent and TransferToAgentTool: hand the conversation to another agent.

Runs on: activity side (worker process).

Follows google-adk 2.13: the function takes an optional keyword-only
`transfer_reason`; the declaration leaves it out (and uses the docstring
without it) unless the tool is built with include_transfer_reason=True, and
`agent_name` is restricted to the valid targets (a JSON enum).
"""

from __future__ import annotations

import inspect

from google.genai import types

from .function_tool import FunctionTool
from .tool_context import ToolContext

# The declared description when transfer_reason is not offered (google-adk 2.13's text).
_DOCSTRING_WITHOUT_REASON = inspect.cleandoc(
    """Transfer the query to another agent.

    Use this tool to hand off control to another agent that is more suitable to
    answer the user's query according to the agent's description.

    Args:
      agent_name: the agent name to transfer to.
    """
)


def transfer_to_agent(
    agent_name: str,
    tool_context: ToolContext,
    *,
    transfer_reason: str = "",
) -> None:
    """Transfer the query to another agent.

    Use this tool to hand off control to another agent that is more suitable to
    answer the user's query according to the agent's description.

    Args:
      agent_name: the agent name to transfer to.
      transfer_reason: the reason for transferring to the target agent.
    """
    tool_context.actions.transfer_to_agent = agent_name
    tool_context.actions.transfer_reason = transfer_reason or None


class TransferToAgentTool(FunctionTool):
    """transfer_to_agent, with `agent_name` restricted to the valid targets (a JSON enum)."""

    def __init__(self, agent_names: list[str], include_transfer_reason: bool = False) -> None:
        super().__init__(transfer_to_agent)
        self._agent_names = agent_names
        self._include_transfer_reason = include_transfer_reason
        if not include_transfer_reason:
            self.description = _DOCSTRING_WITHOUT_REASON

    def _get_declaration(self) -> types.FunctionDeclaration | None:
        declaration = super()._get_declaration()
        if not declaration:
            return declaration
        if not self._include_transfer_reason:
            declaration.description = _DOCSTRING_WITHOUT_REASON
        # Our FunctionTool declares parameters as JSON schema; a Schema form is handled too.
        if declaration.parameters is not None and declaration.parameters.properties is not None:
            properties = declaration.parameters.properties
            if properties.get("agent_name"):
                properties["agent_name"].enum = self._agent_names
            if not self._include_transfer_reason:
                properties.pop("transfer_reason", None)
        schema = declaration.parameters_json_schema
        json_properties = schema.get("properties") if isinstance(schema, dict) else None
        if isinstance(json_properties, dict):
            if isinstance(json_properties.get("agent_name"), dict):
                json_properties["agent_name"]["enum"] = self._agent_names
            if not self._include_transfer_reason:
                json_properties.pop("transfer_reason", None)
        return declaration
