"""State written by a step's calls, and end_invocation, as in google-adk 2.13.

The expected values are what google-adk 2.13 produces for the same agents
(observed by running them on it): its calls of one step share the session state,
so each call sees what the calls before it wrote; a write into a container read
from state is recorded; end_invocation ends the agent that set it, only.
"""

from __future__ import annotations

from google.genai import types

from adk import Agent, ParallelAgent, SequentialAgent
from adk.testing import MockModel
from adk.tools import ToolContext

from .helpers import call, runner_for, simplify, turn


def append_copy(x: int, tool_context: ToolContext) -> dict:
    """Appends x to a copy of the list and stores it."""
    items = tool_context.state.get("items", [])
    tool_context.state["items"] = items + [x]
    return {"ok": x}


def append_in_place(x: int, tool_context: ToolContext) -> dict:
    """Appends x into the stored list itself (no assignment)."""
    tool_context.state["items"].append(x)
    return {"ok": x}


async def count(x: int, tool_context: ToolContext) -> dict:
    """Counts its calls (an async tool: read and write with no await between)."""
    tool_context.state["n"] = tool_context.state.get("n", 0) + 1
    return {"ok": x}


def plain(x: int) -> dict:
    """Touches no state."""
    return {"plain": x}


async def state_after(runner, **kw) -> tuple[list, dict]:
    events = await turn(runner, "go", **kw)
    session = await runner.session_service.get_session(
        app_name="test_app", user_id="u1", session_id="s1"
    )
    assert session is not None
    return events, session.state


async def test_four_parallel_appends_keep_every_entry(temporal_env):
    model = MockModel.create([[call("append_copy", x=i) for i in range(1, 5)], "done"])
    agent = Agent(name="a", model=model, tools=[append_copy])
    async with runner_for(temporal_env, agent) as runner:
        events, state = await state_after(runner)
    assert state["items"] == [1, 2, 3, 4]  # 2.13; the last writer alone would leave [4]
    assert events[2].actions.state_delta == {"items": [1, 2, 3, 4]}


async def test_writes_into_a_list_read_from_state_are_recorded(temporal_env):
    model = MockModel.create(
        [
            [call("append_in_place", x=i) for i in range(1, 5)],
            "done",
            call("append_in_place", x=7),
            "ok",
        ]
    )
    agent = Agent(name="a", model=model, tools=[append_in_place])
    async with runner_for(temporal_env, agent) as runner:
        events, state = await state_after(runner, state_delta={"items": [0]})
        assert state["items"] == [0, 1, 2, 3, 4]
        assert events[2].actions.state_delta == {"items": [0, 1, 2, 3, 4]}
        second = await turn(runner, "again")  # one call alone: recorded too
    assert second[2].actions.state_delta == {"items": [0, 1, 2, 3, 4, 7]}


async def test_parallel_async_calls_see_each_others_writes_and_plain_ones_run_too(temporal_env):
    calls = [call("count", x=i) for i in range(1, 4)] + [call("plain", x=9)]
    model = MockModel.create([calls, "done"])
    agent = Agent(name="a", model=model, tools=[count, plain])
    async with runner_for(temporal_env, agent) as runner:
        events, state = await state_after(runner)
    assert state["n"] == 3
    assert [r.response for r in events[2].get_function_responses()] == [
        {"ok": 1},
        {"ok": 2},
        {"ok": 3},
        {"plain": 9},
    ]


def say(text: str) -> types.Content:
    return types.Content(role="model", parts=[types.Part(text=text)])


async def test_a_gated_parallel_branch_ends_only_itself(temporal_env):
    def gate(callback_context):
        return say("skipped")

    b1_model = MockModel.create(["never"])
    b1 = Agent(name="b1", model=b1_model, before_agent_callback=gate)
    b2 = Agent(name="b2", model=MockModel.create(["b2 says"]))
    after = Agent(name="after", model=MockModel.create(["after says"]))
    root = SequentialAgent(
        name="seq", sub_agents=[ParallelAgent(name="p", sub_agents=[b1, b2]), after]
    )
    async with runner_for(temporal_env, root) as runner:
        events = await turn(runner, "go")
    said = simplify(events)
    assert sorted(said[1:3]) == [("b1", "skipped"), ("b2", "b2 says")]
    assert said[3:] == [("after", "after says")]  # 2.13: the sequential goes on
    assert b1_model.requests == []


def finish(tool_context: ToolContext) -> dict:
    """Ends the invocation (as ADK tools do, through the invocation context)."""
    tool_context._invocation_context.end_invocation = True
    return {"ok": 1}


async def test_end_invocation_set_by_a_tool_ends_its_agent_after_the_step(temporal_env):
    after_a1: list[str] = []
    a1_model = MockModel.create([call("finish"), "never"])
    a1 = Agent(
        name="a1",
        model=a1_model,
        tools=[finish],
        after_agent_callback=lambda callback_context: after_a1.append("ran"),
    )
    nxt = Agent(name="nxt", model=MockModel.create(["next says"]))
    root = SequentialAgent(name="seq", sub_agents=[a1, nxt])
    async with runner_for(temporal_env, root) as runner:
        events = await turn(runner, "go")
    assert simplify(events)[1:] == [
        ("a1", ("call", "finish", {})),
        ("a1", ("response", "finish", {"ok": 1})),
        ("nxt", "next says"),
    ]
    assert len(a1_model.requests) == 1  # 2.13: no model call after the tool set it
    assert after_a1 == []  # nor its after_agent_callback


async def test_end_invocation_set_by_a_model_callback_ends_the_agent_after_that_step(temporal_env):
    def before_model(callback_context, llm_request):
        callback_context._invocation_context.end_invocation = True

    a1 = Agent(
        name="a1",
        model=MockModel.create([call("plain", x=1), "never"]),
        tools=[plain],
        before_model_callback=before_model,
    )
    async with runner_for(temporal_env, a1) as runner:
        events = await turn(runner, "go")
    # 2.13: the model call of that step happens, its call runs, then the agent stops
    assert simplify(events)[1:] == [
        ("a1", ("call", "plain", {"x": 1})),
        ("a1", ("response", "plain", {"plain": 1})),
    ]
