"""Contents request processor: the conversation history a model step sees.

Runs on: activity side (model-step activity).

Follows google-adk 2.13. From the session events: rewound events are removed;
events that are empty, off the agent's branch or the framework's own are
filtered out (see _context_filters); compaction summaries replace the events
they cover (see _compaction); live transcriptions become text; other
agents' events, and responses to other agents' calls, are retold as fenced
user context (see _other_agent); function responses are moved next to their
calls and unanswered calls dropped (see _rearrange); and client-side `adk-`
function call ids are stripped. Contents that earlier processors added (the
dynamic instruction when a static_instruction is set) are inserted at the
current-turn boundary (LlmRequest._insert_transient_user_content).
"""

from __future__ import annotations

import copy
import functools
from typing import TYPE_CHECKING

from google.genai import types

from ...utils._copying import deep_copy
from ._compaction import process_compaction_events, recover_compacted_function_calls
from ._contents_memo import MEMO
from ._context_filters import apply_rewinds, is_other_agent_reply, should_include_event_in_context
from ._other_agent import present_other_agent_message
from ._rearrange import (
    drop_orphaned_function_calls,
    drop_orphaned_function_responses,
    rearrange_async_function_responses,
    rearrange_latest_function_response,
)
from .functions import AF_FUNCTION_CALL_ID_PREFIX, remove_client_function_call_id

if TYPE_CHECKING:
    from ...agents.invocation_context import InvocationContext
    from ...agents.llm_agent import LlmAgent
    from ...events.event import Event
    from ...models.llm_request import LlmRequest

# Model classes that pair function calls and responses by id: keep `adk-` ids for them.
_ID_PAIRING_MODEL_CLASSES = frozenset(
    {"AnthropicLlm", "Claude", "LiteLlm", "OpenAIResponses", "OpenAIResponsesLlm"}
)


def process(ctx: InvocationContext, agent: LlmAgent, llm_request: LlmRequest) -> None:
    instruction_contents = llm_request.contents
    preserve_ids = preserves_function_call_ids(agent)
    include_thoughts = bool(getattr(ctx.run_config, "include_thoughts_from_other_agents", False))
    if agent.include_contents == "default":
        session = ctx.session
        key = (
            session.app_name,
            session.user_id,
            session.id,
            agent.name,
            ctx.branch,
            preserve_ids,
            include_thoughts,
        )
        llm_request.contents = list(
            MEMO.contents(
                key,
                session.events,
                functools.partial(
                    arrange,
                    ctx.branch,
                    agent_name=agent.name,
                    include_thoughts_from_other_agents=include_thoughts,
                ),
                functools.partial(shared_contents, preserve_function_call_ids=preserve_ids),
            )
        )
        llm_request._contents_shared = True  # the memo's: copied before anyone may change them
    else:
        llm_request.contents = get_current_turn_contents(
            ctx.branch, ctx.session.events, agent.name, preserve_function_call_ids=preserve_ids
        )
    model_input_context = getattr(ctx.run_config, "model_input_context", None)
    if model_input_context:
        _insert_model_input_context(ctx, llm_request, copy.deepcopy(model_input_context))
    llm_request._insert_transient_user_content(instruction_contents)


def get_contents(
    current_branch: str | None,
    events: list[Event],
    agent_name: str = "",
    *,
    preserve_function_call_ids: bool = False,
    include_thoughts_from_other_agents: bool = False,
) -> list[types.Content]:
    """The model contents for `agent_name` on `current_branch`, from the session events.

    Each content is the request's own copy (callbacks may change it)."""
    arranged, _ = arrange(
        current_branch,
        events,
        agent_name,
        include_thoughts_from_other_agents=include_thoughts_from_other_agents,
    )
    return prepared_contents(arranged, preserve_function_call_ids)


def arrange(
    current_branch: str | None,
    events: list[Event],
    agent_name: str,
    *,
    include_thoughts_from_other_agents: bool = False,
) -> tuple[list[Event], bool]:
    """The events whose contents a model step sees, in order; and whether the latest
    event stayed where it was (no answer in it was moved back to an earlier call)."""
    visible = [
        event
        for event in apply_rewinds(events)
        if should_include_event_in_context(
            current_branch,
            event,
            include_thoughts=include_thoughts_from_other_agents
            and is_other_agent_reply(agent_name, event),
        )
    ]
    if any(event.actions.compaction for event in visible):
        compacted = process_compaction_events(visible, agent_name)
        visible = recover_compacted_function_calls(compacted, visible)
    call_authors = {
        call.id: event.author for event in visible for call in event.get_function_calls() if call.id
    }
    presented: list[Event] = []
    for event in _merge_transcriptions(visible):
        if is_other_agent_reply(agent_name, event) or _answers_other_agent(
            event, agent_name, call_authors
        ):
            retold = present_other_agent_message(
                event, include_thoughts=include_thoughts_from_other_agents
            )
            if retold is not None:
                presented.append(retold)
        else:
            presented.append(event)
    arranged = drop_orphaned_function_responses(presented)
    latest = rearrange_latest_function_response(arranged)
    in_place = len(latest) == len(arranged) and all(
        a is b for a, b in zip(latest, arranged, strict=True)
    )
    arranged = rearrange_async_function_responses(latest)
    arranged = drop_orphaned_function_calls(arranged)
    return arranged, in_place


def prepared_contents(
    arranged: list[Event], preserve_function_call_ids: bool
) -> list[types.Content]:
    """Copies of the events' contents, client-side function call ids stripped."""
    contents: list[types.Content] = []
    for event in arranged:
        if not event.content:
            continue
        content = deep_copy(event.content)
        if not preserve_function_call_ids:
            remove_client_function_call_id(content)
        contents.append(content)
    return contents


def shared_contents(arranged: list[Event], preserve_function_call_ids: bool) -> list[types.Content]:
    """The events' contents as the model sees them, sharing what needs no change.

    For the contents memo: its contents are read-only (`LlmRequest._own_contents`
    copies them before anything may change one), and so are the session store's
    cached events, so a content sent as it is stored is the event's own object. A
    content with client-side `adk-` ids is a new Content whose changed parts are new
    and whose other parts are shared: a long session's memo costs a list of
    references and the few objects that differ, not a second copy of the session."""
    contents: list[types.Content] = []
    for event in arranged:
        content = event.content
        if not content:
            continue
        if not preserve_function_call_ids and _has_client_ids(content):
            content = _without_client_ids(content)
        contents.append(content)
    return contents


def _is_client_id(value: str | None) -> bool:
    return bool(value) and value.startswith(AF_FUNCTION_CALL_ID_PREFIX)  # type: ignore[union-attr]


def _has_client_ids(content: types.Content) -> bool:
    for part in content.parts or ():
        if part.function_call and _is_client_id(part.function_call.id):
            return True
        if part.function_response and _is_client_id(part.function_response.id):
            return True
    return False


def _without_client_ids(content: types.Content) -> types.Content:
    parts: list[types.Part] = []
    for part in content.parts or ():
        call, response = part.function_call, part.function_response
        if call and _is_client_id(call.id):
            part = part.model_copy(update={"function_call": call.model_copy(update={"id": None})})
        elif response and _is_client_id(response.id):
            part = part.model_copy(
                update={"function_response": response.model_copy(update={"id": None})}
            )
        parts.append(part)
    return content.model_copy(update={"parts": parts})


def _answers_other_agent(event: Event, agent_name: str, call_authors: dict[str, str]) -> bool:
    """A function response (from anyone) to a call another agent made."""
    if not event.content:
        return False
    for part in event.content.parts or []:
        response = part.function_response
        if response and response.id:
            author = call_authors.get(response.id)
            if author and author != agent_name and author != "user":
                return True
    return False


def get_current_turn_contents(
    current_branch: str | None,
    events: list[Event],
    agent_name: str = "",
    *,
    preserve_function_call_ids: bool = False,
) -> list[types.Content]:
    """Contents from the latest user or other-agent turn on (include_contents='none').

    A turn starts at a visible user or other-agent event that is not a
    transfer and not a posted-back tool result; the start is moved back far
    enough that every posted-back result after it keeps its call.
    """
    call_ids = {call.id for event in events for call in event.get_function_calls() if call.id}
    unmatched: set[str] = set()
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        unmatched -= {call.id for call in event.get_function_calls() if call.id}
        submitted = _is_submitted_tool_result(event)
        if submitted:
            unmatched.update(
                r.id for r in event.get_function_responses() if r.id and r.id in call_ids
            )
        if (
            not unmatched
            and should_include_event_in_context(current_branch, event)
            and (event.author == "user" or is_other_agent_reply(agent_name, event))
            and not _is_direct_transfer(event)
            and not submitted
        ):
            return get_contents(
                current_branch,
                events[index:],
                agent_name,
                preserve_function_call_ids=preserve_function_call_ids,
            )
    return []


def _is_submitted_tool_result(event: Event) -> bool:
    """A user-authored function response: a long-running tool's result posted back."""
    return event.author == "user" and bool(event.get_function_responses())


def _is_direct_transfer(event: Event) -> bool:
    """A transfer_to_agent call or its response: never the start of a turn."""
    if event.actions.transfer_to_agent:
        return True
    parts = event.content.parts if event.content else None
    return any(p.function_call and p.function_call.name == "transfer_to_agent" for p in parts or [])


def _insert_model_input_context(
    ctx: InvocationContext, llm_request: LlmRequest, model_input_context: list[types.Content]
) -> None:
    """RunConfig.model_input_context goes just before this invocation's user content."""
    insert_at = 0
    if ctx.user_content:
        for index in range(len(llm_request.contents) - 1, -1, -1):
            if llm_request.contents[index] == ctx.user_content:
                insert_at = index
                break
    llm_request.contents[insert_at:insert_at] = model_input_context


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
