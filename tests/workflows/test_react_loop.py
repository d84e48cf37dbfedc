"""The durable ReAct loop on a real local Temporal (every workflow task replays)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from temporalio.api.enums.v1 import EventType

from adk import Agent
from adk.agents.run_config import RunConfig
from adk.testing import MockModel
from adk.tools import ToolContext
from adk.utils.instructions_utils import inject_session_state
from workflows import names

from .helpers import call, runner_for, simplify, turn


def get_weather(city: str, tool_context: ToolContext) -> dict:
    """Returns the weather in a city."""
    tool_context.state["last_city"] = city
    tool_context.state["user:count"] = tool_context.state.get("user:count", 0) + 1
    tool_context.state["temp:scratch"] = "never persisted"
    return {"city": city, "temp_c": 18}


async def test_tool_call_then_final_answer(temporal_env):
    model = MockModel.create([call("get_weather", city="Paris"), "It is 18°C in Paris."])
    agent = Agent(name="weather", model=model, tools=[get_weather], output_key="answer")
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "Weather in Paris?")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert simplify(events) == [
        ("user", "Weather in Paris?"),
        ("weather", ("call", "get_weather", {"city": "Paris"})),
        ("weather", ("response", "get_weather", {"city": "Paris", "temp_c": 18})),
        ("weather", "It is 18°C in Paris."),
    ]
    assert events[-1].is_final_response()
    assert session is not None
    assert session.state == {
        "last_city": "Paris",
        "user:count": 1,
        "answer": "It is 18°C in Paris.",
    }
    assert [e.id for e in session.events] == [e.id for e in events]


async def test_function_call_ids_generated_and_stripped(temporal_env):
    model = MockModel.create([call("get_weather", city="Rome"), "done"])
    agent = Agent(name="weather", model=model, tools=[get_weather])
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "Rome?")
    call_id = events[1].get_function_calls()[0].id
    assert call_id and call_id.startswith("adk-")
    assert events[2].get_function_responses()[0].id == call_id
    second_request = model.requests[1]
    sent = [p for c in second_request.contents for p in c.parts or []]
    assert [p.function_call.id for p in sent if p.function_call] == [None]
    assert [p.function_response.id for p in sent if p.function_response] == [None]


async def test_multi_turn_keeps_history_and_scoped_state(temporal_env):
    model = MockModel.create(
        [
            call("get_weather", city="Paris"),
            "18 in Paris",
            call("get_weather", city="Oslo"),
            "Oslo too",
        ]
    )
    agent = Agent(
        name="weather",
        model=model,
        tools=[get_weather],
        instruction="Help {user:name}. Last city: {last_city?}. Scratch: {temp:scratch?}",
    )
    async with runner_for(temporal_env, agent) as runner:
        await turn(runner, "Paris?", state_delta={"user:name": "Ada"})
        await turn(runner, "Oslo?")
        other = await runner.session_service.create_session(app_name="test_app", user_id="u1")
    instruction = model.requests[2].config.system_instruction
    assert instruction.startswith("Help Ada. Last city: Paris. Scratch: \n\n")
    # the third call still sees the temp: value written earlier in the same invocation
    assert "Scratch: never persisted" in model.requests[3].config.system_instruction
    texts = [p.text for c in model.requests[2].contents for p in c.parts or [] if p.text]
    assert texts == ["Paris?", "18 in Paris", "Oslo?"]
    assert other.state == {"user:name": "Ada", "user:count": 2}


async def test_parallel_calls_run_concurrently_and_merge_in_call_order(temporal_env):
    started: dict[str, asyncio.Event] = {"a": asyncio.Event(), "b": asyncio.Event()}

    async def wait_for(name: str, other: str) -> dict:
        """Waits until the other call has started too (deadlocks if run one by one)."""
        started[name].set()
        await asyncio.wait_for(started[other].wait(), timeout=10)
        return {"name": name}

    model = MockModel.create(
        [
            [call("wait_for", name="b", other="a"), call("wait_for", name="a", other="b")],
            "both done",
        ]
    )
    agent = Agent(name="par", model=model, tools=[wait_for])
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "go")
    responses = events[2].get_function_responses()
    assert [r.response for r in responses] == [{"name": "b"}, {"name": "a"}]
    assert len(events) == 4


async def test_max_llm_calls_stops_a_runaway_loop(temporal_env):
    from adk.agents.invocation_context import LlmCallsLimitExceededError

    model = MockModel.create([call("get_weather", city="X")] * 5)
    agent = Agent(name="loop", model=model, tools=[get_weather])
    async with runner_for(temporal_env, agent) as runner:
        try:
            await turn(runner, "go", run_config=RunConfig(max_llm_calls=2))
        except LlmCallsLimitExceededError as error:
            message = str(error)
        else:
            raise AssertionError("expected the invocation to fail")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert "Max number of llm calls limit of `2` exceeded" in message
    assert session is not None
    # nothing recorded is lost: user, 2 calls and 2 responses, then ADK's error event
    assert len(session.events) == 6
    assert session.events[-1].error_code == "LlmCallsLimitExceededError"


async def test_tools_see_the_current_turn(temporal_env):
    def echo_turn(tool_context: ToolContext) -> dict:
        """Reports what the user said this turn."""
        content = tool_context.user_content
        said = content.parts[0].text if content and content.parts else None
        return {"said": said, "events": len(tool_context.session.events)}

    model = MockModel.create([call("echo_turn"), "ok", call("echo_turn"), "ok"])
    agent = Agent(name="a", model=model, tools=[echo_turn])
    async with runner_for(temporal_env, agent) as runner:
        await turn(runner, "first")
        events = await turn(runner, "second")
    # this turn's message, and the whole session's events, as in google-adk 2.13
    # (the first turn's 4, this turn's user message and call)
    assert events[2].get_function_responses()[0].response == {"said": "second", "events": 6}


def fetch(key: str) -> dict:
    """Returns a document with a recognisable body."""
    return {"key": key, "body": f"BODY-OF-{key}"}


async def test_each_event_is_persisted_by_the_activity_that_already_runs(temporal_env):
    """No bookkeeping round trips in the loop: begin is the only local activity.

    A lone call's response is recorded by its tool activity (it enters history
    once, as that activity's result); a parallel merge is handed to the next
    model step, which persists it first (twice at most: bounded).
    """
    model = MockModel.create(
        [call("fetch", key="solo"), [call("fetch", key="p1"), call("fetch", key="p2")], "done"]
    )
    agent = Agent(name="a", model=model, tools=[fetch])
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "go")
        handle = temporal_env.client.get_workflow_handle(
            names.invocation_workflow_id("test_app", "u1", "s1")
        )
        history = await handle.fetch_history()
    assert [s for s in simplify(events) if s[1][0] == "response"] == [
        ("a", ("response", "fetch", {"key": "solo", "body": "BODY-OF-solo"})),
        ("a", ("response", "fetch", {"key": "p1", "body": "BODY-OF-p1"})),
        ("a", ("response", "fetch", {"key": "p2", "body": "BODY-OF-p2"})),
    ]
    assert len(events) == 6  # user, call, response, 2 calls, merged responses, answer
    markers = [
        e.marker_recorded_event_attributes.marker_name
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_MARKER_RECORDED
    ]
    # the changes this run takes (workflows/_patches.py), then begin's local activity
    assert markers == ["core_patch", "core_local_activity"]
    raw = b"".join(e.SerializeToString() for e in history.events)
    assert raw.count(b"BODY-OF-solo") == 1
    assert raw.count(b"BODY-OF-p1") == raw.count(b"BODY-OF-p2") == 2
    # every event was in the store before the model step that read it
    assert [len(r.contents) for r in model.requests] == [1, 3, 5]


async def test_a_failed_model_step_still_leaves_the_merged_responses_recorded(temporal_env):
    from adk.testing.mock_model import ScriptExhaustedError

    model = MockModel.create([[call("fetch", key="p1"), call("fetch", key="p2")]])
    agent = Agent(name="a", model=model, tools=[fetch])
    async with runner_for(temporal_env, agent) as runner:
        with pytest.raises(ScriptExhaustedError, match="scripted replies"):
            await turn(runner, "go")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert session is not None
    assert simplify(session.events)[3:] == [
        ("a", ("response", "fetch", {"key": "p1", "body": "BODY-OF-p1"})),
        ("a", ("response", "fetch", {"key": "p2", "body": "BODY-OF-p2"})),
    ]


async def test_a_tool_longer_than_its_heartbeat_timeout_keeps_beating_and_runs_once(temporal_env):
    from datetime import timedelta

    from adk.activity_options import ActivityOptions

    runs: list[int] = []

    async def slow(n: int) -> dict:
        """Takes longer than its heartbeat timeout."""
        runs.append(n)
        await asyncio.sleep(1.5)
        return {"n": n}

    model = MockModel.create([call("slow", n=1), "done"])
    agent = Agent(
        name="a",
        model=model,
        tools=[slow],
        tool_activity_options=ActivityOptions(heartbeat_timeout=timedelta(milliseconds=600)),
    )
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "go")
    assert [s for s in simplify(events) if s[1][0] == "response"] == [
        ("a", ("response", "slow", {"n": 1}))
    ]
    assert runs == [1]  # no heartbeat timeout, so no retry


async def test_none_state_values_are_kept_and_render_empty(temporal_env):
    def clear(tool_context: ToolContext) -> dict:
        """Sets state values to None."""
        tool_context.state["temp:scratch"] = None
        tool_context.state["note"] = None
        return {}

    def instruction(ctx: Any) -> str:
        has = "temp:scratch" in ctx.state
        return f"has scratch: {has}. " + ("Note: [{note}]" if has else "")

    async def templated(ctx: Any) -> str:
        return await inject_session_state(instruction(ctx), ctx)

    model = MockModel.create([call("clear"), "cleared"])
    agent = Agent(name="clearer", model=model, tools=[clear], instruction=templated)
    async with runner_for(temporal_env, agent) as runner:
        await turn(runner, "go", state_delta={"note": "n"})
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    # google-adk 2.13: a None value is kept (no 'Context variable not found') and renders empty
    assert model.requests[0].config.system_instruction.startswith("has scratch: False.")
    assert model.requests[1].config.system_instruction.startswith("has scratch: True. Note: []")
    assert session is not None and session.state == {"note": None}
