"""Bench app for bench/long_session.py: a long session of tool-calling turns.

Runs on: activity side (loaded by `python -m worker bench/apps/long_session`).

Every turn the model calls `tally` $LONG_SESSION_CALLS times (default 4), one call
per model step, then answers in text: 2 × calls + 2 events per turn (the user's
message included), 10 by default, so 300 turns make a session of 3,000 events.
The tool takes a ToolContext (it reads and writes state), so its activity loads the
session as a model step does. MockModel picks its reply by counting the model turns
in the request: the script is the same few replies over and over.
"""

from __future__ import annotations

import os

from google.genai import types

from adk import Agent
from adk.testing import MockModel
from adk.tools import ToolContext

CALLS_PER_TURN = int(os.environ.get("LONG_SESSION_CALLS", "4"))
MAX_TURNS = int(os.environ.get("LONG_SESSION_MAX_TURNS", "1000"))


def tally(item: str, tool_context: ToolContext) -> dict:
    """Counts an item and returns the running total."""
    total = int(tool_context.state.get("total", 0)) + 1
    tool_context.state["total"] = total
    return {"item": item, "total": total}


def _turn() -> list[object]:
    calls: list[object] = [
        types.Part.from_function_call(name="tally", args={"item": f"item-{k}"})
        for k in range(CALLS_PER_TURN)
    ]
    return [*calls, f"Counted {CALLS_PER_TURN} items."]


root_agent = Agent(
    name="counter",
    model=MockModel.create(
        [item for _ in range(MAX_TURNS) for item in _turn()],
        # 300 turns of ever longer requests would otherwise stay alive in the worker
        # (quadratic memory that is the bench's, not the engine's)
        keep_requests=False,
    ),
    instruction="Count what the user gives you with the tally tool, then say so.",
    tools=[tally],
)

if os.environ.get("LONG_SESSION_TRACEMALLOC"):  # where the worker's memory goes, at its exit
    import atexit
    import tracemalloc

    tracemalloc.start(8)

    def _dump(path: str = os.environ["LONG_SESSION_TRACEMALLOC"]) -> None:
        snapshot = tracemalloc.take_snapshot()
        with open(path, "w") as out:
            for stat in snapshot.statistics("traceback")[:25]:
                out.write(f"{stat.size / 2**20:.2f} MiB in {stat.count} blocks\n")
                out.write("\n".join(stat.traceback.format()[-8:]) + "\n\n")

    atexit.register(_dump)
