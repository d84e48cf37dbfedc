"""MCP toolsets are durable: a worker SIGKILLed between two MCP calls.

Runs on: test process; the app (tests/apps/mcp_notes) runs in real worker
processes (`python -m worker`), each of which starts its own stdio MCP server.
The invocation continues on a new worker, which opens a new MCP session (a new
server process) and ends with the same events and state as a clean run; every
MCP call that had completed is never made again (its result is in history).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path

import pytest
from temporalio.api.enums.v1 import EventType

from adk.sessions import SqliteSessionService
from client import AgentClient
from workflows import WORKFLOWS, names

from .test_durability import (
    REPO,
    content,
    replayer,
    start_worker,
    stop,
    wait_until,
    worker_logs,
)

MCP_APP = REPO / "tests" / "apps" / "mcp_notes"
MESSAGE = "Note that the milk is out, then count the notes about milk."


def server_log(tmp: Path) -> list[tuple[str, dict[str, object]]]:
    """(tool, arguments) per call the MCP servers ran, and ("started", pid) per server."""
    path = tmp / "mcp_calls.log"
    lines = path.read_text().splitlines() if path.exists() else []
    return [(line.split(" ", 1)[0], json.loads(line.split(" ", 1)[1])) for line in lines]


@pytest.mark.slow
async def test_worker_killed_between_two_mcp_calls_resumes_with_a_new_session(
    temporal_env, tmp_path
):
    address = temporal_env.client.service_client.config.target_host
    task_queue = f"mcp-{uuid.uuid4().hex[:8]}"
    store = SqliteSessionService(tmp_path / "sessions.db")
    agents = AgentClient(temporal_env.client, store, task_queue=task_queue)
    hooks = {
        "MCP_NOTES_LOG": str(tmp_path / "mcp_calls.log"),
        "MCP_NOTES_FILE": str(tmp_path / "notes.json"),
    }
    workers = [start_worker(address, task_queue, tmp_path, "worker1", MCP_APP, hooks)]
    try:
        killed = await agents.start(
            app_name="mcp_notes", user_id="u", session_id="killed", new_message=MESSAGE
        )
        # add_note has completed and slow_count (1.5 s) has just started: kill now
        await wait_until(
            lambda: any(tool == "slow_count" for tool, _ in server_log(tmp_path)),
            timeout=30,
            what="the second MCP call to start",
            proc=workers[0],
            tmp=tmp_path,
        )
        workers[0].kill()  # SIGKILL: no shutdown, the MCP session is not closed
        assert workers[0].wait() == -9
        workers.append(start_worker(address, task_queue, tmp_path, "worker2", MCP_APP, hooks))
        killed_result = await asyncio.wait_for(killed.handle.result(), timeout=60)
        # a clean run on the same worker, for comparison
        reference = await agents.start(
            app_name="mcp_notes", user_id="u", session_id="reference", new_message=MESSAGE
        )
        reference_result = await asyncio.wait_for(reference.handle.result(), timeout=60)
        history = await killed.handle.fetch_history()
    finally:
        for proc in workers:
            stop(proc)  # SIGTERM: the surviving worker shuts down and closes its toolsets

    assert (
        killed_result.final_text == reference_result.final_text == "One note mentions milk: milk."
    )
    sessions = [
        await store.get_session(app_name="mcp_notes", user_id="u", session_id=session_id)
        for session_id in ("killed", "reference")
    ]
    store.close()
    assert content(sessions[0]) == content(sessions[1]), worker_logs(tmp_path)
    events, state = content(sessions[0])
    assert [what for _, what in events] == [
        MESSAGE,
        ("call", "add_note", {"title": "milk", "text": "the milk is out"}),
        ("response", "add_note", {
            "content": [{"type": "text", "text": "saved milk"}],
            "structuredContent": {"result": "saved milk"},
            "isError": False,
        }),
        ("call", "slow_count", {"word": "milk"}),
        ("response", "slow_count", {
            "content": [{"type": "text", "text": '{\n  "count": 1\n}'}],
            "structuredContent": {"count": 1},
            "isError": False,
        }),
        ("call", "list_notes", {}),
        ("response", "list_notes", {
            "content": [{"type": "text", "text": "milk"}],
            "structuredContent": {"result": ["milk"]},
            "isError": False,
        }),
        "One note mentions milk: milk.",
    ]  # fmt: skip
    assert state == {"answer": "One note mentions milk: milk."}
    assert sessions[0] is not None
    ids = [e.id for e in sessions[0].events]
    assert len(ids) == len(set(ids)), "an event was recorded twice"

    # one server per worker process, its session reused by every listing and call there
    pids = [args["pid"] for tool, args in server_log(tmp_path) if tool == "started"]
    assert len(pids) == 2
    # the killed worker's server exited with its input; the stopped worker closed its own,
    # cleanly: no error or warning in its log
    assert not any(Path(f"/proc/{pid}").exists() for pid in pids)
    shutdown = (tmp_path / "worker2.log").read_text()
    assert "worker stopping" in shutdown
    assert not any(word in shutdown for word in ("Traceback", "warning", "error")), shutdown
    # the completed call never ran again; the one in flight at the kill ran again
    log = [(tool, args) for tool, args in server_log(tmp_path) if tool != "started"]
    assert log.count(("add_note", {"title": "milk", "text": "the milk is out"})) == 2  # both runs
    assert log.count(("slow_count", {"word": "milk"})) == 3  # killed attempt, retry, reference
    assert log.count(("list_notes", {})) == 2

    # each MCP call was a tool-call activity of its own; only slow_count's was retried
    scheduled = {
        e.event_id: e.activity_task_scheduled_event_attributes
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
    }
    tool_calls = [a for a in scheduled.values() if a.activity_type.name == names.TOOL_CALL]
    assert len(tool_calls) == 3
    retried = [
        scheduled[e.activity_task_started_event_attributes.scheduled_event_id]
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
        and e.activity_task_started_event_attributes.attempt > 1
    ]
    assert [a.activity_type.name for a in retried] == [names.TOOL_CALL]

    # the whole history replays with no MCP server (nor any worker) left: replay reads
    # the listings' and calls' results from history and never connects
    await replayer(*WORKFLOWS).replay_workflow(history)
