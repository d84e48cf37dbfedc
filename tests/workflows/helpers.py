"""Helpers for workflow tests: run an agent on the session's Temporal, summarise events."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from google.genai import types
from temporalio.testing import WorkflowEnvironment

from adk.agents.base_agent import BaseAgent
from adk.apps.app import App, ResumabilityConfig
from adk.events.event import Event
from adk.runners import Runner
from adk.sessions import InMemorySessionService


@contextlib.asynccontextmanager
async def runner_for(
    env: WorkflowEnvironment, agent: BaseAgent, *, replay_every_task: bool = True, **kwargs: Any
) -> AsyncIterator[Runner]:
    """A Runner on the shared dev server, replaying history as often as is stable.

    One workflow (no sub-agents): no cache at all, so every workflow task
    replays. A tree (child workflows): a cache of one, so the workflows evict
    each other and replay whenever they take turns. With no cache at all, a
    run evicted while one of its local activities is outstanding waits out the
    10 s workflow-task timeout (measured: ~10 s stalls, flaky under load), which
    production workers, whose cache keeps such runs, never see.
    """
    options: dict[str, Any] = {}
    if replay_every_task:
        options["max_cached_workflows"] = 1 if _spawns_children(agent) else 0
    options.update(kwargs.pop("worker_options", {}))
    plugins = kwargs.pop("plugins", None)
    compaction = kwargs.pop("events_compaction_config", None)
    resumable = kwargs.pop("resumable", False)
    if plugins is not None or compaction is not None or resumable:  # as ADK asks: in the App
        kwargs["app"] = App(
            name="test_app",
            root_agent=agent,
            plugins=plugins or [],
            events_compaction_config=compaction,
            resumability_config=ResumabilityConfig(is_resumable=True) if resumable else None,
        )
    else:
        kwargs["agent"] = agent
    runner = Runner(
        app_name="test_app",
        session_service=kwargs.pop("session_service", None) or InMemorySessionService(),
        temporal_client=env.client,
        auto_create_session=True,
        worker_options=options,
        **kwargs,
    )
    async with runner:
        yield runner


def _spawns_children(agent: BaseAgent) -> bool:
    from adk.tools import AgentTool

    tools = getattr(agent, "tools", [])
    return bool(getattr(agent, "sub_agents", [])) or any(isinstance(t, AgentTool) for t in tools)


def user_text(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text)])


async def turn(
    runner: Runner, text: str, *, session: str = "s1", user: str = "u1", **kw: Any
) -> list[Event]:
    """One turn: checks run_async's contract and returns the turn's recorded events.

    run_async yields what the agents did (never the user's own message, as in
    ADK); the returned list is everything the invocation recorded, in order,
    with the user's message first, so tests read the whole sequence.
    """
    yielded = [
        e
        async for e in runner.run_async(
            user_id=user, session_id=session, new_message=user_text(text), **kw
        )
    ]
    assert all(e.author != "user" for e in yielded), "run_async yielded a user event"
    recorded = [
        e
        for _, e in await runner.session_service.list_events(
            app_name=runner.app_name, user_id=user, session_id=session
        )
    ]
    invocation = next(
        e.invocation_id
        for e in reversed(recorded)
        if e.author == "user" and e.content and e.content.parts and e.content.parts[0].text == text
    )
    turn_events = [e for e in recorded if e.invocation_id == invocation]
    assert [e.id for e in yielded] == [e.id for e in turn_events if e.author != "user"]
    # whether read from the store or handed over by an append in this process
    assert yielded == [e for e in turn_events if e.author != "user"]
    return turn_events


def simplify(events: list[Event]) -> list[tuple[str, Any]]:
    """(author, what) pairs: text, ('call', name, args) or ('response', name, response)."""
    out: list[tuple[str, Any]] = []
    for event in events:
        for part in (event.content.parts if event.content else None) or []:
            if part.text is not None:
                out.append((event.author, part.text))
            elif part.function_call:
                out.append(
                    (event.author, ("call", part.function_call.name, part.function_call.args))
                )
            elif part.function_response:
                fr = part.function_response
                out.append((event.author, ("response", fr.name, fr.response)))
    return out


def call(tool_name: str, /, **args: Any) -> types.Part:
    return types.Part.from_function_call(name=tool_name, args=args)


def confirmation_answer(request_id: str, confirmed: bool) -> types.Content:
    """ADK's resume message answering a confirmation request."""
    response = types.FunctionResponse(
        id=request_id, name="adk_request_confirmation", response={"confirmed": confirmed}
    )
    return types.Content(role="user", parts=[types.Part(function_response=response)])


T = TypeVar("T")


async def eventually(check: Callable[[], Awaitable[T]], timeout: float = 20.0) -> T:
    """Poll `check` until it returns something truthy (a bound, not a speed assertion:
    what a test waits for happens on another process's schedule)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        result = await check()
        if result:
            return result
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"condition not met within {timeout}s (last: {result!r})")
        await asyncio.sleep(0.05)
