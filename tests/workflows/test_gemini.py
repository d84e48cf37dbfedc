"""The real Gemini model class (google-genai) in the workflow, against FakeGeminiServer."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from google.genai import errors as genai_errors
from temporalio.api.history.v1 import History

from adk import Agent
from adk.testing.fake_gemini import FakeGeminiServer
from workflows import names

from .helpers import runner_for, simplify, turn

API_KEY = "test-key"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGeminiServer]:
    for var in (
        "GEMINI_API_KEY",
        "GOOGLE_GENAI_USE_VERTEXAI",
        "GOOGLE_CLOUD_PROJECT",
        "GOOGLE_CLOUD_LOCATION",
        "GOOGLE_GENAI_API_VERSION",
    ):
        monkeypatch.delenv(var, raising=False)
    with FakeGeminiServer() as fake:
        monkeypatch.setenv("GOOGLE_API_KEY", API_KEY)  # the worker runs in this process
        monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", fake.base_url)
        yield fake


def get_weather(city: str) -> dict:
    """Returns the weather in a city."""
    return {"city": city, "temp_c": 18}


def agent() -> Agent:
    return Agent(name="weather", model="gemini-2.5-flash", tools=[get_weather])


async def history_text(env, workflow_id: str) -> str:
    """The workflow history as JSON, plus its raw bytes (payloads are base64 in the JSON)."""
    history = await env.client.get_workflow_handle(workflow_id).fetch_history()
    raw = History(events=history.events).SerializeToString().decode("utf-8", errors="replace")
    return history.to_json() + raw


WORKFLOW_ID = names.invocation_workflow_id("test_app", "u1", "s1")


async def test_function_call_round_trip(temporal_env, server):
    server.add(
        FakeGeminiServer.function_call("get_weather", {"city": "Paris"}),
        FakeGeminiServer.text("It is 18°C in Paris."),
    )
    async with runner_for(temporal_env, agent()) as runner:
        events = await turn(runner, "Weather in Paris?")
    assert simplify(events) == [
        ("user", "Weather in Paris?"),
        ("weather", ("call", "get_weather", {"city": "Paris"})),
        ("weather", ("response", "get_weather", {"city": "Paris", "temp_c": 18})),
        ("weather", "It is 18°C in Paris."),
    ]
    first, second = server.requests
    assert first.model == "gemini-2.5-flash" and first.rpc == "generateContent"
    declared = first.body["tools"][0]["functionDeclarations"][0]
    assert declared["name"] == "get_weather"
    sent = second.body["contents"]
    assert [c["role"] for c in sent] == ["user", "model", "user"]
    assert sent[2]["parts"][0]["functionResponse"]["response"] == {"city": "Paris", "temp_c": 18}
    assert "id" not in sent[1]["parts"][0]["functionCall"]  # adk- ids are stripped


async def test_rate_limit_is_retried_by_temporal_not_the_sdk(temporal_env, server):
    server.add(
        FakeGeminiServer.error(429, "Resource exhausted", retry_after=1),
        FakeGeminiServer.text("finally"),
    )
    async with runner_for(temporal_env, agent()) as runner:
        started = time.monotonic()
        events = await turn(runner, "hi")
        elapsed = time.monotonic() - started
    assert simplify(events)[-1] == ("weather", "finally")
    assert len(server.requests) == 2
    history = await temporal_env.client.get_workflow_handle(WORKFLOW_ID).fetch_history()
    attempts = [
        e.activity_task_started_event_attributes.attempt
        for e in history.events
        if e.HasField("activity_task_started_event_attributes")
    ]
    assert attempts == [2]  # the model step, on its 2nd attempt (begin is a local activity)
    assert elapsed >= 0.9  # waited the Retry-After the provider asked for


async def test_bad_request_fails_fast_with_the_provider_message(temporal_env, server):
    server.add(FakeGeminiServer.error(400, "Invalid JSON payload: unknown field 'foo'"))
    async with runner_for(temporal_env, agent()) as runner:
        started = time.monotonic()
        with pytest.raises(genai_errors.ClientError) as info:  # what google-adk raises
            await turn(runner, "hi")
        elapsed = time.monotonic() - started
    message = str(info.value)
    assert "Invalid JSON payload: unknown field 'foo'" in message
    assert info.value.code == 400
    assert elapsed < 5
    assert len(server.requests) == 1


async def test_api_key_never_reaches_the_workflow_history(temporal_env, server):
    server.add(
        FakeGeminiServer.function_call("get_weather", {"city": "Oslo"}),
        FakeGeminiServer.error(400, f"API key {API_KEY} cannot use this model"),
    )
    async with runner_for(temporal_env, agent()) as runner:
        with pytest.raises(genai_errors.ClientError) as info:
            await turn(runner, "hi")
    history = await history_text(temporal_env, WORKFLOW_ID)
    assert "get_weather" in history and "Oslo" in history  # payloads are searched
    assert "API key *** cannot use this model" in history  # the failure is recorded ...
    assert API_KEY not in history  # ... never the key
    assert API_KEY not in str(info.value)
    assert [r.headers.get("x-goog-api-key") for r in server.requests] == ["<redacted>"] * 2
