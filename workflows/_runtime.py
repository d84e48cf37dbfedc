"""AgentRuntime: runs agents of one invocation inside a workflow (root or child).

Runs on: workflow (Temporal sandbox). One clear mechanism for every agent kind:
an agent runs *inline* in the workflow that holds the runtime (an LLM agent's
ReAct loop, or a shell agent's orchestration); a *sub-agent* runs in a child
workflow (`AdkAgentRun`) holding a runtime of its own. Transfers are tail
calls: a run that ends with `transfer_to_agent` reports the target, and the
workflow that started the run starts the target next (so chains stay flat).
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.exceptions import (
    ActivityError,
    ApplicationError,
    CancelledError,
    ChildWorkflowError,
)

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk.activity_options import MODEL_DEFAULTS, TOOL_DEFAULTS
    from adk.events.event import Event
    from adk.events.event_actions import EventActions

    from . import names
    from ._humans import (
        RequestHub,
        answer_event,
        confirmation_event,
        long_running_requests,
        tool_response_event,
    )
    from ._merge import merge_actions
    from ._options import BOOKKEEPING, activity_kwargs, failure_message
    from ._ui import Transcript, call_summary
    from .contracts import (
        AgentCallbackInput,
        AgentCallbackOutput,
        AgentRunInput,
        AgentRunResult,
        AgentSpec,
        AgentToolCall,
        CallPlan,
        FinishInput,
        HumanAnswer,
        ModelStepInput,
        ModelStepOutput,
        PendingRequest,
        RunContext,
        SessionRef,
        StepRef,
        ToolCallInput,
        ToolCallOutput,
    )

TEMP_PREFIX = "temp:"


class AgentRuntime:
    """The state one workflow keeps while it runs agents of an invocation."""

    def __init__(
        self,
        context: RunContext,
        *,
        temp_state: dict[str, Any] | None = None,
        llm_calls: int = 0,
        session: SessionRef | None = None,
        invocation_id: str | None = None,
        hub: RequestHub | None = None,
    ) -> None:
        self.context = context
        self.hub = hub
        self.answers: dict[str, HumanAnswer] = {}
        self.progress: dict[str, list[HumanAnswer]] = {}
        self.session = session or context.session
        self.invocation_id = invocation_id or context.invocation_id
        self.temp_state: dict[str, Any] = dict(temp_state or {})
        self.llm_calls = llm_calls
        self.pending: list[Event] = []
        self.state_delta: dict[str, Any] = {}
        self.event_count = 0
        self.final_text: str | None = None
        self.last_author: str | None = None
        self.status = "running"
        self.children = 0
        self.details: Any = None
        """A callable adding a section to the live details (the root lists pending requests)."""
        self.transcript = Transcript(
            f"**{self.session.app_name}** · user `{self.session.user_id}` · "
            f"session `{self.session.session_id}` · invocation `{self.invocation_id}`"
        )

    # ── running agents ──────────────────────────────────────────────────────

    async def run_agent(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        """Run `agent` here: agent callbacks around its kind's behaviour."""
        if agent.has_agent_callbacks:
            before = await self._agent_callback(agent, branch, "before")
            if before is not None and before.content:
                return self.result(end_invocation=True)
        if agent.kind == "llm":
            outcome = await self._run_llm_agent(agent, branch)
        elif agent.kind == "sequential":
            outcome = await self._run_sequential(agent, branch)
        elif agent.kind == "parallel":
            outcome = await self._run_parallel(agent, branch)
        elif agent.kind == "loop":
            outcome = await self._run_loop(agent, branch)
        else:
            raise ApplicationError(
                f"Agent {agent.name} is a custom BaseAgent subclass; durable-adk runs LlmAgent,"
                " SequentialAgent, ParallelAgent and LoopAgent.",
                type="UnsupportedAgent",
                non_retryable=True,
            )
        if agent.has_agent_callbacks and not outcome.end_invocation:
            await self._agent_callback(agent, branch, "after")
        return outcome

    async def run_with_transfers(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        """Run `agent` inline, then follow transfers (each target in a child workflow)."""
        outcome = await self.run_agent(agent, branch)
        return await self._follow_transfers(outcome, branch)

    async def run_sub_agent(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        """Run `agent` in a child workflow, then follow its transfers."""
        outcome = await self._child(agent, branch)
        return await self._follow_transfers(outcome, branch)

    async def _follow_transfers(
        self, outcome: AgentRunResult, branch: str | None
    ) -> AgentRunResult:
        escalated = outcome.escalated
        while outcome.transfer_to and not outcome.end_invocation:
            target = self.context.root.find_anywhere(outcome.transfer_to)
            if target is None:
                raise ApplicationError(
                    f"Agent {outcome.transfer_to} not found in the agent tree.",
                    type="UnknownAgent",
                    non_retryable=True,
                )
            outcome = await self._child(target, branch)
            escalated = escalated or outcome.escalated
        outcome.escalated = escalated
        return outcome

    async def _run_sequential(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        escalated = False
        for sub_agent in agent.sub_agents:
            outcome = await self.run_sub_agent(sub_agent, branch)
            escalated = escalated or outcome.escalated
            if outcome.end_invocation:
                return self.result(end_invocation=True)
        return self.result(escalated=escalated)

    async def _run_loop(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        iteration = 0
        while agent.max_iterations is None or iteration < agent.max_iterations:
            iteration += 1
            for sub_agent in agent.sub_agents:
                outcome = await self.run_sub_agent(sub_agent, branch)
                if outcome.end_invocation:
                    return self.result(end_invocation=True)
                if outcome.escalated:  # exit_loop ends every enclosing loop (ADK 2.x)
                    return self.result(escalated=True)
        return self.result()

    async def _run_parallel(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        """Branches run concurrently; state written by several: the later sub-agent wins."""
        start_temp = dict(self.temp_state)
        outcomes = await asyncio.gather(
            *(
                self.run_sub_agent(
                    sub,
                    f"{branch}.{agent.name}.{sub.name}" if branch else f"{agent.name}.{sub.name}",
                )
                for sub in agent.sub_agents
            )
        )
        writers: dict[str, set[str]] = {}
        merged: dict[str, Any] = {}
        for outcome in outcomes:
            for key, value in outcome.state_delta.items():
                writers.setdefault(key, set()).add(repr(value))
                merged[key] = value
            for key, value in outcome.temp_state.items():
                if start_temp.get(key) != value:
                    self.temp_state[key] = value
        conflicts = {k: merged[k] for k, values in writers.items() if len(values) > 1}
        if conflicts:
            self._add_pending(
                Event(
                    id=str(workflow.uuid4()),
                    timestamp=workflow.now().timestamp(),
                    invocation_id=self.invocation_id,
                    author=agent.name,
                    branch=branch,
                    actions=EventActions(state_delta=conflicts),
                )
            )
        ended = any(o.end_invocation for o in outcomes)
        escalated = any(o.escalated for o in outcomes)
        return self.result(end_invocation=ended, escalated=escalated)

    # ── child workflows ─────────────────────────────────────────────────────

    async def _child(
        self, agent: AgentSpec, branch: str | None, agent_tool: AgentToolCall | None = None
    ) -> AgentRunResult:
        await self.flush()  # the child reads the session: persist what we hold first
        self.children += 1
        label = branch if branch and branch.endswith(agent.name) else agent.name
        info = workflow.info()
        prefix = info.workflow_id if info.parent else f"{info.workflow_id}/{self.invocation_id}"
        child_id = f"{prefix}/{label}#{self.children}"  # a path: unique by construction
        asked = self.context.asked if agent_tool is None else str(agent_tool.function_call.args)
        sent_calls = self.llm_calls
        try:
            outcome: AgentRunResult = await workflow.execute_child_workflow(
                names.AGENT_RUN_WORKFLOW,
                AgentRunInput(
                    context=self.context,
                    agent_name=agent.name,
                    branch=branch,
                    temp_state=dict(self.temp_state),
                    llm_calls=sent_calls,
                    agent_tool=agent_tool,
                    session=self.session,
                    invocation_id=self.invocation_id,
                ),
                id=child_id,
                result_type=AgentRunResult,
                static_summary=f"{agent.name} ({agent.kind}) · {asked}"[:200],
                static_details=f"agent **{agent.name}** · branch `{branch or '-'}`\n\n{asked}",
                parent_close_policy=workflow.ParentClosePolicy.REQUEST_CANCEL,
            )
        except ChildWorkflowError as error:
            if isinstance(error.cause, CancelledError):
                # cancelled with this workflow (or by hand): end cancelled, not failed
                raise CancelledError(f"Agent {agent.name} was cancelled.") from error
            error_type, message = failure_message(error)
            raise ApplicationError(
                f"Agent {agent.name} failed: {message}", type=error_type, non_retryable=True
            ) from error
        self.llm_calls += outcome.llm_calls - sent_calls  # parallel children all count
        if agent_tool is None:
            self.temp_state = dict(outcome.temp_state)
            self.state_delta.update(outcome.state_delta)
            self.event_count += outcome.event_count
            if outcome.final_text is not None:
                self.final_text = outcome.final_text
            self.last_author = outcome.last_author or self.last_author
        self.transcript.lines.append(f"↳ *{agent.name}* ({agent.kind}) done")
        self.show()
        return outcome

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

    def ref(self, agent: AgentSpec, branch: str | None) -> StepRef:
        return StepRef(
            session=self.session,
            invocation_id=self.invocation_id,
            agent_name=agent.name,
            branch=branch,
            temp_state=dict(self.temp_state),
        )

    async def _model_step(self, agent: AgentSpec, branch: str | None) -> ModelStepOutput:
        self.llm_calls += 1
        limit = self.context.run_config.max_llm_calls
        if limit > 0 and self.llm_calls > limit:
            raise ApplicationError(
                f"Max number of llm calls limit of `{limit}` exceeded",
                type="LlmCallsLimitExceededError",
                non_retryable=True,
            )
        await self.flush()  # the request is built from the store: persist what we hold
        step_input = ModelStepInput(
            ref=self.ref(agent, branch),
            step=self.llm_calls,
            event_id=str(workflow.uuid4()),
            timestamp=workflow.now().timestamp(),
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
        except ActivityError as error:
            error_type, message = failure_message(error)
            raise ApplicationError(
                f"Model step {self.llm_calls} of agent {agent.name} failed: {message}",
                type=error_type,
                non_retryable=True,
            ) from error
        self.apply_temp(output.temp_delta)
        return output

    async def _run_calls(
        self, agent: AgentSpec, branch: str | None, model_event: Event, plans: list[CallPlan]
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
        outputs = await asyncio.gather(
            *(self._run_call(agent, branch, call, by_id[call.id or ""]) for call in calls)
        )
        parts, actions, responded = [], [], set()
        for call, output in zip(calls, outputs, strict=True):
            if output.response is None:
                continue
            responded.add(call.id)
            parts.append(
                types.Part(
                    function_response=types.FunctionResponse(
                        id=call.id, name=call.name, response=output.response
                    )
                )
            )
            actions.append(output.actions)
        if not parts:
            return None, requests
        merged = merge_actions(actions)
        self.apply_temp(merged.state_delta)
        event = Event(
            id=str(workflow.uuid4()),
            timestamp=workflow.now().timestamp(),
            invocation_id=self.invocation_id,
            author=agent.name,
            branch=branch,
            content=types.Content(role="user", parts=parts),
            actions=merged,
        )
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
        self, agent: AgentSpec, branch: str | None, call: types.FunctionCall, plan: CallPlan
    ) -> ToolCallOutput:
        if plan.kind == "agent":
            return await self._run_agent_tool(agent, branch, call)
        return await self._run_tool_activity(agent, branch, call, plan, None)

    async def _run_tool_activity(
        self,
        agent: AgentSpec,
        branch: str | None,
        call: types.FunctionCall,
        plan: CallPlan | None,
        confirmation: Any,
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
                    ref=self.ref(agent, branch), function_call=call, tool_confirmation=confirmation
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

    async def _agent_callback(
        self, agent: AgentSpec, branch: str | None, when: str
    ) -> Event | None:
        pending, self.pending = self.pending, []
        await self.flush_events(pending)
        output = await workflow.execute_activity(
            names.AGENT_CALLBACK,
            AgentCallbackInput(
                ref=self.ref(agent, branch),
                when=when,  # type: ignore[arg-type]
                event_id=str(workflow.uuid4()),
                timestamp=workflow.now().timestamp(),
            ),
            result_type=AgentCallbackOutput,
            summary=f"{when}_agent_callback · {agent.name}",
            **BOOKKEEPING,
        )
        self.apply_temp(output.temp_delta)
        if output.event is not None:
            self.record(output.event)
        return output.event

    # ── waiting for humans ──────────────────────────────────────────────────

    def deliver(self, answer: HumanAnswer) -> None:
        """An answer the root validated (called from a handler: no awaits)."""
        if answer.kind == "progress":
            self.progress.setdefault(answer.id, []).append(answer)
        else:
            self.answers[answer.id] = answer

    async def _await_requests(
        self, agent: AgentSpec, branch: str | None, requests: list[PendingRequest]
    ) -> list[EventActions]:
        """Wait (durably, holding no worker) until every request is answered or expires.

        Returns the actions of the tools that ran once approved."""
        await self.flush()  # the client sees the request before anyone can answer it
        confirmations = [r for r in requests if r.kind == "confirmation"]
        if confirmations and self.hub is not None:  # long-running ones are registered already
            await self.hub.add(confirmations)
        self.status = "waiting"
        self.show()
        ran = await asyncio.gather(*(self._await_one(agent, branch, r) for r in requests))
        self.status = "running"
        self.show()
        return [actions for actions in ran if actions is not None]

    async def _await_one(
        self, agent: AgentSpec, branch: str | None, request: PendingRequest
    ) -> EventActions | None:
        while True:
            timeout = None
            if request.deadline is not None:
                left = request.deadline - workflow.now().timestamp()
                timeout = timedelta(seconds=max(left, 0.001))
            try:
                await workflow.wait_condition(
                    lambda: request.id in self.answers or bool(self.progress.get(request.id)),
                    timeout=timeout,
                )
            except TimeoutError:
                if request.id not in self.answers:  # an answer in the same activation wins
                    await self._expire(request)
                    return None
            for update in self.progress.pop(request.id, []):
                self._add_pending(tool_response_event(request, _result(update), self.invocation_id))
                await self.flush()
            if request.id in self.answers:
                break
        return await self._answered(agent, branch, request, self.answers[request.id])

    async def _answered(
        self, agent: AgentSpec, branch: str | None, request: PendingRequest, answer: HumanAnswer
    ) -> EventActions | None:
        request.answered = True
        if self.hub is not None:
            await self.hub.resolve([request])
        event, confirmation = answer_event(request, answer, self.invocation_id)
        self._add_pending(event)
        actions = None
        if confirmation is not None:  # the approved (or rejected) tool runs now, once
            call = types.FunctionCall(id=request.call_id, name=request.tool, args=request.args)
            output = await self._run_tool_activity(agent, branch, call, None, confirmation)
            self.apply_temp(output.actions.state_delta)
            self._add_pending(
                tool_response_event(
                    request, output.response or {}, self.invocation_id, output.actions
                )
            )
            actions = output.actions
        await self.flush()
        return actions

    async def _expire(self, request: PendingRequest) -> None:
        request.answered = True
        if self.hub is not None:
            await self.hub.resolve([request])
        waited = timedelta(seconds=round((request.deadline or 0) - request.since))
        self._add_pending(
            tool_response_event(
                request,
                {
                    "error": f"No result for {request.tool}() (call {request.call_id}) within {waited}."
                },
                self.invocation_id,
            )
        )
        await self.flush()

    # ── bookkeeping ─────────────────────────────────────────────────────────

    def result(self, **fields: Any) -> AgentRunResult:
        return AgentRunResult(
            temp_state=dict(self.temp_state),
            llm_calls=self.llm_calls,
            state_delta=dict(self.state_delta),
            final_text=self.final_text,
            last_author=self.last_author,
            event_count=self.event_count,
            **fields,
        )

    def _add_pending(self, event: Event) -> None:
        self.pending.append(event)
        self.record(event)

    async def flush(self) -> None:
        """Persist the events this workflow still holds."""
        pending, self.pending = self.pending, []
        await self.flush_events(pending)

    async def flush_events(self, events: list[Event]) -> None:
        """A local activity: its input (the events) is not recorded in history, so an
        event decided here (a merged tool response, an answer) enters history once."""
        if not events:
            return
        await workflow.execute_local_activity(
            names.PERSIST_EVENTS,
            FinishInput(
                session=self.session, invocation_id=self.invocation_id, pending_events=events
            ),
            summary=f"persist {len(events)} event(s)",
            **BOOKKEEPING,
        )

    def apply_temp(self, delta: dict[str, Any]) -> None:
        for key, value in delta.items():
            if key.startswith(TEMP_PREFIX):
                if value is None:
                    self.temp_state.pop(key, None)
                else:
                    self.temp_state[key] = value

    def record(self, event: Event) -> None:
        self.event_count += 1
        self.transcript.add(event)
        for key, value in event.actions.state_delta.items():
            if not key.startswith(TEMP_PREFIX):
                self.state_delta[key] = value
        if event.is_final_response() and event.content and event.content.parts:
            text = "".join(p.text or "" for p in event.content.parts if not p.thought)
            if text:
                self.final_text = text
        self.last_author = event.author
        self.show()

    def show(self) -> None:
        extra = self.details() if self.details else ""
        workflow.set_current_details(self.transcript.render(self.status) + extra)


def _result(answer: HumanAnswer) -> dict[str, Any]:
    return answer.payload if isinstance(answer.payload, dict) else {"result": answer.payload}
