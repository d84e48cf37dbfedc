"""Record the history of an invocation that waits for answers (google-adk 2.13's pauses).

Run from the repository root when the workflow changes on purpose:

    .venv/bin/python tests/histories/record_pauses.py

One invocation (a default, non-resumable app): a `require_confirmation` call ends
the first run; ADK's FunctionResponse message approves it (the tool runs, then the
model), whose next call is a long-running tool with an intermediate result the model
answers; `respond` gives the final result and the agent answers. Writes
tests/histories/pauses.json, replayed by tests/workflows/test_adk_pauses.py.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from google.genai import types

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "pauses.json"
WORKFLOW_ID_FILE = OUT.with_suffix(".workflow_id")


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


async def record() -> str:
    from temporalio.testing import WorkflowEnvironment

    from adk import Agent, Runner
    from adk.sessions import InMemorySessionService
    from adk.testing import MockModel
    from adk.tools import FunctionTool, LongRunningFunctionTool
    from client import AgentClient
    from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
    from workflows import names
    from workflows.converter import data_converter

    call = types.Part.from_function_call
    agent = Agent(
        name="clerk",
        model=MockModel.create(
            [
                call(name="pay", args={"amount": 70}),
                call(name="ask_manager", args={"amount": 70}),
                reply,
            ]
        ),
        tools=[FunctionTool(pay, require_confirmation=True), LongRunningFunctionTool(ask_manager)],
    )
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=temporal_binary(),
        data_converter=data_converter,
        search_attributes=names.SEARCH_ATTRIBUTES,
        dev_server_extra_args=DEV_SERVER_ARGS,
    )
    workflow_id = names.invocation_workflow_id("pauses", "u1", "s1")
    try:
        async with Runner(
            app_name="pauses",
            agent=agent,
            session_service=InMemorySessionService(),
            temporal_client=env.client,
            auto_create_session=True,
        ) as runner:
            text = types.Content(role="user", parts=[types.Part(text="pay 70")])
            first = [
                e async for e in runner.run_async(user_id="u1", session_id="s1", new_message=text)
            ]
            asking = next(c for e in first for c in e.get_function_calls() if c.name != "pay")
            approve = types.FunctionResponse(
                id=asking.id, name=asking.name, response={"confirmed": True}
            )
            message = types.Content(role="user", parts=[types.Part(function_response=approve)])
            second = [
                e
                async for e in runner.run_async(user_id="u1", session_id="s1", new_message=message)
            ]
            waiting = next(c for e in second for c in e.get_function_calls())
            client = AgentClient(env.client, runner.session_service, task_queue=runner.task_queue)
            await client.respond(workflow_id, waiting.id, {"approved": True})
            await env.client.get_workflow_handle(workflow_id).result()
        history = await env.client.get_workflow_handle(workflow_id).fetch_history()
    finally:
        await env.shutdown()
    OUT.write_text(history.to_json() + "\n", encoding="utf-8")
    WORKFLOW_ID_FILE.write_text(workflow_id + "\n", encoding="utf-8")
    return workflow_id


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    workflow_id = asyncio.run(record())
    print(f"wrote {OUT.relative_to(ROOT)} ({workflow_id})")
