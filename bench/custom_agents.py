"""What a custom agent's orchestration costs, and what its determinism guard costs.

Run: `python -m bench.custom_agents`. Prints figures; asserts nothing.

1. The same three LlmAgents (offline scripted models) run by a SequentialAgent
   and by a custom agent (`_run_async_impl` running them in turn): end-to-end
   latency, workflows, activities (and local activities) and history events
   summed over the tree, on a local dev server. The custom agent adds one
   activity when it starts (the state) and one per sub-agent (its events,
   read back).
2. The guard (worker/_guard.py) in a process where it is installed, outside an
   orchestration (everywhere else): `time.time()` and `open()` with and without it.
3. The road not taken: importing the app's module inside Temporal's sandbox for
   every workflow run, so that its restrictions apply to the app's code. The
   cost of executing examples/story_flow/agent.py once more (compiled code
   reused, as a .pyc would be): what every invocation and every custom agent's
   child run would pay.

Runs on: process side (client, in-process worker and the dev server).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
import timeit
import types as pytypes
import uuid
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

from bench.pipeline_overhead import Tree, ms, walk

RUNS = 20
WARMUP_RUNS = 2
REPO = Path(__file__).resolve().parents[1]


def _agents() -> list[Any]:
    from adk import Agent
    from adk.testing import MockModel

    return [
        Agent(name=n, model=MockModel.create([f"{n} done."]), output_key=f"{n}_said")
        for n in ("first", "second", "third")
    ]


def _custom() -> Any:
    from adk.agents import BaseAgent
    from adk.events import Event

    class InTurn(BaseAgent):
        async def _run_async_impl(self, ctx: Any) -> AsyncGenerator[Event, None]:
            for agent in self.sub_agents:
                async for event in agent.run_async(ctx):
                    yield event

    return InTurn(name="in_turn", sub_agents=_agents())


async def _measure(env: Any, agents: dict[str, Any]) -> dict[str, tuple[list[float], list[Tree]]]:
    """Each agent's invocations, alternating (the machine's load drifts alike for both)."""
    from google.genai import types

    from adk.runners import Runner
    from adk.sessions import InMemorySessionService
    from workflows.names import invocation_workflow_id

    message = types.Content(role="user", parts=[types.Part(text="go")])
    figures: dict[str, tuple[list[float], list[Tree]]] = {name: ([], []) for name in agents}
    runners = {
        name: Runner(
            agent=agent,
            app_name=f"bench_{index}",
            session_service=InMemorySessionService(),
            temporal_client=env.client,
            auto_create_session=True,
        )
        for index, (name, agent) in enumerate(agents.items())
    }
    for runner in runners.values():
        await runner.__aenter__()
    try:
        for index in range(WARMUP_RUNS + RUNS):
            for name, runner in runners.items():
                session_id = f"bench-{uuid.uuid4().hex[:8]}"
                started = time.perf_counter()
                async for _ in runner.run_async(
                    user_id="bench", session_id=session_id, new_message=message
                ):
                    pass
                if index < WARMUP_RUNS:
                    continue
                figures[name][0].append(time.perf_counter() - started)
                tree = Tree()
                root = invocation_workflow_id(runner.app_name, "bench", session_id)
                await walk(env.client, root, None, tree, True)
                figures[name][1].append(tree)
    finally:
        for runner in runners.values():
            await runner.__aexit__(None, None, None)
    return figures


def _row(name: str, latencies: list[float], trees: list[Tree]) -> str:
    tree = trees[0]
    return (
        f"  {name:<22} {ms(statistics.median(latencies)):>9}  workflows {tree.workflows},"
        f" activities {tree.activities} (+{tree.local_activities} local),"
        f" history events {statistics.median(t.history_events for t in trees):g}"
    )


def _guard_figures() -> None:
    from worker._guard import install

    path = str(REPO / "README.md")
    plain_time = min(timeit.repeat(time.time, number=200_000, repeat=5)) / 200_000

    def read() -> None:
        with open(path, "rb") as f:
            f.read(1)

    plain_open = min(timeit.repeat(read, number=5_000, repeat=5)) / 5_000
    install()
    guarded_time = min(timeit.repeat(time.time, number=200_000, repeat=5)) / 200_000
    guarded_open = min(timeit.repeat(read, number=5_000, repeat=5)) / 5_000
    print("the guard, outside an orchestration (the rest of the worker process):")
    print(f"  time.time():  {plain_time * 1e9:.0f} ns -> {guarded_time * 1e9:.0f} ns")
    print(f"  open()+read:  {plain_open * 1e6:.1f} µs -> {guarded_open * 1e6:.1f} µs")


def _reimport_figure() -> None:
    source = (REPO / "examples" / "story_flow" / "agent.py").read_text()
    code = compile(source, "agent.py", "exec")

    def once() -> None:
        module = pytypes.ModuleType("story_flow_reimported")
        sys.modules[module.__name__] = module
        exec(code, module.__dict__)

    once()
    per_import = min(timeit.repeat(once, number=20, repeat=5)) / 20
    print("importing the app's module again (what a per-run sandbox import would cost):")
    print(f"  examples/story_flow/agent.py: {per_import * 1000:.1f} ms per workflow run")


async def main() -> None:
    from temporalio.testing import WorkflowEnvironment

    from adk import SequentialAgent
    from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
    from workflows.converter import data_converter
    from workflows.names import SEARCH_ATTRIBUTES

    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=temporal_binary(),
        data_converter=data_converter,
        search_attributes=SEARCH_ATTRIBUTES,
        dev_server_extra_args=DEV_SERVER_ARGS,
    )
    try:
        figures = await _measure(
            env,
            {
                "SequentialAgent": SequentialAgent(name="in_turn", sub_agents=_agents()),
                "custom agent": _custom(),
            },
        )
    finally:
        await env.shutdown()
    print(f"three LlmAgents in turn, offline models: {RUNS} invocations each (after {WARMUP_RUNS})")
    for name, (latencies, trees) in figures.items():
        print(_row(name, latencies, trees))
    _guard_figures()
    _reimport_figure()


if __name__ == "__main__":
    asyncio.run(main())
