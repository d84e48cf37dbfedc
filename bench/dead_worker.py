"""Recovery time after a worker is SIGKILLed during a tool call.

Run: `python -m bench.dead_worker [--trials N] [--heartbeat SECONDS]`. Prints figures;
asserts nothing. See bench/README.md.

Runs on: process side. One local dev server; real worker processes
(`python -m worker bench/apps/slow_tool`, activity options at their defaults unless
--heartbeat sets the tool's heartbeat timeout). Per trial: worker A starts an
invocation whose tool sleeps 3 s; when the tool starts, A is SIGKILLed and worker B
is started. Measured from the history and the clock:

- detection: kill -> the tool call's next attempt starts on B (the heartbeat timeout
  plus the retry's first backoff);
- recovery: kill -> the invocation completes on B;
- and, for comparison, an uninterrupted invocation's time from its tool start.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from temporalio.api.enums.v1 import EventType
from temporalio.client import Client
from temporalio.testing import WorkflowEnvironment

from adk.activity_options import TOOL_DEFAULTS
from adk.sessions import SqliteSessionService
from client import AgentClient
from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
from workflows.converter import data_converter
from workflows.names import SEARCH_ATTRIBUTES

REPO = Path(__file__).resolve().parents[1]
APP = REPO / "bench" / "apps" / "slow_tool"


def start_worker(address: str, queue: str, tmp: Path, name: str, heartbeat: float | None):
    env = {**os.environ, "SLOW_TOOL_LOG": str(tmp / "runs.log"), "PYTHONUNBUFFERED": "1"}
    if heartbeat is not None:
        env["SLOW_TOOL_HEARTBEAT"] = str(heartbeat)
    command = [sys.executable, "-m", "worker", str(APP), "--address", address]
    command += ["--task-queue", queue, "--db", str(tmp / "sessions.db"), "--log-format", "console"]
    with open(tmp / f"{name}.log", "ab") as out:
        return subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)


def tool_starts(tmp: Path, session: str) -> list[int]:
    """The worker pid of each start of the session's tool call."""
    path = tmp / "runs.log"
    lines = path.read_text().splitlines() if path.exists() else []
    return [int(line.split()[1]) for line in lines if line.split()[0] == session]


async def wait_for_tool(tmp: Path, session: str, worker: subprocess.Popen[bytes]) -> int:
    deadline = time.monotonic() + 60
    while not (starts := tool_starts(tmp, session)):
        if worker.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the tool never started; see the logs in {tmp}")
        await asyncio.sleep(0.01)
    return starts[0]


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def trial(
    client: Client, store: SqliteSessionService, tmp: Path, heartbeat: float | None, kill: bool
) -> dict[str, float]:
    queue = f"dead-worker-{uuid.uuid4().hex[:8]}"  # a fresh queue: no poller from a past trial
    address = client.service_client.config.target_host
    agents = AgentClient(client, store, task_queue=queue)
    session = uuid.uuid4().hex[:8]
    workers = [start_worker(address, queue, tmp, "worker-a", heartbeat)]
    try:
        run = await agents.start(
            app_name="slow_tool", user_id="u", session_id=session, new_message="look it up"
        )
        pid = await wait_for_tool(tmp, session, workers[0])
        t_tool = time.time()
        if kill:
            assert pid == workers[0].pid
            workers[0].kill()  # SIGKILL: nothing reported to the server
            workers[0].wait()
            workers.append(start_worker(address, queue, tmp, "worker-b", heartbeat))
        await asyncio.wait_for(run.handle.result(), timeout=180)
        t_done = time.time()
        history = await run.handle.fetch_history()
    finally:
        for proc in workers:
            stop(proc)
    retry_started = [
        e.event_time.ToDatetime().timestamp()
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
        and e.activity_task_started_event_attributes.attempt > 1
    ]
    figures = {"done": t_done - t_tool}
    if retry_started:
        figures["detected"] = retry_started[0] - t_tool
    return figures


def summary(values: list[float]) -> str:
    if not values:
        return "-"
    return (
        f"median {statistics.median(values):5.1f} s  (min {min(values):.1f},"
        f" max {max(values):.1f}, n={len(values)})"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--heartbeat", type=float, default=None, help="tool heartbeat, s")
    args = parser.parse_args()
    timeout = args.heartbeat or TOOL_DEFAULTS.heartbeat_timeout.total_seconds()  # type: ignore[union-attr]
    with tempfile.TemporaryDirectory(prefix="durable-adk-dead-worker-") as name:
        tmp = Path(name)
        env = await WorkflowEnvironment.start_local(
            dev_server_existing_path=temporal_binary(),
            data_converter=data_converter,
            search_attributes=SEARCH_ATTRIBUTES,
            dev_server_extra_args=DEV_SERVER_ARGS,
        )
        store = SqliteSessionService(tmp / "sessions.db")
        try:
            print(f"tool heartbeat timeout {timeout:g} s; the tool sleeps 3 s")
            plain = [await trial(env.client, store, tmp, args.heartbeat, kill=False)]
            killed = []
            for _ in range(args.trials):
                killed.append(await trial(env.client, store, tmp, args.heartbeat, kill=True))
                print(f"  killed run: {killed[-1]}")
        finally:
            store.close()
            await env.shutdown()
    print(f"uninterrupted, tool start -> done : {summary([f['done'] for f in plain])}")
    print(f"killed, kill -> retry started     : {summary([f['detected'] for f in killed])}")
    print(f"killed, kill -> invocation done   : {summary([f['done'] for f in killed])}")


if __name__ == "__main__":
    asyncio.run(main())
