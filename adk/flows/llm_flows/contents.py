"""Contents request processor: the conversation history a model step sees.

Runs on: activity side (model-step activity).

Follows google-adk 2.0.0. From the session events: rewound events are removed;
events that are empty, off the agent's branch or the framework's own are
filtered out (see _context_filters); live transcriptions become text; other
agents' events are retold as user context (see _other_agent); function
responses are moved next to their calls (see _rearrange); and client-side
`adk-` function call ids are stripped. Contents that earlier processors added
(the dynamic instruction when a static_instruction is set) are re-inserted just
before the trailing run of user contents.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from google.genai import types

from ._context_filters import apply_rewinds, is_other_agent_reply, should_include_event_in_context
from ._other_agent import present_other_agent_message
from ._rearrange import rearrange_async_function_responses, rearrange_latest_function_response
from .functions import remove_client_function_call_id

if TYPE_CHECKING:
    from ...agents.invocation_context import InvocationContext
    from ...agents.llm_agent import LlmAgent
    from ...events.event import Event
    from ...models.llm_request import LlmRequest

# Model classes that pair function calls and responses by id: keep `adk-` ids for them.
_ID_PAIRING_MODEL_CLASSES = frozenset({"AnthropicLlm", "Claude", "LiteLlm", "OpenAIResponses"})


def process(ctx: InvocationContext, agent: LlmAgent, llm_request: LlmRequest) -> None:
    instruction_contents = llm_request.contents
    preserve_ids = preserves_function_call_ids(agent)
    if agent.include_contents == "default":
        contents = get_contents(
            ctx.branch, ctx.session.events, agent.name, preserve_function_call_ids=preserve_ids
        )
    else:
        contents = get_current_turn_contents(
            ctx.branch, ctx.session.events, agent.name, preserve_function_call_ids=preserve_ids
        )
    llm_request.contents = insert_instruction_contents(contents, instruction_contents)


def get_contents(
    current_branch: str | None,
    events: list[Event],
    agent_name: str = "",
    *,
    preserve_function_call_ids: bool = False,
) -> list[types.Content]:
    """The model contents for `agent_name` on `current_branch`, from the session events."""
    visible = [
        event
        for event in apply_rewinds(events)
        if should_include_event_in_context(current_branch, event)
    ]
    presented: list[Event] = []
    for event in _merge_transcriptions(visible):
        if is_other_agent_reply(agent_name, event):
            retold = present_other_agent_message(event)
            if retold is not None:
                presented.append(retold)
        else:
            presented.append(event)
    arranged = rearrange_async_function_responses(rearrange_latest_function_response(presented))

    contents: list[types.Content] = []
    for event in arranged:
        if not event.content:
            continue
        content = copy.deepcopy(event.content)
        if not preserve_function_call_ids:
            remove_client_function_call_id(content)
        contents.append(content)
    return contents


def get_current_turn_contents(
    current_branch: str | None,
    events: list[Event],
    agent_name: str = "",
    *,
    preserve_function_call_ids: bool = False,
) -> list[types.Content]:
    """Contents from the latest visible user or other-agent event on (include_contents='none')."""
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if should_include_event_in_context(current_branch, event) and (
            event.author == "user" or is_other_agent_reply(agent_name, event)
        ):
            return get_contents(
                current_branch,
                events[index:],
                agent_name,
                preserve_function_call_ids=preserve_function_call_ids,
            )
    return []


def insert_instruction_contents(
    contents: list[types.Content], instruction_contents: list[types.Content]
) -> list[types.Content]:
    """`contents` with `instruction_contents` placed before the trailing plain user contents.

    A model content or a function response ends that trailing run; without
    one the instruction contents go first.
    """
    if not instruction_contents:
        return contents
    insert_at = len(contents)
    for index in range(len(contents) - 1, -1, -1):
        content = contents[index]
        has_response = any(part.function_response for part in content.parts or [])
        if content.role != "user" or has_response:
            break
        insert_at = index
    return [*contents[:insert_at], *instruction_contents, *contents[insert_at:]]


def preserves_function_call_ids(agent: LlmAgent) -> bool:
    """Whether the agent's model pairs calls and responses by id (no `adk-` stripping)."""
    from ...models.base_llm import BaseLlm

    model = agent.model
    if not isinstance(model, BaseLlm):
        return False
    if getattr(model, "use_interactions_api", False):
        return True
    return type(model).__name__ in _ID_PAIRING_MODEL_CLASSES


def _merge_transcriptions(events: list[Event]) -> list[Event]:
    """Content-less transcription events become text; consecutive ones are joined."""
    result: list[Event] = []
    pending_input = ""
    pending_output = ""
    for index, event in enumerate(events):
        following = events[index + 1] if index + 1 < len(events) else None
        if not event.content:
            if event.input_transcription and event.input_transcription.text:
                pending_input += event.input_transcription.text
                if _input_text(following):
                    continue
                event = event.model_copy(deep=True)
                event.input_transcription = None
                event.content = types.Content(role="user", parts=[types.Part(text=pending_input)])
                pending_input = ""
            elif event.output_transcription and event.output_transcription.text:
                pending_output += event.output_transcription.text
                if _output_text(following):
                    continue
                event = event.model_copy(deep=True)
                event.output_transcription = None
                event.content = types.Content(role="model", parts=[types.Part(text=pending_output)])
                pending_output = ""
        result.append(event)
    return result


def _input_text(event: Event | None) -> bool:
    return bool(event and event.input_transcription and event.input_transcription.text)


def _output_text(event: Event | None) -> bool:
    return bool(event and event.output_transcription and event.output_transcription.text)
