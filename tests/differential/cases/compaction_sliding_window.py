"""Event compaction over 12 turns, sliding window (interval 3, overlap 1), with a
summarizer model of its own: after turns 3, 6, 9 and 12 the summarizer is asked
(its request compared), the compaction event is stored (not yielded), and every
later request carries the summaries in place of the events they cover. Tool calls
inside the compacted ranges; state written by the tool survives compaction."""

from google.adk.agents import LlmAgent
from google.adk.apps.app import EventsCompactionConfig
from google.adk.apps.llm_event_summarizer import LlmEventSummarizer
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = [f"message {n}: tell me about topic {n}" for n in range(1, 13)]
TOOL_TURNS = {2, 5, 8, 11}


def note(item: str, tool_context: ToolContext) -> dict:
    """Notes an item down.

    Args:
      item: What to note.
    """
    notes = tool_context.state.get("notes", []) + [item]
    tool_context.state["notes"] = notes
    return {"noted": item, "count": len(notes)}


def build(scripted):
    replies = []
    for n in range(1, 13):
        if n in TOOL_TURNS:
            replies.append(types.Part.from_function_call(name="note", args={"item": f"topic {n}"}))
        replies.append(f"Answer {n}: topic {n} is interesting.")
    return LlmAgent(
        name="assistant",
        model=scripted(*replies, model="assistant-model"),
        instruction="You answer questions and note topics.",
        tools=[note],
    )


def events_compaction_config(scripted):
    return EventsCompactionConfig(
        compaction_interval=3,
        overlap_size=1,
        summarizer=LlmEventSummarizer(
            llm=scripted(
                *[f"Summary {n}: the user asked about topics." for n in range(1, 5)],
                model="summarizer-model",
            ),
        ),
    )
