"""Multi-agent orchestration on a real local Temporal: transfer, shell agents, AgentTool."""

from __future__ import annotations

import asyncio

import pytest

from adk import Agent, LoopAgent, ParallelAgent, SequentialAgent
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from adk.tools import AgentTool, exit_loop
from workflows import names

from .helpers import call, runner_for, simplify, turn


async def test_transfer_runs_the_target_as_a_child_and_the_next_turn_goes_to_it(temporal_env):
    billing_model = MockModel.create(["Your invoice is paid.", "Anything else is fine."])
    billing = Agent(name="billing", model=billing_model, description="Invoices.")
    root_model = MockModel.create([call("transfer_to_agent", agent_name="billing")])
    root = Agent(name="dispatcher", model=root_model, sub_agents=[billing])
    async with runner_for(temporal_env, root) as runner:
        first = await turn(runner, "About my invoice")
        second = await turn(runner, "Thanks")
    latest = temporal_env.client.get_workflow_handle(
        names.invocation_workflow_id("test_app", "u1", "s1")
    )
    # the Runner expects its root agent; routing picked billing, and the workflow says so
    assert (await latest.describe()).typed_search_attributes.get(names.SA_AGENT) == "billing"
    assert simplify(first) == [
        ("user", "About my invoice"),
        ("dispatcher", ("call", "transfer_to_agent", {"agent_name": "billing"})),
        ("dispatcher", ("response", "transfer_to_agent", {"result": None})),
        ("billing", "Your invoice is paid."),
    ]
    # next turn: billing can transfer up the whole tree, so it keeps the conversation
    assert simplify(second) == [("user", "Thanks"), ("billing", "Anything else is fine.")]
    seen = billing_model.requests[0]
    texts = [p.text for c in seen.contents for p in c.parts or [] if p.text]
    # google-adk 2.13's fenced retelling of another agent's turn
    assert texts[1].startswith("For context: below is a transcript of what another agent did")
    assert (
        "[dispatcher] called tool `transfer_to_agent` with parameters:\n"
        "<<<BEGIN_QUOTED_AGENT_CONTENT>>>\n{'agent_name': 'billing'}\n<<<END_QUOTED_AGENT_CONTENT>>>"
        in texts
    )


async def test_sequential_parallel_and_loop(temporal_env):
    a = Agent(name="a", model=MockModel.create(["A says hi"]), output_key="a_out")
    b = Agent(name="b", model=MockModel.create(["B says hi"]), output_key="b_out")
    writer_model = MockModel.create(["draft 1", "draft 2"])
    writer = Agent(name="writer", model=writer_model, instruction="Notes: {a_out} / {b_out}")
    critic_model = MockModel.create(["again", call("exit_loop")])
    critic = Agent(name="critic", model=critic_model, tools=[exit_loop])
    pipeline = SequentialAgent(
        name="pipeline",
        sub_agents=[
            ParallelAgent(name="research", sub_agents=[a, b]),
            LoopAgent(name="refine", sub_agents=[writer, critic], max_iterations=5),
        ],
    )
    async with runner_for(temporal_env, pipeline) as runner:
        events = await turn(runner, "go")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    authors = [e.author for e in events]
    assert authors[0] == "user" and sorted(authors[1:3]) == ["a", "b"]
    assert [e.branch for e in events if e.author in ("a", "b")] != [None, None]
    assert {e.branch for e in events if e.author == "a"} == {"research.a"}
    assert simplify(events)[3:] == [
        ("writer", "draft 1"),
        ("critic", "again"),
        ("writer", "draft 2"),
        ("critic", ("call", "exit_loop", {})),
        ("critic", ("response", "exit_loop", {"result": None})),
    ]
    assert "Notes: A says hi / B says hi" in writer_model.requests[0].config.system_instruction
    assert session is not None and session.state["a_out"] == "A says hi"
    # branch isolation: a never sees b's event
    a_request = a.model.requests[0]  # type: ignore[union-attr]
    assert not any("B says hi" in (p.text or "") for c in a_request.contents for p in c.parts or [])


class _SlowForAgent(InMemorySessionService):
    """Stores the named agent's first event slowly (a busy database, say): longer than
    the workflow task's heartbeat (8 s of its 10 s timeout), so the task completes with
    whatever commands the workflow gave while the store is still at work."""

    def __init__(self, author: str) -> None:
        super().__init__()
        self.author: str | None = author

    async def append_event(self, session, event):  # type: ignore[no-untyped-def]
        if event.author == self.author:
            self.author = None
            await asyncio.sleep(9.0)
        return await super().append_event(session, event)


async def test_a_parallel_agents_own_event_is_stored_before_its_branches(temporal_env):
    """A resumable app's ParallelAgent records its state before its branches run; its
    branches' events follow it however slowly it is stored (google-adk 2.13's order).
    Before: the second branch started at once while the first waited for the store.
    (About 10 s: the slow store must outlast the workflow task's heartbeat.)"""
    a = Agent(name="a", model=MockModel.create(["A says hi"]))
    b = Agent(name="b", model=MockModel.create(["B says hi"]))
    both = ParallelAgent(name="both", sub_agents=[a, b])
    store = _SlowForAgent("both")
    async with runner_for(  # (the workflow stays cached while its store is at work)
        temporal_env, both, resumable=True, session_service=store, replay_every_task=False
    ) as runner:
        await turn(runner, "go")
        session = await store.get_session(app_name="test_app", user_id="u1", session_id="s1")
    assert session is not None
    authors = [e.author for e in session.events]
    assert authors[:2] == ["user", "both"]
    assert sorted(authors[2:6]) == ["a", "a", "b", "b"]  # each branch: its text, its end
    assert authors[6:] == ["both"]


async def test_agent_tool_runs_in_its_own_session_and_answers(temporal_env):
    helper_model = MockModel.create(["42"])
    helper = Agent(
        name="calculator", model=helper_model, description="Computes.", output_key="calc"
    )
    root_model = MockModel.create([call("calculator", request="6*7?"), "The answer is 42."])
    root = Agent(name="root", model=root_model, tools=[AgentTool(helper)])
    async with runner_for(temporal_env, root) as runner:
        events = await turn(runner, "what is 6*7")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert simplify(events) == [
        ("user", "what is 6*7"),
        ("root", ("call", "calculator", {"request": "6*7?"})),
        ("root", ("response", "calculator", {"result": "42"})),
        ("root", "The answer is 42."),
    ]
    assert helper_model.requests[0].contents[-1].parts[0].text == "6*7?"
    assert session is not None and session.state["calc"] == "42"  # state delta propagated


async def test_a_transfer_inside_an_agent_tool_stays_in_its_session(temporal_env):
    expert = Agent(name="expert", model=MockModel.create(["expert answer"]))
    coord_model = MockModel.create([call("transfer_to_agent", agent_name="expert")])
    coord = Agent(name="coord", model=coord_model, description="Coordinates.", sub_agents=[expert])
    root_model = MockModel.create([call("coord", request="hard question"), "Relayed."])
    root = Agent(name="root", model=root_model, tools=[AgentTool(coord)])
    async with runner_for(temporal_env, root) as runner:
        events = await turn(runner, "ask")
        tool_session = await runner.session_service.get_session(
            app_name="test_app",
            user_id="u1",
            session_id=f"s1:{events[1].get_function_calls()[0].id}",
        )
    assert simplify(events)[2] == ("root", ("response", "coord", {"result": "expert answer"}))
    assert tool_session is not None
    assert [e.author for e in tool_session.events] == ["user", "coord", "coord", "expert"]


async def test_agent_tool_arguments_that_do_not_fit_fail_as_pydantics_error(temporal_env):
    from pydantic import BaseModel, ValidationError

    class Question(BaseModel):
        topic: str

    helper = Agent(name="helper", model=MockModel.create(["never"]), input_schema=Question)
    root_model = MockModel.create([call("helper", wrong="x"), "Sorry."])
    root = Agent(name="root", model=root_model, tools=[AgentTool(helper)])
    async with runner_for(temporal_env, root) as runner:
        with pytest.raises(ValidationError, match="topic"):  # google-adk 2.13: the tool's error
            await turn(runner, "ask")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert session is not None
    assert [(e.author, e.error_code) for e in session.events if e.error_code] == [
        ("root", "ValidationError")
    ]
