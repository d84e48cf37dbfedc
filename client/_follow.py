"""Waking a client's stream from the invocation's workflow histories (Temporal's long-poll).

Runs on: process side (AgentClient streams, the CLI, the Runner).

Every event an invocation records is appended by an activity, and every activity
ends with an event in its workflow's history: ActivityTaskCompleted (or Failed,
TimedOut, Canceled), or a MarkerRecorded for a local activity. A client that
long-polls the histories of the invocation's workflows (`GetWorkflowExecutionHistory`
with `wait_new_event`: the root, and the children it finds started there, and
theirs) therefore learns of every append as soon as its activity ends, and reads
the store after its cursor. Nothing is written for it (no history event, no table,
no file), and it works for any store and from any host that reaches Temporal.

The root's history also shows what may change the invocation's status: answers
(updates), children reporting requests (signals) and the `AdkStatus` search
attribute; the stream asks the status query then, rather than on a timer.

A follower stops at its workflow's close, having read its history to the end (so a
child's end wakes nobody: its activities' ends did). Through an outage it asks again
with backoff, from the page it had reached: the stream reads the store at the first
event after it, so nothing is missed.
Giving up is the stream's result long-poll's call (client/_outage.py), not a
follower's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from temporalio.api.enums.v1 import EventType
from temporalio.api.history.v1 import HistoryEvent
from temporalio.client import Client, WorkflowHandle
from temporalio.service import RPCError

from ._outage import RETRY_FIRST, no_contact

APPENDS = frozenset(
    {
        EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
        EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED,
        EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT,
        EventType.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
        EventType.EVENT_TYPE_MARKER_RECORDED,
        EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
        EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
        EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
        EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
        EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
    }
)
"""History events that follow appends to the store: an activity (regular or local)
ended, or the workflow ended otherwise than by completing (a completion follows the
markers of its last local activities, which woke the stream already)."""

STATUS = frozenset(
    {
        EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
        EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED,
    }
)
"""Root history events written when the pending requests may have changed (the `AdkStatus`
attribute set or unset, an answer applied). A signal (a child reporting requests) is
applied by the root's next workflow task: its completion is the one to wake for."""

Wake = Callable[[str], None]
"""Called with "store" (appends may have happened), "status" (the root's pending
requests may have changed) or "task" (the root completed a workflow task)."""


class HistoryFollower:
    """Long-polls an invocation's workflow histories and calls `wake` (see the module)."""

    def __init__(self, temporal: Client, wake: Wake) -> None:
        self.temporal = temporal
        self.wake = wake
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._signaled = False
        """The root was signaled: its next completed workflow task may change its status."""
        self.reconnected = 0
        """Times a follower got through again after an outage (for tests)."""

    def follow(self, root: WorkflowHandle[Any, Any]) -> None:
        """Follow the invocation's root workflow (children are found on the way)."""
        self._tasks[root.id] = asyncio.ensure_future(self._follow(root, True))

    def _start(self, workflow_id: str, run_id: str | None, *, root: bool) -> None:
        if workflow_id not in self._tasks:
            handle = self.temporal.get_workflow_handle(workflow_id, run_id=run_id)
            self._tasks[workflow_id] = asyncio.ensure_future(self._follow(handle, root))

    @property
    def following(self) -> list[str]:
        """The workflows being followed now."""
        return [wid for wid, task in self._tasks.items() if not task.done()]

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _follow(self, handle: WorkflowHandle[Any, Any], root: bool) -> None:
        events = handle.fetch_history_events(wait_new_event=True, skip_archival=True)
        pause, lost = RETRY_FIRST, False
        while True:
            try:
                event = await events.__anext__()
            except StopAsyncIteration:
                return
            except RPCError as error:
                if not no_contact(error):
                    return  # gone (NOT_FOUND...): the stream's result call says what happened
                lost = True
                await asyncio.sleep(pause)  # the same page again: its token is kept
                pause = min(pause * 2, 5.0)
                continue
            if lost:
                lost, pause = False, RETRY_FIRST
                self.reconnected += 1
                self.wake("store")  # appends during the outage: the stream reads them now
            self._saw(event, root)

    def _saw(self, event: HistoryEvent, root: bool) -> None:
        kind = event.event_type
        if _changes_only(event):  # the changes a run takes (workflows/_patches.py)
            return
        if kind in APPENDS:
            self.wake("store")
        elif kind == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED:
            child = event.child_workflow_execution_started_event_attributes.workflow_execution
            self._start(child.workflow_id, child.run_id or None, root=False)
        if not root:
            return
        if kind in STATUS:
            self.wake("status")
        elif kind == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
            self._signaled = True
        elif kind == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
            self.wake("status" if self._signaled else "task")
            self._signaled = False


def _changes_only(event: HistoryEvent) -> bool:
    """A workflow change's marker, or Temporal's TemporalChangeVersion upsert that comes
    with it: neither follows an append nor changes what the root waits for."""
    if event.event_type == EventType.EVENT_TYPE_MARKER_RECORDED:
        return event.marker_recorded_event_attributes.marker_name == "core_patch"
    if event.event_type == EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
        fields = event.upsert_workflow_search_attributes_event_attributes.search_attributes
        return set(fields.indexed_fields) == {"TemporalChangeVersion"}
    return False
