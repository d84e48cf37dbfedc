"""The invocation workflow: one ADK invocation, from the user's message to the last event.

Runs on: workflow (Temporal sandbox). The begin activity records the user
event and the agent spec; the entry agent runs inline (AgentRuntime), its
sub-agents and transfer targets in child workflows; everything the workflow
still holds is persisted before it returns. Ids and timestamps come from
workflow.uuid4()/workflow.now(), so replay is exact and writes idempotent.
"""

from __future__ import annotations

import asyncio

from temporalio import workflow
from temporalio.exceptions import CancelledError

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from . import names
    from ._options import BOOKKEEPING
    from ._runtime import TEMP_PREFIX, AgentRuntime
    from ._ui import short
    from .contracts import (
        AgentSpec,
        BeginInput,
        BeginOutput,
        InvocationInput,
        InvocationResult,
        RunContext,
    )


@workflow.defn(name=names.INVOCATION_WORKFLOW)
class AdkInvocationWorkflow:
    """Runs one invocation: begin → the entry agent (and its sub-agents) → finish."""

    @workflow.init
    def __init__(self, input: InvocationInput) -> None:
        self._input = input
        self._runtime: AgentRuntime | None = None

    @workflow.run
    async def run(self, input: InvocationInput) -> InvocationResult:
        runtime: AgentRuntime | None = None
        status = "failed"
        try:
            # begin inside the try: a failed begin (unknown app, ...) still ends `failed`
            begin = await workflow.execute_activity(
                names.BEGIN_INVOCATION,
                BeginInput(
                    invocation=input,
                    user_event_id=str(workflow.uuid4()),
                    timestamp=workflow.now().timestamp(),
                ),
                result_type=BeginOutput,
                summary="begin: load session, record the user message, pick the agent",
                **BOOKKEEPING,
            )
            runtime = self._runtime = self._new_runtime(input, begin.root)
            runtime.event_count += int(begin.user_event_recorded)
            agent = begin.root.find(begin.agent_to_run) or begin.root
            workflow.upsert_search_attributes([names.SA_AGENT.value_set(agent.name)])
            await runtime.run_with_transfers(agent, branch=None)
            status = "completed"
        except (asyncio.CancelledError, CancelledError):
            status = "cancelled"
            raise
        finally:
            await self._finish(runtime, status)
        assert runtime is not None
        return InvocationResult(
            invocation_id=input.invocation_id,
            final_text=runtime.final_text,
            last_author=runtime.last_author,
            event_count=runtime.event_count,
        )

    def _new_runtime(self, input: InvocationInput, root: AgentSpec) -> AgentRuntime:
        text = _text(input.new_message) if input.new_message else ""
        context = RunContext(
            session=input.session,
            invocation_id=input.invocation_id,
            run_config=input.run_config,
            root=root,
            root_workflow_id=workflow.info().workflow_id,
            asked=short(text, 120),
        )
        temp = {k: v for k, v in (input.state_delta or {}).items() if k.startswith(TEMP_PREFIX)}
        runtime = AgentRuntime(context, temp_state=temp)
        if text:
            runtime.transcript.lines.append(f"**user**: {short(text, 300)}")
        return runtime

    async def _finish(self, runtime: AgentRuntime | None, status: str) -> None:
        if runtime is not None:
            runtime.status = status
            await runtime.flush()
            runtime.show()
        workflow.upsert_search_attributes([names.SA_STATUS.value_set(status)])


def _text(content: types.Content) -> str:
    return "".join(p.text or "" for p in content.parts or [])
