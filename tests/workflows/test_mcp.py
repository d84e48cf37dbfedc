"""MCP toolsets on the durable runtime: a real MCP server (tests/apps/mcp_notes),
over stdio, Streamable HTTP (a loopback port) and SSE, listed and called by an agent;
and an agent's instruction fetched from one of its prompts (McpInstructionProvider).

Runs on: test process (the Runner's worker runs in it, on the session's local
Temporal, replaying every workflow task). The declarations the model sees are
compared with google-adk 2.13's for the same server (the test-only reference).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from google.genai import types
from temporalio.api.enums.v1 import EventType

from adk import Agent
from adk.testing import MockModel
from adk.tools.mcp_tool import (
    McpToolset,
    SseConnectionParams,
    StdioConnectionParams,
    StreamableHTTPConnectionParams,
)
from adk.tools.mcp_tool.mcp_session_manager import StdioServerParameters
from durable_adk.dev_server import free_port
from tests.apps.mcp_notes.serving import SERVER, end, start_http
from workflows import names

from .helpers import runner_for, simplify, turn


def _call(name: str, **args: Any) -> types.Part:
    return types.Part.from_function_call(name=name, args=args)


def started_pids(log: Path) -> list[int]:
    lines = log.read_text().splitlines() if log.exists() else []
    return [
        json.loads(line.split(" ", 1)[1])["pid"] for line in lines if line.startswith("started")
    ]


def alive(pid: int) -> bool:
    """Running (not gone, not a zombie waiting to be reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@contextlib.contextmanager
def http_server(
    mode: str, env: dict[str, str], tmp: Path
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A server on a free loopback port: (its URL, its process)."""
    port = free_port()
    proc = start_http(mode, port, env, tmp)
    try:
        yield f"http://127.0.0.1:{port}" + ("/mcp" if mode == "http" else "/sse"), proc
    finally:
        end(proc)


def connection(transport: str, env: dict[str, str], url: str | None) -> Any:
    if transport == "stdio":
        return StdioConnectionParams(
            server_params=StdioServerParameters(
                command=sys.executable, args=[str(SERVER)], env={**os.environ, **env}
            ),
            timeout=20,
        )
    if transport == "http":
        return StreamableHTTPConnectionParams(url=url or "", timeout=20)
    return SseConnectionParams(url=url or "", timeout=20)


@contextlib.asynccontextmanager
async def served(transport: str, env: dict[str, str], tmp: Path) -> AsyncIterator[Any]:
    if transport == "stdio":
        yield connection(transport, env, None)
        return
    with http_server(transport, env, tmp) as (url, _):
        yield connection(transport, env, url)


SCRIPT = [
    _call("notes_add_note", title="milk", text="the milk is out"),
    [_call("notes_list_notes"), _call("notes_slow_count", word="milk")],
    "You have one note, about milk.",
]


async def reference_declarations(params: Any) -> list[dict[str, Any]]:
    """What google-adk 2.13 declares for the same server's tools (prefix "notes")."""
    from google.adk.tools.mcp_tool import McpToolset as ReferenceToolset
    from google.adk.tools.mcp_tool import mcp_session_manager as ref

    ref_params: Any
    if isinstance(params, StdioConnectionParams):
        ref_params = ref.StdioConnectionParams(
            server_params=params.server_params, timeout=params.timeout
        )
    elif isinstance(params, StreamableHTTPConnectionParams):
        ref_params = ref.StreamableHTTPConnectionParams(url=params.url, timeout=params.timeout)
    else:
        ref_params = ref.SseConnectionParams(url=params.url, timeout=params.timeout)
    toolset = ReferenceToolset(connection_params=ref_params, tool_name_prefix="notes")
    try:
        tools = await toolset.get_tools_with_prefix()
        return [
            t._build_fenced_declaration().model_dump(exclude_none=True)  # as sent (fenced)
            for t in tools
        ]
    finally:
        await toolset.close()


@pytest.mark.parametrize("transport", ["stdio", "http", "sse"])
async def test_an_agent_lists_and_calls_an_mcp_servers_tools(temporal_env, tmp_path, transport):
    env = {"MCP_NOTES_LOG": str(tmp_path / "calls.log")}
    async with served(transport, env, tmp_path) as params:
        notes = McpToolset(connection_params=params, tool_name_prefix="notes")
        model = MockModel.create(SCRIPT)
        agent = Agent(name="notes_agent", model=model, instruction="Keep notes.", tools=[notes])
        async with runner_for(temporal_env, agent) as runner:
            first = await turn(runner, "note that the milk is out")
        calls = [
            line.split(" ", 1)[0] for line in (tmp_path / "calls.log").read_text().splitlines()
        ]
        expected = await reference_declarations(params)

    assert simplify(first)[1:] == [
        ("notes_agent", ("call", "notes_add_note", {"title": "milk", "text": "the milk is out"})),
        ("notes_agent", ("response", "notes_add_note", {
            "content": [{"type": "text", "text": "saved milk"}],
            "structuredContent": {"result": "saved milk"},
            "isError": False,
        })),
        ("notes_agent", ("call", "notes_list_notes", {})),
        ("notes_agent", ("call", "notes_slow_count", {"word": "milk"})),
        ("notes_agent", ("response", "notes_list_notes", {
            "content": [{"type": "text", "text": "milk"}],
            "structuredContent": {"result": ["milk"]},
            "isError": False,
        })),
        ("notes_agent", ("response", "notes_slow_count", {
            "content": [{"type": "text", "text": '{\n  "count": 1\n}'}],
            "structuredContent": {"count": 1},
            "isError": False,
        })),
        ("notes_agent", "You have one note, about milk."),
    ]  # fmt: skip
    # the declarations google-adk 2.13 sends for these tools, byte for byte, every step
    for request in model.requests:
        sent = request.config.tools[0].function_declarations  # type: ignore[index]
        assert [d.model_dump(exclude_none=True) for d in sent] == expected
        assert "<<<BEGIN_UNTRUSTED_TOOL_DESCRIPTION>>>" in str(request.config.system_instruction)
    # one server (a stdio one started by the worker process at its first listing) and
    # one session, reused: each call ran once (the step's two concurrently, in any order)
    assert calls[:2] == ["started", "add_note"]
    assert sorted(calls[2:]) == ["list_notes", "slow_count"]


async def test_a_stdio_server_that_died_is_started_again_and_closed_with_the_runner(
    temporal_env, tmp_path
):
    """The server process dies between two calls: the next call opens a new session (a
    new process) and the invocation goes on. Closing the Runner ends the server."""
    log = tmp_path / "calls.log"
    env = {"MCP_NOTES_LOG": str(log), "MCP_NOTES_FILE": str(tmp_path / "notes.json")}

    async def kill_server() -> dict[str, int]:
        """Kills the notes server."""
        pid = started_pids(log)[-1]
        os.kill(pid, signal.SIGKILL)
        while alive(pid):
            await asyncio.sleep(0.02)
        return {"killed": pid}

    notes = McpToolset(connection_params=connection("stdio", env, None))
    model = MockModel.create(
        [
            _call("add_note", title="milk", text="the milk is out"),
            _call("kill_server"),
            _call("list_notes"),
            "One note: milk.",
        ]
    )
    agent = Agent(name="notes_agent", model=model, tools=[notes, kill_server])
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "note it, then look")
        first, second = started_pids(log)
        assert alive(second) and not alive(first)
    assert not alive(second)  # the Runner closed the toolset: its server ended
    assert simplify(events)[-2:] == [
        ("notes_agent", ("response", "list_notes", {
            "content": [{"type": "text", "text": "milk"}],
            "structuredContent": {"result": ["milk"]},
            "isError": False,
        })),
        ("notes_agent", "One note: milk."),
    ]  # fmt: skip


async def test_a_call_whose_http_server_is_down_is_retried_until_it_is_back(temporal_env, tmp_path):
    """The HTTP server goes away between two calls and comes back a moment later: the
    second call's activity fails its attempt (a lost connection) and its retry, on a
    new session, succeeds; the model never sees an error."""
    env = {"MCP_NOTES_FILE": str(tmp_path / "notes.json")}
    restarted: list[subprocess.Popen[bytes]] = []
    with http_server("http", env, tmp_path) as (url, first):
        port = int(url.split(":")[2].split("/")[0])

        async def restart_server() -> str:
            """Restarts the notes server (it is down for a second)."""
            first.kill()
            first.wait()

            async def later() -> None:
                await asyncio.sleep(1.0)
                restarted.append(await asyncio.to_thread(start_http, "http", port, env, tmp_path))

            background.append(asyncio.get_running_loop().create_task(later()))
            return "restarting"

        background: list[asyncio.Task[None]] = []
        notes = McpToolset(connection_params=StreamableHTTPConnectionParams(url=url, timeout=5))
        model = MockModel.create(
            [
                _call("add_note", title="milk", text="the milk is out"),
                _call("restart_server"),
                _call("list_notes"),
                "One note: milk.",
            ]
        )
        agent = Agent(name="notes_agent", model=model, tools=[notes, restart_server])
        try:
            async with runner_for(temporal_env, agent) as runner:
                events = await turn(runner, "note it, restart, look")
                workflow_id = names.invocation_workflow_id("test_app", "u1", "s1")
                handle = temporal_env.client.get_workflow_handle(workflow_id)
                history = await handle.fetch_history()
        finally:
            await asyncio.gather(*background)
            for proc in restarted:
                end(proc)
    assert simplify(events)[-2] == (
        "notes_agent",
        ("response", "list_notes", {
            "content": [{"type": "text", "text": "milk"}],
            "structuredContent": {"result": ["milk"]},
            "isError": False,
        }),
    )  # fmt: skip
    retries = [
        e.activity_task_started_event_attributes
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
        and e.activity_task_started_event_attributes.attempt > 1
    ]
    assert retries, "list_notes's first attempt should have failed (the server was down)"
    failure = retries[0].last_failure
    assert failure.application_failure_info.type == "TransientToolError"
    assert "MCP tool list_notes: connection failed" in failure.message


async def test_the_mcp_files_example_runs_offline(temporal_env, tmp_path, monkeypatch):
    """examples/mcp_files as `python -m worker` loads it, with its offline model."""
    from worker._loader import load_apps

    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MCP_FILES_ROOT", str(tmp_path / "files"))
    app = load_apps([str(Path(__file__).resolve().parents[2] / "examples" / "mcp_files")])[
        "mcp_files"
    ]
    async with runner_for(temporal_env, app.root_agent) as runner:
        events = await turn(runner, "buy milk")
    assert [what for _, what in simplify(events)][1:] == [
        ("call", "list_files", {}),
        ("response", "list_files", {
            "content": [], "structuredContent": {"result": []}, "isError": False,
        }),
        ("call", "write_file", {"name": "notes.txt", "text": "buy milk"}),
        ("response", "write_file", {
            "content": [{"type": "text", "text": "wrote 8 characters to notes.txt"}],
            "structuredContent": {"result": "wrote 8 characters to notes.txt"},
            "isError": False,
        }),
        ("call", "read_file", {"name": "notes.txt"}),
        ("response", "read_file", {
            "content": [{"type": "text", "text": "buy milk"}],
            "structuredContent": {"result": "buy milk"},
            "isError": False,
        }),
        "notes.txt now says: buy milk",
    ]  # fmt: skip
    assert (tmp_path / "files" / "notes.txt").read_text() == "buy milk"


async def test_an_instruction_from_an_mcp_prompt_retries_a_lost_connection(temporal_env, tmp_path):
    """McpInstructionProvider in the model step: the first attempt's server fails to
    start (a lost connection: the attempt fails as TransientToolError), the retry
    starts it and the model gets the prompt, its arguments from the state; closing
    the Runner ends the server."""
    from adk.agents import McpInstructionProvider

    log, marker = tmp_path / "calls.log", tmp_path / "failed_once"
    flaky = (  # exits at once the first time, then is the notes server
        "import os, sys, runpy\n"
        f"marker = {str(marker)!r}\n"
        "if not os.path.exists(marker):\n"
        "    open(marker, 'w').close(); sys.exit(1)\n"
        f"sys.argv = [{str(SERVER)!r}]; runpy.run_path(sys.argv[0], run_name='__main__')\n"
    )
    params = StdioConnectionParams(
        server_params=StdioServerParameters(
            command=sys.executable,
            args=["-c", flaky],
            env={**os.environ, "MCP_NOTES_LOG": str(log)},
        ),
        timeout=20,
    )
    model = MockModel.create(["Hello Ann."])
    agent = Agent(
        name="notes_agent", model=model, instruction=McpInstructionProvider(params, "persona")
    )
    async with runner_for(temporal_env, agent) as runner:
        session = await runner.session_service.create_session(
            app_name="test_app", user_id="u1", session_id="s1", state={"user_name": "Ann"}
        )
        assert session.state["user_name"] == "Ann"
        events = await turn(runner, "hello")
        handle = temporal_env.client.get_workflow_handle(
            names.invocation_workflow_id("test_app", "u1", "s1")
        )
        history = await handle.fetch_history()
        (pid,) = started_pids(log)
        assert alive(pid)
    assert not alive(pid)  # the Runner closed the provider's session: its server ended
    assert simplify(events)[-1] == ("notes_agent", "Hello Ann.")
    (request,) = model.requests
    assert str(request.config.system_instruction).startswith(
        "You keep the notes of Ann. Be cheerful."
    )
    retries = [
        e.activity_task_started_event_attributes
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
        and e.activity_task_started_event_attributes.attempt > 1
    ]
    assert retries, "the model step's first attempt should have failed (no server)"
    failure = retries[0].last_failure
    assert failure.application_failure_info.type == "TransientToolError"
    assert "MCP prompt persona: connection failed" in failure.message
