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
    CancelledError,
)
from temporalio.exceptions import TimeoutError as ActivityTimeoutError

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk.activity_options import CODE_DEFAULTS, MODEL_DEFAULTS, TOOL_DEFAULTS
    from adk.events.event import Event
    from adk.events.event_actions import EventActions
    from adk.flows.llm_flows.functions import build_function_response_event, own_text

    from . import names
    from ._base import RuntimeBase
    from ._humans import (
        confirmation_event,
        long_running_requests,
    )
    from ._options import activity_kwargs, failure_message
    from ._patches import patched
    from ._ui import call_summary, code_summary
    from .contracts import (
        AgentRunResult,
        AgentSpec,
        AgentToolCall,
        CallPlan,
        CodeExecutionInput,
        CodeExecutionOutput,
        ModelStepInput,
        ModelStepOutput,
        PendingRequest,
        ToolCallInput,
        ToolCallOutput,
    )
    from .errors import RaisedError, adk_error, find_raised


class ReactLoop(RuntimeBase):
    """The LLM agent loop (a mixin of AgentRuntime)."""

    pending: list[Event]  # restated for mypy (see _orchestration)

    # ── the ReAct loop ──────────────────────────────────────────────────────

    async def _run_llm_agent(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        """Model step, tools, repeat until the last event is a final response.

        A failure (a tool's, a callback's, the model's, an ADK rule's) is recorded
        as an error event of this agent, as google-adk records it, and ends the run."""
        opened = self.opened
        try:
            outcome = await self._react(agent, branch)
        except ApplicationError as error:
            self.record_error(agent, branch, error)
            raise
        if self.context.resumable and self.opened == opened:
            # google-adk 2.13: a resumable app's agent that ran to its end (did not pause)
            # says so; a paused one resumes where it stopped. Under a shell agent a
            # transfer's target runs inside the agent's run: its end comes after the
            # target's (the parent, which runs the target, records it)
            if (
                outcome.transfer_to
                and self.nested_transfers
                and patched(names.PATCH_END_AFTER_TARGET)
            ):
                outcome.end_deferred = True
            else:
                self._add_pending(
                    self.new_event(agent.name, branch, actions=EventActions(end_of_agent=True))
                )
        return outcome

    async def _react(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        escalated = False
        while True:
            step = await self._model_step(agent, branch)
            if step.code_event is not None:  # the model wrote code: run it, then ask again
                await self._execute_code(agent, branch, step.code_event)
                if step.end_invocation:
                    return self.result(escalated=escalated, end_invocation=True)
                continue
            if step.event is None:
                return self.result(escalated=escalated, end_invocation=step.end_invocation)
            self.record(step.event)
            if not step.calls:
                return self.result(escalated=escalated, end_invocation=step.end_invocation)
            response, requests, ended, answer = await self._run_calls(
                agent, branch, step.event, step.calls
            )
            if answer is not None:  # set_model_response gave the final answer: the run ends
                self.apply_temp(answer.actions.state_delta)
                self._add_pending(answer)
                return self.result(escalated=escalated, end_invocation=ended)
            # a tool or callback set end_invocation: ADK's next step stops before the model
            ended = ended or step.end_invocation
            if requests and self.defers():  # google-adk 2.13: nothing waits inside the loop
                self.defer(requests, response)
                if self.context.resumable and any(map(self._holds, requests)):
                    return self.result(escalated=escalated, end_invocation=ended)
                if response is None or response.is_final_response():
                    return self.result(escalated=escalated, end_invocation=ended)
            elif requests:  # an approved tool may itself escalate or transfer
                self.check_stop()  # interrupted: the calls wait for no one (a new message came)
                for actions in await self._await_requests(agent, branch, requests):
                    escalated = escalated or bool(actions.escalate)
                    if actions.transfer_to_agent:
                        return self.result(
                            transfer_to=actions.transfer_to_agent, escalated=escalated
                        )
            if response is None:
                if requests and not ended:
                    continue
                return self.result(escalated=escalated, end_invocation=ended)
            escalated = escalated or bool(response.actions.escalate)
            if response.actions.transfer_to_agent:
                return self.result(
                    transfer_to=response.actions.transfer_to_agent, escalated=escalated
                )
            if ended or (response.is_final_response() and not requests):
                return self.result(escalated=escalated, end_invocation=ended)

    async def _model_step(self, agent: AgentSpec, branch: str | None) -> ModelStepOutput:
        self.check_stop()  # an interrupting message: the invocation ends here, cleanly
        self.llm_calls += 1
        limit = self.context.run_config.max_llm_calls
        if limit > 0 and self.llm_calls > limit:
            raise adk_error(
                "adk.agents.invocation_context",
                "LlmCallsLimitExceededError",
                f"Max number of llm calls limit of `{limit}` exceeded",
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
                summary=" · ".join(
                    [
                        f"model {agent.model}",
                        f"step {self.llm_calls}",
                        agent.name,
                        *agent.step_extras,
                    ]
                ),
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
        for event in (output.event, output.code_event):
            if event is not None and not event.invocation_id:  # the step's own: left out
                event.invocation_id = self.invocation_id
        self.apply_temp(output.temp_delta)
        self.adopt_metadata(output.custom_metadata)
        return output

    async def _execute_code(self, agent: AgentSpec, branch: str | None, code_event: Event) -> None:
        """Run the code a model step found: an activity of its own, which records the
        result event the next model step shows the model (google-adk 2.13)."""
        self.record(code_event, ongoing=True)
        parts = (code_event.content.parts if code_event.content else None) or []
        code = (parts[-1].executable_code.code if parts and parts[-1].executable_code else "") or ""
        options = activity_kwargs(agent.code_activity_options, CODE_DEFAULTS)
        try:
            output = await workflow.execute_activity(
                names.EXECUTE_CODE,
                CodeExecutionInput(
                    ref=self.ref(agent, branch),
                    code_event_id=code_event.id,
                    event_id=str(workflow.uuid4()),
                ),
                result_type=CodeExecutionOutput,
                summary=code_summary(agent.name, agent.code_executor or "code executor", code),
                **options,
            )
        except ActivityError as error:
            error_type, message = failure_message(error)
            if isinstance(error.cause, ActivityTimeoutError):
                error_type = "CodeExecutionTimeout"
                kind = error.cause.type.name if error.cause.type else "activity"
                limit = options["start_to_close_timeout"].total_seconds()
                message = (
                    f"no attempt finished in time ({kind} timeout; an attempt may take"
                    f" {limit:g} s: the executor's timeout_seconds and a margin); its executor"
                    " did not stop the code"
                )
            raise ApplicationError(
                f"Code execution of agent {agent.name} failed: {message}",
                type=error_type,
                non_retryable=True,
            ) from error
        self.temp_state.update(output.code_state)
        self.adopt_metadata(output.custom_metadata)
        self.record(output.event)

    async def _run_calls(
        self,
        agent: AgentSpec,
        branch: str | None,
        model_event: Event,
        plans: list[CallPlan],
    ) -> tuple[Event | None, list[PendingRequest], bool, Event | None]:
        """Run the event's function calls; merge the responses in call order.

        Returns the response event, what must now be awaited (confirmations,
        long-running results), whether a call set end_invocation, and the final
        answer a set_model_response call gave (google-adk 2.13 records it right
        after the response event, which is recorded before it returns). A call that
        failed fails the step, after the other calls' responses are recorded (ADK
        keeps the results of the calls that finished).
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
        outcomes = await self._call_outcomes(agent, branch, calls, by_id, record_as)
        failures = [o for o in outcomes if isinstance(o, ApplicationError)]
        outputs = [o for o in outcomes if isinstance(o, ToolCallOutput)]
        ended = any(o.end_invocation for o in outputs)
        answered = [
            (call, output.response, output.actions)
            for call, output in zip(calls, outcomes, strict=True)
            if isinstance(output, ToolCallOutput) and output.response is not None
        ]
        if not answered:
            if failures:
                raise failures[0]
            return None, requests, ended, None
        recorded_at = next((o.recorded_at for o in outputs if o.recorded_at is not None), None)
        event = build_function_response_event(
            event_id=event_id,
            timestamp=workflow.now().timestamp() if recorded_at is None else recorded_at,
            invocation_id=self.invocation_id,
            author=agent.name,
            branch=branch,
            responses=answered,
            display_texts={
                call.id or "": output.display_text
                for call, output in zip(calls, outcomes, strict=True)
                if isinstance(output, ToolCallOutput) and output.display_text is not None
            },
            media={
                call.id or "": output.media
                for call, output in zip(calls, outcomes, strict=True)
                if isinstance(output, ToolCallOutput) and output.media
            },
        )
        merged = event.actions
        answer = _answer(outputs, event)
        if agent.accumulates_output and agent.output_key and own_text(event):
            # an AgentTool's text (skip_summarization) extends the run's output, as in 2.13
            merged.state_delta[agent.output_key] = self.run_text(agent.name, branch) + own_text(
                event
            )
        self.apply_temp(merged.state_delta)
        if failures:  # the finished calls' results are kept, then the error ends the run
            self._add_pending(event)
            raise failures[0]
        if recorded_at is not None:
            self.record(event)  # the tool activity recorded it in the session
            return event, requests, ended, answer
        if not merged.requested_tool_confirmations:
            self._add_pending(event)
            return event, requests, ended, answer
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
        return event, confirmations + requests, ended, answer

    async def _call_outcomes(
        self,
        agent: AgentSpec,
        branch: str | None,
        calls: list[types.FunctionCall],
        by_id: dict[str, CallPlan],
        record_as: str | None,
    ) -> list[ToolCallOutput | ApplicationError]:
        """Each call's output or failure, in call order.

        google-adk runs a step's calls in one process over one session state: a call
        reading a key sees what the calls before it wrote (its sync tools run one
        after another in call order), so four calls appending to one list leave four
        entries. The calls that can touch the state therefore run here one after
        another in call order, each given the writes of those before it; the calls
        that cannot (plain functions) run concurrently alongside. The merged state is
        then google-adk's whatever the activities' layout.
        """
        # an AgentTool's agent works on a copy of the session taken when it starts
        # (its writes come back with its response): it runs alongside, as in ADK
        shared = [
            c for c in calls if by_id[c.id or ""].shares_state and by_id[c.id or ""].kind != "agent"
        ]
        outcomes: dict[str, ToolCallOutput | ApplicationError] = {}

        async def one(call: types.FunctionCall, written: dict[str, Any]) -> None:
            plan = by_id[call.id or ""]
            try:
                if plan.kind == "agent":
                    output = await self._run_agent_tool(agent, branch, call)
                else:
                    output = await self._run_tool_activity(
                        agent, branch, call, plan, None, record_as, written
                    )
            except ApplicationError as error:
                outcomes[call.id or ""] = error
                return
            outcomes[call.id or ""] = output

        async def in_order() -> None:
            written: dict[str, Any] = {}
            for call in shared:
                await one(call, dict(written))
                if isinstance(output := outcomes[call.id or ""], ToolCallOutput):
                    written.update(output.actions.state_delta)

        await asyncio.gather(in_order(), *(one(c, {}) for c in calls if c not in shared))
        return [outcomes[c.id or ""] for c in calls]

    async def _run_tool_activity(
        self,
        agent: AgentSpec,
        branch: str | None,
        call: types.FunctionCall,
        plan: CallPlan | None,
        confirmation: Any,
        record_as: str | None = None,
        written: dict[str, Any] | None = None,
        failed: RaisedError | None = None,
    ) -> ToolCallOutput:
        """One tool call; its failure raises (typed, non-retryable) once on_tool_error
        callbacks and the tool's own retry policy (if it opted into one) had their say."""
        tool = agent.tool(call.name or "")
        own = (plan.activity_options if plan else None) or (tool.activity_options if tool else None)
        options = own or agent.tool_activity_options
        try:
            output = await workflow.execute_activity(
                names.TOOL_CALL,
                ToolCallInput(
                    ref=self.ref(agent, branch),
                    function_call=call,
                    tool_confirmation=confirmation,
                    record_as=record_as,
                    retry_errors=options is not None and options.maximum_attempts is not None,
                    state_before=written or {},
                    failed=failed,
                ),
                result_type=ToolCallOutput,
                summary=call_summary(call.name or "?", call.args),
                **activity_kwargs(options, TOOL_DEFAULTS),
            )
        except ActivityError as error:
            if isinstance(error.cause, CancelledError):
                raise CancelledError(f"Tool {call.name} was cancelled.") from error
            error_type, message = failure_message(error)
            raise ApplicationError(message, type=error_type, non_retryable=True) from error
        self.adopt_metadata(output.custom_metadata)
        return output

    async def _run_agent_tool(
        self, agent: AgentSpec, branch: str | None, call: types.FunctionCall
    ) -> ToolCallOutput:
        tool = agent.tool(call.name or "")
        if tool is None or tool.agent is None:
            return ToolCallOutput(response={"error": f"AgentTool {call.name} is not known."})
        try:
            outcome = await self._child(
                tool.agent,
                None,
                AgentToolCall(parent=self.ref(agent, branch, whole=True), function_call=call),
            )
        except ApplicationError as error:
            # its agent's failure is this tool's exception: the agent's on_tool_error
            # callbacks may turn it into a result (an activity); else it fails (ADK)
            if (failed := find_raised(error)) is None:
                raise
            output = await self._run_tool_activity(agent, branch, call, None, None, failed=failed)
            return output
        return outcome.tool_output or ToolCallOutput(response={"result": outcome.final_text or ""})


def _answer(outputs: list[ToolCallOutput], response: Event) -> Event | None:
    """The final answer event of the step's set_model_response call, if it gave one,
    timed no earlier than the response event it follows."""
    answer = next((o.final_event for o in reversed(outputs) if o.final_event is not None), None)
    if answer is not None:
        answer.timestamp = max(answer.timestamp, response.timestamp)
    return answer
