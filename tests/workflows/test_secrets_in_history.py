"""Secrets never reach workflow history (issue 12): canaries in `temp:` state, in a
tool's credential and in the model's API key, through tools, callbacks, child
workflows (a transfer and an AgentTool) and a confirmation.

Runs on: test process, against the session's local Temporal, with the real
google-genai client talking to FakeGeminiServer.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
from temporalio.api.history.v1 import History
from temporalio.client import Client

from adk import Agent
from adk.agents.callback_context import CallbackContext
from adk.testing.fake_gemini import FakeGeminiServer
from adk.tools import AgentTool, FunctionTool, ToolContext
from client import AgentClient

from .helpers import runner_for

CANARY_TEMP = "canary-temp-7d1f0b"  # an OAuth token a callback keeps under temp:
CANARY_CREDENTIAL = "canary-credential-52a9e4"  # the tool's own secret, from the worker's env
CANARY_KEY = "canary-api-key-0c3b8a"  # the model's API key


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGeminiServer]:
    for var in ("GEMINI_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT"):
        monkeypatch.delenv(var, raising=False)
    with FakeGeminiServer() as fake:
        monkeypatch.setenv("GOOGLE_API_KEY", CANARY_KEY)  # the worker runs in this process
        monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", fake.base_url)
        monkeypatch.setenv("REPORT_API_TOKEN", CANARY_CREDENTIAL)
        yield fake


def _tree(seen: list[tuple[str, Any]]) -> Agent:
    def remember_login(callback_context: CallbackContext, llm_request: Any) -> None:
        if "temp:oauth" not in callback_context.state:
            callback_context.state["temp:oauth"] = CANARY_TEMP

    def fetch_report(topic: str, tool_context: ToolContext) -> dict:
        """Fetches a report with the service's credential."""
        import os

        token = os.environ["REPORT_API_TOKEN"]
        tool_context.state["temp:report_token"] = token  # as ADK's auth flow keeps tokens
        return {"topic": topic, "pages": 3}

    def pay(amount: int, tool_context: ToolContext) -> dict:
        """Pays an amount."""
        seen.append(("pay", tool_context.state.get("temp:oauth") == CANARY_TEMP))
        return {"paid": amount}

    def check(name: str):
        def saw(callback_context: CallbackContext, llm_request: Any) -> None:
            state = callback_context.state
            seen.append((name, state.get("temp:report_token") == CANARY_CREDENTIAL))

        return saw

    helper = Agent(
        name="helper",
        model="gemini-2.5-flash",
        description="Summarizes.",
        before_model_callback=check("helper"),
    )
    closer = Agent(
        name="closer",
        model="gemini-2.5-flash",
        description="Closes.",
        before_model_callback=check("closer"),
    )
    return Agent(
        name="desk",
        model="gemini-2.5-flash",
        tools=[fetch_report, FunctionTool(pay, require_confirmation=True), AgentTool(helper)],
        sub_agents=[closer],
        before_model_callback=remember_login,
    )


def _script(server: FakeGeminiServer) -> None:
    call = FakeGeminiServer.function_call
    server.add(
        FakeGeminiServer.error(429, f"Quota exhausted for key {CANARY_KEY}", retry_after=1),
        call("fetch_report", {"topic": "q3"}),
        call("pay", {"amount": 5}),
        call("helper", {"request": "summarize q3"}),
        FakeGeminiServer.text("Three pages."),  # the helper (an AgentTool: a child workflow)
        call("transfer_to_agent", {"agent_name": "closer"}),
        FakeGeminiServer.text("All done."),  # the closer (a transfer: a child workflow)
    )


async def _histories(client: Client, workflow_id: str) -> dict[str, str]:
    """Every workflow of the tree: its history as JSON, its raw bytes, and every payload
    decoded from base64 (the JSON holds payloads base64-encoded)."""
    found: dict[str, str] = {}
    todo = [workflow_id]
    while todo:
        current = todo.pop()
        history = await client.get_workflow_handle(current).fetch_history()
        text = history.to_json()
        raw = History(events=history.events).SerializeToString().decode(errors="replace")
        found[current] = "\n".join([text, raw, *_decoded(json.loads(text))])
        todo += [
            e.child_workflow_execution_started_event_attributes.workflow_execution.workflow_id
            for e in history.events
            if e.HasField("child_workflow_execution_started_event_attributes")
        ]
    return found


def _decoded(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "data" and isinstance(item, str):
                yield base64.b64decode(item).decode(errors="replace")
            else:
                yield from _decoded(item)
    elif isinstance(value, list):
        for item in value:
            yield from _decoded(item)


async def test_no_canary_reaches_any_history_of_the_tree(temporal_env, server):
    _script(server)
    seen: list[tuple[str, Any]] = []
    async with runner_for(temporal_env, _tree(seen)) as runner:
        temporal = await runner._ensure_started()
        client = AgentClient(temporal, runner.session_service, task_queue=runner.task_queue)
        invocation = await client.start(
            app_name="test_app", user_id="u1", session_id="canary", new_message="Pay for q3"
        )
        for _ in range(300):
            pending = (await client.status(invocation.workflow_id)).pending
            if pending and all(p.awaited for p in pending):
                break
            await asyncio.sleep(0.05)
        [request] = pending
        await client.approve(invocation.workflow_id, request.id)
        result = await invocation.handle.result()
        histories = await _histories(temporal_env.client, invocation.workflow_id)
    assert result.final_text == "All done."
    # the values did travel with the invocation: the tools and agents saw them
    assert seen == [("pay", True), ("helper", True), ("closer", True)]
    assert len(histories) == 3  # the root, the AgentTool's agent, the transfer target
    together = "\n".join(histories.values())
    assert "temp:oauth" in together and "durable_adk.sealed" in together  # searched, sealed
    assert "Pay for q3" in together and "fetch_report" in together  # payloads are decoded
    assert "Quota exhausted for key ***" in together  # the 429 is recorded, redacted
    for workflow_id, text in histories.items():
        for canary in (CANARY_TEMP, CANARY_CREDENTIAL, CANARY_KEY):
            assert canary not in text, f"{canary} in the history of {workflow_id}"
