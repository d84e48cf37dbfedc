"""Custom agents (BaseAgent subclasses): durable, deterministic, and clear when not.

The differential cases (tests/differential/cases/custom_*.py) check that they
behave as in google-adk 2.13. Here: a worker SIGKILLed while a custom agent is
between two sub-agents (tests/apps/custom_flow), orchestration code that is not
deterministic failing with a message that says so, and the mistakes an ADK
user may make with the context.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import socket
import time
import uuid
from collections.abc import AsyncGenerator, Callable
from pathlib import Path
from typing import Any

import pytest
from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer
from temporalio.workflow import NondeterminismError

from adk import Agent
from adk.agents import BaseAgent, InvocationContext
from adk.agents._orchestrating import NondeterministicOrchestrationError
from adk.events import Event, EventActions
from adk.sessions import SqliteSessionService
from adk.testing import MockModel
from client import AgentClient
from worker._build import workflow_runner
from workflows import WORKFLOWS, names
from workflows.converter import data_converter

from .helpers import runner_for, simplify, turn
from .test_durability import (
    REPO,
    content,
    start_worker,
    stop,
    tool_runs,
    wait_until,
)

FLOW_APP = REPO / "tests" / "apps" / "custom_flow"


class Doing(BaseAgent):
    """Runs its sub-agent, then does `act(ctx)` (the test's), then says so."""

    act: Callable[[Any], Any]

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        async for event in self.sub_agents[0].run_async(ctx):
            yield event
        done = self.act(ctx)
        yield Event(
            invocation_id=ctx.invocation_id,
            author=self.name,
            actions=EventActions(state_delta={"done": str(done)}),
        )


def doing(act: Callable[[Any], Any]) -> Doing:
    helper = Agent(name="helper", model=MockModel.create(["Helped."]), instruction="Help.")
    return Doing(name="doer", act=act, sub_agents=[helper])


async def run_with(env: Any, agent: BaseAgent, text: str = "go") -> list[Event]:
    async with runner_for(env, agent) as runner:
        async with asyncio.timeout(30):  # a failure, never a stuck workflow task
            return await turn(runner, text)


def _swallowing_random(ctx: Any) -> Any:
    try:
        return random.random()
    except NondeterministicOrchestrationError:
        return "caught"  # the run fails anyway


@pytest.mark.parametrize(
    ("act", "what"),
    [
        (lambda ctx: time.time(), "time.time()"),
        (lambda ctx: time.monotonic(), "time.monotonic()"),
        (lambda ctx: uuid.uuid4(), "uuid.uuid4()"),
        (lambda ctx: Path(__file__).read_text(), f"open('{__file__}')"),
        (lambda ctx: open(__file__).read(), f"open('{__file__}')"),
        (lambda ctx: socket.create_connection(("127.0.0.1", 9), timeout=1), "network"),
        (lambda ctx: time.sleep(0.01), "time.sleep() (`await asyncio.sleep"),
        (_swallowing_random, "random.random()"),
    ],
    ids=["time", "monotonic", "uuid4", "read_text", "open", "socket", "sleep", "caught"],
)
async def test_nondeterministic_orchestration_fails_saying_why(
    temporal_env: Any, act: Callable[[Any], Any], what: str
) -> None:
    with pytest.raises(NondeterministicOrchestrationError) as raised:
        await run_with(temporal_env, doing(act))
    text = str(raised.value)
    said = {"network": "a network", "open": "__builtins__.open()"}  # the latter: strict mode
    assert text.startswith(f"Custom agent doer called {what}") or any(
        what.startswith(k) and text.startswith(f"Custom agent doer called {v}")
        for k, v in said.items()
    )
    assert "must be deterministic" in text and "Do I/O in a tool or a sub-agent" in text


async def test_libraries_and_logging_in_orchestration_are_fine(temporal_env: Any) -> None:
    """logging reads the clock, an import reads files, pydantic builds models: not the
    app's own nondeterminism. What the app's code reads from state is fine too."""

    def act(ctx: Any) -> Any:
        logging.getLogger("custom-agent-test").warning("orchestrating %s", ctx.session.id)
        import colorsys  # a lazy import: the import system reads the module's file

        return (ctx.session.state["helper_done"], round(colorsys.rgb_to_hsv(1, 0, 0)[0]))

    helper = Agent(
        name="helper",
        model=MockModel.create(["Helped."]),
        instruction="Help.",
        output_key="helper_done",
    )
    events = await run_with(temporal_env, Doing(name="doer", act=act, sub_agents=[helper]))
    assert simplify(events) == [("user", "go"), ("helper", "Helped.")]
    assert events[-1].author == "doer"
    assert events[-1].actions.state_delta == {"done": "('Helped.', 0)"}


def _write_state(ctx: Any) -> Any:
    ctx.session.state["x"] = 1


def _read_events(ctx: Any) -> Any:
    return len(ctx.session.events)


@pytest.mark.parametrize(
    ("act", "error", "says"),
    [
        (_write_state, NotImplementedError, "ctx.session.state['x'] = ... in a custom agent"),
        (_read_events, NotImplementedError, "ctx.session.events in a custom agent"),
    ],
    ids=["state-write", "events"],
)
async def test_what_the_context_refuses_is_said(
    temporal_env: Any, act: Callable[[Any], Any], error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=says.replace("[", r"\[").replace("(", r"\(")):
        await run_with(temporal_env, doing(act))


class RunsAStranger(BaseAgent):
    stranger: BaseAgent

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        async for event in self.stranger.run_async(ctx):
            yield event


class YieldsText(BaseAgent):
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        yield "hello"  # type: ignore[misc]


class NoImpl(BaseAgent):
    pass


class Concurrent(BaseAgent):
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        async def drain(agent: BaseAgent) -> list[Event]:
            return [e async for e in agent.run_async(ctx)]

        for events in await asyncio.gather(*(drain(a) for a in self.sub_agents)):
            for event in events:
                yield event


async def test_sub_agents_run_concurrently_are_refused(temporal_env: Any) -> None:
    one = Agent(name="one", model=MockModel.create(["1"]))
    two = Agent(name="two", model=MockModel.create(["2"]))
    with pytest.raises(NotImplementedError, match="run a ParallelAgent instead"):
        await run_with(temporal_env, Concurrent(name="both", sub_agents=[one, two]))


async def test_an_agent_outside_the_tree_is_named(temporal_env: Any) -> None:
    stranger = Agent(name="stranger", model=MockModel.create(["Hi."]))
    helper = Agent(name="helper", model=MockModel.create(["Helped."]))
    agent = RunsAStranger(name="runner", stranger=stranger, sub_agents=[helper])
    with pytest.raises(ValueError, match="Agent stranger is not in the agent tree"):
        await run_with(temporal_env, agent)


async def test_yielding_something_else_and_no_impl_fail_clearly(temporal_env: Any) -> None:
    with pytest.raises(TypeError, match="yielded a str, not an Event"):
        await run_with(temporal_env, YieldsText(name="texter"))
    with pytest.raises(NotImplementedError, match="_run_async_impl for .*NoImpl.* not implemented"):
        await run_with(temporal_env, NoImpl(name="nothing"))


async def test_run_async_and_live_outside_a_custom_agent_are_refused() -> None:
    agent = Agent(name="a", model=MockModel.create(["x"]))
    with pytest.raises(NotImplementedError, match="only inside a custom agent's _run_async_impl"):
        await anext(agent.run_async(object()))
    with pytest.raises(NotImplementedError, match="Agent.run_live is not supported yet"):
        await anext(agent.run_live(object()))
    with pytest.raises(NotImplementedError, match="NoImpl._run_live_impl is not supported yet"):
        await anext(NoImpl(name="n")._run_live_impl(object()))


# ── the worker killed while a custom agent is between two sub-agents ─────────


@pytest.mark.slow
async def test_worker_sigkill_between_two_sub_agents_completes_as_a_clean_run(
    temporal_env: Any, tmp_path: Path
) -> None:
    address = temporal_env.client.service_client.config.target_host
    task_queue = f"durability-custom-{uuid.uuid4().hex[:8]}"
    store = SqliteSessionService(tmp_path / "sessions.db")
    agents = AgentClient(temporal_env.client, store, task_queue=task_queue)
    workers = [start_worker(address, task_queue, tmp_path, "worker1", FLOW_APP)]
    message = "a poem about rain"
    try:
        killed = await agents.start(
            app_name="custom_flow", user_id="u-killed", session_id="killed", new_message=message
        )
        # the classifier ran, the desk chose and said so, the poet's tool runs: kill now
        await wait_until(
            lambda: tool_runs(tmp_path)[("killed", "write_poem")] == 1,
            timeout=30,
            what="the second sub-agent's tool to start",
            proc=workers[0],
            tmp=tmp_path,
        )
        workers[0].kill()
        assert workers[0].wait() == -9
        # the new worker runs the workflows in Temporal's sandbox: the replayed
        # orchestration is the same code, with the same guard
        workers.append(
            start_worker(
                address,
                task_queue,
                tmp_path,
                "worker2",
                FLOW_APP,
                env={"DURABLE_ADK_WORKFLOW_SANDBOX": "strict"},
            )
        )
        reference = await agents.start(
            app_name="custom_flow", user_id="u-ref", session_id="reference", new_message=message
        )
        killed_result, reference_result = await asyncio.wait_for(
            asyncio.gather(killed.handle.result(), reference.handle.result()), timeout=60
        )
    finally:
        for proc in workers:
            stop(proc)

    killed_session = await store.get_session(
        app_name="custom_flow", user_id="u-killed", session_id="killed"
    )
    reference_session = await store.get_session(
        app_name="custom_flow", user_id="u-ref", session_id="reference"
    )
    store.close()
    assert killed_session is not None and reference_session is not None
    assert killed_result.event_count == reference_result.event_count == 9
    # the same events (ids and times aside) and state as the clean run
    assert content(killed_session) == content(reference_session)
    shape = [
        (e.author, e.content is not None, e.actions.state_delta) for e in killed_session.events
    ]
    assert shape == [
        (e.author, e.content is not None, e.actions.state_delta) for e in reference_session.events
    ]
    assert [a for a, _ in content(killed_session)[0]] == [
        "user",
        *["classifier"] * 3,
        "desk",
        *["poet"] * 3,
    ]
    assert content(killed_session)[1] == {
        "kind": "poem",
        "classifier_said": "Classified.",
        "stage": "done by poet",
        "poet_said": "Rain falls.",
    }
    ids = [e.id for e in killed_session.events]
    assert len(ids) == len(set(ids)), "an event was recorded twice"
    # the finished sub-agent did not run again; the one in flight at the kill did
    runs = tool_runs(tmp_path)
    assert runs[("killed", "classify")] == 1
    assert runs[("killed", "write_poem")] == 2  # at-least-once: killed attempt, then retry
    assert runs[("reference", "classify")] == runs[("reference", "write_poem")] == 1


# ── replay of a committed history ────────────────────────────────────────────

CUSTOM_HISTORY = REPO / "tests" / "histories" / "custom_flow.json"


def custom_history() -> WorkflowHistory:
    """Recorded by tests/histories/record_custom.py (re-record only for intended breaking changes)."""
    workflow_id = CUSTOM_HISTORY.with_suffix(".workflow_id").read_text().strip()
    return WorkflowHistory.from_json(workflow_id, CUSTOM_HISTORY.read_text(encoding="utf-8"))


REPLAY_BUILD = "custom-agents"


def replaying(root: BaseAgent, sandbox: str | None = None) -> Replayer:
    """A Replayer whose workflows find `root`'s agents: it runs them on task queue
    `replay-<build id>`, where a worker would have published its apps."""
    from adk.apps import App
    from worker import publish_apps

    publish_apps(
        f"replay-{REPLAY_BUILD}", {"custom_flow": App(name="custom_flow", root_agent=root)}
    )
    return Replayer(
        workflows=list(WORKFLOWS),
        data_converter=data_converter,
        workflow_runner=workflow_runner(sandbox),
        build_id=REPLAY_BUILD,
    )


def test_committed_custom_agent_history_is_representative() -> None:
    events = json.loads(CUSTOM_HISTORY.read_text(encoding="utf-8"))["events"]
    scheduled = [
        e["activityTaskScheduledEventAttributes"]["activityType"]["name"]
        for e in events
        if "activityTaskScheduledEventAttributes" in e
    ]
    children = [
        e["startChildWorkflowExecutionInitiatedEventAttributes"]["workflowId"].rsplit("/", 1)[1]
        for e in events
        if "startChildWorkflowExecutionInitiatedEventAttributes" in e
    ]
    # the state when it starts, each sub-agent's events read back after it
    assert scheduled == [names.CUSTOM_AGENT_VIEW] * 3
    assert children == ["classifier#1", "poet#2"]
    assert events[-1]["eventType"] == "EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED"


@pytest.mark.parametrize("sandbox", ["off", "strict"])
async def test_committed_custom_agent_history_replays(sandbox: str) -> None:
    from worker._loader import load_app

    root = load_app(str(FLOW_APP)).root_agent
    result = await replaying(root, sandbox).replay_workflow(custom_history())
    assert result.replay_failure is None


async def test_a_changed_orchestration_does_not_replay() -> None:
    """README: changing _run_async_impl under running invocations is a workflow change."""
    from worker._loader import load_app

    loaded = load_app(str(FLOW_APP)).root_agent

    class AlwaysEssay(BaseAgent):
        async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
            classifier, _, essayist = self.sub_agents
            async for event in classifier.run_async(ctx):
                yield event
            async for event in essayist.run_async(ctx):  # no event of its own, no branch
                yield event

    changed = AlwaysEssay(name="desk", sub_agents=[a.clone() for a in loaded.sub_agents])
    with pytest.raises(NondeterminismError, match="Nondeterminism"):
        await replaying(changed).replay_workflow(custom_history())


# ── the example app ───────────────────────────────────────────────────────────


async def test_story_flow_example_regenerates_a_negative_story(temporal_env: Any) -> None:
    from worker._loader import load_app

    app = load_app(str(REPO / "examples" / "story_flow"))
    events = await run_with(temporal_env, app.root_agent, "a kitten in a storm")
    assert [e.author for e in events] == [
        "user",
        "StoryGenerator",
        *["Critic", "Reviser"] * 2,
        "GrammarCheck",
        "ToneCheck",
        "StoryGenerator",  # the tone was negative: the custom agent's own branch
    ]
    said = dict(simplify(events[1:]))
    assert said["ToneCheck"] == "negative"
    assert said["StoryGenerator"] == "A sunny tale: the kitten finds a friend."
    assert simplify(events)[5] == (
        "Reviser",
        "A storm scares a little kitten, and it hides, and it hides.",
    )
