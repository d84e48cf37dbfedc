"""AgentTool: an agent used as a tool (runs as a child workflow with its own session).

Runs on: activity side for its declaration and request/result rules; the
invocation workflow runs the agent itself as a child workflow.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from google.genai import types

from .base_tool import BaseTool

if TYPE_CHECKING:
    from ..agents.base_agent import BaseAgent
    from .tool_context import ToolContext


def _input_schema(agent: BaseAgent) -> Any:
    from ..agents.llm_agent import LlmAgent

    if isinstance(agent, LlmAgent):
        return agent.input_schema
    return _input_schema(agent.sub_agents[0]) if agent.sub_agents else None


def _output_schema(agent: BaseAgent) -> Any:
    from ..agents.llm_agent import LlmAgent

    if isinstance(agent, LlmAgent):
        return agent.output_schema
    return _output_schema(agent.sub_agents[-1]) if agent.sub_agents else None


class AgentTool(BaseTool):
    """Calls `agent` with the model's request; its final answer is the function response."""

    def __init__(self, agent: BaseAgent, skip_summarization: bool = False) -> None:
        super().__init__(name=agent.name, description=agent.description)
        self.agent = agent
        self.skip_summarization = skip_summarization

    def _get_declaration(self) -> types.FunctionDeclaration:
        schema = _input_schema(self.agent)
        if schema is not None:
            parameters = schema.model_json_schema()
        else:
            parameters = {
                "type": "object",
                "properties": {"request": {"type": "string"}},
                "required": ["request"],
            }
        return types.FunctionDeclaration(
            name=self.name, description=self.agent.description, parameters_json_schema=parameters
        )

    def request_text(self, args: dict[str, Any]) -> str:
        """The user message the agent receives for these arguments."""
        schema = _input_schema(self.agent)
        if schema is not None:
            return str(schema.model_validate(args).model_dump_json(exclude_none=True))
        if "request" in args:
            return str(args["request"])
        return json.dumps(args, ensure_ascii=False, sort_keys=True)

    def result_from_text(self, text: str) -> Any:
        """The function response value for the agent's final text."""
        from ..agents.llm_agent import validate_schema

        schema = _output_schema(self.agent)
        if schema is not None and text.strip():
            return validate_schema(schema, text)
        return text

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        raise RuntimeError(
            f"AgentTool {self.name} runs as a child workflow of the invocation; it is not"
            " called in-process."
        )
