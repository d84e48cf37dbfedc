"""Builds the LlmRequest for one model step: the ordered request processors.

Runs on: activity side (model-step activity). The order is ADK's AutoFlow
order (SingleFlow's, then agent transfer); each processor is one module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...models.llm_request import LlmRequest
from ...tools.tool_context import ToolContext
from . import agent_transfer, basic, contents, identity, instructions

if TYPE_CHECKING:
    from ...agents.invocation_context import InvocationContext
    from ...agents.llm_agent import LlmAgent


async def build_llm_request(ctx: InvocationContext, agent: LlmAgent) -> LlmRequest:
    llm_request = LlmRequest()
    # basic first: it replaces the config that later processors append to.
    basic.process(ctx, agent, llm_request)
    # instructions before identity: the agent's own instruction leads the system prompt.
    await instructions.process(ctx, agent, llm_request)
    identity.process(agent, llm_request)
    # contents after instructions: they may have put instruction contents in place.
    contents.process(ctx, agent, llm_request)
    # agent_transfer after SingleFlow's processors (AutoFlow appends it): its text
    # follows the identity, and transfer_to_agent is declared before the agent's tools.
    if agent.uses_auto_flow:
        await agent_transfer.process(ctx, agent, llm_request)
    # tools last: each tool adds its declaration (and may edit the request).
    tool_context = ToolContext(ctx)
    for tool in await agent.canonical_tools(tool_context):
        await tool.process_llm_request(tool_context=tool_context, llm_request=llm_request)
    _refuse_set_model_response(agent)
    return llm_request


def _refuse_set_model_response(agent: LlmAgent) -> None:
    """google-adk 2.13 answers output_schema + tools with a set_model_response tool: not here yet."""
    if (
        agent.output_schema
        and agent.tools
        and getattr(agent, "mode", None) != "task"
        and not basic.output_schema_and_tools(agent.model_name)
    ):
        raise NotImplementedError(
            f"Agent {agent.name}: output_schema together with tools (google-adk's"
            " set_model_response tool) is not supported yet, except for Gemini models on"
            " Vertex AI, which take both."
        )
