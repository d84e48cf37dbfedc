"""Child workflows carry what they need and report what their caller uses (issue 16).

Runs on: test process and the shared dev server.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from adk import Agent
from adk.agents import LoopAgent, ParallelAgent, SequentialAgent
from adk.testing import MockModel
from workflows.contracts import AgentRunInput
from workflows.names import invocation_workflow_id

from .helpers import runner_for, turn


def writer(name: str, replies: int = 1) -> Agent:
    model = MockModel.create([f"{name} says"] * replies)
    return Agent(name=name, model=model, output_key=f"{name}_out")


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
        assert AgentRunInput.model_validate(runs[name][0]).reports_state is False, name
        assert runs[name][0]["shell_step"] is True, name  # (so it is not written)
        assert "reports_state" not in runs[name][0], name
    assert runs["last"][1]["final_text"] == "last says"  # the invocation's answer
    # a child's input names the tree by digest; its workflow id names the session, the
    # invocation and the root (names.agent_run_origin); the rest is at its default
    for name in ("first", "fan", "left", "right", "last"):
        assert list(runs[name][0]["context"]) == ["root_digest"], name
        assert "session" not in runs[name][0], name  # the invocation's own


def pipeline() -> SequentialAgent:
    """Workflow agents at three depths, one of them a ParallelAgent's branch."""
    return SequentialAgent(
        name="pipeline",
        sub_agents=[
            writer("first"),
            ParallelAgent(
                name="fan",
                sub_agents=[
                    writer("left"),
                    SequentialAgent(name="right", sub_agents=[writer("r1"), writer("r2")]),
                ],
            ),
            LoopAgent(name="again", max_iterations=2, sub_agents=[writer("step", replies=2)]),
            writer("last"),
        ],
    )


async def run_tree(env: Any, session: str, **worker: Any) -> tuple[list[Any], dict, list[str]]:
    async with runner_for(env, pipeline(), worker_options=worker) as runner:
        events = await turn(runner, "Go.", session=session)
        stored = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id=session
        )
    assert stored is not None
    said = [
        (e.author, e.branch, e.node_info.path, e.content and e.content.parts[0].text)
        for e in events
    ]
    root_id = invocation_workflow_id("test_app", "u1", session)
    ids = [sent["agent_name"] for sent, _ in (await children(env, root_id)).values()]
    return said, stored.state, sorted(ids)


def by_branch(said: list[Any]) -> dict[str | None, list[Any]]:
    grouped: dict[str | None, list[Any]] = {}
    for entry in said:
        grouped.setdefault(entry[1], []).append(entry)
    return grouped


async def test_workflow_agents_inline_give_the_same_session_with_fewer_workflows(temporal_env):
    said, state, ids = await run_tree(temporal_env, "children")
    said_inline, state_inline, ids_inline = await run_tree(
        temporal_env, "inline", inline_workflow_agents=True
    )
    # the same events, each branch's in its order (the branches of a ParallelAgent
    # interleave by timing, in google-adk as here)
    assert by_branch(said_inline) == by_branch(said)
    assert state_inline == state
    assert len(said) == 8  # user, first, left, r1, r2, step twice, last
    assert ids == ["again", "fan", "first", "last", "left", "r1", "r2", "right", "step"]
    # fan and again run in the invocation's workflow; right, a branch of fan, keeps its own
    assert ids_inline == ["first", "last", "left", "r1", "r2", "right", "step"]


def test_the_inline_switch_reads_yes_or_no_and_refuses_anything_else(monkeypatch):
    from worker._build import INLINE_ENV, env_flag

    for value, expected in (("", False), ("0", False), ("off", False), ("1", True), ("Yes", True)):
        monkeypatch.setenv(INLINE_ENV, value)
        assert env_flag(INLINE_ENV) is expected
    monkeypatch.setenv(INLINE_ENV, "sometimes")
    with pytest.raises(ValueError, match="DURABLE_ADK_INLINE_WORKFLOW_AGENTS must be 1 or 0"):
        env_flag(INLINE_ENV)
