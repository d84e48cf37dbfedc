"""Child workflows carry what they need and report what their caller uses (issue 16).

Runs on: test process and the shared dev server.
"""

from __future__ import annotations

import json
from typing import Any

from adk import Agent
from adk.agents import ParallelAgent, SequentialAgent
from adk.testing import MockModel
from workflows.names import invocation_workflow_id

from .helpers import runner_for, turn


def writer(name: str) -> Agent:
    return Agent(name=name, model=MockModel.create([f"{name} says"]), output_key=f"{name}_out")


async def children(env: Any, workflow_id: str, run_id: str | None = None) -> dict[str, Any]:
    """agent name -> (input, result) of every child workflow under `workflow_id`."""
    found: dict[str, Any] = {}
    history = await env.client.get_workflow_handle(workflow_id, run_id=run_id).fetch_history()
    for event in history.events:
        if event.HasField("child_workflow_execution_completed_event_attributes"):
            done = event.child_workflow_execution_completed_event_attributes
            child = done.workflow_execution
            child_history = await env.client.get_workflow_handle(
                child.workflow_id, run_id=child.run_id
            ).fetch_history()
            started = child_history.events[0].workflow_execution_started_event_attributes
            sent = json.loads(started.input.payloads[0].data)
            result = json.loads(done.result.payloads[0].data)
            found[sent["agent_name"]] = (sent, result)
            found.update(await children(env, child.workflow_id, child.run_id))
    return found


async def test_results_carry_state_only_where_a_parallel_agent_uses_it(temporal_env):
    pipeline = SequentialAgent(
        name="pipeline",
        sub_agents=[
            writer("first"),
            ParallelAgent(name="fan", sub_agents=[writer("left"), writer("right")]),
            writer("last"),
        ],
    )
    async with runner_for(temporal_env, pipeline) as runner:
        await turn(runner, "Tell me everything about home batteries.", session="cheap")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="cheap"
        )
    assert session is not None
    assert session.state == {  # the state is whole: it lives in the session store
        "first_out": "first says",
        "left_out": "left says",
        "right_out": "right says",
        "last_out": "last says",
    }
    runs = await children(temporal_env, invocation_workflow_id("test_app", "u1", "cheap"))
    assert sorted(runs) == ["fan", "first", "last", "left", "right"]
    # the branches of the ParallelAgent report their writes (it looks for conflicts) ...
    assert runs["left"][1]["state_delta"] == {"left_out": "left says"}
    assert runs["right"][1]["state_delta"] == {"right_out": "right says"}
    # ... nothing else does: the state is in the session store and the events
    for name in ("first", "fan", "last"):
        assert "state_delta" not in runs[name][1], name
        assert runs[name][0].get("reports_state") is False, name
    assert runs["last"][1]["final_text"] == "last says"  # the invocation's answer
    # the user's message goes only to the runs that start children of their own
    assert runs["fan"][0]["context"]["asked"] == "Tell me everything about home batteries."
    for name in ("first", "left", "right", "last"):
        assert "asked" not in runs[name][0]["context"], name
        assert "run_config" not in runs[name][0]["context"], name  # the default
        assert "session" not in runs[name][0], name  # the invocation's own
