"""Multi-agent rules on a real local Temporal: transfers, routing, state, callbacks, failures.

Complements test_multi_agent.py (which shows each orchestration once) with the
rules around them: where a transfer may go and what the model is told about it,
who answers the next turn, how parallel branches' state merges, loop limits,
include_contents, agent callbacks on shell agents, AgentTool schemas, failure
and cancellation of child workflows, tree validation, and what a client sees.
"""

from __future__ import annotations

import asyncio
import sys
import textwrap
import uuid
from typing import Any

import pytest
from google.genai import types
from pydantic import BaseModel
from temporalio.client import WorkflowExecutionStatus

from adk import Agent, LoopAgent, ParallelAgent, SequentialAgent
from adk.flows.llm_flows._other_agent import OTHER_AGENT_CONTEXT_PREAMBLE
from adk.flows.llm_flows.agent_transfer import build_transfer_instructions
from adk.models.llm_request import LlmRequest
from adk.testing import MockModel
from adk.testing.mock_model import ScriptExhaustedError
from adk.tools import AgentTool, ToolContext
from client import InvocationFailedError
from worker import AppLoadError, load_app
from workflows import names

from .helpers import call, runner_for, simplify, turn, user_text

TRANSFER_CALL = "transfer_to_agent"


def transfer(agent_name: str) -> types.Part:
    return call(TRANSFER_CALL, agent_name=agent_name)


def transfer_enum(request: LlmRequest) -> list[str] | None:
    """The `agent_name` enum of the transfer_to_agent declaration (None: not declared)."""
    for tool in request.config.tools or []:
        for declaration in getattr(tool, "function_declarations", None) or []:
            if declaration.name == TRANSFER_CALL:
                schema = declaration.parameters_json_schema
                return list(schema["properties"]["agent_name"]["enum"])
    return None


def texts(request: LlmRequest) -> list[str]:
    return [p.text for c in request.contents for p in c.parts or [] if p.text]


async def session_of(runner: Any, session_id: str = "s1") -> Any:
    session = await runner.session_service.get_session(
        app_name="test_app", user_id="u1", session_id=session_id
    )
    assert session is not None
    return session


def root_workflow_id(session_id: str) -> str:
    return names.invocation_workflow_id("test_app", "u1", session_id)


async def children_of(env: Any, root_id: str, invocation_id: str, count: int) -> list[Any]:
    """The invocation's `count` child workflows, once closed (visibility lags: poll)."""
    prefix = f"{root_id}/{invocation_id}/"
    query = f'RootWorkflowId="{root_id}"'
    found: list[Any] = []
    for _ in range(100):
        found = [w async for w in env.client.list_workflows(query) if w.id.startswith(prefix)]
        if len(found) >= count and all(w.status != WorkflowExecutionStatus.RUNNING for w in found):
            break
        await asyncio.sleep(0.1)
    return sorted(found, key=lambda w: w.start_time)


# ── transfers ────────────────────────────────────────────────────────────────


async def test_transfer_to_the_parent_and_down_again_in_one_invocation(temporal_env):
    # router → booking (down) → router (its parent: re-run as a child) → billing (down)
    router_model = MockModel.create([transfer("booking"), transfer("billing")])
    booking_model = MockModel.create([transfer("router")])
    billing_model = MockModel.create(["Refund issued."])
    booking = Agent(name="booking", model=booking_model, description="Bookings.")
    billing = Agent(name="billing", model=billing_model, description="Payments.")
    router = Agent(name="router", model=router_model, sub_agents=[booking, billing])
    session_id = uuid.uuid4().hex
    async with runner_for(temporal_env, router) as runner:
        events = await turn(runner, "I want a refund", session=session_id)
    assert [e.author for e in events] == [
        "user",
        "router",  # transfer call, inline in the invocation workflow
        "router",  # its response
        "booking",
        "booking",
        "router",  # the root again, now in a child workflow
        "router",
        "billing",
    ]
    assert simplify(events)[-1] == ("billing", "Refund issued.")
    # the second router run saw its first transfer and booking's, retold
    assert len(router_model.requests) == 2
    second = texts(router_model.requests[1])
    told = (
        "[booking] called tool `transfer_to_agent` with parameters:\n"
        "<<<BEGIN_QUOTED_AGENT_CONTENT>>>\n{'agent_name': 'router'}\n<<<END_QUOTED_AGENT_CONTENT>>>"
    )
    assert told in second
    # chains stay flat: every run is a child of the invocation workflow, in order
    root_id = root_workflow_id(session_id)
    invocation_id = events[0].invocation_id
    children = await children_of(temporal_env, root_id, invocation_id, 3)
    assert [w.id.removeprefix(f"{root_id}/{invocation_id}/") for w in children] == [
        "booking#1",
        "router#2",
        "billing#3",
    ]
    assert {w.workflow_type for w in children} == {names.AGENT_RUN_WORKFLOW}
    assert {w.parent_id for w in children} == {root_id}
    assert {w.status for w in children} == {WorkflowExecutionStatus.COMPLETED}
    # children start with the root's session and their own agent (app and user: the root's)
    attributes = [
        tuple(w.typed_search_attributes.get(key) for key in names.SEARCH_ATTRIBUTES)
        for w in children
    ]
    assert attributes == [
        (None, None, session_id, agent, None) for agent in ("booking", "router", "billing")
    ]
    tree = [w.id async for w in temporal_env.client.list_workflows(f'AdkSession="{session_id}"')]
    assert sorted(tree) == sorted([root_id, *(w.id for w in children)])
    summaries = []
    for w in children:
        description = await temporal_env.client.get_workflow_handle(w.id).describe()
        summaries.append(await description.static_summary())
    # the agent and its kind (the user's message is in the root's summary only)
    assert summaries == ["booking (llm)", "router (llm)", "billing (llm)"]


async def test_single_flow_declares_no_transfer_and_auto_flow_declares_the_targets(temporal_env):
    root_model = MockModel.create([transfer("helper")])
    helper_model = MockModel.create([transfer("solo")])
    solo_model = MockModel.create(["Solo answers."])
    solo = Agent(
        name="solo",
        model=solo_model,
        description="Works alone.",
        disallow_transfer_to_parent=True,
        disallow_transfer_to_peers=True,
    )
    helper = Agent(name="helper", model=helper_model, description="Helps.")
    root = Agent(name="root", model=root_model, instruction="Route.", sub_agents=[helper, solo])
    async with runner_for(temporal_env, root) as runner:
        events = await turn(runner, "hello")
    assert [e.author for e in events] == ["user", "root", "root", "helper", "helper", "solo"]

    # AutoFlow: sub-agents; then the parent and the peers
    root_request = root_model.requests[0]
    assert transfer_enum(root_request) == ["helper", "solo"]
    assert build_transfer_instructions(root, [helper, solo]) in str(
        root_request.config.system_instruction
    )
    helper_request = helper_model.requests[0]
    assert transfer_enum(helper_request) == ["root", "solo"]
    helper_instruction = str(helper_request.config.system_instruction)
    assert build_transfer_instructions(helper, [root, solo]) in helper_instruction
    assert helper_instruction.endswith(
        "If neither you nor the other agents are best for the question, transfer to your"
        " parent agent root.\n"
    )

    # SingleFlow: no sub-agents and both transfers disallowed → no transfer tool, no text
    solo_request = solo_model.requests[0]
    assert not solo.uses_auto_flow
    assert transfer_enum(solo_request) is None
    assert TRANSFER_CALL not in solo_request.tools_dict
    assert "other agents to transfer to" not in str(solo_request.config.system_instruction)


# ── next-turn routing ────────────────────────────────────────────────────────


async def test_the_last_transferable_agent_keeps_the_conversation(temporal_env):
    # strict may not transfer to its parent: it never keeps the conversation
    sticky_model = MockModel.create(["Sticky here.", transfer("strict"), "Sticky again."])
    sticky = Agent(name="sticky", model=sticky_model, description="Keeps talking.")
    strict_model = MockModel.create(["Strict answers once."])
    strict = Agent(
        name="strict",
        model=strict_model,
        description="One answer.",
        disallow_transfer_to_parent=True,
    )
    root = Agent(
        name="root", model=MockModel.create([transfer("sticky")]), sub_agents=[sticky, strict]
    )
    async with runner_for(temporal_env, root) as runner:
        first = await turn(runner, "one")
        second = await turn(runner, "two")
        third = await turn(runner, "three")
    assert [e.author for e in first] == ["user", "root", "root", "sticky"]
    # sticky spoke last and is transferable: it answers without the root
    assert [e.author for e in second] == ["user", "sticky", "sticky", "strict"]
    # strict spoke last but is not transferable: the agent before it (sticky) answers
    assert simplify(third) == [("user", "three"), ("sticky", "Sticky again.")]


async def test_an_agent_under_a_sequential_agent_never_keeps_the_conversation(temporal_env):
    step1 = Agent(name="step1", model=MockModel.create(["Step one.", "never"]))
    step2 = Agent(name="step2", model=MockModel.create(["Step two.", "never"]))
    pipeline = SequentialAgent(name="pipeline", sub_agents=[step1, step2])
    root_model = MockModel.create([transfer("pipeline"), "Root again."])
    root = Agent(name="root", model=root_model, sub_agents=[pipeline])
    async with runner_for(temporal_env, root) as runner:
        first = await turn(runner, "run it")
        second = await turn(runner, "and now?")
    assert [e.author for e in first] == ["user", "root", "root", "step1", "step2"]
    # step2 spoke last, but its parent is a SequentialAgent: the root answers
    assert simplify(second) == [("user", "and now?"), ("root", "Root again.")]


# ── parallel state, loops, contents ──────────────────────────────────────────


async def write_slot(value: str, tool_context: ToolContext) -> dict:
    """Writes `value` to the shared slot (the first branch takes its time)."""
    if tool_context.agent_name == "first":
        await asyncio.sleep(1.0)  # first writes last in time; it is earlier in sub_agents
    tool_context.state["slot"] = value
    tool_context.state[f"{tool_context.agent_name}_wrote"] = value
    return {"written": value}


async def test_parallel_branches_writing_one_key_the_later_sub_agent_wins(temporal_env):
    first = Agent(
        name="first",
        model=MockModel.create([call("write_slot", value="A"), "first done"]),
        tools=[write_slot],
    )
    second = Agent(
        name="second",
        model=MockModel.create([call("write_slot", value="B"), "second done"]),
        tools=[write_slot],
    )
    both = ParallelAgent(name="both", sub_agents=[first, second])
    async with runner_for(temporal_env, both) as runner:
        events = await turn(runner, "write")
        session = await session_of(runner)
    # in time: second wrote B, then first wrote A; the workflow then re-asserted B
    writes = [
        e.actions.state_delta["slot"] for e in session.events if "slot" in e.actions.state_delta
    ]
    assert writes == ["B", "A", "B"]
    merge = session.events[-1]
    assert merge.author == "both" and merge.content is None
    assert merge.actions.state_delta == {"slot": "B"}  # only the key both wrote
    assert merge.branch is None
    assert session.state["slot"] == "B"
    assert session.state["first_wrote"] == "A" and session.state["second_wrote"] == "B"
    assert events[-1].id == merge.id  # the client saw it too
    assert {e.branch for e in events if e.author == "first"} == {"both.first"}
    assert {e.branch for e in events if e.author == "second"} == {"both.second"}


async def test_loop_stops_at_max_iterations_and_each_step_sees_the_previous_one(temporal_env):
    writer_model = MockModel.create(["draft 1", "draft 2", "draft 3"])
    writer = Agent(name="writer", model=writer_model, output_key="draft")
    reviewer_model = MockModel.create(["more", "more", "more"])
    reviewer = Agent(name="reviewer", model=reviewer_model, instruction="Review: {draft}")
    loop = LoopAgent(name="loop", sub_agents=[writer, reviewer], max_iterations=2)
    async with runner_for(temporal_env, loop) as runner:
        events = await turn(runner, "write")
        session = await session_of(runner)
    assert simplify(events) == [
        ("user", "write"),
        ("writer", "draft 1"),
        ("reviewer", "more"),
        ("writer", "draft 2"),
        ("reviewer", "more"),
    ]
    assert [str(r.config.system_instruction).split("\n")[0] for r in reviewer_model.requests] == [
        "Review: draft 1",
        "Review: draft 2",
    ]
    assert session.state["draft"] == "draft 2"


async def test_include_contents_none_sees_only_the_current_turn(temporal_env):
    talker = Agent(name="talker", model=MockModel.create(["T1", "T2"]))
    summarizer_model = MockModel.create(["summary"])  # never sees a model turn of its own
    summarizer = Agent(name="summarizer", model=summarizer_model, include_contents="none")
    pipeline = SequentialAgent(name="pipeline", sub_agents=[talker, summarizer])
    solo_model = MockModel.create(["answer"])
    solo = Agent(name="solo", model=solo_model, include_contents="none")
    async with runner_for(temporal_env, pipeline) as runner:
        await turn(runner, "first question")
        second = await turn(runner, "second question")
    async with runner_for(temporal_env, solo) as runner:
        await turn(runner, "first question", session="solo")
        solo_second = await turn(runner, "second question", session="solo")
    assert simplify(second) == [
        ("user", "second question"),
        ("talker", "T2"),
        ("summarizer", "summary"),
    ]
    # from the latest other-agent event on: talker's second answer, retold
    assert texts(summarizer_model.requests[1]) == [
        OTHER_AGENT_CONTEXT_PREAMBLE,
        "[talker] said:\n<<<BEGIN_QUOTED_AGENT_CONTENT>>>\nT2\n<<<END_QUOTED_AGENT_CONTENT>>>",
    ]
    assert simplify(solo_second) == [("user", "second question"), ("solo", "answer")]
    assert [c.role for c in solo_model.requests[1].contents] == ["user"]
    assert texts(solo_model.requests[1]) == ["second question"]


# ── agent callbacks on shell agents ──────────────────────────────────────────


def say(text: str) -> types.Content:
    return types.Content(role="model", parts=[types.Part(text=text)])


async def test_before_agent_content_on_a_sequential_step_ends_only_that_step(temporal_env):
    def gate(callback_context):
        return say("Blocked by gate.")

    after_pipeline: list[str] = []
    step1_model = MockModel.create(["never"])
    step1 = Agent(name="step1", model=step1_model, before_agent_callback=gate)
    step2_model = MockModel.create(["step2 says"])
    step2 = Agent(name="step2", model=step2_model)
    pipeline = SequentialAgent(
        name="pipeline",
        sub_agents=[step1, step2],
        after_agent_callback=lambda callback_context: after_pipeline.append("ran"),
    )
    async with runner_for(temporal_env, pipeline) as runner:
        events = await turn(runner, "go")
    # google-adk 2.13: each agent has its own invocation context; the gate ends step1 only
    assert simplify(events) == [
        ("user", "go"),
        ("step1", "Blocked by gate."),
        ("step2", "step2 says"),
    ]
    assert step1_model.requests == []
    assert after_pipeline == ["ran"]


async def test_after_agent_content_is_appended_for_llm_and_sequential_agents(temporal_env):
    def after_step(callback_context):
        return say("step note")

    def after_pipeline(callback_context):
        callback_context.state["reviewed"] = True
        return say("pipeline note")

    step = Agent(
        name="step", model=MockModel.create(["step answer"]), after_agent_callback=after_step
    )
    pipeline = SequentialAgent(
        name="pipeline", sub_agents=[step], after_agent_callback=after_pipeline
    )
    async with runner_for(temporal_env, pipeline) as runner:
        events = await turn(runner, "go")
        session = await session_of(runner)
    assert simplify(events) == [
        ("user", "go"),
        ("step", "step answer"),
        ("step", "step note"),
        ("pipeline", "pipeline note"),
    ]
    assert events[-1].actions.state_delta == {"reviewed": True}
    assert session.state["reviewed"] is True


# ── AgentTool ────────────────────────────────────────────────────────────────


class Verdict(BaseModel):
    label: str
    score: int


async def test_agent_tool_with_output_schema_answers_a_dict(temporal_env):
    judge = Agent(
        name="judge",
        model=MockModel.create(['{"label": "good", "score": 9}']),
        description="Judges.",
        output_schema=Verdict,
    )
    root = Agent(
        name="root",
        model=MockModel.create([call("judge", request="rate it"), "Rated good."]),
        tools=[AgentTool(judge)],
    )
    async with runner_for(temporal_env, root) as runner:
        events = await turn(runner, "rate this")
    assert simplify(events) == [
        ("user", "rate this"),
        ("root", ("call", "judge", {"request": "rate it"})),
        ("root", ("response", "judge", {"label": "good", "score": 9})),
        ("root", "Rated good."),
    ]


# ── failure and cancellation ─────────────────────────────────────────────────


async def test_a_failing_child_fails_the_invocation_with_its_message(temporal_env):
    broken = Agent(name="broken", model=MockModel.create([]), description="Fails.")
    root = Agent(name="root", model=MockModel.create([transfer("broken")]), sub_agents=[broken])
    session_id = uuid.uuid4().hex
    async with runner_for(temporal_env, root) as runner:
        with pytest.raises(ScriptExhaustedError) as info:  # the child's own exception
            await turn(runner, "hi", session=session_id)
    message = str(info.value)
    assert "MockModel" in message
    handle = temporal_env.client.get_workflow_handle(root_workflow_id(session_id))
    assert (await handle.describe()).status == WorkflowExecutionStatus.FAILED


async def test_cancelling_the_root_cancels_the_running_child(temporal_env):
    started = asyncio.Event()
    release = asyncio.Event()

    async def wait_forever(tool_context: ToolContext) -> dict:
        """Blocks until the test releases it."""
        started.set()
        await release.wait()
        return {"released": True}

    waiter = Agent(
        name="waiter",
        model=MockModel.create([call("wait_forever"), "never"]),
        tools=[wait_forever],
    )
    root = Agent(name="root", model=MockModel.create([transfer("waiter")]), sub_agents=[waiter])
    session_id = uuid.uuid4().hex
    root_id = root_workflow_id(session_id)
    async with runner_for(temporal_env, root) as runner:
        try:
            consumer = asyncio.ensure_future(turn(runner, "wait", session=session_id))
            await asyncio.wait_for(started.wait(), timeout=20)
            await temporal_env.client.get_workflow_handle(root_id).cancel()
            with pytest.raises(InvocationFailedError):
                await asyncio.wait_for(consumer, timeout=30)
            description = await temporal_env.client.get_workflow_handle(root_id).describe()
            session = await session_of(runner, session_id)
            children = await children_of(temporal_env, root_id, session.events[0].invocation_id, 1)
        finally:
            release.set()
    assert description.status == WorkflowExecutionStatus.CANCELED
    assert description.typed_search_attributes.get(names.SA_STATUS) is None
    waiters = [w for w in children if "/waiter#" in w.id]
    assert len(waiters) == 1
    child = await temporal_env.client.get_workflow_handle(waiters[0].id).describe()
    assert child.status == WorkflowExecutionStatus.CANCELED


# ── the tree is validated at load ────────────────────────────────────────────


def test_duplicate_names_across_an_agent_tool_and_the_tree_fail_at_load(tmp_path):
    name = f"dupe_app_{uuid.uuid4().hex[:8]}"
    folder = tmp_path / name
    folder.mkdir()
    (folder / "agent.py").write_text(
        textwrap.dedent(
            """
            from adk import Agent
            from adk.testing import MockModel
            from adk.tools import AgentTool

            helper = Agent(name="helper", model=MockModel.create([]))
            also_helper = Agent(name="helper", model=MockModel.create([]))
            root_agent = Agent(
                name="root",
                model=MockModel.create([]),
                sub_agents=[helper],
                tools=[AgentTool(also_helper)],
            )
            """
        )
    )
    try:
        with pytest.raises(AppLoadError, match="duplicate agent names: `helper`"):
            load_app(str(folder))
    finally:
        for module in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
            del sys.modules[module]
        if str(tmp_path) in sys.path:
            sys.path.remove(str(tmp_path))


# ── what the client sees ─────────────────────────────────────────────────────


async def test_the_client_stream_is_live_in_session_order_with_authors_and_branches(
    temporal_env,
):
    b_seen = asyncio.Event()

    async def wait_for_b(tool_context: ToolContext) -> dict:
        """Returns once the client has streamed b's answer (so the stream is live)."""
        await asyncio.wait_for(b_seen.wait(), timeout=20)
        return {"ok": True}

    a = Agent(name="a", model=MockModel.create([call("wait_for_b"), "a done"]), tools=[wait_for_b])
    b = Agent(name="b", model=MockModel.create(["b done"]))
    fan = ParallelAgent(name="fan", sub_agents=[a, b])
    closer = Agent(name="closer", model=MockModel.create(["all done"]))
    pipeline = SequentialAgent(name="pipeline", sub_agents=[fan, closer])
    session_id = uuid.uuid4().hex
    events = []
    async with runner_for(temporal_env, pipeline) as runner:
        async for event in runner.run_async(
            user_id="u1", session_id=session_id, new_message=user_text("go")
        ):
            events.append(event)
            if event.author == "b":
                b_seen.set()  # a's tool still waits: the invocation is running
        session = await session_of(runner, session_id)
    invocation = [e for e in session.events if e.invocation_id == events[0].invocation_id]
    # the stream is the session's order, less the user's own message (as in ADK)
    assert [e.id for e in events] == [e.id for e in invocation if e.author != "user"]
    assert {(e.author, e.branch) for e in events} == {
        ("a", "fan.a"),
        ("b", "fan.b"),
        ("closer", None),
    }
    said = simplify(events)
    # b answered while a's tool waited for the client to see it
    assert said.index(("b", "b done")) < said.index(("a", ("response", "wait_for_b", {"ok": True})))
    assert simplify(events)[-1] == ("closer", "all done")

    # every agent run is a child workflow, named by its branch, summarised by agent and kind
    root_id = root_workflow_id(session_id)
    prefix = f"{root_id}/{events[0].invocation_id}/"
    children = await children_of(temporal_env, root_id, events[0].invocation_id, 4)
    seen = set()
    for w in children:
        description = await temporal_env.client.get_workflow_handle(w.id).describe()
        summary = await description.static_summary()
        seen.add((w.id.removeprefix(prefix), w.parent_id.removeprefix(prefix), summary))
    assert seen == {
        ("fan#1", root_id, "fan (parallel)"),
        ("fan#1/fan.a#1", "fan#1", "a (llm)"),
        ("fan#1/fan.b#2", "fan#1", "b (llm)"),
        ("closer#2", root_id, "closer (llm)"),
    }
