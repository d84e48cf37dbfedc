"""google-adk 2.13's pauses, durable: workers restarted at each wait point lose nothing.

Runs on: process side (the tests' process; workers in it, on the session's local
Temporal). An invocation that waits for an answer (after its run, or paused in a
resumable app) is a workflow holding no worker: the worker that ran it is stopped,
a new one started, and ADK's FunctionResponse message resumes it. The session then
holds what an uninterrupted run records.
"""

from __future__ import annotations

import base64
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from google.genai import types
from temporalio.client import WorkflowExecutionStatus, WorkflowHistory
from temporalio.worker import Replayer

from adk import Agent
from adk.apps import App, ResumabilityConfig
from adk.events.event import Event
from adk.runners import Runner
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from adk.tools import FunctionTool, LongRunningFunctionTool, ToolContext
from client import AgentClient, AnswerRejectedError
from worker._build import workflow_runner
from workflows import WORKFLOWS, names
from workflows.converter import data_converter

from .helpers import call, simplify, user_text

USER = "u1"


def build(kind: str, runs: list[Any]) -> Agent:
    """An agent whose one call waits: a confirmation, or a long-running tool."""

    def pay(amount: int, tool_context: ToolContext) -> dict:
        """Pays an amount."""
        runs.append(amount)
        return {"paid": amount}

    def ask_manager(amount: int) -> None:
        """Asks a manager; the answer comes later."""
        runs.append(("asked", amount))
        return None

    if kind == "confirmation":
        tool: Any = FunctionTool(pay, require_confirmation=True)
        first = call("pay", amount=70)
    else:
        tool = LongRunningFunctionTool(ask_manager)
        first = call("ask_manager", amount=70)
    return Agent(name="clerk", model=MockModel.create([first, "All done."]), tools=[tool])


def answer(kind: str, events: list[Event]) -> types.Content:
    """ADK's message answering the wait: a FunctionResponse with the call's id."""
    calls = [c for e in events for c in e.get_function_calls()]
    if kind == "confirmation":
        asking = next(c for c in calls if c.name == "adk_request_confirmation")
        response = types.FunctionResponse(
            id=asking.id, name=asking.name, response={"confirmed": True}
        )
    else:
        pending = next(c for c in calls if c.name == "ask_manager")
        response = types.FunctionResponse(
            id=pending.id, name=pending.name, response={"approved": True}
        )
    return types.Content(role="user", parts=[types.Part(function_response=response)])


async def two_turns(env: Any, kind: str, resumable: bool, *, restart: bool) -> Any:
    """The asking turn, then the answer (by the resumed invocation's id when resumable),
    with a fresh worker for the answer when `restart`. Returns what the tests compare."""
    runs: list[Any] = []
    agent = build(kind, runs)
    config = ResumabilityConfig(is_resumable=True) if resumable else None
    app = App(name="test_app", root_agent=agent, resumability_config=config)
    store = InMemorySessionService()
    queue = f"pauses-{uuid.uuid4().hex[:8]}"
    session = f"pauses-{uuid.uuid4().hex[:8]}"

    def new_runner() -> Runner:
        return Runner(
            app=app,
            session_service=store,
            temporal_client=env.client,
            task_queue=queue,
            auto_create_session=True,
            worker_options={"max_cached_workflows": 0},
        )

    runner = new_runner()
    first = [
        e
        async for e in runner.run_async(
            user_id=USER, session_id=session, new_message=user_text("pay 70")
        )
    ]
    if restart:
        await runner.close()  # the worker is gone: the invocation waits on the server
        runner = new_runner()
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
        "first": without_ids(simplify(first)),
        "second": without_ids(simplify(second)),
        "end_of_agent": [e.actions.end_of_agent for e in second],
        "session": without_ids(simplify(stored.events)),
        "invocations": len({e.invocation_id for e in stored.events}),
        "runs": runs,
    }


def without_ids(value: Any) -> Any:
    """The calls' ids (fresh each run) left out, wherever they are."""
    if isinstance(value, dict):
        return {k: without_ids(v) for k, v in value.items() if k != "id"}
    if isinstance(value, (list, tuple)):
        return type(value)(without_ids(v) for v in value)
    return value


@pytest.mark.parametrize("resumable", [False, True], ids=["default", "resumable"])
@pytest.mark.parametrize("kind", ["confirmation", "long_running"])
async def test_a_worker_restarted_while_it_waits_loses_nothing(temporal_env, kind, resumable):
    straight = await two_turns(temporal_env, kind, resumable, restart=False)
    restarted = await two_turns(temporal_env, kind, resumable, restart=True)
    assert restarted == straight
    # what each mode records (google-adk 2.13's, checked against it in the differential
    # cases confirmation_* and resumable_long_running)
    assert restarted["invocations"] == 1  # the answer continues the same invocation
    assert restarted["second"][-1] == ("clerk", "All done.")
    assert restarted["end_of_agent"][-1] is (True if resumable else None)
    assert restarted["runs"] == ([70] if kind == "confirmation" else [("asked", 70)])


@pytest.mark.parametrize("resumable", [False, True], ids=["default", "resumable"])
async def test_a_new_message_while_it_waits_starts_the_next_invocation(temporal_env, resumable):
    """The waiting invocation gives way: its workflow completes with the request open
    (no longer listed as waiting), and the message runs as the next invocation."""
    runs: list[Any] = []
    agent = build("confirmation", runs)

    def reply(request: Any) -> str:  # (MockModel picks a reply by the request's model turns)
        last = request.contents[-1].parts[-1].function_response
        return "All done." if last and last.response == {"paid": 70} else "Nothing paid."

    agent.model = MockModel.create([call("pay", amount=70), reply])
    config = ResumabilityConfig(is_resumable=True) if resumable else None
    app = App(name="test_app", root_agent=agent, resumability_config=config)
    session = f"give-way-{uuid.uuid4().hex[:8]}"
    async with Runner(
        app=app,
        session_service=InMemorySessionService(),
        temporal_client=temporal_env.client,
        auto_create_session=True,
    ) as runner:
        first = [
            e
            async for e in runner.run_async(
                user_id=USER, session_id=session, new_message=user_text("pay 70")
            )
        ]
        workflow_id = names.invocation_workflow_id("test_app", USER, session)
        waiting = temporal_env.client.get_workflow_handle(workflow_id)
        waiting_run = (await waiting.describe()).run_id
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
        assert simplify(second)[0] == ("clerk", "Nothing paid.")
        assert second[0].invocation_id != first[0].invocation_id
        assert runs == []  # never approved: never ran

        # our approve, on the ended invocation: ADK's message, the next invocation
        request = next(c for e in first for c in e.get_function_calls() if c.name != "pay")
        client = AgentClient(
            temporal_env.client, runner.session_service, task_queue=runner.task_queue
        )
        said = await client.approve(workflow_id, request.id)
        assert "approve sent as a new message" in said
        await temporal_env.client.get_workflow_handle(workflow_id).result()
        with pytest.raises(AnswerRejectedError, match="already answered"):
            await client.reject(workflow_id, request.id)
        stored = await runner.session_service.get_session(
            app_name="test_app", user_id=USER, session_id=session
        )
    assert stored is not None
    assert runs == [70]
    answered = [e for e in stored.events if e.invocation_id == first[0].invocation_id]
    assert without_ids(simplify(answered))[-3:] == [
        ("user", ("response", "adk_request_confirmation", {"confirmed": True})),
        ("clerk", ("response", "pay", {"paid": 70})),
        ("clerk", "All done."),
    ]


# ── replay of a committed history that waits ─────────────────────────────────

HISTORY = Path(__file__).resolve().parents[1] / "histories" / "pauses.json"


def pauses_history() -> WorkflowHistory:
    """Recorded by tests/histories/record_pauses.py (re-record only for intended changes)."""
    workflow_id = HISTORY.with_suffix(".workflow_id").read_text(encoding="utf-8").strip()
    return WorkflowHistory.from_json(workflow_id, HISTORY.read_text(encoding="utf-8"))


def test_the_committed_history_waits_twice_after_runs():
    events = json.loads(HISTORY.read_text(encoding="utf-8"))["events"]
    kinds = [
        e["activityTaskScheduledEventAttributes"]["activityType"]["name"]
        if "activityTaskScheduledEventAttributes" in e
        else e["workflowExecutionUpdateAcceptedEventAttributes"]["acceptedRequest"]["input"]["name"]
        for e in events
        if "activityTaskScheduledEventAttributes" in e
        or "workflowExecutionUpdateAcceptedEventAttributes" in e
    ]
    model, tool = names.MODEL_STEP, names.TOOL_CALL
    assert kinds == [
        *(model, tool),  # the call needing confirmation: the run ends
        names.UPDATE_APPROVE,  # ADK's message, through the Runner
        *(tool, model),  # the approved tool, then the model
        *(tool, model),  # the long-running call: the model answers its intermediate result
        names.UPDATE_RESPOND,
        model,
    ]
    patches = [
        base64.b64decode(payload["data"]).decode()
        for e in events
        if e.get("markerRecordedEventAttributes", {}).get("markerName") == "core_patch"
        for payload in e["markerRecordedEventAttributes"]["details"]["patch-data"]["payloads"]
    ]
    assert [json.loads(p)["id"] for p in patches] == [names.PATCH_ADK_PAUSES]


@pytest.mark.parametrize("sandbox", ["off", "strict"])
async def test_the_committed_history_replays(sandbox):
    replayer = Replayer(
        workflows=list(WORKFLOWS),
        data_converter=data_converter,
        workflow_runner=workflow_runner(sandbox),
    )
    result = await replayer.replay_workflow(pauses_history())
    assert result.replay_failure is None


@pytest.mark.parametrize("sandbox", ["off", "strict"])
async def test_a_history_that_waited_inside_the_loop_still_replays(sandbox):
    """Recorded before PATCH_ADK_PAUSES (the same invocation as pauses.json, by the
    code of then: record_pauses.py's script on that commit): it waited inside the
    ReAct loop, with no model call between a call and its answer; it replays so."""
    path = HISTORY.with_name("waits_before_pauses.json")
    workflow_id = path.with_suffix(".workflow_id").read_text(encoding="utf-8").strip()
    history = WorkflowHistory.from_json(workflow_id, path.read_text(encoding="utf-8"))
    assert "core_patch" not in path.read_text(encoding="utf-8")
    replayer = Replayer(
        workflows=list(WORKFLOWS),
        data_converter=data_converter,
        workflow_runner=workflow_runner(sandbox),
    )
    result = await replayer.replay_workflow(history)
    assert result.replay_failure is None
