"""Runner.rewind_async against a session whose invocation is a live workflow.

Runs on: process side, on the shared local Temporal. google-adk 2.13's invocation
lives in the caller's loop; ours is a workflow that may still be there. One that
only waits for answers (where 2.13's run has ended: its own, a step's or a transfer
target's) ends first, as for a new message; one whose stream was dropped is waited
for, as run_async does; one that runs is refused (SessionBusyError) rather than
rewound under a workflow that goes on writing.
The rewind itself is compared with google-adk 2.13 in the differential scenario
tests/differential/scenarios/rewind.py.
"""

from __future__ import annotations

import asyncio

import pytest
from temporalio.client import WorkflowExecutionStatus

from adk import Agent
from adk.agents import SequentialAgent
from adk.errors import InvocationNotFoundError
from adk.testing import MockModel
from adk.tools import FunctionTool, ToolContext
from client import SessionBusyError

from .helpers import call, runner_for, turn, user_text

WHERE = {"app_name": "test_app", "user_id": "u1"}


async def _events(runner, session):  # type: ignore[no-untyped-def]
    stored = await runner.session_service.get_session(**WHERE, session_id=session)
    return stored.events


async def test_an_invocation_waiting_for_an_answer_ends_then_is_rewound(temporal_env):
    """Where google-adk 2.13's run has ended (a confirmation pending), the waiting
    workflow ends first, as for a new message, and the rewind goes on."""

    def double(x: int, tool_context: ToolContext) -> int:
        """Doubles x."""
        return 2 * x

    agent = Agent(
        name="checker",
        model=MockModel.create(["hi", call("double", x=5)]),
        tools=[FunctionTool(double, require_confirmation=True)],
    )
    async with runner_for(temporal_env, agent) as runner:
        await turn(runner, "hello", session="w1", state_delta={"mood": "calm"})
        paused = await turn(runner, "double 5", session="w1", state_delta={"mood": "busy"})
        handle = temporal_env.client.get_workflow_handle("adk:test_app:u1:w1")
        assert (await handle.describe()).status == WorkflowExecutionStatus.RUNNING  # waits
        await runner.rewind_async(
            user_id="u1", session_id="w1", rewind_before_invocation_id=paused[0].invocation_id
        )
        assert (await handle.describe()).status == WorkflowExecutionStatus.COMPLETED
        session = await runner.session_service.get_session(**WHERE, session_id="w1")
    rewind = session.events[-1]
    assert (rewind.author, rewind.actions.rewind_before_invocation_id) == (
        "user",
        paused[0].invocation_id,
    )
    assert rewind.actions.state_delta == {"mood": "calm"}
    assert session.state["mood"] == "calm"


async def test_an_invocation_whose_step_or_transfer_target_waits_ends_then_is_rewound(
    temporal_env,
):
    """A Sequential step's call, or a transfer target's, ends google-adk 2.13's run as
    the root's own does: the waiting workflow ends first, then the rewind goes on."""

    def double(x: int) -> int:
        """Doubles x."""
        return 2 * x

    step = Agent(
        name="step",
        model=MockModel.create([call("double", x=5), "10"]),
        tools=[FunctionTool(double, require_confirmation=True)],
    )
    target = Agent(
        name="target",
        description="Doubles.",
        model=MockModel.create([call("double", x=6), "12"]),
        tools=[FunctionTool(double, require_confirmation=True)],
    )
    router = Agent(
        name="router",
        model=MockModel.create([call("transfer_to_agent", agent_name="target")]),
        sub_agents=[target],
    )
    for root, session in (
        (SequentialAgent(name="pipeline", sub_agents=[step]), "w4"),
        (router, "w5"),
    ):
        async with runner_for(temporal_env, root) as runner:
            paused = await turn(runner, "double it", session=session)
            handle = temporal_env.client.get_workflow_handle(f"adk:test_app:u1:{session}")
            assert (await handle.describe()).status == WorkflowExecutionStatus.RUNNING  # waits
            await runner.rewind_async(
                user_id="u1",
                session_id=session,
                rewind_before_invocation_id=paused[0].invocation_id,
            )
            assert (await handle.describe()).status == WorkflowExecutionStatus.COMPLETED
            events = await _events(runner, session)
        assert events[-1].actions.rewind_before_invocation_id == paused[0].invocation_id


async def test_a_running_invocation_is_not_rewound(temporal_env):
    started, release = asyncio.Event(), asyncio.Event()

    async def slow(tool_context: ToolContext) -> str:
        """Works slowly."""
        started.set()
        await release.wait()
        return "done"

    agent = Agent(name="worker", model=MockModel.create([call("slow"), "finished"]), tools=[slow])
    async with runner_for(temporal_env, agent) as runner:
        first = asyncio.ensure_future(turn(runner, "go", session="w2"))
        try:
            await asyncio.wait_for(started.wait(), 20)
            events = await _events(runner, "w2")
            with pytest.raises(SessionBusyError, match="an invocation running"):
                await runner.rewind_async(
                    user_id="u1",
                    session_id="w2",
                    rewind_before_invocation_id=events[0].invocation_id,
                )
        finally:
            release.set()
        done = await asyncio.wait_for(first, 30)
        assert [e.author for e in done][-1] == "worker"
        with pytest.raises(InvocationNotFoundError, match="Invocation ID not found: e-x"):
            await runner.rewind_async(
                user_id="u1", session_id="w2", rewind_before_invocation_id="e-x"
            )


async def test_a_rewind_after_breaking_at_the_final_response_waits_for_the_end(temporal_env):
    """The invocation whose stream was dropped finishes first (its after_agent_callback's
    state write is then undone too), as the Runner's next message would wait for it."""

    async def after_agent(callback_context):  # type: ignore[no-untyped-def]
        await asyncio.sleep(1.0)
        callback_context.state["after"] = "written"

    agent = Agent(name="chatty", model=MockModel.create(["one"]), after_agent_callback=after_agent)
    async with runner_for(temporal_env, agent) as runner:
        async for event in runner.run_async(
            user_id="u1", session_id="w3", new_message=user_text("hi")
        ):
            if event.is_final_response():
                invocation = event.invocation_id
                break
        await runner.rewind_async(
            user_id="u1", session_id="w3", rewind_before_invocation_id=invocation
        )
        session = await runner.session_service.get_session(**WHERE, session_id="w3")
    assert [e.author for e in session.events] == ["user", "chatty", "chatty", "user"]
    assert session.state == {"after": None}
