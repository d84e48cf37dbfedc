"""Slow compaction app: every two invocations a slow summarizer model compacts them.

Used by tests/workflows/test_durability.py, which SIGKILLs the worker serving it
while the summarizer's model call runs. Each summarizer call appends `<n>` (its
number in this process) to the file named by $SLOW_COMPACTION_LOG (if set), so the
test can count the calls. Heartbeat timeouts are short (2 s), so an attempt lost
with its worker is retried quickly on another one.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncGenerator
from datetime import timedelta

from google.genai import types

from adk import ActivityOptions, Agent
from adk.apps.app import App, EventsCompactionConfig
from adk.apps.llm_event_summarizer import LlmEventSummarizer
from adk.models.base_llm import BaseLlm
from adk.models.llm_request import LlmRequest
from adk.models.llm_response import LlmResponse

SUMMARY_SECONDS = 1.5


class SlowSummaryModel(BaseLlm):
    """Writes 'Summary of: <the first line of the conversation>' after a while."""

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        path = os.environ.get("SLOW_COMPACTION_LOG")
        if path:
            with open(path, "a", encoding="utf-8") as f:
                f.write("summarizing\n")
        await asyncio.sleep(SUMMARY_SECONDS)
        prompt = llm_request.contents[0].parts[0].text or ""  # type: ignore[index]
        first = prompt.split("\n\n", 1)[1].splitlines()[0]
        yield LlmResponse(
            content=types.Content(role="model", parts=[types.Part(text=f"Summary of: {first}")])
        )


class EchoModel(BaseLlm):
    """Answers 'Answer to: <the last user text>' (the same in every worker process)."""

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1].parts[0].text  # type: ignore[index]
        yield LlmResponse(
            content=types.Content(role="model", parts=[types.Part(text=f"Answer to: {last}")])
        )


_FAST_RETRY = ActivityOptions(
    heartbeat_timeout=timedelta(seconds=2), initial_interval=timedelta(milliseconds=100)
)

root_agent = Agent(
    name="chatty",
    model=EchoModel(model="echo"),
    instruction="Answer briefly.",
    model_activity_options=_FAST_RETRY,
)

app = App(
    name="slow_compaction",
    root_agent=root_agent,
    events_compaction_config=EventsCompactionConfig(
        compaction_interval=2,
        overlap_size=0,
        summarizer=LlmEventSummarizer(llm=SlowSummaryModel(model="slow-summary")),
    ),
)
