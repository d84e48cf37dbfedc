"""Human in the loop on a real local Temporal: confirmations and long-running results.

An invocation that needs a human records ADK's events, then waits durably;
answers arrive as validated updates (or signals) on the ROOT workflow, which
forwards those meant for a child agent run.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from google.genai import types
from temporalio.client import WorkflowExecutionStatus, WorkflowHandle

from adk import Agent, ParallelAgent
from adk.events.event import Event
from adk.runners import Runner
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from adk.tools import AgentTool, FunctionTool, LongRunningFunctionTool, ToolContext
from client import AgentClient, AnswerRejectedError, Invocation
from client._render import request_lines
from workflows import names
from workflows._ui import pending_markdown
from workflows.contracts import HumanAnswer, PendingRequest

from .helpers import call, confirmation_answer, eventually, runner_for, simplify, turn

USER = "u1"
PENDING = "This tool call requires confirmation, please approve or reject."


# ── helpers ──────────────────────────────────────────────────────────────────


async def start(runner: Runner, text: str) -> tuple[AgentClient, Invocation]:
    """Start an invocation in a fresh session without waiting for it."""
    temporal = await runner._ensure_started()
    client = AgentClient(temporal, runner.session_service, task_queue=runner.task_queue)
    invocation = await client.start(
        app_name="test_app",
        user_id=USER,
        session_id=f"hitl-{uuid.uuid4().hex[:10]}",
        new_message=text,
    )
    assert invocation.workflow_id == names.invocation_workflow_id(
        "test_app", USER, invocation.session.session_id
    )
    return client, invocation


async def waiting_for(client: AgentClient, invocation: Invocation, count: int = 1):
    """The root's pending requests, once `count` are listed and AdkStatus is waiting."""

    async def check() -> list[PendingRequest] | None:
        pending = (await client.status(invocation.workflow_id)).pending
        if len(pending) >= count and await adk_status(invocation.handle) == "waiting":
            return pending
        return None

    return await eventually(check)


async def adk_status(handle: WorkflowHandle) -> str | None:
    return (await handle.describe()).typed_search_attributes.get(names.SA_STATUS)


async def recorded(runner: Runner, invocation: Invocation) -> list[Event]:
    """The invocation's events persisted so far."""
    ref = invocation.session
    rows = await runner.session_service.list_events(
        app_name=ref.app_name,
        user_id=ref.user_id,
        session_id=ref.session_id,
        invocation_id=invocation.invocation_id,
    )
    return [event for _, event in rows]


async def finish(runner: Runner, invocation: Invocation) -> list[Event]:
    """Wait for the invocation; its events, with AdkStatus checked to be unset again."""
    await invocation.handle.result()
    assert await eventually(lambda: _is(adk_status(invocation.handle), None))
    return await recorded(runner, invocation)


async def _is(value: Awaitable[Any], expected: Any) -> bool:
    return await value == expected


async def settled_history(handle: WorkflowHandle) -> int:
    """History length once the workflow is idle (nothing scheduled, nothing running)."""

    async def check() -> int | None:
        first = await handle.fetch_history()
        raw = (await handle.describe()).raw_description
        await asyncio.sleep(0.1)
        second = await handle.fetch_history()
        busy = raw.pending_activities or raw.HasField("pending_workflow_task")
        return len(second.events) if not busy and len(first.events) == len(second.events) else None

    return await eventually(check)


def responses(events: list[Event]) -> list[tuple[str, types.FunctionResponse]]:
    return [
        (e.author, p.function_response)
        for e in events
        for p in (e.content.parts if e.content else None) or []
        if p.function_response
    ]


def bank_agent(runs: list[Any], *, require: Any = True, replies: list[Any] | None = None) -> Agent:
    """An agent whose `transfer` tool needs confirmation; `runs` records each real run."""

    def transfer(amount: int, to: str, tool_context: ToolContext) -> dict:
        confirmation = tool_context.tool_confirmation
        runs.append((confirmation.confirmed, confirmation.payload) if confirmation else None)
        return {"sent": amount, "to": to}

    model = MockModel.create(replies or [call("transfer", amount=500, to="bob"), "Done."])
    return Agent(
        name="bank", model=model, tools=[FunctionTool(transfer, require_confirmation=require)]
    )


def replies(intermediate: dict[str, Any], to_it: str, to_the_rest: str) -> Callable[..., str]:
    """One scripted reply answering a tool's intermediate result (`to_it`) or, once the
    final result came, `to_the_rest`. (MockModel picks replies by the model turns in the
    request: with the final result last, 2.13's contents leave out what came between the
    call and it, so both requests hold the same turns.)"""

    def reply(request: Any) -> str:
        last = request.contents[-1].parts[-1].function_response
        return to_it if last is not None and last.response == intermediate else to_the_rest

    return reply


# ── 1-4: confirmations ───────────────────────────────────────────────────────


async def test_require_confirmation_waits_then_runs_the_approved_tool_once(temporal_env):
    runs: list[Any] = []
    agent = bank_agent(runs)
    async with runner_for(temporal_env, agent) as runner:
        client, invocation = await start(runner, "send 500 to bob")
        [request] = await waiting_for(client, invocation)
        so_far = await recorded(runner, invocation)
        assert runs == []  # the tool body has not run
        model_call, asking, pending = so_far[1:]
        assert simplify(so_far)[:2] == [
            ("user", "send 500 to bob"),
            ("bank", ("call", "transfer", {"amount": 500, "to": "bob"})),
        ]
        original = model_call.get_function_calls()[0]
        [ask] = asking.get_function_calls()
        assert (asking.author, asking.content.role) == ("bank", "model")
        assert ask.name == "adk_request_confirmation" and asking.long_running_tool_ids == {ask.id}
        assert ask.args["originalFunctionCall"] == {
            "id": original.id,
            "name": "transfer",
            "args": {"amount": 500, "to": "bob"},
        }
        assert ask.args["toolConfirmation"]["confirmed"] is False
        assert "transfer()" in ask.args["toolConfirmation"]["hint"]
        assert simplify([pending]) == [("bank", ("response", "transfer", {"error": PENDING}))]
        assert pending.get_function_responses()[0].id == original.id
        # what the status query lists
        assert (request.id, request.kind, request.call_id) == (ask.id, "confirmation", original.id)
        assert (request.tool, request.args) == ("transfer", {"amount": 500, "to": "bob"})
        assert request.hint == ask.args["toolConfirmation"]["hint"]
        assert (request.agent, request.branch, request.answered) == ("bank", None, False)
        assert request.since == pytest.approx(asking.timestamp)
        assert request.owner_workflow_id == invocation.workflow_id

        # (it asked for no payload: an approval with one is refused, see test_ids_and_answers)
        message = await client.approve(invocation.workflow_id, request.id)
        assert "approve recorded for transfer" in message
        events = await finish(runner, invocation)
    assert runs == [(True, None)]
    assert simplify(events[4:]) == [
        (
            "user",
            (
                "response",
                "adk_request_confirmation",
                {"confirmed": True},
            ),
        ),
        ("bank", ("response", "transfer", {"sent": 500, "to": "bob"})),
        ("bank", "Done."),
    ]
    assert events[4].get_function_responses()[0].id == request.id
    assert events[5].get_function_responses()[0].id == original.id


async def test_reject_returns_adks_rejection_and_the_loop_goes_on(temporal_env):
    runs: list[Any] = []
    replies = [call("transfer", amount=9, to="eve"), "Cancelled as you asked."]
    async with runner_for(temporal_env, bank_agent(runs, replies=replies)) as runner:
        client, invocation = await start(runner, "send 9 to eve")
        [request] = await waiting_for(client, invocation)
        await client.reject(invocation.workflow_id, request.id)
        events = await finish(runner, invocation)
    assert runs == []
    assert simplify(events)[-2:] == [
        ("bank", ("response", "transfer", {"error": "This tool call is rejected."})),
        ("bank", "Cancelled as you asked."),
    ]


async def test_callable_require_confirmation_only_asks_above_the_threshold(temporal_env):
    runs: list[Any] = []
    seen: list[tuple[int, str, bool]] = []

    def above_100(amount: int, to: str, tool_context: ToolContext) -> bool:
        seen.append((amount, to, isinstance(tool_context, ToolContext)))
        return amount > 100

    def script(amount: int) -> list[Any]:
        return [call("transfer", amount=amount, to="bob"), "Done."]

    small = bank_agent(runs, require=above_100, replies=script(50))
    async with runner_for(temporal_env, small) as runner:
        events = await turn(runner, "send 50", session=f"hitl-{uuid.uuid4().hex[:8]}")
    assert runs == [None] and seen == [(50, "bob", True)]  # no confirmation asked
    assert simplify(events)[-1] == ("bank", "Done.")

    big = bank_agent(runs, require=above_100, replies=script(5000))
    async with runner_for(temporal_env, big) as runner:
        client, invocation = await start(runner, "send 5000")
        [request] = await waiting_for(client, invocation)
        assert request.args == {"amount": 5000, "to": "bob"} and runs == [None]
        await client.approve(invocation.workflow_id, request.id)
        await finish(runner, invocation)
    assert runs == [None, (True, None)]
    # asked again on the approved re-run: the function's own kwargs each time
    assert seen[1:] == [(5000, "bob", True), (5000, "bob", True)]


def leave_agent(
    runs: list[Any],
    extra_tools: list[Any] | None = None,
    first: Any = None,
    more: tuple[Any, ...] = (),
) -> Agent:
    """`book_leave` asks for confirmation itself, with a payload the approver fills in.
    Its result ("waiting for the manager") is not final: the model answers it (2.13)."""

    def book_leave(days: int, tool_context: ToolContext) -> dict:
        confirmation = tool_context.tool_confirmation
        runs.append(confirmation.payload if confirmation else None)
        if confirmation is None:
            tool_context.request_confirmation(
                hint="Approve the leave?", payload={"approved_days": 0, "comment": ""}
            )
            return {"status": "waiting for the manager"}
        return {"status": "booked", "days": confirmation.payload["approved_days"]}

    asked = replies({"status": "waiting for the manager"}, "I asked your manager.", "Booked.")
    script = [first or call("book_leave", days=5), asked, *more]
    return Agent(
        name="hr", model=MockModel.create(script), tools=[book_leave, *(extra_tools or [])]
    )


async def test_request_confirmation_from_a_tool_carries_hint_and_payload(temporal_env):
    runs: list[Any] = []
    async with runner_for(temporal_env, leave_agent(runs)) as runner:
        client, invocation = await start(runner, "5 days off please")
        [request] = await waiting_for(client, invocation)
        assert (request.hint, request.payload) == (
            "Approve the leave?",
            {"approved_days": 0, "comment": ""},
        )
        assert runs == [None]
        await client.approve(invocation.workflow_id, request.id, {"approved_days": 3})
        events = await finish(runner, invocation)
    assert runs == [None, {"approved_days": 3}]
    assert simplify(events)[2:] == [
        ("hr", ("call", "adk_request_confirmation", events[2].get_function_calls()[0].args)),
        ("hr", ("response", "book_leave", {"status": "waiting for the manager"})),
        ("hr", "I asked your manager."),
        (
            "user",
            (
                "response",
                "adk_request_confirmation",
                {"confirmed": True, "payload": {"approved_days": 3}},
            ),
        ),
        ("hr", ("response", "book_leave", {"status": "booked", "days": 3})),
        ("hr", "Booked."),
    ]


# ── 5: validation ────────────────────────────────────────────────────────────


def order_laptop(model: str) -> dict:
    """Orders a laptop; IT answers later."""
    return {"status": "ordered", "model": model}


async def test_invalid_answers_are_rejected_and_nothing_is_written(temporal_env):
    runs: list[Any] = []
    both = [call("book_leave", days=2), call("order_laptop", model="x1")]
    agent = leave_agent(runs, [LongRunningFunctionTool(order_laptop)], first=both, more=("Ok.",))
    async with runner_for(temporal_env, agent) as runner:
        client, invocation = await start(runner, "leave and a laptop")
        pending = await waiting_for(client, invocation, 2)
        confirm = next(r for r in pending if r.kind == "confirmation")
        laptop = next(r for r in pending if r.kind == "long_running")
        wid, handle = invocation.workflow_id, invocation.handle

        async def refused(answer: Awaitable[str], why: str) -> None:
            before = await settled_history(handle)
            with pytest.raises(AnswerRejectedError, match=why):
                await answer
            assert await settled_history(handle) == before

        await refused(client.approve(wid, "adk-nope"), "No pending request 'adk-nope'")
        await refused(client.approve(wid, laptop.id), "answer it with respond")
        await refused(client.respond(wid, confirm.id, {"ok": 1}), "answer it with approve")
        await refused(client.approve(wid, confirm.id, [3]), "must be a dict")
        await refused(client.approve(wid, confirm.id, {"days": 3}), r"unknown keys \['days'\]")
        await refused(client.respond(wid, laptop.id, [1, 2, 3]), "must be a JSON object")
        await refused(client.progress(wid, laptop.id, "half"), "must be a JSON object")
        await client.approve(wid, confirm.id, {"approved_days": 2})
        await refused(client.approve(wid, confirm.id), "already answered")
        await refused(client.reject(wid, confirm.id), "already answered")
        assert [r.id for r in (await client.status(wid)).pending] == [laptop.id]
        await client.respond(wid, laptop.id, {"status": "delivered"})
        await finish(runner, invocation)
        # ended: the answer would be the next message, but this call has its answer
        await refused(client.respond(wid, laptop.id, {"again": True}), "already answered")
    assert runs == [None, {"approved_days": 2}]


# ── 6-8: long-running tools ─────────────────────────────────────────────────


async def test_long_running_tool_progress_then_the_final_result(temporal_env):
    """google-adk 2.13: the model answers the tool's intermediate result in the same
    invocation; the invocation then waits (durably) for the final result, which runs the
    agent again as ADK's FunctionResponse message does."""
    ordered = {"status": "ordered", "model": "x1"}
    model = MockModel.create(
        [
            call("order_laptop", model="x1"),
            replies(ordered, "Your laptop is ordered.", "Your laptop arrived."),
        ]
    )
    agent = Agent(name="it", model=model, tools=[LongRunningFunctionTool(order_laptop)])
    async with runner_for(temporal_env, agent) as runner:
        client, invocation = await start(runner, "I need a laptop")
        [request] = await waiting_for(client, invocation)
        so_far = await eventually(lambda: _grown(runner, invocation, 4))
        call_id = so_far[1].get_function_calls()[0].id
        assert so_far[1].long_running_tool_ids == {call_id}
        assert (request.id, request.kind, request.tool) == (call_id, "long_running", "order_laptop")
        assert simplify(so_far[2:]) == [
            ("it", ("response", "order_laptop", {"status": "ordered", "model": "x1"})),
            ("it", "Your laptop is ordered."),
        ]
        wid = invocation.workflow_id
        await eventually(lambda: _awaited(client, wid))

        await client.progress(wid, request.id, {"status": "shipped"})
        events = await eventually(lambda: _grown(runner, invocation, 5))
        assert simplify(events[4:]) == [("it", ("response", "order_laptop", {"status": "shipped"}))]
        assert [r.id for r in (await client.status(wid)).pending] == [request.id]
        assert await adk_status(invocation.handle) == "waiting"
        assert len(model.requests) == 2

        await client.respond(wid, request.id, {"status": "delivered"})
        events = await finish(runner, invocation)
    [(author, final)] = responses(events[5:6])
    assert (author, final.id, final.name, final.response) == (
        "user",
        call_id,
        "order_laptop",
        {"status": "delivered"},
    )
    assert simplify(events[6:]) == [("it", "Your laptop arrived.")]
    seen = model.requests[2].contents[-1].parts[-1].function_response  # adk- ids stripped
    assert (seen.name, seen.response) == ("order_laptop", {"status": "delivered"})


async def _awaited(client: AgentClient, workflow_id: str) -> bool:
    return any(r.awaited for r in (await client.status(workflow_id)).pending)


async def _grown(runner: Runner, invocation: Invocation, count: int) -> list[Event] | None:
    events = await recorded(runner, invocation)
    return events if len(events) >= count else None


def order_later(model: str) -> None:
    """Orders a laptop; IT answers later (nothing to say yet)."""
    return None


async def test_resumable_app_pauses_until_both_calls_are_answered(temporal_env):
    """A resumable app pauses at calls with no response yet; answered in reverse order,
    the first answer is recorded and the invocation stays paused (no model call), as
    google-adk 2.13's resumed run pauses again; the second runs the agent on."""
    model = MockModel.create(
        [[call("order_later", model="a"), call("order_later", model="b")], "Both arrived."]
    )
    agent = Agent(name="it", model=model, tools=[LongRunningFunctionTool(order_later)])
    async with runner_for(temporal_env, agent, resumable=True) as runner:
        client, invocation = await start(runner, "two laptops")
        first, second = await waiting_for(client, invocation, 2)
        assert [first.args, second.args] == [{"model": "a"}, {"model": "b"}]
        wid = invocation.workflow_id
        await eventually(lambda: _awaited(client, wid))
        await client.respond(wid, second.id, {"status": "b delivered"})

        async def second_persisted() -> bool:
            return any(
                a == "user" and r.id == second.id
                for a, r in responses(await recorded(runner, invocation))
            )

        await eventually(second_persisted)
        assert [r.id for r in (await client.status(wid)).pending] == [first.id]
        assert len(model.requests) == 1  # still paused on the first
        await client.respond(wid, first.id, {"status": "a delivered"})
        events = await finish(runner, invocation)
    answers = [(r.id, r.response) for a, r in responses(events) if a == "user"]
    assert answers == [
        (second.id, {"status": "b delivered"}),
        (first.id, {"status": "a delivered"}),
    ]
    assert len(model.requests) == 2
    seen = [
        p.function_response.response
        for c in model.requests[1].contents
        for p in c.parts or []
        if p.function_response
    ]
    assert {"status": "a delivered"} in seen and {"status": "b delivered"} in seen
    assert simplify(events)[-1] == ("it", "Both arrived.")
    assert events[-1].actions.end_of_agent is True  # (no content: simplify skips it)


async def test_deadline_turns_an_unanswered_call_into_an_error_result(temporal_env):
    tool = LongRunningFunctionTool(order_laptop, deadline=timedelta(seconds=1))
    ordered = {"status": "ordered", "model": "x1"}
    model = MockModel.create(
        [
            call("order_laptop", model="x1"),
            replies(ordered, "Ordered.", "IT did not answer in time."),
        ]
    )
    agent = Agent(name="it", model=model, tools=[tool])
    async with runner_for(temporal_env, agent) as runner:
        _, invocation = await start(runner, "laptop")
        await invocation.handle.result()  # nobody answers: the deadline moves it on
        events = await recorded(runner, invocation)
    call_id = events[1].get_function_calls()[0].id
    author, expired = responses(events)[-1]
    assert (author, expired.id, expired.name) == ("it", call_id, "order_laptop")
    assert "No result for order_laptop()" in expired.response["error"]
    assert "0:00:01" in expired.response["error"]
    assert model.requests[2].contents[-1].parts[-1].function_response.response == expired.response
    assert simplify(events)[-1] == ("it", "IT did not answer in time.")


# ── 9-10: requests of child workflows, answered at the root ─────────────────


async def test_confirmation_in_a_transferred_sub_agent(temporal_env):
    runs: list[Any] = []
    teller = bank_agent(runs)
    root_model = MockModel.create([call("transfer_to_agent", agent_name="bank")])
    root = Agent(name="front", model=root_model, sub_agents=[teller])
    async with runner_for(temporal_env, root) as runner:
        client, invocation = await start(runner, "pay bob")
        [request] = await waiting_for(client, invocation)
        assert request.agent == "bank" and request.owner_workflow_id != invocation.workflow_id
        await client.approve(invocation.workflow_id, request.id)
        events = await finish(runner, invocation)
    assert runs == [(True, None)]
    assert simplify(events)[-1] == ("bank", "Done.")


async def test_confirmation_in_a_parallel_branch_while_the_other_completes(temporal_env):
    runs: list[Any] = []
    greeter = Agent(name="greeter", model=MockModel.create(["Hello!"]))
    root = ParallelAgent(name="both", sub_agents=[bank_agent(runs), greeter])
    async with runner_for(temporal_env, root) as runner:
        client, invocation = await start(runner, "go")
        [request] = await waiting_for(client, invocation)
        assert (request.agent, request.branch) == ("bank", "both.bank")

        async def greeted() -> bool:
            return ("greeter", "Hello!") in simplify(await recorded(runner, invocation))

        await eventually(greeted)  # the other branch finished while this one waits
        assert runs == []
        await client.approve(invocation.workflow_id, request.id)
        events = await finish(runner, invocation)
    assert runs == [(True, None)]
    said = simplify(events)
    assert said.index(("greeter", "Hello!")) < next(
        i for i, (author, _) in enumerate(said) if author == "user" and i > 0
    )
    assert said[-1] == ("bank", "Done.")
    assert {e.branch for e in events if e.author == "bank"} == {"both.bank"}


async def test_confirmation_inside_an_agent_tool(temporal_env):
    """google-adk 2.13 runs an AgentTool's agent in a Runner of its own that nobody
    resumes: the request stays open, nothing waits, and the caller gets an error result
    (differential case confirmation_in_agent_tool)."""
    runs: list[Any] = []
    helper = bank_agent(runs, replies=[call("transfer", amount=5, to="ann"), "Paid 5."])
    root_model = MockModel.create([call("bank", request="pay ann 5"), "Could not pay."])
    root = Agent(name="root", model=root_model, tools=[AgentTool(helper)])
    async with runner_for(temporal_env, root) as runner:
        client, invocation = await start(runner, "pay ann")
        events = await finish(runner, invocation)
        status = await client.status(invocation.workflow_id)
    assert runs == []
    assert status.pending == []
    (author, (kind, tool, response)), last = simplify(events)[-2:]
    assert (author, kind, tool, last) == ("root", "response", "bank", ("root", "Could not pay."))
    assert response["result"].startswith(
        "Error: agent 'bank' stopped waiting on unresolved long-running tool call(s)"
    )


# ── 11-13: a restarted worker, the signal variant, ADK's resume message ─────


async def test_answer_after_a_worker_restart(temporal_env):
    runs: list[Any] = []
    agent = bank_agent(runs)
    store = InMemorySessionService()
    queue = f"hitl-restart-{uuid.uuid4().hex[:8]}"

    def new_runner() -> Runner:
        return Runner(
            app_name="test_app",
            agent=agent,
            session_service=store,
            temporal_client=temporal_env.client,
            task_queue=queue,
            worker_options={"max_cached_workflows": 0},
        )

    first = new_runner()
    client, invocation = await start(first, "send 500 to bob")
    [request] = await waiting_for(client, invocation)
    await first.close()  # the worker is gone; the invocation waits on the server
    async with new_runner() as second:
        await second._ensure_started()
        await client.approve(invocation.workflow_id, request.id)
        events = await finish(second, invocation)
    assert runs == [(True, None)]
    assert simplify(events)[-2:] == [
        ("bank", ("response", "transfer", {"sent": 500, "to": "bob"})),
        ("bank", "Done."),
    ]


async def test_signal_answers_valid_applied_invalid_ignored(temporal_env):
    runs: list[Any] = []
    async with runner_for(temporal_env, bank_agent(runs)) as runner:
        client, invocation = await start(runner, "send 500 to bob")
        [request] = await waiting_for(client, invocation)
        handle, ours = invocation.handle, invocation.session
        await handle.signal(
            names.SIGNAL_ANSWER, HumanAnswer(id="adk-nope", kind="approve", session=ours)
        )
        await handle.signal(
            names.SIGNAL_ANSWER,
            HumanAnswer(id=request.id, kind="respond", payload={"x": 1}, session=ours),
        )
        # an answer that does not name its session, or names another, is ignored too
        await handle.signal(names.SIGNAL_ANSWER, HumanAnswer(id=request.id, kind="approve"))
        other = ours.model_copy(update={"user_id": "someone-else"})
        await handle.signal(
            names.SIGNAL_ANSWER, HumanAnswer(id=request.id, kind="approve", session=other)
        )
        await settled_history(handle)  # all four signals handled
        assert (await handle.describe()).status == WorkflowExecutionStatus.RUNNING
        assert [r.id for r in (await client.status(invocation.workflow_id)).pending] == [request.id]
        assert runs == []
        # the original call id names a confirmation too
        await handle.signal(
            names.SIGNAL_ANSWER, HumanAnswer(id=request.call_id, kind="approve", session=ours)
        )
        events = await finish(runner, invocation)
    assert runs == [(True, None)]
    assert simplify(events)[-1] == ("bank", "Done.")


async def test_adk_resume_message_through_the_runner(temporal_env):
    runs: list[Any] = []
    async with runner_for(temporal_env, bank_agent(runs)) as runner:
        client, invocation = await start(runner, "send 500 to bob")
        [request] = await waiting_for(client, invocation)
        resumed = [
            e
            async for e in runner.run_async(
                user_id=USER,
                session_id=invocation.session.session_id,
                new_message=confirmation_answer(request.id, True),
            )
        ]
    assert runs == [(True, None)]
    assert simplify(resumed) == [  # the answer itself is the user's: not yielded, as in ADK
        ("bank", ("response", "transfer", {"sent": 500, "to": "bob"})),
        ("bank", "Done."),
    ]
    assert {e.invocation_id for e in resumed} == {invocation.invocation_id}


# ── 14: what the CLI and the Web UI print ───────────────────────────────────


def _request(kind: str, **fields: Any) -> PendingRequest:
    return PendingRequest(
        id="adk-1" if kind == "confirmation" else "call-1",
        kind=kind,  # type: ignore[arg-type]
        call_id="call-1",
        tool="transfer",
        args={"amount": 5},
        agent="bank",
        since=0.0,
        owner_workflow_id="adk:app:u:s",
        **fields,
    )


def test_request_lines_and_pending_markdown_show_the_exact_commands():
    wid = "adk:app:u:s"
    confirm = _request("confirmation", hint="Sure?", payload={"note": ""})
    result = _request("long_running")
    approve = f"python -m client approve '{wid}' adk-1"
    reject = f"python -m client reject '{wid}' adk-1"
    respond = f"python -m client respond '{wid}' call-1 --result '{{...}}'"

    lines = request_lines(confirm, wid)
    assert lines[0].startswith("⏸ transfer(amount=5) needs approval · agent bank · id adk-1")
    assert "  hint: Sure?" in lines and '  payload asked for: {"note": ""}' in lines
    assert lines[-2:] == [f"  answer: {approve}", f"  answer: {reject}"]
    assert request_lines(result, wid)[-1] == f"  answer: {respond}"
    assert "waits for a result" in request_lines(result, wid)[0]

    markdown = pending_markdown([confirm, result], wid)
    assert "**waiting for 2 answer(s)**" in markdown
    for command in (approve, reject, respond):
        assert f"  - `{command}`" in markdown
    assert pending_markdown([], wid) == ""


async def test_a_result_arriving_before_the_tool_returns_is_kept(temporal_env):
    """A webhook may answer a long-running call before its tool has even returned."""
    from workflows.names import invocation_workflow_id

    async def submit_job(job: str, tool_context: ToolContext) -> dict:
        """Submits a job; the external system calls back (here: at once)."""
        session = tool_context.session
        workflow_id = invocation_workflow_id(session.app_name, session.user_id, session.id)
        webhook = AgentClient(temporal_env.client, InMemorySessionService())
        await webhook.respond(workflow_id, tool_context.function_call_id or "", {"done": job})
        return {"status": "submitted"}

    model = MockModel.create([call("submit_job", job="render"), "The job is done."])
    agent = Agent(name="jobs", model=model, tools=[LongRunningFunctionTool(submit_job)])
    async with runner_for(temporal_env, agent) as runner:
        _, invocation = await start(runner, "run it")
        events = await finish(runner, invocation)
    assert [response.response for _, response in responses(events)] == [
        {"status": "submitted"},
        {"done": "render"},
    ]
    assert simplify(events)[-1] == ("jobs", "The job is done.")


async def test_an_approved_tool_can_transfer(temporal_env):
    def hand_over(tool_context: ToolContext) -> dict:
        """Hands the customer to the closer (needs approval)."""
        tool_context.actions.transfer_to_agent = "closer"
        return {"handed": True}

    closer = Agent(name="closer", model=MockModel.create(["Closed the deal."]))
    root_model = MockModel.create([call("hand_over")])
    root = Agent(
        name="desk",
        model=root_model,
        tools=[FunctionTool(hand_over, require_confirmation=True)],
        sub_agents=[closer],
    )
    async with runner_for(temporal_env, root) as runner:
        client, invocation = await start(runner, "close it")
        [request] = await waiting_for(client, invocation)
        await client.approve(invocation.workflow_id, request.id)
        events = await finish(runner, invocation)
    assert simplify(events)[-1] == ("closer", "Closed the deal.")
    assert len(root_model.requests) == 1  # the desk's loop ended with the transfer


async def open_ticket(amount: int) -> dict:
    """Opens an approval ticket; the manager answers later."""
    await asyncio.sleep(1.0)  # the request is registered meanwhile (an early answer is kept)
    return {"status": "pending", "ticket": "t-1"}


@pytest.mark.parametrize("where", ["root", "transferred"])
async def test_a_turn_that_stops_at_a_wait_yields_the_intermediate_response(temporal_env, where):
    """run_async ends once the invocation waits, not once the request is registered
    (before the tool runs): the tool's intermediate response is yielded first, every time."""
    # google-adk 2.13: the model answers the intermediate response, at the root as in a
    # transferred agent (a child workflow)
    said = ["Asked the manager."]
    pending = {"status": "pending", "ticket": "t-1"}
    reply = replies(pending, "Asked the manager.", "Approved and paid.")
    model = MockModel.create([call("open_ticket", amount=200), reply])
    desk = Agent(name="desk", model=model, tools=[LongRunningFunctionTool(open_ticket)])
    agent = desk
    if where == "transferred":
        front = MockModel.create([call("transfer_to_agent", agent_name="desk")])
        agent = Agent(name="front", model=front, sub_agents=[desk])
    async with runner_for(temporal_env, agent) as runner:
        session = f"ticket-{where}"
        events = await turn(runner, "reimburse 200", session=session, user=USER)
        assert simplify(events)[-2 - len(said) :] == [
            ("desk", ("call", "open_ticket", {"amount": 200})),
            ("desk", ("response", "open_ticket", {"status": "pending", "ticket": "t-1"})),
            *[("desk", text) for text in said],
        ]
        call_id = events[-1 - len(said)].content.parts[0].function_response.id
        answer = types.FunctionResponse(id=call_id, name="open_ticket", response={"ok": True})
        message = types.Content(role="user", parts=[types.Part(function_response=answer)])
        resumed = [
            e async for e in runner.run_async(user_id=USER, session_id=session, new_message=message)
        ]
    assert simplify(resumed) == [("desk", "Approved and paid.")]


async def test_adks_resume_message_hands_any_payload_to_the_tool(temporal_env):
    """google-adk 2.13 gives the tool whatever payload the FunctionResponse carries,
    though the request declared none; only our own approve checks it."""
    seen: list[Any] = []

    def transfer(amount: int, tool_context: ToolContext) -> dict:
        """Sends money."""
        confirmation = tool_context.tool_confirmation
        seen.append(confirmation.payload if confirmation else None)
        return {"sent": amount}

    model = MockModel.create(
        [types.Part.from_function_call(name="transfer", args={"amount": 5}), "sent"]
    )
    agent = Agent(
        name="bank", model=model, tools=[FunctionTool(transfer, require_confirmation=True)]
    )
    async with runner_for(temporal_env, agent) as runner:
        paused = await turn(runner, "send 5")
        asking = next(
            c
            for e in paused
            for c in e.get_function_calls()
            if c.name == "adk_request_confirmation"
        )
        response = types.FunctionResponse(
            id=asking.id,
            name="adk_request_confirmation",
            response={"confirmed": True, "payload": {"note": "ok by Ada"}},
        )
        message = types.Content(role="user", parts=[types.Part(function_response=response)])
        events = [
            e async for e in runner.run_async(user_id="u1", session_id="s1", new_message=message)
        ]
    assert seen == [{"note": "ok by Ada"}]
    assert events[-1].content.parts[0].text == "sent"
