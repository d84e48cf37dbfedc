"""Issue 15's proof, for the session store: two workers and clients on one PostgreSQL,
sharing no files.

Runs on: test process, spawning `python -m worker` and `python -m client` processes,
against the session's local Temporal and a real PostgreSQL (tests/_postgres.py).

Each process starts in its own empty directory, with nothing in common but
configuration: the Temporal address, the database URL (DURABLE_ADK_SESSION_DB) and
the temp-state key (DURABLE_ADK_TEMP_STATE_KEY). The workers serve
different apps (a tool agent; a multi-agent tree: sequential, parallel, loop), each
polling only its app's task queue, where the clients route each app's invocation.
Both invocations complete, and each client prints every event its invocation
recorded, in order, streamed from the database.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa

from adk.memory import DatabaseMemoryService
from adk.sessions import DatabaseSessionService
from client._render import event_lines
from client._sealing import new_key
from tests._postgres import fresh_postgres_database

from .test_durability import stop, wait_until
from .test_readme_commands import REPO

APPS = {
    "weather": REPO / "examples" / "weather",
    "research_pipeline": REPO / "examples" / "research_pipeline",
}
MESSAGES = {"weather": "What is the weather in Paris?", "research_pipeline": "Write about tides."}


_KEY = new_key()
"""The temp-state key every process of a deployment shares (client/_sealing.py), given
as configuration: no key file."""


def _env(address: str, url: str, home: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI")
        and not k.startswith("DURABLE_ADK_")
    }
    env.update(
        TEMPORAL_ADDRESS=address,
        DURABLE_ADK_SESSION_DB=url,
        DURABLE_ADK_TEMP_STATE_KEY=_KEY,
        DURABLE_ADK_DATA_DIR=str(home / ".data"),  # would hold files: none are written
        PYTHONUNBUFFERED="1",
        HOME=str(home),
    )
    return env


@pytest.mark.slow
async def test_two_workers_and_clients_share_only_temporal_and_postgres(
    temporal_env, postgres_url, tmp_path
):
    address = temporal_env.client.service_client.config.target_host
    url = await fresh_postgres_database(postgres_url)
    memory_url = await fresh_postgres_database(postgres_url)  # one memory for both hosts
    run_id = uuid.uuid4().hex[:8]
    workers: list[subprocess.Popen[bytes]] = []
    try:
        for app, path in APPS.items():
            home = tmp_path / f"worker-{app}"
            home.mkdir()
            log = open(home / "worker.log", "ab")  # noqa: SIM115 (closed with the process)
            workers.append(
                subprocess.Popen(
                    # artifacts live in the host's files: none here; memory in PostgreSQL
                    [
                        sys.executable,
                        "-m",
                        "worker",
                        str(path),
                        "--artifacts",
                        "none",
                        "--memory",
                        memory_url,
                    ],
                    cwd=home,
                    env=_env(address, url, home),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
            log.close()
        for proc, app in zip(workers, APPS, strict=True):
            log_path = tmp_path / f"worker-{app}" / "worker.log"
            await wait_until(
                lambda p=log_path: "worker started" in p.read_text(), 60, "a worker", proc, tmp_path
            )

        async def client(app: str) -> tuple[str, subprocess.CompletedProcess[str]]:
            home = tmp_path / f"client-{app}"
            home.mkdir()
            session = f"s-{app}-{run_id}"
            argv = ["run", "--app", app, "--session", session]
            if app == "weather":
                argv += ["--state", '{"user:name": "Ada"}']
            done = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "client", *argv, MESSAGES[app]],
                cwd=home,
                env=_env(address, url, home),
                capture_output=True,
                text=True,
                timeout=180,
            )
            return session, done

        results = await asyncio.gather(*(client(app) for app in APPS))
        store = DatabaseSessionService(url)
        try:
            for (session_id, done), app in zip(results, APPS, strict=True):
                assert done.returncode == 0, (app, done.stdout, done.stderr)
                recorded = await store.list_events(
                    app_name=app, user_id="user", session_id=session_id
                )
                expected = [
                    line for _, e in recorded if e.author != "user" for line in event_lines(e)
                ]
                assert len(expected) >= 3, (app, expected)
                printed = done.stdout.splitlines()
                position = 0  # every recorded event printed, in recorded order
                for line in expected:
                    assert line in printed[position:], (app, line, done.stdout)
                    position = printed.index(line, position) + 1
            tree = await store.get_session(
                app_name="research_pipeline", user_id="user", session_id=results[1][0]
            )
            assert tree is not None
            assert {e.branch for e in tree.events if e.branch and "." in e.branch}, "no branches"
        finally:
            await store.close()
        memory = DatabaseMemoryService(memory_url)
        async with memory.db_engine.connect() as conn:  # the workers made it at start
            assert await conn.run_sync(lambda c: sa.inspect(c).has_table("memory_events"))
        await memory.add_session_to_memory(tree)
        found = await memory.search_memory(
            app_name="research_pipeline", user_id="user", query="tides"
        )
        assert found.memories, "the shared memory"
        await memory.close()
        for home in tmp_path.iterdir():  # nothing written beside the logs
            assert not (home / ".data").exists(), home
    finally:
        for proc in workers:
            stop(proc)
