"""A retried step's state is as if the step ran once (issue 12, "state applied twice").

Runs on: test process, against the session's local Temporal.

An activity may run twice: its write committed, then the worker died (or the
connection dropped) before Temporal heard of its completion. The retry runs the
user's code again (at least once is Temporal's promise), but it must see the state
as of its step, not its first attempt's writes, and its record must replace the
first attempt's. Here the store commits the chosen record, then raises (the ack is
lost), once, deterministically; test_durability.py SIGKILLs a real worker in the
same window.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from adk import ActivityOptions, Agent
from adk.agents.callback_context import CallbackContext
from adk.events.event import Event
from adk.sessions import InMemorySessionService
from adk.sessions.session import Session
from adk.testing import MockModel
from adk.tools import ToolContext

from .helpers import call, runner_for, simplify, turn

FAST = ActivityOptions(initial_interval=timedelta(milliseconds=100))


class LosesOneAck(InMemorySessionService):
    """Commits the first event `kind` names, then raises, as a lost ack does."""

    def __init__(self, kind: str | None) -> None:
        super().__init__()
        self.kind = kind
        self.lost = False

    async def append_event(self, session: Session, event: Event) -> Event:
        stored = await super().append_event(session, event)
        if not self.lost and self.kind is not None and _is(self.kind, event):
            self.lost = True
            raise ConnectionError("connection lost after commit")
        return stored


def _is(kind: str, event: Event) -> bool:
    if kind == "tool":
        return any(r.name == "increment" for r in event.get_function_responses())
    if kind == "model":
        return bool(event.get_function_calls())
    return event.author == "counter" and event.content is None  # the agent callback's


def _build(runs: list[str]) -> Agent:
    def increment(tool_context: ToolContext) -> dict:
        """Adds one to the counter."""
        runs.append("increment")
        count = tool_context.state.get("count", 0) + 1
        tool_context.state["count"] = count
        tool_context.state["user:increments"] = tool_context.state.get("user:increments", 0) + 1
        return {"count": count}

    def count_model_calls(callback_context: CallbackContext, llm_request: Any) -> None:
        state = callback_context.state
        state["model_calls"] = state.get("model_calls", 0) + 1

    def count_visits(callback_context: CallbackContext) -> None:
        callback_context.state["visits"] = callback_context.state.get("visits", 0) + 1

    return Agent(
        name="counter",
        model=MockModel.create([call("increment"), call("increment"), "Counted twice."]),
        tools=[increment],
        before_model_callback=count_model_calls,
        before_agent_callback=count_visits,
        model_activity_options=FAST,
        tool_activity_options=FAST,
    )


async def _run(temporal_env: Any, kind: str | None) -> tuple[LosesOneAck, list[str], Session]:
    runs: list[str] = []
    store = LosesOneAck(kind)
    async with runner_for(temporal_env, _build(runs), session_service=store) as runner:
        await runner.session_service.create_session(
            app_name="test_app", user_id="u1", session_id="s1", state={"count": 3}
        )
        await turn(runner, "Count!")
        session = await store.get_session(app_name="test_app", user_id="u1", session_id="s1")
    assert session is not None
    return store, runs, session


@pytest.mark.parametrize("kind", ["tool", "model", "agent_callback"])
async def test_a_step_retried_after_its_write_leaves_the_state_of_one_run(temporal_env, kind):
    clean_store, clean_runs, clean = await _run(temporal_env, None)
    store, runs, retried = await _run(temporal_env, kind)
    assert store.lost, "the ack was never lost: the test did not test anything"
    assert clean.state == {
        "count": 5,
        "user:increments": 2,
        "model_calls": 3,
        "visits": 1,
    }
    assert retried.state == clean.state  # before the fix: count 6, model_calls 4 or visits 2
    assert simplify(retried.events) == simplify(clean.events)
    ids = [e.id for e in retried.events]
    assert len(ids) == len(set(ids)), "an event was recorded twice"
    # the user's code ran again (at least once), but its first writes did not count
    assert len(runs) == len(clean_runs) + (kind == "tool")
    clean_store.close()
    store.close()
