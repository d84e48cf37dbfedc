"""Cost per turn over a long session: 300 turns of tool calls in one session.

Run: `python -m bench.long_session [--turns N] [--calls C] [--sessions K]`. Prints figures; asserts
nothing. See bench/README.md.

Runs on: process side. One local dev server, one real worker process
(`python -m worker bench/apps/long_session` on a SQLite file) and this process as the
client. Each turn is one invocation, started and streamed to its end with
`AgentClient.start` + `AgentClient.events` (what `python -m client run` does), in the
same session; the model calls a state-writing tool C times (one call per model step)
and then answers, so the session grows by 2 × C + 2 events a turn (10 by default:
3,000 events after 300 turns). Prints:

- p50 latency of the first and of the last 50 turns, and their ratio;
- the worker's CPU per turn (median, user + system, from /proc) over the same turns;
- the worker's RSS after turn 1, at the middle and at the end;
- with `--sessions K`, the worker's RSS after each of K sessions run one after the
  other (with `DURABLE_ADK_EVENT_CACHE_MIB` set below one session's size, this
  shows where memory stops growing).
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

from temporalio.testing import WorkflowEnvironment

from adk.sessions import SqliteSessionService
from client import AgentClient
from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
from workflows.converter import data_converter
from workflows.names import SEARCH_ATTRIBUTES

REPO = Path(__file__).resolve().parents[1]
APP = REPO / "bench" / "apps" / "long_session"
WINDOW = 50


def start_worker(address: str, queue: str, tmp: Path, calls: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "LONG_SESSION_CALLS": str(calls), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "worker", str(APP), "--address", address]
    command += ["--task-queue", queue, "--db", str(tmp / "sessions.db"), "--log-format", "console"]
    command += ["--log-level", "WARNING"]
    with open(tmp / "worker.log", "ab") as out:
        return subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)


def rss_mib(pid: int | str) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def turn(agents: AgentClient, session: str, n: int) -> int:
    invocation = await agents.start(
        app_name="long_session", user_id="u", session_id=session, new_message=f"turn {n}"
    )
    return sum([1 async for _ in agents.events(invocation)])


async def run(turns: int, calls: int, sessions: int) -> None:
    with tempfile.TemporaryDirectory(prefix="durable-adk-long-session-") as name:
        tmp = Path(name)
        env = await WorkflowEnvironment.start_local(
            dev_server_existing_path=temporal_binary(),
            data_converter=data_converter,
            search_attributes=SEARCH_ATTRIBUTES,
            dev_server_extra_args=DEV_SERVER_ARGS,
        )
        store = SqliteSessionService(tmp / "sessions.db")
        queue = f"long-session-{uuid.uuid4().hex[:8]}"
        worker = start_worker(env.client.service_client.config.target_host, queue, tmp, calls)
        agents = AgentClient(env.client, store, task_queue=queue)
        session = uuid.uuid4().hex[:8]
        latency: list[float] = []
        cpu: list[float] = []
        rss: dict[int, float] = {}
        marks = {1, (turns + 1) // 2, turns}
        after_session: list[float] = []
        try:
            for k in range(sessions):
                if k:
                    session = uuid.uuid4().hex[:8]
                    marks = set()
                for n in range(1, turns + 1):
                    before = cpu_seconds(worker.pid)
                    started = time.perf_counter()
                    events = await asyncio.wait_for(turn(agents, session, n), timeout=120)
                    took = time.perf_counter() - started
                    if not k:
                        latency.append(took)
                        cpu.append(cpu_seconds(worker.pid) - before)
                    if events != 2 * calls + 2:
                        raise RuntimeError(f"turn {n} streamed {events} events; see {tmp}")
                    if n in marks:
                        rss[n] = rss_mib(worker.pid)
                    if n % 25 == 0:
                        print(f"  turn {n:4}: {took * 1000:6.0f} ms", flush=True)
                after_session.append(rss_mib(worker.pid))
            stored = await store.get_session(
                app_name="long_session", user_id="u", session_id=session
            )
            assert stored is not None
            total_events = len(stored.events)
        finally:
            worker.terminate()
            worker.wait(timeout=30)
            store.close()
            await env.shutdown()
    window = min(WINDOW, turns // 2)
    first, last = latency[:window], latency[-window:]
    p50_first, p50_last = statistics.median(first), statistics.median(last)
    cpu_first, cpu_last = statistics.median(cpu[:window]), statistics.median(cpu[-window:])
    print()
    print(f"{turns} turns, {calls} tool calls each: {total_events} events in the session")
    print(f"p50 latency, turns 1-{window}: {p50_first * 1000:7.0f} ms")
    print(f"p50 latency, last {window} turns: {p50_last * 1000:7.0f} ms")
    print(f"ratio last/first: {p50_last / p50_first:.2f}x")
    print(
        f"worker CPU per turn: {cpu_first * 1000:.0f} ms (first {window}),"
        f" {cpu_last * 1000:.0f} ms (last {window}), {cpu_last / cpu_first:.2f}x"
    )
    print("worker RSS: " + ", ".join(f"turn {n}: {rss[n]:.1f} MiB" for n in sorted(rss)))
    if sessions > 1:
        print(
            f"worker RSS after each of {sessions} sessions of {turns} turns: "
            + ", ".join(f"{mib:.1f}" for mib in after_session)
            + " MiB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--calls", type=int, default=4, help="tool calls per turn")
    parser.add_argument(
        "--sessions",
        type=int,
        default=1,
        help="run that many sessions of --turns one after the other (latency and CPU"
        " figures are the first's; RSS is printed after each)",
    )
    args = parser.parse_args()
    asyncio.run(run(args.turns, args.calls, args.sessions))


if __name__ == "__main__":
    main()
