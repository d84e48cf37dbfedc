"""Slow parallel app: a ParallelAgent whose two branches each make one slow tool call.

Used by tests/workflows/test_durability.py, which SIGKILLs the worker serving it
while both branches' tools run. Each tool run appends `<session id> <topic>` to
the file named by $SLOW_WEATHER_LOG (the durability tests' run log, if set), so
the test can count how often each branch's tool ran. Heartbeat timeouts are
short (2 s), so an attempt lost with its worker is retried quickly on another one.
"""

from __future__ import annotations

import asyncio
import os
from datetime import timedelta

from google.genai import types

from adk import ActivityOptions, Agent, ParallelAgent
from adk.testing import MockModel
from adk.tools import ToolContext

TOOL_SECONDS = 1.5
TOPICS = ("market", "tech")


def _log(line: str) -> None:
    path = os.environ.get("SLOW_WEATHER_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()


async def research(topic: str, tool_context: ToolContext) -> dict:
    """Researches a topic (slowly) and saves the notes to state."""
    _log(f"{tool_context.session.id} {topic}")
    await asyncio.sleep(TOOL_SECONDS)
    notes = f"three facts about {topic}"
    tool_context.state[f"{topic}_notes"] = notes
    return {"topic": topic, "notes": notes}


_FAST_RETRY = ActivityOptions(
    heartbeat_timeout=timedelta(seconds=2), initial_interval=timedelta(milliseconds=100)
)


def _researcher(topic: str) -> Agent:
    script = [
        types.Part.from_function_call(name="research", args={"topic": topic}),
        f"{topic.capitalize()} research done.",
    ]
    return Agent(
        name=f"{topic}_researcher",
        model=MockModel.create(script),
        instruction=f"Research the {topic} for the topic.",
        tools=[research],
        output_key=f"{topic}_summary",
        model_activity_options=_FAST_RETRY,
        tool_activity_options=_FAST_RETRY,
    )


root_agent = ParallelAgent(name="research", sub_agents=[_researcher(t) for t in TOPICS])
