"""Record the histories of an invocation whose SequentialAgent step waits for answers.

Run from the repository root when the workflows change on purpose:

    .venv/bin/python tests/histories/record_nested_pauses.py [OUT.json]

One invocation (a default, non-resumable app) of `shell = SequentialAgent([clerk,
other])`: clerk's `require_confirmation` call, approved by ADK's FunctionResponse
message; then its long-running call (an intermediate result the model answers),
given its final result by `respond`. Writes every workflow's history of the tree
(the root's and its children's), replayed by tests/workflows/test_nested_pauses.py.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from google.genai import types

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "nested_pauses.json"


def pay(amount: int, tool_context) -> dict:  # type: ignore[no-untyped-def]
    """Pays an amount."""
    tool_context.state["paid"] = amount
    return {"paid": amount}


def ask_manager(amount: int) -> dict:
    """Asks a manager; the answer comes later."""
    return {"status": "asked"}


def reply(request) -> str:  # type: ignore[no-untyped-def]
    last = request.contents[-1].parts[-1].function_response
    return "Asked the manager." if last.response == {"status": "asked"} else "Approved."


async def tree_histories(client, workflow_id: str) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    """The histories of `workflow_id` and of the child workflows it started, depth first."""
    history = await client.get_workflow_handle(workflow_id).fetch_history()
    found = [{"workflow_id": workflow_id, "history": history.to_json()}]
    for event in history.events:
        if event.HasField("child_workflow_execution_started_event_attributes"):
            child = event.child_workflow_execution_started_event_attributes
            found += await tree_histories(client, child.workflow_execution.workflow_id)
    return found


async def record(out: Path) -> str:
    from temporalio.testing import WorkflowEnvironment

    from adk import Agent, Runner
    from adk.agents import SequentialAgent
    from adk.sessions import InMemorySessionService
    from adk.testing import MockModel
    from adk.tools import FunctionTool, LongRunningFunctionTool
    from client import AgentClient
    from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
    from workflows import names
    from workflows.converter import data_converter

    call = types.Part.from_function_call
    clerk = Agent(
        name="clerk",
        model=MockModel.create(
            [
                call(name="pay", args={"amount": 70}),
                call(name="ask_manager", args={"amount": 70}),
                reply,
                "Done.",
            ]
        ),
        tools=[FunctionTool(pay, require_confirmation=True), LongRunningFunctionTool(ask_manager)],
    )
    other = Agent(name="other", model=MockModel.create(["Other here."] * 3))
    shell = SequentialAgent(name="shell", sub_agents=[clerk, other])
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=temporal_binary(),
        data_converter=data_converter,
        search_attributes=names.SEARCH_ATTRIBUTES,
        dev_server_extra_args=DEV_SERVER_ARGS,
    )
    workflow_id = names.invocation_workflow_id("nested", "u1", "s1")
    try:
        async with Runner(
            app_name="nested",
            agent=shell,
            session_service=InMemorySessionService(),
            temporal_client=env.client,
            auto_create_session=True,
        ) as runner:
            text = types.Content(role="user", parts=[types.Part(text="pay 70")])
            first = [
                e async for e in runner.run_async(user_id="u1", session_id="s1", new_message=text)
            ]
            asking = next(
                c for e in first for c in e.get_function_calls() if c.name != "pay"
            )
            approve = types.FunctionResponse(
                id=asking.id, name=asking.name, response={"confirmed": True}
            )
            message = types.Content(role="user", parts=[types.Part(function_response=approve)])
            second = [
                e
                async for e in runner.run_async(user_id="u1", session_id="s1", new_message=message)
            ]
            waiting = next(
                c for e in second for c in e.get_function_calls() if c.name == "ask_manager"
            )
            client = AgentClient(env.client, runner.session_service, task_queue=runner.task_queue)
            await client.respond(workflow_id, waiting.id, {"approved": True})
            await env.client.get_workflow_handle(workflow_id).result()
        histories = await tree_histories(env.client, workflow_id)
    finally:
        await env.shutdown()
    out.write_text(json.dumps(histories, indent=1) + "\n", encoding="utf-8")
    return workflow_id


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    workflow_id = asyncio.run(record(out))
    print(f"wrote {out} ({workflow_id})")
