"""A message for a session whose invocation runs: the app's busy policy, with two
clients sending at once (a Runner's run_async and an AgentClient), on the real
local Temporal with every workflow task replayed (max_cached_workflows=0)."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from temporalio.testing import WorkflowEnvironment

from adk import Agent
from adk.apps.app import App
from adk.events.event import Event
from adk.runners import Runner
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from client import AgentClient, InvocationInterruptedError, SessionBusyError
from workflows import names
from workflows.contracts import InvocationStatus

from .helpers import call, simplify, user_text

USER = "u"
"""The user of the test's session: each test its own (a session left running by a
test must not make the next one's busy)."""


@pytest.fixture(autouse=True)
def _own_user() -> None:
    global USER
    USER = f"u-{uuid.uuid4().hex[:8]}"


class Gate:
    """A tool that holds the first invocation until the test lets it go."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.release = asyncio.Event()
        self.calls = 0

    async def slow(self) -> dict:
        """Waits to be released."""
        self.calls += 1
        self.entered.set()
        await self.release.wait()
        return {"done": True}


@contextlib.asynccontextmanager
async def busy_runner(
    env: WorkflowEnvironment,
    agent: Agent,
    policy: str,
    session_service: Any = None,
    **worker_options: Any,
) -> AsyncIterator[Runner]:
    runner = Runner(
        app=App(name="busy_app", root_agent=agent, busy_policy=policy),  # type: ignore[arg-type]
        session_service=session_service or InMemorySessionService(),
        temporal_client=env.client,
        auto_create_session=True,
        worker_options={"max_cached_workflows": 0, **worker_options},
    )
    async with runner:
        yield runner


async def via_runner(runner: Runner, text: str) -> list[Event]:
    return [
        e async for e in runner.run_async(user_id=USER, session_id="s", new_message=user_text(text))
    ]


async def via_client(runner: Runner, text: str) -> tuple[Any, list[Event]]:
    """A second client: an AgentClient of its own on the Runner's Temporal and store."""
    temporal = await runner._ensure_started()
    client = AgentClient(temporal, runner.session_service, task_queue=runner.task_queue)
    invocation = await client.start(
        app_name="busy_app", user_id=USER, session_id="s", new_message=text
    )
    events = [e async for e in client.events(invocation) if e.author != "user"]
    return invocation, events


async def session_events(runner: Runner) -> list[Event]:
    session = await runner.session_service.get_session(
        app_name="busy_app", user_id=USER, session_id="s"
    )
    assert session is not None
    return session.events


async def started_while_running(runner: Runner, gate: Gate, *sends: Any) -> list[asyncio.Task[Any]]:
    """Each send as a task, once the first invocation is inside its tool; every later
    one once the one before has reached the workflow (their arrival order): its submit
    update accepted (in the history), or refused (its send has ended)."""
    tasks = [asyncio.create_task(sends[0])]
    await asyncio.wait_for(gate.entered.wait(), 20)
    workflow_id = names.invocation_workflow_id("busy_app", USER, "s")
    running = await runner._temporal.get_workflow_handle(workflow_id).describe()
    handle = runner._temporal.get_workflow_handle(workflow_id, run_id=running.run_id)
    for send in sends[1:]:
        before = await accepted_updates(handle)
        tasks.append(asyncio.create_task(send))
        async with asyncio.timeout(20):  # (a fixed pause lost the order on a loaded machine)
            while not tasks[-1].done() and await accepted_updates(handle) == before:
                await asyncio.sleep(0.05)
    return tasks


async def stopped_children(runner: Runner, count: int) -> None:
    """Until `count` running child workflows have the interrupt's stop signal in their
    history: a child whose tool ends first would otherwise start its next step before
    the signal reaches it (the interrupt stops each at its next step after that)."""
    root = names.invocation_workflow_id("busy_app", USER, "s")

    async def signalled() -> int:
        found = 0
        async for execution in runner._temporal.list_workflows('ExecutionStatus = "Running"'):
            if execution.id == root:
                continue
            handle = runner._temporal.get_workflow_handle(execution.id, run_id=execution.run_id)
            async for event in handle.fetch_history_events():
                attributes = event.workflow_execution_signaled_event_attributes
                if event.HasField("workflow_execution_signaled_event_attributes") and (
                    attributes.signal_name == names.SIGNAL_STOP
                ):
                    found += 1
                    break
        return found

    async with asyncio.timeout(20):
        while await signalled() < count:
            await asyncio.sleep(0.05)


async def accepted_updates(handle: Any) -> int:
    """Updates the run has accepted (the submits among them)."""
    accepted = 0
    async for event in handle.fetch_history_events():
        accepted += event.HasField("workflow_execution_update_accepted_event_attributes")
    return accepted


async def test_reject_refuses_the_second_client_and_writes_nothing(temporal_env):
    gate = Gate()
    model = MockModel.create([call("slow"), "first done"])
    agent = Agent(name="a", model=model, tools=[gate.slow])
    async with busy_runner(temporal_env, agent, "reject") as runner:
        first, second = await started_while_running(
            runner, gate, via_runner(runner, "first"), via_client(runner, "second")
        )
        with pytest.raises(SessionBusyError, match="'s' already has an invocation running"):
            await asyncio.wait_for(second, 20)
        gate.release.set()
        events = await asyncio.wait_for(first, 20)
        stored = await session_events(runner)
    assert simplify(events)[-1] == ("a", "first done")
    assert [t for _, t in simplify(stored) if isinstance(t, str)] == ["first", "first done"]


async def test_queue_runs_messages_in_arrival_order_each_client_streams_its_own(temporal_env):
    gate = Gate()
    model = MockModel.create([call("slow"), "first done", "second done", "third done"])
    agent = Agent(name="a", model=model, tools=[gate.slow])
    async with busy_runner(temporal_env, agent, "queue") as runner:
        first, second, third = await started_while_running(
            runner,
            gate,
            via_runner(runner, "first"),
            via_client(runner, "second"),
            via_runner(runner, "third"),
        )
        assert not second.done() and not third.done()  # queued behind the first
        gate.release.set()
        first_events = await asyncio.wait_for(first, 30)
        submitted, second_events = await asyncio.wait_for(second, 30)
        third_events = await asyncio.wait_for(third, 30)
        stored = await session_events(runner)
    assert submitted.submitted is not None
    assert (submitted.submitted.policy, submitted.submitted.position) == ("queue", 1)
    assert [simplify(e)[-1] for e in (first_events, second_events, third_events)] == [
        ("a", "first done"),
        ("a", "second done"),
        ("a", "third done"),
    ]
    # each stream holds its own invocation's events only, and the session is in order
    for events in (first_events, second_events, third_events):
        assert len({e.invocation_id for e in events}) == 1
    assert second_events[0].invocation_id == submitted.invocation_id
    assert [t for _, t in simplify(stored) if isinstance(t, str)] == [
        "first",
        "first done",
        "second",
        "second done",
        "third",
        "third done",
    ]
    # the queued invocation saw the whole earlier conversation
    seen = [p.text for c in model.requests[-1].contents for p in c.parts or [] if p.text]
    assert seen == ["first", "first done", "second", "second done", "third"]
    assert gate.calls == 1


async def test_queue_a_failed_invocation_still_hands_over_and_its_sender_gets_its_error(
    temporal_env,
):
    entered, release = asyncio.Event(), asyncio.Event()

    async def broken() -> dict:
        """Fails once released."""
        entered.set()
        await release.wait()
        raise KeyError("no entry 1")

    def reply(request: Any) -> Any:  # (the failed call has no response: no model turn)
        texts = [p.text for c in request.contents for p in c.parts or [] if p.text]
        return "second done" if texts[-1] == "second" else call("broken")

    model = MockModel.create([reply])
    agent = Agent(name="a", model=model, tools=[broken])
    async with busy_runner(temporal_env, agent, "queue") as runner:
        first = asyncio.create_task(via_client(runner, "first"))
        await asyncio.wait_for(entered.wait(), 20)
        second = asyncio.create_task(via_runner(runner, "second"))
        await asyncio.sleep(0.5)
        release.set()
        with pytest.raises(KeyError, match="no entry 1"):  # the tool's own exception
            await asyncio.wait_for(first, 30)
        second_events = await asyncio.wait_for(second, 30)
    assert simplify(second_events) == [("a", "second done")]


async def test_interrupt_stops_the_running_invocation_at_its_next_step(temporal_env):
    gate = Gate()
    model = MockModel.create([call("slow"), "second done"])  # the first never asks again
    agent = Agent(name="a", model=model, tools=[gate.slow])
    async with busy_runner(temporal_env, agent, "interrupt") as runner:
        first, second = await started_while_running(
            runner, gate, via_client(runner, "first"), via_runner(runner, "second")
        )
        gate.release.set()  # the step that runs finishes; the next model call never comes
        with pytest.raises(InvocationInterruptedError, match="interrupted before its next"):
            await asyncio.wait_for(first, 30)
        second_events = await asyncio.wait_for(second, 30)
        stored = await session_events(runner)
    assert simplify(second_events) == [("a", "second done")]
    # the first's events so far are kept, its call answered: nothing half-written
    assert simplify(stored) == [
        ("user", "first"),
        ("a", ("call", "slow", {})),
        ("a", ("response", "slow", {"done": True})),
        ("user", "second"),
        ("a", "second done"),
    ]
    assert len(model.requests) == 2


async def test_a_queued_message_survives_a_worker_restart(temporal_env):
    gate = Gate()
    model = MockModel.create([call("slow"), "first done", "second done"])
    agent = Agent(name="a", model=model, tools=[gate.slow])
    store = InMemorySessionService()
    app = App(name="busy_app", root_agent=agent, busy_policy="queue")
    first_worker = Runner(
        app=app,
        session_service=store,
        temporal_client=temporal_env.client,
        auto_create_session=True,
        worker_options={"max_cached_workflows": 0},
    )
    temporal = await first_worker._ensure_started()
    client = AgentClient(temporal, store, task_queue=first_worker.task_queue)
    first = await client.start(
        app_name="busy_app", user_id=USER, session_id="s", new_message="first"
    )
    await asyncio.wait_for(gate.entered.wait(), 20)
    second = await client.start(
        app_name="busy_app", user_id=USER, session_id="s", new_message="second"
    )
    assert second.submitted is not None and second.submitted.behind == first.invocation_id
    # the worker goes away while the tool runs (its attempt is lost: the tool runs again
    # on the next worker), holding nothing the next worker needs but history
    gate.release.set()
    await first_worker.close()
    second_worker = Runner(
        app=app,
        session_service=store,
        temporal_client=temporal_env.client,
        task_queue=first_worker.task_queue,
        auto_create_session=True,
        worker_options={"max_cached_workflows": 0},
    )
    async with second_worker:
        await second_worker._ensure_started()
        events = [e async for e in client.events(second) if e.author != "user"]
        stored = await session_events(second_worker)
    assert simplify(events) == [("a", "second done")]
    assert [t for _, t in simplify(stored) if isinstance(t, str)][-2:] == ["second", "second done"]


@pytest.mark.parametrize("policy", ["reject", "queue"])
async def test_a_message_for_a_waiting_invocation_is_not_busy(temporal_env, policy: str):
    """Whatever the policy: an invocation that only waits for an answer gives way to a
    new message (google-adk 2.13 runs it; the call stays unanswered)."""
    from adk.tools import LongRunningFunctionTool

    def order(item: str) -> None:
        """Places an order (answered later)."""
        return None

    # (the unanswered call is left out of the second request: MockModel's second reply)
    model = MockModel.create([call("order", item="x"), "second done"])
    agent = Agent(name="a", model=model, tools=[LongRunningFunctionTool(order)])
    async with busy_runner(temporal_env, agent, policy) as runner:
        await via_runner(runner, "first")  # ends its turn waiting for the result
        invocation, events = await via_client(runner, "second")
        assert invocation.submitted is None  # started anew, not queued
        assert simplify(events)[-1] == ("a", "second done")
        stored = simplify(await session_events(runner))
        assert stored == [
            ("user", "first"),
            ("a", ("call", "order", {"item": "x"})),
            ("user", "second"),
            ("a", "second done"),
        ]
        workflow_id = names.invocation_workflow_id("busy_app", USER, "s")
        status = await runner._temporal.get_workflow_handle(workflow_id).query(
            names.QUERY_STATUS, result_type=InvocationStatus
        )
        assert status.status == "completed"  # the second; the first gave way


async def test_a_message_queued_while_it_ran_goes_next_when_the_invocation_ends_waiting(
    temporal_env,
):
    """queue: the first invocation's model then calls a long-running tool and its run
    ends waiting for the result; the message queued meanwhile runs next, as a new
    message to a waiting invocation would (the call stays unanswered)."""
    from adk.tools import LongRunningFunctionTool

    gate = Gate()

    def order(item: str) -> None:
        """Places an order (answered later)."""
        return None

    model = MockModel.create([call("slow"), call("order", item="x"), lambda _: "second done"])
    agent = Agent(name="a", model=model, tools=[gate.slow, LongRunningFunctionTool(order)])
    async with busy_runner(temporal_env, agent, "queue") as runner:
        first, second = await started_while_running(
            runner, gate, via_runner(runner, "first"), via_client(runner, "second")
        )
        assert not second.done()  # queued behind the first
        gate.release.set()
        await asyncio.wait_for(first, 30)
        submitted, second_events = await asyncio.wait_for(second, 30)
        stored = simplify(await session_events(runner))
    assert submitted.submitted is not None and submitted.submitted.position == 1
    assert simplify(second_events)[-1] == ("a", "second done")
    assert stored[-3:] == [
        ("a", ("call", "order", {"item": "x"})),
        ("user", "second"),
        ("a", "second done"),
    ]


async def test_interrupt_reaches_sub_agents_in_child_workflows(temporal_env):
    """A Sequential's first step waits in its tool (in a child workflow): it stops
    after that tool, and the second step never starts; the newer message runs."""
    from adk.agents import SequentialAgent

    gate = Gate()

    def step1(request: Any) -> Any:
        texts = [p.text for c in request.contents for p in c.parts or [] if p.text]
        return call("slow") if texts[-1] == "first" else "step1 on second"

    step2_model = MockModel.create([lambda _: "step2 on second"])
    pipeline = SequentialAgent(
        name="pipeline",
        sub_agents=[
            Agent(name="step1", model=MockModel.create([step1, step1]), tools=[gate.slow]),
            Agent(name="step2", model=step2_model),
        ],
    )
    async with busy_runner(temporal_env, pipeline, "interrupt", max_cached_workflows=1) as runner:
        first, second = await started_while_running(
            runner, gate, via_client(runner, "first"), via_client(runner, "second")
        )
        await stopped_children(runner, 1)  # (step1's run: told before its tool ends)
        gate.release.set()
        with pytest.raises(InvocationInterruptedError):
            await asyncio.wait_for(first, 30)
        _, second_events = await asyncio.wait_for(second, 30)
        stored = await session_events(runner)
    assert simplify(stored) == [
        ("user", "first"),
        ("step1", ("call", "slow", {})),
        ("step1", ("response", "slow", {"done": True})),
        ("user", "second"),
        ("step1", "step1 on second"),
        ("step2", "step2 on second"),
    ]
    assert simplify(second_events) == simplify(stored)[-2:]
    assert len(step2_model.requests) == 1  # the second's only: the first's never started


async def test_the_busy_histories_replay(temporal_env):
    """Every run of a queued session's workflow replays on the current workflow code."""
    from temporalio.worker import Replayer

    from worker._build import workflow_runner
    from workflows import WORKFLOWS
    from workflows.converter import data_converter

    gate = Gate()
    model = MockModel.create([call("slow"), "first done", "second done"])
    agent = Agent(name="a", model=model, tools=[gate.slow])
    async with busy_runner(temporal_env, agent, "queue") as runner:
        first, second = await started_while_running(
            runner, gate, via_runner(runner, "first"), via_client(runner, "second")
        )
        gate.release.set()
        await asyncio.wait_for(asyncio.gather(first, second), 30)
        workflow_id = names.invocation_workflow_id("busy_app", USER, "s")
        last = await runner._temporal.get_workflow_handle(workflow_id).fetch_history()
        started = last.events[0].workflow_execution_started_event_attributes
        earlier = await runner._temporal.get_workflow_handle(
            workflow_id, run_id=started.continued_execution_run_id
        ).fetch_history()
        histories = [earlier, last]
    assert len(histories) == 2
    for sandbox in ("off", "strict"):
        replayer = Replayer(
            workflows=list(WORKFLOWS),
            data_converter=data_converter,
            workflow_runner=workflow_runner(sandbox),
        )
        for history in histories:
            assert (await replayer.replay_workflow(history)).replay_failure is None


async def test_the_cli_queues_a_second_run_and_prints_its_own_answer(
    temporal_env, tmp_path, capsys
):
    """`python -m client run` twice at once on a `queue` app: the second says it is
    queued, and each prints its own final answer (the CLI's handlers, in this loop)."""
    from adk.sessions import SqliteSessionService
    from client._cli import parser

    gate = Gate()
    model = MockModel.create([call("slow"), "first done", "second done"])
    agent = Agent(name="a", model=model, tools=[gate.slow])
    store = SqliteSessionService(tmp_path / "s.db")
    address = temporal_env.client.service_client.config.target_host
    async with busy_runner(temporal_env, agent, "queue", session_service=store) as runner:
        await runner._ensure_started()

        async def cli(message: str) -> int:
            argv = ["--address", address, "--db", str(tmp_path / "s.db")]
            argv += ["--task-queue", runner.task_queue, "run", message, "--app", "busy_app"]
            args = parser().parse_args([*argv, "--user", USER, "--session", "s"])
            return int(await args.handler(args))

        first, second = await started_while_running(runner, gate, cli("first"), cli("second"))
        gate.release.set()
        assert await asyncio.wait_for(asyncio.gather(first, second), 30) == [0, 0]
    out = capsys.readouterr().out
    assert "the session is busy: this message queued behind invocation e-" in out
    assert out.count("final answer: first done") == 1
    assert out.count("final answer: second done") == 1


async def test_queue_a_cancelled_invocation_still_hands_over(temporal_env):
    """`temporal workflow cancel` stops the running invocation; the messages it held
    still run (they were accepted), and its own sender learns it was cancelled."""
    from client import InvocationFailedError

    gate = Gate()

    def reply(request: Any) -> Any:  # (the first never asks again: it is cancelled)
        texts = [p.text for c in request.contents for p in c.parts or [] if p.text]
        return "second done" if "second" in texts else call("slow")

    agent = Agent(name="a", model=MockModel.create([reply, reply]), tools=[gate.slow])
    async with busy_runner(temporal_env, agent, "queue") as runner:
        first, second = await started_while_running(
            runner, gate, via_client(runner, "first"), via_runner(runner, "second")
        )
        workflow_id = names.invocation_workflow_id("busy_app", USER, "s")
        await runner._temporal.get_workflow_handle(workflow_id).cancel()
        with pytest.raises(InvocationFailedError, match="[Cc]ancel"):
            await asyncio.wait_for(first, 30)
        # (released only now: a cancelled tool that finishes records its response late,
        # the caveat the README states; here the cancellation reaches it first)
        second_events = await asyncio.wait_for(second, 30)
        gate.release.set()
    assert simplify(second_events)[-1] == ("a", "second done")


async def test_interrupt_stops_every_parallel_branch_after_its_tool(temporal_env):
    """Both branches are in their tools when the message arrives: each records its
    response, neither asks its model again, and the new message runs after both."""
    from adk.agents import ParallelAgent

    gate = Gate()

    async def slow() -> dict:
        """Waits to be released."""
        gate.calls += 1
        if gate.calls == 2:  # both branches are in: send the second message
            gate.entered.set()
        await gate.release.wait()
        return {"done": True}

    def branch_reply(request: Any) -> Any:
        texts = [p.text for c in request.contents for p in c.parts or [] if p.text]
        return "branch on second" if "second" in texts else call("slow")

    branches = [
        Agent(name=name, model=MockModel.create([branch_reply] * 3), tools=[slow])
        for name in ("left", "right")
    ]
    fan = ParallelAgent(name="fan", sub_agents=branches)
    async with busy_runner(temporal_env, fan, "interrupt", max_cached_workflows=1) as runner:
        first, second = await started_while_running(
            runner, gate, via_client(runner, "first"), via_client(runner, "second")
        )
        await stopped_children(runner, 2)  # (both branches: told before their tools end)
        gate.release.set()
        with pytest.raises(InvocationInterruptedError):
            await asyncio.wait_for(first, 30)
        _, second_events = await asyncio.wait_for(second, 30)
        stored = await session_events(runner)
    first_id = stored[0].invocation_id
    first_events = sorted(simplify([e for e in stored if e.invocation_id == first_id]), key=str)
    assert first_events == sorted(
        [
            ("user", "first"),
            ("left", ("call", "slow", {})),
            ("right", ("call", "slow", {})),
            ("left", ("response", "slow", {"done": True})),
            ("right", ("response", "slow", {"done": True})),
        ],
        key=str,
    )
    assert sorted(simplify(second_events)) == [
        ("left", "branch on second"),
        ("right", "branch on second"),
    ]
    assert gate.calls == 2


async def test_interrupt_with_two_newer_messages_records_both_and_answers_the_last(
    temporal_env,
):
    gate = Gate()

    def reply(request: Any) -> Any:
        texts = [p.text for c in request.contents for p in c.parts or [] if p.text]
        return call("slow") if texts[-1] == "first" else f"answer to {texts[-1]}"

    model = MockModel.create([reply] * 4)
    agent = Agent(name="a", model=model, tools=[gate.slow])
    async with busy_runner(temporal_env, agent, "interrupt") as runner:
        first, second, third = await started_while_running(
            runner,
            gate,
            via_client(runner, "first"),
            via_client(runner, "second"),
            via_runner(runner, "third"),
        )
        gate.release.set()
        for interrupted in (first, second):
            with pytest.raises(InvocationInterruptedError):
                await asyncio.wait_for(interrupted, 30)
        third_events = await asyncio.wait_for(third, 30)
        stored = await session_events(runner)
    assert simplify(third_events) == [("a", "answer to third")]
    assert [t for _, t in simplify(stored) if isinstance(t, str)] == [
        "first",
        "second",  # recorded, interrupted before its first model call
        "third",
        "answer to third",
    ]
    assert len(model.requests) == 2  # the first's, the third's
