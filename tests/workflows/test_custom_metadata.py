"""RunConfig.custom_metadata on a real local Temporal, every workflow task replayed as
often as is stable: events stamped, `ctx.custom_metadata` writes carried through child
workflows (a transfer, a ParallelAgent's branches, a LoopAgent's iterations), and a
value the workflow cannot carry named.
"""

from __future__ import annotations

from typing import Any

import pytest

from adk import Agent
from adk.agents import LoopAgent, ParallelAgent, SequentialAgent
from adk.agents.callback_context import CallbackContext
from adk.agents.run_config import RunConfig
from adk.testing import MockModel
from adk.tools import ToolContext
from client import InvocationFailedError

from .helpers import call, runner_for, turn, user_text

RUN = RunConfig(custom_metadata={"tenant": "acme", "__adk_internal_forged": 1})


def mark(tool_context: ToolContext) -> dict:
    """Marks the request."""
    tool_context.custom_metadata["marked"] = 1
    return {"ok": True}


def branch_write(callback_context: CallbackContext) -> None:
    metadata = callback_context.custom_metadata
    metadata[callback_context.agent_name] = metadata["marked"]


def count_loops(callback_context: CallbackContext) -> None:
    metadata = callback_context.custom_metadata
    metadata["loops"] = metadata.get("loops", 0) + 1


def snapshot(callback_context: CallbackContext) -> None:
    callback_context.state["seen"] = dict(callback_context.custom_metadata)


def _tree() -> Agent:
    def leaf(name: str, replies: list[Any], **callbacks: Any) -> Agent:
        return Agent(name=name, model=MockModel.create(replies), **callbacks)

    fan = ParallelAgent(
        name="fan",
        sub_agents=[
            leaf("left", ["l"], before_agent_callback=branch_write),
            leaf("right", ["r"], before_agent_callback=branch_write),
        ],
    )
    loop = LoopAgent(
        name="loop",
        max_iterations=2,
        sub_agents=[leaf("counter", ["c1", "c2"], before_agent_callback=count_loops)],
    )
    pipeline = SequentialAgent(
        name="pipeline", sub_agents=[fan, loop], after_agent_callback=snapshot
    )
    return Agent(
        name="root",
        model=MockModel.create([call("mark"), call("transfer_to_agent", agent_name="pipeline")]),
        tools=[mark],
        sub_agents=[pipeline],
    )


@pytest.mark.parametrize("inline", [False, True], ids=["children", "inline"])
async def test_writes_reach_later_steps_and_events_keep_the_run_configs(temporal_env, inline):
    worker = {"inline_workflow_agents": True} if inline else {}
    session_id = f"s-{inline}"
    async with runner_for(temporal_env, _tree(), worker_options=worker) as runner:
        events = await turn(runner, "go", session=session_id, run_config=RUN)
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id=session_id
        )
    assert session is not None
    assert session.state["seen"] == {
        "tenant": "acme",
        "marked": 1,
        "left": 1,
        "right": 1,
        "loops": 2,
    }
    assert len(events) > 8 and all(e.custom_metadata == {"tenant": "acme"} for e in events)


def keep_client(tool_context: ToolContext) -> dict:
    """Keeps a client for later."""
    tool_context.custom_metadata["client"] = object()
    return {"ok": True}


async def test_a_value_the_workflow_cannot_carry_is_named(temporal_env):
    agent = Agent(
        name="a", model=MockModel.create([call("keep_client"), "never"]), tools=[keep_client]
    )
    async with runner_for(temporal_env, agent) as runner:
        with pytest.raises(InvocationFailedError) as info:
            async for _ in runner.run_async(
                user_id="u1", session_id="s1", new_message=user_text("go"), run_config=RUN
            ):
                pass
    assert str(info.value).startswith(
        "TypeError: ctx.custom_metadata holds a value that is not JSON-serializable"
    )
