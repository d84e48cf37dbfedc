"""The engine on DatabaseSessionService: whole invocations on SQLite and PostgreSQL.

Runs on: test process, against the session's local Temporal (and tests/_postgres.py).

The same agents on the SQLite store and on the database store record the same
events and state, streamed as they happen; a retried step after a lost ack leaves
the state of one run; a multi-agent tree (transfer, a parallel agent, sub-agent
workflows) completes; and google-adk 2.13 reads the session the engine wrote.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from adk import Agent, ParallelAgent
from adk.events.event import Event
from adk.sessions import DatabaseSessionService, InMemorySessionService
from adk.sessions.session import Session
from adk.testing import MockModel
from adk.tools import ToolContext
from tests._postgres import fresh_postgres_database

from .helpers import call, runner_for, simplify, turn
from .test_exactly_once_state import _build as build_counter
from .test_exactly_once_state import _is


@pytest.fixture(params=["sqlite", "postgres"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'sessions.db'}"
    else:
        yield await fresh_postgres_database(request.getfixturevalue("postgres_url"))


class LosesOneAck(DatabaseSessionService):
    """Commits the first event `kind` names, then raises, as a lost ack does."""

    def __init__(self, url: str, kind: str) -> None:
        super().__init__(url)
        self.kind = kind
        self.lost = False

    async def append_event(self, session: Session, event: Event) -> Event:
        stored = await super().append_event(session, event)
        if not self.lost and _is(self.kind, event):
            self.lost = True
            raise ConnectionError("connection lost after commit")
        return stored


@pytest.mark.parametrize("kind", ["tool", "model"])
async def test_a_retried_step_leaves_the_state_of_one_run(temporal_env, db_url, kind):
    runs: list[str] = []
    store = LosesOneAck(db_url, kind)
    try:
        async with runner_for(temporal_env, build_counter(runs), session_service=store) as runner:
            await store.create_session(
                app_name="test_app", user_id="u1", session_id="s1", state={"count": 3}
            )
            events = await turn(runner, "Count!")
        session = await store.get_session(app_name="test_app", user_id="u1", session_id="s1")
    finally:
        await store.close()
    assert store.lost, "the ack was never lost: the test did not test anything"
    assert session is not None
    assert session.state == {"count": 5, "user:increments": 2, "model_calls": 3, "visits": 1}
    ids = [e.id for e in session.events]
    assert len(ids) == len(set(ids)) and ids == [e.id for e in events]


def _tree() -> Agent:
    def note(text: str, tool_context: ToolContext) -> dict:
        """Notes a text."""
        tool_context.state[f"note_{tool_context.agent_name}"] = text
        tool_context.state[f"user:by_{tool_context.agent_name}"] = True
        return {"noted": text}

    def worker(name: str) -> Agent:
        return Agent(
            name=name,
            model=MockModel.create([call("note", text=name), f"{name} done"]),
            tools=[note],
        )

    both = ParallelAgent(name="both", sub_agents=[worker("left"), worker("right")])
    return Agent(
        name="root",
        model=MockModel.create([call("transfer_to_agent", agent_name="both")]),
        sub_agents=[both],
    )


async def _tree_run(temporal_env: Any, store: Any) -> tuple[list[Event], Session]:
    async with runner_for(temporal_env, _tree(), session_service=store) as runner:
        events = await turn(runner, "split the work")
    session = await store.get_session(app_name="test_app", user_id="u1", session_id="s1")
    assert session is not None
    return events, session


async def test_a_multi_agent_tree_records_what_it_records_on_the_sqlite_store(temporal_env, db_url):
    reference = InMemorySessionService()
    try:
        expected_events, expected = await _tree_run(temporal_env, reference)
    finally:
        reference.close()
    store = DatabaseSessionService(db_url)
    try:
        events, session = await _tree_run(temporal_env, store)
    finally:
        await store.close()
    assert session.state == expected.state
    assert session.state["note_left"] == "left" and session.state["user:by_right"] is True
    # the parallel branches may interleave differently: per branch, the same record
    by_branch = lambda es: sorted(  # noqa: E731
        (e.branch or "", str(simplify([e]))) for e in es
    )
    print("GOT", *by_branch(events), sep="\n")
    assert by_branch(events) == by_branch(expected_events)
    assert [e.id for e in session.events] == [e.id for e in events]

    from google.adk.sessions import DatabaseSessionService as AdkDatabaseSessionService

    theirs = AdkDatabaseSessionService(db_url)  # and google-adk reads what the engine wrote
    try:
        seen = await theirs.get_session(app_name="test_app", user_id="u1", session_id="s1")
    finally:
        await theirs.close()
    assert seen is not None and seen.state == session.state
    assert sorted(e.id for e in seen.events) == sorted(e.id for e in session.events)
