"""Routing: each app on its own task queue, so a worker only gets the apps it serves.

Runs on: test process, two `python -m worker` processes and the shared dev server.
Before (one queue for every app), with two workers serving different apps about
half of the invocations failed: the worker without the app took them.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

from adk.sessions import SqliteSessionService
from client import AgentClient
from worker import connect
from workflows.names import app_task_queue

REPO = Path(__file__).resolve().parents[2]

APP = """
from adk import Agent
from adk.testing import MockModel

root_agent = Agent(name="{agent}", model=MockModel.create(["{agent} here"] * 50))
"""

pytestmark = pytest.mark.slow


def _app(tmp: Path, name: str, agent: str) -> Path:
    folder = tmp / name
    folder.mkdir()
    (folder / "agent.py").write_text(textwrap.dedent(APP.format(agent=agent)))
    return folder


def _worker(address: str, app: Path, tmp: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "DURABLE_ADK_TASK_QUEUE"}
    command = [sys.executable, "-m", "worker", str(app), "--address", address]
    command += ["--db", str(tmp / "sessions.db"), "--log-format", "console"]
    with open(tmp / f"worker-{app.name}.log", "ab") as out:
        return subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)


async def test_two_workers_with_different_apps_each_get_only_their_apps(temporal_env, tmp_path):
    suffix = uuid.uuid4().hex[:6]
    names = {f"alpha_{suffix}": "alpha", f"beta_{suffix}": "beta"}
    address = temporal_env.client.service_client.config.target_host
    workers = [
        _worker(address, _app(tmp_path, app, agent), tmp_path) for app, agent in names.items()
    ]
    store = SqliteSessionService(tmp_path / "sessions.db")
    try:
        agents = AgentClient(await connect(address), store)  # no queue: each app's own
        assert agents.queue_of(f"alpha_{suffix}") == app_task_queue(f"alpha_{suffix}")

        async def one(app: str, n: int) -> tuple[str, str | None]:
            invocation = await agents.start(
                app_name=app, user_id="u", session_id=f"s{n}", new_message="hi"
            )
            result = await asyncio.wait_for(invocation.handle.result(), timeout=60)
            return app, result.final_text

        results = await asyncio.gather(*(one(app, n) for app in names for n in range(5)))
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=30)
        store.close()
    assert sorted(results) == sorted(
        (app, f"{agent} here") for app, agent in names.items() for _ in range(5)
    )
    logs = {app: (tmp_path / f"worker-{app}.log").read_text() for app in names}
    for app, log in logs.items():
        assert app_task_queue(app) in log  # each worker says which queue it polls
        other = next(a for a in names if a != app)
        assert app_task_queue(other) not in log
