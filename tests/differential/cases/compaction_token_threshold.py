"""Event compaction by token threshold (100 prompt tokens, 2 raw events kept), with a
summarizer model of its own: the model reports its prompt token count; once it
reaches the threshold, the events before the last two are summarised before the
next model call (inside the invocation: 2.13's compaction request processor) or
after the invocation; each new summary starts from the previous one (it is the
first event the summarizer sees), so one summary stands in the requests."""

from google.adk.agents import LlmAgent
from google.adk.apps.app import EventsCompactionConfig
from google.adk.apps.llm_event_summarizer import LlmEventSummarizer
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = [f"message {n}: tell me about topic {n}" for n in range(1, 9)]
TOOL_TURNS = {3, 6}


def note(item: str, tool_context: ToolContext) -> dict:
    """Notes an item down.

    Args:
      item: What to note.
    """
    tool_context.state["last_note"] = item
    return {"noted": item}


def _reply(content, tokens):
    return {
        "content": content,
        "usage_metadata": types.GenerateContentResponseUsageMetadata(
            prompt_token_count=tokens, candidates_token_count=5, total_token_count=tokens + 5
        ),
    }


def build(scripted):
    replies = []
    tokens = 30
    for n in range(1, 9):
        if n in TOOL_TURNS:
            call = types.Part.from_function_call(name="note", args={"item": f"topic {n}"})
            replies.append(_reply([call], tokens))
            tokens += 25
        replies.append(_reply(f"Answer {n}.", tokens))
        tokens += 25
    return LlmAgent(
        name="assistant",
        model=scripted(*replies, model="assistant-model"),
        instruction="You answer questions and note topics.",
        tools=[note],
    )


def events_compaction_config(scripted):
    return EventsCompactionConfig(
        token_threshold=100,
        event_retention_size=2,
        summarizer=LlmEventSummarizer(
            llm=scripted(
                *[_reply(f"Summary {n}.", 10) for n in range(1, 9)],
                model="summarizer-model",
            ),
        ),
    )
