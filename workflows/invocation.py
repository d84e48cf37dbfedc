"""The invocation workflow: one ADK invocation, its ReAct loop run deterministically.

Runs on: workflow (Temporal sandbox). It orchestrates over serializable data
only: the agent spec recorded by the begin activity, model events and tool
results. Every model call and tool call is an activity; ids and timestamps come
from workflow.uuid4()/workflow.now(), so replay is exact and writes idempotent.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, ApplicationError, CancelledError

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk.activity_options import MODEL_DEFAULTS, TOOL_DEFAULTS, ActivityOptions
    from adk.events.event import Event

    from . import names
    from ._merge import merge_actions
    from ._ui import Transcript, call_summary, short
    from .contracts import (
        AgentSpec,
        BeginInput,
        BeginOutput,
        CallPlan,
        FinishInput,
        InvocationInput,
        InvocationResult,
        ModelStepInput,
        ModelStepOutput,
        StepRef,
        ToolCallInput,
        ToolCallOutput,
    )

_TEMP_PREFIX = "temp:"
_BOOKKEEPING: dict[str, Any] = dict(
    start_to_close_timeout=timedelta(minutes=1),
    retry_policy=RetryPolicy(
        initial_interval=timedelta(seconds=1), maximum_interval=timedelta(seconds=30)
    ),
)


def activity_kwargs(options: ActivityOptions | None, defaults: ActivityOptions) -> dict[str, Any]:
    """Temporal activity options from an ActivityOptions (unset fields from `defaults`)."""
    merged = options.merged_over(defaults) if options else defaults
    return dict(
        start_to_close_timeout=merged.start_to_close_timeout,
        schedule_to_close_timeout=merged.schedule_to_close_timeout,
        heartbeat_timeout=merged.heartbeat_timeout,
        retry_policy=RetryPolicy(
            initial_interval=merged.initial_interval or timedelta(seconds=1),
            backoff_coefficient=merged.backoff_coefficient or 2.0,
            maximum_interval=merged.maximum_interval,
            maximum_attempts=merged.maximum_attempts or 0,
        ),
    )


def failure_message(error: BaseException) -> tuple[str, str]:
    """(type, message) of what the activity raised: its own message says the most.

    Not the innermost cause: an activity's "ValueError while before_tool_callback
    of agent a: ..." wraps the bare ValueError, and the context is what helps.
    """
    cause: BaseException = error.__cause__ or error
    if isinstance(cause, ApplicationError):
        return cause.type or "Error", cause.message
    return type(cause).__name__, str(cause)


@workflow.defn(name=names.INVOCATION_WORKFLOW)
class AdkInvocationWorkflow:
    """Runs one invocation: begin → the agent's ReAct loop → finish."""

    @workflow.init
    def __init__(self, input: InvocationInput) -> None:
        self._input = input
        self._session = input.session
        self._temp_state: dict[str, Any] = {
            k: v for k, v in (input.state_delta or {}).items() if k.startswith(_TEMP_PREFIX)
        }
        self._pending: list[Event] = []
        self._llm_calls = 0
        self._event_count = 0
        self._final_text: str | None = None
        self._last_author: str | None = None
        self._status = "running"
        self._transcript = Transcript(
            f"**{input.session.app_name}** · user `{input.session.user_id}` · "
            f"session `{input.session.session_id}` · invocation `{input.invocation_id}`"
        )

    @workflow.run
    async def run(self, input: InvocationInput) -> InvocationResult:
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
                **_BOOKKEEPING,
            )
            self._event_count += int(begin.user_event_recorded)
            if input.new_message:
                self._transcript.lines.append(f"**user**: {short(_text(input.new_message), 300)}")
            agent = begin.root.find(begin.agent_to_run) or begin.root
            workflow.upsert_search_attributes([names.SA_AGENT.value_set(agent.name)])
            await self._run_agent(agent, branch=None)
            self._status = "completed"
        except (asyncio.CancelledError, CancelledError):
            self._status = "cancelled"
            raise
        except BaseException:
            self._status = "failed"
            raise
        finally:
            await self._finish()
        return InvocationResult(
            invocation_id=input.invocation_id,
            final_text=self._final_text,
            last_author=self._last_author,
            event_count=self._event_count,
        )

    async def _finish(self) -> None:
        pending, self._pending = self._pending, []
        await workflow.execute_activity(
            names.FINISH_INVOCATION,
            FinishInput(
                session=self._session,
                invocation_id=self._input.invocation_id,
                pending_events=pending,
            ),
            summary=f"finish: {self._status}",
            **_BOOKKEEPING,
        )
        workflow.upsert_search_attributes([names.SA_STATUS.value_set(self._status)])
        self._show()

    async def _run_agent(self, agent: AgentSpec, branch: str | None) -> None:
        if agent.kind != "llm":
            raise ApplicationError(
                f"Agent {agent.name} is a {agent.kind} agent, which this runtime cannot run yet.",
                type="UnsupportedAgent",
                non_retryable=True,
            )
        await self._run_llm_agent(agent, branch)

    # ── the ReAct loop ──────────────────────────────────────────────────────

    async def _run_llm_agent(self, agent: AgentSpec, branch: str | None) -> None:
        """Model step, tools, repeat until the last event is a final response."""
        while True:
            step = await self._model_step(agent, branch)
            if step.event is None:
                return
            self._record(step.event)
            if not step.calls:
                return
            response_event = await self._run_calls(agent, branch, step.event, step.calls)
            if response_event is None or response_event.is_final_response():
                return

    def _ref(self, agent: AgentSpec, branch: str | None) -> StepRef:
        return StepRef(
            session=self._session,
            invocation_id=self._input.invocation_id,
            agent_name=agent.name,
            branch=branch,
            temp_state=dict(self._temp_state),
        )

    async def _model_step(self, agent: AgentSpec, branch: str | None) -> ModelStepOutput:
        self._llm_calls += 1
        limit = self._input.run_config.max_llm_calls
        if limit > 0 and self._llm_calls > limit:
            raise ApplicationError(
                f"Max number of llm calls limit of `{limit}` exceeded",
                type="LlmCallsLimitExceededError",
                non_retryable=True,
            )
        pending, self._pending = self._pending, []
        step_input = ModelStepInput(
            ref=self._ref(agent, branch),
            step=self._llm_calls,
            event_id=str(workflow.uuid4()),
            timestamp=workflow.now().timestamp(),
            pending_events=pending,
        )
        self._show()
        try:
            output = await workflow.execute_activity(
                names.MODEL_STEP,
                step_input,
                result_type=ModelStepOutput,
                summary=f"model {agent.model} · step {self._llm_calls} · {agent.name}",
                **activity_kwargs(agent.model_activity_options, MODEL_DEFAULTS),
            )
        except ActivityError as error:
            self._pending = pending + self._pending  # finish persists them (idempotent)
            error_type, message = failure_message(error)
            raise ApplicationError(
                f"Model step {self._llm_calls} of agent {agent.name} failed: {message}",
                type=error_type,
                non_retryable=True,
            ) from error
        if output.event is not None:
            self._apply_temp(output.temp_delta)
        return output

    async def _run_calls(
        self, agent: AgentSpec, branch: str | None, model_event: Event, plans: list[CallPlan]
    ) -> Event | None:
        """Run the event's function calls concurrently; merge the responses in call order."""
        by_id = {plan.id: plan for plan in plans}
        calls = [c for c in model_event.get_function_calls() if c.id in by_id]
        outputs = await asyncio.gather(
            *(self._run_call(agent, branch, call, by_id[call.id or ""]) for call in calls)
        )
        parts, actions = [], []
        for call, output in zip(calls, outputs, strict=True):
            if output.response is None:
                continue
            parts.append(
                types.Part(
                    function_response=types.FunctionResponse(
                        id=call.id, name=call.name, response=output.response
                    )
                )
            )
            actions.append(output.actions)
        if not parts:
            return None
        merged = merge_actions(actions)
        self._apply_temp(merged.state_delta)
        event = Event(
            id=str(workflow.uuid4()),
            timestamp=workflow.now().timestamp(),
            invocation_id=self._input.invocation_id,
            author=agent.name,
            branch=branch,
            content=types.Content(role="user", parts=parts),
            actions=merged,
        )
        self._pending.append(event)
        self._record(event)
        return event

    async def _run_call(
        self, agent: AgentSpec, branch: str | None, call: types.FunctionCall, plan: CallPlan
    ) -> ToolCallOutput:
        """One user tool as an activity; a failure becomes an error result the model sees."""
        options = plan.activity_options or agent.tool_activity_options
        try:
            return await workflow.execute_activity(
                names.TOOL_CALL,
                ToolCallInput(ref=self._ref(agent, branch), function_call=call),
                result_type=ToolCallOutput,
                summary=call_summary(call.name or "?", call.args),
                **activity_kwargs(options, TOOL_DEFAULTS),
            )
        except ActivityError as error:
            error_type, message = failure_message(error)
            return ToolCallOutput(
                response={"error": f"Tool {call.name} failed ({error_type}): {message}"}
            )

    # ── bookkeeping ─────────────────────────────────────────────────────────

    def _apply_temp(self, delta: dict[str, Any]) -> None:
        for key, value in delta.items():
            if key.startswith(_TEMP_PREFIX):
                if value is None:
                    self._temp_state.pop(key, None)
                else:
                    self._temp_state[key] = value

    def _record(self, event: Event) -> None:
        self._event_count += 1
        self._transcript.add(event)
        if event.is_final_response() and event.content and event.content.parts:
            text = "".join(p.text or "" for p in event.content.parts if not p.thought)
            if text:
                self._final_text = text
        self._last_author = event.author
        self._show()  # the UI shows the call while its tool runs, not at the next step

    def _show(self) -> None:
        workflow.set_current_details(self._transcript.render(self._status))


def _text(content: types.Content) -> str:
    return "".join(p.text or "" for p in content.parts or [])
