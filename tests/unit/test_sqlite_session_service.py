"""The session store contract: SqliteSessionService, InMemorySessionService (same
implementation) and DatabaseSessionService on SQLite and on a real PostgreSQL.

Tests taking `service` run on every store; the others are the SQLite store's own.

Runs on: test process only.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from google.genai import types

from adk.events import Event, EventActions
from adk.sessions import (
    AlreadyExistsError,
    BaseSessionService,
    DatabaseSessionService,
    GetSessionConfig,
    InMemorySessionService,
    Session,
    SqliteSessionService,
)
from adk.sessions.sqlite_session_service import default_db_path
from tests._postgres import fresh_postgres_database

APP = "app"


@pytest.fixture(params=["sqlite", "memory", "database-sqlite", "database-postgres"])
async def service(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    svc: BaseSessionService
    if request.param == "sqlite":
        svc = SqliteSessionService(tmp_path / "db" / "sessions.db")
    elif request.param == "memory":
        svc = InMemorySessionService()
    elif request.param == "database-sqlite":
        svc = DatabaseSessionService(f"sqlite+aiosqlite:///{tmp_path / 'sessions.db'}")
    else:
        url = await fresh_postgres_database(request.getfixturevalue("postgres_url"))
        svc = DatabaseSessionService(url)
    yield svc
    if isinstance(svc, DatabaseSessionService):
        await svc.close()
    else:
        svc.close()  # type: ignore[attr-defined]


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    return tmp_path / "sessions.db"


def _event(
    text: str = "hi",
    *,
    delta: Mapping[str, object] | None = None,
    invocation_id: str = "inv-1",
    timestamp: float | None = None,
    event_id: str = "",
) -> Event:
    extra = {} if timestamp is None else {"timestamp": timestamp}
    return Event(
        author="agent",
        invocation_id=invocation_id,
        id=event_id,
        content=types.Content(role="model", parts=[types.Part(text=text)]),
        actions=EventActions(state_delta=dict(delta or {})),
        **extra,
    )


async def _new(service: SqliteSessionService, user: str = "u1", **kwargs: object) -> Session:
    return await service.create_session(app_name=APP, user_id=user, **kwargs)  # type: ignore[arg-type]


async def _reload(service: SqliteSessionService, session: Session) -> Session:
    loaded = await service.get_session(
        app_name=session.app_name, user_id=session.user_id, session_id=session.id
    )
    assert loaded is not None
    return loaded


async def test_round_trip_function_call_response_and_bytes(
    service: SqliteSessionService,
) -> None:
    session = await _new(service)
    call = Event(
        author="agent",
        invocation_id="inv",
        branch="root.child",
        long_running_tool_ids={"call-1"},
        custom_metadata={"k": None, "n": [1, 2]},
        content=types.Content(
            role="model",
            parts=[
                types.Part(
                    function_call=types.FunctionCall(id="call-1", name="f", args={"a": [1, "x"]})
                ),
                types.Part(inline_data=types.Blob(data=b"\x00\xff\x10binary", mime_type="a/b")),
            ],
        ),
        actions=EventActions(state_delta={"k": "v"}, artifact_delta={"file": 2}),
    )
    response = Event(
        author="user",
        invocation_id="inv",
        content=types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(
                        id="call-1", name="f", response={"result": {"ok": True, "none": None}}
                    )
                )
            ],
        ),
    )
    await service.append_event(session, call)
    await service.append_event(session, response)

    loaded = await _reload(service, session)
    assert loaded.events == [call, response]
    assert loaded.events[0].content.parts[1].inline_data.data == b"\x00\xff\x10binary"  # type: ignore[union-attr,index]
    assert loaded.state == {"k": "v"}
    assert loaded.last_update_time == response.timestamp
    assert session.events == [call, response]


async def test_state_scoping_across_sessions_and_users(service: SqliteSessionService) -> None:
    s1 = await _new(service, "u1")
    s2 = await _new(service, "u1")
    s3 = await _new(service, "u2")
    delta = {"app:a": 1, "user:u": 2, "temp:t": 3, "s": 4}
    event = _event(delta=delta)
    await service.append_event(s1, event)

    assert event.actions.state_delta == {"app:a": 1, "user:u": 2, "s": 4}
    # as google-adk 2.13: the session object keeps temp: for its invocation; storage does not
    assert s1.state == {"app:a": 1, "user:u": 2, "temp:t": 3, "s": 4}
    assert (await _reload(service, s1)).state == {"app:a": 1, "user:u": 2, "s": 4}
    assert (await _reload(service, s2)).state == {"app:a": 1, "user:u": 2}
    assert (await _reload(service, s3)).state == {"app:a": 1}
    s4 = await _new(service, "u2")
    assert s4.state == {"app:a": 1}
    assert await service.get_state(app_name=APP, user_id="u2", session_id=s4.id) == {"app:a": 1}
    other_app = await service.create_session(app_name="other", user_id="u1")
    assert other_app.state == {}


async def test_create_session_splits_initial_state(service: SqliteSessionService) -> None:
    first = await _new(
        service, "u1", state={"app:a": 1, "user:u": 2, "temp:t": 3, "s": 4}, session_id="s1"
    )
    assert first.id == "s1"
    assert first.state == {"app:a": 1, "user:u": 2, "s": 4}
    assert first.events == []
    second = await _new(service, "u1", state={"s": 5})
    assert second.state == {"app:a": 1, "user:u": 2, "s": 5}
    third = await _new(service, "u2")
    assert third.state == {"app:a": 1}


async def test_none_is_kept_as_a_value(service: SqliteSessionService) -> None:
    # google-adk 2.13 stores None like any value (ADK 2.0's seeds said None deletes a key)
    session = await _new(service, state={"app:a": 1, "user:u": 2, "s": 3, "keep": 4, "n": None})
    assert session.state == {"app:a": 1, "user:u": 2, "s": 3, "keep": 4, "n": None}
    await service.append_event(session, _event(delta={"app:a": None, "user:u": None, "s": None}))
    expected = {"app:a": None, "user:u": None, "s": None, "keep": 4, "n": None}
    assert session.state == expected
    assert (await _reload(service, session)).state == expected
    assert (await _new(service)).state == {"app:a": None, "user:u": None}


async def test_append_is_idempotent_by_event_id(service: SqliteSessionService) -> None:
    session = await _new(service)
    first = _event("first", delta={"x": 1, "app:n": 1})
    await service.append_event(session, first)
    await service.append_event(session, _event("second", delta={"x": 2, "app:n": 2}))
    # the same event again (an activity retried after its write): nothing changes
    await service.append_event(session, first.model_copy(deep=True))

    rows = await service.list_events(app_name=APP, user_id="u1", session_id=session.id)
    assert [seq for seq, _ in rows] == sorted(seq for seq, _ in rows)
    assert [e.id for _, e in rows] == [first.id, rows[1][1].id]
    loaded = await _reload(service, session)
    assert loaded.state == {"x": 2, "app:n": 2}
    assert session.state == {"x": 2, "app:n": 2}
    assert len(session.events) == 2


async def test_a_changed_reappend_replaces_in_place_and_applies_its_delta(
    service: SqliteSessionService,
) -> None:
    session = await _new(service)
    first = _event("first", delta={"x": 1})
    await service.append_event(session, first)
    # a retried model step that answered differently records under the same id
    retry = _event("first, again", delta={"x": 3, "y": 1}, event_id=first.id)
    await service.append_event(session, retry)

    rows = await service.list_events(app_name=APP, user_id="u1", session_id=session.id)
    assert [e for _, e in rows] == [retry]
    loaded = await _reload(service, session)
    assert loaded.state == {"x": 3, "y": 1} == session.state
    assert [e.content.parts[0].text for e in session.events] == ["first, again"]  # type: ignore[union-attr,index]


async def test_partial_events_are_not_persisted(service: SqliteSessionService) -> None:
    session = await _new(service)
    chunk = _event(delta={"x": 1})
    chunk.partial = True
    assert await service.append_event(session, chunk) is chunk
    assert session.events == [] and session.state == {}
    assert (await _reload(service, session)).events == []


async def test_list_events_after_seq_and_invocation(service: SqliteSessionService) -> None:
    session = await _new(service)
    events = [_event(f"e{i}", invocation_id=f"inv-{i % 2}") for i in range(5)]
    for event in events:
        await service.append_event(session, event)

    async def listed(
        after_seq: int = 0, invocation_id: str | None = None
    ) -> list[tuple[int, Event]]:
        return await service.list_events(
            app_name=APP,
            user_id="u1",
            session_id=session.id,
            after_seq=after_seq,
            invocation_id=invocation_id,
        )

    rows = await listed()
    assert [e for _, e in rows] == events
    seqs = [seq for seq, _ in rows]
    assert seqs == sorted(set(seqs))
    later = await listed(after_seq=seqs[2])
    assert [e for _, e in later] == events[3:]
    odd = await listed(invocation_id="inv-1")
    assert [e for _, e in odd] == [events[1], events[3]]
    assert await listed(after_seq=seqs[-1]) == []


async def test_get_session_config(service: SqliteSessionService) -> None:
    session = await _new(service)
    events = [_event(f"e{i}", timestamp=1000.0 + i) for i in range(5)]
    for event in events:
        await service.append_event(session, event)

    async def get(config: GetSessionConfig) -> list[Event]:
        loaded = await service.get_session(
            app_name=APP, user_id="u1", session_id=session.id, config=config
        )
        assert loaded is not None
        return loaded.events

    assert await get(GetSessionConfig(num_recent_events=2)) == events[3:]
    assert await get(GetSessionConfig(after_timestamp=1002.0)) == events[2:]
    assert await get(GetSessionConfig(num_recent_events=10, after_timestamp=1003.0)) == events[3:]
    assert await get(GetSessionConfig(num_recent_events=1, after_timestamp=1001.0)) == events[4:]
    assert await get(GetSessionConfig()) == events


async def test_list_and_delete_sessions(service: SqliteSessionService) -> None:
    a = await _new(service, "u1", state={"user:name": "ann"})
    b = await _new(service, "u1")
    c = await _new(service, "u2", state={"app:v": 1})
    await service.append_event(a, _event())

    listed = (await service.list_sessions(app_name=APP, user_id="u1")).sessions
    by_update = isinstance(service, DatabaseSessionService)  # google-adk's database order
    assert [s.id for s in listed] == ([b.id, a.id] if by_update else [a.id, b.id])
    assert all(s.events == [] for s in listed)
    assert listed[-1 if by_update else 0].state == {"user:name": "ann", "app:v": 1}
    everyone = (await service.list_sessions(app_name=APP)).sessions
    assert {s.id for s in everyone} == {a.id, b.id, c.id}
    assert next(s for s in everyone if s.id == c.id).state == {"app:v": 1}

    await service.delete_session(app_name=APP, user_id="u1", session_id=a.id)
    assert await service.get_session(app_name=APP, user_id="u1", session_id=a.id) is None
    assert await service.list_events(app_name=APP, user_id="u1", session_id=a.id) == []
    assert [s.id for s in (await service.list_sessions(app_name=APP, user_id="u1")).sessions] == [
        b.id
    ]


async def test_sessions_list_in_creation_order(service: SqliteSessionService) -> None:
    """As google-adk 2.13 lists them: an update does not move a session first (its
    in-memory store); its DatabaseSessionService lists the least recently updated first."""
    first = await _new(service, "u1")
    second = await _new(service, "u1", session_id="fixed-id")
    await service.append_event(second, _event())  # the later session, updated last
    await service.append_event(first, _event(timestamp=1.0))  # an old time, updated now
    listed = (await service.list_sessions(app_name=APP, user_id="u1")).sessions
    assert [s.id for s in listed] == [first.id, second.id]
    await service.append_event(first, _event())  # now the most recently updated
    listed = (await service.list_sessions(app_name=APP, user_id="u1")).sessions
    by_update = isinstance(service, DatabaseSessionService)
    assert [s.id for s in listed] == ([second.id, first.id] if by_update else [first.id, second.id])


async def test_errors_at_google_adk_paths(service: SqliteSessionService) -> None:
    from adk.errors.already_exists_error import AlreadyExistsError
    from adk.errors.session_not_found_error import SessionNotFoundError

    await _new(service, "u1", session_id="taken")
    with pytest.raises(AlreadyExistsError, match="Session with id taken already exists."):
        await _new(service, "u1", session_id="taken")
    ghost = Session(id="ghost", app_name=APP, user_id="u1")
    with pytest.raises(SessionNotFoundError, match="Session ghost not found."):
        await service.append_event(ghost, _event())


async def test_missing_session(service: SqliteSessionService) -> None:
    assert await service.get_session(app_name=APP, user_id="u1", session_id="nope") is None
    assert await service.get_state(app_name=APP, user_id="u1", session_id="nope") is None
    ghost = Session(id="nope", app_name=APP, user_id="u1")
    event = _event(delta={"x": 1})
    with pytest.raises(ValueError, match="Session nope not found."):
        await service.append_event(ghost, event)
    for other in (_event(), _event(delta={"app:shared": 1})):  # no session key to write
        with pytest.raises(ValueError, match="Session nope not found."):
            await service.append_event(ghost, other)
    assert ghost.events == [] and ghost.state == {}
    # nothing of the refused appends was kept: no events, no `app:` key
    assert await service.list_events(app_name=APP, user_id="u1", session_id="nope") == []
    elsewhere = await _new(service, session_id="real")
    assert elsewhere.state == {}


async def test_already_exists(service: SqliteSessionService) -> None:
    await _new(service, session_id="dup", state={"s": 1})
    with pytest.raises(AlreadyExistsError, match="Session with id dup already exists."):
        await _new(service, session_id="dup", state={"s": 2, "app:a": 1})
    assert await service.get_state(app_name=APP, user_id="u1", session_id="dup") == {"s": 1}


async def test_two_instances_share_one_file(db_file: Path) -> None:
    writer, reader = SqliteSessionService(db_file), SqliteSessionService(str(db_file))
    try:
        session = await writer.create_session(app_name=APP, user_id="u1", state={"app:a": 1})
        event = _event(delta={"s": 1})
        await writer.append_event(session, event)
        seen = await reader.get_session(app_name=APP, user_id="u1", session_id=session.id)
        assert seen is not None and seen.events == [event]
        await reader.append_event(seen, _event(delta={"app:a": 2}))
        assert await writer.get_state(app_name=APP, user_id="u1", session_id=session.id) == {
            "s": 1,
            "app:a": 2,
        }
        assert len(await writer.list_events(app_name=APP, user_id="u1", session_id=session.id)) == 2
    finally:
        writer.close()
        reader.close()
    with sqlite3.connect(db_file) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


async def test_an_apps_root_agent_is_shared_through_the_file_and_the_last_one_wins(
    db_file: Path,
) -> None:
    worker, starter = SqliteSessionService(db_file), SqliteSessionService(db_file)
    try:
        assert await starter.get_app_root_agent(app_name=APP) is None
        await worker.set_app_root_agent(app_name=APP, agent_name="greeter")
        await worker.set_app_root_agent(app_name="other", agent_name="helper")
        assert await starter.get_app_root_agent(app_name=APP) == "greeter"
        await worker.set_app_root_agent(app_name=APP, agent_name="router")  # a new version
        assert await starter.get_app_root_agent(app_name=APP) == "router"
        assert await starter.get_app_root_agent(app_name="other") == "helper"
    finally:
        worker.close()
        starter.close()


async def test_concurrent_appends_get_distinct_seqs(db_file: Path) -> None:
    services = [SqliteSessionService(db_file) for _ in range(2)]
    try:
        session = await services[0].create_session(app_name=APP, user_id="u1")
        copies = [await _reload(svc, session) for svc in services]
        await asyncio.gather(
            *(
                services[i % 2].append_event(copies[i % 2], _event(f"e{i}", delta={f"k{i}": i}))
                for i in range(20)
            )
        )
        rows = await services[1].list_events(app_name=APP, user_id="u1", session_id=session.id)
        assert len({seq for seq, _ in rows}) == 20
        state = await services[0].get_state(app_name=APP, user_id="u1", session_id=session.id)
        assert state == {f"k{i}": i for i in range(20)}
    finally:
        for svc in services:
            svc.close()


def test_usable_from_several_event_loops(db_file: Path) -> None:
    service = SqliteSessionService(db_file)
    try:
        session = asyncio.run(service.create_session(app_name=APP, user_id="u1"))
        assert asyncio.run(_reload(service, session)).id == session.id
    finally:
        service.close()
    with pytest.raises(RuntimeError, match="closed"):
        asyncio.run(_reload(service, session))


async def test_in_memory_services_are_private() -> None:
    first, second = InMemorySessionService(), InMemorySessionService()
    try:
        session = await first.create_session(app_name=APP, user_id="u1", session_id="s")
        assert await second.get_session(app_name=APP, user_id="u1", session_id="s") is None
        assert (await _reload(first, session)).id == "s"
    finally:
        first.close()
        second.close()


def test_default_db_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DURABLE_ADK_SESSION_DB", raising=False)
    monkeypatch.delenv("DURABLE_ADK_DATA_DIR", raising=False)
    assert default_db_path() == Path(".data/sessions.db")
    monkeypatch.setenv("DURABLE_ADK_DATA_DIR", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "sessions.db"
    monkeypatch.setenv("DURABLE_ADK_SESSION_DB", str(tmp_path / "x" / "s.db"))
    service = SqliteSessionService()
    try:
        assert (tmp_path / "x" / "s.db").exists()
        assert service.db_path == str(tmp_path / "x" / "s.db")
    finally:
        service.close()


def test_synchronous_defaults_to_normal_and_can_be_full(tmp_path: Path, monkeypatch) -> None:
    def setting(service: SqliteSessionService) -> int:
        assert service._conn is not None
        return service._conn.execute("PRAGMA synchronous").fetchone()[0]

    monkeypatch.delenv("DURABLE_ADK_SQLITE_SYNCHRONOUS", raising=False)
    normal = SqliteSessionService(tmp_path / "a.db")
    full = SqliteSessionService(tmp_path / "b.db", synchronous="FULL")
    monkeypatch.setenv("DURABLE_ADK_SQLITE_SYNCHRONOUS", "full")
    from_env = SqliteSessionService(tmp_path / "c.db")
    try:
        assert (setting(normal), setting(full), setting(from_env)) == (1, 2, 2)
    finally:
        for service in (normal, full, from_env):
            service.close()
    monkeypatch.setenv("DURABLE_ADK_SQLITE_SYNCHRONOUS", "sometimes")
    with pytest.raises(ValueError, match="NORMAL or FULL"):
        SqliteSessionService(tmp_path / "d.db")


async def test_a_watch_wakes_when_an_event_of_its_session_is_appended_from_another_loop(
    service: SqliteSessionService,
) -> None:
    session = await service.create_session(app_name=APP, user_id="u", session_id="s")
    await service.create_session(app_name=APP, user_id="u", session_id="other")

    def append_in_another_thread(session_id: str) -> None:
        async def append() -> None:
            target = await service.get_session(app_name=APP, user_id="u", session_id=session_id)
            assert target is not None
            await service.append_event(target, Event(author="user", invocation_id="i"))

        asyncio.run(append())  # e.g. a sync Runner's loop, or a worker thread

    with (
        service.watch(app_name=APP, user_id="u", session_id="s") as watch,
        service.watch(app_name=APP, user_id="u", session_id="nobody") as idle,
    ):
        await asyncio.to_thread(append_in_another_thread, "other")
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(watch.changed(), 0.05)
        await asyncio.to_thread(append_in_another_thread, "s")
        await asyncio.wait_for(watch.changed(), 1)
        watch.clear()
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(watch.changed(), 0.05)
        assert session.id == "s"
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(idle.changed(), 0.01)
    assert not service._watchers()._watches  # closed watches are forgotten


async def test_a_watch_calls_back_once_per_wait_and_a_cancelled_callback_never(
    service: SqliteSessionService,
) -> None:
    session = await service.create_session(app_name=APP, user_id="u", session_id="s")
    calls: list[str] = []
    with service.watch(app_name=APP, user_id="u", session_id="s") as watch:
        watch.on_change(lambda: calls.append("first"))
        cancel = watch.on_change(lambda: calls.append("cancelled"))
        cancel()
        await service.append_event(session, Event(author="user", invocation_id="i"))
        await asyncio.sleep(0.01)
        assert calls == ["first"]
        watch.on_change(lambda: calls.append("already changed"))  # not cleared: at once
        await asyncio.sleep(0.01)
        watch.clear()
        watch.on_change(lambda: calls.append("after clear"))
        await asyncio.sleep(0.01)
    assert calls == ["first", "already changed"]


async def test_a_watch_is_handed_each_new_event_with_its_place_in_the_session(
    service: SqliteSessionService,
) -> None:
    session = await _new(service, session_id="s")
    other = await _new(service, session_id="other")
    with service.watch(app_name=APP, user_id="u1", session_id="s") as watch:
        first = _event("one", event_id="e1")
        await service.append_event(session, first)
        await service.append_event(other, _event("elsewhere"))  # takes a seq in between
        second = _event("two", event_id="e2")
        await service.append_event(session, second)
        await asyncio.sleep(0)
        handed = watch.take()
        seqs = [seq for seq, _ in await service.list_events(**_where(session))]
        assert [(a.after_seq, a.seq, a.event) for a in handed] == [
            (0, seqs[0], first),
            (seqs[0], seqs[1], second),
        ]
        if not isinstance(service, DatabaseSessionService):  # its seqs count per session
            assert seqs[1] > seqs[0] + 1  # the other session's event sits between them
        # a re-append is not new: the watch wakes, but with no place to hand over
        await service.append_event(session, _event("two, again", event_id="e2"))
        await service.append_event(session, _event("two, again", event_id="e2"))
        await asyncio.wait_for(watch.changed(), 1)
        assert watch.take() == []
        # a replacement among new events: what was handed over may be out of date, so
        # the take is empty (the stream reads the store); the next one hands over again
        await service.append_event(session, _event("three", event_id="e3"))
        await service.append_event(session, _event("three, retried", event_id="e3"))
        await service.append_event(session, _event("four", event_id="e4"))
        await asyncio.sleep(0)
        assert watch.take() == []
        fifth = _event("five", event_id="e5")
        await service.append_event(session, fifth)
        await asyncio.sleep(0)
        assert [a.event for a in watch.take()] == [fifth]


def _where(session: Session) -> dict[str, str]:
    return {"app_name": session.app_name, "user_id": session.user_id, "session_id": session.id}


# --- a retried step: its record replaces the first attempt's in full ---------


async def _step_view(service: SqliteSessionService, session: Session, *ids: str) -> Session:
    viewed = await service.get_step_session(
        app_name=session.app_name, user_id=session.user_id, session_id=session.id, event_ids=ids
    )
    assert viewed is not None
    return viewed


async def test_a_retried_step_sees_the_state_as_of_its_step(
    service: SqliteSessionService,
) -> None:
    """A counter's first attempt recorded count 4 (from 3); its retry sees 3, not 4, and
    without the first attempt's event; the other keys, and the events before, unchanged."""
    session = await _new(service, state={"count": 3, "user:n": 1, "app:v": "a"})
    await service.append_event(session, _event("before", delta={"other": 1}, event_id="e0"))
    first = _event("count", delta={"count": 4, "user:n": 2, "app:v": "b", "new": 1}, event_id="e1")
    await service.append_event(session, first)
    viewed = await _step_view(service, session, "e1")
    assert viewed.state == {"count": 3, "user:n": 1, "app:v": "a", "other": 1}
    assert [e.id for e in viewed.events] == ["e0"]
    assert (await _reload(service, session)).state["count"] == 4  # the view wrote nothing


async def test_the_retry_record_replaces_the_first_attempt_in_full(
    service: SqliteSessionService,
) -> None:
    session = await _new(service, state={"count": 3, "user:n": 1})
    await service.append_event(session, _event("a", delta={"count": 4, "stale": 1}, event_id="e1"))
    await service.append_event(session, _event("later", event_id="e2"))
    retry = await _step_view(service, session, "e1")
    retry_event = _event("b", delta={"count": retry.state["count"] + 1}, event_id="e1")
    await service.append_event(retry, retry_event)
    stored = await _reload(service, session)
    assert stored.state == {"count": 4, "user:n": 1}  # 'stale' undone, count written once
    assert [(e.id, e.content.parts[0].text) for e in stored.events] == [
        ("e1", "b"),
        ("e2", "later"),
    ]
    assert retry.state == stored.state  # the step's own session object agrees


async def test_undo_keeps_what_another_writer_wrote_since(
    service: SqliteSessionService,
) -> None:
    """A parallel branch (or another session of the user) that wrote the key after the
    first attempt keeps its value: undo restores a key only if it still holds the write."""
    session = await _new(service, state={"k": 1, "user:u": 1})
    await service.append_event(session, _event("a", delta={"k": 2, "user:u": 2}, event_id="e1"))
    other = await _new(service, session_id="other")
    await service.append_event(other, _event("o", delta={"user:u": 9}, event_id="o1"))
    await service.append_event(session, _event("b", delta={"k": 7}, event_id="e2"))
    viewed = await _step_view(service, session, "e1")
    assert viewed.state == {"k": 7, "user:u": 9}
    await service.retract_event(viewed, "e1")
    assert (await _reload(service, session)).state == {"k": 7, "user:u": 9}


async def test_a_retried_step_that_records_nothing_retracts_the_first_record(
    service: SqliteSessionService,
) -> None:
    session = await _new(service, state={"count": 3})
    await service.append_event(session, _event("a", delta={"count": 4, "n": 0}, event_id="e1"))
    await service.retract_event(session, "e1")
    stored = await _reload(service, session)
    assert (stored.state, stored.events) == ({"count": 3}, [])
    assert session.state == {"count": 3} and session.events == []
    await service.retract_event(session, "e1")  # nothing left to retract: a no-op
    listed = await service.list_events(app_name=APP, user_id="u1", session_id=session.id)
    assert listed == []


async def test_an_identical_re_append_changes_nothing(service: SqliteSessionService) -> None:
    session = await _new(service, state={"count": 3})
    event = _event("a", delta={"count": 4}, event_id="e1", timestamp=5.0)
    await service.append_event(session, event)
    await service.append_event(await _reload(service, session), event.model_copy(deep=True))
    stored = await _reload(service, session)
    assert stored.state == {"count": 4} and len(stored.events) == 1
    assert (await _step_view(service, session, "e1")).state == {"count": 3}  # prior kept


async def test_events_stored_before_priors_existed_still_load_and_replace(
    db_file: Path,
) -> None:
    """A database from before the `prior` column: it is added when the file opens; an
    old event (no prior) replaced by a retry undoes nothing, as before."""
    conn = sqlite3.connect(db_file)
    conn.executescript(
        """CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, app_name TEXT NOT NULL,
        user_id TEXT NOT NULL, session_id TEXT NOT NULL, id TEXT NOT NULL,
        invocation_id TEXT NOT NULL, author TEXT NOT NULL, branch TEXT,
        timestamp REAL NOT NULL, data TEXT NOT NULL, UNIQUE (app_name, user_id, session_id, id));
        CREATE TABLE sessions (app_name TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL,
        state TEXT NOT NULL, create_time REAL NOT NULL, update_time REAL NOT NULL,
        PRIMARY KEY (app_name, user_id, id));"""
    )
    old = _event("old", delta={"count": 4}, event_id="e1", timestamp=1.0)
    conn.execute(
        "INSERT INTO sessions VALUES ('app', 'u1', 's', '{\"count\": 4}', 1, 1)",
    )
    conn.execute(
        "INSERT INTO events (app_name, user_id, session_id, id, invocation_id, author, branch,"
        " timestamp, data) VALUES ('app', 'u1', 's', 'e1', 'inv-1', 'agent', NULL, 1, ?)",
        (old.model_dump_json(exclude_none=True, by_alias=True),),
    )
    conn.commit()
    conn.close()
    service = SqliteSessionService(db_file)
    try:
        session = await _step_view(service, Session(id="s", app_name=APP, user_id="u1"), "e1")
        assert session.state == {"count": 4} and session.events == []
        await service.append_event(session, _event("new", delta={"count": 5}, event_id="e1"))
        assert (await _reload(service, session)).state == {"count": 5}
    finally:
        service.close()


async def test_concurrent_appends_to_one_session_take_one_seq_each_in_order(
    service: SqliteSessionService,
) -> None:
    """Parallel branches (and workers) append to one session at once: each event gets
    its own seq, a watch hands each over after the one before it, and no state key of
    another writer is lost."""
    others: list[Any] = []
    if isinstance(service, DatabaseSessionService):  # other processes' connections
        url = service.db_engine.url.render_as_string(hide_password=False)
        others = [DatabaseSessionService(url) for _ in range(3)]
    writers = [service, *others]
    try:
        session = await _new(service, session_id="busy")
        copies = [await _reload(w, session) for w in writers]
        with service.watch(app_name=APP, user_id="u1", session_id="busy") as watch:
            await asyncio.gather(
                *(
                    writers[i % len(writers)].append_event(
                        copies[i % len(writers)],
                        _event(f"e{i}", delta={f"k{i}": i, "app:n": i, "user:last": i}),
                    )
                    for i in range(24)
                )
            )
            await asyncio.sleep(0.01)
            handed = watch.take() if not others else []
        rows = await service.list_events(**_where(session))
        seqs = [seq for seq, _ in rows]
        assert len(rows) == 24 and seqs == sorted(set(seqs))
        if handed:  # one writer: every append handed over, each after the one before
            assert [a.seq for a in sorted(handed, key=lambda a: a.seq)] == seqs
            assert all(
                b.after_seq == a.seq
                for a, b in itertools.pairwise(sorted(handed, key=lambda a: a.seq))
            )
        state = await service.get_state(**_where(session))
        assert state is not None
        assert {k: v for k, v in state.items() if k.startswith("k")} == {
            f"k{i}": i for i in range(24)
        }
        # the scopes were written under their locks: the last append's values stand
        last = rows[-1][1].actions.state_delta
        assert (state["app:n"], state["user:last"]) == (last["app:n"], last["user:last"])
    finally:
        for other in others:
            await other.close()


async def test_the_steps_cached_reads_follow_every_write(service: SqliteSessionService) -> None:
    """A step's read (the event cache) equals a full read after appends, a replaced
    record, a retraction and a deleted and recreated session; it refreshes from what
    changed instead of reading the session again."""
    cache = service._event_cache  # type: ignore[attr-defined]

    async def both_agree(session: Session) -> None:
        step = await _step_view(service, session)
        full = await _reload(service, session)
        assert [e.model_dump() for e in step.events] == [e.model_dump() for e in full.events]
        assert step.state == full.state

    session = await _new(service, session_id="cached", state={"n": 0})
    for i in range(5):
        await service.append_event(session, _event(f"e{i}", delta={"n": i}, event_id=f"e{i}"))
        await both_agree(session)
    loads = cache.stats["load"]
    await service.append_event(session, _event("e2 again", delta={"n": 9}, event_id="e2"))
    await both_agree(session)
    await service.retract_event(session, "e3")
    await both_agree(session)
    await service.append_event(session, _event("e5", event_id="e5"))
    await both_agree(session)
    assert cache.stats["refresh"] >= 5
    assert cache.stats["load"] <= loads + 1  # the retraction: read in full once
    await service.delete_session(**_where(session))
    again = await _new(service, session_id="cached")
    await service.append_event(again, _event("new life", event_id="e0"))
    await both_agree(again)
    assert [e.id for e in (await _step_view(service, again)).events] == ["e0"]
