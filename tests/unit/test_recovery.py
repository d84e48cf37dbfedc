"""Recovery defaults: dead-worker detection, model HTTP timeout, results too large to record.

Runs on: test process only (the activity bodies called directly; the real google-genai
client against a local socket that never answers).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from google.genai import types
from temporalio.exceptions import ApplicationError

from activities._model_step import model_step
from activities._support import PAYLOAD_LIMIT, check_payload_size
from activities._tool_call import tool_call
from adk import ActivityOptions, Agent
from adk.activity_options import MODEL_DEFAULTS, TOOL_DEFAULTS, PayloadTooLargeError
from adk.apps.app import App
from adk.models import Gemini, LlmRequest
from adk.models._errors import classify_model_error
from adk.models.google_llm import http_timeout_ms
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from workflows._options import activity_kwargs
from workflows.contracts import (
    ModelStepInput,
    SessionRef,
    StepRef,
    ToolCallInput,
    ToolCallOutput,
)
from workflows.errors import find_raised

# ------------------------------------------------------------- dead-worker detection


def test_a_dead_worker_is_detected_within_10_s_by_default() -> None:
    for defaults in (MODEL_DEFAULTS, TOOL_DEFAULTS):
        kwargs = activity_kwargs(None, defaults)
        assert kwargs["heartbeat_timeout"] == timedelta(seconds=10)


def test_a_tool_can_choose_its_own_heartbeat_timeout() -> None:
    own = ActivityOptions(heartbeat_timeout=timedelta(minutes=2))
    kwargs = activity_kwargs(own, TOOL_DEFAULTS)
    assert kwargs["heartbeat_timeout"] == timedelta(minutes=2)
    assert kwargs["start_to_close_timeout"] == TOOL_DEFAULTS.start_to_close_timeout


def test_payloads_too_large_is_never_retried() -> None:
    for options in (None, ActivityOptions(maximum_attempts=9)):
        policy = activity_kwargs(options, TOOL_DEFAULTS)["retry_policy"]
        assert "PayloadsTooLarge" in (policy.non_retryable_error_types or [])


# ---------------------------------------------------------------- model HTTP timeout


def test_model_http_timeout_defaults_to_60_s_and_is_configurable(monkeypatch) -> None:
    monkeypatch.delenv("DURABLE_ADK_MODEL_TIMEOUT", raising=False)
    assert http_timeout_ms() == 60_000
    monkeypatch.setenv("DURABLE_ADK_MODEL_TIMEOUT", "2.5")
    assert http_timeout_ms() == 2_500
    for bad in ("soon", "0", "-1"):
        monkeypatch.setenv("DURABLE_ADK_MODEL_TIMEOUT", bad)
        with pytest.raises(ValueError, match="DURABLE_ADK_MODEL_TIMEOUT"):
            http_timeout_ms()


@pytest.fixture
def silent_endpoint(monkeypatch) -> Iterator[str]:
    """A port that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        for var in ("GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_HTTP_CLIENT", "GEMINI_API_KEY"):
            monkeypatch.delenv(var, raising=False)
        monkeypatch.setenv("GOOGLE_API_KEY", "test-key-0123456789")
        monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", url)
        yield url


async def test_a_hung_model_request_times_out_as_a_transient_error(
    silent_endpoint: str, monkeypatch
) -> None:
    monkeypatch.setenv("DURABLE_ADK_MODEL_TIMEOUT", "0.5")
    llm = Gemini(model="gemini-2.5-flash")
    request = LlmRequest(contents=[types.Content(role="user", parts=[types.Part(text="hi")])])
    started = time.monotonic()
    try:
        with pytest.raises(Exception) as caught:
            async for _ in llm.generate_content_async(request):
                pass
    finally:
        await llm.aclose()
    assert time.monotonic() - started < 10  # the timeout, not the test's patience
    info = classify_model_error(caught.value)
    assert info.retryable and info.error_type == "ModelTimeout", info


# ---------------------------------------------------------- results too large


REF = StepRef(
    session=SessionRef(app_name="app", user_id="u", session_id="s"),
    invocation_id="inv",
    agent_name="a",
)


def huge_report(topic: str) -> dict:
    """A result over Temporal's payload limit."""
    return {"topic": topic, "body": "x" * (3 * 1024 * 1024)}


def test_a_result_under_the_limit_passes() -> None:
    check_payload_size(ToolCallOutput(response={"body": "x" * (PAYLOAD_LIMIT - 1000)}), "Tool t")


async def test_a_tool_result_too_large_fails_at_once_and_is_not_recorded() -> None:
    store = InMemorySessionService()
    await store.create_session(app_name="app", user_id="u", session_id="s")
    apps = {"app": App(name="app", root_agent=Agent(name="a", model="m", tools=[huge_report]))}
    call = types.FunctionCall(id="c1", name="huge_report", args={"topic": "t"})
    with pytest.raises(ApplicationError) as caught:
        await tool_call(apps, store, ToolCallInput(ref=REF, function_call=call, record_as="r1"))
    error = caught.value
    assert error.non_retryable and error.type == "PayloadTooLargeError"
    assert error.message.startswith("Tool huge_report of agent a returned 3.1 MB (3,145,")
    assert "payload limit of 2,097,152 bytes" in error.message
    raised = find_raised(error)
    assert raised is not None and raised.qualname == PayloadTooLargeError.__name__
    assert await store.list_events(app_name="app", user_id="u", session_id="s") == []
    store.close()


async def test_a_model_response_too_large_fails_at_once_and_is_not_recorded() -> None:
    store = InMemorySessionService()
    await store.create_session(app_name="app", user_id="u", session_id="s")
    agent = Agent(name="a", model=MockModel.create(["y" * (3 * 1024 * 1024)]))
    apps = {"app": App(name="app", root_agent=agent)}
    step = ModelStepInput(ref=REF, step=1, event_id="e1", timestamp=1.0)
    with pytest.raises(ApplicationError) as caught:
        await model_step(apps, store, step)
    assert caught.value.non_retryable and caught.value.type == "PayloadTooLargeError"
    assert caught.value.message.startswith("The model of agent a returned 3.1 MB")
    assert await store.list_events(app_name="app", user_id="u", session_id="s") == []
    store.close()
