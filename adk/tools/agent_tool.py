"""AgentTool: an agent used as a tool (runs as a child workflow with its own session).

Runs on: activity side for its declaration and request/result rules; the
invocation workflow runs the agent itself as a child workflow.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from google.genai import types

from ..agents.common_configs import AgentRefConfig
from .base_tool import BaseTool
from .tool_configs import BaseToolConfig

if TYPE_CHECKING:
    from ..agents.base_agent import BaseAgent
    from ..events.event import Event
    from .tool_configs import ToolArgsConfig
    from .tool_context import ToolContext

logger = logging.getLogger("google_adk." + __name__)

GROUNDING_METADATA_KEY = "temp:_adk_grounding_metadata"
"""Where an AgentTool with propagate_grounding_metadata leaves its answer's grounding
metadata for the caller's later responses in the invocation (google-adk 2.13)."""


def _part_to_text(part: types.Part) -> str:
    """What a part says: its text, else its code execution output, else its code."""
    if part.text:
        return part.text
    if part.code_execution_result and part.code_execution_result.output:
        return part.code_execution_result.output.rstrip("\n")
    if part.executable_code and part.executable_code.code:
        return part.executable_code.code
    return ""


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

    def __init__(
        self,
        agent: BaseAgent,
        skip_summarization: bool = False,
        *,
        include_plugins: bool = True,
        propagate_grounding_metadata: bool = False,
    ) -> None:
        super().__init__(name=agent.name, description=agent.description)
        self.agent = agent
        self.skip_summarization = skip_summarization
        # False with an app's plugins is refused when the app's spec is built (not ported)
        self.include_plugins = include_plugins
        self.propagate_grounding_metadata = propagate_grounding_metadata

    def _get_declaration(self) -> types.FunctionDeclaration:
        from ..utils.variant_utils import (
            GoogleLLMVariant,
            get_google_llm_variant,
            sanitize_json_schema_for_vertex,
        )

        vertex = get_google_llm_variant() is GoogleLLMVariant.VERTEX_AI
        schema = _input_schema(self.agent)
        if schema is not None:
            parameters = schema.model_json_schema()
            if vertex:
                parameters = sanitize_json_schema_for_vertex(parameters)
        else:
            parameters = {
                "type": "object",
                "properties": {"request": {"type": "string"}},
                "required": ["request"],
            }
        declaration = types.FunctionDeclaration(
            name=self.name, description=self.agent.description, parameters_json_schema=parameters
        )
        if vertex:  # google-adk 2.13: Vertex AI is told what the agent answers with
            answers_object = bool(_output_schema(self.agent))
            declaration.response_json_schema = {"type": "object" if answers_object else "string"}
        return declaration

    def request_text(self, args: dict[str, Any]) -> str:
        """The user message the agent receives for these arguments."""
        schema = _input_schema(self.agent)
        if schema is not None:
            return str(schema.model_validate(args).model_dump_json(exclude_none=True))
        if "request" in args:
            return str(args["request"])
        return json.dumps(args, ensure_ascii=False, sort_keys=True)

    def grounding_metadata(self, events: Sequence[Event]) -> types.GroundingMetadata | None:
        """The grounding metadata of the run's last event with content (google-adk 2.13
        hands it to the caller with propagate_grounding_metadata)."""
        last = next((e for e in reversed(events) if e.content), None)
        return last.grounding_metadata if last is not None else None

    def unresolved_error(self, events: Sequence[Event]) -> str | None:
        """google-adk 2.13's result when the run left long-running calls (a confirmation,
        a long-running tool with no response) unanswered: nobody can resume it. Logs its
        warning."""
        pending: set[str] = set()
        for event in events:
            if event.long_running_tool_ids:
                pending |= set(event.long_running_tool_ids)
            if event.content:
                pending -= {r.id for r in event.get_function_responses() if r.id}
        if not pending:
            return None
        ids = sorted(pending)
        logger.warning(
            "Agent %r paused with unresolved long-running tool call(s) %s, which"
            " AgentTool cannot resume because its nested session is discarded."
            " Configure the agent under sub_agents (e.g. with"
            " mode='single_turn' for LlmAgent) if it needs to pause and"
            " resume.",
            self.agent.name,
            ids,
        )
        return (
            f"Error: agent {self.agent.name!r} stopped waiting on unresolved"
            f" long-running tool call(s) (pending call ids: {ids}),"
            " which AgentTool cannot resume."
        )

    def result_from_events(self, events: Sequence[Event]) -> Any:
        """The tool's result from the events the agent's run produced (google-adk 2.13's rule).

        The last event with content gives it: its non-thought parts' texts
        (code and its output count) joined by newlines, validated against the
        agent's output_schema if it has one. With no text, the run's last
        error message, if any, is the result.
        """
        from ..utils._schema_utils import validate_schema

        last_content: types.Content | None = None
        last_error: str | None = None
        for event in events:
            if event.error_message:
                last_error = event.error_message
            if event.content:
                last_content = event.content
        if last_content is None or last_content.parts is None:
            return last_error or ""
        texts = (_part_to_text(p) for p in last_content.parts if not p.thought)
        merged = "\n".join(t for t in texts if t)
        if not merged and last_error:
            return last_error
        schema = _output_schema(self.agent)
        return validate_schema(schema, merged) if schema else merged

    def display_text(self, result: Any, response: dict[str, Any]) -> str | None:
        """With skip_summarization, the result as a text part after the response (2.13)."""
        if not self.skip_summarization or "error" in response:
            return None
        if result is None or result == {"result": None} or result == "":
            return None
        return (
            result
            if isinstance(result, str)
            else json.dumps(result, ensure_ascii=False, default=str)
        )

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        raise RuntimeError(
            f"AgentTool {self.name} runs as a child workflow of the invocation; it is not"
            " called in-process."
        )

    @classmethod
    def from_config(cls, config: ToolArgsConfig, config_abs_path: str) -> AgentTool:
        """An AgentTool from YAML: `args: {agent: {config_path: x.yaml}}` (or `code:`)."""
        from ..agents.config_agent_utils import resolve_agent_reference

        tool_config = AgentToolConfig.model_validate(config.model_dump())
        agent = resolve_agent_reference(tool_config.agent, config_abs_path)
        return cls(
            agent=agent,
            skip_summarization=tool_config.skip_summarization,
            include_plugins=tool_config.include_plugins,
        )


class AgentToolConfig(BaseToolConfig):
    """An AgentTool's YAML `args`."""

    agent: AgentRefConfig
    """The agent: its YAML file or an agent instance in code."""
    skip_summarization: bool = False
    """Whether to skip summarization of the agent output."""
    include_plugins: bool = True
    """Whether to include plugins from parent runner context."""
