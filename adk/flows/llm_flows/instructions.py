"""Instructions request processor: global, static and dynamic instructions.

Runs on: activity side (model-step activity).

Follows google-adk 2.0.0. The root agent's global_instruction comes first, then
the static_instruction (never templated). The agent's instruction goes to the
system instruction, unless a static_instruction is set: then it is sent as a
user content, which the contents processor places before the latest user turn.
String instructions are templated with session state; the output of an
instruction provider (a callable) is used as returned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from google.genai import _transformers, types

from ...agents.readonly_context import ReadonlyContext
from ...utils.instructions_utils import inject_session_state

if TYPE_CHECKING:
    from ...agents.invocation_context import InvocationContext
    from ...agents.llm_agent import LlmAgent
    from ...models.llm_request import LlmRequest


async def process(ctx: InvocationContext, agent: LlmAgent, llm_request: LlmRequest) -> None:
    from ...agents.llm_agent import LlmAgent

    readonly_context = ReadonlyContext(ctx)
    root = agent.root_agent
    if isinstance(root, LlmAgent) and root.global_instruction:
        text, bypass = await root.canonical_global_instruction(readonly_context)
        if not bypass:
            text = await inject_session_state(text, readonly_context)
        llm_request.append_instructions([text])

    if agent.static_instruction:
        _append_static_instruction(llm_request, to_content(agent.static_instruction))

    if not agent.instruction:
        return
    text, bypass = await agent.canonical_instruction(readonly_context)
    if not bypass:
        text = await inject_session_state(text, readonly_context)
    if agent.static_instruction:
        llm_request.contents.append(types.Content(role="user", parts=[types.Part(text=text)]))
    else:
        llm_request.append_instructions([text])


def to_content(value: types.ContentUnion) -> types.Content:
    """A static_instruction as a Content: text, a Part, a list of parts, or a Content."""
    if isinstance(value, list):
        return types.Content(role="user", parts=_transformers.t_parts(value))
    return _transformers.t_content(value)


def _append_static_instruction(llm_request: LlmRequest, content: types.Content) -> None:
    """Text parts join the system instruction; other parts become user contents."""
    extra = llm_request.append_instructions(content)
    for user_content in extra:
        if not any(existing is user_content for existing in llm_request.contents):
            llm_request.contents.append(user_content)
