"""Workflow graph roots (google.adk.workflow) on Temporal: the recorded history of a
graph invocation replays (tests/histories/record_graph.py records it), and a change to
the commands the scheduler emits does not.

Runs on: process side (tests; Temporal's Replayer, no server needed). What a graph
does is compared with google-adk 2.13 by tests/differential/cases/wf_*.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer

from worker._build import workflow_runner
from workflows import WORKFLOWS
from workflows.converter import data_converter

REPO = Path(__file__).resolve().parents[2]
HISTORY = REPO / "tests" / "histories" / "graph_chain.json"


class LaneError(Exception):
    """A node's own exception (module level: the caller rebuilds it by its class)."""


def graph_history() -> WorkflowHistory:
    """Recorded by tests/histories/record_graph.py (re-record only for intended changes)."""
    workflow_id = HISTORY.with_suffix(".workflow_id").read_text().strip()
    return WorkflowHistory.from_json(workflow_id, HISTORY.read_text(encoding="utf-8"))


async def test_the_committed_graph_history_replays() -> None:
    replayer = Replayer(
        workflows=list(WORKFLOWS), data_converter=data_converter, workflow_runner=workflow_runner()
    )
    result = await replayer.replay_workflow(graph_history(), raise_on_replay_failure=False)
    assert result.replay_failure is None


async def test_a_scheduler_that_runs_nodes_differently_does_not_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check above has teeth: a scheduler that skips a node diverges."""
    from workflows import _graph

    original = _graph.GraphSpec.successors

    def fewer(self: _graph.GraphSpec, name: str) -> list[str]:
        return [] if name == "remember" else original(self, name)

    monkeypatch.setattr(_graph.GraphSpec, "successors", fewer)
    replayer = Replayer(
        workflows=list(WORKFLOWS),
        data_converter=data_converter,
        workflow_runner=workflow_runner("off"),
    )
    result = await replayer.replay_workflow(graph_history(), raise_on_replay_failure=False)
    assert result.replay_failure is not None


async def test_what_a_running_graph_cannot_do_yet_raises_naming_it(temporal_env) -> None:
    """A node yielding a RequestInput (human input, slice S4) and an answer message to a
    graph fail the run with NotImplementedError naming them, not a silent pause; the
    session goes on."""
    from google.genai import types

    from adk.events import RequestInput
    from adk.workflow import START, Workflow

    from .helpers import runner_for, turn

    def ask(node_input: str):
        if node_input == "ask":
            yield RequestInput(interrupt_id="ask1", message="ok?")
        yield node_input

    graph = Workflow(name="wf", edges=[(START, ask)])
    async with runner_for(temporal_env, graph) as runner:
        with pytest.raises(NotImplementedError, match=r"RequestInput from node 'ask'"):
            await turn(runner, "ask")
        answer = types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(
                        id="ask1", name="adk_request_input", response={"result": "yes"}
                    )
                )
            ],
        )
        with pytest.raises(NotImplementedError, match="Answering a workflow graph's request"):
            async for _ in runner.run_async(user_id="u1", session_id="s1", new_message=answer):
                pass
        events = await turn(runner, "fine")
        assert [e.output for e in events if e.author == "wf"] == ["fine"]


async def test_a_failing_branch_cancels_the_other_and_raises(temporal_env) -> None:
    """Fan-out where one lane fails while the other still runs: the failure's error event
    is recorded, the other lane is cancelled (its successor never runs), and the run
    raises the node's exception; the next turn runs."""
    import asyncio

    from adk.workflow import START, Workflow

    from .helpers import runner_for, turn

    def bad(node_input: str) -> str:
        if node_input == "fail":
            raise LaneError("bad lane")
        return "bad ok"

    async def slow(node_input: str) -> str:
        if node_input == "fail":
            await asyncio.sleep(30)
        return "slow ok"

    def after(node_input: str) -> None:
        return None

    graph = Workflow(name="wf", edges=[(START, (bad, slow)), (slow, after)])
    async with runner_for(temporal_env, graph) as runner:
        with pytest.raises(LaneError, match="bad lane"):
            await turn(runner, "fail")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
        assert session is not None
        recorded = [(e.node_info.path, e.error_code) for e in session.events if e.author == "wf"]
        assert recorded == [("wf@1/bad@1", "LaneError")]
        events = await turn(runner, "go")
        assert sorted(e.output for e in events if e.author == "wf" and e.output) == [
            "bad ok",
            "slow ok",
        ]
