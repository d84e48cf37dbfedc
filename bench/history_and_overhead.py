"""History growth and runtime overhead of durable-adk, on one local dev server.

Run: `python -m bench.history_and_overhead` (or `make bench`). Prints figures and
ratios; asserts nothing. See bench/README.md for what each part measures.

Runs on: process side (client, workers and the dev server in one process tree);
the bare baseline workflow lives in bench/bare_workflow.py.
"""

from __future__ import annotations

import asyncio
import collections
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from google.genai import types
from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowHandle
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from adk import Agent
from adk.apps.app import App
from adk.runners import Runner
from adk.sessions import InMemorySessionService, SqliteSessionService
from adk.sessions.base_session_service import BaseSessionService
from adk.testing import MockModel
from bench.bare_workflow import BARE_ACTIVITIES, BARE_WORKFLOWS, bare_runner
from client import AgentClient
from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
from worker import build_worker
from worker._build import workflow_runner
from workflows.converter import data_converter
from workflows.names import SEARCH_ATTRIBUTES

HISTORY_STEPS = (10, 25, 50)
BLOB_CHARS = 20_000
LATENCY_RUNS = 30
WARMUP_RUNS = 5
THROUGHPUT_TOTAL = 100
THROUGHPUT_IN_FLIGHT = 20
THROUGHPUT_ROUNDS = 4


# ── helpers ─────────────────────────────────────────────────────────────────


class CountingSqlite(SqliteSessionService):
    """SqliteSessionService counting its calls (a dict increment: no measurable cost)."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.calls: collections.Counter[str] = collections.Counter()

    async def get_session(self, **kwargs: Any) -> Any:
        self.calls["get_session"] += 1
        return await super().get_session(**kwargs)

    async def get_state(self, **kwargs: Any) -> Any:
        self.calls["get_state"] += 1
        return await super().get_state(**kwargs)

    async def create_session(self, **kwargs: Any) -> Any:
        self.calls["create_session"] += 1
        return await super().create_session(**kwargs)

    async def append_event(self, session: Any, event: Any) -> Any:
        self.calls["append_event"] += 1
        return await super().append_event(session, event)

    async def list_events(self, **kwargs: Any) -> Any:
        self.calls["list_events"] += 1
        return await super().list_events(**kwargs)


def user_text(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text)])


def fn_call(name: str, **args: Any) -> types.Part:
    return types.Part.from_function_call(name=name, args=args)


def mb(n: float) -> str:
    return f"{n / 1024 / 1024:,.2f} MB"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.1f} ms"


def children_cpu_seconds() -> float | None:
    """CPU time (user+sys) of this process's children, i.e. the dev server (Linux /proc)."""
    try:
        me, total = os.getpid(), 0.0
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me:
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total
    except (OSError, ValueError):
        return None


async def history_stats(handle: WorkflowHandle[Any, Any]) -> tuple[int, int]:
    """(history_length, history_size_bytes) as the server reports them."""
    info = (await handle.describe()).raw_description.workflow_execution_info
    return info.history_length, info.history_size_bytes


# ── part 1: history growth ──────────────────────────────────────────────────


def fetch_page(page: int) -> dict:
    """Returns one page (about 20 KB) of a large document."""
    return {"page": page, "blob": "x" * BLOB_CHARS}


async def part_history(client: Client, tmp: str) -> None:
    print("=" * 78)
    print(
        f"1. HISTORY GROWTH: N model steps each calling one tool returning ~{BLOB_CHARS // 1000}"
        " KB, then a final text"
    )
    print("=" * 78)
    store = SqliteSessionService(os.path.join(tmp, "history.db"))
    models = {
        n: MockModel.create([fn_call("fetch_page", page=k) for k in range(n)] + ["done"])
        for n in HISTORY_STEPS
    }
    apps = {
        f"hist{n}": App(
            name=f"hist{n}", root_agent=Agent(name="reader", model=models[n], tools=[fetch_page])
        )
        for n in HISTORY_STEPS
    }
    task_queue = f"bench-history-{uuid.uuid4().hex[:6]}"
    agent_client = AgentClient(client, store, task_queue=task_queue)
    measured: dict[int, tuple[int, int]] = {}
    by_type: dict[str, int] = {}
    estimate: dict[int, tuple[int, int]] = {}
    worker = build_worker(client, apps=apps, session_service=store, task_queue=task_queue)
    async with worker:
        for n in HISTORY_STEPS:
            started = time.perf_counter()
            invocation = await agent_client.start(
                app_name=f"hist{n}",
                user_id="u",
                session_id=f"h{n}-{uuid.uuid4().hex[:8]}",
                new_message="Read the whole document.",
            )
            await invocation.handle.result()
            elapsed = time.perf_counter() - started
            measured[n] = await history_stats(invocation.handle)
            print(f"   N={n:<3} ran in {elapsed:5.2f} s")
            # What a "full LlmRequest per model activity" design would put in history:
            # each model step's request (the conversation so far) as activity input.
            requests = models[n].requests
            request_bytes = sum(len(r.model_dump_json(exclude_none=True)) for r in requests)
            tool_bytes = n * len(
                data_converter.payload_converter.to_payloads(
                    [{"page": 0, "blob": "x" * BLOB_CHARS}]
                )[0].data
            )
            estimate[n] = (request_bytes, tool_bytes)
            if n == HISTORY_STEPS[-1]:
                history = await invocation.handle.fetch_history()
                for event in history.events:
                    name = EventType.Name(event.event_type).removeprefix("EVENT_TYPE_")
                    by_type[name] = by_type.get(name, 0) + event.ByteSize()
    store.close()

    print()
    print("   measured (server: describe() → history_length / history_size_bytes)")
    print(f"   {'N':>4} {'events':>7} {'bytes':>12} {'size':>10} {'bytes/step':>12}")
    for n in HISTORY_STEPS:
        events, size = measured[n]
        print(f"   {n:>4} {events:>7} {size:>12,} {mb(size):>10} {size / n:>12,.0f}")
    lo, hi = HISTORY_STEPS[-2], HISTORY_STEPS[-1]
    ratio = measured[hi][1] / measured[lo][1]
    marginal = (measured[hi][1] - measured[lo][1]) / (hi - lo)
    print(
        f"   ratio bytes({hi})/bytes({lo}) = {ratio:.2f}   (linear ≈ {hi / lo:.0f},"
        f" quadratic ≈ {(hi / lo) ** 2:.0f})"
    )
    print(
        f"   marginal cost per step between N={lo} and N={hi}: {marginal:,.0f} bytes"
        f" (tool result ≈ {estimate[hi][1] / hi:,.0f} bytes)"
    )
    print()
    print(f"   where the N={hi} history's bytes are (sum of event.ByteSize() by event type):")
    total = sum(by_type.values())
    for name, size in sorted(by_type.items(), key=lambda kv: -kv[1])[:6]:
        print(f"   {name:<34} {size:>12,} ({size / total:5.1%})")
    print()
    print("   COMPUTED ESTIMATE, NOT A MEASUREMENT: a design sending the full LlmRequest")
    print("   to every model activity (sum over steps of the request the model saw,")
    print("   serialized, + the tool results; ignores event framing):")
    print(f"   {'N':>4} {'requests':>12} {'+tool results':>14} {'estimate':>10} {'est/ours':>9}")
    for n in HISTORY_STEPS:
        req, tool = estimate[n]
        print(
            f"   {n:>4} {req:>12,} {tool:>14,} {mb(req + tool):>10}"
            f" {(req + tool) / measured[n][1]:>8.1f}x"
        )
    est_ratio = sum(estimate[hi]) / sum(estimate[lo])
    print(f"   estimate ratio ({hi})/({lo}) = {est_ratio:.2f}")
    print()


# ── part 2: overhead vs a bare Temporal workflow ────────────────────────────


def lookup(key: str) -> dict:
    """Looks a key up."""
    return {"key": key, "value": "ok"}


def overhead_agent() -> Agent:
    model = MockModel.create(
        [
            [fn_call("lookup", key="a"), fn_call("lookup", key="b")],
            fn_call("lookup", key="c"),
            "done",
        ]
    )
    return Agent(name="shape", model=model, tools=[lookup])


class Config:
    """One thing to benchmark: `run()` performs one complete invocation."""

    def __init__(self, label: str, run: Callable[[], Awaitable[Any]]) -> None:
        self.label = label
        self.run = run
        self.latencies: list[float] = []
        self.throughputs: list[float] = []
        self.cpu_self: list[float] = []  # this process's CPU s per invocation (throughput)
        self.cpu_server: list[float] = []  # the dev server's CPU s per invocation
        self.handles: list[WorkflowHandle[Any, Any]] = []


def bare_config(
    client: Client, task_queue: str, label: str, workflow_name: str, *, eager: bool = False
) -> Config:
    config: Config

    async def run() -> None:
        handle = await client.start_workflow(
            workflow_name,
            "x",
            id=f"bare-{uuid.uuid4().hex}",
            task_queue=task_queue,
            request_eager_start=eager,
        )
        config.handles.append(handle)
        await handle.result()

    config = Config(label, run)
    return config


def ours_workflow_config(agent_client: AgentClient, label: str) -> Config:
    """AgentClient.start + the workflow result (no event streaming)."""
    config: Config

    async def run() -> None:
        invocation = await agent_client.start(
            app_name="bench",
            user_id="u",
            session_id=f"s-{uuid.uuid4().hex}",
            new_message="go",
        )
        config.handles.append(invocation.handle)
        await invocation.handle.result()

    config = Config(label, run)
    return config


def ours_runner_config(runner: Runner, label: str) -> Config:
    """Runner.run_async, consuming every event (what an ADK user writes)."""

    async def run() -> None:
        async for _ in runner.run_async(
            user_id="u", session_id=f"s-{uuid.uuid4().hex}", new_message=user_text("go")
        ):
            pass

    return Config(label, run)


async def timed(fn: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    await fn()
    return time.perf_counter() - started


class Measured(Protocol):
    """What `throughput` runs and fills in (this module's Config, bench.multi_agent's)."""

    run: Callable[[], Awaitable[Any]]
    throughputs: list[float]
    cpu_self: list[float]
    cpu_server: list[float]


async def throughput(
    config: Measured, total: int = THROUGHPUT_TOTAL, in_flight: int = THROUGHPUT_IN_FLIGHT
) -> None:
    """Invocations/s with `in_flight` in flight, and CPU per invocation."""
    gate = asyncio.Semaphore(in_flight)

    async def one() -> None:
        async with gate:
            await config.run()

    cpu, server, started = time.process_time(), children_cpu_seconds(), time.perf_counter()
    await asyncio.gather(*(one() for _ in range(total)))
    config.throughputs.append(total / (time.perf_counter() - started))
    config.cpu_self.append((time.process_time() - cpu) / total)
    server_after = children_cpu_seconds()
    if server is not None and server_after is not None:
        config.cpu_server.append((server_after - server) / total)


async def activity_breakdown(handles: list[WorkflowHandle[Any, Any]]) -> dict[str, Any]:
    """Mean per-activity queue and run times, workflow-task times, from histories."""
    sched_to_start: dict[str, list[float]] = collections.defaultdict(list)
    start_to_close: dict[str, list[float]] = collections.defaultdict(list)
    wft_dispatch: list[float] = []
    wft_worker: list[float] = []
    wft_count: list[int] = []
    span: list[float] = []
    for handle in handles:
        events = (await handle.fetch_history()).events
        t = {e.event_id: e.event_time.ToDatetime().timestamp() for e in events}
        names = {}
        started_at = {}
        wft_sched: dict[int, float] = {}
        wft_started: dict[int, float] = {}
        count = 0
        for e in events:
            kind = e.event_type
            if kind == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
                names[e.event_id] = e.activity_task_scheduled_event_attributes.activity_type.name
            elif kind == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
                sched = e.activity_task_started_event_attributes.scheduled_event_id
                started_at[sched] = t[e.event_id]
                sched_to_start[names[sched]].append(t[e.event_id] - t[sched])
            elif kind == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
                sched = e.activity_task_completed_event_attributes.scheduled_event_id
                start_to_close[names[sched]].append(t[e.event_id] - started_at[sched])
            elif kind == EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
                wft_sched[e.event_id] = t[e.event_id]
            elif kind == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
                sched = e.workflow_task_started_event_attributes.scheduled_event_id
                wft_started[sched] = t[e.event_id]
                wft_dispatch.append(t[e.event_id] - wft_sched[sched])
            elif kind == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
                sched = e.workflow_task_completed_event_attributes.scheduled_event_id
                wft_worker.append(t[e.event_id] - wft_started[sched])
                count += 1
        wft_count.append(count)
        span.append(t[events[-1].event_id] - t[events[0].event_id])
    return dict(
        activities={
            name: (
                statistics.mean(sched_to_start[name]),
                statistics.mean(start_to_close[name]),
                len(start_to_close[name]) / len(handles),
            )
            for name in start_to_close
        },
        wft_dispatch=statistics.mean(wft_dispatch),
        wft_worker=statistics.mean(wft_worker),
        wft_count=statistics.mean(wft_count),
        span=statistics.mean(span),
    )


async def part_overhead(client: Client, tmp: str) -> None:
    print("=" * 78)
    print("2. OVERHEAD vs A BARE TEMPORAL WORKFLOW (model → 2 tools ∥ → model → tool → model)")
    print("=" * 78)
    bare_queue = f"bench-bare-{uuid.uuid4().hex[:6]}"
    bare_off_queue = f"bench-bare-off-{uuid.uuid4().hex[:6]}"
    sqlite_queue = f"bench-sqlite-{uuid.uuid4().hex[:6]}"
    strict_queue = f"bench-strict-{uuid.uuid4().hex[:6]}"
    memory_queue = f"bench-memory-{uuid.uuid4().hex[:6]}"
    sqlite_store = CountingSqlite(os.path.join(tmp, "sessions.db"))
    memory_store = InMemorySessionService()

    def ours_worker(store: BaseSessionService, task_queue: str, **options: Any) -> Worker:
        app = App(name="bench", root_agent=overhead_agent())
        return build_worker(
            client, apps={"bench": app}, session_service=store, task_queue=task_queue, **options
        )

    def bare_worker(task_queue: str, sandboxed: bool) -> Worker:
        return Worker(
            client,
            task_queue=task_queue,
            workflows=BARE_WORKFLOWS,
            activities=BARE_ACTIVITIES,
            workflow_runner=bare_runner(sandboxed),
        )

    def runner(store: BaseSessionService, task_queue: str) -> Runner:
        return Runner(
            app=App(name="bench", root_agent=overhead_agent()),
            session_service=store,
            temporal_client=client,
            task_queue=task_queue,
            run_worker=False,
            auto_create_session=True,
        )

    bare = bare_config(client, bare_queue, "bare Temporal (6 activities)", "BenchBareReact")
    bare8 = bare_config(
        client, bare_queue, "  diag: bare + begin (7 activities)", "BenchBareReactBookkeeping"
    )
    bare_like_ours = bare_config(
        client,
        bare_off_queue,
        "  diag: bare, no sandbox, eager start",
        "BenchBareReact",
        eager=True,
    )
    ours_sqlite_wf = ours_workflow_config(
        AgentClient(client, sqlite_store, task_queue=sqlite_queue), "ours sqlite: start+result"
    )
    ours_sqlite_runner = ours_runner_config(
        runner(sqlite_store, sqlite_queue), "ours sqlite: Runner.run_async"
    )
    ours_memory_wf = ours_workflow_config(
        AgentClient(client, memory_store, task_queue=memory_queue), "ours in-memory: start+result"
    )
    ours_memory_runner = ours_runner_config(
        runner(memory_store, memory_queue), "ours in-memory: Runner.run_async"
    )
    ours_strict = ours_workflow_config(
        AgentClient(client, sqlite_store, task_queue=strict_queue),
        "  diag: ours sqlite, strict sandbox",
    )
    configs = [
        bare,
        bare8,
        bare_like_ours,
        ours_sqlite_wf,
        ours_sqlite_runner,
        ours_memory_wf,
        ours_memory_runner,
        ours_strict,
    ]

    async with (
        bare_worker(bare_queue, sandboxed=True),
        bare_worker(bare_off_queue, sandboxed=False),
        ours_worker(sqlite_store, sqlite_queue),
        ours_worker(memory_store, memory_queue),
        ours_worker(sqlite_store, strict_queue, workflow_runner=workflow_runner("strict")),
    ):
        for config in configs:
            for _ in range(WARMUP_RUNS):
                await config.run()
            config.handles.clear()
        # Latency: sequential runs, configurations interleaved so drift hits all alike.
        calls: dict[str, collections.Counter[str]] = {}
        for config in configs:
            calls[config.label] = collections.Counter()
        for _ in range(LATENCY_RUNS):
            for config in configs:
                before = collections.Counter(sqlite_store.calls)
                config.latencies.append(await timed(config.run))
                calls[config.label] += sqlite_store.calls - before
        breakdown = {
            c.label: await activity_breakdown(c.handles[:10])
            for c in (bare, bare_like_ours, ours_sqlite_wf, ours_memory_wf)
        }
        # Throughput: the rounds alternate forward and reverse order, in pairs, so
        # every configuration has the same mean position: the dev server slows as
        # its in-memory store fills, so with an odd number of rounds the
        # configurations listed first (the bare ones) would be favoured.
        for round_ in range(THROUGHPUT_ROUNDS):
            for config in configs if round_ % 2 == 0 else list(reversed(configs)):
                await throughput(config)

    sqlite_store.close()

    print(
        f"   {LATENCY_RUNS} sequential runs each after {WARMUP_RUNS} warm-ups (interleaved);"
        f" throughput: {THROUGHPUT_TOTAL} invocations, {THROUGHPUT_IN_FLIGHT} in flight,"
        f" {THROUGHPUT_ROUNDS} rounds"
    )
    print()
    print(
        f"   {'configuration':<37} {'p50':>9} {'p90':>9}"
        + "".join(f" {'thr r' + str(i + 1):>8}" for i in range(THROUGHPUT_ROUNDS))
        + f" {'thr mean':>9}"
    )
    for c in configs:
        print(
            f"   {c.label:<37} {ms(statistics.median(c.latencies))} {ms(pct(c.latencies, 0.9))}"
            + "".join(f" {t:>6.1f}/s" for t in c.throughputs)
            + f" {statistics.mean(c.throughputs):>7.1f}/s"
        )
    print()
    print("   CPU per invocation during the throughput runs (mean of the rounds):")
    print(f"   {'configuration':<37} {'this process':>13} {'dev server':>11} {'total':>9}")
    for c in configs:
        own = statistics.mean(c.cpu_self)
        server = statistics.mean(c.cpu_server) if c.cpu_server else float("nan")
        print(f"   {c.label:<37} {ms(own):>13} {ms(server):>11} {ms(own + server):>9}")
    print("   (this process = client + workers; the dev server is its child process)")
    print()
    print("   ratios ours/bare (targets: latency p50 ≤ 1.20x, throughput ≥ 0.85x)")
    base_lat = statistics.median(bare.latencies)
    base_thr = statistics.mean(bare.throughputs)
    for c in configs[1:]:
        lat = statistics.median(c.latencies) / base_lat
        thr = statistics.mean(c.throughputs) / base_thr
        print(
            f"   {c.label:<37} latency {lat:5.2f}x {'ok ' if lat <= 1.2 else 'MISS'}"
            f"   throughput {thr:5.2f}x {'ok' if thr >= 0.85 else 'MISS'}"
        )
    print()
    print("   ours runs its workflows outside the sandbox and starts them eagerly (see")
    print("   bench/README.md). Against a bare workflow run the same way:")
    like_lat = statistics.median(bare_like_ours.latencies)
    like_thr = statistics.mean(bare_like_ours.throughputs)
    for c in (ours_sqlite_wf, ours_sqlite_runner, ours_memory_wf, ours_memory_runner):
        lat = statistics.median(c.latencies) / like_lat
        thr = statistics.mean(c.throughputs) / like_thr
        print(f"   {c.label:<37} latency {lat:5.2f}x   throughput {thr:5.2f}x")
    print()
    print("   session-store calls per invocation (sqlite, sequential runs):")
    for label in (ours_sqlite_wf.label, ours_sqlite_runner.label):
        per_run = {k: v / LATENCY_RUNS for k, v in sorted(calls[label].items())}
        text = ", ".join(f"{k} {v:.1f}" for k, v in per_run.items())
        print(f"   {label:<37} {text}")
    print()
    print("   from 10 histories each (server event times, means). Workflow task: dispatch =")
    print("   scheduled→started, worker = started→completed (the activation + completion RPC).")
    print("   Activity: wait = scheduled→started, run = started→completed (delivery + body + RPC).")
    for label, data in breakdown.items():
        print(
            f"   {label.strip()}: span first→last event {ms(data['span']).strip()};"
            f" {data['wft_count']:.1f} workflow tasks, each dispatch"
            f" {ms(data['wft_dispatch']).strip()} + worker {ms(data['wft_worker']).strip()}"
        )
        for name, (wait, run, count) in data["activities"].items():
            print(f"      {name:<24} ×{count:<4.0f} wait {ms(wait)}   run {ms(run)}")
    print()


async def main() -> None:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="durable-adk-bench-") as tmp:
        env = await WorkflowEnvironment.start_local(
            dev_server_existing_path=temporal_binary(),
            data_converter=data_converter,
            search_attributes=SEARCH_ATTRIBUTES,
            dev_server_extra_args=DEV_SERVER_ARGS,
        )
        try:
            print(f"dev server: {temporal_binary()} {' '.join(DEV_SERVER_ARGS)}")
            print(f"machine: {os.cpu_count()} CPUs; client, workers and dev server share them")
            print()
            await part_history(env.client, tmp)
            await part_overhead(env.client, tmp)
        finally:
            await env.shutdown()
    print(f"total bench time {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    asyncio.run(main())
