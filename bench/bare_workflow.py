"""The bare Temporal baseline of the overhead benchmark: our activity shape, trivial bodies.

Runs on: workflow (these two workflows) and activity side (their activities).

A small module of its own, as a Temporal user would write it: the sandbox
re-imports a workflow's module for every run, so a bare workflow defined in the
(big) benchmark module would pay for re-executing it and flatter our ratios.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from temporalio import activity, workflow
from temporalio.worker import UnsandboxedWorkflowRunner, WorkflowRunner
from temporalio.worker.workflow_sandbox import SandboxedWorkflowRunner


@activity.defn(name="bare.model")
async def bare_model(step: int) -> str:
    return f"step {step}"


@activity.defn(name="bare.tool")
async def bare_tool(name: str) -> dict[str, str]:
    return {"tool": name, "result": "ok"}


@activity.defn(name="bare.bookkeeping")
async def bare_bookkeeping(what: str) -> str:
    return what


_OPTIONS: dict[str, Any] = dict(start_to_close_timeout=timedelta(minutes=1))


async def _react(with_bookkeeping: bool) -> str:
    if with_bookkeeping:
        await workflow.execute_activity(bare_bookkeeping, "begin", **_OPTIONS)
    await workflow.execute_activity(bare_model, 1, **_OPTIONS)
    await asyncio.gather(
        workflow.execute_activity(bare_tool, "a", **_OPTIONS),
        workflow.execute_activity(bare_tool, "b", **_OPTIONS),
    )
    await workflow.execute_activity(bare_model, 2, **_OPTIONS)
    await workflow.execute_activity(bare_tool, "c", **_OPTIONS)
    return await workflow.execute_activity(bare_model, 3, **_OPTIONS)


@workflow.defn(name="BenchBareReact")
class BareReactWorkflow:
    """3 model + 3 tool activities: model → 2 tools in parallel → model → tool → model."""

    @workflow.run
    async def run(self, tag: str) -> str:
        return await _react(with_bookkeeping=False)


@workflow.defn(name="BenchBareReactBookkeeping")
class BareReactBookkeepingWorkflow:
    """The same plus one bookkeeping ("begin") activity first: 7 activities."""

    @workflow.run
    async def run(self, tag: str) -> str:
        return await _react(with_bookkeeping=True)


BARE_WORKFLOWS = [BareReactWorkflow, BareReactBookkeepingWorkflow]
BARE_ACTIVITIES: list[Callable[..., Any]] = [bare_model, bare_tool, bare_bookkeeping]


def bare_runner(sandboxed: bool) -> WorkflowRunner:
    """Temporal's default (the sandbox, this module re-imported per run), or no sandbox."""
    if sandboxed:
        return SandboxedWorkflowRunner()
    return UnsandboxedWorkflowRunner()
