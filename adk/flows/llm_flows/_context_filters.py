"""Context filters: which session events a model step may see.

Runs on: activity side (model-step activity).

Follows google-adk 2.13: rewound events are removed; an event is kept only if
it has visible content (or a transcription), lies on the agent's branch or an
ancestor's, and is not one of the framework's own function calls/responses
(credential, confirmation and input requests, adk_framework).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .functions import REQUEST_CONFIRMATION_FUNCTION_CALL_NAME, REQUEST_EUC_FUNCTION_CALL_NAME

if TYPE_CHECKING:
    from google.genai import types

    from ...events.event import Event

REQUEST_INPUT_FUNCTION_CALL_NAME = "adk_request_input"
ADK_FRAMEWORK_FUNCTION_CALL_NAME = "adk_framework"
CLIENT_FUNCTION_CALL_NAMES = frozenset(
    {
        REQUEST_EUC_FUNCTION_CALL_NAME,
        REQUEST_CONFIRMATION_FUNCTION_CALL_NAME,
        REQUEST_INPUT_FUNCTION_CALL_NAME,
    }
)
"""The calls a client answers (google-adk 2.13's CLIENT_FUNCTION_CALL_NAMES)."""
FRAMEWORK_FUNCTION_NAMES = frozenset(
    {
        REQUEST_EUC_FUNCTION_CALL_NAME,
        REQUEST_CONFIRMATION_FUNCTION_CALL_NAME,
        ADK_FRAMEWORK_FUNCTION_CALL_NAME,
    }
)
"""The calls whose events never reach a model request (2.13 keeps adk_request_input's:
the model asked the question, the answer is for it)."""


def apply_rewinds(events: list[Event]) -> list[Event]:
    """Drop each rewind event and everything from the first event of its target invocation."""
    kept: list[Event] = []
    index = len(events) - 1
    while index >= 0:
        event = events[index]
        target = event.actions.rewind_before_invocation_id
        if target:
            for earlier in range(index):
                if events[earlier].invocation_id == target:
                    index = earlier
                    break
        else:
            kept.append(event)
        index -= 1
    kept.reverse()
    return kept


def should_include_event_in_context(
    current_branch: str | None, event: Event, *, include_thoughts: bool = False
) -> bool:
    """Visible content, on this branch, and not a framework function call/response.

    An event with an `isolation_scope` (google-adk 2.13's Task API scoping)
    belongs to a scoped agent; every agent here is unscoped and does not see it.
    """
    return (
        event.isolation_scope is None
        and not contains_empty_content(event, include_thoughts=include_thoughts)
        and is_event_on_branch(current_branch, event)
        and not is_framework_event(event)
    )


def is_part_invisible(part: types.Part, *, include_thoughts: bool = False) -> bool:
    """Thoughts and parts with nothing for the model.

    Calls and responses, server-side tool calls and responses, and thought
    signatures (opaque state the model wants back) always count.
    """
    if part.function_call or part.function_response or part.thought_signature:
        return False
    if getattr(part, "tool_call", None) or getattr(part, "tool_response", None):
        return False
    has_payload = (
        part.text
        or part.inline_data
        or part.file_data
        or part.executable_code
        or part.code_execution_result
    )
    return bool(part.thought and not include_thoughts) or not has_payload


def contains_empty_content(event: Event, *, include_thoughts: bool = False) -> bool:
    """No content, no role, no parts or only invisible parts, and no transcription."""
    if event.actions.compaction:
        return False
    content = event.content
    empty = (
        not content
        or not content.role
        or not content.parts
        or all(is_part_invisible(p, include_thoughts=include_thoughts) for p in content.parts)
    )
    return empty and not event.output_transcription and not event.input_transcription


def is_event_on_branch(current_branch: str | None, event: Event) -> bool:
    """The event's branch is the current one or an ancestor of it (or either is unset)."""
    if not current_branch or not event.branch:
        return True
    return current_branch == event.branch or current_branch.startswith(event.branch + ".")


def is_framework_event(event: Event) -> bool:
    """Any part is a call or response of a framework function (the whole event goes)."""
    if not event.content or not event.content.parts:
        return False
    for part in event.content.parts:
        if part.function_call and part.function_call.name in FRAMEWORK_FUNCTION_NAMES:
            return True
        if part.function_response and part.function_response.name in FRAMEWORK_FUNCTION_NAMES:
            return True
    return False


def is_other_agent_reply(agent_name: str, event: Event) -> bool:
    """Authored by neither this agent nor the user."""
    return bool(agent_name and event.author != agent_name and event.author != "user")
