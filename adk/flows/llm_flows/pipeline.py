"""Builds the LlmRequest for one model step: the ordered request processors.

Runs on: activity side (model-step activity). The order is ADK's AutoFlow
order (SingleFlow's, then agent transfer); each processor is one module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...models.llm_request import LlmRequest
from ...tools.base_toolset import BaseToolset
from ...tools.tool_context import ToolContext
from . import (
    agent_transfer,
    basic,
    code_execution,
    contents,
    identity,
    instructions,
    nl_planning,
    output_schema,
)
from ._ownership import is_ours

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
    # planning after contents: it unmarks the thoughts an earlier answer's planning marked
    nl_planning.process_request(ctx, agent, llm_request)
    # code execution after contents too: it rewrites earlier code parts as text
    code_execution.process_request(agent, llm_request)
    # output_schema last of SingleFlow's: set_model_response leads the declarations
    # and its instruction follows the identity (before AutoFlow's transfer text).
    output_schema.process(agent, llm_request)
    # agent_transfer after SingleFlow's processors (AutoFlow appends it): its text
    # follows the identity, and transfer_to_agent is declared before the agent's tools.
    if agent.uses_auto_flow:
        await agent_transfer.process(ctx, agent, llm_request)
    # tools last: each tool adds its declaration (and may edit the request); a
    # toolset edits the request before its own tools do (google-adk 2.13).
    tool_context = ToolContext(ctx)
    for entry, tools in await agent._tool_groups(tool_context):
        if isinstance(entry, BaseToolset):
            if not is_ours(type(entry).process_llm_request):
                llm_request._own_contents()  # a toolset of the user's may change them
            await entry.process_llm_request(tool_context=tool_context, llm_request=llm_request)
        for tool in tools:
            if not is_ours(type(tool).process_llm_request):
                llm_request._own_contents()  # a tool of the user's may change them
            await tool.process_llm_request(tool_context=tool_context, llm_request=llm_request)
    # what the tools queued, after them all, joined by blank lines (2.13's dynamic
    # instructions, routed to the system instruction as its default does)
    if llm_request._dynamic_instructions:
        llm_request.append_instructions(["\n\n".join(llm_request._dynamic_instructions)])
        llm_request._dynamic_instructions.clear()
    return llm_request
