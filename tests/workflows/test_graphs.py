"""Workflow graph roots (google.adk.workflow) on Temporal: the recorded history of a
graph invocation replays (tests/histories/record_graph.py records it), and a change to
the commands the scheduler emits does not.

Runs on: process side (tests; Temporal's Replayer, no server needed). What a graph
does is compared with google-adk 2.13 by tests/differential/cases/wf_*.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer

from adk.agents import Context
from worker._build import workflow_runner
from workflows import WORKFLOWS
from workflows.converter import data_converter

REPO = Path(__file__).resolve().parents[2]
HISTORY = REPO / "tests" / "histories" / "graph_chain.json"
ROUTES_HISTORY = REPO / "tests" / "histories" / "graph_routes.json"
RETRIES_HISTORY = REPO / "tests" / "histories" / "graph_retries.json"


class LaneError(Exception):
    """A node's own exception (module level: the caller rebuilds it by its class)."""


def graph_history(path: Path = HISTORY) -> WorkflowHistory:
    """Recorded by tests/histories/record_graph.py (re-record only for intended changes)."""
    workflow_id = path.with_suffix(".workflow_id").read_text().strip()
    return WorkflowHistory.from_json(workflow_id, path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "path", [HISTORY, ROUTES_HISTORY, RETRIES_HISTORY], ids=["chain", "routes", "retries"]
)
async def test_the_committed_graph_histories_replay(path: Path) -> None:
    """graph_chain (S1: a chain, a fan-out), graph_routes (S2-S3: a routed loop, a
    join, wait_for_output, max_concurrency, a resumable app's checkpoints) and
    graph_retries (S5: retries with jitter, a timeout retried, a nested Workflow)."""
    replayer = Replayer(
        workflows=list(WORKFLOWS), data_converter=data_converter, workflow_runner=workflow_runner()
    )
    result = await replayer.replay_workflow(graph_history(path), raise_on_replay_failure=False)
    assert result.replay_failure is None


async def test_a_scheduler_that_runs_nodes_differently_does_not_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check above has teeth: a scheduler that skips a node diverges."""
    from workflows import _graph

    original = _graph.GraphSpec.next_nodes

    def fewer(self: _graph.GraphSpec, name: str, route: Any) -> list[str]:
        return [] if name == "remember" else original(self, name, route)

    monkeypatch.setattr(_graph.GraphSpec, "next_nodes", fewer)
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


async def test_a_routed_loop_with_a_join_runs_and_its_history_replays(temporal_env) -> None:
    """A cycle taken by a route (six passes of `count`, each `count@N`), then a fan-out
    to a JoinNode under max_concurrency=1, and a wait_for_output node: every workflow
    task replays while it runs (no cache), its whole history replays afterwards, and a
    scheduler that routes differently does not replay it."""
    from adk.workflow import START, JoinNode, Workflow, node
    from workflows import _graph, names

    from .helpers import runner_for, turn

    def count(ctx: Context, node_input: str) -> str:
        ctx.state["n"] = ctx.state.get("n", 0) + 1
        ctx.route = "again" if ctx.state["n"] < 6 else "done"
        return node_input

    def bump(node_input: str) -> str:
        return node_input + "+"

    def left(node_input: str) -> str:
        return "L" + node_input

    def right(node_input: str) -> str:
        return "R" + node_input

    def finish(ctx: Context, node_input: dict) -> str | None:
        ctx.state["seen"] = ctx.state.get("seen", 0) + 1
        return f"{node_input['left']}|{node_input['right']}"

    graph = Workflow(
        name="wf",
        edges=[
            (START, count),
            (count, {"again": bump, "done": (left, right)}),
            (bump, count),
            (
                (left, right),
                JoinNode(name="join"),
                node(finish).model_copy(update={"wait_for_output": True}),
            ),
        ],
        max_concurrency=1,
    )
    async with runner_for(temporal_env, graph) as runner:
        events = await turn(runner, "x")
    paths = [e.node_info.path for e in events if e.author == "wf" and e.output is not None]
    assert paths == [
        *(p for n in range(1, 6) for p in (f"wf@1/count@{n}", f"wf@1/bump@{n}")),
        "wf@1/count@6",
        "wf@1/left@1",
        "wf@1/right@1",
        "wf@1/join@1",
        "wf@1/finish@1",
    ]
    assert events[-1].output == "Lx+++++|Rx+++++"
    assert events[-1].node_info.output_for == ["wf@1/finish@1", "wf@1"]
    handle = temporal_env.client.get_workflow_handle(
        names.invocation_workflow_id("test_app", "u1", "s1")
    )
    history = await handle.fetch_history()
    replayer = Replayer(
        workflows=list(WORKFLOWS), data_converter=data_converter, workflow_runner=workflow_runner()
    )
    result = await replayer.replay_workflow(history, raise_on_replay_failure=False)
    assert result.replay_failure is None

    original = _graph.GraphSpec.next_nodes

    def no_loop(self: _graph.GraphSpec, name: str, route: Any) -> list[str]:
        return original(self, name, "done" if name == "count" else route)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_graph.GraphSpec, "next_nodes", no_loop)
        diverged = await Replayer(
            workflows=list(WORKFLOWS),
            data_converter=data_converter,
            workflow_runner=workflow_runner("off"),
        ).replay_workflow(history, raise_on_replay_failure=False)
    assert diverged.replay_failure is not None


async def test_a_resumable_graph_records_checkpoints_and_its_history_replays(
    temporal_env,
) -> None:
    """A resumable app: a checkpoint before and after each node run (a loop's passes
    included) and an end-of-agent event last, stored in that order; the history
    replays."""
    from adk.workflow import START, Workflow
    from workflows import names

    from .helpers import runner_for, turn

    def step(ctx: Context, node_input: str) -> str:
        ctx.state["n"] = ctx.state.get("n", 0) + 1
        ctx.route = "again" if ctx.state["n"] < 3 else "out"
        return node_input

    def out(node_input: str) -> str:
        return f"out {node_input}"

    graph = Workflow(name="wf", edges=[(START, step), (step, {"again": step, "out": out})])
    async with runner_for(temporal_env, graph, resumable=True) as runner:
        events = await turn(runner, "x")
    shown = [
        (
            e.node_info.path if e.output is not None else None,
            {n: s["status"] for n, s in e.actions.agent_state["nodes"].items()}
            if e.actions.agent_state
            else None,
            e.actions.end_of_agent or None,
        )
        for e in events
        if e.author == "wf"
        and (e.output is not None or e.actions.agent_state or e.actions.end_of_agent)
    ]
    assert shown == [
        (None, {"step": 2}, None),
        ("wf@1/step@1", None, None),
        (None, {"step": 3}, None),
        (None, {"step": 2}, None),
        ("wf@1/step@2", None, None),
        (None, {"step": 3}, None),
        (None, {"step": 2}, None),
        ("wf@1/step@3", None, None),
        (None, {"step": 3}, None),
        (None, {"step": 3, "out": 2}, None),
        ("wf@1/out@1", None, None),
        (None, {"step": 3, "out": 3}, None),
        (None, None, True),
    ]
    history = await temporal_env.client.get_workflow_handle(
        names.invocation_workflow_id("test_app", "u1", "s1")
    ).fetch_history()
    replayer = Replayer(
        workflows=list(WORKFLOWS), data_converter=data_converter, workflow_runner=workflow_runner()
    )
    result = await replayer.replay_workflow(history, raise_on_replay_failure=False)
    assert result.replay_failure is None


class Flaky(ConnectionError):
    """A node's transient failure (module level: the caller rebuilds it by its class)."""


async def test_a_retried_node_and_a_timed_out_one_run_and_their_history_replays(
    temporal_env,
) -> None:
    """retry_config: each attempt is an activity, the delay a workflow timer drawn with
    the default jitter from the workflow's random; the failed attempts' error events
    are stored before the next attempt runs (it sees their state). timeout: the node's
    code is cancelled when it expires (what it would have done after never happens) and
    the attempt fails with NodeTimeoutError, retried by name. Every workflow task
    replays while it runs, the history replays afterwards, and a scheduler that does
    not retry does not replay it."""
    import asyncio

    from temporalio.api.enums.v1 import EventType

    from adk.workflow import START, RetryConfig, Workflow, node
    from workflows import _graph, names

    from .helpers import runner_for, turn

    woke: list[int] = []

    @node(retry_config=RetryConfig(max_attempts=3, initial_delay=0.01, exceptions=[OSError]))
    def fetch(ctx: Context, node_input: str) -> str:
        ctx.state["seen"] = [*ctx.state.get("seen", []), ctx.attempt_count]
        if ctx.attempt_count < 3:
            raise Flaky(f"try {ctx.attempt_count}")
        return f"{node_input} fetched"

    @node(timeout=0.5, retry_config=RetryConfig(max_attempts=2, initial_delay=0.01, jitter=0))
    async def nap(ctx: Context, node_input: str) -> str:
        if ctx.attempt_count == 1:
            await asyncio.sleep(1.5)
            woke.append(ctx.attempt_count)
        return f"{node_input}, napped"

    graph = Workflow(name="wf", edges=[(START, fetch, nap)])
    async with runner_for(temporal_env, graph) as runner:
        events = await turn(runner, "x")
        await asyncio.sleep(2)  # the timed-out attempt's code would have woken by now
    assert woke == []
    shown = [(e.node_info.path, e.error_code, e.output) for e in events if e.author == "wf"]
    assert shown == [
        ("wf@1/fetch@1", "Flaky", None),
        ("wf@1/fetch@1", "Flaky", None),
        ("wf@1/fetch@1", None, "x fetched"),
        ("wf@1/nap@1", "NodeTimeoutError", None),
        ("wf@1/nap@1", None, "x fetched, napped"),
    ]
    ours = [e for e in events if e.author == "wf"]
    assert [e.actions.state_delta for e in ours[:3]] == [
        {"seen": [1]},
        {"seen": [1, 2]},
        {"seen": [1, 2, 3]},
    ]
    assert ours[3].error_message == "Node 'nap' timed out after 0.5 seconds."
    history = await temporal_env.client.get_workflow_handle(
        names.invocation_workflow_id("test_app", "u1", "s1")
    ).fetch_history()
    kinds = [e.event_type for e in history.events]
    assert kinds.count(EventType.EVENT_TYPE_TIMER_STARTED) == 3  # two for fetch, one for nap
    replayer = Replayer(
        workflows=list(WORKFLOWS), data_converter=data_converter, workflow_runner=workflow_runner()
    )
    result = await replayer.replay_workflow(history, raise_on_replay_failure=False)
    assert result.replay_failure is None

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_graph, "should_retry", lambda *args: False)
        diverged = await Replayer(
            workflows=list(WORKFLOWS),
            data_converter=data_converter,
            workflow_runner=workflow_runner("off"),
        ).replay_workflow(history, raise_on_replay_failure=False)
    assert diverged.replay_failure is not None


async def test_a_nested_workflow_runs_inline_is_cancelled_with_its_parent_and_replays(
    temporal_env,
) -> None:
    """A nested Workflow on a fan-out lane: when the other lane fails, the runs inside
    it are cancelled too (its slow node's successor never runs) and the run raises the
    failing node's exception; the next turn runs it to the end (its nodes' events
    authored by it, under its path) and the history replays."""
    import asyncio

    from adk.workflow import START, Workflow
    from workflows import names

    from .helpers import runner_for, turn

    async def slow(node_input: str) -> str:
        if node_input == "fail":
            await asyncio.sleep(30)
        return f"slow {node_input}"

    def after_slow(node_input: str) -> str:
        return f"after {node_input}"

    def bad(ctx: Context, node_input: str) -> None:
        if node_input == "fail":
            raise LaneError("bad lane")
        ctx.state["bad"] = "ok"  # no output: the nested Workflow's is the only terminal one

    inner = Workflow(name="inner", edges=[(START, slow, after_slow)])
    graph = Workflow(name="wf", edges=[(START, (inner, bad))])
    async with runner_for(temporal_env, graph) as runner:
        with pytest.raises(LaneError, match="bad lane"):
            await turn(runner, "fail")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
        assert session is not None
        assert [e.node_info.path for e in session.events if e.author != "user"] == ["wf@1/bad@1"]
        events = await turn(runner, "go")
    shown = [(e.author, e.node_info.path, e.output) for e in events if e.output is not None]
    assert sorted(shown) == [
        ("inner", "wf@1/inner@1/after_slow@1", "after slow go"),
        ("inner", "wf@1/inner@1/slow@1", "slow go"),
    ]
    last = next(e for e in events if e.node_info.path == "wf@1/inner@1/after_slow@1")
    assert last.node_info.output_for == [
        "wf@1/inner@1/after_slow@1",
        "wf@1/inner@1",
        "wf@1",
    ]
    history = await temporal_env.client.get_workflow_handle(
        names.invocation_workflow_id("test_app", "u1", "s1")
    ).fetch_history()
    replayer = Replayer(
        workflows=list(WORKFLOWS), data_converter=data_converter, workflow_runner=workflow_runner()
    )
    result = await replayer.replay_workflow(history, raise_on_replay_failure=False)
    assert result.replay_failure is None
