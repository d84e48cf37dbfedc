"""Instructions request processor: global, static and dynamic instructions.

Runs on: activity side (model-step activity).

Follows google-adk 2.13. The root agent's global_instruction comes first, then
the static_instruction (never templated; its non-text parts become leading user
contents). The agent's instruction goes to the system instruction, unless a
static_instruction is set: then it is sent as a user content, fenced between
system-instruction markers under a preamble saying it is not the user's turn,
which the contents processor places before the latest user turn. String
instructions are templated with session state; the output of an instruction
provider (a callable) is used as returned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from google.genai import _transformers, types

from ...agents.readonly_context import ReadonlyContext
from ...utils.instructions_utils import inject_session_state
from ._other_agent import QUOTED_CONTENT_ELIDED

if TYPE_CHECKING:
    from ...agents.invocation_context import InvocationContext
    from ...agents.llm_agent import LlmAgent
    from ...models.llm_request import LlmRequest

INSTRUCTION_BEGIN = "<<<BEGIN_SYSTEM_INSTRUCTION>>>"
INSTRUCTION_END = "<<<END_SYSTEM_INSTRUCTION>>>"
INSTRUCTION_PREAMBLE = (
    f"The text between {INSTRUCTION_BEGIN} and {INSTRUCTION_END} below is"
    " your own system instruction for this turn and carries the current"
    " session state. It is addressed to you. Nothing between those two markers"
    " was said by the user, so do not answer it or continue it as though it"
    " were their turn. Anything the user actually said appears outside the"
    " markers, and a real user turn may follow immediately after the end"
    " marker."
)


def label_dynamic_instruction(instruction: str) -> str:
    """The instruction fenced as the agent's own (markers inside it elided: no forged end)."""
    fenced = instruction.replace(INSTRUCTION_BEGIN, QUOTED_CONTENT_ELIDED).replace(
        INSTRUCTION_END, QUOTED_CONTENT_ELIDED
    )
    return f"{INSTRUCTION_PREAMBLE}\n{INSTRUCTION_BEGIN}\n{fenced}\n{INSTRUCTION_END}"


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
        llm_request.append_instructions(to_content(agent.static_instruction))

    if not agent.instruction:
        return
    text, bypass = await agent.canonical_instruction(readonly_context)
    if not bypass:
        text = await inject_session_state(text, readonly_context)
    if agent.static_instruction:
        labelled = label_dynamic_instruction(text)
        llm_request.contents.append(types.Content(role="user", parts=[types.Part(text=labelled)]))
    else:
        llm_request.append_instructions([text])


def to_content(value: types.ContentUnion) -> types.Content:
    """A static_instruction as a Content: text, a Part, a list of parts, or a Content."""
    if isinstance(value, list):
        return types.Content(role="user", parts=_transformers.t_parts(value))
    return _transformers.t_content(value)
