"""Counter app: a tool that increments `count`, called twice; the worker kills itself
once, exactly between the store's write of the first response and the activity's report.

Used by tests/workflows/test_durability.py (the worker's artifact folder:
$DURABLE_ADK_ARTIFACTS_DIR). The hook (a test's, not the product's): when
$COUNTER_KILL_MARKER names a file that does not exist yet, the first persisted response
of `increment` creates it and SIGKILLs this process. Each tool run appends a line to
$COUNTER_RUNS_LOG, so the test counts real executions.
"""

from __future__ import annotations

import os
import signal
from datetime import timedelta
from pathlib import Path
from typing import Any

from google.genai import types

from adk import ActivityOptions, Agent
from adk.events.event import Event
from adk.sessions.session import Session
from adk.sessions.sqlite_session_service import SqliteSessionService
from adk.testing import MockModel
from adk.tools import ToolContext

_persist = SqliteSessionService._persist


async def _persist_then_die(self: SqliteSessionService, session: Session, event: Event) -> Any:
    place = await _persist(self, session, event)
    marker = os.environ.get("COUNTER_KILL_MARKER")
    if (
        marker
        and not Path(marker).exists()
        and any(r.name == "increment" for r in event.get_function_responses())
    ):
        Path(marker).write_text("killed after the first increment was recorded\n")
        os.kill(os.getpid(), signal.SIGKILL)
    return place


SqliteSessionService._persist = _persist_then_die  # type: ignore[method-assign]


async def increment(tool_context: ToolContext) -> dict:
    """Adds one to the counter."""
    log = os.environ.get("COUNTER_RUNS_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(f"{tool_context.session.id}\n")
    count = tool_context.state.get("count", 0) + 1
    tool_context.state["count"] = count
    # an artifact too: a retry after the record landed must not leave an extra version
    await tool_context.save_artifact("count.txt", types.Part.from_text(text=str(count)))
    return {"count": count}


_FAST_RETRY = ActivityOptions(
    heartbeat_timeout=timedelta(seconds=2), initial_interval=timedelta(milliseconds=100)
)

root_agent = Agent(
    name="counter",
    model=MockModel.create(
        [
            types.Part.from_function_call(name="increment", args={}),
            types.Part.from_function_call(name="increment", args={}),
            "Counted twice.",
        ]
    ),
    instruction="Count when asked.",
    tools=[increment],
    model_activity_options=_FAST_RETRY,
    tool_activity_options=_FAST_RETRY,
)
