"""Child workflows name the agent tree by digest instead of carrying it (issue 16).

Runs on: test process and the shared dev server.
"""

from __future__ import annotations

import json

import pytest

from adk import Agent
from adk.agents import SequentialAgent
from adk.testing import MockModel
from workflows import _specs
from workflows.names import invocation_workflow_id

from .helpers import runner_for, turn


async def test_a_childs_input_names_the_tree_and_the_child_finds_it(temporal_env):
    agents = [
        Agent(name=f"step_{n}", instruction="x" * 400, model=MockModel.create([f"done {n}"]))
        for n in range(3)
    ]
    pipeline = SequentialAgent(name="pipeline", sub_agents=agents)
    async with runner_for(temporal_env, pipeline) as runner:
        events = await turn(runner, "go", session="by-digest")
    assert [e.content.parts[0].text for e in events if e.content][-3:] == [
        "done 0",
        "done 1",
        "done 2",
    ]
    history = await temporal_env.client.get_workflow_handle(
        invocation_workflow_id("test_app", "u1", "by-digest")
    ).fetch_history()
    children = [
        e.child_workflow_execution_started_event_attributes.workflow_execution
        for e in history.events
        if e.HasField("child_workflow_execution_started_event_attributes")
    ]
    assert len(children) == 3
    for child in children:
        child_history = await temporal_env.client.get_workflow_handle(
            child.workflow_id, run_id=child.run_id
        ).fetch_history()
        started = child_history.events[0].workflow_execution_started_event_attributes
        data = json.loads(started.input.payloads[0].data)
        assert data["context"].get("root") is None
        assert data["context"]["root_digest"]
        assert "x" * 400 not in started.input.payloads[0].data.decode()  # no tree inside


def test_a_tree_this_worker_does_not_serve_fails_the_task_saying_why():
    with pytest.raises(RuntimeError, match="not one this worker serves"):
        _specs.recall("0" * 32, "writer")
