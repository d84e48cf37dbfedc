"""A newer invocation that waits gives way to a run of an older one, then waits again.

Runs on: process side (the tests' process; workers in it, on the session's local
Temporal). google-adk 2.13 leaves a newer invocation's calls open while an older
invocation runs again (an answer for its call, or `run_async(invocation_id=...)`
with no message); ours makes the newer one's waiting workflow give way to that run,
then wait for its calls again (InvocationInput.then_wait), whether the run ends,
or a newer message interrupts it (busy policy `interrupt`).
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from adk import Agent
from adk.apps import App
from adk.runners import Runner
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from adk.tools import FunctionTool
from client import AgentClient
from workflows import names

from .helpers import call, confirmation_answer, simplify, user_text
from .test_answer_runs import clerk, request_of
from .test_human_in_the_loop import eventually

USER = "u1"


def new_runner(env: Any, app: App, store: Any) -> Runner:
    return Runner(
        app=app,
        session_service=store,
        temporal_client=env.client,
        task_queue=f"rewaits-{uuid.uuid4().hex[:8]}",
        auto_create_session=True,
        worker_options={"max_cached_workflows": 0},
    )


async def collect(runner: Runner, session: str, message: Any, **options: Any) -> list[Any]:
    return [
        e
        async for e in runner.run_async(
            user_id=USER, session_id=session, new_message=message, **options
        )
    ]


async def waits_for(client: AgentClient, workflow_id: str, invocation: str, request: str) -> bool:
    status = await client.status(workflow_id)
    return (status.invocation_id, status.status, [r.id for r in status.pending]) == (
        invocation,
        "waiting",
        [request],
    )


async def test_a_run_again_of_an_older_invocation_lets_the_newer_one_wait_again(temporal_env):
    """run_async(invocation_id=older) with no message while a newer invocation waits:
    as an answer for the older one's call does, the newer one waits again after it."""
    runs: list[int] = []
    app = App(name="rewait_app", root_agent=clerk(runs))
    store = InMemorySessionService()
    session = f"rewaits-{uuid.uuid4().hex[:8]}"
    workflow_id = names.invocation_workflow_id("rewait_app", USER, session)
    async with new_runner(temporal_env, app, store) as runner:
        client = AgentClient(temporal_env.client, store, task_queue=runner.task_queue)
        first = await collect(runner, session, user_text("pay 70"))
        second = await collect(runner, session, user_text("pay 80"))  # the first gives way
        older, newer = first[0].invocation_id, second[0].invocation_id
        again = await collect(runner, session, None, invocation_id=older)
        assert {e.invocation_id for e in again} == {older}
        assert await eventually(lambda: waits_for(client, workflow_id, newer, request_of(second)))
        await client.approve(workflow_id, request_of(second))
        await temporal_env.client.get_workflow_handle(workflow_id).result()
    assert runs == [80]


async def test_an_interrupted_answer_run_still_lets_the_newer_one_wait_again(temporal_env):
    """Busy policy `interrupt`: the answer's run for an older invocation (a newer one gave
    way to it) is interrupted by a message; that message runs, then the newer
    invocation waits for its call again."""
    entered, release = asyncio.Event(), asyncio.Event()
    runs: list[int] = []

    async def pay(amount: int) -> dict:
        """Pays an amount."""
        if amount == 70:
            entered.set()
            await asyncio.wait_for(release.wait(), timeout=30)
        runs.append(amount)
        return {"paid": amount}

    def reply(request: Any) -> Any:
        last = request.contents[-1].parts[-1]
        if last.text and last.text.startswith("pay"):
            return call("pay", amount=int(last.text.split()[-1]))
        return "hello" if last.text else "paid"

    agent = Agent(
        name="clerk",
        model=MockModel.create([reply] * 8),
        tools=[FunctionTool(pay, require_confirmation=True)],
    )
    app = App(name="rewait_app", root_agent=agent, busy_policy="interrupt")
    store = InMemorySessionService()
    session = f"rewaits-{uuid.uuid4().hex[:8]}"
    workflow_id = names.invocation_workflow_id("rewait_app", USER, session)
    async with new_runner(temporal_env, app, store) as runner:
        client = AgentClient(temporal_env.client, store, task_queue=runner.task_queue)
        first = await collect(runner, session, user_text("pay 70"))
        second = await collect(runner, session, user_text("pay 80"))
        newer = second[0].invocation_id
        answering = asyncio.create_task(
            collect(runner, session, confirmation_answer(request_of(first), True))
        )
        await asyncio.wait_for(entered.wait(), 20)  # the answer's run: its approved tool
        interrupting = asyncio.create_task(collect(runner, session, user_text("hi")))
        await asyncio.sleep(1.0)  # (the message reaches the running workflow)
        release.set()
        said = await asyncio.wait_for(interrupting, 30)
        assert simplify(said)[-1] == ("clerk", "hello")
        try:
            await asyncio.wait_for(answering, 30)
        except Exception:  # noqa: BLE001 - (interrupted: InvocationInterruptedError)
            pass
        assert await eventually(lambda: waits_for(client, workflow_id, newer, request_of(second)))
        await client.approve(workflow_id, request_of(second))
        await temporal_env.client.get_workflow_handle(workflow_id).result()
    assert runs == [70, 80]
