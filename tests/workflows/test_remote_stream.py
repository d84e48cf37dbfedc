"""Issue 15, clients anywhere: a client sharing nothing with the worker but Temporal's
address and the database URL streams every event, attaching late and reconnecting.

Runs on: test process, spawning `python -m worker` and `python -m client follow`
processes, each in its own empty directory, against a dev server of its own (so it
can be stopped: an outage) and a real PostgreSQL (tests/_postgres.py); and an
in-process check that a waiting stream reads nothing (no polling).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from google.genai import types

from adk import Agent
from adk.apps.app import App
from adk.sessions import DatabaseSessionService
from adk.testing import MockModel
from client import AgentClient
from client._render import event_lines
from client._sealing import new_key
from durable_adk.dev_server import DevServerProcess
from tests._postgres import fresh_postgres_database
from worker import build_worker, connect

from .test_durability import stop
from .test_readme_commands import REPO

APP = REPO / "tests" / "apps" / "gated_tree"
OUTAGE_SECONDS = 12.0
"""Longer than the SDK's own retries (~10 s): the stream's own reconnecting is tested."""


def _env(address: str, home: Path, **more: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DURABLE_ADK_", "TEMPORAL_")) and k not in ("GATE",)
    }
    env.update(TEMPORAL_ADDRESS=address, HOME=str(home), PYTHONUNBUFFERED="1", **more)
    env["DURABLE_ADK_DATA_DIR"] = str(home / ".data")  # would hold files: none are written
    return env


class Lines:
    """A process's stdout, read as it comes (a thread: the test's loop stays free)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    async def until(self, wanted: list[str], what: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not all(line in self.lines for line in wanted):
            assert time.monotonic() < deadline, f"timed out waiting for {what}: {self.lines}"
            await asyncio.sleep(0.05)


def _in_order(expected: list[str], printed: list[str]) -> None:
    position = 0
    for line in expected:
        assert line in printed[position:], (line, printed)
        position = printed.index(line, position) + 1


async def _shown(store: DatabaseSessionService, session_id: str) -> list[str]:
    recorded = await store.list_events(app_name="gated_tree", user_id="u", session_id=session_id)
    return [line for _, e in recorded if e.author != "user" for line in event_lines(e)]


@pytest.mark.slow
async def test_a_client_elsewhere_attaches_late_and_streams_through_an_outage(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = await fresh_postgres_database(postgres_url)
    key = new_key()
    monkeypatch.setenv("DURABLE_ADK_TEMP_STATE_KEY", key)  # the test's own starter
    monkeypatch.setenv("DURABLE_ADK_DATA_DIR", str(tmp_path / "starter"))
    server = DevServerProcess(tmp_path / "temporal.db", tmp_path / "server.log")
    server.start()
    worker_home, client_home = tmp_path / "worker", tmp_path / "client"
    worker_home.mkdir()
    client_home.mkdir()
    gate = worker_home / "gate"
    shared = dict(DURABLE_ADK_SESSION_DB=url, DURABLE_ADK_TEMP_STATE_KEY=key)
    with open(worker_home / "worker.log", "ab") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "worker", str(APP), "--artifacts", "none", "--memory", "none"],
            cwd=worker_home,
            env=_env(server.address, worker_home, GATE=str(gate), **shared),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    follow: subprocess.Popen[str] | None = None
    store = DatabaseSessionService(url)
    session_id = f"s-{uuid.uuid4().hex[:8]}"
    try:
        starter = AgentClient(await connect(server.address), store)
        invocation = await starter.start(
            app_name="gated_tree", user_id="u", session_id=session_id, new_message="tides"
        )
        deadline = time.monotonic() + 90
        while not Path(f"{gate}.waiting").exists():  # the first half is recorded
            assert worker.poll() is None and time.monotonic() < deadline, (
                worker_home / "worker.log"
            ).read_text()
            await asyncio.sleep(0.05)
        before = await _shown(store, session_id)
        assert any("market_researcher" in line for line in before), before

        # attach late, from a directory of its own, knowing Temporal's address and the URL
        follow = subprocess.Popen(
            [sys.executable, "-m", "client", "follow", "--app", "gated_tree", "--user", "u"]
            + [session_id],
            cwd=client_home,
            env=_env(server.address, client_home, DURABLE_ADK_SESSION_DB=url),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        out = Lines(follow)
        await out.until(before, "the events recorded before it attached")

        server.stop(kill=True)  # an outage, mid-invocation: the stream keeps trying
        gate.write_text("go")  # the tool ends meanwhile; its worker reports it when it can
        await asyncio.sleep(OUTAGE_SECONDS)
        assert follow.poll() is None, follow.communicate()
        server.start()

        assert follow.wait(timeout=120) == 0, ("\n".join(out.lines), follow.communicate())
        assert follow.stderr is not None
        errors = follow.stderr.read()
        assert "Traceback" not in errors and "failed" not in errors, errors
        await asyncio.to_thread(out._thread.join, 10)
        after = await _shown(store, session_id)
        assert len(after) > len(before) and after[: len(before)] == before
        _in_order(after, out.lines)  # every event, in recorded order: none missed
        assert "final answer: The report on tides." in out.lines
        result = await asyncio.wait_for(invocation.handle.result(), 30)
        assert result.final_text == "The report on tides."
        # no store of its own (it read the database); its only file is its own
        # temp-state key, which a client that starts no `temp:` state never uses
        assert not [p for p in client_home.rglob("*") if p.name != "temp_state.key" and p.is_file()]
    finally:
        if follow is not None:
            if follow.poll() is None:
                follow.kill()
            follow.communicate()
        stop(worker)  # type: ignore[arg-type]
        await store.close()
        server.stop()


async def test_a_waiting_stream_reads_nothing_until_something_is_recorded(
    temporal_env: Any, tmp_path: Path
) -> None:
    """No polling: while a tool takes its time, the stream makes no store call."""
    url = f"sqlite+aiosqlite:///{tmp_path}/sessions.db"
    release = asyncio.Event()

    async def slow(topic: str) -> dict:
        """Takes its time."""
        await release.wait()
        return {"topic": topic}

    model = MockModel.create(
        [types.Part.from_function_call(name="slow", args={"topic": "x"}), "done"]
    )
    app = App(name="quiet", root_agent=Agent(name="quiet", model=model, tools=[slow]))
    worker_store = DatabaseSessionService(url)
    reads: list[float] = []

    class Counting(DatabaseSessionService):
        async def list_events(self, **kwargs: Any) -> Any:
            reads.append(time.monotonic())
            return await super().list_events(**kwargs)

    client_store = Counting(url)  # not the worker's instance: it hears of no append
    queue = f"quiet-{uuid.uuid4().hex[:6]}"
    client = AgentClient(temporal_env.client, client_store, task_queue=queue)
    try:
        async with build_worker(
            temporal_env.client,
            apps={"quiet": app},
            session_service=worker_store,
            task_queue=queue,
        ):
            invocation = await client.start(
                app_name="quiet", user_id="u", session_id="s", new_message="go"
            )
            seen: list[str] = []

            async def stream() -> None:
                async for event in client.events(invocation):
                    seen.append(event.author)

            streaming = asyncio.ensure_future(stream())
            while len(seen) < 2:  # the user's message and the model's call
                await asyncio.sleep(0.05)
            settled = len(reads)
            await asyncio.sleep(3.0)  # the tool runs: nothing is recorded
            assert len(reads) == settled, "the stream read the store while nothing happened"
            release.set()
            await asyncio.wait_for(streaming, 30)
            assert seen == ["user", "quiet", "quiet", "quiet"]
    finally:
        await worker_store.close()
        await client_store.close()
