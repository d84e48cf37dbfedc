"""The tool-call activity body, called directly: what it reads and what it records.

Runs on: test process only (no Temporal: the activity function is plain async code).
"""

from __future__ import annotations

import collections
from typing import Any

import pytest
from google.genai import types

from activities._tool_call import sees_session, tool_call
from adk import Agent
from adk.apps.app import App
from adk.events import Event
from adk.plugins.plugin_manager import PluginManager
from adk.sessions import InMemorySessionService
from adk.tools import FunctionTool, ToolContext
from adk.tools.base_toolset import BaseToolset
from workflows.contracts import SessionRef, StepRef, ToolCallInput

NONE = PluginManager()

REF = StepRef(
    session=SessionRef(app_name="app", user_id="u", session_id="s"),
    invocation_id="inv",
    agent_name="a",
)


class CountingStore(InMemorySessionService):
    def __init__(self) -> None:
        super().__init__()
        self.reads: collections.Counter[str] = collections.Counter()

    async def get_state(self, **kwargs: Any) -> Any:
        self.reads["get_state"] += 1
        return await super().get_state(**kwargs)

    async def list_events(self, **kwargs: Any) -> Any:
        self.reads["list_events"] += 1
        return await super().list_events(**kwargs)

    async def get_session(self, **kwargs: Any) -> Any:
        self.reads["get_session"] += 1
        return await super().get_session(**kwargs)

    async def get_step_session(self, **kwargs: Any) -> Any:
        self.reads["get_step_session"] += 1
        return await super().get_step_session(**kwargs)


def plain(city: str) -> dict:
    """No context: sees only its arguments."""
    return {"city": city}


def with_context(city: str, tool_context: ToolContext) -> dict:
    """Reads and writes state."""
    tool_context.state["last"] = city
    return {"city": city, "before": tool_context.state.get("user:seen", 0)}


class NoTools(BaseToolset):
    async def get_tools(self, readonly_context: Any = None) -> list:
        return []


@pytest.fixture
async def store() -> Any:
    service = CountingStore()
    session = await service.create_session(
        app_name="app", user_id="u", session_id="s", state={"user:seen": 3}
    )
    await service.append_event(
        session,
        Event(
            invocation_id="inv",
            author="user",
            content=types.Content(role="user", parts=[types.Part(text="hi")]),
        ),
    )
    service.reads.clear()
    yield service
    service.close()


def call_input(name: str, record_as: str | None = "response-1") -> ToolCallInput:
    return ToolCallInput(
        ref=REF,
        function_call=types.FunctionCall(id="c1", name=name, args={"city": "Oslo"}),
        record_as=record_as,
    )


async def test_a_plain_function_runs_without_reading_the_store_and_records_its_event(store):
    apps = {"app": App(name="app", root_agent=Agent(name="a", model="m", tools=[plain]))}
    output = await tool_call(apps, store, call_input("plain"))
    assert output.response == {"city": "Oslo"}
    assert not store.reads
    events = [e for _, e in await store.list_events(app_name="app", user_id="u", session_id="s")]
    recorded = events[-1]
    assert recorded.id == "response-1" and recorded.timestamp == output.recorded_at
    assert recorded.author == "a" and recorded.invocation_id == "inv"
    assert [r.response for r in recorded.get_function_responses()] == [{"city": "Oslo"}]


async def test_a_tool_with_a_context_reads_state_and_the_turn(store):
    apps = {"app": App(name="app", root_agent=Agent(name="a", model="m", tools=[with_context]))}
    output = await tool_call(apps, store, call_input("with_context"))
    assert output.response == {"city": "Oslo", "before": 3}
    assert output.actions.state_delta == {"last": "Oslo"}
    assert store.reads == {"get_step_session": 1}  # the whole session, as ADK's tools see it
    session = await store.get_session(app_name="app", user_id="u", session_id="s")
    assert session is not None and session.state["last"] == "Oslo"


async def test_without_record_as_nothing_is_recorded(store):
    apps = {"app": App(name="app", root_agent=Agent(name="a", model="m", tools=[plain]))}
    output = await tool_call(apps, store, call_input("plain", record_as=None))
    assert output.recorded_at is None
    events = await store.list_events(app_name="app", user_id="u", session_id="s")
    assert len(events) == 1  # the user's message only


def _callback(**kwargs: Any) -> None:
    return None


@pytest.mark.parametrize(
    ("agent_kwargs", "tool", "expected"),
    [
        ({}, plain, False),
        ({}, with_context, True),
        ({}, FunctionTool(plain, require_confirmation=True), True),
        ({"before_tool_callback": _callback}, plain, True),
        ({"after_tool_callback": _callback}, plain, True),
        ({"on_tool_error_callback": _callback}, plain, True),
    ],
    ids=["plain", "context", "confirmation", "before", "after", "on_error"],
)
async def test_sees_session(agent_kwargs, tool, expected):
    agent = Agent(name="a", model="m", tools=[tool], **agent_kwargs)
    assert await sees_session(
        agent, PluginManager(), "plain" if tool is not with_context else "with_context"
    ) is (expected)


async def test_a_toolset_or_a_transfer_sees_the_session_and_an_unknown_name_does_not():
    assert await sees_session(Agent(name="a", model="m", tools=[plain, NoTools()]), NONE, "plain")
    assert await sees_session(Agent(name="a", model="m", tools=[plain]), NONE, "transfer_to_agent")
    assert not await sees_session(Agent(name="a", model="m", tools=[plain]), NONE, "nope")


def _save_report(content: str):
    async def report(city: str, tool_context: ToolContext) -> dict:
        """Saves the report."""
        part = types.Part.from_text(text=f"{content} {city}")
        return {"version": await tool_context.save_artifact("report.txt", part)}

    return report


async def _retry(apps: Any, store: Any, artifacts: Any, name: str, record_as: str | None) -> Any:
    """The call again, as Temporal's second attempt."""
    import dataclasses

    from temporalio.testing import ActivityEnvironment

    env = ActivityEnvironment()
    env.info = dataclasses.replace(env.info, attempt=2)
    return await env.run(tool_call, apps, store, call_input(name, record_as), artifacts)


@pytest.mark.parametrize(
    ("second_content", "record_as", "versions", "named"),
    [
        ("same", "response-1", [0], 0),  # its record landed: the same event, no new version
        ("other", "response-1", [0, 1], 1),  # another content: a new version
        ("same", None, [0, 1], 1),  # no record to go by (e.g. a parallel call): saved again
    ],
)
async def test_a_retried_call_reuses_the_version_its_earlier_record_names(
    store, second_content, record_as, versions, named
):
    from adk.artifacts import InMemoryArtifactService

    artifacts = InMemoryArtifactService()
    scope = {"app_name": "app", "user_id": "u", "session_id": "s", "filename": "report.txt"}
    first = {"app": App(name="app", root_agent=Agent(name="a", tools=[_save_report("same")]))}
    output = await tool_call(first, store, call_input("report", record_as), artifacts)
    assert output.actions.artifact_delta == {"report.txt": 0}
    second = {
        "app": App(name="app", root_agent=Agent(name="a", tools=[_save_report(second_content)]))
    }
    again = await _retry(second, store, artifacts, "report", record_as)
    assert again.actions.artifact_delta == {"report.txt": named}
    assert again.response == {"version": named}
    assert await artifacts.list_versions(**scope) == versions
    latest = await artifacts.load_artifact(**scope)
    assert latest is not None and latest.text == f"{second_content} Oslo"
