"""Bench app for bench/dead_worker.py: one slow tool call, then an answer.

Runs on: activity side (loaded by `python -m worker bench/apps/slow_tool`).

The tool appends `<session id> <pid>` to $SLOW_TOOL_LOG when it starts, so the
bench knows which worker process to kill. Activity options are the defaults,
except when $SLOW_TOOL_HEARTBEAT (seconds) sets the tool's heartbeat timeout.
"""

from __future__ import annotations

import asyncio
import os
from datetime import timedelta

from google.genai import types

from adk import ActivityOptions, Agent
from adk.testing import MockModel
from adk.tools import FunctionTool, ToolContext

TOOL_SECONDS = float(os.environ.get("SLOW_TOOL_SECONDS", "3"))


async def slow_lookup(topic: str, tool_context: ToolContext) -> dict:
    """Looks a topic up (slowly)."""
    path = os.environ.get("SLOW_TOOL_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{tool_context.session.id} {os.getpid()}\n")
    await asyncio.sleep(TOOL_SECONDS)
    return {"topic": topic, "found": True}


tool = FunctionTool(slow_lookup)
if os.environ.get("SLOW_TOOL_HEARTBEAT"):
    tool.activity_options = ActivityOptions(
        heartbeat_timeout=timedelta(seconds=float(os.environ["SLOW_TOOL_HEARTBEAT"]))
    )

root_agent = Agent(
    name="slow_tool",
    model=MockModel.create(
        [types.Part.from_function_call(name="slow_lookup", args={"topic": "x"}), "found it"]
    ),
    tools=[tool],
)
