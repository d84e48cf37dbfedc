"""What wakes a client stream: the histories it follows, and the store's notifications.

Runs on: test process only (the notification test on a real PostgreSQL,
tests/_postgres.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from temporalio.api.common.v1 import WorkflowExecution
from temporalio.api.enums.v1 import EventType
from temporalio.api.history.v1 import (
    ChildWorkflowExecutionCompletedEventAttributes,
    ChildWorkflowExecutionStartedEventAttributes,
    HistoryEvent,
)

from adk.events import Event
from adk.sessions import DatabaseSessionService
from client._follow import HistoryFollower
from tests._postgres import fresh_postgres_database


class Recorded(HistoryFollower):
    """A follower that records what it would follow instead of long-polling."""

    def __init__(self) -> None:
        self.woken: list[str] = []
        super().__init__(None, self.woken.append)  # type: ignore[arg-type]  # never called
        self.started: list[tuple[str, str | None]] = []

    def _start(self, workflow_id: str, run_id: str | None, *, root: bool) -> None:
        self.started.append((workflow_id, run_id))


def _event(kind: Any, **attributes: Any) -> HistoryEvent:
    return HistoryEvent(event_type=kind, **attributes)


def test_activity_and_workflow_ends_wake_the_stream_to_read() -> None:
    follower = Recorded()
    for kind in (
        EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
        EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED,
        EventType.EVENT_TYPE_MARKER_RECORDED,  # a local activity (begin, persist_events)
        EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
    ):
        follower._saw(_event(kind), root=False)
    assert follower.woken == ["store"] * 4
    follower.woken.clear()
    for kind in (
        EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,  # after its activities' ends
        EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,  # nothing recorded yet
        EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,  # a child's: no status of its own
        EventType.EVENT_TYPE_TIMER_FIRED,
    ):
        follower._saw(_event(kind), root=False)
    assert follower.woken == []


def test_children_are_followed_from_their_start() -> None:
    follower = Recorded()
    child = WorkflowExecution(workflow_id="adk:app:u:s/e-1/research", run_id="r1")
    follower._saw(
        _event(
            EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED,
            child_workflow_execution_started_event_attributes=(
                ChildWorkflowExecutionStartedEventAttributes(workflow_execution=child)
            ),
        ),
        root=True,
    )
    assert follower.started == [("adk:app:u:s/e-1/research", "r1")]
    follower._saw(
        _event(
            EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED,
            child_workflow_execution_completed_event_attributes=(
                ChildWorkflowExecutionCompletedEventAttributes(workflow_execution=child)
            ),
        ),
        root=True,
    )
    # its own follower reads its history to its close: each activity's end woke the
    # stream already, so its end is no reason to read
    assert follower.woken == []


def test_the_roots_status_is_asked_when_its_history_shows_a_change() -> None:
    follower = Recorded()
    follower._saw(_event(EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES), root=True)
    follower._saw(_event(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED), root=True)
    follower._saw(_event(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED), root=True)
    assert follower.woken == ["status", "status", "task"]
    follower.woken.clear()
    # a child's report (a signal) is applied by the root's next task: ask after it
    follower._saw(_event(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED), root=True)
    assert follower.woken == []
    follower._saw(_event(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED), root=True)
    follower._saw(_event(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED), root=True)
    assert follower.woken == ["status", "task"]


async def _append(store: DatabaseSessionService, event: Event) -> None:
    session = await store.get_session(app_name="a", user_id="u", session_id="s")
    assert session is not None
    await store.append_event(session, event)


async def test_postgres_tells_a_listener_of_appends_made_by_another_instance(
    postgres_url: str,
) -> None:
    url = await fresh_postgres_database(postgres_url)
    writer, reader = DatabaseSessionService(url), DatabaseSessionService(url)
    heard: list[int] = []
    arrived = asyncio.Event()

    def on_append(seq: int) -> None:
        heard.append(seq)
        arrived.set()

    try:
        await writer.create_session(app_name="a", user_id="u", session_id="s")
        await writer.create_session(app_name="a", user_id="u", session_id="other")
        where = dict(app_name="a", user_id="u", session_id="s")
        async with reader.appends_elsewhere(**where, on_append=on_append) as listening:
            assert listening.alive
            one = Event(author="agent", invocation_id="e-1")
            await _append(writer, one)
            await asyncio.wait_for(arrived.wait(), 5)
            other = await writer.get_session(app_name="a", user_id="u", session_id="other")
            assert other is not None
            await writer.append_event(other, Event(author="agent", invocation_id="e-2"))
            await _append(writer, one)  # the same record again: nothing changes
            await _append(writer, Event(author="agent", invocation_id="e-1"))
            while len(heard) < 2:
                await asyncio.wait_for(arrived.wait(), 5)
                arrived.clear()
            await asyncio.sleep(0.2)  # (nothing else comes)
        assert heard == [1, 2]  # this session's appends only, with their seqs
        assert not listening.alive  # stopped listening on the way out
    finally:
        await writer.close()
        await reader.close()


async def test_sqlite_cannot_tell_of_appends_elsewhere(tmp_path: Path) -> None:
    store = DatabaseSessionService(f"sqlite+aiosqlite:///{tmp_path}/s.db")
    try:
        where = dict(app_name="a", user_id="u", session_id="s")
        async with store.appends_elsewhere(**where, on_append=lambda _: None) as listening:
            assert not listening.alive  # streams learn of appends from Temporal there
    finally:
        await store.close()


async def test_the_streams_of_one_instance_share_one_listening_connection(
    postgres_url: str,
) -> None:
    url = await fresh_postgres_database(postgres_url)
    writer, reader = DatabaseSessionService(url), DatabaseSessionService(url)
    heard: dict[str, list[int]] = {"s": [], "s again": [], "t": []}
    try:
        for session_id in ("s", "t"):
            await writer.create_session(app_name="a", user_id="u", session_id=session_id)
        async with contextlib.AsyncExitStack() as streams:
            for name, session_id in (("s", "s"), ("s again", "s"), ("t", "t")):
                listening = await streams.enter_async_context(
                    reader.appends_elsewhere(
                        app_name="a",
                        user_id="u",
                        session_id=session_id,
                        on_append=heard[name].append,
                    )
                )
                assert listening.alive
            assert reader.db_engine.pool.checkedout() == 1  # type: ignore[attr-defined]
            for session_id in ("s", "t"):
                session = await writer.get_session(app_name="a", user_id="u", session_id=session_id)
                assert session is not None
                await writer.append_event(session, Event(author="agent", invocation_id="e"))
            for _ in range(100):
                if all(heard.values()):
                    break
                await asyncio.sleep(0.05)
        assert heard == {"s": [1], "s again": [1], "t": [1]}
        assert reader.db_engine.pool.checkedout() == 0  # type: ignore[attr-defined]  # returned
    finally:
        await writer.close()
        await reader.close()


def test_a_workflow_changes_marker_and_its_version_upsert_wake_nothing() -> None:
    from temporalio.api.common.v1 import Payload, SearchAttributes
    from temporalio.api.history.v1 import (
        MarkerRecordedEventAttributes,
        UpsertWorkflowSearchAttributesEventAttributes,
    )

    follower = Recorded()
    follower._saw(
        _event(
            EventType.EVENT_TYPE_MARKER_RECORDED,
            marker_recorded_event_attributes=MarkerRecordedEventAttributes(
                marker_name="core_patch"
            ),
        ),
        root=True,
    )
    versions = SearchAttributes(indexed_fields={"TemporalChangeVersion": Payload(data=b"[]")})
    follower._saw(
        _event(
            EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
            upsert_workflow_search_attributes_event_attributes=(
                UpsertWorkflowSearchAttributesEventAttributes(search_attributes=versions)
            ),
        ),
        root=True,
    )
    assert follower.woken == []
    ours = SearchAttributes(indexed_fields={"AdkStatus": Payload(data=b'"waiting"')})
    follower._saw(
        _event(
            EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
            upsert_workflow_search_attributes_event_attributes=(
                UpsertWorkflowSearchAttributesEventAttributes(search_attributes=ours)
            ),
        ),
        root=True,
    )
    local = MarkerRecordedEventAttributes(marker_name="core_local_activity")
    follower._saw(
        _event(EventType.EVENT_TYPE_MARKER_RECORDED, marker_recorded_event_attributes=local),
        root=False,
    )
    assert follower.woken == ["status", "store"]
