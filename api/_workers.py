"""Whether a worker serves an app: a run for an app no worker polls for would wait
(durably, but the HTTP request with it), so it is refused at once (503), as
`python -m client run` refuses it (exit 6).

Runs on: process side.
"""

from __future__ import annotations

import asyncio
import time

from temporalio.api.enums.v1 import TaskQueueKind, TaskQueueType
from temporalio.api.taskqueue.v1 import TaskQueue
from temporalio.api.workflowservice.v1 import DescribeTaskQueueRequest

from client import AgentClient

RECENT = 120.0
"""A poller counts when it polled within two minutes: a long poll lasts about one."""
KNOWN_FOR = 30.0
"""Seconds a queue seen polled is not asked about again."""


class WorkerCheck:
    def __init__(self, grace: float = 5.0) -> None:
        self.grace = grace
        self._seen: dict[str, float] = {}

    async def polled(self, client: AgentClient, app_name: str) -> bool:
        """Whether a worker polls the app's task queue, giving one just started `grace` s."""
        queue = client.queue_of(app_name)
        if time.monotonic() - self._seen.get(queue, -KNOWN_FOR) < KNOWN_FOR:
            return True
        request = DescribeTaskQueueRequest(
            namespace=client.temporal.namespace,
            task_queue=TaskQueue(name=queue, kind=TaskQueueKind.TASK_QUEUE_KIND_NORMAL),
            task_queue_type=TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        )
        deadline = time.monotonic() + self.grace
        while True:
            described = await client.keep_trying(
                "(task queue)",
                lambda _: client.temporal.workflow_service.describe_task_queue(request),
            )
            if any(p.last_access_time.seconds > time.time() - RECENT for p in described.pollers):
                self._seen[queue] = time.monotonic()
                return True
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.5)


def no_worker(client: AgentClient, app_name: str) -> str:
    return (
        f"no worker polls task queue {client.queue_of(app_name)!r} (no worker serves app"
        f" {app_name!r}); start one: python -m worker <the folder of app {app_name!r}>"
    )
