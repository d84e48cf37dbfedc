"""LlmEventSummarizer: a model writes the summary a compaction event carries.

Runs on: activity side (the compaction activity, and the model step when a token
threshold is set). Mirrors google.adk.apps.llm_event_summarizer: the prompt, the
rendering of the events and the event it returns are 2.13's.
"""

from __future__ import annotations

from google.genai import types

from ..events.event import Event
from ..events.event_actions import EventActions, EventCompaction
from ..flows.llm_flows.functions import REQUEST_EUC_FUNCTION_CALL_NAME
from ..models.base_llm import BaseLlm
from ..models.llm_request import LlmRequest
from .base_events_summarizer import BaseEventsSummarizer


class LlmEventSummarizer(BaseEventsSummarizer):
    """Summarises events with a model, for sliding-window and token-threshold compaction.

    The compaction (adk/apps/compaction.py) decides when and which events; this
    class only renders them as text, asks the model for a summary and wraps it
    in an event carrying an `EventCompaction`.
    """

    _DEFAULT_PROMPT_TEMPLATE = (
        "The following is a conversation history between a user and an AI agent."
        " It may or may not start from a compacted history. Please identify and"
        " reiterate the user request, summarize the context so far, focusing on"
        " key decisions made and information obtained, as well as any unresolved"
        " questions or tasks. "
        "CRITICAL INSTRUCTIONS: "
        "1. Explicitly identify and state the primary language used by the user "
        'at the top of your summary (e.g., "Conversation Language: English"). '
        "2. If the agent called any tools, accurately list the exact tool names "
        "used to maintain tool grounding. "
        "The rest of the summary should be concise and capture the"
        " essence of the interaction.\n\n{conversation_history}"
    )

    _MAX_TOOL_CONTENT_CHARS = 2000
    """A tool call's arguments and a tool's response are cut to this many characters
    (search results would otherwise inflate the context compaction shrinks)."""

    def __init__(self, llm: BaseLlm, prompt_template: str | None = None):
        """`prompt_template` must hold a `{conversation_history}` placeholder."""
        self._llm = llm
        self._prompt_template = prompt_template or self._DEFAULT_PROMPT_TEMPLATE

    def _format_events_for_prompt(self, events: list[Event]) -> str:
        """One line per text, thought, call and response; a compaction event's thoughts
        and credential requests (the user's credential, not conversation) left out."""
        lines: list[str] = []
        for event in events:
            if not (event.content and event.content.parts) or _is_auth_event(event):
                continue
            compaction = bool(event.actions and event.actions.compaction)
            for part in event.content.parts:
                if part.thought and part.text:
                    if not compaction:
                        lines.append(f"{event.author} (thought): {part.text}")
                elif part.text:
                    lines.append(f"{event.author}: {part.text}")
                if part.function_call:
                    args = self._truncate(str(part.function_call.args))
                    lines.append(f"{event.author} called tool: {part.function_call.name}({args})")
                if part.function_response:
                    response = self._truncate(str(part.function_response.response))
                    lines.append(f"Tool response from {part.function_response.name}: {response}")
        return "\n".join(lines)

    def _truncate(self, text: str) -> str:
        limit = self._MAX_TOOL_CONTENT_CHARS
        if len(text) <= limit:
            return text
        return f"{text[:limit]}... [truncated {len(text) - limit} chars]"

    async def maybe_summarize_events(self, *, events: list[Event]) -> Event | None:
        if not events:
            return None
        prompt = self._prompt_template.format(
            conversation_history=self._format_events_for_prompt(events)
        )
        llm_request = LlmRequest(
            model=self._llm.model,
            contents=[types.Content(role="user", parts=[types.Part(text=prompt)])],
        )
        summary: types.Content | None = None
        usage = None
        async for response in self._llm.generate_content_async(llm_request, stream=False):
            if response.content:
                summary, usage = response.content, response.usage_metadata
                break
        if summary is None:
            return None
        summary.role = "model"
        return Event(
            author="user",
            actions=EventActions(
                compaction=EventCompaction(
                    start_timestamp=events[0].timestamp,
                    end_timestamp=events[-1].timestamp,
                    compacted_content=summary,
                )
            ),
            invocation_id=Event.new_id(),
            usage_metadata=usage,
        )


def _is_auth_event(event: Event) -> bool:
    """A credential request or its answer (google-adk 2.13's test)."""
    for part in event.content.parts if event.content and event.content.parts else []:
        call, response = part.function_call, part.function_response
        if (call and call.name == REQUEST_EUC_FUNCTION_CALL_NAME) or (
            response and response.name == REQUEST_EUC_FUNCTION_CALL_NAME
        ):
            return True
    return False
