"""DatabaseSessionService and google-adk 2.13's share one database, both ways.

A database google-adk created and filled opens here unchanged (sessions listed,
continued, their state and events intact), and google-adk reads (and continues) the
sessions we write. On SQLite and on a real PostgreSQL; google-adk is the test-only
reference.

Runs on: test process only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from google.adk.events import Event as AdkEvent
from google.adk.events import EventActions as AdkEventActions
from google.adk.sessions import DatabaseSessionService as AdkDatabaseSessionService
from google.genai import types

from adk.events import Event, EventActions
from adk.sessions import DatabaseSessionService
from adk.sessions._db_schema import SchemaError
from tests._postgres import fresh_postgres_database

APP = "app"


@pytest.fixture(params=["sqlite", "postgres"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}"
    else:
        yield await fresh_postgres_database(request.getfixturevalue("postgres_url"))


def _content(role: str, **part: Any) -> types.Content:
    return types.Content(role=role, parts=[types.Part(**part)])


def _conversation(event_type: type, actions_type: type) -> list[Any]:
    """A user message, a function call with state writes in every scope, its
    response, bytes, and an answer: built with either package's classes."""
    call = types.FunctionCall(id="c1", name="lookup", args={"q": ["x", 1]})
    response = types.FunctionResponse(id="c1", name="lookup", response={"ok": True, "n": None})
    return [
        event_type(author="user", invocation_id="inv-1", content=_content("user", text="hi")),
        event_type(
            author="agent",
            invocation_id="inv-1",
            branch="agent",
            content=_content("model", function_call=call),
            actions=actions_type(state_delta={"k": 1, "app:a": "A", "user:u": [1, 2]}),
        ),
        event_type(
            author="agent",
            invocation_id="inv-1",
            content=_content("user", function_response=response),
            actions=actions_type(state_delta={"k": 2}, artifact_delta={"f.txt": 0}),
        ),
        event_type(
            author="agent",
            invocation_id="inv-1",
            content=_content("model", inline_data=types.Blob(data=b"\x00\xffz", mime_type="a/b")),
            custom_metadata={"m": {"n": 1}},
        ),
    ]


def _dumped(events: list[Any]) -> list[dict[str, Any]]:
    return [e.model_dump(mode="json", exclude_none=True) for e in events]


async def test_a_database_google_adk_filled_opens_here_and_continues(db_url: str) -> None:
    theirs = AdkDatabaseSessionService(db_url)
    try:
        session = await theirs.create_session(
            app_name=APP, user_id="u1", session_id="s1", state={"start": True, "user:v": 0}
        )
        written = _conversation(AdkEvent, AdkEventActions)
        for event in written:
            await theirs.append_event(session, event)
        await theirs.create_session(app_name=APP, user_id="u2", session_id="s2")
    finally:
        await theirs.close()

    ours = DatabaseSessionService(db_url)
    try:
        listed = (await ours.list_sessions(app_name=APP)).sessions
        assert {(s.user_id, s.id) for s in listed} == {("u1", "s1"), ("u2", "s2")}
        loaded = await ours.get_session(app_name=APP, user_id="u1", session_id="s1")
        assert loaded is not None
        expected_state = {"start": True, "k": 2, "app:a": "A", "user:u": [1, 2], "user:v": 0}
        assert loaded.state == expected_state
        assert _dumped(loaded.events) == _dumped(written)
        # streams and steps see them too, numbered in google-adk's order
        rows = await ours.list_events(app_name=APP, user_id="u1", session_id="s1")
        assert [seq for seq, _ in rows] == [1, 2, 3, 4]
        assert _dumped([e for _, e in rows]) == _dumped(written)
        # continued here: an append, a retried step's view of it, a retraction
        mine = Event(
            author="agent", invocation_id="inv-2", actions=EventActions(state_delta={"k": 3})
        )
        await ours.append_event(loaded, mine)
        step = await ours.get_step_session(
            app_name=APP, user_id="u1", session_id="s1", event_ids=[mine.id]
        )
        assert step is not None and step.state["k"] == 2 and len(step.events) == 4
        rows = await ours.list_events(app_name=APP, user_id="u1", session_id="s1", after_seq=4)
        assert [(seq, e.id) for seq, e in rows] == [(5, mine.id)]
    finally:
        await ours.close()

    theirs = AdkDatabaseSessionService(db_url)  # and google-adk still reads it all
    try:
        again = await theirs.get_session(app_name=APP, user_id="u1", session_id="s1")
        assert again is not None
        assert again.state == {**expected_state, "k": 3}
        assert [e.id for e in again.events] == [e.id for e in written] + [mine.id]
    finally:
        await theirs.close()


async def test_google_adk_reads_and_continues_the_sessions_we_write(db_url: str) -> None:
    ours = DatabaseSessionService(db_url)
    try:
        session = await ours.create_session(
            app_name=APP, user_id="u1", session_id="s1", state={"start": True, "app:z": 0}
        )
        written = _conversation(Event, EventActions)
        for event in written:
            await ours.append_event(session, event)
        # a retried step's record replaced in place: google-adk sees the final one
        retried = written[2].model_copy(
            update={"actions": EventActions(state_delta={"k": 5})}, deep=True
        )
        await ours.append_event(session, retried)
    finally:
        await ours.close()

    theirs = AdkDatabaseSessionService(db_url)
    try:
        listed = (await theirs.list_sessions(app_name=APP, user_id="u1")).sessions
        assert [s.id for s in listed] == ["s1"]
        loaded = await theirs.get_session(app_name=APP, user_id="u1", session_id="s1")
        assert loaded is not None
        expected_state = {"start": True, "k": 5, "app:z": 0, "app:a": "A", "user:u": [1, 2]}
        assert loaded.state == expected_state
        assert _dumped(loaded.events) == _dumped([*written[:2], retried, written[3]])
        # google-adk appends to our session, and creates one of its own
        theirs_event = AdkEvent(
            author="user",
            invocation_id="inv-9",
            content=_content("user", text="from google-adk"),
            actions=AdkEventActions(state_delta={"k": 9, "user:w": 1}),
        )
        await theirs.append_event(loaded, theirs_event)
        await theirs.create_session(app_name=APP, user_id="u1", session_id="s2")
    finally:
        await theirs.close()

    ours = DatabaseSessionService(db_url)
    try:
        back = await ours.get_session(app_name=APP, user_id="u1", session_id="s1")
        assert back is not None
        assert back.state == {**expected_state, "k": 9, "user:w": 1}
        assert back.events[-1].content.parts[0].text == "from google-adk"  # type: ignore[union-attr,index]
        assert [e.id for e in back.events][:4] == [e.id for e in written]
        # the step reads (the event cache) see google-adk's append too
        step = await ours.get_step_session(
            app_name=APP, user_id="u1", session_id="s1", event_ids=[]
        )
        assert step is not None and [e.id for e in step.events] == [e.id for e in back.events]
        other = await ours.get_session(app_name=APP, user_id="u1", session_id="s2")
        assert other is not None and other.state == {
            **{k: v for k, v in back.state.items() if ":" in k}
        }
    finally:
        await ours.close()


async def test_a_cached_session_sees_what_google_adk_appended_since(db_url: str) -> None:
    ours = DatabaseSessionService(db_url)
    theirs = AdkDatabaseSessionService(db_url)
    try:
        session = await ours.create_session(app_name=APP, user_id="u1", session_id="s1")
        await ours.append_event(session, Event(author="user", invocation_id="i"))
        first = await ours.get_step_session(
            app_name=APP, user_id="u1", session_id="s1", event_ids=[]
        )
        assert first is not None and len(first.events) == 1
        adk_session = await theirs.get_session(app_name=APP, user_id="u1", session_id="s1")
        assert adk_session is not None
        await theirs.append_event(adk_session, AdkEvent(author="user", invocation_id="j"))
        second = await ours.get_step_session(
            app_name=APP, user_id="u1", session_id="s1", event_ids=[]
        )
        assert second is not None and [e.invocation_id for e in second.events] == ["i", "j"]
    finally:
        await theirs.close()
        await ours.close()


async def test_the_earlier_sqlite_store_and_bad_urls_are_refused_clearly(tmp_path: Path) -> None:
    from adk.sessions import SqliteSessionService

    old = tmp_path / "old.db"
    SqliteSessionService(old).close()
    service = DatabaseSessionService(f"sqlite+aiosqlite:///{old}")
    with pytest.raises(SchemaError, match="earlier SQLite store"):
        await service.get_session(app_name=APP, user_id="u", session_id="s")
    await service.close()
    with sqlite3.connect(old) as conn:  # untouched
        assert "adk_internal_metadata" not in {
            r[0] for r in conn.execute("SELECT name FROM sqlite_master")
        }
    conn.close()
    with pytest.raises(ValueError, match="synchronous driver.*'sqlite\\+aiosqlite://' URL"):
        DatabaseSessionService(f"sqlite:///{tmp_path / 'x.db'}")
    with pytest.raises(ValueError, match="Invalid database URL format"):
        DatabaseSessionService("not a url")
    with pytest.raises(ValueError, match="Exactly one of 'db_url' or 'db_engine'"):
        DatabaseSessionService()


async def test_our_tables_are_google_adks_plus_durable_columns(tmp_path: Path) -> None:
    for cls, name in ((AdkDatabaseSessionService, "adk"), (DatabaseSessionService, "ours")):
        service = cls(f"sqlite+aiosqlite:///{tmp_path / name}.db")
        await service.create_session(app_name=APP, user_id="u")
        await service.close()

    def layout(name: str) -> dict[str, list[tuple[Any, ...]]]:
        with sqlite3.connect(tmp_path / f"{name}.db") as conn:
            tables = [
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            found = {
                table: [
                    tuple(row)
                    for row in conn.execute(f"PRAGMA table_info({table})")
                    if not row[1].startswith("durable_")
                ]
                for table in tables
                if not table.startswith("durable_")
            }
            found["indexes"] = sorted(
                (r[0], r[1])
                for r in conn.execute("SELECT name, sql FROM sqlite_master WHERE type='index'")
                if "durable_" not in r[0]
            )
        conn.close()
        return found

    assert layout("ours") == layout("adk")


async def test_a_call_after_the_server_dropped_its_connections_succeeds(postgres_url: str) -> None:
    """A restarted or failed-over server leaves the pool's connections dead: the next
    call (a write, a read) runs once more on a fresh connection instead of failing."""
    import asyncpg

    url = await fresh_postgres_database(postgres_url)
    service = DatabaseSessionService(url)
    try:
        session = await service.create_session(app_name=APP, user_id="u", session_id="s")

        async def drop_connections() -> None:
            admin = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
            try:
                killed = await admin.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            finally:
                await admin.close()
            assert killed >= 1

        await drop_connections()
        await service.append_event(session, Event(author="user", invocation_id="i"))
        await drop_connections()
        assert await service.get_state(app_name=APP, user_id="u", session_id="s") == {}
        await drop_connections()
        step = await service.get_step_session(
            app_name=APP, user_id="u", session_id="s", event_ids=[]
        )
        assert step is not None and len(step.events) == 1
    finally:
        await service.close()


async def test_an_apps_root_agent_is_shared_through_the_database_and_the_last_one_wins(
    db_url: str,
) -> None:
    worker, starter = DatabaseSessionService(db_url), DatabaseSessionService(db_url)
    try:
        assert await starter.get_app_root_agent(app_name=APP) is None
        await worker.set_app_root_agent(app_name=APP, agent_name="greeter")
        await worker.set_app_root_agent(app_name="other", agent_name="helper")
        assert await starter.get_app_root_agent(app_name=APP) == "greeter"
        await starter.set_app_root_agent(app_name=APP, agent_name="router")  # a new version
        assert await worker.get_app_root_agent(app_name=APP) == "router"
        assert await worker.get_app_root_agent(app_name="other") == "helper"
    finally:
        await worker.close()
        await starter.close()


async def test_the_cli_lists_apps_and_sessions_from_a_database(db_url: str, capsys) -> None:
    import argparse

    from client._cli import cmd_sessions

    service = DatabaseSessionService(db_url)
    try:
        await service.create_session(app_name="b_app", user_id="u", session_id="s2")
        await service.create_session(app_name="a_app", user_id="u", session_id="s1", state={"k": 1})
        assert await service.list_app_names() == ["a_app", "b_app"]
    finally:
        await service.close()
    args = argparse.Namespace(db=db_url, app=None, user=None)
    assert await cmd_sessions(args) == 0
    assert capsys.readouterr().out.splitlines() == [
        "a_app\tu\ts1\tstate keys: k",
        "b_app\tu\ts2\tstate keys: -",
    ]


async def test_the_sqlite_stores_sessions_copy_into_a_database(
    db_url: str, tmp_path: Path, capsys
) -> None:
    """`python -m client copy-sessions FILE URL`: every session, its events in order
    and its state in every scope (the state it was created with included) arrive;
    google-adk reads them; a second run copies nothing twice."""
    import argparse

    from adk.sessions import SqliteSessionService
    from client._cli import cmd_copy_sessions

    old = SqliteSessionService(tmp_path / "old.db")
    try:
        first = await old.create_session(
            app_name=APP, user_id="u1", session_id="s1", state={"created": 1, "user:lang": "fr"}
        )
        for event in _conversation(Event, EventActions):
            await old.append_event(first, event)
        other = await old.create_session(app_name="other", user_id="u2", session_id="s2")
        await old.append_event(other, Event(author="user", invocation_id="i"))
        expected = [
            await old.get_session(app_name=a, user_id=u, session_id=s)
            for a, u, s in ((APP, "u1", "s1"), ("other", "u2", "s2"))
        ]
    finally:
        old.close()
    args = argparse.Namespace(source=str(tmp_path / "old.db"), target=db_url, debug=False)
    assert await cmd_copy_sessions(args) == 0
    assert "copied 2 sessions (5 events)" in capsys.readouterr().out
    assert await cmd_copy_sessions(args) == 0
    assert "copied 0 sessions (0 events)" in capsys.readouterr().out

    ours = DatabaseSessionService(db_url)
    try:
        for want in expected:
            assert want is not None
            got = await ours.get_session(
                app_name=want.app_name, user_id=want.user_id, session_id=want.id
            )
            assert got is not None
            assert got.state == want.state
            assert _dumped(got.events) == _dumped(want.events)
            rows = await ours.list_events(
                app_name=want.app_name, user_id=want.user_id, session_id=want.id
            )
            assert [seq for seq, _ in rows] == list(range(1, len(want.events) + 1))
    finally:
        await ours.close()
    theirs = AdkDatabaseSessionService(db_url)
    try:
        seen = await theirs.get_session(app_name=APP, user_id="u1", session_id="s1")
        assert seen is not None and seen.state == expected[0].state  # type: ignore[union-attr]
    finally:
        await theirs.close()


async def test_get_user_state_reads_what_either_wrote_as_google_adk_does(db_url: str) -> None:
    ours = DatabaseSessionService(db_url)
    try:
        session = await ours.create_session(app_name=APP, user_id="u1", state={"user:a": 1})
        await ours.append_event(
            session,
            Event(
                author="user", invocation_id="i", actions=EventActions(state_delta={"user:b": [2]})
            ),
        )
        assert await ours.get_user_state(app_name=APP, user_id="nobody") == {}
        mine = await ours.get_user_state(app_name=APP, user_id="u1")
    finally:
        await ours.close()
    theirs = AdkDatabaseSessionService(db_url)
    try:
        assert mine == await theirs.get_user_state(app_name=APP, user_id="u1") == {"a": 1, "b": [2]}
    finally:
        await theirs.close()
