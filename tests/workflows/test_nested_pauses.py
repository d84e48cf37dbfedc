"""google-adk 2.13's pauses made inside a workflow agent's step, durable.

Runs on: process side (the tests' process; workers in it, on the session's local
Temporal). A confirmation or long-running call made by a Sequential, Parallel or
Loop agent's step (a child workflow) ends the invocation's run as 2.13 ends it
(the differential cases `*_in_sequence*`, `*_in_parallel*`, `*_in_loop*` check
the events); the root workflow then waits for the answer, so a worker restarted
there loses nothing, only the root's id is needed to see and answer the request,
and a new message makes it give way.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from temporalio.client import WorkflowExecutionStatus, WorkflowHistory
from temporalio.common import SearchAttributePair, TypedSearchAttributes
from temporalio.worker import Replayer

from adk import Agent
from adk.agents import LoopAgent, ParallelAgent, SequentialAgent
from adk.apps import App, ResumabilityConfig
from adk.events.event import Event
from adk.runners import Runner
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from adk.tools import LongRunningFunctionTool
from client import AgentClient, _answers
from worker._build import workflow_runner
from workflows import WORKFLOWS, names
from workflows.converter import data_converter

from .helpers import call, simplify, user_text
from .test_adk_pauses import answer, without_ids
from .test_adk_pauses import build as build_clerk
from .test_human_in_the_loop import eventually

USER = "u1"


def build(shape: str, kind: str, runs: list[Any]) -> Any:
    """`clerk` (whose one call waits) as a step of a workflow agent of `shape`."""
    clerk = build_clerk(kind, runs)
    other = Agent(name="other", model=MockModel.create(["Other here."] * 4))
    if shape == "sequential":
        return SequentialAgent(name="shell", sub_agents=[clerk, other])
    if shape == "parallel":
        return ParallelAgent(name="shell", sub_agents=[clerk, other])
    if shape == "transferred":  # an LlmAgent root reaches the Sequential by a transfer
        shell = SequentialAgent(name="shell", description="Pays.", sub_agents=[clerk, other])
        desk = MockModel.create([call("transfer_to_agent", agent_name="shell")])
        return Agent(name="desk", model=desk, sub_agents=[shell])
    return LoopAgent(name="shell", sub_agents=[clerk, other], max_iterations=1)


def new_runner(env: Any, app: App, store: Any, queue: str) -> Runner:
    return Runner(
        app=app,
        session_service=store,
        temporal_client=env.client,
        task_queue=queue,
        auto_create_session=True,
        worker_options={"max_cached_workflows": 1},
    )


async def two_turns(env: Any, shape: str, kind: str, resumable: bool, *, restart: bool) -> Any:
    """The asking turn, then ADK's answer message, with a fresh worker for the answer
    when `restart`. Returns what the tests compare."""
    runs: list[Any] = []
    config = ResumabilityConfig(is_resumable=True) if resumable else None
    app = App(name="test_app", root_agent=build(shape, kind, runs), resumability_config=config)
    store = InMemorySessionService()
    queue = f"nested-{uuid.uuid4().hex[:8]}"
    session = f"nested-{uuid.uuid4().hex[:8]}"
    runner = new_runner(env, app, store, queue)
    first = [
        e
        async for e in runner.run_async(
            user_id=USER, session_id=session, new_message=user_text("pay 70")
        )
    ]
    if restart:
        await runner.close()  # the worker is gone: the invocation waits on the server
        runner = new_runner(env, app, store, queue)
    options = {"invocation_id": first[0].invocation_id} if resumable else {}
    try:
        second = [
            e
            async for e in runner.run_async(
                user_id=USER, session_id=session, new_message=answer(kind, first), **options
            )
        ]
        stored = await store.get_session(app_name="test_app", user_id=USER, session_id=session)
    finally:
        await runner.close()
    assert stored is not None
    return {
        "first": by_author(first),
        "second": by_author(second),
        "session": by_author(stored.events),
        "invocations": len({e.invocation_id for e in stored.events}),
        "runs": runs,
    }


def by_author(events: list[Event]) -> dict[str, list[Any]]:
    """Each author's events in order (a Parallel's branches interleave by timing)."""
    grouped: dict[str, list[Any]] = {}
    for author, what in without_ids(simplify(events)):
        grouped.setdefault(author, []).append(what)
    return grouped


@pytest.mark.parametrize("resumable", [False, True], ids=["default", "resumable"])
@pytest.mark.parametrize("kind", ["confirmation", "long_running"])
@pytest.mark.parametrize("shape", ["sequential", "parallel", "loop", "transferred"])
async def test_a_worker_restarted_while_a_step_waits_loses_nothing(
    temporal_env, shape, kind, resumable
):
    straight = await two_turns(temporal_env, shape, kind, resumable, restart=False)
    restarted = await two_turns(temporal_env, shape, kind, resumable, restart=True)
    assert restarted == straight
    assert restarted["invocations"] == 1  # the answer continues the same invocation
    assert restarted["second"]["clerk"][-1] == "All done."
    assert restarted["runs"] == ([70] if kind == "confirmation" else [("asked", 70)])
    if shape == "transferred":  # google-adk 2.13: the answer runs clerk alone, at the top
        assert "other" not in restarted["second"]


async def test_a_steps_request_is_listed_and_answered_at_the_root(temporal_env, monkeypatch):
    """The pending query, AdkStatus and approve need only the root workflow's id."""
    runs: list[Any] = []
    # an app of its own: the listing queries every waiting invocation of the app, and
    # other tests leave theirs waiting without a worker (each query then times out)
    app = App(name="listed_app", root_agent=build("sequential", "confirmation", runs))
    store = InMemorySessionService()
    session = f"nested-{uuid.uuid4().hex[:8]}"
    async with new_runner(temporal_env, app, store, f"nested-{uuid.uuid4().hex[:8]}") as runner:
        first = [
            e
            async for e in runner.run_async(
                user_id=USER, session_id=session, new_message=user_text("pay 70")
            )
        ]
        assert [a for a, _ in simplify(first)] == ["clerk", "clerk", "clerk"]  # `other` waits
        workflow_id = names.invocation_workflow_id("listed_app", USER, session)
        client = AgentClient(temporal_env.client, store, task_queue=runner.task_queue)
        status = await client.status(workflow_id)
        assert status.status == "waiting"
        [request] = status.pending
        assert (request.kind, request.tool, request.agent, request.awaited) == (
            "confirmation",
            "pay",
            "clerk",
            True,
        )

        async def listed() -> bool:  # (the visibility store lags the workflow a little)
            found = await client.list_pending(app_name="listed_app")
            return (workflow_id, request.id) in [(w, r.id) for w, r in found]

        assert await eventually(listed)
        described = await temporal_env.client.get_workflow_handle(workflow_id).describe()
        assert described.typed_search_attributes.get(names.SA_STATUS) == "waiting"

        # one whose app's worker is gone holds the listing up to STATUS_QUERY_SECONDS,
        # once for all, and is named instead of left out
        monkeypatch.setattr(_answers, "STATUS_QUERY_SECONDS", 2.0)
        orphan = await temporal_env.client.start_workflow(
            names.INVOCATION_WORKFLOW,
            id=f"orphan-{uuid.uuid4().hex[:8]}",
            task_queue=f"nobody-{uuid.uuid4().hex[:8]}",
            search_attributes=TypedSearchAttributes(
                [
                    SearchAttributePair(names.SA_APP, "listed_app"),
                    SearchAttributePair(names.SA_STATUS, "waiting"),
                ]
            ),
        )
        try:

            async def both() -> _answers.PendingListing | None:
                found = await client.pending_listing(app_name="listed_app")
                return found if found.unanswered else None

            listing = await eventually(both)
            assert listing is not None
            assert listing.unanswered == [orphan.id]
            assert [(w, r.id) for w, r in listing.requests] == [(workflow_id, request.id)]
            assert [w for w, _ in await client.list_pending(app_name="listed_app")] == [workflow_id]
        finally:
            await orphan.terminate()
        await client.approve(workflow_id, request.id)
        await temporal_env.client.get_workflow_handle(workflow_id).result()
        stored = await store.get_session(app_name="listed_app", user_id=USER, session_id=session)
    assert stored is not None
    assert runs == [70]
    assert without_ids(simplify(stored.events))[-3:] == [
        ("user", ("response", "adk_request_confirmation", {"confirmed": True})),
        ("clerk", ("response", "pay", {"paid": 70})),
        ("clerk", "All done."),
    ]


@pytest.mark.parametrize("resumable", [False, True], ids=["default", "resumable"])
async def test_a_new_message_while_a_step_waits_starts_the_next_invocation(temporal_env, resumable):
    runs: list[Any] = []
    config = ResumabilityConfig(is_resumable=True) if resumable else None
    root = build("sequential", "confirmation", runs)
    app = App(name="test_app", root_agent=root, resumability_config=config)
    store = InMemorySessionService()
    session = f"nested-{uuid.uuid4().hex[:8]}"
    async with new_runner(temporal_env, app, store, f"nested-{uuid.uuid4().hex[:8]}") as runner:
        first = [
            e
            async for e in runner.run_async(
                user_id=USER, session_id=session, new_message=user_text("pay 70")
            )
        ]
        workflow_id = names.invocation_workflow_id("test_app", USER, session)
        waiting_run = (await temporal_env.client.get_workflow_handle(workflow_id).describe()).run_id
        second = [
            e
            async for e in runner.run_async(
                user_id=USER, session_id=session, new_message=user_text("never mind")
            )
        ]
        ended = temporal_env.client.get_workflow_handle(workflow_id, run_id=waiting_run)
        described = await ended.describe()
    assert described.status == WorkflowExecutionStatus.COMPLETED
    assert described.typed_search_attributes.get(names.SA_STATUS) is None
    assert second[0].invocation_id != first[0].invocation_id
    assert "Other here." in [what for _, what in simplify(second)]
    assert runs == []


# ── replay of committed histories of a tree whose step waits ─────────────────

HISTORIES = Path(__file__).resolve().parents[1] / "histories"


def tree(name: str) -> list[WorkflowHistory]:
    """Recorded by tests/histories/record_nested_pauses.py (re-record only for intended
    changes); `nested_waits_before_pauses.json` by that script on the commit before
    steps handed their pauses up (their child workflows then waited inside the loop)."""
    recorded = json.loads((HISTORIES / name).read_text(encoding="utf-8"))
    return [WorkflowHistory.from_json(h["workflow_id"], h["history"]) for h in recorded]


@pytest.mark.parametrize("name", ["nested_pauses.json", "nested_waits_before_pauses.json"])
@pytest.mark.parametrize("sandbox", ["off", "strict"])
async def test_the_committed_histories_replay(sandbox, name):
    replayer = Replayer(
        workflows=list(WORKFLOWS),
        data_converter=data_converter,
        workflow_runner=workflow_runner(sandbox),
    )
    histories = tree(name)
    assert len(histories) == (2 if name == "nested_pauses.json" else 3)  # (other ran, before)
    for history in histories:
        result = await replayer.replay_workflow(history, raise_on_replay_failure=False)
        assert result.replay_failure is None, history.workflow_id


@pytest.mark.parametrize(
    ("name", "workflows"),
    [("transferred_sequence.json", 3), ("transferred_sequence_before_alone.json", 5)],
)
@pytest.mark.parametrize("sandbox", ["off", "strict"])
async def test_the_committed_transferred_sequence_histories_replay(sandbox, name, workflows):
    """Recorded by tests/histories/record_transferred_sequence.py: a resumable app's
    LlmAgent root transfers to a Sequential whose step is approved; `..._before_alone`
    on the commit before the answer ran its agent alone (the Sequential resumed, its
    next step ran), replayed behind PATCH_ANSWERS_RUN_ALONE."""
    replayer = Replayer(
        workflows=list(WORKFLOWS),
        data_converter=data_converter,
        workflow_runner=workflow_runner(sandbox),
    )
    histories = tree(name)
    assert len(histories) == workflows
    for history in histories:
        result = await replayer.replay_workflow(history, raise_on_replay_failure=False)
        assert result.replay_failure is None, history.workflow_id


async def test_an_answer_that_reaches_a_step_before_it_ends_goes_up_with_it(temporal_env):
    """A progress report and the result of a long-running call come while its tool
    still runs (the request is listed from the tool's start): the step keeps them,
    hands them up with the request, and the root goes on at once."""
    answered = asyncio.Event()

    async def ask_manager(amount: int) -> dict:
        """Asks a manager; the answer comes later."""
        await asyncio.wait_for(answered.wait(), timeout=20)
        return {"status": "asked"}

    def reply(request: Any) -> str:  # (MockModel picks a reply by the request's model turns)
        last = request.contents[-1].parts[-1].function_response
        return "All done." if last and last.response == {"approved": True} else "Asked."

    clerk = Agent(
        name="clerk",
        model=MockModel.create([call("ask_manager", amount=70), reply]),
        tools=[LongRunningFunctionTool(ask_manager)],
    )
    other = Agent(name="other", model=MockModel.create(["Other here."]))
    app = App(name="test_app", root_agent=SequentialAgent(name="shell", sub_agents=[clerk, other]))
    store = InMemorySessionService()
    session = f"nested-{uuid.uuid4().hex[:8]}"
    async with new_runner(temporal_env, app, store, f"nested-{uuid.uuid4().hex[:8]}") as runner:
        temporal = await runner._ensure_started()
        client = AgentClient(temporal, store, task_queue=runner.task_queue)
        invocation = await client.start(
            app_name="test_app", user_id=USER, session_id=session, new_message="pay 70"
        )
        for _ in range(100):
            pending = (await client.status(invocation.workflow_id)).pending
            if pending:
                break
            await asyncio.sleep(0.1)
        [request] = pending
        assert not request.awaited  # its tool still runs
        await client.progress(invocation.workflow_id, request.id, {"status": "reading"})
        await client.respond(invocation.workflow_id, request.id, {"approved": True})
        answered.set()
        await invocation.handle.result()
        stored = await store.get_session(app_name="test_app", user_id=USER, session_id=session)
    assert stored is not None
    assert without_ids(simplify(stored.events))[1:] == [
        ("clerk", ("call", "ask_manager", {"amount": 70})),
        ("clerk", ("response", "ask_manager", {"status": "asked"})),
        ("clerk", "Asked."),
        ("clerk", ("response", "ask_manager", {"status": "reading"})),  # the progress report
        ("user", ("response", "ask_manager", {"approved": True})),
        ("clerk", "All done."),
    ]


async def test_an_answer_after_a_new_message_goes_on_in_the_branch_of_the_call(temporal_env):
    """A Parallel branch's request, left open by a new message, approved later with
    the root's id: ADK's message, under the call's invocation id and branch."""
    runs: list[Any] = []
    app = App(name="test_app", root_agent=build("parallel", "confirmation", runs))
    store = InMemorySessionService()
    session = f"nested-{uuid.uuid4().hex[:8]}"
    async with new_runner(temporal_env, app, store, f"nested-{uuid.uuid4().hex[:8]}") as runner:
        first = [
            e
            async for e in runner.run_async(
                user_id=USER, session_id=session, new_message=user_text("pay 70")
            )
        ]
        async for _ in runner.run_async(
            user_id=USER, session_id=session, new_message=user_text("never mind")
        ):
            pass
        workflow_id = names.invocation_workflow_id("test_app", USER, session)
        request = next(
            c for e in first for c in e.get_function_calls() if c.name == "adk_request_confirmation"
        )
        client = AgentClient(temporal_env.client, store, task_queue=runner.task_queue)
        said = await client.approve(workflow_id, request.id)
        assert "approve sent as a new message" in said
        await temporal_env.client.get_workflow_handle(workflow_id).result()
        stored = await store.get_session(app_name="test_app", user_id=USER, session_id=session)
    assert stored is not None
    assert runs == [70]
    answered = [e for e in stored.events if e.invocation_id == first[0].invocation_id][-3:]
    assert without_ids(simplify(answered)) == [
        ("user", ("response", "adk_request_confirmation", {"confirmed": True})),
        ("clerk", ("response", "pay", {"paid": 70})),
        ("clerk", "All done."),
    ]
    assert {e.branch for e in answered} == {"shell.clerk"}
