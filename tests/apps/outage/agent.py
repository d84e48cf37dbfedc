"""Outage app: a message about money asks for approval, any other runs a slow step.

Runs on: activity side (loaded by `python -m worker tests/apps/outage`).

Used by tests/workflows/test_outage.py, which stops the Temporal server while
the slow step runs. The step appends `<session id>` to $OUTAGE_LOG when it
starts, so the test knows when to stop the server; it takes $OUTAGE_STEP_SECONDS
(default 2).
"""

from __future__ import annotations

import asyncio
import os

from google.genai import types

from adk import Agent
from adk.models import LlmRequest
from adk.testing import MockModel
from adk.tools import FunctionTool, ToolContext


async def slow_step(topic: str, tool_context: ToolContext) -> dict:
    """Works on a topic for a while."""
    if path := os.environ.get("OUTAGE_LOG"):
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{tool_context.session.id}\n")
    await asyncio.sleep(float(os.environ.get("OUTAGE_STEP_SECONDS", "2")))
    tool_context.state["worked_on"] = topic
    return {"topic": topic, "done": True}


def pay(amount: int, tool_context: ToolContext) -> dict:
    """Pays an amount (needs a human's approval)."""
    tool_context.state["paid"] = amount
    return {"paid": amount}


def _first(request: LlmRequest) -> types.Part:
    text = "".join(p.text or "" for c in request.contents for p in c.parts or [])
    if "pay" in text:
        return types.Part.from_function_call(name="pay", args={"amount": 5})
    return types.Part.from_function_call(name="slow_step", args={"topic": text[:40]})


root_agent = Agent(
    name="outage_agent",
    model=MockModel.create([_first, "all done"]),
    tools=[slow_step, FunctionTool(pay, require_confirmation=True)],
)
