"""Record the histories of a resumable invocation whose transferred-to SequentialAgent's
step waits for an approval.

Run from the repository root when the workflows change on purpose:

    .venv/bin/python tests/histories/record_transferred_sequence.py [OUT.json]

One invocation of a resumable app: the root LlmAgent `desk` transfers to
`pipeline = SequentialAgent([step_a, step_b])`; step_a's `require_confirmation` call
is approved by `run_async(invocation_id=..., new_message=...)`. Writes every
workflow's history of the tree, replayed by tests/workflows/test_nested_pauses.py.
`transferred_sequence_before_alone.json` was recorded on the commit before the
answer ran its agent alone (PATCH_ANSWERS_RUN_ALONE: the pipeline resumed, step_b ran).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from google.genai import types

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "transferred_sequence.json"


def send_money(amount: int, tool_context) -> dict:  # type: ignore[no-untyped-def]
    """Sends money."""
    tool_context.state["sent"] = amount
    return {"status": "sent", "amount": amount}


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
    from adk.apps.app import App, ResumabilityConfig
    from adk.sessions import InMemorySessionService
    from adk.testing import MockModel
    from adk.tools import FunctionTool
    from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
    from workflows import names
    from workflows.converter import data_converter

    call = types.Part.from_function_call
    step_a = Agent(
        name="step_a",
        model=MockModel.create([call(name="send_money", args={"amount": 10}), "Sent 10."]),
        tools=[FunctionTool(send_money, require_confirmation=True)],
    )
    step_b = Agent(name="step_b", model=MockModel.create(["Reported."]))
    pipeline = SequentialAgent(
        name="pipeline", description="Pays, then reports.", sub_agents=[step_a, step_b]
    )
    desk = Agent(
        name="desk",
        model=MockModel.create([call(name="transfer_to_agent", args={"agent_name": "pipeline"})]),
        sub_agents=[pipeline],
    )
    app = App(
        name="transeq",
        root_agent=desk,
        resumability_config=ResumabilityConfig(is_resumable=True),
    )
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=temporal_binary(),
        data_converter=data_converter,
        search_attributes=names.SEARCH_ATTRIBUTES,
        dev_server_extra_args=DEV_SERVER_ARGS,
    )
    workflow_id = names.invocation_workflow_id("transeq", "u1", "s1")
    try:
        async with Runner(
            app=app,
            session_service=InMemorySessionService(),
            temporal_client=env.client,
            auto_create_session=True,
        ) as runner:
            text = types.Content(role="user", parts=[types.Part(text="pay 10 then report")])
            first = [
                e async for e in runner.run_async(user_id="u1", session_id="s1", new_message=text)
            ]
            event, asking = next(
                (e, c)
                for e in first
                for c in e.get_function_calls()
                if c.name == "adk_request_confirmation"
            )
            approve = types.FunctionResponse(
                id=asking.id, name=asking.name, response={"confirmed": True}
            )
            message = types.Content(role="user", parts=[types.Part(function_response=approve)])
            async for _ in runner.run_async(
                user_id="u1",
                session_id="s1",
                invocation_id=event.invocation_id,
                new_message=message,
            ):
                pass
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
