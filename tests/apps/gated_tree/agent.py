"""Gated tree: SequentialAgent(ParallelAgent(two researchers), a writer whose tool waits).

Runs on: activity side (loaded by `python -m worker tests/apps/gated_tree`).

Used by tests/workflows/test_remote_stream.py. The writer's `wait_for_gate` tool
writes `$GATE.waiting` when it starts and returns once the file `$GATE` exists, so the test decides when the second half of the
invocation is recorded (the files are the worker's, never the client's).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from google.genai import types

from adk import Agent, ParallelAgent, SequentialAgent
from adk.testing import MockModel


async def wait_for_gate(topic: str) -> dict:
    """Waits until the report on a topic may be written."""
    gate = Path(os.environ["GATE"])
    Path(f"{gate}.waiting").write_text(topic, encoding="utf-8")
    while not gate.exists():
        await asyncio.sleep(0.05)
    return {"topic": topic, "go": True}


def _researcher(topic: str) -> Agent:
    return Agent(
        name=f"{topic}_researcher",
        model=MockModel.create([f"Notes on {topic}: three facts."]),
        output_key=f"{topic}_notes",
    )


writer = Agent(
    name="writer",
    model=MockModel.create(
        [
            types.Part.from_function_call(name="wait_for_gate", args={"topic": "tides"}),
            "The report on tides.",
        ]
    ),
    tools=[wait_for_gate],
)

root_agent = SequentialAgent(
    name="gated_tree",
    sub_agents=[
        ParallelAgent(name="research", sub_agents=[_researcher("market"), _researcher("tech")]),
        writer,
    ],
)
