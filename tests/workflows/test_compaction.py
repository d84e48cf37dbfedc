"""Event compaction on a real local Temporal: bounded requests, summarizer failures.

Runs on: test process (a Runner with its worker in this process). What 2.13 does
is compared in tests/differential (compaction_*) and tests/unit/test_compaction_parity.py;
these check what durability adds: the summarizer's call is an activity, retried
on a transient model error and skipped (as 2.13 skips a failed summary) otherwise.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

import httpx
import pytest
from google.genai import errors as genai_errors
from google.genai import types
from pydantic import PrivateAttr
from temporalio.api.enums.v1 import EventType

from adk import Agent, SequentialAgent
from adk.apps.app import EventsCompactionConfig
from adk.apps.llm_event_summarizer import LlmEventSummarizer
from adk.models.base_llm import BaseLlm
from adk.models.llm_request import LlmRequest
from adk.models.llm_response import LlmResponse
from workflows import names

from .helpers import runner_for, turn


class Counting(BaseLlm):
    """Answers every call in order from `replies` (an exception is raised); notes each
    request's size in characters, and reports a prompt token count of a quarter of it."""

    replies: list[Any] = []
    _sizes: list[int] = PrivateAttr(default_factory=list)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        size = sum(len(c.model_dump_json(exclude_none=True)) for c in llm_request.contents)
        self._sizes.append(size)
        reply = self.replies[min(len(self._sizes), len(self.replies)) - 1]
        if isinstance(reply, BaseException):
            raise reply
        yield LlmResponse(
            content=types.Content(role="model", parts=[types.Part(text=reply)]),
            usage_metadata=types.GenerateContentResponseUsageMetadata(prompt_token_count=size // 4),
        )


def _server_error(code: int) -> genai_errors.APIError:
    request = httpx.Request("POST", "https://generativelanguage.googleapis.com/v1beta/models")
    response = httpx.Response(code, request=request, json={"error": {"message": "busy"}})
    kind = genai_errors.ServerError if code >= 500 else genai_errors.ClientError
    return kind(code, {"error": {"code": code, "message": "busy"}}, response)


LONG = "Tell me more about the history of the subject, in detail please. " * 4


async def _conversation(temporal_env: Any, config: EventsCompactionConfig | None, turns: int):
    model = Counting(model="counting", replies=["Here is a long answer. " * 8])
    agent = Agent(name="talker", model=model, instruction="Answer.")
    options = {"events_compaction_config": config} if config else {}
    async with runner_for(temporal_env, agent, **options) as runner:
        for n in range(turns):
            await turn(runner, f"{n}: {LONG}")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert session is not None
    return model._sizes, session


async def test_a_long_conversations_requests_stay_bounded(temporal_env):
    summarizer = Counting(model="summarizer", replies=["The user asks about history."])
    config = EventsCompactionConfig(
        token_threshold=400,
        event_retention_size=2,
        summarizer=LlmEventSummarizer(llm=summarizer),
    )
    compacted, session = await _conversation(temporal_env, config, turns=16)
    plain, _ = await _conversation(temporal_env, None, turns=16)
    print(f"\nrequest chars by turn, compacted: {compacted}\nwithout compaction: {plain}")
    assert plain[-1] > 12 * plain[0]  # grows with the conversation
    assert max(compacted[4:]) < 2_500  # about the threshold: summary, 2 events, the message
    assert max(compacted) < plain[-1] / 4
    assert sum(1 for e in session.events if e.actions.compaction) >= 5
    assert len(summarizer._sizes) == sum(1 for e in session.events if e.actions.compaction)


async def test_a_transient_summarizer_error_retries_the_activity(temporal_env):
    summarizer = Counting(model="summarizer", replies=[_server_error(503), "Summary."])
    config = EventsCompactionConfig(
        compaction_interval=1, overlap_size=0, summarizer=LlmEventSummarizer(llm=summarizer)
    )
    agent = Agent(name="talker", model=Counting(model="m", replies=["Hi."]))
    async with runner_for(temporal_env, agent, events_compaction_config=config) as runner:
        await turn(runner, "hello")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
        handle = runner._temporal.get_workflow_handle(  # type: ignore[union-attr]
            names.invocation_workflow_id("test_app", "u1", "s1")
        )
        history = await handle.fetch_history()
    assert session is not None
    [compaction] = [e.actions.compaction for e in session.events if e.actions.compaction]
    assert compaction.compacted_content.parts[0].text == "Summary."  # type: ignore[index]
    attempts = [
        e.activity_task_started_event_attributes.attempt
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
    ]
    assert attempts[-1] == 2 and len(summarizer._sizes) == 2


async def test_a_failed_summary_is_skipped_as_in_adk(temporal_env, caplog):
    """google-adk 2.13: 'Event compaction failed; continuing with the uncompacted
    history.' The invocation ends well; the next one compacts again."""
    summarizer = Counting(model="summarizer", replies=[_server_error(400), "Summary."])
    config = EventsCompactionConfig(
        compaction_interval=1, overlap_size=0, summarizer=LlmEventSummarizer(llm=summarizer)
    )
    agent = Agent(name="talker", model=Counting(model="m", replies=["Hi."]))
    async with runner_for(temporal_env, agent, events_compaction_config=config) as runner:
        first = await turn(runner, "hello")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
        assert session is not None and not any(e.actions.compaction for e in session.events)
        await turn(runner, "again")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert first[-1].content.parts[0].text == "Hi."  # type: ignore[union-attr, index]
    assert "Event compaction failed; continuing with the uncompacted history." in caplog.text
    assert session is not None
    assert [e.actions.compaction is not None for e in session.events] == [
        False,
        False,
        False,
        False,
        True,
    ]


async def test_no_model_for_the_default_summarizer_raises_as_adk(temporal_env):
    """No summarizer and a root that is not an LlmAgent: 2.13's ValueError, after the
    invocation's events."""
    inner = Agent(name="inner", model=Counting(model="m", replies=["Hi."]))
    root = SequentialAgent(name="pipeline", sub_agents=[inner])
    config = EventsCompactionConfig(compaction_interval=1, overlap_size=0)
    async with runner_for(temporal_env, root, events_compaction_config=config) as runner:
        with pytest.raises(
            ValueError, match="No LlmAgent model available for event compaction summarizer."
        ):
            await turn(runner, "hello")
