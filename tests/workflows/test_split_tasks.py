"""A workflow task split after a local activity still replays.

A query (or an update the workflow rejects) arriving while a workflow task waits for
its local activity can make the worker complete the task with the activity's marker
alone, and record what the code did next in a task of its own. Replay gives the code
the activity's result in the first task, so a change's marker (workflow.patched)
recorded in the second had no command to match: "Non-deprecated patch marker
encountered" (seen under load, about 1 run in 10 of an answered-apart confirmation).
Runs now decide their changes at their start (workflows/_patches.py).

Each case runs on the shared server; every history it leaves is split after each
local-activity marker that starts a task's commands, and every split replays. Before
the change, the answered-apart confirmation's split at its second answer's run failed.
"""

from __future__ import annotations

import base64
import copy
import json
from datetime import UTC, datetime
from typing import Any

import pytest
from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer

from tests.differential import kit
from worker._build import workflow_runner
from workflows import WORKFLOWS, names
from workflows.converter import data_converter

CASES = [
    "confirmation_two_answered_apart_resumable",
    "confirmation_nested_resumable",
    "long_running_transferred_in_sequence_resumable_callbacks",
    "answer_for_ended_in_transferred_sequence_resumable",
    "plugin_run_hooks_answers_resumable",
    "confirmation_transfers_in_sequence_resumable",
    "confirmation_in_parallel_two_branches",
    "confirmation_in_transferred_parallel_resumable",
    "wf_route_loop_join_resumable",
]

_TASK_EVENTS = (
    "EVENT_TYPE_WORKFLOW_TASK_SCHEDULED",
    "EVENT_TYPE_WORKFLOW_TASK_STARTED",
    "EVENT_TYPE_WORKFLOW_TASK_COMPLETED",
)


def _attributes(event: dict[str, Any]) -> dict[str, Any]:
    return next((v for k, v in event.items() if k.endswith("Attributes")), {})


def _marker(event: dict[str, Any]) -> str | None:
    return event.get("markerRecordedEventAttributes", {}).get("markerName")


def split_points(events: list[dict[str, Any]]) -> list[int]:
    """Indexes of local-activity markers that open a task's commands and are followed by
    another command of the same task."""
    return [
        i
        for i in range(1, len(events) - 1)
        if _marker(events[i]) == "core_local_activity"
        and events[i - 1]["eventType"] == _TASK_EVENTS[2]
        and _attributes(events[i + 1]).get("workflowTaskCompletedEventId")
        == events[i - 1]["eventId"]
    ]


def split_at(events: list[dict[str, Any]], at: int) -> list[dict[str, Any]]:
    """The history with a workflow task (scheduled, started, completed) inserted after the
    marker at `at`: the task's later commands belong to the inserted one."""
    last = {e["eventType"]: e for e in events[:at]}
    inserted = [
        {**copy.deepcopy(last[kind]), "eventId": f"new-{n}", "eventTime": events[at]["eventTime"]}
        for n, kind in enumerate(_TASK_EVENTS)
    ]
    old_completion = events[at - 1]["eventId"]
    out = copy.deepcopy(events[: at + 1]) + inserted + copy.deepcopy(events[at + 1 :])
    ids = {}
    for number, event in enumerate(out, 1):
        ids[event["eventId"]] = str(number)
        event["eventId"] = str(number)
    _attributes(out[at + 2])["scheduledEventId"] = ids["new-0"]
    _attributes(out[at + 3])["scheduledEventId"] = ids["new-0"]
    _attributes(out[at + 3])["startedEventId"] = ids["new-1"]

    def renumber(value: Any, moved: bool) -> None:
        if isinstance(value, list):
            for item in value:
                renumber(item, moved)
        elif isinstance(value, dict):
            for key, item in value.items():
                if key.endswith("EventId") and isinstance(item, str):
                    if moved and key == "workflowTaskCompletedEventId" and item == old_completion:
                        value[key] = ids["new-2"]
                    elif item in ids:
                        value[key] = ids[item]
                else:
                    renumber(item, moved)

    for index, event in enumerate(out):
        if not at < index <= at + 3:
            renumber(event, moved=index > at + 3)
    return out


def patch_ids(events: list[dict[str, Any]]) -> list[str]:
    return [
        json.loads(base64.b64decode(payload["data"]))["id"]
        for e in events
        if _marker(e) == "core_patch"
        for payload in e["markerRecordedEventAttributes"]["details"]["patch-data"]["payloads"]
    ]


@pytest.mark.parametrize("case", CASES)
async def test_every_history_replays_with_a_task_split_after_a_local_activity(case, temporal_env):
    since = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    ours = await kit.run_ours(case, temporal_env)
    assert "load_error" not in ours
    replayer = Replayer(
        workflows=list(WORKFLOWS),
        data_converter=data_converter,
        workflow_runner=workflow_runner(False),
    )
    histories = splits = 0
    failures = []
    async for listed in temporal_env.client.list_workflows(f'StartTime >= "{since}"'):
        handle = temporal_env.client.get_workflow_handle(listed.id, run_id=listed.run_id)
        events = json.loads((await handle.fetch_history()).to_json())["events"]
        histories += 1
        # a root run started on this code records one marker, its children none
        # (workflows/_patches.py)
        newest = names.changes_marker(len(names.CHANGES_AT_START))
        assert patch_ids(events) == ([] if "/" in listed.id else [newest]), listed.id
        for at in split_points(events):
            splits += 1
            split = WorkflowHistory.from_json(listed.id, {"events": split_at(events, at)})
            result = await replayer.replay_workflow(split, raise_on_replay_failure=False)
            if result.replay_failure is not None:
                failures.append((listed.id, events[at]["eventId"], str(result.replay_failure)))
    assert histories and splits, (histories, splits)
    assert not failures
