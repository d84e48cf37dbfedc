"""Clients wait through a real outage of the Temporal server and report no failure.

Runs on: test process only. It starts its own `temporal server start-dev` (free
ports, its own --db-filename), a worker process and `python -m client run`; stops
the server while the invocation's slow step runs, sends an approval for another
session during the outage, and starts the server again on the same database file.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adk.sessions import SqliteSessionService
from client import AgentClient
from durable_adk.dev_server import DevServerProcess
from worker import connect

from .test_durability import REPO, start_worker, worker_logs
from .test_readme_commands import cli_env

OUTAGE_SECONDS = 12.0
"""Longer than the SDK's own retries (~10 s), so the clients' waiting is what is tested."""


async def _until(condition, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.1)


@pytest.mark.slow
async def test_run_and_an_approval_go_through_a_server_outage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OUTAGE_LOG", str(tmp_path / "steps"))  # for the worker
    server = DevServerProcess(tmp_path / "temporal.db", tmp_path / "server.log")
    server.start()
    queue = "outage"
    worker = start_worker(server.address, queue, tmp_path, "worker", REPO / "tests/apps/outage")
    cli: subprocess.Popen[str] | None = None
    store = SqliteSessionService(tmp_path / "sessions.db")
    try:
        told: list[str] = []
        agents = AgentClient(
            await connect(server.address), store, task_queue=queue, on_contact_lost=told.append
        )
        # another session waits for an approval
        waiting = await agents.start(
            app_name="outage", user_id="u", session_id="w", new_message="pay"
        )

        async def asks() -> bool:
            return bool((await agents.status(waiting.workflow_id)).pending)

        await _until(asks, "the approval request")
        request_id = (await agents.status(waiting.workflow_id)).pending[0].id

        env = cli_env(server.address, tmp_path, queue)
        argv = ["--db", str(tmp_path / "sessions.db"), "run", "--app", "outage"]
        cli = subprocess.Popen(
            [sys.executable, "-m", "client", *argv, "--session", "r", "work on it"],
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

        async def step_started() -> bool:
            assert cli is not None and cli.poll() is None, cli and cli.communicate()
            return (tmp_path / "steps").exists()

        await _until(step_started, "the slow step")
        server.stop(kill=True)  # the outage: mid-invocation, the step still running
        approval = asyncio.ensure_future(agents.approve(waiting.workflow_id, request_id))
        await asyncio.sleep(OUTAGE_SECONDS)
        assert not approval.done()  # it waits, neither refused nor failed
        server.start()

        out, err = await asyncio.to_thread(cli.communicate, timeout=120)
        assert cli.returncode == 0, f"{out}\n{err}\n{worker_logs(tmp_path)}"
        assert "Traceback" not in err and "failed" not in err
        # at most one line, with the way back (none when the SDK's own retries
        # happened to span the outage: how long they take varies with load)
        assert err.count("lost contact with Temporal") <= 1, err
        assert "lost contact" not in err or "follow --app outage --user user r" in err
        assert "→ slow_step(" in out and "← slow_step" in out
        assert "final answer: all done" in out
        assert await asyncio.wait_for(approval, 60)  # applied after the restart
        assert told in ([], [waiting.workflow_id])  # told at most once
        result = await asyncio.wait_for(waiting.handle.result(), 60)
        assert result.final_text == "all done"
        state = await store.get_state(app_name="outage", user_id="u", session_id="w")
        assert state["paid"] == 5
    finally:
        if cli is not None and cli.poll() is None:
            cli.kill()
        worker.terminate()
        worker.wait(30)
        store.close()
        server.stop()
