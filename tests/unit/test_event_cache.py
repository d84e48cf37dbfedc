"""The session store's event cache (adk/sessions/_event_cache.py): never stale, bounded,
and isolated from what callers do to the objects they get.

Runs on: test process only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.genai import types

from activities._model_step import model_step
from activities._tool_call import tool_call
from adk import Agent
from adk.apps.app import App
from adk.events import Event, EventActions
from adk.plugins.base_plugin import BasePlugin
from adk.sessions import InMemorySessionService, Session, SqliteSessionService
from adk.sessions._event_cache import EVENT_OVERHEAD
from adk.testing import MockModel
from adk.tools import ToolContext
from workflows.contracts import ModelStepInput, SessionRef, StepRef, ToolCallInput

APP, USER, SID = "app", "u", "s"
KEY = (APP, USER, SID)
REF = StepRef(
    session=SessionRef(app_name=APP, user_id=USER, session_id=SID),
    invocation_id="inv",
    agent_name="a",
)


def _event(text: str, event_id: str, delta: dict[str, Any] | None = None) -> Event:
    return Event(
        id=event_id,
        invocation_id="inv",
        author="a",
        content=types.Content(role="model", parts=[types.Part(text=text)]),
        actions=EventActions(state_delta=delta or {}),
    )


async def _step_read(service: SqliteSessionService) -> Session:
    session = await service.get_step_session(
        app_name=APP, user_id=USER, session_id=SID, event_ids=[]
    )
    assert session is not None
    return session


async def _texts(service: SqliteSessionService) -> list[str]:
    return [e.content.parts[0].text or "" for e in (await _step_read(service)).events if e.content]


def _stored(db: Path | SqliteSessionService) -> list[str]:
    """The events' JSON as stored, in order."""
    if isinstance(db, SqliteSessionService):
        assert db._conn is not None
        rows = db._conn.execute("SELECT data FROM events ORDER BY seq").fetchall()
    else:
        with sqlite3.connect(db) as conn:
            rows = conn.execute("SELECT data FROM events ORDER BY seq").fetchall()
    return [row[0] for row in rows]


def _dumped(session: Session) -> list[str]:
    return [e.model_dump_json(exclude_none=True, by_alias=True) for e in session.events]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "sessions.db"


@pytest.fixture
def two(db: Path) -> Iterator[tuple[SqliteSessionService, SqliteSessionService]]:
    """Two service instances (two processes, say: a worker and a CLI) on one file."""
    reader, writer = SqliteSessionService(db), SqliteSessionService(db)
    yield reader, writer
    reader.close()
    writer.close()


async def _seeded(service: SqliteSessionService, count: int = 3) -> Session:
    session = await service.create_session(app_name=APP, user_id=USER, session_id=SID)
    for k in range(count):
        await service.append_event(session, _event(f"e{k}", f"id{k}"))
    return session


# --- never stale -----------------------------------------------------------------


async def test_a_second_read_is_served_from_the_cache_and_an_append_elsewhere_is_read(two):
    reader, writer = two
    session = await _seeded(writer)
    assert await _texts(reader) == ["e0", "e1", "e2"]
    assert await _texts(reader) == ["e0", "e1", "e2"]
    assert reader._event_cache.stats == {"load": 1, "hit": 1}
    await writer.append_event(session, _event("e3", "id3"))
    assert await _texts(reader) == ["e0", "e1", "e2", "e3"]
    assert reader._event_cache.stats["refresh"] == 1  # only the new row was decoded


async def test_an_event_replaced_elsewhere_with_the_same_id_is_seen(two):
    reader, writer = two
    session = await _seeded(writer)
    assert await _texts(reader) == ["e0", "e1", "e2"]
    await writer.append_event(session, _event("retried", "id1", {"n": 1}))  # same id, same seq
    assert await _texts(reader) == ["e0", "retried", "e2"]
    assert (await _step_read(reader)).state == {"n": 1}
    assert reader._event_cache.stats["refresh"] == 1


async def test_an_event_retracted_elsewhere_is_seen(two):
    reader, writer = two
    session = await _seeded(writer)
    assert await _texts(reader) == ["e0", "e1", "e2"]
    await writer.retract_event(session, "id1")
    assert await _texts(reader) == ["e0", "e2"]
    await writer.append_event(session, _event("e3", "id3"))  # a deletion and an append
    await writer.retract_event(session, "id0")
    assert await _texts(reader) == ["e2", "e3"]
    assert reader._event_cache.stats["load"] == 3  # a deletion: read in full


async def test_writes_by_any_sqlite_client_are_seen(db: Path):
    """The revisions come from triggers in the file: a writer that knows nothing of
    them (an older version, a script) still bumps them."""
    service = SqliteSessionService(db)
    try:
        await _seeded(service)
        assert await _texts(service) == ["e0", "e1", "e2"]
        changed = _event("by hand", "id2").model_dump_json(exclude_none=True, by_alias=True)
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE events SET data = ? WHERE id = 'id2'", (changed,))
        assert await _texts(service) == ["e0", "e1", "by hand"]
        with sqlite3.connect(db) as conn:
            conn.execute("DELETE FROM events WHERE id = 'id0'")
        assert await _texts(service) == ["e1", "by hand"]
    finally:
        service.close()


async def test_a_deleted_and_recreated_session_is_read_anew(two):
    reader, writer = two
    await _seeded(writer)
    assert await _texts(reader) == ["e0", "e1", "e2"]
    await writer.delete_session(app_name=APP, user_id=USER, session_id=SID)
    assert (
        await reader.get_step_session(app_name=APP, user_id=USER, session_id=SID, event_ids=[])
        is None
    )
    await _seeded(writer, count=1)
    assert await _texts(reader) == ["e0"]
    await writer.delete_session(app_name=APP, user_id=USER, session_id=SID)
    recreated = await writer.create_session(app_name=APP, user_id=USER, session_id=SID)
    await writer.append_event(recreated, _event("new", "other"))
    assert await _texts(reader) == ["new"]


async def test_a_file_from_before_the_revisions_opens_and_is_cached(db: Path):
    with sqlite3.connect(db) as conn:
        conn.executescript(
            """CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT,
            app_name TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL,
            id TEXT NOT NULL, invocation_id TEXT NOT NULL, author TEXT NOT NULL, branch TEXT,
            timestamp REAL NOT NULL, data TEXT NOT NULL,
            UNIQUE (app_name, user_id, session_id, id));
            CREATE TABLE sessions (app_name TEXT NOT NULL, user_id TEXT NOT NULL,
            id TEXT NOT NULL, state TEXT NOT NULL, create_time REAL NOT NULL,
            update_time REAL NOT NULL, PRIMARY KEY (app_name, user_id, id));
            INSERT INTO sessions VALUES ('app', 'u', 's', '{}', 1, 1);"""
        )
        conn.execute(
            "INSERT INTO events (app_name, user_id, session_id, id, invocation_id, author,"
            " timestamp, data) VALUES ('app', 'u', 's', 'old', 'inv', 'a', 1, ?)",
            (_event("old", "old").model_dump_json(exclude_none=True, by_alias=True),),
        )
    service = SqliteSessionService(db)
    try:
        session = await _step_read(service)
        await service.append_event(session, _event("new", "new"))
        assert await _texts(service) == ["old", "new"]
        assert service._event_cache.stats == {"load": 1, "refresh": 1}
    finally:
        service.close()


# --- bounded --------------------------------------------------------------------


async def test_the_cache_keeps_at_most_its_cap_of_bytes_least_recently_used_out(db: Path):
    # each event counts EVENT_OVERHEAD plus its stored length (~300 bytes here): a cap
    # of five such events holds two sessions of two, and never a session of six
    cap = 5 * (EVENT_OVERHEAD + 400)
    service = SqliteSessionService(db, event_cache_bytes=cap)
    try:
        for sid, count in (("s1", 2), ("s2", 2), ("s3", 2), ("big", 6)):
            session = await service.create_session(app_name=APP, user_id=USER, session_id=sid)
            for k in range(count):
                await service.append_event(session, _event(f"e{k}", f"{sid}-{k}"))
        cache = service._event_cache

        async def read(sid: str) -> int:
            got = await service.get_step_session(
                app_name=APP, user_id=USER, session_id=sid, event_ids=[]
            )
            assert got is not None
            return len(got.events)

        def stored(*sids: str) -> int:
            with sqlite3.connect(db) as conn:
                marks = ",".join("?" * len(sids))
                rows = conn.execute(
                    f"SELECT data FROM events WHERE session_id IN ({marks})", sids
                ).fetchall()
            assert len(rows) == 2 * len(sids) and all(len(data) < 400 for (data,) in rows)
            return sum(EVENT_OVERHEAD + len(data) for (data,) in rows)

        assert [await read(s) for s in ("s1", "s2")] == [2, 2]
        assert await read("s1") == 2  # s1 used last: s2 is the least recently used
        assert await read("s3") == 2
        assert (len(cache), cache.size) == (2, stored("s1", "s3"))
        loads = cache.stats["load"]
        assert await read("s1") == 2 and cache.stats["load"] == loads  # kept
        assert await read("s2") == 2 and cache.stats["load"] == loads + 1  # was evicted
        assert await read("big") == 6  # larger than the cap: served, never kept
        assert cache.size <= cap and all(key[2] != "big" for key in cache._entries)
    finally:
        service.close()


# --- isolated -------------------------------------------------------------------


async def test_the_public_get_session_never_hands_out_cached_objects():
    service = InMemorySessionService()
    await _seeded(service)
    await _step_read(service)  # cached
    session = await service.get_session(app_name=APP, user_id=USER, session_id=SID)
    assert session is not None and session.events[0].content is not None
    session.events[0].content.parts[0].text = "mutated"
    session.events.append(_event("extra", "extra"))
    assert await _texts(service) == ["e0", "e1", "e2"]
    assert service._event_cache.stats["hit"] == 1
    service.close()


def _mutate_every_event(events: list[Event]) -> None:
    for event in events:
        if event.content and event.content.parts:
            event.content.parts[0].text = "mutated"
        event.actions.state_delta["leak"] = True
        event.author = "someone else"


def meddle(city: str, tool_context: ToolContext) -> dict:
    """A tool that rewrites the past it can see."""
    _mutate_every_event(tool_context.session.events)
    return {"city": city}


async def test_a_tool_mutating_the_events_it_sees_does_not_reach_the_cache():
    service = InMemorySessionService()
    await _seeded(service)
    await _step_read(service)  # cached
    apps = {"app": App(name="app", root_agent=Agent(name="a", model="m", tools=[meddle]))}
    call = types.FunctionCall(id="c1", name="meddle", args={"city": "Oslo"})
    await tool_call(apps, service, ToolCallInput(ref=REF, function_call=call, record_as="r1"))
    session = await _step_read(service)
    assert _dumped(session) == _stored(service)  # what the next step sees is what is stored
    assert [e.author for e in session.events] == ["a"] * 4
    service.close()


class MeddlingPlugin(BasePlugin):
    async def on_event_callback(self, *, invocation_context: Any, event: Event) -> None:
        _mutate_every_event(invocation_context.session.events[:-1])


async def test_a_plugin_mutating_the_sessions_events_does_not_reach_the_cache():
    service = InMemorySessionService()
    await _seeded(service)
    await _step_read(service)
    model = MockModel.create(["done"] * 9)
    apps = {
        "app": App(
            name="app",
            root_agent=Agent(name="a", model=model),
            plugins=[MeddlingPlugin(name="meddler")],
        )
    }
    await model_step(apps, service, ModelStepInput(ref=REF, step=1, event_id="m1", timestamp=9.0))
    assert _dumped(await _step_read(service)) == _stored(service)
    service.close()


async def test_the_model_step_mutates_nothing_it_reads_and_keeps_the_cache():
    """The engine's own code shares the cached objects: a model step (request building,
    a model that rewrites its request in place, recording) leaves them as stored."""
    service = InMemorySessionService()
    session = await _seeded(service)
    await service.append_event(
        session,
        Event(
            invocation_id="inv",
            author="a",
            content=types.Content(
                role="model",
                parts=[types.Part.from_function_call(name="f", args={"x": [1]})],
            ),
        ),
    )

    def rewrite(request: Any) -> str:
        _mutate_contents(request.contents)
        return "done"

    apps = {
        "app": App(name="app", root_agent=Agent(name="a", model=MockModel.create([rewrite] * 9)))
    }
    await _step_read(service)
    for step in range(2):
        step_input = ModelStepInput(ref=REF, step=step, event_id=f"m{step}", timestamp=9.0 + step)
        await model_step(apps, service, step_input)
    assert _dumped(await _step_read(service)) == _stored(service)
    assert service._event_cache.stats["load"] == 1  # refreshed, never read in full again
    service.close()


def _mutate_contents(contents: list[types.Content]) -> None:
    for content in contents:
        for part in content.parts or []:
            part.text = "mutated"
            if part.function_call is not None:
                part.function_call.name = "other"
                (part.function_call.args or {})["x"].append(2)


def test_the_cache_budget_comes_from_the_environment_in_mib(monkeypatch: pytest.MonkeyPatch):
    from adk.sessions._event_cache import DEFAULT_MAX_BYTES, EventCache

    monkeypatch.delenv("DURABLE_ADK_EVENT_CACHE_MIB", raising=False)
    assert EventCache().max_bytes == DEFAULT_MAX_BYTES == 64 * 2**20
    monkeypatch.setenv("DURABLE_ADK_EVENT_CACHE_MIB", "1.5")
    assert EventCache().max_bytes == 1536 * 1024
    assert EventCache(10).max_bytes == 10  # the constructor's argument wins
    for bad in ("lots", "-1", "nan"):
        monkeypatch.setenv("DURABLE_ADK_EVENT_CACHE_MIB", bad)
        with pytest.raises(ValueError, match="DURABLE_ADK_EVENT_CACHE_MIB must be a number"):
            EventCache()
