"""A transfer's target (a child workflow) that waits for answers, seen from the root.

Runs on: process side (the tests' process; workers in it, on the session's local
Temporal). The root lists every request of its tree; whether it is *awaited* decides
whether a client stream stops (the turn is over) and whether a new message ends the
wait (`adk_release`) or meets the app's busy policy. The differential case
`confirmation_transferred_two_answered_apart` checks the events against 2.13.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from temporalio.client import WorkflowFailureError, WorkflowUpdateFailedError

from adk import Agent
from adk.apps import App, ResumabilityConfig
from adk.events.event import Event
from adk.runners import Runner
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from adk.tools import FunctionTool, ToolContext
from client import AgentClient, SessionBusyError
from workflows import names
from workflows.contracts import SessionRef

from .helpers import call, confirmation_answer, simplify, user_text
from .test_adk_pauses import without_ids
from .test_human_in_the_loop import eventually

USER = "u1"


class SlowPay:
    """`pay`, which needs a confirmation; paying `slow_amount` waits for the test."""

    def __init__(self, slow_amount: int) -> None:
        self.slow_amount = slow_amount
        self.entered = asyncio.Event()
        self.release = asyncio.Event()
        self.paid: list[int] = []

    async def pay(self, amount: int, tool_context: ToolContext) -> dict:
        """Pays an amount."""
        if amount == self.slow_amount:
            self.entered.set()
            await asyncio.wait_for(self.release.wait(), timeout=30)
        self.paid.append(amount)
        return {"paid": amount}


def transferring_app(
    pay: SlowPay, clerk_replies: list[Any], resumable: bool = False, policy: str = "reject"
) -> App:
    clerk = Agent(
        name="clerk",
        description="Pays bills.",
        model=MockModel.create(clerk_replies),
        tools=[FunctionTool(pay.pay, require_confirmation=True)],
    )
    desk = Agent(
        name="desk",
        model=MockModel.create([call("transfer_to_agent", agent_name="clerk"), "Desk here."]),
        sub_agents=[clerk],
    )
    config = ResumabilityConfig(is_resumable=True) if resumable else None
    return App(
        name="transfer_waits_app",
        root_agent=desk,
        resumability_config=config,
        busy_policy=policy,  # type: ignore[arg-type]
    )


def after_payment(request: Any) -> str:
    """(MockModel picks a reply by the request's model turns: here by what was paid)"""
    paid = [
        p.function_response.response
        for c in request.contents
        for p in c.parts or []
        if p.function_response and p.function_response.name == "pay"
    ]
    if {"paid": 30} in paid:
        return "Paid 30 too."
    return "Paid 70; 30 still waits for your approval."


async def test_a_message_while_the_target_runs_again_is_queued_then_runs(temporal_env):
    """Busy policy `queue`: a message sent while the target runs again after one answer
    is held (the invocation does not wait then); when the target waits again for the
    other request, that wait ends and the message runs next, the request left open."""
    pay = SlowPay(slow_amount=70)

    def reply(request: Any) -> Any:
        texts = [p.text for c in request.contents for p in c.parts or [] if p.text]
        if texts[-1:] == ["hello"]:
            return "Hello again."
        return after_payment(request)

    replies = [[call("pay", amount=70), call("pay", amount=30)], *[reply] * 3]
    store = InMemorySessionService()
    session = f"twaits-{uuid.uuid4().hex[:8]}"
    workflow_id = names.invocation_workflow_id("transfer_waits_app", USER, session)
    app = transferring_app(pay, replies, policy="queue")
    async with new_runner(temporal_env, app, store) as runner:
        first = await collect(runner, session, user_text("pay 70 and 30"))
        seventy, thirty = confirmation_for(first, 70), confirmation_for(first, 30)
        answering = asyncio.create_task(
            collect(runner, session, confirmation_answer(seventy, True))
        )
        await asyncio.wait_for(pay.entered.wait(), 20)
        queued = asyncio.create_task(collect(runner, session, user_text("hello")))
        await asyncio.sleep(1.0)  # (held by the running invocation)
        pay.release.set()
        second = await asyncio.wait_for(answering, 30)
        said = await asyncio.wait_for(queued, 30)
        assert simplify(said)[-1] == ("clerk", "Hello again.")
        await temporal_env.client.get_workflow_handle(workflow_id).result()
        stored = await store.get_session(
            app_name="transfer_waits_app", user_id=USER, session_id=session
        )
    assert stored is not None
    assert without_ids(simplify(second))[:2] == [
        ("clerk", ("response", "pay", {"paid": 70})),
        ("clerk", "Paid 70; 30 still waits for your approval."),
    ]
    assert pay.paid == [70]
    assert thirty not in {r.id for e in stored.events for r in e.get_function_responses()}


def new_runner(env: Any, app: App, store: Any) -> Runner:
    return Runner(
        app=app,
        session_service=store,
        temporal_client=env.client,
        task_queue=f"twaits-{uuid.uuid4().hex[:8]}",
        auto_create_session=True,
        worker_options={"max_cached_workflows": 1},  # the tree's runs evict each other
    )


async def collect(runner: Runner, session: str, message: Any, **options: Any) -> list[Event]:
    return [
        e
        async for e in runner.run_async(
            user_id=USER, session_id=session, new_message=message, **options
        )
    ]


def confirmation_for(events: list[Event], amount: int) -> str:
    return next(
        c.id or ""
        for e in events
        for c in e.get_function_calls()
        if c.name == "adk_request_confirmation"
        and c.args
        and c.args["originalFunctionCall"]["args"]["amount"] == amount
    )


@pytest.mark.parametrize("resumable", [False, True], ids=["default", "resumable"])
async def test_a_target_running_again_after_one_answer_is_not_waiting(temporal_env, resumable):
    """Two confirmations in the target; one approved: while the target runs again the
    other is listed, not awaited, so a new message meets the busy policy (no release)
    and the answer's stream goes on until the target waits again (resumable: pauses
    again after the approved tool, with no model call, as 2.13 does)."""
    pay = SlowPay(slow_amount=70)
    replies = [[call("pay", amount=70), call("pay", amount=30)], *[after_payment] * 3]
    store = InMemorySessionService()
    session = f"twaits-{uuid.uuid4().hex[:8]}"
    workflow_id = names.invocation_workflow_id("transfer_waits_app", USER, session)
    app = transferring_app(pay, replies, resumable)
    async with new_runner(temporal_env, app, store) as runner:
        client = AgentClient(temporal_env.client, store, task_queue=runner.task_queue)
        first = await collect(runner, session, user_text("pay 70 and 30"))
        seventy, thirty = confirmation_for(first, 70), confirmation_for(first, 30)
        status = await client.status(workflow_id)
        assert {(r.id, r.awaited) for r in status.pending} == {(seventy, True), (thirty, True)}

        options = {"invocation_id": first[0].invocation_id} if resumable else {}
        answering = asyncio.create_task(
            collect(runner, session, confirmation_answer(seventy, True), **options)
        )
        await asyncio.wait_for(pay.entered.wait(), 20)  # the target runs again
        status = await client.status(workflow_id)
        assert [(r.id, r.awaited) for r in status.pending] == [(thirty, False)]
        with pytest.raises(SessionBusyError):  # not a release: the busy policy (reject)
            await collect(runner, session, user_text("what is my balance?"))
        assert not answering.done()  # its stream goes on: the invocation does not wait
        pay.release.set()
        second = await asyncio.wait_for(answering, 30)
        assert without_ids(simplify(second)) == [
            ("clerk", ("response", "pay", {"paid": 70})),
            *([] if resumable else [("clerk", "Paid 70; 30 still waits for your approval.")]),
        ]

        async def awaited_again() -> bool:
            pending = (await client.status(workflow_id)).pending
            return [(r.id, r.awaited) for r in pending] == [(thirty, True)]

        assert await eventually(awaited_again)
        third = await collect(runner, session, confirmation_answer(thirty, True), **options)
        assert without_ids(simplify(third)) == [
            ("clerk", ("response", "pay", {"paid": 30})),
            ("clerk", "Paid 30 too."),
        ]
        await temporal_env.client.get_workflow_handle(workflow_id).result()
        stored = await store.get_session(
            app_name="transfer_waits_app", user_id=USER, session_id=session
        )
    assert stored is not None
    assert pay.paid == [70, 30]
    assert len({e.invocation_id for e in stored.events}) == 1  # no message got in between


async def test_a_release_whose_waiting_target_ended_meanwhile_is_refused(temporal_env):
    """The root lists the target's request as awaited, but the target's run has ended by
    the time the release reaches the root (here: terminated while no worker ran, so the
    root learns it in the same workflow task as the release): the release is refused,
    the root is not marked released, and it goes on with what its child's end says."""
    pay = SlowPay(slow_amount=0)
    replies = [call("pay", amount=70), after_payment]
    store = InMemorySessionService()
    session = f"twaits-{uuid.uuid4().hex[:8]}"
    workflow_id = names.invocation_workflow_id("transfer_waits_app", USER, session)
    ref = SessionRef(app_name="transfer_waits_app", user_id=USER, session_id=session)
    app = transferring_app(pay, replies)
    runner = new_runner(temporal_env, app, store)
    queue = runner.task_queue
    await collect(runner, session, user_text("pay 70"))
    client = AgentClient(temporal_env.client, store, task_queue=queue)
    [request] = (await client.status(workflow_id)).pending
    assert request.awaited and request.owner_workflow_id != workflow_id  # the target waits
    await runner.close()  # no worker: the root learns of the end with the release
    target = temporal_env.client.get_workflow_handle(request.owner_workflow_id)
    await target.terminate("gone")
    root = temporal_env.client.get_workflow_handle(workflow_id)
    release = asyncio.create_task(root.execute_update(names.UPDATE_RELEASE, ref, result_type=str))
    await asyncio.sleep(1.0)  # (admitted: delivered with the root's next task)
    async with Runner(
        app=app,
        session_service=store,
        temporal_client=temporal_env.client,
        task_queue=queue,
        worker_options={"max_cached_workflows": 1},
    ) as restarted:
        await restarted._ensure_started()
        with pytest.raises(WorkflowUpdateFailedError) as refused:
            await asyncio.wait_for(release, 30)
        assert "ended meanwhile; nothing to release" in str(refused.value.cause)
        with pytest.raises(WorkflowFailureError) as failed:  # not ended as released
            await root.result()
        assert "Agent clerk failed" in str(failed.value.cause)
    assert pay.paid == []


async def test_a_message_queued_while_the_target_ran_goes_next_once_it_waits(temporal_env):
    """Busy policy `queue`: a message sent while the transfer's target runs is held; when
    the target then waits for an answer, its wait ends (as the root's own would) and
    the message runs next, the confirmation staying open."""
    entered, release = asyncio.Event(), asyncio.Event()

    async def check(amount: int) -> dict:
        """Checks the balance."""
        entered.set()
        await asyncio.wait_for(release.wait(), timeout=30)
        return {"ok": True}

    def pay(amount: int) -> dict:
        """Pays an amount."""
        return {"paid": amount}

    def reply(request: Any) -> Any:
        parts = [p for c in request.contents for p in c.parts or []]
        if [p.text for p in parts if p.text][-1:] == ["hello"]:
            return "Hello again."
        if any(p.function_response and p.function_response.name == "check" for p in parts):
            return call("pay", amount=70)
        return call("check", amount=70)

    clerk = Agent(
        name="clerk",
        description="Pays bills.",
        model=MockModel.create([reply] * 4),
        tools=[check, FunctionTool(pay, require_confirmation=True)],
    )
    desk = Agent(
        name="desk",
        model=MockModel.create([call("transfer_to_agent", agent_name="clerk")]),
        sub_agents=[clerk],
    )
    app = App(name="transfer_waits_app", root_agent=desk, busy_policy="queue")
    store = InMemorySessionService()
    session = f"twaits-{uuid.uuid4().hex[:8]}"
    workflow_id = names.invocation_workflow_id("transfer_waits_app", USER, session)
    async with new_runner(temporal_env, app, store) as runner:
        first = asyncio.create_task(collect(runner, session, user_text("pay 70")))
        await asyncio.wait_for(entered.wait(), 20)
        second = asyncio.create_task(collect(runner, session, user_text("hello")))
        await asyncio.sleep(1.0)  # (held by the running invocation)
        release.set()
        asked = await asyncio.wait_for(first, 30)
        said = await asyncio.wait_for(second, 30)
        assert simplify(said)[-1] == ("clerk", "Hello again.")
        await temporal_env.client.get_workflow_handle(workflow_id).result()
        stored = await store.get_session(
            app_name="transfer_waits_app", user_id=USER, session_id=session
        )
    assert stored is not None
    assert "adk_request_confirmation" in [c.name for e in asked for c in e.get_function_calls()]
    assert len({e.invocation_id for e in stored.events}) == 2
