"""Event compaction with the default summarizer: no summarizer given, so 2.13
summarises with the root agent's own model (the same scripted model answers the
turns and writes the summaries, in call order); sliding window, interval 2, no
overlap, over 5 turns."""

from google.adk.agents import LlmAgent
from google.adk.apps.app import EventsCompactionConfig

TURNS = [f"question {n}" for n in range(1, 6)]


def build(scripted):
    return LlmAgent(
        name="assistant",
        model=scripted(
            "Answer 1.",
            "Answer 2.",
            "Summary of questions 1 and 2.",
            "Answer 3.",
            "Answer 4.",
            "Summary of questions 3 and 4.",
            "Answer 5.",
        ),
        instruction="Answer.",
    )


def events_compaction_config(scripted):
    return EventsCompactionConfig(compaction_interval=2, overlap_size=0)
