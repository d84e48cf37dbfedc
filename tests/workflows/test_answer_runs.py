"""Answers as google-adk 2.13 takes them, durable: each answer is a run of its own for the
plugins, and an answer for an ended invocation goes on while a newer one waits.

Runs on: process side (the tests' process; workers in it, on the session's local
Temporal, with `max_cached_workflows=0` so every task replays). The worker is stopped
while the invocation waits and a new one answers; nothing runs twice.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from temporalio.client import WorkflowExecutionStatus

from adk import Agent
from adk.apps import App, ResumabilityConfig
from adk.plugins.base_plugin import BasePlugin
from adk.runners import Runner
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from adk.tools import FunctionTool
from client import AgentClient
from workflows import names

from .helpers import call, confirmation_answer, eventually, simplify, user_text

USER = "u1"


class Observer(BasePlugin):
    """Notes the run hooks, with what the message or the context holds."""

    def __init__(self) -> None:
        super().__init__(name="observer")
        self.observed: list[tuple[str, str]] = []

    async def on_user_message_callback(self, *, invocation_context: Any, user_message: Any) -> None:
        part = user_message.parts[0]
        what = part.text or f"answer {part.function_response.name}"
        self.observed.append(("on_user_message", what))

    async def before_run_callback(self, *, invocation_context: Any) -> None:
        self.observed.append(("before_run", invocation_context.user_content.parts[0].text))

    async def after_run_callback(self, *, invocation_context: Any) -> None:
        self.observed.append(("after_run", invocation_context.agent.name))


def clerk(runs: list[int]) -> Agent:
    def pay(amount: int) -> dict:
        """Pays an amount."""
        runs.append(amount)
        return {"paid": amount}

    def reply(request: Any) -> Any:  # (MockModel: a reply chosen from the request)
        last = request.contents[-1].parts[-1]
        if last.text:  # a new message: pay what it says
            return call("pay", amount=int(last.text.split()[-1]))
        response = last.function_response
        return f"paid {response.response['paid']}" if "paid" in response.response else "refused"

    return Agent(
        name="clerk",
        model=MockModel.create([reply] * 8),
        tools=[FunctionTool(pay, require_confirmation=True)],
    )


def runner(env: Any, app: App, store: Any, queue: str) -> Runner:
    return Runner(
        app=app,
        session_service=store,
        temporal_client=env.client,
        task_queue=queue,
        auto_create_session=True,
        worker_options={"max_cached_workflows": 0},
    )


def request_of(events: list[Any]) -> str:
    return next(c.id for e in events for c in e.get_function_calls() if c.name != "pay")


@pytest.mark.parametrize("resumable", [False, True], ids=["default", "resumable"])
async def test_each_answer_is_a_run_for_the_plugins_across_a_worker_restart(
    temporal_env, resumable
):
    runs: list[int] = []
    observer = Observer()
    config = ResumabilityConfig(is_resumable=True) if resumable else None
    app = App(
        name="test_app", root_agent=clerk(runs), plugins=[observer], resumability_config=config
    )
    store, queue = InMemorySessionService(), f"answer-runs-{uuid.uuid4().hex[:8]}"
    session = f"answer-runs-{uuid.uuid4().hex[:8]}"
    first_runner = runner(temporal_env, app, store, queue)
    first = [
        e
        async for e in first_runner.run_async(
            user_id=USER, session_id=session, new_message=user_text("pay 70")
        )
    ]
    await first_runner.close()  # the worker is gone while the invocation waits
    async with runner(temporal_env, app, store, queue) as second_runner:
        second = [
            e
            async for e in second_runner.run_async(
                user_id=USER,
                session_id=session,
                new_message=confirmation_answer(request_of(first), True),
            )
        ]
    assert runs == [70]
    assert simplify(second)[-1] == ("clerk", "paid 70")
    assert observer.observed == [
        ("on_user_message", "pay 70"),
        ("before_run", "pay 70"),
        ("after_run", "clerk"),  # the first run ends where it waits
        ("on_user_message", "answer adk_request_confirmation"),
        ("before_run", "pay 70"),  # (the invocation's own message, as in 2.13)
        ("after_run", "clerk"),
    ]


@pytest.mark.parametrize("resumable", [False, True], ids=["default", "resumable"])
async def test_an_answer_for_an_ended_invocation_while_a_newer_one_waits(temporal_env, resumable):
    """google-adk 2.13: the answer goes on under its call's invocation; the newer
    invocation's call stays open, answered later under its own. Ours: the newer one's
    waiting workflow gives way to the answer's run, then waits for its call again
    (listed as waiting, answered by our reject), across a worker restart."""
    runs: list[int] = []
    config = ResumabilityConfig(is_resumable=True) if resumable else None
    app = App(name="test_app", root_agent=clerk(runs), resumability_config=config)
    store, queue = InMemorySessionService(), f"answer-runs-{uuid.uuid4().hex[:8]}"
    session = f"answer-runs-{uuid.uuid4().hex[:8]}"
    workflow_id = names.invocation_workflow_id("test_app", USER, session)
    async with runner(temporal_env, app, store, queue) as first_runner:
        first = [
            e
            async for e in first_runner.run_async(
                user_id=USER, session_id=session, new_message=user_text("pay 70")
            )
        ]
        second = [
            e
            async for e in first_runner.run_async(
                user_id=USER, session_id=session, new_message=user_text("pay 80")
            )
        ]
        waiting_run = (await temporal_env.client.get_workflow_handle(workflow_id).describe()).run_id
    # the worker is gone while the newer invocation waits
    async with runner(temporal_env, app, store, queue) as second_runner:
        third = [
            e
            async for e in second_runner.run_async(
                user_id=USER,
                session_id=session,
                new_message=confirmation_answer(request_of(first), True),
            )
        ]
        given_way = temporal_env.client.get_workflow_handle(workflow_id, run_id=waiting_run)
        assert (await given_way.describe()).status == WorkflowExecutionStatus.COMPLETED
    # the worker is gone again: the newer invocation waits again, durably (listed as
    # waiting, answerable by our protocol)
    async with runner(temporal_env, app, store, queue) as third_runner:
        await third_runner._ensure_started()  # (its worker starts with its first run otherwise)
        client = AgentClient(temporal_env.client, store, task_queue=queue)
        # (the invocation that waits again reaches its wait on this runner's new worker)

        async def waiting() -> Any:
            status = await client.status(workflow_id)
            return status if status.status == "waiting" else None

        status = await eventually(waiting, timeout=60)
        assert (status.invocation_id, status.status) == (second[0].invocation_id, "waiting")
        assert [r.id for r in status.pending] == [request_of(second)]
        described = await temporal_env.client.get_workflow_handle(workflow_id).describe()
        assert described.typed_search_attributes.get(names.SA_STATUS) == "waiting"
        said = await client.reject(workflow_id, request_of(second))
        assert "reject recorded" in said
        await temporal_env.client.get_workflow_handle(workflow_id).result()
    stored = await store.get_session(app_name="test_app", user_id=USER, session_id=session)
    assert stored is not None
    assert runs == [70]  # 80 was rejected
    assert {e.invocation_id for e in third} == {first[0].invocation_id}
    assert simplify(third)[-1] == ("clerk", "paid 70")
    newer = [e for e in stored.events if e.invocation_id == second[0].invocation_id]
    assert simplify(newer)[-2:] == [
        ("clerk", ("response", "pay", {"error": "This tool call is rejected."})),
        ("clerk", "refused"),
    ]


async def test_a_run_again_without_a_message_keeps_waiting_for_the_open_call(temporal_env):
    """Not resumable: google-adk 2.13's run_async(invocation_id=...) with no message runs
    the agent again while the invocation's confirmation is open (it stays open). Ours:
    the waiting workflow gives way to that run, then waits for the call again."""
    runs: list[int] = []
    app = App(name="test_app", root_agent=clerk(runs))
    store, queue = InMemorySessionService(), f"answer-runs-{uuid.uuid4().hex[:8]}"
    session = f"answer-runs-{uuid.uuid4().hex[:8]}"
    workflow_id = names.invocation_workflow_id("test_app", USER, session)
    async with runner(temporal_env, app, store, queue) as the_runner:
        first = [
            e
            async for e in the_runner.run_async(
                user_id=USER, session_id=session, new_message=user_text("pay 70")
            )
        ]
        invocation = first[0].invocation_id
        again = [
            e
            async for e in the_runner.run_async(
                user_id=USER, session_id=session, invocation_id=invocation
            )
        ]
        assert [(e.invocation_id, e.author) for e in again] == [(invocation, "clerk")]
        status = await AgentClient(temporal_env.client, store, task_queue=queue).status(workflow_id)
        assert (status.invocation_id, status.status) == (invocation, "waiting")
        assert [r.id for r in status.pending] == [request_of(first)]
        answered = [
            e
            async for e in the_runner.run_async(
                user_id=USER,
                session_id=session,
                new_message=confirmation_answer(request_of(first), True),
            )
        ]
    assert runs == [70]
    assert simplify(answered)[-1] == ("clerk", "paid 70")
