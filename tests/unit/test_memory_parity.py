"""Memory parity with google-adk 2.13: the services find the same memories, the tools
declare and add the same.

Runs on: test process only. The same events go into google-adk's service and ours;
each search must return the same entries (ids, contents, authors, times, order).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from google.genai import types

pytest.importorskip("google.adk")

from google.adk.events import Event as RefEvent  # noqa: E402
from google.adk.memory import InMemoryMemoryService as RefInMemory  # noqa: E402
from google.adk.memory import SqliteMemoryService as RefSqlite  # noqa: E402
from google.adk.sessions import Session as RefSession  # noqa: E402
from google.adk.tools import load_memory as ref_load_memory  # noqa: E402

from adk.agents import InvocationContext, LlmAgent  # noqa: E402
from adk.events import Event  # noqa: E402
from adk.memory import InMemoryMemoryService, SqliteMemoryService  # noqa: E402
from adk.models.llm_request import LlmRequest  # noqa: E402
from adk.sessions import Session  # noqa: E402
from adk.tools import load_memory, preload_memory  # noqa: E402
from adk.tools.tool_context import ToolContext  # noqa: E402

TEXTS = [
    ("user", "My favourite colour is blue and I live in Lyon."),
    ("agent", "Noted: blue, Lyon."),
    ("user", "私はPythonを使う"),
    ("agent", "Python it is. The weather in Lyon is mild."),
    ("user", "İstanbul trip in March; blue hotel"),
    ("agent", "(thinking)"),
]
QUERIES = [
    "what colour do I like?",
    "Python",
    "lyon weather",
    "İstanbul",
    "blue hotel in lyon",
    "nothing matches zzz",
    "",
    "%_",
]


def _events(cls: Any, session: str) -> list[Any]:
    events = []
    for n, (author, text) in enumerate(TEXTS):
        role = "user" if author == "user" else "model"
        part = types.Part(text=text, thought=True if text == "(thinking)" else None)
        events.append(
            cls(
                id=f"{session}-{n}",
                author=author,
                invocation_id="i",
                timestamp=1_700_000_000.0 + n,
                content=types.Content(role=role, parts=[part]),
            )
        )
    return events


def _session(cls: Any, event_cls: Any, session_id: str) -> Any:
    return cls(id=session_id, app_name="app", user_id="u", events=_events(event_cls, session_id))


def _dumped(response: Any) -> list[dict[str, Any]]:
    return [m.model_dump(mode="json") for m in response.memories]


@pytest.mark.parametrize("kind", ["in_memory", "sqlite", "sqlite_like"])
async def test_searches_find_what_google_adk_finds(kind: str, tmp_path: Path) -> None:
    if kind == "in_memory":
        ours: Any = InMemoryMemoryService()
        theirs: Any = RefInMemory()
    else:
        fts = "off" if kind == "sqlite_like" else "auto"
        ours = SqliteMemoryService(tmp_path / "ours.db", fts=fts)
        theirs = RefSqlite(tmp_path / "theirs.db", fts=fts)
    for session_id in ("s1", "s2"):
        await ours.add_session_to_memory(_session(Session, Event, session_id))
        await theirs.add_session_to_memory(_session(RefSession, RefEvent, session_id))
    found_any = False
    for query in QUERIES:
        mine = await ours.search_memory(app_name="app", user_id="u", query=query)
        reference = await theirs.search_memory(app_name="app", user_id="u", query=query)
        assert _dumped(mine) == _dumped(reference), query
        found_any |= bool(mine.memories)
        other_user = await ours.search_memory(app_name="app", user_id="v", query=query)
        assert other_user.memories == []
    assert found_any
    if kind != "in_memory":
        await ours.close()
        await theirs.close()


async def test_sqlite_memory_is_shared_through_the_file_and_idempotent(tmp_path: Path) -> None:
    writer, reader = SqliteMemoryService(tmp_path / "m.db"), SqliteMemoryService(tmp_path / "m.db")
    session = _session(Session, Event, "s1")
    await writer.add_session_to_memory(session)
    await writer.add_session_to_memory(session)  # again: the same rows
    found = await reader.search_memory(app_name="app", user_id="u", query="blue")
    assert sorted(m.custom_metadata["event_id"] for m in found.memories) == ["s1-0", "s1-1", "s1-4"]
    await writer.close()
    await reader.close()


async def test_in_memory_delete_forgets_and_does_not_come_back() -> None:
    memory = InMemoryMemoryService()
    session = _session(Session, Event, "s1")
    await memory.add_session_to_memory(session)
    await memory.delete_memory(app_name="app", user_id="u", memory_id="s1-1")
    await memory.add_session_to_memory(session)
    found = await memory.search_memory(app_name="app", user_id="u", query="noted blue lyon")
    assert "s1-1" not in [m.id for m in found.memories]


def test_load_memory_declaration_is_google_adks() -> None:
    assert load_memory._get_declaration() == ref_load_memory._get_declaration()


def _tool_context(memory: Any, text: str) -> ToolContext:
    agent = LlmAgent(name="helper")
    ctx = InvocationContext(
        invocation_id="i",
        agent=agent,
        session=Session(id="s9", app_name="app", user_id="u"),
        memory_service=memory,
        user_content=types.Content(role="user", parts=[types.Part(text=text)]),
    )
    return ToolContext(ctx)


async def test_load_memory_instructs_and_searches() -> None:
    memory = InMemoryMemoryService()
    await memory.add_session_to_memory(_session(Session, Event, "s1"))
    context = _tool_context(memory, "where do I live?")
    request = LlmRequest()
    await load_memory.process_llm_request(tool_context=context, llm_request=request)
    assert "call load_memory function with a query" in str(request.config.system_instruction)
    found = await load_memory.run_async(args={"query": "lyon"}, tool_context=context)
    assert [m.id for m in found.memories] == ["s1-0", "s1-1", "s1-3"]


async def test_preload_memory_puts_past_conversations_before_the_user_message() -> None:
    memory = InMemoryMemoryService()
    await memory.add_session_to_memory(_session(Session, Event, "s1"))
    request = LlmRequest(contents=[types.Content(role="user", parts=[types.Part(text="python?")])])
    await preload_memory.process_llm_request(
        tool_context=_tool_context(memory, "python?"), llm_request=request
    )
    assert len(request.contents) == 2
    text = request.contents[0].parts[0].text  # type: ignore[index]
    assert text is not None and "<PAST_CONVERSATIONS>" in text and "user: 私はPythonを使う" in text


async def test_without_a_memory_service_the_context_says_so() -> None:
    context = _tool_context(None, "hi")
    with pytest.raises(ValueError, match="^Memory service is not available.$"):
        await context.search_memory("x")
    with pytest.raises(ValueError, match="Cannot add session to memory"):
        await context.add_session_to_memory()
