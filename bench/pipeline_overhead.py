"""What one multi-agent invocation costs: examples/research_pipeline on a local dev server.

Run: `python -m bench.pipeline_overhead`. Prints figures; asserts nothing.

The pipeline is SequentialAgent(ParallelAgent(2 researchers), LoopAgent(writer,
critic)) with its offline models (no API key needed: the key variables are
cleared). The entry agent runs inline in the invocation workflow and every
sub-agent run in an `AdkAgentRun` child workflow. For each invocation it walks
the root's history and its children's (recursively, from the
ChildWorkflowExecutionStarted events) and prints:

- workflows (root + children), activities scheduled (and local activities,
  recorded as markers), history events summed over all of them;
- end-to-end latency (`Runner.run_async`, from the call to the last event
  streamed), median and p90 over the runs;
- the sum of the activity durations (scheduled → completed, server clock),
  and the time covered by at least one running activity (branches overlap);
  local activities have no server timestamps and count as orchestration;
- the root workflow's span on the server (started → closed) and what is left
  of it when the activity-covered time is taken out: the orchestration cost
  (workflow tasks, child starts, their round trips).

Runs on: process side (client, in-process worker and the dev server).
"""

from __future__ import annotations

import asyncio
import collections
import os
import statistics
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

RUNS = 10
WARMUP_RUNS = 2
APP_NAME = "research_pipeline"
MESSAGE = "Write a short report on home batteries."


@dataclass
class Tree:
    """What one invocation's workflows recorded, summed over root and children."""

    workflows: int = 0
    activities: int = 0
    local_activities: int = 0
    history_events: int = 0
    activity_seconds: float = 0.0
    intervals: list[tuple[datetime, datetime]] = field(default_factory=list)
    by_type: collections.Counter[str] = field(default_factory=collections.Counter)
    workflow_types: collections.Counter[str] = field(default_factory=collections.Counter)
    root_span: float = 0.0

    def covered_seconds(self) -> float:
        """Wall time during which at least one activity was scheduled or running."""
        total, end = 0.0, None
        for start, stop in sorted(self.intervals):
            if end is None or start > end:
                total += (stop - start).total_seconds()
                end = stop
            elif stop > end:
                total += (stop - end).total_seconds()
                end = stop
        return total


async def walk(client: Any, workflow_id: str, run_id: str | None, tree: Tree, root: bool) -> None:
    from temporalio.api.enums.v1 import EventType

    handle = client.get_workflow_handle(workflow_id, run_id=run_id)
    history = await handle.fetch_history()
    events = history.events
    tree.workflows += 1
    tree.history_events += len(events)
    tree.workflow_types[
        events[0].workflow_execution_started_event_attributes.workflow_type.name
    ] += 1
    if root:
        tree.root_span = (
            events[-1].event_time.ToDatetime() - events[0].event_time.ToDatetime()
        ).total_seconds()
    scheduled: dict[int, Any] = {}
    for event in events:
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            tree.activities += 1
            attributes = event.activity_task_scheduled_event_attributes
            tree.by_type[attributes.activity_type.name] += 1
            scheduled[event.event_id] = event
        elif event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
            start = scheduled[event.activity_task_completed_event_attributes.scheduled_event_id]
            begin, end = start.event_time.ToDatetime(), event.event_time.ToDatetime()
            tree.activity_seconds += (end - begin).total_seconds()
            tree.intervals.append((begin, end))
        elif (
            event.event_type == EventType.EVENT_TYPE_MARKER_RECORDED
            and event.marker_recorded_event_attributes.marker_name == "core_local_activity"
        ):
            tree.local_activities += 1
        elif event.event_type == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED:
            child = event.child_workflow_execution_started_event_attributes.workflow_execution
            await walk(client, child.workflow_id, child.run_id, tree, root=False)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


async def main() -> None:
    for key in ("GOOGLE_API_KEY", "GEMINI_API_KEY"):
        os.environ.pop(key, None)  # the offline models, before the app is imported

    from google.genai import types
    from temporalio.testing import WorkflowEnvironment

    from adk.runners import Runner
    from adk.sessions import InMemorySessionService
    from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
    from worker import load_app
    from workflows.converter import data_converter
    from workflows.names import SEARCH_ATTRIBUTES, invocation_workflow_id

    app = load_app("examples.research_pipeline")
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=temporal_binary(),
        data_converter=data_converter,
        search_attributes=SEARCH_ATTRIBUTES,
        dev_server_extra_args=DEV_SERVER_ARGS,
    )
    message = types.Content(role="user", parts=[types.Part(text=MESSAGE)])
    latencies: list[float] = []
    trees: list[Tree] = []
    event_counts: list[int] = []
    try:
        async with Runner(
            app=app,
            app_name=APP_NAME,
            session_service=InMemorySessionService(),
            temporal_client=env.client,
            auto_create_session=True,
        ) as runner:
            for index in range(WARMUP_RUNS + RUNS):
                session_id = f"bench-{uuid.uuid4().hex[:8]}"
                started = time.perf_counter()
                events = [
                    e
                    async for e in runner.run_async(
                        user_id="bench", session_id=session_id, new_message=message
                    )
                ]
                elapsed = time.perf_counter() - started
                if index < WARMUP_RUNS:
                    continue
                latencies.append(elapsed)
                event_counts.append(len(events))
                tree = Tree()
                root_id = invocation_workflow_id(APP_NAME, "bench", session_id)
                await walk(env.client, root_id, None, tree, root=True)
                trees.append(tree)
    finally:
        await env.shutdown()

    def spread(values: list[int]) -> str:
        low, high = min(values), max(values)
        middle = statistics.median(values)
        return f"{middle:g}" if low == high else f"{middle:g} (min {low}, max {high})"

    first = trees[0]
    activity_sum = [t.activity_seconds for t in trees]
    covered = [t.covered_seconds() for t in trees]
    spans = [t.root_span for t in trees]
    e2e = statistics.median(latencies)
    print(f"research_pipeline, offline models: {RUNS} invocations (after {WARMUP_RUNS} warm-up)")
    print(f"  session events per invocation:      {spread(event_counts)}")
    print(
        f"  workflows (root + children):        {spread([t.workflows for t in trees])}"
        f"  {dict(first.workflow_types)}"
    )
    print(
        f"  activities:                         {spread([t.activities for t in trees])}"
        f"  {dict(first.by_type)}"
    )
    print(f"  local activities:                   {spread([t.local_activities for t in trees])}")
    print(f"  history events (all workflows):     {spread([t.history_events for t in trees])}")
    print(f"  end-to-end latency, median:         {ms(e2e)}  (p90 {ms(p90(latencies))})")
    print(f"  root workflow span, median:         {ms(statistics.median(spans))}")
    print(f"  activity durations summed, median:  {ms(statistics.median(activity_sum))}")
    print(f"  activity-covered time, median:      {ms(statistics.median(covered))}")
    print(
        f"  orchestration (span - covered):     "
        f"{ms(statistics.median(s - c for s, c in zip(spans, covered, strict=True)))}"
    )
    print(f"  latency / activity sum:             {e2e / statistics.median(activity_sum):.1f}x")


if __name__ == "__main__":
    asyncio.run(main())
