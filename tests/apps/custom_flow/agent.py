"""Custom-agent app: a BaseAgent subclass that runs two sub-agents, branching on state.

Used by tests/workflows/test_custom_agents.py, which SIGKILLs the worker serving
it while the custom agent is between its two sub-agents (the second one's slow
tool runs). Each tool run appends `<session id> <tool>` to the file named by
$SLOW_WEATHER_LOG (if set), so the test can count how often each ran. Heartbeat
timeouts are short (2 s), so an attempt lost with its worker is retried quickly.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncGenerator
from datetime import timedelta

from google.genai import types

from adk import ActivityOptions, Agent
from adk.agents import BaseAgent, InvocationContext
from adk.events import Event, EventActions
from adk.testing import MockModel
from adk.tools import ToolContext

TOOL_SECONDS = 1.5


def _log(line: str) -> None:
    path = os.environ.get("SLOW_WEATHER_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")


async def classify(request: str, tool_context: ToolContext) -> dict:
    """Classifies a request (slowly) into state."""
    _log(f"{tool_context.session.id} classify")
    await asyncio.sleep(TOOL_SECONDS)
    tool_context.state["kind"] = "poem" if "poem" in request else "essay"
    return {"kind": tool_context.state["kind"]}


async def write(kind: str, tool_context: ToolContext) -> dict:
    """Writes the piece (slowly)."""
    _log(f"{tool_context.session.id} write_{kind}")
    await asyncio.sleep(TOOL_SECONDS)
    return {"text": f"a short {kind}"}


_FAST_RETRY = ActivityOptions(
    heartbeat_timeout=timedelta(seconds=2), initial_interval=timedelta(milliseconds=100)
)


def _agent(name: str, tool: object, args: dict, answer: str) -> Agent:
    return Agent(
        name=name,
        model=MockModel.create(
            [types.Part.from_function_call(name=tool.__name__, args=args), answer]
        ),  # type: ignore[attr-defined]
        instruction=f"You are the {name}.",
        tools=[tool],
        output_key=f"{name}_said",
        model_activity_options=_FAST_RETRY,
        tool_activity_options=_FAST_RETRY,
    )


class WritingDesk(BaseAgent):
    """Classifies the request, then has the poet or the essayist write."""

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        classifier, poet, essayist = self.sub_agents
        async for event in classifier.run_async(ctx):
            yield event
        kind = ctx.session.state["kind"]
        yield Event(
            invocation_id=ctx.invocation_id,
            author=self.name,
            content=types.Content(role="model", parts=[types.Part(text=f"Writing a {kind}.")]),
            actions=EventActions(state_delta={"stage": "writing"}),
        )
        writer = poet if kind == "poem" else essayist
        async for event in writer.run_async(ctx):
            yield event
        yield Event(
            invocation_id=ctx.invocation_id,
            author=self.name,
            actions=EventActions(state_delta={"stage": f"done by {writer.name}"}),
        )


root_agent = WritingDesk(
    name="desk",
    sub_agents=[
        _agent("classifier", classify, {"request": "a poem about rain"}, "Classified."),
        _agent("poet", write, {"kind": "poem"}, "Rain falls."),
        _agent("essayist", write, {"kind": "essay"}, "On rain."),
    ],
)
