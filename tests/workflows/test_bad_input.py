"""Bad input, bad tools and bad apps: clear errors, fast failures, no hangs."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from google.genai import types
from temporalio.api.enums.v1 import EventType
from temporalio.client import WorkflowExecutionStatus

from adk import Agent
from adk.apps.app import App
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from adk.tools import ToolContext
from client import AgentClient, InvocationFailedError, SessionBusyError
from worker import build_worker
from workflows import names

from .helpers import call, runner_for, simplify, turn, user_text


async def failure_of(runner, text: str = "go", **kw) -> str:
    """The text of the exception the turn raised (google-adk's own, or InvocationFailedError)."""
    with pytest.raises(Exception) as info:
        await turn(runner, text, **kw)
    return str(info.value)


async def test_empty_message_is_rejected_before_anything_starts(temporal_env):
    agent = Agent(name="a", model=MockModel.create(["never"]))
    session_id = f"empty-{uuid.uuid4().hex[:8]}"  # the dev server is shared: a fresh id
    async with runner_for(temporal_env, agent) as runner:
        for empty in ["", "   ", types.Content(role="user", parts=[])]:
            message = user_text(empty) if isinstance(empty, str) else empty
            with pytest.raises(ValueError, match="empty"):
                async for _ in runner.run_async(
                    user_id="u1", session_id=session_id, new_message=message
                ):
                    pass
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id=session_id
        )
    assert session is None
    assert agent.model.requests == []
    workflows = [
        w
        async for w in temporal_env.client.list_workflows(
            f"WorkflowId = '{names.invocation_workflow_id('test_app', 'u1', session_id)}'"
        )
    ]
    assert workflows == []


async def test_unknown_app_fails_fast_naming_the_apps_served(temporal_env):
    queue = f"q-{uuid.uuid4().hex[:8]}"
    store = InMemorySessionService()
    app_a = App(name="app_a", root_agent=Agent(name="a", model=MockModel.create(["hi"])))
    worker = build_worker(
        temporal_env.client, apps={"app_a": app_a}, session_service=store, task_queue=queue
    )
    client = AgentClient(temporal_env.client, store, task_queue=queue)
    async with worker:
        started = time.monotonic()
        invocation = await client.start(
            app_name="app_b", user_id="u1", session_id=uuid.uuid4().hex, new_message="hi"
        )
        with pytest.raises(InvocationFailedError) as info:
            async for _ in client.events(invocation):
                pass
        elapsed = time.monotonic() - started
        history = await invocation.handle.fetch_history()
        description = await invocation.handle.describe()
    message = str(info.value)
    assert "app_b" in message and "app_a" in message
    assert elapsed < 5
    # begin is a local activity: its one (non-retryable) failure is one marker
    markers = [  # (the other marker: the workflow.patched of PATCH_ADK_PAUSES)
        e
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_MARKER_RECORDED
        and e.marker_recorded_event_attributes.marker_name == "core_local_activity"
    ]
    scheduled = [
        e for e in history.events if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
    ]
    assert len(markers) == 1 and not scheduled
    assert description.status == WorkflowExecutionStatus.FAILED


def opaque() -> object:
    """Returns something that is not JSON."""
    return object()


async def test_non_json_tool_result_becomes_an_error_naming_the_tool(temporal_env):
    model = MockModel.create([call("opaque"), "ok"])
    agent = Agent(name="a", model=model, tools=[opaque])
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "go")
    response = events[2].get_function_responses()[0].response
    assert set(response) == {"error"}
    assert "Tool `opaque` returned a value that is not JSON-serializable" in response["error"]
    assert simplify(events)[-1] == ("a", "ok")


def get_weather(city: str) -> dict:
    """Weather in a city."""
    return {"city": city}


def get_time(city: str) -> dict:
    """Time in a city."""
    return {"time": "12:00"}


async def test_unknown_tool_gets_adks_error_listing_the_tools_then_the_loop_continues(
    temporal_env,
):
    model = MockModel.create([call("teleport", to="Mars"), call("get_weather", city="Oslo"), "ok"])
    agent = Agent(name="a", model=model, tools=[get_weather, get_time])
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "go")
    assert simplify(events)[1:] == [
        ("a", ("call", "teleport", {"to": "Mars"})),
        (
            "a",
            (
                "response",
                "teleport",
                {
                    "error": "Invoking `teleport()` failed as no tool with that name is"
                    " available. The tools you can call are: get_weather, get_time. You could"
                    " retry, but it is IMPORTANT that you only call a tool from that list."
                },
            ),
        ),
        ("a", ("call", "get_weather", {"city": "Oslo"})),
        ("a", ("response", "get_weather", {"city": "Oslo"})),
        ("a", "ok"),
    ]


@pytest.mark.parametrize(
    "malformed",
    [call(""), types.Part(function_call=types.FunctionCall(args={"x": 1}))],
    ids=["empty-name", "no-name"],
)
async def test_malformed_function_call_gets_an_error_result(temporal_env, malformed):
    model = MockModel.create([malformed, "recovered"])
    agent = Agent(name="a", model=model, tools=[get_weather])
    async with runner_for(temporal_env, agent) as runner:
        events = await asyncio.wait_for(turn(runner, "go"), timeout=20)
    responses = [r for e in events for r in e.get_function_responses()]
    assert len(responses) == 1
    assert "error" in responses[0].response
    assert "get_weather" in responses[0].response["error"]
    assert simplify(events)[-1] == ("a", "recovered")


async def test_missing_mandatory_argument_gets_adks_error_text(temporal_env):
    model = MockModel.create([call("get_weather"), "ok"])
    agent = Agent(name="a", model=model, tools=[get_weather])
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "go")
    assert events[2].get_function_responses()[0].response == {
        "error": "Invoking `get_weather()` failed as the following mandatory input parameters"
        " are not present:\ncity\nYou could retry calling this tool, but it is IMPORTANT for"
        " you to provide all the mandatory parameters."
    }
    assert simplify(events)[-1] == ("a", "ok")


async def test_missing_instruction_variable_fails_fast_and_keeps_the_user_event(temporal_env):
    model = MockModel.create(["never"])
    agent = Agent(name="a", model=model, instruction="Hello {key}")
    async with runner_for(temporal_env, agent) as runner:
        started = time.monotonic()
        message = await failure_of(runner, "hi there")
        elapsed = time.monotonic() - started
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert "Context variable not found: `key` in agent 'a'." in message
    assert elapsed < 5
    assert model.requests == []
    assert session is not None
    assert simplify(session.events) == [("user", "hi there")]


async def test_second_message_while_running_is_session_busy(temporal_env):
    entered, release = asyncio.Event(), asyncio.Event()

    async def slow() -> dict:
        """Waits to be released."""
        entered.set()
        await release.wait()
        return {"done": True}

    model = MockModel.create([call("slow"), "finished"])
    agent = Agent(name="a", model=model, tools=[slow])
    async with runner_for(temporal_env, agent) as runner:
        first = asyncio.create_task(turn(runner, "first"))
        try:
            await asyncio.wait_for(entered.wait(), timeout=10)
            with pytest.raises(SessionBusyError, match="'s1' already has an invocation running"):
                await turn(runner, "second")
        finally:
            release.set()
        events = await asyncio.wait_for(first, timeout=10)
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert simplify(events)[-1] == ("a", "finished")
    assert session is not None
    assert "second" not in [t for _, t in simplify(session.events)]


async def test_exhausted_mock_script_fails_fast_with_its_message(temporal_env):
    model = MockModel.create([call("get_weather", city="Paris")])
    agent = Agent(name="a", model=model, tools=[get_weather])
    async with runner_for(temporal_env, agent) as runner:
        started = time.monotonic()
        message = await failure_of(runner)
        elapsed = time.monotonic() - started
    assert "MockModel 'mock-model' has 1 scripted replies" in message
    assert "reply #2 asked for" in message
    assert elapsed < 5
    assert len(model.requests) == 2  # not retried


async def test_a_tool_writing_non_json_state_runs_once_and_reports(temporal_env):
    runs: list[int] = []

    def remember(tool_context: ToolContext) -> dict:
        """Remembers an object."""
        runs.append(1)
        tool_context.state["thing"] = object()
        return {"ok": True}

    model = MockModel.create([call("remember"), "noted"])
    agent = Agent(name="a", model=model, tools=[remember])
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "go")
    assert runs == [1]  # not retried: the side effect happened once
    error = events[2].get_function_responses()[0].response["error"]
    assert "not JSON-serializable" in error and "remember" in error
    assert "thing" not in events[2].actions.state_delta
