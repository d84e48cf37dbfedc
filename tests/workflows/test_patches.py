"""Changes decided at a run's start (workflows/_patches.py), on a real local Temporal."""

from __future__ import annotations

import base64
import json
import uuid

from temporalio import workflow
from temporalio.worker import Replayer, Worker

from worker._build import workflow_runner
from workflows import _patches, names
from workflows.converter import data_converter

FUTURE = "a-change-after-the-newest-generation"


@workflow.defn(sandboxed=False)
class _Asks:
    @workflow.run
    async def run(self, handed: int) -> list[bool]:
        _patches.decide_at_start(handed)
        await workflow.sleep(0.01)
        return [
            _patches.patched(names.PATCH_ADK_PAUSES),
            _patches.patched(FUTURE),
            _patches.generation() == len(names.CHANGES_AT_START),
        ]


def _markers(history) -> list[str]:  # type: ignore[no-untyped-def]
    events = json.loads(history.to_json())["events"]
    return [
        json.loads(base64.b64decode(p["data"]))["id"]
        for e in events
        if e.get("markerRecordedEventAttributes", {}).get("markerName") == "core_patch"
        for p in e["markerRecordedEventAttributes"]["details"]["patch-data"]["payloads"]
    ]


async def _run(env, handed: int):  # type: ignore[no-untyped-def]
    queue = f"patches-{uuid.uuid4()}"
    async with Worker(env.client, task_queue=queue, workflows=[_Asks]):
        handle = await env.client.start_workflow(
            _Asks.run, handed, id=f"patches-{uuid.uuid4()}", task_queue=queue
        )
        taken = await handle.result()
        history = await handle.fetch_history()
    replayer = Replayer(
        workflows=[_Asks], data_converter=data_converter, workflow_runner=workflow_runner(False)
    )
    assert (
        await replayer.replay_workflow(history, raise_on_replay_failure=False)
    ).replay_failure is None
    return taken, _markers(history)


async def test_a_root_run_takes_its_generation_with_one_marker_and_a_newer_change_with_its_own(
    temporal_env,
):
    taken, markers = await _run(temporal_env, 0)
    assert taken == [True, True, True]
    newest = names.changes_marker(len(names.CHANGES_AT_START))
    # the generation's changes have no marker of their own; one it does not list has
    assert markers == [newest, FUTURE]


async def test_a_child_run_takes_the_generation_handed_to_it_with_no_marker(temporal_env):
    taken, markers = await _run(temporal_env, len(names.CHANGES_AT_START))
    assert taken == [True, True, True]
    assert markers == [FUTURE]
