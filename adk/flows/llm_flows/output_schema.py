"""Output schema with tools: the set_model_response tool and its instruction.

Runs on: activity side (model-step activity; the tool-call activity asks
`uses_set_model_response` to find the tool a call names).

Follows google-adk 2.13: an agent with output_schema and tools whose model
cannot take a response schema together with tools (all but Gemini on Vertex
AI) answers through the set_model_response tool; the request declares it and
says so in the system instruction. Task-mode agents answer through their
finish tool instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...tools.set_model_response_tool import SetModelResponseTool
from .basic import agent_output_schema_and_tools

if TYPE_CHECKING:
    from ...agents.llm_agent import LlmAgent
    from ...models.llm_request import LlmRequest

_INSTRUCTION = (
    "IMPORTANT: You have access to other tools, but you must provide "
    "your final response using the set_model_response tool with the "
    "required structured format. After using any other tools needed "
    "to complete the task, always call set_model_response with your "
    "final answer in the specified schema format."
)


def uses_set_model_response(agent: LlmAgent) -> bool:
    return bool(
        agent.output_schema
        and agent.tools
        and getattr(agent, "mode", None) != "task"
        and not agent_output_schema_and_tools(agent)
    )


def set_model_response_tool(agent: LlmAgent) -> SetModelResponseTool | None:
    """The agent's set_model_response tool, if it answers through one."""
    if not uses_set_model_response(agent):
        return None
    return SetModelResponseTool(agent.output_schema)


def process(agent: LlmAgent, llm_request: LlmRequest) -> None:
    tool = set_model_response_tool(agent)
    if tool is None:
        return
    llm_request.append_tools([tool])
    llm_request.append_instructions([_INSTRUCTION])
