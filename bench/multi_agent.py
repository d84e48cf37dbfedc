"""A multi-agent pipeline against the bare Temporal floor of the same shape.

Run: `python -m bench.multi_agent [--runs N] [--total N]`. Prints figures and
ratios; asserts nothing. See bench/README.md, part 9.

The pipeline is `SequentialAgent[planner (1 tool), ParallelAgent[web, docs],
writer]` with scripted models (5 model calls, 1 tool call): six workflows (the
invocation, which runs the SequentialAgent, and a child per sub-agent). The
floor (bench/bare_pipeline.py) has the same six workflows and six activities
with trivial bodies and the same data converter. Everything runs on one dev
server with the dispatch limit lifted, in this process.

Runs on: process side (client, workers and the dev server in one process tree).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from google.genai import types
from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowHandle
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import UnsandboxedWorkflowRunner, Worker
from temporalio.worker.workflow_sandbox import SandboxedWorkflowRunner

from adk import Agent, ParallelAgent, SequentialAgent
from adk.apps.app import App
from adk.runners import Runner
from adk.sessions import SqliteSessionService
from adk.testing import MockModel
from bench.bare_pipeline import FLOOR_ACTIVITIES, FLOOR_WORKFLOWS
from bench.history_and_overhead import pct, throughput, timed
from client import AgentClient
from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
from worker import build_worker
from workflows.converter import data_converter
from workflows.names import SEARCH_ATTRIBUTES

APP = "pipeline"
MESSAGE = "Write a short report on home batteries: what they cost, what they hold, what to buy."
IN_FLIGHT = 10
GOAL_LATENCY = 1.25
GOAL_THROUGHPUT = 0.8
GOAL_HISTORY_KB = 25.0


# ── the pipeline ────────────────────────────────────────────────────────────


def make_plan(topic: str) -> dict:
    """Plans the research on a topic."""
    return {"topic": topic, "steps": ["search the web", "read the docs"]}


def pipeline_app() -> App:
    def scripted(*replies: Any) -> MockModel:
        return MockModel.create(list(replies), keep_requests=False)

    planner = Agent(
        name="planner",
        model=scripted(
            types.Part.from_function_call(name="make_plan", args={"topic": "home batteries"}),
            "Plan: search the web, read the docs.",
        ),
        instruction="Plan the research.",
        tools=[make_plan],
    )
    web = Agent(
        name="web",
        model=scripted("Web: prices fell 20% in a year."),
        instruction="Search the web.",
        output_key="web_notes",
    )
    docs = Agent(
        name="docs",
        model=scripted("Docs: 10 kWh is typical."),
        instruction="Read the docs.",
        output_key="docs_notes",
    )
    writer = Agent(
        name="writer",
        model=scripted("Report: home batteries are cheaper and hold 10 kWh."),
        instruction="Write the report from {web_notes} and {docs_notes}.",
    )
    root = SequentialAgent(
        name="pipeline",
        sub_agents=[planner, ParallelAgent(name="research", sub_agents=[web, docs]), writer],
    )
    return App(name=APP, root_agent=root)


# ── configurations ──────────────────────────────────────────────────────────


@dataclass
class Config:
    """One thing to measure: `run()` performs one complete invocation."""

    label: str
    run: Callable[[], Awaitable[None]]
    latencies: list[float] = field(default_factory=list)
    throughputs: list[float] = field(default_factory=list)
    cpu_self: list[float] = field(default_factory=list)
    cpu_server: list[float] = field(default_factory=list)
    roots: list[WorkflowHandle[Any, Any]] = field(default_factory=list)


def floor_config(client: Client, task_queue: str, label: str, *, eager: bool) -> Config:
    async def run() -> None:
        handle = await client.start_workflow(
            "BenchFloorPipeline",
            MESSAGE,
            id=f"floor-{uuid.uuid4().hex}",
            task_queue=task_queue,
            request_eager_start=eager,
        )
        config.roots.append(handle)
        await handle.result()

    config = Config(label, run)
    return config


def ours_config(agent_client: AgentClient, label: str) -> Config:
    async def run() -> None:
        invocation = await agent_client.start(
            app_name=APP, user_id="u", session_id=f"s-{uuid.uuid4().hex}", new_message=MESSAGE
        )
        config.roots.append(invocation.handle)
        await invocation.handle.result()

    config = Config(label, run)
    return config


def runner_config(runner: Runner, label: str) -> Config:
    message = types.Content(role="user", parts=[types.Part(text=MESSAGE)])

    async def run() -> None:
        async for _ in runner.run_async(
            user_id="u", session_id=f"s-{uuid.uuid4().hex}", new_message=message
        ):
            pass

    return Config(label, run)


# ── what a tree of workflows recorded ───────────────────────────────────────


@dataclass
class Tree:
    workflows: int = 0
    workflow_tasks: int = 0
    history_events: int = 0
    history_bytes: int = 0
    activities: int = 0
    local_activities: int = 0
    by_workflow: collections.Counter[str] = field(default_factory=collections.Counter)
    """workflow tasks by workflow (type/agent)"""
    bytes_by_kind: collections.Counter[str] = field(default_factory=collections.Counter)
    """history bytes by event type (event.ByteSize(), summed over the tree)"""
    root_span: float = 0.0
    """the root workflow's first event to its last (server clock)"""
    wft_dispatch: float = 0.0
    """workflow tasks scheduled → started, summed"""
    wft_worker: float = 0.0
    """workflow tasks started → completed (the worker's activation and reply), summed"""
    activity_wait: float = 0.0
    """activities scheduled → started, summed"""
    activity_run: float = 0.0
    """activities started → completed, summed"""


async def walk(client: Client, workflow_id: str, run_id: str | None, tree: Tree) -> None:
    handle = client.get_workflow_handle(workflow_id, run_id=run_id)
    info = (await handle.describe()).raw_description.workflow_execution_info
    events = (await handle.fetch_history()).events
    tree.workflows += 1
    tree.history_events += len(events)
    tree.history_bytes += info.history_size_bytes
    label = workflow_id.rsplit("/", 1)[-1] if "/" in workflow_id else "root"
    children: list[Any] = []
    at = {e.event_id: e.event_time.ToDatetime().timestamp() for e in events}
    if tree.workflows == 1:
        tree.root_span = at[events[-1].event_id] - at[events[0].event_id]
    for event in events:
        kind = event.event_type
        tree.bytes_by_kind[EventType.Name(kind).removeprefix("EVENT_TYPE_")] += event.ByteSize()
        if kind == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
            tree.workflow_tasks += 1
            tree.by_workflow[label] += 1
            attributes = event.workflow_task_completed_event_attributes
            tree.wft_worker += at[event.event_id] - at[attributes.started_event_id]
        elif kind == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
            scheduled = event.workflow_task_started_event_attributes.scheduled_event_id
            tree.wft_dispatch += at[event.event_id] - at[scheduled]
        elif kind == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
            scheduled = event.activity_task_started_event_attributes.scheduled_event_id
            tree.activity_wait += at[event.event_id] - at[scheduled]
        elif kind == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
            started = event.activity_task_completed_event_attributes.started_event_id
            tree.activity_run += at[event.event_id] - at[started]
        elif kind == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            tree.activities += 1
        elif (
            kind == EventType.EVENT_TYPE_MARKER_RECORDED
            and event.marker_recorded_event_attributes.marker_name == "core_local_activity"
        ):
            tree.local_activities += 1
        elif kind == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED:
            children.append(event.child_workflow_execution_started_event_attributes)
    for child in children:
        execution = child.workflow_execution
        await walk(client, execution.workflow_id, execution.run_id, tree)


async def trees(client: Client, handles: list[WorkflowHandle[Any, Any]]) -> list[Tree]:
    found = []
    for handle in handles:
        tree = Tree()
        await walk(client, handle.id, handle.result_run_id, tree)
        found.append(tree)
    return found


# ── measuring ───────────────────────────────────────────────────────────────


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.1f} ms"


def mean(values: list[float]) -> float:
    return statistics.mean(values) if values else float("nan")


async def measure(client: Client, tmp: str, runs: int, total: int, rounds: int) -> None:
    floor_queue = f"bench-floor-{uuid.uuid4().hex[:6]}"
    floor_eager_queue = f"bench-floor-eager-{uuid.uuid4().hex[:6]}"
    ours_queue = f"bench-ours-{uuid.uuid4().hex[:6]}"
    inline_queue = f"bench-inline-{uuid.uuid4().hex[:6]}"
    store = SqliteSessionService(os.path.join(tmp, "sessions.db"))

    def floor_worker(task_queue: str, sandboxed: bool) -> Worker:
        return Worker(
            client,
            task_queue=task_queue,
            workflows=FLOOR_WORKFLOWS,
            activities=FLOOR_ACTIVITIES,
            workflow_runner=SandboxedWorkflowRunner() if sandboxed else UnsandboxedWorkflowRunner(),
        )

    runner = Runner(
        app=pipeline_app(),
        session_service=store,
        temporal_client=client,
        task_queue=ours_queue,
        run_worker=False,
        auto_create_session=True,
    )
    floor = floor_config(
        client, floor_eager_queue, "floor: bare, no sandbox, eager start", eager=True
    )
    floor_defaults = floor_config(
        client, floor_queue, "  diag: floor, Temporal's defaults", eager=False
    )
    ours = ours_config(
        AgentClient(client, store, task_queue=ours_queue), "ours: start + result (SQLite)"
    )
    streamed = runner_config(runner, "ours: Runner.run_async (SQLite)")
    inline = ours_config(
        AgentClient(client, store, task_queue=inline_queue), "  opt-in: workflow agents inline"
    )
    configs = [floor, floor_defaults, ours, streamed, inline]

    async with (
        floor_worker(floor_queue, sandboxed=True),
        floor_worker(floor_eager_queue, sandboxed=False),
        build_worker(
            client, apps={APP: pipeline_app()}, session_service=store, task_queue=ours_queue
        ),
        build_worker(
            client,
            apps={APP: pipeline_app()},
            session_service=store,
            task_queue=inline_queue,
            inline_workflow_agents=True,
        ),
    ):
        for config in configs:
            for _ in range(3):
                await config.run()
            config.roots.clear()
        for _ in range(runs):  # interleaved, so drift hits every configuration alike
            for config in configs:
                config.latencies.append(await timed(config.run))
        shapes = {
            c.label: await trees(client, c.roots[:5]) for c in (floor, floor_defaults, ours, inline)
        }
        for round_ in range(rounds):  # alternating order: the same mean position for all
            for config in configs if round_ % 2 == 0 else list(reversed(configs)):
                await throughput(config, total, IN_FLIGHT)
    store.close()

    print(
        f"   latency: {runs} sequential runs each (interleaved, after 3 warm-ups);"
        f" throughput: {total} invocations, {IN_FLIGHT} in flight, {rounds} rounds"
    )
    print()
    print(
        f"   {'configuration':<40} {'p50':>9} {'p95':>9} {'thr mean':>9}"
        f" {'cpu proc':>9} {'cpu srv':>9}"
    )
    for c in configs:
        print(
            f"   {c.label:<40} {ms(statistics.median(c.latencies))} {ms(pct(c.latencies, 0.95))}"
            f" {mean(c.throughputs):>7.1f}/s {ms(mean(c.cpu_self))} {ms(mean(c.cpu_server))}"
        )
    print("   (cpu proc: this process, i.e. client + worker, per invocation; cpu srv: dev server)")
    print()
    print(
        f"   {'tree per invocation (5 invocations)':<40} {'wfs':>4} {'wf tasks':>9}"
        f" {'events':>7} {'bytes':>9} {'acts':>5} {'local':>6}"
    )
    for label, found in shapes.items():
        print(
            f"   {label:<40} {mean([t.workflows for t in found]):>4.0f}"
            f" {mean([t.workflow_tasks for t in found]):>9.1f}"
            f" {mean([t.history_events for t in found]):>7.1f}"
            f" {mean([t.history_bytes for t in found]):>9,.0f}"
            f" {mean([t.activities for t in found]):>5.1f}"
            f" {mean([t.local_activities for t in found]):>6.1f}"
        )
        print(f"      workflow tasks by workflow: {dict(found[0].by_workflow)}")
        print(
            f"      root span {ms(mean([t.root_span for t in found])).strip()};"
            f" summed over the tree: workflow tasks dispatch"
            f" {ms(mean([t.wft_dispatch for t in found])).strip()}, worker"
            f" {ms(mean([t.wft_worker for t in found])).strip()}; activities wait"
            f" {ms(mean([t.activity_wait for t in found])).strip()}, run"
            f" {ms(mean([t.activity_run for t in found])).strip()}"
        )
    print()
    top = shapes[ours.label][0].bytes_by_kind
    all_bytes = sum(top.values())
    print("   where ours' history bytes are (one invocation, event.ByteSize() by event type):")
    for name, size in top.most_common(int(os.environ.get("BENCH_KINDS", "6"))):
        print(f"      {name:<40} {size:>8,} ({size / all_bytes:5.1%})")
    print()

    def ratios(c: Config, base: Config, label: str) -> None:
        lat = statistics.median(c.latencies) / statistics.median(base.latencies)
        p95 = pct(c.latencies, 0.95) / pct(base.latencies, 0.95)
        thr = mean(c.throughputs) / mean(base.throughputs)
        cpu = mean(c.cpu_self) / mean(base.cpu_self)
        srv = mean(c.cpu_server) / mean(base.cpu_server)
        line = (
            f"   {c.label:<40} p50 {lat:5.2f}x {'ok ' if lat <= GOAL_LATENCY else 'MISS'}"
            f"  p95 {p95:5.2f}x  throughput {thr:5.2f}x {'ok ' if thr >= GOAL_THROUGHPUT else 'MISS'}"
            f"  cpu proc {cpu:5.2f}x  srv {srv:5.2f}x"
        )
        if c.label in shapes and base.label in shapes:
            ours_t, base_t = shapes[c.label], shapes[base.label]
            wft = mean([t.workflow_tasks for t in ours_t]) / mean(
                [t.workflow_tasks for t in base_t]
            )
            kb = mean([t.history_bytes for t in ours_t]) / 1024
            hist = kb / (mean([t.history_bytes for t in base_t]) / 1024)
            line += (
                f"  wf tasks {wft:4.2f}x  history {hist:4.2f}x ({kb:.1f} KB"
                f" {'ok' if kb <= GOAL_HISTORY_KB else 'MISS'})"
            )
        print(line)

    print(
        f"   ratios to the floor (goals: p50 ≤ {GOAL_LATENCY}x, throughput ≥ {GOAL_THROUGHPUT}x,"
        f" history ≤ {GOAL_HISTORY_KB:g} KB)"
    )
    for c in (ours, streamed, inline):
        ratios(c, floor, c.label)
    print()
    print("   ratios to the floor run with Temporal's defaults (the sandbox, a normal start):")
    for c in (ours, streamed):
        ratios(c, floor_defaults, c.label)
    print()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="sequential runs per configuration")
    parser.add_argument("--total", type=int, default=60, help="invocations per throughput round")
    parser.add_argument("--rounds", type=int, default=2, help="throughput rounds (even)")
    args = parser.parse_args()
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
            print("pipeline: SequentialAgent[planner (1 tool), ParallelAgent[web, docs], writer]")
            print()
            await measure(env.client, tmp, args.runs, args.total, args.rounds)
        finally:
            await env.shutdown()
    print(f"total bench time {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    asyncio.run(main())
