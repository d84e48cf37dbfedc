"""What the Temporal Web UI shows: summaries, search attributes, activity summaries, transcript."""

from __future__ import annotations

import asyncio

from google.genai import types
from temporalio.api.sdk.v1 import WorkflowMetadata
from temporalio.client import WorkflowExecutionStatus

from adk import Agent
from adk.events.event import Event
from adk.testing import MockModel
from adk.testing.mock_model import ScriptExhaustedError
from workflows import names
from workflows._ui import Transcript, call_summary

from .helpers import call, runner_for, turn

WORKFLOW_ID = names.invocation_workflow_id("test_app", "u1", "s1")


def get_weather(city: str) -> dict:
    """Returns the weather in a city."""
    return {"city": city, "temp_c": 18}


async def test_summary_search_attributes_and_activity_summaries(temporal_env):
    model = MockModel.create([call("get_weather", city="Paris"), "18°C"], model="mock-1")
    agent = Agent(name="weather", model=model, tools=[get_weather])
    async with runner_for(temporal_env, agent) as runner:
        await turn(runner, "Weather in Paris?")
    handle = temporal_env.client.get_workflow_handle(WORKFLOW_ID)
    description = await handle.describe()
    assert await description.static_summary() == "test_app · u1: “Weather in Paris?”"
    details = await description.static_details()
    assert details is not None and details.endswith("**message**\n\nWeather in Paris?")
    attributes = description.typed_search_attributes
    assert {key.name: attributes.get(key) for key in names.SEARCH_ATTRIBUTES} == {
        "AdkApp": "test_app",
        "AdkUser": "u1",
        "AdkSession": "s1",
        "AdkAgent": "weather",
        "AdkStatus": None,  # set only while an invocation waits for a human
    }
    converter = temporal_env.client.data_converter.payload_converter
    history = await handle.fetch_history()
    summaries = [
        converter.from_payload(e.user_metadata.summary, str)
        for e in history.events
        if e.HasField("activity_task_scheduled_event_attributes")
    ]
    assert summaries == [  # begin is a local activity (a marker, not a scheduled activity)
        "model mock-1 · step 1 · weather",
        "tool get_weather(city=Paris)",
        "model mock-1 · step 2 · weather",
    ]  # the last model step recorded the last event: nothing left to persist


async def test_current_details_show_the_live_transcript(temporal_env):
    entered, release = asyncio.Event(), asyncio.Event()

    async def slow_lookup(city: str) -> dict:
        """Looks a city up, slowly."""
        entered.set()
        await release.wait()
        return {"city": city}

    model = MockModel.create([call("slow_lookup", city="Oslo"), "Found Oslo."])
    agent = Agent(name="finder", model=model, tools=[slow_lookup])
    async with runner_for(temporal_env, agent) as runner:
        handle = temporal_env.client.get_workflow_handle(WORKFLOW_ID)
        task = asyncio.create_task(turn(runner, "Find Oslo"))
        try:
            await asyncio.wait_for(entered.wait(), timeout=10)
            running = await handle.query(
                "__temporal_workflow_metadata", result_type=WorkflowMetadata
            )
            description = await handle.describe()
        finally:
            release.set()
        await asyncio.wait_for(task, timeout=10)
        done = await handle.query("__temporal_workflow_metadata", result_type=WorkflowMetadata)
    assert description.typed_search_attributes.get(names.SA_STATUS) is None  # not waiting
    assert description.typed_search_attributes.get(names.SA_AGENT) == "finder"
    assert "**status**: running" in running.current_details
    assert running.current_details.endswith(
        "**user**: Find Oslo\n\n**finder** → `slow_lookup(city=Oslo)`"
    )
    assert "**status**: completed" in done.current_details
    assert done.current_details.endswith(
        '← `slow_lookup`: {"city": "Oslo"}\n\n**finder**: Found Oslo.'
    )


async def test_failed_invocation_is_failed_with_no_adk_status(temporal_env):
    model = MockModel.create([])
    agent = Agent(name="a", model=model)
    async with runner_for(temporal_env, agent) as runner:
        try:
            await turn(runner, "hi", session="s-fail")
        except ScriptExhaustedError:  # the model's own exception, as google-adk raises it
            pass
        else:
            raise AssertionError("expected a failure")
    handle = temporal_env.client.get_workflow_handle(
        names.invocation_workflow_id("test_app", "u1", "s-fail")
    )
    description = await handle.describe()
    assert description.status == WorkflowExecutionStatus.FAILED
    assert description.typed_search_attributes.get(names.SA_STATUS) is None


def test_call_summary_is_cut_to_fit():
    assert call_summary("f", {"q": "x" * 100}) == f"tool f(q={'x' * 29}…)"
    assert len(call_summary("f", {f"k{i}": "v" * 30 for i in range(20)})) == 190
    assert call_summary("f", None) == "tool f()"


def test_transcript_keeps_the_last_lines():
    transcript = Transcript("header")
    assert transcript.render("running") == "header\n\n**status**: running\n\n_no events yet_"
    for i in range(50):
        transcript.add(
            Event(author="a", content=types.Content(role="model", parts=[types.Part(text=f"{i}")]))
        )
    rendered = transcript.render("completed")
    assert "**a**: 10\n\n" in rendered and "**a**: 9\n\n" not in rendered
    assert rendered.endswith("**a**: 49")


async def test_adk_agent_is_set_at_start_when_known_and_corrected_by_routing(temporal_env):
    """The Runner names its root agent at start; a client that names none uses the
    root agent the worker published, once a begin has published it; before that,
    or when the name is wrong, the workflow sets it with one search-attribute update."""
    from temporalio.api.enums.v1 import EventType

    from client import AgentClient

    def upserts(history) -> int:  # type: ignore[no-untyped-def]
        kind = EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES
        return sum(  # ours (Temporal's own TemporalChangeVersion comes with the changes marker)
            1
            for e in history.events
            if e.event_type == kind
            and set(
                e.upsert_workflow_search_attributes_event_attributes.search_attributes.indexed_fields
            )
            - {"TemporalChangeVersion"}
        )

    model = MockModel.create(["hi", "again", "and again", "more"])
    agent = Agent(name="greeter", model=model)
    results = []
    async with runner_for(temporal_env, agent) as runner:
        await runner._ensure_started()  # its worker, before anything else runs
        client = AgentClient(
            temporal_env.client, runner.session_service, task_queue=runner.task_queue
        )
        store = runner.session_service
        assert await store.get_app_root_agent(app_name="test_app") is None
        sessions = (("first", None), ("by-runner", None), ("later", None), ("wrong-hint", "x"))
        for session, expected in sessions:
            if session == "by-runner":
                await turn(runner, "hello", session=session)
                continue
            invocation = await client.start(
                app_name="test_app",
                user_id="u1",
                session_id=session,
                new_message="hello",
                expected_agent=expected,
            )
            await invocation.handle.result()
            if session == "first":  # its begin published the root agent
                assert await store.get_app_root_agent(app_name="test_app") == "greeter"
        for session, _ in sessions:
            handle = temporal_env.client.get_workflow_handle(
                names.invocation_workflow_id("test_app", "u1", session)
            )
            agent_attribute = (await handle.describe()).typed_search_attributes.get(names.SA_AGENT)
            results.append((session, agent_attribute, upserts(await handle.fetch_history())))
    assert results == [
        ("first", "greeter", 1),
        ("by-runner", "greeter", 0),
        ("later", "greeter", 0),
        ("wrong-hint", "greeter", 1),
    ]


async def test_a_store_that_cannot_publish_the_root_agent_costs_only_the_update(temporal_env):
    from adk.sessions import InMemorySessionService

    class NoPublishing(InMemorySessionService):
        async def set_app_root_agent(self, *, app_name: str, agent_name: str) -> None:
            raise OSError("read-only")

    store = NoPublishing()
    agent = Agent(name="greeter", model=MockModel.create(["hi", "again"]))
    async with runner_for(temporal_env, agent, session_service=store) as runner:
        for session in ("p1", "p2"):
            assert [e.author for e in await turn(runner, "hello", session=session)] == [
                "user",
                "greeter",
            ]
    assert await store.get_app_root_agent(app_name="test_app") is None
