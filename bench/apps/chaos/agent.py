"""Bench app for `python -m bench.chaos`: four tool calls over three model steps.

Runs on: activity side (loaded by `python -m worker bench/apps/chaos`).

Script: record(step=1); then record(step=2) and record(step=3) in one step (both
touch state, so they run in call order); then total() (slow); then an answer.
Each tool run appends `<session id> <tool> <step>` to $CHAOS_LOG when it
starts, so the bench counts real executions. $CHAOS_TOOL_SECONDS (default 0.5)
is how long each tool takes. With $CHAOS_MODEL=gemini the model is Gemini
(pointed at a fake server by the bench), else a MockModel.
"""

from __future__ import annotations

import asyncio
import os

from google.genai import types

from adk import Agent
from adk.testing import MockModel
from adk.tools import ToolContext

SECONDS = float(os.environ.get("CHAOS_TOOL_SECONDS", "0.5"))


def _log(tool_context: ToolContext, what: str) -> None:
    if path := os.environ.get("CHAOS_LOG"):
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{tool_context.session.id} {what}\n")


async def record(step: int, tool_context: ToolContext) -> dict:
    """Records a step in the session's state."""
    _log(tool_context, f"record {step}")
    await asyncio.sleep(SECONDS)
    steps = list(tool_context.state.get("steps", []))
    steps.append(step)
    tool_context.state["steps"] = steps
    return {"recorded": step}


async def total(tool_context: ToolContext) -> dict:
    """Adds up the recorded steps."""
    _log(tool_context, "total 0")
    await asyncio.sleep(SECONDS * 2)
    result = sum(tool_context.state.get("steps", []))
    tool_context.state["total"] = result
    return {"total": result}


def _call(name: str, **args: int) -> types.Part:
    return types.Part.from_function_call(name=name, args=args)


SCRIPT = [
    _call("record", step=1),
    [_call("record", step=2), _call("record", step=3)],
    _call("total"),
    "All steps recorded.",
]

model = (
    "gemini-2.5-flash" if os.environ.get("CHAOS_MODEL") == "gemini" else MockModel.create(SCRIPT)
)
root_agent = Agent(name="chaos_agent", model=model, tools=[record, total], output_key="answer")
