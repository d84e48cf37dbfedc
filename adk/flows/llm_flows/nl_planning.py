"""NL planning: the agent's planner shapes the request and rewrites the model's answer.

Runs on: activity side (model step), at google-adk 2.13's places: the request part
after the contents (a planner may have marked earlier parts as thoughts, which must
go back unmarked), the response part on the model's answer before its event is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...agents.callback_context import CallbackContext
from ...agents.readonly_context import ReadonlyContext
from ...planners.base_planner import BasePlanner
from ...planners.built_in_planner import BuiltInPlanner
from ...planners.plan_re_act_planner import PlanReActPlanner
from ._ownership import is_ours

if TYPE_CHECKING:
    from ...agents.invocation_context import InvocationContext
    from ...agents.llm_agent import LlmAgent
    from ...models.llm_request import LlmRequest
    from ...models.llm_response import LlmResponse


def planner_of(agent: LlmAgent) -> BasePlanner | None:
    if not agent.planner:
        return None
    return agent.planner if isinstance(agent.planner, BasePlanner) else PlanReActPlanner()


def process_request(ctx: InvocationContext, agent: LlmAgent, llm_request: LlmRequest) -> None:
    planner = planner_of(agent)
    if planner is None:
        return
    if isinstance(planner, BuiltInPlanner):
        planner.apply_thinking_config(llm_request)
        return
    if not is_ours(type(planner).build_planning_instruction):
        llm_request._own_contents()  # a planner of the user's may change them
    instruction = planner.build_planning_instruction(ReadonlyContext(ctx), llm_request)
    if instruction:
        llm_request.append_instructions([instruction])
    for index, content in enumerate(llm_request.contents or []):
        if any(part.thought is not None for part in content.parts or []):
            for part in llm_request._own_content(index).parts or []:
                part.thought = None


def process_response(
    ctx: InvocationContext, agent: LlmAgent, llm_response: LlmResponse
) -> CallbackContext | None:
    """Rewrite the answer's parts; the planner's context when it wrote state (google-adk
    then records a state-only event before the model's), else None."""
    planner = planner_of(agent)
    if (
        planner is None
        or type(planner).process_planning_response is BuiltInPlanner.process_planning_response
        or not llm_response.content
        or not llm_response.content.parts
    ):
        return None
    callback_context = CallbackContext(ctx)
    parts = planner.process_planning_response(callback_context, llm_response.content.parts)
    if parts:
        llm_response.content.parts = parts
    return callback_context if callback_context.state.has_delta() else None
