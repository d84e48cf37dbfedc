"""Variants of the invocation workflow for the replay tests (test_durability.py).

Runs on: workflow (Temporal sandbox), like the real one. Both schedule one
extra activity before the agent runs, the kind of edit a deploy could make:
`UnguardedChange` makes it unconditionally (old histories can no longer
replay); `PatchedChange` guards it with `workflow.patched()` (they can).
"""

from __future__ import annotations

from datetime import timedelta

from temporalio import workflow

from workflows import names
from workflows.contracts import InvocationInput, InvocationResult
from workflows.invocation import AdkInvocationWorkflow

EXTRA_ACTIVITY = "adk.audit"


async def _audit(input: InvocationInput) -> None:
    await workflow.execute_activity(
        EXTRA_ACTIVITY, input.invocation_id, start_to_close_timeout=timedelta(seconds=10)
    )


@workflow.defn(name=names.INVOCATION_WORKFLOW)
class UnguardedChange(AdkInvocationWorkflow):
    @workflow.run
    async def run(self, input: InvocationInput) -> InvocationResult:
        await _audit(input)
        return await super().run(input)


@workflow.defn(name=names.INVOCATION_WORKFLOW)
class PatchedChange(AdkInvocationWorkflow):
    @workflow.run
    async def run(self, input: InvocationInput) -> InvocationResult:
        if workflow.patched("audit-before-invocation"):
            await _audit(input)
        return await super().run(input)
