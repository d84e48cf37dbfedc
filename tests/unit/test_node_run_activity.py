"""The `adk.run_node` activity body, called directly: a retried run records the same
events once, and sees the session as its first attempt did.

Runs on: test process only (no Temporal: the activity function is plain async code).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from activities import _graph
from adk.agents import Context
from adk.apps.app import App
from adk.events import Event
from adk.sessions import InMemorySessionService
from adk.workflow import START, Workflow
from workflows.contracts import NodeRunInput, SessionRef, StepRef

REF = StepRef(
    session=SessionRef(app_name="app", user_id="u", session_id="s"),
    invocation_id="inv",
    agent_name="wf",
    node_path="wf@1/count@1",
)

RUNS: list[Any] = []


def count(ctx: Context, node_input: str):
    RUNS.append(ctx.state.get("n"))
    ctx.state["n"] = (ctx.state.get("n") or 0) + 1
    yield Event(output=f"{node_input}:{ctx.state['n']}")


APP = App(name="app", root_agent=Workflow(name="wf", edges=[(START, count)]))


async def test_a_retried_run_records_its_events_once_and_sees_the_first_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = InMemorySessionService()
    await store.create_session(app_name="app", user_id="u", session_id="s", state={"n": 1})
    node_input = NodeRunInput(
        ref=REF, node_name="count", node_input="go", event_seed=str(uuid.uuid4())
    )
    RUNS.clear()
    first = await _graph.run_node({"app": APP}, store, node_input)
    monkeypatch.setattr(_graph, "retried", lambda: True)  # its result was lost: run again
    second = await _graph.run_node({"app": APP}, store, node_input)
    assert RUNS == [1, 1]  # the retry did not see the first attempt's write
    assert [e.id for e in first.events] == [e.id for e in second.events]
    assert second.output == "go:2"
    session = await store.get_session(app_name="app", user_id="u", session_id="s")
    assert session is not None
    assert [e.output for e in session.events] == ["go:2"]
    assert session.state["n"] == 2
    event = session.events[0]
    assert (event.author, event.node_info.path, event.node_info.output_for) == (
        "wf",
        "wf@1/count@1",
        ["wf@1/count@1"],
    )


async def test_a_node_missing_from_the_app_fails_clearly() -> None:
    store = InMemorySessionService()
    await store.create_session(app_name="app", user_id="u", session_id="s")
    node_input = NodeRunInput(ref=REF, node_name="gone", event_seed=str(uuid.uuid4()))
    with pytest.raises(Exception, match="Node 'gone' is not in the graph of app 'app'"):
        await _graph.run_node({"app": APP}, store, node_input)
