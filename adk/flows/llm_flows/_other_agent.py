"""Other-agent messages: another agent's event retold to this agent as user context.

Runs on: activity side (model-step activity).

Follows google-adk 2.0.0 (the classic format): a user content that starts with
"For context:", then one text part per text, function call and function
response ("[author] said: ..."); media and code parts are passed through and
thoughts are dropped.
"""

from __future__ import annotations

from google.genai import types

from ...events.event import Event

CONTEXT_PREAMBLE = "For context:"


def present_other_agent_message(event: Event) -> Event | None:
    """The event as the current agent should see it; None if nothing is left to tell."""
    if not event.content or not event.content.parts:
        return event
    author = event.author
    parts = [types.Part(text=CONTEXT_PREAMBLE)]
    for part in event.content.parts:
        if part.thought:
            continue
        if part.text:
            if part.text.strip():
                parts.append(types.Part(text=f"[{author}] said: {part.text}"))
        elif part.function_call:
            call = part.function_call
            parts.append(
                types.Part(
                    text=f"[{author}] called tool `{call.name}` with parameters: {call.args}"
                )
            )
        elif part.function_response:
            response = part.function_response
            parts.append(
                types.Part(
                    text=f"[{author}] `{response.name}` tool returned result: {response.response}"
                )
            )
        elif (
            part.inline_data or part.file_data or part.executable_code or part.code_execution_result
        ):
            parts.append(part)
    if len(parts) == 1:
        return None
    return Event(
        timestamp=event.timestamp,
        author="user",
        content=types.Content(role="user", parts=parts),
        branch=event.branch,
    )
