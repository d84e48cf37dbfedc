"""Slow weather app: three slow tool calls (two in sequence, then two in parallel).

Used by tests/workflows/test_durability.py, which SIGKILLs the worker serving it
while a tool runs. Each tool run appends `<session id> <city>` to the file named
by $SLOW_WEATHER_LOG (if set), so the test can count how often each tool ran.
Heartbeat timeouts are short (2 s), so an attempt lost with its worker is
retried quickly on another one.
"""

from __future__ import annotations

import asyncio
import os
from datetime import timedelta

from google.genai import types

from adk import ActivityOptions, Agent
from adk.testing import MockModel
from adk.tools import ToolContext

TOOL_SECONDS = 1.5
WEATHER = {"Paris": 18, "London": 14, "Tokyo": 22, "Oslo": 3}


def _log(line: str) -> None:
    path = os.environ.get("SLOW_WEATHER_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()


async def get_weather(city: str, tool_context: ToolContext) -> dict:
    """Returns the weather in a city (slowly)."""
    _log(f"{tool_context.session.id} {city}")
    await asyncio.sleep(TOOL_SECONDS)
    tool_context.state[f"{city.lower()}_c"] = WEATHER[city]
    tool_context.state["user:lookups"] = tool_context.state.get("user:lookups", 0) + 1
    return {"city": city, "temp_c": WEATHER[city]}


def _call(city: str) -> types.Part:
    return types.Part.from_function_call(name="get_weather", args={"city": city})


SCRIPT = [
    _call("Paris"),
    _call("London"),
    [_call("Tokyo"), _call("Oslo")],
    "Paris 18°C, London 14°C, Tokyo 22°C, Oslo 3°C.",
]

_FAST_RETRY = ActivityOptions(
    heartbeat_timeout=timedelta(seconds=2), initial_interval=timedelta(milliseconds=100)
)

root_agent = Agent(
    name="slow_weather",
    model=MockModel.create(SCRIPT),
    instruction="Report the weather in each city the user names.",
    tools=[get_weather],
    output_key="answer",
    model_activity_options=_FAST_RETRY,
    tool_activity_options=_FAST_RETRY,
)
