"""DatabaseMemoryService: the keyword memory many hosts share.

Runs on: test process only (SQLite files, and the suite's PostgreSQL from
tests/_postgres.py). It must find what SqliteMemoryService's word search finds
(which test_memory_parity proves equal to google-adk 2.13's), read and write the
same tables, and be one memory for every service instance on one database.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from google.genai import types

from adk.events import Event
from adk.memory import DatabaseMemoryService, SqliteMemoryService
from adk.sessions import Session
from tests._postgres import fresh_postgres_database

TEXTS = [
    ("user", "My favourite colour is blue and I live in Lyon."),
    ("agent", "Noted: blue, Lyon."),
    ("user", "私はPythonを使う"),
    ("agent", "Python it is. The weather in Lyon is mild."),
    ("user", "İstanbul trip in March; blue hotel 100%_sure"),
    ("agent", "(thinking)"),
]
QUERIES = ["what colour do I like?", "Python", "lyon weather", "İstanbul", "blue hotel in lyon"]
QUERIES += ["nothing matches zzz", "", "%_", "100%_sure", "BLUE"]


def _session(session_id: str, user: str = "u", start: float = 1_700_000_000.0) -> Session:
    """Events at `start` + 0, 1, ... seconds (sessions at different starts: a search's
    order is then fully set by rank and time, ties being the database's choice)."""
    events = []
    for n, (author, text) in enumerate(TEXTS):
        part = types.Part(text=text, thought=True if text == "(thinking)" else None)
        role = "user" if author == "user" else "model"
        events.append(
            Event(
                id=f"{session_id}-{n}",
                author=author,
                invocation_id="i",
                timestamp=start + n,
                content=types.Content(role=role, parts=[part]),
            )
        )
    return Session(id=session_id, app_name="app", user_id=user, events=events)


def _dumped(response: Any) -> list[dict[str, Any]]:
    return [m.model_dump(mode="json") for m in response.memories]


async def test_it_finds_what_the_sqlite_memory_finds_in_the_same_order(tmp_path: Path) -> None:
    ours = DatabaseMemoryService(f"sqlite+aiosqlite:///{tmp_path / 'db.db'}")
    sqlite = SqliteMemoryService(tmp_path / "file.db", fts="off")
    for memory in (ours, sqlite):
        for start, session_id in enumerate(("s1", "s2")):
            await memory.add_session_to_memory(_session(session_id, start=1e9 + 100 * start))
    found_any = False
    for query in QUERIES:
        mine = await ours.search_memory(app_name="app", user_id="u", query=query)
        theirs = await sqlite.search_memory(app_name="app", user_id="u", query=query)
        assert _dumped(mine) == _dumped(theirs), (query, _dumped(mine), _dumped(theirs))
        found_any |= bool(mine.memories)
    assert found_any
    await ours.close()
    await sqlite.close()


async def test_a_file_either_service_wrote_opens_in_the_other(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    sqlite = SqliteMemoryService(path)  # FTS5 triggers and all
    await sqlite.add_session_to_memory(_session("s1"))
    database = DatabaseMemoryService(f"sqlite+aiosqlite:///{path}")
    found = await database.search_memory(app_name="app", user_id="u", query="lyon")
    assert {m.custom_metadata["event_id"] for m in found.memories} == {"s1-0", "s1-1", "s1-3"}
    await database.add_session_to_memory(_session("s2"))
    found = await sqlite.search_memory(app_name="app", user_id="u", query="lyon")
    assert len(found.memories) == 6  # the FTS index saw the other service's rows
    await database.close()
    await sqlite.close()


@pytest.fixture
async def postgres_memory_url(postgres_url: str) -> str:
    return await fresh_postgres_database(postgres_url)


async def test_two_hosts_share_one_memory_on_postgresql(postgres_memory_url: str) -> None:
    host_a = DatabaseMemoryService(postgres_memory_url)
    host_b = DatabaseMemoryService(postgres_memory_url)
    await host_a.prepare_tables()
    await host_b.prepare_tables()  # tables already there: nothing to do, no error
    session = _session("s1")
    await host_a.add_session_to_memory(session)
    await host_b.add_session_to_memory(session)  # again, elsewhere: the same rows
    await host_b.add_session_to_memory(_session("s9", user="someone-else"))
    found = await host_b.search_memory(app_name="app", user_id="u", query="blue lyon")
    by_rank = [m.custom_metadata["event_id"] for m in found.memories]
    assert by_rank[:2] == ["s1-1", "s1-0"]  # both words, newest first; then one word
    assert sorted(by_rank[2:]) == ["s1-3", "s1-4"]
    assert all(m.custom_metadata["session_id"] == "s1" for m in found.memories)
    other_app = await host_a.search_memory(app_name="other", user_id="u", query="blue")
    assert other_app.memories == []
    await host_a.close()
    await host_b.close()


def test_bad_arguments_are_refused_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match="Exactly one of 'db_url' or 'db_engine'"):
        DatabaseMemoryService()
    with pytest.raises(ValueError, match="max_results must be positive"):
        DatabaseMemoryService("sqlite+aiosqlite://", max_results=0)
    with pytest.raises(ValueError, match="Invalid database URL format or argument"):
        DatabaseMemoryService("not a url")
