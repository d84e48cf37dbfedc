"""What the chaos scenarios share: a dev server, worker processes, the chaos app's
invocations, and how a session is compared with a clean run.

Runs on: process side.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from adk.events.event import Event
from adk.sessions import DatabaseSessionService, SqliteSessionService
from client import AgentClient
from durable_adk.dev_server import DevServerProcess
from worker import connect

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "bench" / "apps" / "chaos"
QUEUE = "chaos"
TOOLS_PER_INVOCATION = 4


class Lab:
    """A dev server, a session store and the worker processes of one scenario."""

    def __init__(
        self, tmp: Path, env: dict[str, str] | None = None, db_url: str | None = None
    ) -> None:
        """`db_url`: a database URL for the session store (workers and this process
        share it); unset, a SQLite file in `tmp`."""
        self.tmp = tmp
        self.server = DevServerProcess(tmp / "temporal.db", tmp / "server.log")
        self.store_path = tmp / "sessions.db"
        self.db = db_url or str(self.store_path)
        self.log = tmp / "tools.log"
        self.env = {**os.environ, "CHAOS_LOG": str(self.log), "PYTHONUNBUFFERED": "1"}
        self.env.update(env or {})
        self.workers: list[subprocess.Popen[bytes]] = []
        self.started = 0

    async def __aenter__(self) -> Lab:
        self.server.start()
        self.store: Any = (
            DatabaseSessionService(self.db) if "://" in self.db else SqliteSessionService(self.db)
        )
        self.client = AgentClient(await connect(self.server.address), self.store, task_queue=QUEUE)
        return self

    async def __aexit__(self, *_: Any) -> None:
        for proc in self.workers:
            stop(proc)
        if isinstance(self.store, DatabaseSessionService):
            await self.store.db_engine.dispose()
        else:
            self.store.close()
        self.server.stop()

    def start_worker(self, *apps: Path) -> subprocess.Popen[bytes]:
        self.started += 1
        command = [sys.executable, "-m", "worker", *(str(a) for a in apps or [APP])]
        command += ["--address", self.server.address, "--task-queue", QUEUE]
        command += ["--db", self.db, "--log-format", "json"]
        with open(self.tmp / f"worker-{self.started}.log", "ab") as out:
            proc = subprocess.Popen(
                command, cwd=REPO, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        self.workers.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        proc.kill()  # SIGKILL: nothing reported to the server
        proc.wait()
        self.workers.remove(proc)

    def tool_runs(self) -> Counter[str]:
        """Real tool executions per session id."""
        lines = self.log.read_text().splitlines() if self.log.exists() else []
        return Counter(line.split()[0] for line in lines)

    async def outcome(self, session_id: str) -> tuple[list[Any], dict[str, Any]]:
        session = await self.store.get_session(app_name="chaos", user_id="u", session_id=session_id)
        assert session is not None
        return shape(session.events), dict(session.state)


def shape(events: list[Event]) -> list[Any]:
    """What a run must reproduce: each event's author, texts, function call and
    response names, and state delta (ids and timestamps differ by nature)."""
    out = []
    for event in events:
        parts = (event.content.parts if event.content else None) or []
        out.append(
            (
                event.author,
                tuple(p.text for p in parts if p.text),
                tuple(p.function_call.name for p in parts if p.function_call),
                tuple(p.function_response.name for p in parts if p.function_response),
                tuple(sorted(event.actions.state_delta.items())),
            )
        )
    return out


def differences(got: tuple[list[Any], dict[str, Any]], clean: tuple[list[Any], dict[str, Any]]):
    """Where a session differs from the clean run: one short line each."""
    found = []
    events, state = got
    for key in sorted(set(state) | set(clean[1])):
        if state.get(key) != clean[1].get(key):
            found.append(f"state[{key!r}] = {state.get(key)!r}, clean {clean[1].get(key)!r}")
    if len(events) != len(clean[0]):
        found.append(f"{len(events)} events, clean {len(clean[0])}")
    for i, (a, b) in enumerate(zip(events, clean[0], strict=False)):
        if a != b:
            found.append(f"event {i}: {a} != clean {b}")
            break
    return found


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_started(proc: subprocess.Popen[bytes], log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while "worker started" not in (log.read_text() if log.exists() else ""):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the worker did not start; see {log}")
        time.sleep(0.05)
