"""transfer_to_agent and TransferToAgentTool: hand the conversation to another agent.

Runs on: activity side (worker process).
"""

from __future__ import annotations

from google.genai import types

from .function_tool import FunctionTool
from .tool_context import ToolContext


def transfer_to_agent(agent_name: str, tool_context: ToolContext) -> None:
    """Transfer the question to another agent.

    This tool hands off control to another agent when it's more suitable to answer the user's question according to the agent's description.

    Args:
      agent_name: the agent name to transfer to.
    """
    tool_context.actions.transfer_to_agent = agent_name


class TransferToAgentTool(FunctionTool):
    """transfer_to_agent, with `agent_name` restricted to the valid targets (a JSON enum)."""

    def __init__(self, agent_names: list[str]) -> None:
        super().__init__(transfer_to_agent)
        self._agent_names = list(agent_names)

    def _get_declaration(self) -> types.FunctionDeclaration | None:
        declaration = super()._get_declaration()
        schema = declaration.parameters_json_schema if declaration else None
        if isinstance(schema, dict):
            agent_name = schema.get("properties", {}).get("agent_name")
            if isinstance(agent_name, dict):
                agent_name["enum"] = list(self._agent_names)
        return declaration
