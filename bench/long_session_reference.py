"""The long-session benchmark's turns on google-adk 2.13's own Runner, for comparison.

Run: `python -m bench.long_session_reference [--turns N] [--calls C] [--store memory|sqlite]`
(google-adk 2.13 must be importable: `make .venv/bin/.reference` installs it as a
test-only extra). Prints figures; asserts nothing. See bench/README.md.

Runs on: process side, everything in this process: google-adk's Runner with its
InMemorySessionService (or its DatabaseSessionService on a SQLite file), a scripted
model with the same replies as bench/apps/long_session (C calls of a state-writing
tool, one per step, then text), 300 turns in one session. Prints the same figures
as `bench.long_session` (p50 of the first and last 50 turns, CPU per turn, RSS at
turns 1, middle and last), so the memory a long session costs on durable-adk's
worker can be read against what google-adk's own process holds for it.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import resource
import statistics
import tempfile
import time
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

from google.genai import types

from bench.long_session import WINDOW, rss_mib


def tally(item: str, tool_context: Any) -> dict[str, Any]:
    """Counts an item and returns the running total."""
    total = int(tool_context.state.get("total", 0)) + 1
    tool_context.state["total"] = total
    return {"item": item, "total": total}


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def run(turns: int, calls: int, store: str) -> None:
    from google.adk import Agent, Runner
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.sessions import DatabaseSessionService, InMemorySessionService

    class Scripted(BaseLlm):
        """C function calls, then a text answer, over and over (as the bench app's)."""

        step: int = 0

        async def generate_content_async(
            self, llm_request: Any, stream: bool = False
        ) -> AsyncGenerator[LlmResponse, None]:
            k = self.step % (calls + 1)
            self.step += 1
            if k < calls:
                part = types.Part.from_function_call(name="tally", args={"item": f"item-{k}"})
            else:
                part = types.Part(text=f"Counted {calls} items.")
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    agent = Agent(
        name="counter",
        model=Scripted(model="scripted"),
        instruction="Count what the user gives you with the tally tool, then say so.",
        tools=[tally],
    )
    with tempfile.TemporaryDirectory(prefix="durable-adk-long-session-ref-") as name:
        sessions: Any = (
            InMemorySessionService()
            if store == "memory"
            else DatabaseSessionService(f"sqlite+aiosqlite:///{Path(name) / 'sessions.db'}")
        )
        runner = Runner(app_name="long_session", agent=agent, session_service=sessions)
        session = await sessions.create_session(app_name="long_session", user_id="u")
        latency: list[float] = []
        cpu: list[float] = []
        rss: dict[int, float] = {}
        marks = {1, (turns + 1) // 2, turns}
        for n in range(1, turns + 1):
            before, started = cpu_seconds(), time.perf_counter()
            message = types.Content(role="user", parts=[types.Part(text=f"turn {n}")])
            events = [
                event
                async for event in runner.run_async(
                    user_id="u", session_id=session.id, new_message=message
                )
            ]
            latency.append(time.perf_counter() - started)
            cpu.append(cpu_seconds() - before)
            if len(events) != 2 * calls + 1:
                raise RuntimeError(f"turn {n} gave {len(events)} events")
            if n in marks:
                rss[n] = rss_mib("self")
            if n % 25 == 0:
                print(f"  turn {n:4}: {latency[-1] * 1000:6.0f} ms", flush=True)
        if store != "memory":
            await sessions.db_engine.dispose()
    window = min(WINDOW, turns // 2)
    p50_first, p50_last = statistics.median(latency[:window]), statistics.median(latency[-window:])
    cpu_first, cpu_last = statistics.median(cpu[:window]), statistics.median(cpu[-window:])
    print()
    print(f"google-adk 2.13, {store} session store: {turns} turns, {calls} tool calls each")
    print(f"p50 latency, turns 1-{window}: {p50_first * 1000:7.0f} ms")
    print(f"p50 latency, last {window} turns: {p50_last * 1000:7.0f} ms")
    print(f"ratio last/first: {p50_last / p50_first:.2f}x")
    print(f"CPU per turn: {cpu_first * 1000:.0f} ms (first), {cpu_last * 1000:.0f} ms (last)")
    print("RSS: " + ", ".join(f"turn {n}: {rss[n]:.1f} MiB" for n in sorted(rss)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--calls", type=int, default=4, help="tool calls per turn")
    parser.add_argument("--store", choices=("memory", "sqlite"), default="memory")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # google-adk warns of missing token usage every step
    asyncio.run(run(args.turns, args.calls, args.store))


if __name__ == "__main__":
    main()
