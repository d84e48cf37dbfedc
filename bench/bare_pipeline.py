"""The bare Temporal floor of the multi-agent benchmark: the pipeline's shape, trivial bodies.

Runs on: workflow (these workflows) and activity side (their activities).

`SequentialAgent[planner (1 tool), ParallelAgent[web, docs], writer]` as a
Temporal user would write it by hand: a parent workflow that starts one child
workflow per agent in turn; the planner's child runs model → tool → model, the
parallel child starts the web and docs children together (each one model
activity), the writer's child one model activity. Six workflows, five "model"
and one "tool" activity, as durable-adk runs the same tree. A module of its own:
the sandbox re-imports a workflow's module for every run (bench/bare_workflow.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from temporalio import activity, workflow


@activity.defn(name="floor.model")
async def floor_model(agent: str) -> str:
    return f"{agent} says hello"


@activity.defn(name="floor.tool")
async def floor_tool(name: str) -> dict[str, str]:
    return {"tool": name, "result": "ok"}


_OPTIONS: dict[str, Any] = dict(start_to_close_timeout=timedelta(minutes=1))


async def _child(workflow_name: str, agent: str) -> str:
    result: str = await workflow.execute_child_workflow(
        workflow_name, agent, id=f"{workflow.info().workflow_id}/{agent}"
    )
    return result


@workflow.defn(name="BenchFloorAgent")
class FloorAgentWorkflow:
    """One LLM agent: the planner calls its tool once, the others answer at once."""

    @workflow.run
    async def run(self, agent: str) -> str:
        if agent == "planner":
            await workflow.execute_activity(floor_model, agent, **_OPTIONS)
            await workflow.execute_activity(floor_tool, "make_plan", **_OPTIONS)
        return await workflow.execute_activity(floor_model, agent, **_OPTIONS)


@workflow.defn(name="BenchFloorParallel")
class FloorParallelWorkflow:
    """The ParallelAgent: both branches as child workflows, at once."""

    @workflow.run
    async def run(self, agent: str) -> str:
        results = await asyncio.gather(
            _child("BenchFloorAgent", "web"), _child("BenchFloorAgent", "docs")
        )
        return " ".join(results)


@workflow.defn(name="BenchFloorPipeline")
class FloorPipelineWorkflow:
    """The SequentialAgent at the root: planner, the parallel research, writer."""

    @workflow.run
    async def run(self, tag: str) -> str:
        await _child("BenchFloorAgent", "planner")
        await _child("BenchFloorParallel", "research")
        return await _child("BenchFloorAgent", "writer")


FLOOR_WORKFLOWS = [FloorPipelineWorkflow, FloorParallelWorkflow, FloorAgentWorkflow]
FLOOR_ACTIVITIES: list[Callable[..., Any]] = [floor_model, floor_tool]
