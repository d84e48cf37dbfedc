"""The ReAct loop of an LLM agent: model step, tool calls, repeat until final.

Runs on: workflow (Temporal sandbox). Every model step and tool call is an
activity; parallel calls run concurrently and merge into one event in call order.
"""

from __future__ import annotations

import asyncio
from typing import Any

from temporalio import workflow
from temporalio.exceptions import (
    ActivityError,
    ApplicationError,
)

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk.activity_options import MODEL_DEFAULTS, TOOL_DEFAULTS
    from adk.events.event import Event
    from adk.flows.llm_flows.functions import build_function_response_event

    from . import names
    from ._base import RuntimeBase
    from ._humans import (
        confirmation_event,
        long_running_requests,
    )
    from ._options import activity_kwargs, failure_message
    from ._ui import call_summary
    from .contracts import (
        AgentRunResult,
        AgentSpec,
        AgentToolCall,
        CallPlan,
        ModelStepInput,
        ModelStepOutput,
        PendingRequest,
        ToolCallInput,
        ToolCallOutput,
    )


class ReactLoop(RuntimeBase):
    """The LLM agent loop (a mixin of AgentRuntime)."""

    pending: list[Event]  # restated for mypy (see _orchestration)

    # ── the ReAct loop ──────────────────────────────────────────────────────

    async def _run_llm_agent(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        """Model step, tools, repeat until the last event is a final response."""
        escalated = False
        while True:
            step = await self._model_step(agent, branch)
            if step.event is None:
                return self.result(escalated=escalated)
            self.record(step.event)
            if not step.calls:
                return self.result(escalated=escalated)
            response, requests = await self._run_calls(agent, branch, step.event, step.calls)
            if requests:  # an approved tool may itself escalate or transfer
                for actions in await self._await_requests(agent, branch, requests):
                    escalated = escalated or bool(actions.escalate)
                    if actions.transfer_to_agent:
                        return self.result(
                            transfer_to=actions.transfer_to_agent, escalated=escalated
                        )
            if response is None:
                if requests:
                    continue
                return self.result(escalated=escalated)
            escalated = escalated or bool(response.actions.escalate)
            if response.actions.transfer_to_agent:
                return self.result(
                    transfer_to=response.actions.transfer_to_agent, escalated=escalated
                )
            if response.is_final_response() and not requests:
                return self.result(escalated=escalated)

    async def _model_step(self, agent: AgentSpec, branch: str | None) -> ModelStepOutput:
        self.llm_calls += 1
        limit = self.context.run_config.max_llm_calls
        if limit > 0 and self.llm_calls > limit:
            raise ApplicationError(
                f"Max number of llm calls limit of `{limit}` exceeded",
                type="LlmCallsLimitExceededError",
                non_retryable=True,
            )
        # the request is built from the store: the step persists what we hold first
        pending, self.pending = self.pending, []
        step_input = ModelStepInput(
            ref=self.ref(agent, branch),
            step=self.llm_calls,
            event_id=str(workflow.uuid4()),
            timestamp=workflow.now().timestamp(),
            pending_events=pending,
        )
        self.show()
        try:
            output = await workflow.execute_activity(
                names.MODEL_STEP,
                step_input,
                result_type=ModelStepOutput,
                summary=f"model {agent.model} · step {self.llm_calls} · {agent.name}",
                **activity_kwargs(agent.model_activity_options, MODEL_DEFAULTS),
            )
        except BaseException as error:  # failed or cancelled: the events may not be stored
            self.pending = pending + self.pending  # persisted when the invocation ends
            if not isinstance(error, ActivityError):
                raise
            error_type, message = failure_message(error)
            raise ApplicationError(
                f"Model step {self.llm_calls} of agent {agent.name} failed: {message}",
                type=error_type,
                non_retryable=True,
            ) from error
        self.apply_temp(output.temp_delta)
        return output

    async def _run_calls(
        self,
        agent: AgentSpec,
        branch: str | None,
        model_event: Event,
        plans: list[CallPlan],
    ) -> tuple[Event | None, list[PendingRequest]]:
        """Run the event's function calls concurrently; merge the responses in call order.

        Returns the response event and what must now be awaited (confirmations,
        long-running results).
        """
        by_id = {plan.id: plan for plan in plans}
        calls = [c for c in model_event.get_function_calls() if c.id in by_id]
        owner = workflow.info().workflow_id
        requests = long_running_requests(
            agent=agent.name, branch=branch, calls=calls, plans=by_id, owner=owner
        )
        if requests and self.hub is not None:
            # before the tool runs: a result may come back (a webhook) before it returns
            await self.hub.add(requests)
        event_id = str(workflow.uuid4())
        record_as = event_id if len(calls) == 1 else None  # the only call records it itself
        outputs = await asyncio.gather(
            *(
                self._run_call(agent, branch, call, by_id[call.id or ""], record_as)
                for call in calls
            )
        )
        answered = [
            (call, output.response, output.actions)
            for call, output in zip(calls, outputs, strict=True)
            if output.response is not None
        ]
        if not answered:
            return None, requests
        recorded_at = next((o.recorded_at for o in outputs if o.recorded_at is not None), None)
        event = build_function_response_event(
            event_id=event_id,
            timestamp=workflow.now().timestamp() if recorded_at is None else recorded_at,
            invocation_id=self.invocation_id,
            author=agent.name,
            branch=branch,
            responses=answered,
        )
        merged = event.actions
        self.apply_temp(merged.state_delta)
        if recorded_at is not None:
            self.record(event)  # the tool activity recorded it in the session
            return event, requests
        if not merged.requested_tool_confirmations:
            self._add_pending(event)
            return event, requests
        asking, confirmations = confirmation_event(
            invocation_id=self.invocation_id,
            agent=agent.name,
            branch=branch,
            calls=calls,
            confirmations=merged.requested_tool_confirmations,
            owner=owner,
        )
        waiting = merged.requested_tool_confirmations
        responded = {call.id for call, _, _ in answered}
        answered_now = [c for c in calls if c.id not in waiting and c.id in responded]
        if answered_now:  # ADK: the other results first, and the loop is not over
            event.actions.skip_summarization = None
            self._add_pending(event)
            self._add_pending(asking)
        else:
            self._add_pending(asking)
            self._add_pending(event)
        return event, confirmations + requests

    async def _run_call(
        self,
        agent: AgentSpec,
        branch: str | None,
        call: types.FunctionCall,
        plan: CallPlan,
        record_as: str | None,
    ) -> ToolCallOutput:
        if plan.kind == "agent":
            return await self._run_agent_tool(agent, branch, call)
        return await self._run_tool_activity(agent, branch, call, plan, None, record_as)

    async def _run_tool_activity(
        self,
        agent: AgentSpec,
        branch: str | None,
        call: types.FunctionCall,
        plan: CallPlan | None,
        confirmation: Any,
        record_as: str | None = None,
    ) -> ToolCallOutput:
        tool = agent.tool(call.name or "")
        options = (
            (plan.activity_options if plan else None)
            or (tool.activity_options if tool else None)
            or agent.tool_activity_options
        )
        try:
            return await workflow.execute_activity(
                names.TOOL_CALL,
                ToolCallInput(
                    ref=self.ref(agent, branch),
                    function_call=call,
                    tool_confirmation=confirmation,
                    record_as=record_as,
                ),
                result_type=ToolCallOutput,
                summary=call_summary(call.name or "?", call.args),
                **activity_kwargs(options, TOOL_DEFAULTS),
            )
        except ActivityError as error:
            # a tool's failure is an observation the model can react to
            error_type, message = failure_message(error)
            return ToolCallOutput(
                response={"error": f"Tool {call.name} failed ({error_type}): {message}"}
            )

    async def _run_agent_tool(
        self, agent: AgentSpec, branch: str | None, call: types.FunctionCall
    ) -> ToolCallOutput:
        tool = agent.tool(call.name or "")
        if tool is None or tool.agent is None:
            return ToolCallOutput(response={"error": f"AgentTool {call.name} is not known."})
        try:
            outcome = await self._child(
                tool.agent, None, AgentToolCall(parent=self.ref(agent, branch), function_call=call)
            )
        except ApplicationError as error:
            if error.type == "LlmCallsLimitExceededError":
                raise
            return ToolCallOutput(response={"error": f"Invoking `{call.name}()` failed: {error}"})
        return outcome.tool_output or ToolCallOutput(response={"result": outcome.final_text or ""})
