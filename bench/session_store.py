"""The session store's cost per invocation: the SQLite store against DatabaseSessionService
on SQLite and on PostgreSQL.

Run: `python -m bench.session_store` (about 2 minutes on 2 cores; needs Debian's
`postgresql` package: it starts a throwaway server in a temp dir, on loopback, with
PostgreSQL's default durability: fsync and synchronous_commit on). Prints figures;
asserts nothing.

Each store serves the same invocation as bench/history_and_overhead.py's overhead
part (model → 2 tools ∥ → model → tool → model, a zero-latency MockModel) through
`Runner.run_async` (events streamed from the store), worker and client in this
process, one local dev server. For each store it prints, over sequential runs:

- the time spent inside store calls per invocation (every call the worker's
  activities and the client's stream make, timed around the public methods), and
  how many calls of each kind;
- append_event p50 / p90 (one transaction: the event, its state, the session row);
- the invocation's end-to-end latency p50 / p90.

Runs on: process side (client, worker, dev server and PostgreSQL on this machine).
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from typing import Any

from temporalio.testing import WorkflowEnvironment

from adk.apps.app import App
from adk.runners import Runner
from adk.sessions import DatabaseSessionService, SqliteSessionService
from adk.sessions.base_session_service import BaseSessionService
from bench.history_and_overhead import overhead_agent
from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
from tests._postgres import postgres_server
from worker import build_worker
from workflows.converter import data_converter
from workflows.names import SEARCH_ATTRIBUTES

RUNS = 40
WARMUP = 5
TIMED = (
    "create_session",
    "get_session",
    "get_step_session",
    "get_state",
    "append_event",
    "list_events",
    "retract_event",
    "set_app_root_agent",
    "get_app_root_agent",
)


_INSIDE: contextvars.ContextVar[bool] = contextvars.ContextVar("inside_store", default=False)


def timed(cls: type[BaseSessionService]) -> type[Any]:
    """A subclass of the store timing its public calls (the outermost only, per task:
    the client's stream polls while the worker's activities write)."""

    def wrap(name: str) -> Callable[..., Any]:
        async def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            if _INSIDE.get():
                return await getattr(cls, name)(self, *args, **kwargs)
            token = _INSIDE.set(True)
            started = time.perf_counter()
            try:
                return await getattr(cls, name)(self, *args, **kwargs)
            finally:
                _INSIDE.reset(token)
                self.seconds[name].append(time.perf_counter() - started)

        return call

    namespace: dict[str, Any] = {name: wrap(name) for name in TIMED}

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        cls.__init__(self, *args, **kwargs)
        self.seconds = collections.defaultdict(list)

    namespace["__init__"] = __init__
    return type(f"Timed{cls.__name__}", (cls,), namespace)


async def measure(client: Any, label: str, store: Any) -> dict[str, Any]:
    queue = f"bench-store-{uuid.uuid4().hex[:6]}"
    app = App(name="bench", root_agent=overhead_agent())
    runner = Runner(
        app=App(name="bench", root_agent=overhead_agent()),
        session_service=store,
        temporal_client=client,
        task_queue=queue,
        run_worker=False,
        auto_create_session=True,
    )
    from google.genai import types

    message = types.Content(role="user", parts=[types.Part(text="go")])

    async def one() -> float:
        started = time.perf_counter()
        async for _ in runner.run_async(
            user_id="u", session_id=f"s-{uuid.uuid4().hex[:10]}", new_message=message
        ):
            pass
        return time.perf_counter() - started

    async with build_worker(client, apps={"bench": app}, session_service=store, task_queue=queue):
        for _ in range(WARMUP):
            await one()
        store.seconds.clear()
        latencies = [await one() for _ in range(RUNS)]
    seconds = {name: list(values) for name, values in store.seconds.items()}
    return {"label": label, "latencies": latencies, "seconds": seconds}


def ms(value: float) -> str:
    return f"{value * 1000:6.2f} ms"


def report(result: dict[str, Any]) -> float:
    seconds = result["seconds"]
    total = sum(sum(v) for v in seconds.values()) / RUNS
    appends = sorted(seconds.get("append_event", [0.0]))
    lat = sorted(result["latencies"])
    calls = {k: len(v) / RUNS for k, v in sorted(seconds.items())}
    print(f"  {result['label']}")
    print(f"    in store calls per invocation {ms(total)}")
    print(
        f"    append_event p50 {ms(statistics.median(appends))}"
        f"   p90 {ms(appends[int(len(appends) * 0.9)])}"
        f"   ({calls.get('append_event', 0):.0f} per invocation)"
    )
    print(
        f"    invocation latency p50 {ms(statistics.median(lat))}   p90 {ms(lat[int(len(lat) * 0.9)])}"
    )
    print("    calls per invocation: " + ", ".join(f"{k} {v:.1f}" for k, v in calls.items()))
    return total


async def main() -> None:
    started = time.perf_counter()
    with (
        tempfile.TemporaryDirectory(prefix="durable-adk-bench-") as tmp,
        postgres_server(durable=True) as pg_url,
    ):
        env = await WorkflowEnvironment.start_local(
            dev_server_existing_path=temporal_binary(),
            data_converter=data_converter,
            search_attributes=SEARCH_ATTRIBUTES,
            dev_server_extra_args=DEV_SERVER_ARGS,
        )
        stores: list[tuple[str, Any]] = [
            (
                "SqliteSessionService (file, WAL, synchronous=NORMAL)",
                timed(SqliteSessionService)(os.path.join(tmp, "store.db")),
            ),
            (
                "DatabaseSessionService sqlite+aiosqlite (WAL, synchronous=NORMAL)",
                timed(DatabaseSessionService)(f"sqlite+aiosqlite:///{tmp}/db.db"),
            ),
            (
                "DatabaseSessionService postgresql+asyncpg (fsync, synchronous_commit=on)",
                timed(DatabaseSessionService)(pg_url),
            ),
            (
                "DatabaseSessionService postgresql+asyncpg (synchronous_commit=off)",
                timed(DatabaseSessionService)(
                    pg_url, connect_args={"server_settings": {"synchronous_commit": "off"}}
                ),
            ),
        ]
        try:
            print(
                f"machine: {os.cpu_count()} CPUs shared by client, worker, dev server, PostgreSQL"
            )
            print(f"{RUNS} sequential invocations per store after {WARMUP} warm-up runs")
            print()
            totals = {}
            for label, store in stores:
                totals[label] = report(await measure(env.client, label, store))
            base = totals[stores[0][0]]
            print()
            print("  in-store time per invocation relative to the SQLite store:")
            for label, total in totals.items():
                print(f"    {total / base:4.2f}×  {label}")
        finally:
            for _, store in stores:
                closing = store.close()
                if asyncio.iscoroutine(closing):
                    await closing
            await env.shutdown()
    print(f"total bench time {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    asyncio.run(main())
