"""The rejected candidate for streams, measured: workflow updates that wait for events
past a cursor, and what they write into history.

Run: `python -m bench.stream_candidates` (about 20 s). Prints figures; asserts nothing.

A workflow runs STEPS activities one after another, its "event count" going up after
each (as an invocation's would); a client asks, by an update that waits
(`wait_condition`) until the count passes its cursor, for the new count, again and
again until the end, as a stream would. The same workflow runs once with no one
watching, then once with the client: the difference is what the update-based stream
writes to history (the server's own history size). It also prints how long after an
activity ended the waiting update returned (p50). The chosen mechanism (history
long-poll plus the store's reads, or PostgreSQL's notifications) writes nothing; see
bench/stream_latency.py for its latency.

Runs on: process side (a local dev server, a worker and a client in this process).
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from datetime import timedelta

from temporalio import activity, workflow
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary

STEPS = 20
ENDED: dict[int, float] = {}


@activity.defn
async def step(number: int) -> int:
    await asyncio.sleep(0.05)
    ENDED[number] = time.perf_counter()
    return number


@workflow.defn
class Counting:
    def __init__(self) -> None:
        self.count = 0
        self.done = False

    @workflow.run
    async def run(self, steps: int) -> int:
        for number in range(1, steps + 1):
            await workflow.execute_activity(
                step, number, start_to_close_timeout=timedelta(seconds=10)
            )
            self.count = number
        self.done = True
        await workflow.wait_condition(workflow.all_handlers_finished)
        return self.count

    @workflow.update
    async def events_after(self, cursor: int) -> int:
        await workflow.wait_condition(lambda: self.count > cursor or self.done)
        return self.count


async def main() -> None:
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=temporal_binary(), dev_server_extra_args=DEV_SERVER_ARGS
    )
    queue = f"candidates-{uuid.uuid4().hex[:6]}"
    try:
        async with Worker(
            env.client,
            task_queue=queue,
            workflows=[Counting],
            activities=[step],
            workflow_runner=UnsandboxedWorkflowRunner(),
        ):
            quiet = await env.client.start_workflow(
                Counting.run, STEPS, id=f"quiet-{uuid.uuid4()}", task_queue=queue
            )
            await quiet.result()
            watched = await env.client.start_workflow(
                Counting.run, STEPS, id=f"watched-{uuid.uuid4()}", task_queue=queue
            )
            cursor, updates, delays = 0, 0, []
            while cursor < STEPS:
                cursor = await watched.execute_update(Counting.events_after, cursor)
                delays.append(time.perf_counter() - ENDED[cursor])
                updates += 1
            await watched.result()
            a, b = await quiet.describe(), await watched.describe()
        added = b.raw_description.workflow_execution_info.history_size_bytes - (
            a.raw_description.workflow_execution_info.history_size_bytes
        )
        events = b.history_length - a.history_length
        print(f"{STEPS} steps; one client streaming by waiting updates ({updates} updates)")
        print(f"  history without the client: {a.history_length} events")
        print(f"  added by the updates: {events} events, {added} bytes")
        print(f"  per update: {events / updates:.1f} events, {added / updates:.0f} bytes")
        print(f"  activity end → update returned: p50 {statistics.median(delays) * 1000:.1f} ms")
    finally:
        await env.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
